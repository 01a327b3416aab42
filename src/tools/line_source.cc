#include "src/tools/line_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/base/input_buffer.h"

namespace parallax::tools {

LineSource::~LineSource() {
  if (fd_ >= 0) close(fd_);
  if (gz_ != nullptr) gzclose(gz_);
}

Result<std::unique_ptr<LineSource>> LineSource::Open(const std::string& path, size_t block_bytes) {
  auto src = std::make_unique<LineSource>();
  src->path_ = path;
  src->block_ = block_bytes == 0 ? 1 : block_bytes;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::Error("cannot open " + path + ": " + std::strerror(errno), {path},
                         "check the path and the file's permissions");
  }
  struct stat st {};
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      close(fd);
      return Status::Error(path + " is a folder, not a trace", {path},
                           "give a .prv or .prv.gz file");
    }
    src->file_size_ = static_cast<uint64_t>(st.st_size);
  }
  if (base::EndsWith(path, ".gz")) {
    src->gz_ = gzdopen(fd, "rb");
    if (src->gz_ == nullptr) {
      close(fd);
      return Status::Error("cannot read " + path + " as gzip", {path});
    }
    gzbuffer(src->gz_, 256 * 1024);
  } else {
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    src->fd_ = fd;
  }
  src->buf_.resize(src->block_ * 2);
  return src;
}

bool LineSource::Refill() {
  // Keep the unfinished line at the front, then read one more block after it.
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < block_) buf_.resize(end_ + block_);
  int64_t got = 0;
  if (gz_ != nullptr) {
    int n = gzread(gz_, buf_.data() + end_, static_cast<unsigned>(block_));
    int gz_err = Z_OK;
    if (n == 0) gzerror(gz_, &gz_err);  // a truncated stream ends with Z_BUF_ERROR, not -1
    if (n < 0 || (gz_err != Z_OK && gz_err != Z_STREAM_END)) {
      int err = 0;
      const char* msg = gzerror(gz_, &err);
      status_ = Status::Error("cannot decompress " + path_ + ": " + msg, {path_, line_no_ + 1},
                              "the file may be truncated or not gzip-compressed");
      return false;
    }
    got = n;
    consumed_ = static_cast<uint64_t>(gzoffset(gz_));
  } else {
    ssize_t n;
    do {
      n = read(fd_, buf_.data() + end_, block_);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      status_ = Status::Error("cannot read " + path_ + ": " + std::strerror(errno),
                              {path_, line_no_ + 1});
      return false;
    }
    got = n;
    consumed_ += static_cast<uint64_t>(n);
  }
  if (got == 0) eof_ = true;
  end_ += static_cast<size_t>(got);
  return true;
}

bool LineSource::Next(std::string_view* line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    size_t avail = end_ - begin_;
    const void* nl = avail ? std::memchr(start, '\n', avail) : nullptr;
    if (nl != nullptr || (eof_ && avail > 0)) {
      size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : avail;
      begin_ += nl ? len + 1 : len;
      if (len > 0 && start[len - 1] == '\r') --len;
      *line = std::string_view(start, len);
      ++line_no_;
      return true;
    }
    if (eof_ || !status_.ok()) return false;
    if (!Refill()) return false;
  }
}

}  // namespace parallax::tools
