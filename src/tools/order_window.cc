#include "src/tools/order_window.h"

#include <algorithm>

namespace parallax::tools {

namespace {

// A refill starts when the lines and their entries take this share of the budget: the rest is
// for the merge's second list of entries and the buffer the waiting lines move to.
constexpr size_t kFillShare = 3;
// A larger window would only take more disorder, which the callers' other ways (sorted runs)
// take too; kept small, memory stays low and the sorts stay in cache longer.
constexpr size_t kMaxBudget = size_t{192} << 20;

}  // namespace

OrderWindow::OrderWindow(OutputFile& out, size_t budget)
    : out_(out), budget_(std::clamp<size_t>(budget, 1, kMaxBudget)) {
  arena_.Room(budget_ / kFillShare + (1u << 16));
}

bool OrderWindow::EndLine(const SortKey& key) {
  if (failed_) return false;
  if (written_ > 0 && key < last_written_) {
    failed_ = true;
    return false;
  }
  if (any_added_ && key < last_added_) sorted_input_ = false;
  any_added_ = true;
  last_added_ = key;
  arena_.Append("\n", 1);  // kept with the line: one copy per line written
  const size_t length = arena_.size - line_start_;
  added_.push_back({key.time, key.thread, line_start_, static_cast<uint32_t>(length), key.kind});
  line_start_ = arena_.size;
  if (arena_.size + (waiting_.size() + added_.size()) * sizeof(Entry) >= budget_ / kFillShare)
    Drain(false);
  return true;
}

void OrderWindow::Finish() {
  if (failed_) return;
  Drain(true);
}

void OrderWindow::Drain(bool all) {
  if (!std::is_sorted(added_.begin(), added_.end(), Before()))
    std::sort(added_.begin(), added_.end(), Before());
  const std::vector<Entry>* in_order = &added_;
  if (!waiting_.empty()) {
    merged_.clear();
    merged_.reserve(waiting_.size() + added_.size());
    std::merge(waiting_.begin(), waiting_.end(), added_.begin(), added_.end(),
               std::back_inserter(merged_), Before());
    in_order = &merged_;
  }
  const std::vector<Entry>& lines = *in_order;
  // The highest quarter waits for the lines after it, unless this is the end.
  const size_t keep = all ? 0 : lines.size() / 4;
  const size_t emit = lines.size() - keep;
  for (size_t i = 0; i < emit; ++i) {
    out_.Text(std::string_view(arena_.data.get() + lines[i].offset, lines[i].length));
  }
  written_ += emit;
  if (emit > 0) last_written_ = lines[emit - 1].key();
  // The waiting lines move to the front of a fresh arena.
  spare_.size = 0;
  std::vector<Entry> kept(lines.begin() + static_cast<std::ptrdiff_t>(emit), lines.end());
  for (Entry& e : kept) {
    const uint64_t at = spare_.size;
    spare_.Append(arena_.data.get() + e.offset, e.length);
    e.offset = at;
  }
  waiting_.swap(kept);
  added_.clear();
  std::swap(arena_, spare_);
  const size_t room = budget_ / kFillShare + (1u << 16);
  if (room > arena_.size) arena_.Room(room - arena_.size);
  line_start_ = arena_.size;
}

}  // namespace parallax::tools
