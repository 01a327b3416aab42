#include "src/io/text_file.h"

#include "src/base/temp_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace parallax::io {

Status WriteTextFile(const std::string& path, std::string_view text, bool overwrite) {
  auto out = AtomicOutput::Create(path, overwrite);
  if (!out.ok()) return out.status();
  out.value()->Write(text);
  return out.value()->Commit();
}

Result<std::unique_ptr<AtomicOutput>> AtomicOutput::Create(const std::string& path, bool overwrite) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !overwrite)
    return Status::Error("output file exists", Location{path, 0, 0}, "use --force to replace it");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or a pipe (/dev/stdout, /dev/null, a FIFO): written in place, never replaced by a
    // renamed file; what cannot be written is still an error.
    if (S_ISDIR(st.st_mode))
      return Status::Error("the output is a folder", Location{path, 0, 0}, "give a file name");
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
      return Status::Error(fmt::format("cannot open the output: {}", std::strerror(errno)), Location{path, 0, 0},
                           "check the path");
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return std::unique_ptr<AtomicOutput>(new AtomicOutput(path, "", fd));
  }
  // A temporary name of its own in the same folder (two writers never share it), renamed over
  // `path` once everything is written.
  std::string tmpl;
  int fd = base::CreateTempBeside(path, &tmpl);
  if (fd < 0)
    return Status::Error(fmt::format("cannot create the output file: {}", std::strerror(errno)), Location{path, 0, 0},
                         "check that the folder exists and is writable");
  return std::unique_ptr<AtomicOutput>(new AtomicOutput(path, tmpl, fd));
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) {
    ::close(fd_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
  }
  if (!tmp_.empty()) base::UnregisterTempFile(tmp_);
}

bool AtomicOutput::Write(std::string_view s) {
  while (!failed_ && !s.empty()) {
    ssize_t w = ::write(fd_, s.data(), s.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      failed_ = true;
      errno_ = w < 0 ? errno : EIO;
      break;
    }
    s.remove_prefix(static_cast<size_t>(w));
  }
  return !failed_;
}

Status AtomicOutput::Commit(bool ok) {
  if (!ok && !failed_) {
    failed_ = true;
    errno_ = errno != 0 ? errno : EIO;
  }
  int err = failed_ ? (errno_ ? errno_ : EIO) : 0;
  // A regular file reaches the disk before it takes the final name (a full disk may only show
  // at fsync on some file systems).
  if (!err && !tmp_.empty() && ::fsync(fd_) != 0 && errno != EINVAL) err = errno;
  if (::close(fd_) != 0 && !err) err = errno;
  fd_ = -1;
  if (!err && !tmp_.empty() && ::rename(tmp_.c_str(), path_.c_str()) != 0) err = errno;
  if (err) {
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    return Status::Error(fmt::format("cannot write the output: {}", std::strerror(err)), Location{path_, 0, 0},
                         err == ENOSPC ? "the disk is full: free some space and run again" : "check the output's folder");
  }
  return Status::Ok();
}

}  // namespace parallax::io
