#include "src/tools/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "src/base/input_buffer.h"
#include "src/base/regular_file.h"
#include "src/base/temp_files.h"

namespace parallax::tools {

bool PathExists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

OutputFile::~OutputFile() {
  StopWriter();
  if (fd_ >= 0) close(fd_);
  if (gz_ != nullptr) gzclose(gz_);
  if (!committed_ && !tmp_path_.empty()) unlink(tmp_path_.c_str());
  if (!tmp_path_.empty()) base::UnregisterTempFile(tmp_path_);
}

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& path, bool force) {
  return Create(path, force, base::EndsWith(path, ".gz"));
}

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& path, bool force,
                                                       bool gzip) {
  if (!force && PathExists(path)) {
    return Status::Error(path + " exists", {path},
                         "use --force to replace it, or choose another name");
  }
  std::unique_ptr<OutputFile> out(new OutputFile());
  out->path_ = path;
  out->force_ = force;
  int fd = base::CreateTempBeside(path, &out->tmp_path_);
  if (fd < 0) {
    return Status::Error("cannot create a file next to " + path + ": " + std::strerror(errno),
                         {path}, "check that the folder exists and is writable");
  }
  if (gzip) {
    out->gz_ = gzdopen(fd, "wb6");
    if (out->gz_ == nullptr) {
      close(fd);
      return Status::Error("cannot start gzip output " + path, {path});
    }
  } else {
    out->fd_ = fd;
  }
  out->buf_.resize(kSize);
  return out;
}

void OutputFile::Write(const char* p, size_t n) {
  if (!error_.ok()) return;
  if (gz_ != nullptr) {
    while (n > 0) {
      unsigned chunk = static_cast<unsigned>(n > (1u << 30) ? (1u << 30) : n);
      if (gzwrite(gz_, p, chunk) != static_cast<int>(chunk)) {
        error_ = Status::Error("cannot write " + path_ + " (gzip error)", {path_},
                               "check free disk space");
        return;
      }
      p += chunk;
      n -= chunk;
    }
    return;
  }
  while (n > 0) {
    ssize_t w = write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = Status::Error("cannot write " + path_ + ": " + std::strerror(errno), {path_},
                             "check free disk space");
      return;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void OutputFile::Flush() {
  if (used_ == 0) return;
  const size_t n = used_;
  used_ = 0;
  written_ += n;
  if (!writer_.joinable()) {
    Write(buf_.data(), n);
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return full_.size() < kBehind; });
  full_.emplace_back(std::move(buf_), n);
  if (!spare_.empty()) {
    buf_ = std::move(spare_.back());
    spare_.pop_back();
  } else {
    buf_ = std::vector<char>();
  }
  lock.unlock();
  cv_.notify_all();
  if (buf_.size() != kSize) buf_.resize(kSize);
}

void OutputFile::WriteBehind() {
  if (writer_.joinable()) return;
  try {
    writer_ = std::thread([this] { WriterLoop(); });
  } catch (const std::system_error&) {
    // Write on this thread.
  }
}

void OutputFile::WriterLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return closing_ || !full_.empty(); });
    if (full_.empty()) return;  // closing, nothing left
    std::vector<char> b = std::move(full_.front().first);
    const size_t n = full_.front().second;
    full_.erase(full_.begin());
    lock.unlock();
    Write(b.data(), n);  // the only user of the file and of error_ while the writer runs
    lock.lock();
    spare_.push_back(std::move(b));
    cv_.notify_all();
  }
}

void OutputFile::StopWriter() {
  if (!writer_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  cv_.notify_all();
  writer_.join();
}

bool OutputFile::RewriteStart(std::string_view head) {
  if (gz_ != nullptr || head.size() > bytes_written()) return false;
  Flush();
  StopWriter();
  if (!error_.ok()) return true;  // Commit() reports it
  size_t done = 0;
  while (done < head.size()) {
    ssize_t w = pwrite(fd_, head.data() + done, head.size() - done, static_cast<off_t>(done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = Status::Error("cannot write " + path_ + ": " + std::strerror(errno), {path_},
                             "check free disk space");
      break;
    }
    done += static_cast<size_t>(w);
  }
  return true;
}

Status OutputFile::Commit() {
  Flush();
  StopWriter();  // writes what is queued
  if (gz_ != nullptr) {
    if (gzclose(gz_) != Z_OK && error_.ok())
      error_ = Status::Error("cannot finish " + path_, {path_});
    gz_ = nullptr;
  } else if (fd_ >= 0) {
    if (close(fd_) != 0 && error_.ok())
      error_ = Status::Error("cannot close " + path_ + ": " + std::strerror(errno), {path_});
    fd_ = -1;
  }
  if (!error_.ok()) return error_;
  if (!force_ && PathExists(path_)) {
    return Status::Error(path_ + " appeared while it was being written", {path_},
                         "use --force to replace it");
  }
  if (rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    return Status::Error("cannot rename the output to " + path_ + ": " + std::strerror(errno),
                         {path_});
  }
  committed_ = true;
  return Status::Ok();
}

Status CopyCompanion(const std::string& from, const std::string& to, bool force, bool* copied) {
  *copied = false;
  struct stat st {};
  if (::stat(from.c_str(), &st) != 0) return Status::Ok();  // no companion to copy
  auto opened = base::OpenRegularFile(from);
  if (!opened.ok()) return opened.status();
  const int fd = opened.value();
  auto out = OutputFile::Create(to, force);
  if (!out.ok()) {
    close(fd);
    return out.status();
  }
  std::vector<char> buf(1 << 16);
  for (;;) {
    ssize_t n = read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return Status::Error("cannot read " + from + ": " + std::strerror(errno), {from});
    }
    if (n == 0) break;
    out.value()->Text(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
  close(fd);
  Status s = out.value()->Commit();
  *copied = s.ok();
  return s;
}

}  // namespace parallax::tools
