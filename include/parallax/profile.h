#pragma once
// Flat and time profiles of a trace's regions (the functions a thread is in), and its
// point-to-point messages as columns: what Pipit-style operations need (docs/python.md,
// "Pipit's operations"), computed from the records in one pass per thread.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// Regions are read from Extrae's event families, outermost first: user functions (60000019),
// OpenMP parallel functions (60000018), OpenMP task functions (60000023) and MPI calls
// (50000001-50000005, one family). In each family a non-zero value enters the region it names
// (the .pcf label of type:value) and 0 leaves it, as Paraver's "Last Evt Val" of the family's
// types: a family is in one region at a time, and a new value replaces the previous one.
// Time outside every region is charged to the thread's state instead: state Running as
// "Computation", any other state by its .pcf label ("Idle", "Not created", "I/O", ...); where
// the thread has no state record, to state 0 ("Idle"), as Paraver's State As Is shows it.
//
// For every region and task (summed over the task's threads), over [from, to):
//   inclusive: the time the region's family is in it;
//   exclusive: the time it is the innermost region (the deepest family in a region);
//   calls: the entries (non-zero values) in the range.
// State rows have inclusive == exclusive and no calls. The exclusive times of a thread add up
// to the length of the range (a thread without any record has none). With bins > 0, the exclusive
// time is also split over `bins` equal columns of the range (edges in trace units).
// Work: O(region events + state records).
struct RegionProfileRequest {
  std::optional<uint64_t> from, to;  // trace units; default: the whole trace
  uint32_t bins = 0;                 // 0: no time profile; at most 100000
};
struct RegionProfile {
  uint64_t from = 0, to = 0;
  std::string time_unit;           // of every time below: the trace's unit (ns, us, ms)
  std::vector<std::string> tasks;  // "TASK 1.1", ...; index = rank (0-based)
  std::vector<uint32_t> threads;   // per task, its threads
  struct Region {
    std::string name;  // .pcf label (else "TYPE:VALUE"); "Computation" or a state label
    std::string kind;  // "MPI", "OpenMP", "user function" or "state"
    uint32_t type = 0;  // event type (state rows: 0)
    int64_t value = 0;  // event value (state rows: the state)
  };
  std::vector<Region> regions;  // in order of first appearance
  std::vector<std::vector<uint64_t>> inclusive, exclusive, calls;  // [region][task]
  std::vector<uint64_t> edges;  // bins + 1 edges, from .. to
  // [region][bin * tasks + task]: exclusive time in each bin (empty without bins).
  std::vector<std::vector<uint64_t>> binned;
};
Result<RegionProfile> ProfileRegions(const Trace& trace, const RegionProfileRequest& request);

// The point-to-point messages whose logical send time is in [from, to), as columns, in sender
// thread then send time order (the communications CommTraffic counts). Tasks are 0-based.
struct MessageColumns {
  std::vector<uint32_t> sender_task, receiver_task;
  std::vector<uint64_t> send, recv;  // logical send and receive times, trace units
  std::vector<int64_t> size;         // bytes
};
Result<MessageColumns> PointToPointMessages(const Trace& trace, std::optional<uint64_t> from,
                                            std::optional<uint64_t> to);

}  // namespace parallax
