#pragma once
// Finds the events of a few type ranges in a thread's type column, for the passes that read
// every event of every thread but act on a small share of them (the call table: MPI calls and
// their attributes, the structure's markers; about one event in twenty). Sixteen types are
// tested at a time against every range with SSE2 (every x86-64 has it), and the hits are
// visited from the lanes' mask, so an event of another type costs a fraction of a cycle and no
// branch. Without SSE2 the test is the same, one type at a time.
//
// Up to kMaxRanges ranges are tested exactly; more are merged (nearest first) into as many
// covering ranges, and each hit of a merged range is checked against the ranges given.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace parallax::store {

class TypeScan {
 public:
  static constexpr size_t kMaxRanges = 6;

  // Inclusive ranges of types; empty ones (lo > hi) are ignored.
  explicit TypeScan(std::vector<std::pair<uint32_t, uint32_t>> ranges) {
    ranges.erase(std::remove_if(ranges.begin(), ranges.end(), [](const auto& r) { return r.first > r.second; }),
                 ranges.end());
    std::sort(ranges.begin(), ranges.end());
    for (const auto& r : ranges)  // overlapping or adjacent ranges are one
      if (!exact_.empty() && uint64_t{r.first} <= uint64_t{exact_.back().second} + 1)
        exact_.back().second = std::max(exact_.back().second, r.second);
      else
        exact_.push_back(r);
    std::vector<std::pair<uint32_t, uint32_t>> tested = exact_;
    while (tested.size() > kMaxRanges) {  // join the two ranges with the smallest gap
      size_t k = 0;
      for (size_t j = 1; j + 1 < tested.size(); ++j)
        if (tested[j + 1].first - tested[j].second < tested[k + 1].first - tested[k].second) k = j;
      tested[k].second = tested[k + 1].second;
      tested.erase(tested.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    }
    merged_ = tested.size() != exact_.size();
    count_ = tested.size();
    for (size_t r = 0; r < count_; ++r) {
      lo_[r] = tested[r].first;
      span_[r] = tested[r].second - tested[r].first;
    }
  }

  bool empty() const { return count_ == 0; }

  // Whether `type` lies in one of the ranges.
  bool Contains(uint32_t type) const {
    for (const auto& [lo, hi] : exact_)
      if (type >= lo && type <= hi) return true;
    return false;
  }

  // Calls fn(i) for every i in [begin, end) whose types[i] lies in one of the ranges, in order.
  template <typename Fn>
  void ForEach(const uint32_t* types, size_t begin, size_t end, Fn&& fn) const {
    if (count_ == 0) return;
    size_t i = begin;
#if defined(__SSE2__)
    // Signed comparisons only: t - lo <= span (unsigned) is t + (2^31 - lo) <= span - 2^31 (signed).
    __m128i shift[kMaxRanges], limit[kMaxRanges];
    for (size_t r = 0; r < count_; ++r) {
      shift[r] = _mm_set1_epi32(static_cast<int32_t>(0x80000000u - lo_[r]));
      limit[r] = _mm_set1_epi32(static_cast<int32_t>(span_[r] ^ 0x80000000u));
    }
    for (; i + 16 <= end; i += 16) {
      const __m128i* p = reinterpret_cast<const __m128i*>(types + i);
      const __m128i v0 = _mm_loadu_si128(p), v1 = _mm_loadu_si128(p + 1);
      const __m128i v2 = _mm_loadu_si128(p + 2), v3 = _mm_loadu_si128(p + 3);
      __m128i out0 = _mm_cmpgt_epi32(_mm_add_epi32(v0, shift[0]), limit[0]);  // lanes out of range 0
      __m128i out1 = _mm_cmpgt_epi32(_mm_add_epi32(v1, shift[0]), limit[0]);
      __m128i out2 = _mm_cmpgt_epi32(_mm_add_epi32(v2, shift[0]), limit[0]);
      __m128i out3 = _mm_cmpgt_epi32(_mm_add_epi32(v3, shift[0]), limit[0]);
      for (size_t r = 1; r < count_; ++r) {
        out0 = _mm_and_si128(out0, _mm_cmpgt_epi32(_mm_add_epi32(v0, shift[r]), limit[r]));
        out1 = _mm_and_si128(out1, _mm_cmpgt_epi32(_mm_add_epi32(v1, shift[r]), limit[r]));
        out2 = _mm_and_si128(out2, _mm_cmpgt_epi32(_mm_add_epi32(v2, shift[r]), limit[r]));
        out3 = _mm_and_si128(out3, _mm_cmpgt_epi32(_mm_add_epi32(v3, shift[r]), limit[r]));
      }
      // One bit per lane that is out of every range; the hits are the zero bits.
      const unsigned out = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(out0))) |
                           static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(out1))) << 4 |
                           static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(out2))) << 8 |
                           static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(out3))) << 12;
      for (unsigned hits = ~out & 0xFFFFu; hits != 0; hits &= hits - 1) {
        const size_t k = i + static_cast<size_t>(__builtin_ctz(hits));
        if (!merged_ || Contains(types[k])) fn(k);
      }
    }
#endif
    for (; i < end; ++i) {
      bool in = false;
      for (size_t r = 0; r < count_; ++r) in |= types[i] - lo_[r] <= span_[r];
      if (in && (!merged_ || Contains(types[i]))) fn(i);
    }
  }

 private:
  std::vector<std::pair<uint32_t, uint32_t>> exact_;  // sorted, disjoint, not adjacent
  bool merged_ = false;                               // the tested ranges cover more than exact_
  size_t count_ = 0;                                  // tested ranges
  std::array<uint32_t, kMaxRanges> lo_{}, span_{};
};

}  // namespace parallax::store
