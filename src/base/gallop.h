#pragma once
// Searches of a sorted range for queries that come nearly in order (a rank's messages in time
// order, wait states latest first): from where the previous answer was, exponentially away
// from it, then by bisection of the last step. A query near the previous one costs a few
// comparisons on cache lines already read, where a bisection of the whole range would miss the
// cache at each of its first steps.

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace parallax::base {

// std::partition_point(first, last, pred) — the first element for which `pred` is false, pred
// being true then false along the range — searched from position *hint, which is set to the
// answer's position.
template <typename It, typename Pred>
It PartitionPointFrom(It first, It last, Pred pred, size_t* hint) {
  const size_t n = static_cast<size_t>(std::distance(first, last));
  size_t lo = 0, hi = n;  // the answer is in [lo, hi]
  size_t h = std::min(*hint, n);
  // Most answers lie a few elements away: walked one at a time, whose branches the processor
  // predicts, where the steps of a bisection are a coin toss each (twice as fast on the
  // message binding of the call table). Farther, the exponential search takes over.
  constexpr int kWalk = 8;
  int steps = 0;
  if (h < n && pred(first[h])) {
    do {
      ++h;
    } while (h < n && pred(first[h]) && ++steps < kWalk);
  } else {
    while (h > 0 && !pred(first[h - 1]) && ++steps < kWalk) --h;
  }
  if (steps < kWalk) {
    *hint = h;
    return first + static_cast<std::ptrdiff_t>(h);
  }
  if (h < n && pred(first[h])) {
    size_t step = 1;
    lo = h + 1;
    while (lo + step - 1 < n && pred(first[lo + step - 1])) {
      lo += step;
      step *= 2;
    }
    hi = std::min(n, lo + step - 1);
  } else {
    size_t step = 1;
    hi = h;
    while (hi >= step && !pred(first[hi - step])) {
      hi -= step;
      step *= 2;
    }
    lo = hi >= step ? hi - step + 1 : 0;
  }
  It it = std::partition_point(first + static_cast<std::ptrdiff_t>(lo), first + static_cast<std::ptrdiff_t>(hi), pred);
  *hint = static_cast<size_t>(it - first);
  return it;
}

}  // namespace parallax::base
