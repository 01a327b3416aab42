#include "src/store/state_blocks.h"

#include <algorithm>
#include <limits>

#include "src/base/check.h"
#include "src/base/parallel.h"

namespace parallax::store {

namespace {

// Sums saturate: a sum past 2^53 is not used as it is (render/fold.cc adds such values one by one).
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace

void StateSummary::Add(uint32_t value) {
  ++count;
  sum = SaturatingAdd(sum, value);
  max = std::max(max, value);
  if (value != 0) {
    ++non_zero;
    min_non_zero = std::min<uint64_t>(min_non_zero, value);
  }
}

void StateSummary::Add(const StateSummary& o) {
  count += o.count;
  non_zero += o.non_zero;
  sum = SaturatingAdd(sum, o.sum);
  max = std::max(max, o.max);
  min_non_zero = std::min(min_non_zero, o.min_non_zero);
}

void StateBlocks::AddBlock(StateSummary& to, const Block& b, size_t count) {
  StateSummary s;
  s.count = count;
  s.non_zero = b.non_zero;
  s.sum = b.sum;
  s.max = b.max;
  s.min_non_zero = b.non_zero > 0 ? b.min_non_zero : StateSummary::kNone;
  to.Add(s);
}

StateBlocks::Block StateBlocks::MakeBlock(const StateSummary& s, model::Time last_end, bool dense) {
  Block b;
  b.sum = s.sum;
  b.last_end = last_end;
  b.max = s.max;
  b.min_non_zero = s.non_zero > 0 ? static_cast<uint32_t>(s.min_non_zero) : 0;
  b.non_zero = static_cast<uint32_t>(s.non_zero);
  b.dense = dense ? 1 : 0;
  return b;
}

bool StateBlocks::Dense(const StateColumns& s, size_t k) {
  const model::Time end = s.end[k];
  return end != model::kNoEnd && end > s.begin[k] && (k + 1 == s.size() || end == s.begin[k + 1]);
}

StateBlocks::StateBlocks(const StateColumns& s) { Append(s, s.size()); }

void StateBlocks::Append(const StateColumns& s, size_t count) {
  PARALLAX_CHECK(small_.size() % (kLarge / kSmall) == 0 && small_.size() / (kLarge / kSmall) == large_.size());
  const size_t n = std::min(count, s.size());
  small_.reserve(small_.size() + SmallBlocks(n));
  large_.reserve(large_.size() + LargeBlocks(n));
  StateSummary large;
  bool large_dense = true;
  for (size_t first = 0; first < n; first += kSmall) {
    const size_t last = std::min(n, first + kSmall);
    StateSummary sum;
    bool dense = true;
    for (size_t k = first; k < last; ++k) {
      sum.Add(s.state[k]);
      dense = dense && Dense(s, k);
    }
    small_.push_back(MakeBlock(sum, s.end[last - 1], dense));
    large.Add(sum);
    large_dense = large_dense && dense;
    if (last % kLarge == 0 || last == n) {
      large_.push_back(MakeBlock(large, s.end[last - 1], large_dense));
      large = {};
      large_dense = true;
    }
  }
}

namespace {

// The first state in [from, to) that is not dense or, when `bounded`, ends at or after `limit`
// (`to` when none), stepping over whole blocks where their flags and last ends allow.
size_t RunEnd(const StateColumns& s, const Column<StateBlocks::Block>& small,
              const Column<StateBlocks::Block>& large, size_t from, bool bounded, model::Time limit, size_t to) {
  using B = StateBlocks;
  const size_t n = std::min(to, s.size());
  auto passes = [&](size_t k) { return B::Dense(s, k) && (!bounded || s.end[k] < limit); };
  auto whole = [&](const B::Block& b) { return b.dense != 0 && (!bounded || b.last_end < limit); };
  size_t k = from;
  for (; k < n && k % B::kSmall != 0; ++k)
    if (!passes(k)) return k;
  while (k < n) {
    if (k % B::kLarge == 0 && whole(large[k / B::kLarge])) {
      k = std::min(n, k + B::kLarge);
      continue;
    }
    if (whole(small[k / B::kSmall])) {
      k = std::min(n, k + B::kSmall);
      continue;
    }
    // A state of this block fails (it is not dense, or one ends at or after the limit), unless
    // the block reaches past `to`.
    for (const size_t stop = std::min(n, k + B::kSmall); k < stop; ++k)
      if (!passes(k)) return k;
  }
  return n;
}

}  // namespace

size_t StateBlocks::DenseRunEnd(const StateColumns& s, size_t from, model::Time limit) const {
  return RunEnd(s, small_, large_, from, true, limit, s.size());
}

bool StateBlocks::AllDense(const StateColumns& s, size_t a, size_t b) const {
  return RunEnd(s, small_, large_, a, false, 0, b) >= b;
}

StateSummary StateBlocks::Summarize(const StateColumns& s, size_t a, size_t b) const {
  StateSummary r;
  size_t k = a;
  for (; k < b && k % kSmall != 0; ++k) r.Add(s.state[k]);
  while (k < b) {
    if (k % kLarge == 0 && k + kLarge <= b) {
      AddBlock(r, large_[k / kLarge], kLarge);
      k += kLarge;
    } else if (k + kSmall <= b) {
      AddBlock(r, small_[k / kSmall], kSmall);
      k += kSmall;
    } else {
      break;
    }
  }
  for (; k < b; ++k) r.Add(s.state[k]);
  return r;
}

size_t StateBlocks::FirstNonZero(const StateColumns& s, size_t a, size_t b) const {
  size_t k = a;
  for (; k < b && k % kSmall != 0; ++k)
    if (s.state[k] != 0) return k;
  while (k < b) {
    if (k % kLarge == 0 && k + kLarge <= b && large_[k / kLarge].non_zero == 0) {
      k += kLarge;
    } else if (k + kSmall <= b && small_[k / kSmall].non_zero == 0) {
      k += kSmall;
    } else {
      for (const size_t stop = std::min(b, k + kSmall); k < stop; ++k)
        if (s.state[k] != 0) return k;
    }
  }
  return b;
}

size_t StateBlocks::MemoryBytes() const {
  return (small_.capacity() + large_.capacity()) * sizeof(Block);
}

std::vector<StateBlocks> BuildStateBlocks(const TraceStore& store, unsigned threads) {
  std::vector<StateBlocks> out(store.threads());
  base::ParallelFor(out.size(), threads == 0 ? base::DefaultThreads() : threads, [&](size_t t) {
    out[t] = StateBlocks(store.Pin(model::ThreadIndex(static_cast<uint32_t>(t)), RecordParts::kStates)->states);
  });
  return out;
}

StateBlockCache::StateBlockCache(const TraceStore& store, std::vector<StateBlocks> known)
    : store_(store), entries_(std::make_unique<Entry[]>(store.threads())) {
  if (known.size() != store.threads()) return;
  for (size_t t = 0; t < known.size(); ++t) {
    if (!known[t].Fits(store.StateCount(model::ThreadIndex(static_cast<uint32_t>(t))))) continue;
    entries_[t].blocks = std::move(known[t]);
    entries_[t].known = true;
  }
}

const StateBlocks& StateBlockCache::Of(model::ThreadIndex t) const {
  Entry& e = entries_[t.value];
  if (e.known) return e.blocks;
  std::call_once(e.once, [&] { e.blocks = StateBlocks(store_.Pin(t, RecordParts::kStates)->states); });
  return e.blocks;
}

}  // namespace parallax::store
