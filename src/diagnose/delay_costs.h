#pragma once
// Root causes of waiting (delay costs), after Scalasca's delay analysis: a wait state exists
// because its culprit reached the synchronisation point later than the waiter; between their
// previous synchronisation point and this one, the culprit spent more time than the waiter in
// some activities. Those excesses are the *delay*; the waiting time is charged to them in
// proportion (the short-term cost). Part of the delay may be the culprit's own waiting, caused
// by a third rank: that part is passed on to those earlier wait states, and what each activity
// causes directly and through every wait it propagates into is its long-term cost.
//
// Activities: computation (outside MPI) and MPI calls outside their waiting. The previous
// synchronisation point of a waiter and its culprit is the later of their last message (either
// way) and their last collective operation together before this one; without one, both ranks'
// starts.

#include <cstdint>
#include <utility>
#include <vector>

#include "src/calls/call_table.h"
#include "src/diagnose/critical_path.h"
#include "src/diagnose/wait_states.h"
#include "src/store/trace_store.h"

namespace parallax::diagnose {

inline constexpr ActivityKey kMpiNotWaiting{1, 0};

// What caused one wait state: the culprit's largest excess over the waiter, and where; and the
// waiting it charges to the culprit's activities (trace units): short-term, its own waiting;
// long-term, with the waiting of later wait states it propagated into.
struct InstanceCause {
  ActivityKey activity = kComputation;
  Time delay = 0;
  double computation_short = 0, mpi_short = 0;
  double computation_long = 0, mpi_long = 0;
  double propagated = 0;  // the part of its own waiting passed on to the culprit's wait states
};

struct DelayCosts {
  std::vector<InstanceCause> cause;  // per wait instance (WaitStates::instances' order)
  double unexplained = 0;  // waiting whose culprit shows no excess (the intervals' starts differ)
  uint64_t lost = 0;       // propagations to a wait state already charged (inconsistent clocks)
};

DelayCosts FindDelayCosts(const calls::CallTable& table, const store::CommTable& comms,
                          const WaitStates& waits);

}  // namespace parallax::diagnose
