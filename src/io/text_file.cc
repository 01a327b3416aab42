#include "src/io/text_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace parallax::io {

Status WriteTextFile(const std::string& path, std::string_view text, bool overwrite) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    bool exists = errno == EEXIST;
    return Status::Error(fmt::format("cannot create output file: {}", std::strerror(errno)),
                         Location{path, 0, 0},
                         exists ? "the file exists; choose another name or pass --force"
                                : "check the folder exists and is writable");
  }
  const char* p = text.data();
  size_t n = text.size();
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w <= 0) {
      ::close(fd);
      return Status::Error("write failed (disk full?)", Location{path, 0, 0}, "free some space and retry");
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  if (::close(fd) != 0) return Status::Error("write failed", Location{path, 0, 0}, "");
  return Status::Ok();
}

Result<std::unique_ptr<AtomicOutput>> AtomicOutput::Create(const std::string& path, bool overwrite) {
  if (!overwrite && ::access(path.c_str(), F_OK) == 0)
    return Status::Error("output file exists", Location{path, 0, 0}, "use --force to replace it");
  std::string tmp = path + ".parallax-tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Status::Error(fmt::format("cannot create the output file: {}", std::strerror(errno)), Location{tmp, 0, 0});
  return std::unique_ptr<AtomicOutput>(new AtomicOutput(path, tmp, fd));
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

bool AtomicOutput::Write(std::string_view s) {
  while (!failed_ && !s.empty()) {
    ssize_t w = ::write(fd_, s.data(), s.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      failed_ = true;
      break;
    }
    s.remove_prefix(static_cast<size_t>(w));
  }
  return !failed_;
}

Status AtomicOutput::Commit() {
  int err = failed_ ? errno : 0;
  if (::close(fd_) != 0 && !err) err = errno;
  fd_ = -1;
  if (!err && !failed_ && ::rename(tmp_.c_str(), path_.c_str()) != 0) err = errno;
  if (err || failed_) {
    ::unlink(tmp_.c_str());
    return Status::Error(fmt::format("write failed: {}", std::strerror(err ? err : EIO)), Location{path_, 0, 0});
  }
  return Status::Ok();
}

}  // namespace parallax::io
