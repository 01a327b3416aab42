#include "src/semantic/state_row.h"

#include <algorithm>

namespace parallax::semantic {

StateRow::StateRow(const store::StateColumns& states, model::Time trace_end)
    : s_(states), trace_end_(trace_end) {}

bool StateRow::WellFormed(const store::StateColumns& s, model::Time from, model::Time to) {
  auto first = std::lower_bound(s.begin.begin(), s.begin.end(), from) - s.begin.begin();
  auto last = std::upper_bound(s.begin.begin(), s.begin.end(), to) - s.begin.begin();
  for (size_t k = static_cast<size_t>(std::max<ptrdiff_t>(first - 1, 0));
       k < s.size() && k <= static_cast<size_t>(last); ++k) {
    if (s.end[k] == model::kNoEnd || s.end[k] < s.begin[k]) return false;
    if (k + 1 < s.size() && s.end[k] > s.begin[k + 1]) return false;
  }
  return true;
}

bool StateRow::Empty(size_t pos) const {
  const size_t n = s_.size();
  if (pos == 0) return n > 0 && s_.begin[0] == 0;
  if (pos % 2 == 1) return false;  // states, even zero-length ones, are intervals
  // A state end is a boundary only when no state begins at that time: not after a zero-length
  // state (it begins there itself), nor when the next state begins where this one ends.
  size_t k = pos / 2 - 1;
  return s_.end[k] == s_.begin[k] || (k + 1 < n && s_.end[k] >= s_.begin[k + 1]);
}

model::Time StateRow::NextBegin(size_t k) const {
  return k + 1 < s_.size() ? s_.begin[k + 1] : std::max(trace_end_, s_.end[k]);
}

void StateRow::Load() {
  const size_t n = s_.size();
  if (pos_ == 0) {
    cur_ = {0, n > 0 ? s_.begin[0] : trace_end_, 0, 0};
  } else if (pos_ % 2 == 1) {
    size_t k = pos_ / 2;
    model::Time end = s_.end[k] == s_.begin[k] ? NextBegin(k) : s_.end[k];
    cur_ = {s_.begin[k], end, static_cast<double>(s_.state[k]), s_.cpu[k]};
  } else if (size_t k = pos_ / 2 - 1; k < n) {
    cur_ = {s_.end[k], NextBegin(k), 0, 0};
  }
}

void StateRow::Init(model::Time t) {
  auto it = std::upper_bound(s_.begin.begin(), s_.begin.end(), t);
  if (it == s_.begin.begin()) {
    pos_ = 0;
  } else {
    auto k = static_cast<size_t>(it - s_.begin.begin()) - 1;
    pos_ = t < s_.end[k] || Empty(2 * k + 2) ? 2 * k + 1 : 2 * k + 2;
  }
  Load();
}

void StateRow::Next() {
  const size_t last = 2 * s_.size();  // the gap after the last state (to the trace end)
  if (pos_ >= last) {
    cur_ = {cur_.end, cur_.end, 0, 0};  // past the end: empty intervals, as the generic row does
    return;
  }
  do {
    ++pos_;
  } while (pos_ < last && Empty(pos_));
  Load();
}

bool IsPlainStateWindow(const WindowSpec& w) {
  using semantic::Slot;
  if (w.derived || w.level != model::Level::kThread || !w.extra_composes.empty()) return false;
  if (semantic::SlotFunction(w, Slot::kThread).name != "State As Is") return false;
  for (Slot s : {Slot::kComposeThread, Slot::kTopCompose1, Slot::kTopCompose2})
    if (semantic::SlotFunction(w, s).name != "As Is") return false;
  return true;
}

std::unique_ptr<Row> MakeFastRow(const WindowEvaluator& window,
                                           const store::TraceStore* store, uint32_t object,
                                           model::Time from, model::Time to) {
  if (store != nullptr && IsPlainStateWindow(window.spec()) && object < store->threads()) {
    window.CheckDeadline();  // the fast row does not check it as it moves: once per row
    const auto& states = store->thread(model::ThreadIndex(object)).states;
    if (StateRow::WellFormed(states, from, to))
      return std::make_unique<StateRow>(states, window.trace_end());
  }
  return window.MakeRow(object);
}

}  // namespace parallax::semantic
