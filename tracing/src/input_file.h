#pragma once
// Input files of the tracing library (its configuration file) and of the merge (the .pxt files)
// are opened through OpenInputFile (OpenInputFd): only a regular file, and never by a blocking
// open(2), so a named pipe or a device in their place cannot hang the traced program or the
// merge. The merge's symbolizer opens the objects a process file names the same way.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace parallax::tracing {

// A blocking read-only descriptor of `path` when it is a regular file; -1 otherwise, with `why`
// saying what was wrong (the system's message, or the kind of file).
inline int OpenInputFd(const std::string& path, std::string* why) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *why = std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "a directory, not a regular file"
                               : "not a regular file (a pipe or a device?)";
    ::close(fd);
    return -1;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    *why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

// `path` opened for reading ("rb") when it is a regular file; null otherwise, with `why`.
inline std::FILE* OpenInputFile(const std::string& path, std::string* why) {
  const int fd = OpenInputFd(path, why);
  if (fd < 0) return nullptr;
  std::FILE* f = ::fdopen(fd, "rb");
  if (f == nullptr) {
    *why = std::strerror(errno);
    ::close(fd);
  }
  return f;
}

}  // namespace parallax::tracing
