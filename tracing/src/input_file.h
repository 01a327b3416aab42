#pragma once
// Input files of the tracing library (its configuration file) and of the merge (the .pxt files)
// are opened through OpenInputFile: only a regular file, and never by a blocking open(2), so a
// named pipe or a device in their place cannot hang the traced program or the merge.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace parallax::tracing {

// `path` opened for reading ("rb") when it is a regular file; null otherwise, with `why` saying
// what was wrong (the system's message, or the kind of file).
inline std::FILE* OpenInputFile(const std::string& path, std::string* why) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *why = std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "a directory, not a regular file"
                               : "not a regular file (a pipe or a device?)";
    ::close(fd);
    return nullptr;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  std::FILE* f =
      flags >= 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? ::fdopen(fd, "rb") : nullptr;
  if (f == nullptr) {
    *why = std::strerror(errno);
    ::close(fd);
  }
  return f;
}

}  // namespace parallax::tracing
