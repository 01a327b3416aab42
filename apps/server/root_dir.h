#pragma once
// The directory `parallax serve` exposes: every path a request names is resolved here, and
// nothing outside it (by `..`, an absolute path or a symlink) is ever opened.

#include <cstdio>
#include <string>

namespace parallax::server {

// Why a path was refused, as an HTTP status and a message for the JSON error.
struct PathError {
  int status = 0;  // 0: no error; 400 malformed, 403 outside the root, 404 missing
  std::string message;
};

class RootDir {
 public:
  // `dir` must exist; it is canonicalised (symlinks resolved) once here.
  static bool Open(const std::string& dir, RootDir* out, std::string* error);

  // Resolves `user_path` (relative to the root, or absolute) to a canonical path inside the
  // root. A `..` component is refused before touching the file system.
  std::string Resolve(const std::string& user_path, PathError* error) const;

  // The canonical path `canonical` relative to the root ("" for the root itself).
  std::string Relative(const std::string& canonical) const;

  bool Contains(const std::string& canonical) const;
  const std::string& path() const { return root_; }

 private:
  // Whether some component of `normal` (a lexically normal path inside the root) below the root
  // is a symbolic link.
  bool ThroughSymlink(const std::string& normal) const;

  std::string root_;
};

// Opens the resolved path `path` for reading when it is a regular file, without ever blocking:
// O_NONBLOCK for the open, then fstat of what was opened (a named pipe swapped in after a check
// by name would otherwise hold the worker in open(2) until some process writes to it). Null
// otherwise, with `error` set (400: not a regular file, 404: cannot be read); `shown` names the
// file in the message.
std::FILE* OpenRegularForReading(const std::string& path, const std::string& shown, PathError* error);

}  // namespace parallax::server
