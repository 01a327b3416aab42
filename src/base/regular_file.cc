#include "src/base/regular_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "src/base/memory_budget.h"

namespace parallax::base {

std::string NonRegularKind(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

namespace {

Status NotRegular(const std::string& path, mode_t mode) {
  return Status::Error(fmt::format("is {}, not a regular file: not read", NonRegularKind(mode)),
                       Location{path, 0, 0},
                       "give the path of a regular file (a pipe or a device would block the read "
                       "or never end); copy the data into a file first");
}

Status Errno(const std::string& path, const char* what, int error) {
  return Status::Error(fmt::format("{}: {}", what, std::strerror(error)), Location{path, 0, 0},
                       "check that the file exists and is readable");
}

}  // namespace

Result<int> OpenRegularFile(const std::string& path, struct stat* st) {
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) return Errno(path, "cannot open", errno);
  if (!S_ISREG(before.st_mode)) return NotRegular(path, before.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Errno(path, "cannot open", errno);
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) {
    const int error = errno;
    ::close(fd);
    return Errno(path, "cannot stat", error);
  }
  if (!S_ISREG(opened.st_mode)) {
    ::close(fd);
    return NotRegular(path, opened.st_mode);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    const int error = errno;
    ::close(fd);
    return Errno(path, "cannot open", error);
  }
  if (st != nullptr) *st = opened;
  return fd;
}

Result<std::string> ReadRegularFile(const std::string& path, size_t max_bytes) {
  struct stat st {};
  auto fd = OpenRegularFile(path, &st);
  if (!fd.ok()) return fd.status();
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.value(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd.value());
      return Errno(path, "cannot read", error);
    }
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd.value());
      return Status::Error(fmt::format("larger than {}: not read", FormatBytes(max_bytes)),
                           Location{path, 0, 0}, "is it the right file?");
    }
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd.value());
  return text;
}

}  // namespace parallax::base
