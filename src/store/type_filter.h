#pragma once
// Whether an event type lies in a set of inclusive ranges, answered per record in the passes
// that read every event of a thread (the call table, the structure's markers). A trace has few
// distinct types, repeated millions of times: a small direct-mapped cache of the last answers
// makes the test one load and one comparison instead of a walk over the ranges.

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace parallax::store {

class TypeFilter {
 public:
  explicit TypeFilter(std::vector<std::pair<uint32_t, uint32_t>> ranges) : ranges_(std::move(ranges)) {
    seen_.fill(kEmpty);
  }

  bool empty() const { return ranges_.empty(); }

  bool operator()(uint32_t type) {
    Slot& s = seen_[type & (kSlots - 1)];
    if (s.type == type) return s.in;
    bool in = false;
    for (const auto& [lo, hi] : ranges_) in |= type >= lo && type <= hi;
    s = {type, in};
    return in;
  }

 private:
  struct Slot {
    uint32_t type;
    bool in;
  };
  static constexpr size_t kSlots = 64;
  static constexpr Slot kEmpty{UINT32_MAX, false};  // no event has this type (it is never cached)
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;
  std::array<Slot, kSlots> seen_;
};

}  // namespace parallax::store
