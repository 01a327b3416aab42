#pragma once
// Moves records' times as they are read out (a replay's predicted trace, written by the .prv
// writer from the original store). Each thread's times must go through a non-decreasing
// function, so that each thread's records keep their order.

#include <array>
#include <cstddef>
#include <cstdint>

#include "src/model/time.h"
#include "src/store/trace_store.h"

namespace parallax::store {

class TimeMapping {
 public:
  virtual ~TimeMapping() = default;
  // A state begin or end, or an event time, of `thread`.
  virtual model::Time Thread(uint32_t thread, model::Time t) const = 0;
  // Communication `id`'s logical send, physical send, logical receive and physical receive.
  virtual std::array<model::Time, 4> Comm(const CommTable& comms, size_t id) const = 0;
};

}  // namespace parallax::store
