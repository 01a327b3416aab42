#pragma once
// Wait states of MPI calls (../shared/spec/waitstates.md §2): one pass over the call table's
// messages and collective instances. Every waiting time is clipped to its call: never negative,
// never past the call's exit; a partner that enters after this call's exit is a clock-condition
// violation, counted.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/calls/call_table.h"
#include "src/diagnose/patterns.h"
#include "src/store/trace_store.h"

namespace parallax::diagnose {

using model::Time;

struct WaitInstance {
  uint32_t rank = 0;  // index into CallTable::ranks
  uint32_t call = 0;  // index into the rank's calls
  Time wait = 0;      // waiting time, from the call's entry (> 0)
  Pattern pattern = Pattern::kLateSender;
  bool wrong_order = false;         // Late Sender: an earlier-sent message was received later
  bool wrong_order_same = false;    // ... and that message came from the same sender
  uint32_t culprit_rank = calls::kNoRank;
  uint32_t culprit_call = calls::kNoCall;  // kNoCall: the culprit's time is in no call
  Time culprit_time = 0;                   // the culprit's entry the waiter waited for
};

struct WaitStateOptions {
  // Collective sizes not recorded (no 50100001/2 events): false = unknown sizes count as
  // payload (wait states are computed), true = as no payload (strict reading: none).
  bool strict_sizes = false;
};

struct WaitStates {
  std::vector<WaitInstance> instances;  // by rank, then call; at most one per call
  // Per pattern and rank: the completion time of collectives (barrier, NxN): from the first
  // member's exit (or the end of this member's wait) to this member's exit.
  std::array<std::vector<Time>, kPatternCount> completion;
  // Per pattern: operations (a message, a collective instance) in which some rank waited.
  std::array<uint64_t, kPatternCount> operations{};
  uint64_t messages = 0;                 // communications analysed (bound to calls)
  uint64_t collectives_analysed = 0;     // collective instances analysed
  std::map<std::string, uint64_t> skipped;  // collective instances skipped, by reason
  std::map<std::string, std::pair<uint32_t, uint32_t>> skipped_example;  // its first (rank, call)
  // The collective operations analysed (MPI_Finalize's included): instance i's members (rank,
  // call) are collective_members[collective_offsets[i] .. collective_offsets[i + 1]), by rank.
  std::vector<std::pair<uint32_t, uint32_t>> collective_members;
  std::vector<uint64_t> collective_offsets{0};
  uint64_t clock_violations = 0;         // a partner entered after the waiting call's exit
  uint64_t backward_messages = 0;        // received (physically) before they were sent

  // The instance of (rank, call), or null.
  const WaitInstance* Find(uint32_t rank, uint32_t call) const;
};

WaitStates FindWaitStates(const calls::CallTable& table, const store::CommTable& comms,
                          const WaitStateOptions& options = {});

}  // namespace parallax::diagnose
