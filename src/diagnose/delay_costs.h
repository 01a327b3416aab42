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
//
// With the phases of the program's iterations (src/structure/phases.h), the computation excess
// is compared phase by phase, and the computation costs are split over the phases in which the
// culprit computed longer than the waiter.

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
  uint16_t phase = 0;     // the phase of the largest computation excess (1-based; 0: none)
};

// A share of an instance's computation costs charged to one phase (0: outside every phase).
struct PhaseShare {
  uint16_t phase = 0;
  float fraction = 0;
};

struct DelayCosts {
  std::vector<InstanceCause> cause;  // per wait instance (WaitStates::instances' order)
  double unexplained = 0;  // waiting whose culprit shows no excess (the intervals' starts differ)
  uint64_t lost = 0;       // propagations to a wait state already charged (inconsistent clocks)
  // With phases: instance i's computation costs split over phases, the shares
  // [phase_offsets[i], phase_offsets[i + 1]) of phase_shares (none: all outside every phase).
  std::vector<uint32_t> phase_offsets;
  std::vector<PhaseShare> phase_shares;
};

// `phase_of_call`: per rank and MPI call, the phase of the computation after it (1-based, 0
// none), as structure::PhaseOfCalls gives it; null: no split by phase.
DelayCosts FindDelayCosts(const calls::CallTable& table, const WaitStates& waits,
                          const std::vector<std::vector<uint16_t>>* phase_of_call = nullptr);

}  // namespace parallax::diagnose
