#include "src/semantic/fast_rows.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>

namespace parallax::semantic {

StateRow::StateRow(const store::StateColumns& states, model::Time trace_end,
                   const store::StateBlocks* blocks)
    : s_(states), trace_end_(trace_end), blocks_(blocks) {}

bool StateRow::WellFormed(const store::StateColumns& s, model::Time from, model::Time to,
                          const store::StateBlocks* blocks) {
  auto first = std::lower_bound(s.begin.begin(), s.begin.end(), from) - s.begin.begin();
  auto last = std::upper_bound(s.begin.begin(), s.begin.end(), to) - s.begin.begin();
  // Dense states are closed and end where the next begins.
  const auto a = static_cast<size_t>(std::max<ptrdiff_t>(first - 1, 0));
  const size_t b = std::min(s.size(), static_cast<size_t>(last) + 1);
  if (blocks != nullptr && a < b && blocks->AllDense(s, a, b)) return true;
  for (size_t k = a; k < b; ++k) {
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

EventRow::EventRow(const store::EventColumns& events, const filter::Filter& filter, model::Time trace_end)
    : e_(events), f_(filter), value_matters_(filter.EventValueMatters()), trace_end_(trace_end) {
  std::vector<uint32_t> types;
  if (filter.FewPassingTypes(kFew, &types)) {
    few_ = true;
    few_count_ = types.size();
    for (size_t a = 0; a < kFew; ++a) few_types_[a] = types.empty() ? 0 : types[a < types.size() ? a : 0];
  }
}

size_t EventRow::ScanFew(size_t from) const {
  const size_t n = e_.size();
  if (few_count_ == 0) return n;
  const uint32_t* t = e_.type.data();
#if defined(__SSE2__)
  // Sixteen events at a time, compared with every passing type at once (SSE2, which every
  // x86-64 has); the first hit is found in the block from its lanes' mask.
  __m128i want[kFew];
  for (size_t a = 0; a < few_count_; ++a) want[a] = _mm_set1_epi32(static_cast<int>(few_types_[a]));
  while (from + 16 <= n) {
    __m128i hit[4];
    for (size_t q = 0; q < 4; ++q) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + from + 4 * q));
      hit[q] = _mm_cmpeq_epi32(v, want[0]);
      for (size_t a = 1; a < few_count_; ++a) hit[q] = _mm_or_si128(hit[q], _mm_cmpeq_epi32(v, want[a]));
    }
    const __m128i any = _mm_or_si128(_mm_or_si128(hit[0], hit[1]), _mm_or_si128(hit[2], hit[3]));
    if (_mm_movemask_epi8(any) != 0) {
      for (size_t q = 0;; ++q)  // the first lane with a hit: 4 mask bits per 32-bit lane
        if (const int m = _mm_movemask_epi8(hit[q]); m != 0)
          return from + 4 * q + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(m))) / 4;
    }
    from += 16;
  }
#endif
  for (; from < n; ++from)
    for (size_t a = 0; a < few_count_; ++a)
      if (t[from] == few_types_[a]) return from;
  return n;
}

const EventRow::TypeMemo& EventRow::Memo(uint32_t type) const {
  // Open addressing: the first types seen keep their slots (two frequent types must not evict
  // each other); when the table is full the others are looked up every time.
  size_t slot = (type * 2654435761u) >> 26;
  for (size_t probe = 0; probe < memo_.size(); ++probe, slot = (slot + 1) % memo_.size()) {
    TypeMemo& m = memo_[slot];
    if (m.known && m.type == type) return m;
    if (!m.known) {
      m = {type, true, f_.PassEvent(type, 0), f_.ScaledValue(type, 1)};  // pass: if the value does not matter
      return m;
    }
  }
  overflow_ = {type, true, f_.PassEvent(type, 0), f_.ScaledValue(type, 1)};
  return overflow_;
}

size_t EventRow::ScanFewBack(size_t to) const {
  const uint32_t* t = e_.type.data();
  if (few_count_ == 0) return kBefore;
#if defined(__SSE2__)
  // As ScanFew, backwards: a thread without any passing event is crossed sixteen at a time.
  __m128i want[kFew];
  for (size_t a = 0; a < few_count_; ++a) want[a] = _mm_set1_epi32(static_cast<int>(few_types_[a]));
  while (to >= 16) {
    __m128i hit = _mm_setzero_si128();
    for (size_t q = 0; q < 4; ++q) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + to - 16 + 4 * q));
      for (size_t a = 0; a < few_count_; ++a) hit = _mm_or_si128(hit, _mm_cmpeq_epi32(v, want[a]));
    }
    if (_mm_movemask_epi8(hit) != 0) break;
    to -= 16;
  }
#endif
  while (to > 0) {
    --to;
    for (size_t a = 0; a < few_count_; ++a)
      if (t[to] == few_types_[a]) return to;
  }
  return kBefore;
}

bool EventRow::Pass(size_t i) const {
  if (few_) {
    const uint32_t type = e_.type[i];
    for (size_t a = 0; a < few_count_; ++a)
      if (type == few_types_[a]) return true;
    return false;
  }
  return value_matters_ ? f_.PassEvent(e_.type[i], e_.value[i]) : Memo(e_.type[i]).pass;
}

size_t EventRow::Accepted(size_t from) const {
  if (few_) return ScanFew(from);
  const size_t n = e_.size();
  while (from < n && !Pass(from)) ++from;
  return from;
}

void EventRow::Load() {
  const size_t n = e_.size();
  if (pos_ == kBefore) {
    next_ = Accepted(0);
    cur_ = {0, next_ < n ? e_.time[next_] : trace_end_, 0, 0};
  } else if (pos_ >= n) {
    // Past the end: the generic cursor's trailing record keeps the cpu of the last it passed.
    next_ = n;
    cur_ = {trace_end_, trace_end_, 0, n > 0 ? e_.cpu[n - 1] : uint16_t{0}};
  } else {
    next_ = Accepted(pos_ + 1);
    cur_ = {e_.time[pos_], next_ < n ? e_.time[next_] : trace_end_,
            static_cast<double>(e_.value[pos_]) * Memo(e_.type[pos_]).factor, e_.cpu[pos_]};
  }
}

void EventRow::Init(model::Time t) {
  // The last event at or before t that passes (the generic cursor seeks after t, then steps
  // back over the events the filter drops).
  size_t k = static_cast<size_t>(std::upper_bound(e_.time.begin(), e_.time.end(), t) - e_.time.begin());
  pos_ = kBefore;
  if (few_) {
    pos_ = ScanFewBack(k);
  } else {
    while (k > 0) {
      --k;
      if (Pass(k)) {
        pos_ = k;
        break;
      }
    }
  }
  Load();
}

void EventRow::Next() {
  if (pos_ == kBefore || pos_ < e_.size()) pos_ = next_;
  Load();
}

namespace {

bool PlainThreadWindow(const WindowSpec& w, std::string_view thread_function) {
  using semantic::Slot;
  if (w.derived || w.level != model::Level::kThread || !w.extra_composes.empty()) return false;
  if (semantic::SlotFunction(w, Slot::kThread).name != thread_function) return false;
  for (Slot s : {Slot::kComposeThread, Slot::kTopCompose1, Slot::kTopCompose2})
    if (semantic::SlotFunction(w, s).name != "As Is") return false;
  return true;
}

}  // namespace

bool IsPlainStateWindow(const WindowSpec& w) { return PlainThreadWindow(w, "State As Is"); }
bool IsPlainEventWindow(const WindowSpec& w) { return PlainThreadWindow(w, "Last Evt Val"); }

std::unique_ptr<Row> MakeFastRow(const WindowEvaluator& window, const store::TraceStore* store,
                                 uint32_t object, model::Time from, model::Time to,
                                 const store::StateBlockCache* blocks) {
  if (store != nullptr && IsPlainStateWindow(window.spec()) && object < store->threads()) {
    window.CheckDeadline();  // the fast row does not check it as it moves: once per row
    auto pin = store->Pin(model::ThreadIndex(object), store::RecordParts::kStates);
    const store::StateBlocks* b = blocks ? &blocks->Of(model::ThreadIndex(object)) : nullptr;
    if (StateRow::WellFormed(pin->states, from, to, b)) {
      auto row = std::make_unique<StateRow>(pin->states, window.trace_end(), b);
      row->Keep(std::move(pin));
      return row;
    }
  }
  if (store != nullptr && IsPlainEventWindow(window.spec()) && object < store->threads()) {
    window.CheckDeadline();
    auto pin = store->Pin(model::ThreadIndex(object), store::RecordParts::kEvents);
    auto row = std::make_unique<EventRow>(pin->events, window.filter(), window.trace_end());
    row->Keep(std::move(pin));
    return row;
  }
  return window.MakeRow(object);
}

}  // namespace parallax::semantic
