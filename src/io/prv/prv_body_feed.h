#pragma once
// Where the .prv reader's body text comes from: pieces that end at a line boundary, delivered in
// batches that are parsed in parallel, twice (one pass to count, one to parse). A mapped file
// gives all its pieces in one batch; a .prv.gz is inflated again for each pass, a batch at a
// time, so its inflated text is never in memory as a whole. Internal to src/io/prv.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/gzip_stream.h"

namespace parallax::io::prv_internal {

// A piece of the body text that ends at a line boundary, and where it starts in the input.
struct Piece {
  std::string_view text;
  uint64_t offset = 0;
};

// Delivers the body in pieces, in batches parsed in parallel; each pass starts with Restart and
// must deliver the same pieces.
class BodyFeed {
 public:
  virtual ~BodyFeed() = default;
  virtual Status Restart() = 0;
  // Fills `out` with the next batch; empty at the end of the body.
  virtual Status NextBatch(std::vector<Piece>& out) = 0;
  // A piece will not be read again in this pass.
  virtual void Release(const Piece&) const {}
  // The last batch has been delivered.
  virtual bool exhausted() const = 0;
  // Bytes of text held in memory at once (0 when the input is mapped).
  virtual uint64_t buffer_bytes() const { return 0; }
  // (done, total) for a progress report after `parsed` bytes of text in pass `pass` (0 or 1).
  virtual std::pair<uint64_t, uint64_t> Progress(uint64_t parsed, int pass) const = 0;
};

// Splits [begin, size) of `text` into about `n` pieces that end right after a newline.
std::vector<std::pair<size_t, size_t>> SplitLines(std::string_view text, size_t begin, size_t n);

// A body held in memory (mapped file, string): all pieces in one batch.
class MemoryFeed : public BodyFeed {
 public:
  MemoryFeed(std::string_view text, size_t body_begin, size_t chunk,
             const std::function<void(size_t, size_t)>& release)
      : text_(text),
        ranges_(SplitLines(text, body_begin, (text.size() - body_begin + chunk - 1) / chunk)),
        release_(release) {}

  Status Restart() override {
    given_ = false;
    return Status::Ok();
  }
  Status NextBatch(std::vector<Piece>& out) override {
    out.clear();
    if (given_) return Status::Ok();
    given_ = true;
    for (auto [b, e] : ranges_) out.push_back({text_.substr(b, e - b), b});
    return Status::Ok();
  }
  bool exhausted() const override { return given_; }
  void Release(const Piece& p) const override {
    if (release_) release_(p.offset, p.offset + p.text.size());
  }
  std::pair<uint64_t, uint64_t> Progress(uint64_t parsed, int pass) const override {
    return {pass * text_.size() + parsed, 2 * text_.size()};
  }

 private:
  std::string_view text_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  const std::function<void(size_t, size_t)>& release_;
  bool given_ = false;
};

// A gzip body inflated as it is parsed: each batch holds at most `batch` pieces of about
// `chunk` bytes (a piece grows to hold one line longer than that, within `max_line` bytes), so
// the inflated text is never in memory as a whole. Each pass inflates the input again.
//
// With `ahead`, a thread of its own inflates the next batch into a second set of buffers while
// the caller parses this one (inflating takes about as long as parsing on two cores): a batch
// stays valid until the call after next of NextBatch, and the text held doubles.
class GzipFeed : public BodyFeed {
 public:
  GzipFeed(base::GzipStream& z, uint64_t body_begin, size_t chunk, unsigned batch,
           uint64_t max_line, bool ahead)
      : z_(z),
        body_begin_(body_begin),
        chunk_(std::max<size_t>(chunk, 64)),
        bufs_{std::vector<Buffer>(batch), std::vector<Buffer>(ahead ? batch : 0)},
        max_line_(max_line),
        ahead_(ahead) {}
  ~GzipFeed() override { Wait(); }
  GzipFeed(const GzipFeed&) = delete;
  GzipFeed& operator=(const GzipFeed&) = delete;

  Status Restart() override;

  Status NextBatch(std::vector<Piece>& out) override;

  bool exhausted() const override { return delivered_end_; }
  uint64_t buffer_bytes() const override { return peak_.load(); }
  // The body's inflated bytes (once the last batch is delivered).
  uint64_t inflated_bytes() const { return offset_; }
  std::pair<uint64_t, uint64_t> Progress(uint64_t, int pass) const override {
    uint64_t c = std::max<uint64_t>(z_.compressed_size(), 1);
    return {pass * c + std::min(c, compressed_done_.load()), 2 * c};
  }

 private:
  struct Buffer {
    std::unique_ptr<char[]> data;
    size_t allocated = 0;
    size_t capacity = 0;  // the bytes used for this pass (reset by Restart, so passes agree)
  };

  static void Reserve(Buffer& b, size_t n) {
    if (b.allocated < n) {
      auto bigger = std::make_unique<char[]>(n);
      if (b.data) std::memcpy(bigger.get(), b.data.get(), b.allocated);
      b.data = std::move(bigger);
      b.allocated = n;
    }
    b.capacity = std::max(b.capacity, n);
  }
  uint64_t CurrentBytes() const {
    uint64_t n = carry_.capacity();
    for (const std::vector<Buffer>& set : bufs_)
      for (const Buffer& b : set) n += b.allocated;
    return n;
  }
  // Inflates the next batch into buffer set `set`.
  Status Fill(std::vector<Buffer>& set, std::vector<Piece>& out);
  // Waits for the batch being inflated ahead, if any.
  void Wait() {
    if (ahead_thread_.joinable()) ahead_thread_.join();
  }

  base::GzipStream& z_;
  uint64_t body_begin_;
  size_t chunk_;
  std::vector<Buffer> bufs_[2];
  uint64_t max_line_;
  bool ahead_;
  // What the thread inflating ahead (or Fill) alone touches while it runs:
  std::string carry_;  // the start of a line cut by the end of the previous piece
  bool end_ = false;   // the input is inflated to its end
  uint64_t offset_ = 0;
  std::atomic<uint64_t> peak_{0};
  std::atomic<uint64_t> compressed_done_{0};
  // The batch inflated ahead, and the set the next one goes into.
  std::thread ahead_thread_;
  Status ahead_status_;
  std::vector<Piece> ahead_pieces_;
  bool ahead_end_ = false;
  size_t next_set_ = 0;
  bool delivered_end_ = false;  // the last batch has been delivered
};

}  // namespace parallax::io::prv_internal
