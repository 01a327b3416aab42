#include "src/io/prv/prv_body_feed.h"

#include <string.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "src/base/memory_budget.h"

namespace parallax::io::prv_internal {

std::vector<std::pair<size_t, size_t>> SplitLines(std::string_view text, size_t begin, size_t n) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t size = text.size();
  if (n == 0 || begin >= size) return out;
  size_t step = std::max<size_t>(1, (size - begin + n - 1) / n);
  size_t pos = begin;
  while (pos < size) {
    size_t cut = std::min(size, pos + step);
    if (cut < size) {
      size_t nl = text.find('\n', cut - 1);
      cut = nl == std::string_view::npos ? size : nl + 1;
    }
    out.emplace_back(pos, cut);
    pos = cut;
  }
  return out;
}

Status GzipFeed::Restart() {
  Status s = z_.Rewind();
  if (!s.ok()) return s;
  for (Buffer& b : bufs_) b.capacity = chunk_;
  carry_.clear();
  end_ = false;
  offset_ = body_begin_;
  std::vector<char> scratch(std::min<uint64_t>(body_begin_, 1 << 16) + 1);
  for (uint64_t left = body_begin_; left > 0;) {
    auto got = z_.Read(scratch.data(), std::min<uint64_t>(left, scratch.size()));
    if (!got.ok()) return got.status();
    if (got.value() == 0)
      return Status::Error("the compressed input changed while it was read",
                           Location{z_.name(), 0, 0}, "load it again");
    left -= got.value();
  }
  return Status::Ok();
}

Status GzipFeed::NextBatch(std::vector<Piece>& out) {
  out.clear();
  for (size_t k = 0; k < bufs_.size() && !end_; ++k) {
    Buffer& b = bufs_[k];
    Reserve(b, std::max(b.capacity, carry_.size() + 1));
    size_t used = carry_.size();
    std::memcpy(b.data.get(), carry_.data(), used);
    carry_.clear();
    size_t cut = 0;
    for (;;) {
      if (used < b.capacity) {
        auto got = z_.Read(b.data.get() + used, b.capacity - used);
        if (!got.ok()) return got.status();
        used += got.value();
        if (got.value() == 0) end_ = true;
      }
      if (end_) {
        cut = used;
        break;
      }
      const void* nl = memrchr(b.data.get(), '\n', used);
      if (nl != nullptr) {
        cut = static_cast<size_t>(static_cast<const char*>(nl) - b.data.get()) + 1;
        carry_.assign(b.data.get() + cut, used - cut);
        break;
      }
      if (b.capacity >= max_line_)
        return Status::Error(
            fmt::format("a line longer than {} (no newline found)", base::FormatBytes(max_line_)),
            Location{z_.name(), 0, 0},
            "this is not a Paraver trace, or its memory budget is far too small");
      Reserve(b, std::min<uint64_t>(b.capacity * 2, max_line_));
    }
    if (cut > 0) out.push_back({std::string_view(b.data.get(), cut), offset_});
    offset_ += cut;
  }
  peak_ = std::max(peak_, CurrentBytes());
  return Status::Ok();
}

}  // namespace parallax::io::prv_internal
