#pragma once
// OpenMP wait states of a trace with Extrae's OpenMP events (docs/diagnose.md, "OpenMP"):
// Wait at OpenMP Barrier (each thread of a team waits in a barrier for the last one to arrive)
// and Idle Threads (the worker threads of a task while its master thread runs outside parallel
// regions). Read from the events 60000001 (Parallel: non-zero opens a region, loop or sections
// on the master, 0 closes the innermost) and 60000005 (OpenMP barrier: 1 while in a barrier).

#include <cstdint>
#include <vector>

#include "src/model/time.h"
#include "src/model/trace_header.h"
#include "src/store/trace_store.h"

namespace parallax::diagnose {

using model::Time;

inline constexpr uint32_t kOmpParallelType = 60000001;
inline constexpr uint32_t kOmpBarrierType = 60000005;

struct OmpBarrierWait {
  uint32_t thread = 0;  // global thread index
  Time entry = 0, exit = 0;
  Time wait = 0;               // from the entry (> 0)
  uint32_t last_thread = 0;    // the thread that arrived last
  Time last_entry = 0;
};

// A stretch of a task's master thread outside parallel regions: its `workers` are idle.
struct OmpIdle {
  uint32_t task = 0;
  Time begin = 0, end = 0;
  uint32_t workers = 0;
};

struct OmpWaits {
  std::vector<uint32_t> threads;  // the threads of the tasks with OpenMP events, in order
  std::vector<OmpBarrierWait> barrier_waits;
  std::vector<OmpIdle> idle;
  uint64_t barriers_analysed = 0;  // barrier instances (of two or more threads)
  uint64_t barriers_outside_regions = 0;  // barrier intervals not inside a master's region
};

OmpWaits FindOmpWaits(const model::TraceHeader& header, const store::TraceStore& store);

}  // namespace parallax::diagnose
