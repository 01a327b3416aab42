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
  Wait();
  ahead_pieces_.clear();
  next_set_ = 0;
  delivered_end_ = false;
  Status s = z_.Rewind();
  if (!s.ok()) return s;
  for (std::vector<Buffer>& set : bufs_)
    for (Buffer& b : set) b.capacity = chunk_;
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
  bool end = false;
  if (ahead_thread_.joinable()) {
    Wait();
    if (!ahead_status_.ok()) return ahead_status_;
    out.swap(ahead_pieces_);
    end = ahead_end_;
  } else {
    if (Status s = Fill(bufs_[next_set_], out); !s.ok()) return s;
    end = end_;
  }
  delivered_end_ = end;
  if (ahead_ && !end) {
    next_set_ ^= 1;  // the set of the batch before this one: the caller is done with it
    ahead_thread_ = std::thread([this, set = next_set_] {
      try {
        ahead_status_ = Fill(bufs_[set], ahead_pieces_);
      } catch (const std::bad_alloc&) {
        ahead_status_ = Status::Error("out of memory while inflating the trace", Location{z_.name(), 0, 0},
                                      "give it a smaller memory budget (--memory-limit)");
      }
      ahead_end_ = end_;
    });
  }
  return Status::Ok();
}

Status GzipFeed::Fill(std::vector<Buffer>& set, std::vector<Piece>& out) {
  out.clear();
  for (size_t k = 0; k < set.size() && !end_; ++k) {
    Buffer& b = set[k];
    Reserve(b, std::max(b.capacity, carry_.size() + 1));
    size_t used = carry_.size();
    std::memcpy(b.data.get(), carry_.data(), used);
    carry_.clear();
    size_t cut = 0;
    for (;;) {
      if (used < b.capacity) {
        auto got = z_.Read(b.data.get() + used, b.capacity - used);
        if (!got.ok()) return got.status();
        compressed_done_ = z_.compressed_offset();
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
  peak_ = std::max(peak_.load(), CurrentBytes());
  return Status::Ok();
}

}  // namespace parallax::io::prv_internal
