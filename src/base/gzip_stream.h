#pragma once
// Inflates gzip data piece by piece, from a file or from memory, so that a compressed input is
// never held inflated as a whole. Concatenated gzip members are read as one stream (as gzip
// does). An input that does not start with the gzip magic is refused when opened; input that
// stops inside a member is not an error but is reported by truncated(), with the offset.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "include/parallax/status.h"

namespace parallax::base {

class GzipStream {
 public:
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // Opens `path`; fails when it cannot be read or does not start with the gzip magic.
  static Result<std::unique_ptr<GzipStream>> OpenFile(const std::string& path);
  // Whether the file at `path` holds gzip data: named *.gz and starting with gzip's magic bytes.
  // A .gz name holding plain text (paramedir writes its outputs as text whatever their name) is
  // read as text, as zlib's readers do.
  static bool IsGzipFile(const std::string& path);
  // Reads compressed bytes held by the caller (kept alive while the stream is used); `name`
  // is used in messages.
  static Result<std::unique_ptr<GzipStream>> FromMemory(std::string_view bytes, std::string name);

  // Inflates up to `capacity` bytes into `out`; returns how many, 0 only at the end of the
  // input. Corrupt data is an error naming the compressed byte offset.
  Result<size_t> Read(char* out, size_t capacity);
  // Starts again from the first compressed byte.
  Status Rewind();

  // After the end: the input stopped inside a gzip member (a truncated file); the inflated
  // text is complete up to that point.
  bool truncated() const { return truncated_; }
  // After the end: bytes after the last gzip member that are not another member (ignored).
  uint64_t trailing_bytes() const { return trailing_bytes_; }
  // Compressed bytes consumed so far, and the compressed size.
  uint64_t compressed_offset() const { return consumed_ - avail_in(); }
  uint64_t compressed_size() const { return size_; }
  const std::string& name() const { return name_; }

 private:
  GzipStream() = default;
  Status Init();
  Status Refill();
  size_t avail_in() const;
  Status CorruptError(const char* what) const;

  struct State;
  std::unique_ptr<State> z_;
  std::string name_;
  int fd_ = -1;
  std::string_view memory_;
  std::unique_ptr<unsigned char[]> in_;
  uint64_t size_ = 0;
  uint64_t consumed_ = 0;  // compressed bytes handed to zlib so far
  bool input_end_ = false;
  bool finished_ = false;
  bool truncated_ = false;
  uint64_t trailing_bytes_ = 0;
};

}  // namespace parallax::base
