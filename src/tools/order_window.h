#pragma once
// Sorting in one pass when the lines come nearly in the canonical order: a sorted trace, or
// one whose records were shifted by offsets that are small next to the trace. Lines are held
// in a window of bounded size and written once the window is full, lowest keys first, except
// the highest quarter, which waits for the lines after it. A line that sorts before a line
// already written means the disorder is larger than the window: the window refuses it, and
// the caller sorts another way (runs on disk and a k-way merge). Each line is copied into the
// window once (built in place through Text/Char/Num) and again only while it waits across a
// refill; no line allocates.

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "src/tools/output_file.h"
#include "src/tools/sorter.h"

namespace parallax::tools {

class OrderWindow {
 public:
  // Holds at most about `budget` bytes (at most 192 MB): lines, their keys and the buffer they
  // are moved through.
  OrderWindow(OutputFile& out, size_t budget);

  // Append to the line being built.
  void Text(std::string_view s) { arena_.Append(s.data(), s.size()); }
  void Char(char c) { arena_.Append(&c, 1); }
  template <typename T>
  void Num(T v) {
    arena_.Room(24);
    auto r = std::to_chars(arena_.end(), arena_.end() + 24, v);
    arena_.size = static_cast<size_t>(r.ptr - arena_.data.get());
  }

  // Ends the line being built, sorted under `key` (ties keep the order of arrival). False,
  // and nothing more may be added, when it sorts before a line already written.
  bool EndLine(const SortKey& key);
  bool Add(const SortKey& key, std::string_view line) {
    Text(line);
    return EndLine(key);
  }

  // Writes every line held, in order (each followed by '\n').
  void Finish();

  bool started() const { return written_ > 0; }        // a line has been written
  bool sorted_input() const { return sorted_input_; }  // every line came in order so far
  uint64_t lines_written() const { return written_; }

 private:
  // Bytes appended without being zeroed first.
  struct Bytes {
    std::unique_ptr<char[]> data;
    size_t size = 0, capacity = 0;
    char* end() { return data.get() + size; }
    void Room(size_t n) {
      if (capacity - size >= n) return;
      const size_t c = std::max(capacity * 2, size + n);
      std::unique_ptr<char[]> bigger(new char[c]);
      if (size > 0) std::memcpy(bigger.get(), data.get(), size);
      data = std::move(bigger);
      capacity = c;
    }
    void Append(const char* p, size_t n) {
      Room(n);
      std::memcpy(data.get() + size, p, n);
      size += n;
    }
  };
  // 32 bytes: the sort moves them. Ties keep the order of arrival through `offset`: lines are
  // appended to the arena as they come, and the waiting ones move to its front in their order.
  struct Entry {
    uint64_t time, thread;
    uint64_t offset;
    uint32_t length;
    char kind;
    SortKey key() const { return {time, thread, kind}; }
  };
  struct Before {  // a type, not a function pointer: the sort and merge inline it
    bool operator()(const Entry& a, const Entry& b) const {
      if (a.time != b.time) return a.time < b.time;
      if (a.thread != b.thread) return a.thread < b.thread;
      if (a.kind != b.kind) return a.kind < b.kind;
      return a.offset < b.offset;
    }
  };
  // Sorts the lines added since the last refill into the waiting ones, writes all but the
  // highest `keep` of them and moves the rest to the front of the arena.
  void Drain(bool all);

  OutputFile& out_;
  size_t budget_;
  Bytes arena_, spare_;         // waiting lines first, then the ones added since
  std::vector<Entry> waiting_;  // sorted
  std::vector<Entry> added_;    // in arrival order
  std::vector<Entry> merged_;
  size_t line_start_ = 0;  // in arena_, of the line being built
  bool any_added_ = false;
  uint64_t written_ = 0;
  SortKey last_written_;
  SortKey last_added_;
  bool sorted_input_ = true;
  bool failed_ = false;
};

}  // namespace parallax::tools
