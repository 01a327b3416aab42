#pragma once
// The critical path (../shared/spec/waitstates.md §3): a backward walk from the end of the run
// that, at each wait state, jumps to the rank that caused it. Its segments tile the run: each
// is a stretch of one rank's time that nothing waited out.

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "src/calls/call_table.h"
#include "src/diagnose/wait_states.h"

namespace parallax::diagnose {

struct PathSegment {
  uint32_t rank = 0;
  Time begin = 0, end = 0;
};

struct CriticalPath {
  std::vector<PathSegment> segments;  // in time order; each begins where the previous ends
  Time begin = 0, end = 0;
  bool ends_at_finalize = false;            // else at the latest last record (a cut trace)
  std::array<uint64_t, kPatternCount> jumps{};  // per pattern of the wait state jumped at
  uint64_t clamped = 0;  // jumps whose culprit time was after the waiter's (clock violations)
};

CriticalPath FindCriticalPath(const calls::CallTable& table, const WaitStates& waits);

// An activity: computation (outside MPI) or an MPI call, keyed by its event (type, value).
using ActivityKey = std::pair<uint32_t, int64_t>;
inline constexpr ActivityKey kComputation{0, 0};

// Time on the path within [from, to], per rank and per activity, and every rank's time in each
// activity over the path's span within [from, to] (for the imbalance: path time - mean; for the
// performance impact: the waiting in each activity and how many ranks run it).
struct PathProfile {
  Time from = 0, to = 0;  // the span measured: the path's, within the range asked
  Time length = 0;
  std::vector<Time> by_rank;
  std::map<ActivityKey, Time> by_activity;
  std::map<ActivityKey, Time> all_ranks;  // summed over ranks, waiting included
  std::map<ActivityKey, Time> waiting;    // the wait states' part of all_ranks
  std::map<ActivityKey, uint32_t> ranks_in;  // ranks with time in the activity over the span
};

PathProfile ProfilePath(const calls::CallTable& table, const CriticalPath& path, const WaitStates& waits,
                        Time from, Time to);

}  // namespace parallax::diagnose
