#pragma once
// Small whole-file text output shared by the writers.

#include <memory>
#include <string>
#include <string_view>

#include "include/parallax/status.h"

namespace parallax::io {

// Writes `text` to `path` (through AtomicOutput); refuses to replace an existing file unless
// `overwrite`.
Status WriteTextFile(const std::string& path, std::string_view text, bool overwrite);

// Streams bytes to `path` through a temporary name of its own renamed at the end (nothing is
// left under `path` or the temporary name after an error); an existing `path` is refused
// unless `overwrite`. A `path` that is a device or a pipe is written in place. Every write is
// checked: a full disk is an error from Commit. For writers that stream.
class AtomicOutput {
 public:
  static Result<std::unique_ptr<AtomicOutput>> Create(const std::string& path, bool overwrite);
  ~AtomicOutput();
  bool Write(std::string_view bytes);
  // Closes and renames; after an error (or with `ok` false: the caller's own writes to fd()
  // failed), removes the temporary file and says why.
  Status Commit(bool ok = true);
  // The file being written (for a writer that writes through its own layer, e.g. gzip on a
  // dup() of it; such a writer flushes and closes its layer before Commit).
  int fd() const { return fd_; }

 private:
  AtomicOutput(std::string path, std::string tmp, int fd) : path_(std::move(path)), tmp_(std::move(tmp)), fd_(fd) {}
  std::string path_, tmp_;
  int fd_ = -1;
  bool failed_ = false;
  int errno_ = 0;
};


}  // namespace parallax::io
