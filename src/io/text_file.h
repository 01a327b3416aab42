#pragma once
// Small whole-file text output shared by the writers.

#include <memory>
#include <string>
#include <string_view>

#include "include/parallax/status.h"

namespace parallax::io {

// Writes `text` to `path`; refuses to replace an existing file unless `overwrite`.
Status WriteTextFile(const std::string& path, std::string_view text, bool overwrite);

// Streams bytes to `path` through a temporary name renamed at the end; an existing `path` is
// refused unless `overwrite`. For writers that stream.
class AtomicOutput {
 public:
  static Result<std::unique_ptr<AtomicOutput>> Create(const std::string& path, bool overwrite);
  ~AtomicOutput();
  bool Write(std::string_view bytes);
  Status Commit();  // closes and renames; after an error, removes the temporary file

 private:
  AtomicOutput(std::string path, std::string tmp, int fd) : path_(std::move(path)), tmp_(std::move(tmp)), fd_(fd) {}
  std::string path_, tmp_;
  int fd_ = -1;
  bool failed_ = false;
};


}  // namespace parallax::io
