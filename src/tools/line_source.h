#pragma once
// Reads a text file line by line in bounded memory: plain files through read(2) in blocks,
// names ending in ".gz" through zlib's gzread. A line is a view into an internal buffer that
// stays valid until the next call to Next(); a line longer than the buffer makes the buffer
// grow to hold it (memory stays proportional to the longest line, not to the file).

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"

namespace parallax::tools {

// A buffer of whole lines filled by LineSource::TakeLines (not zero-initialised when it grows).
struct LineBlock {
  std::unique_ptr<char[]> data;
  size_t size = 0, capacity = 0;
  void Reserve(size_t n);  // keeps the first `size` bytes
  std::string_view view() const { return {data.get(), size}; }
};

class LineSource {
 public:
  LineSource() = default;
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;
  ~LineSource();

  // Opens `path`; `block_bytes` is the read size (tests use tiny values to force every
  // boundary through the refill path).
  static Result<std::unique_ptr<LineSource>> Open(const std::string& path,
                                                  size_t block_bytes = 4u << 20);

  // The next line without its '\n' (a trailing '\r' is removed too). False at the end of the
  // file or on a read error (see status()).
  bool Next(std::string_view* line);

  // Replaces `block` with the next whole lines (about `want` bytes read, at least one line,
  // each with its '\n' except a last line without one at the end of the file). False at the
  // end of the file or on a read error (see status()). Does not count lines: a caller that
  // mixes it with Next() keeps its own line numbers.
  bool TakeLines(LineBlock* block, size_t want);

  uint64_t line_number() const { return line_no_; }    // 1-based number of the last line
  uint64_t bytes_done() const { return consumed_; }    // file bytes read so far
  uint64_t bytes_total() const { return file_size_; }  // on-disk size (compressed for .gz)
  const Status& status() const { return status_; }
  size_t block_bytes() const { return block_; }
  const std::string& path() const { return path_; }

 private:
  bool Refill();
  // read(2) or gzread of at most n bytes at p; -1 with status_ set on an error.
  int64_t ReadSome(char* p, size_t n);

  std::string path_;
  int fd_ = -1;
  gzFile gz_ = nullptr;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  size_t block_ = 0;
  bool eof_ = false;
  uint64_t line_no_ = 0;
  uint64_t consumed_ = 0;
  uint64_t file_size_ = 0;
  Status status_;
};

}  // namespace parallax::tools
