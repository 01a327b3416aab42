#pragma once
// The computation bursts of a trace: its Running states (state 1, Paraver's "Running"), on every
// thread, with the hardware counters read during each (docs/structure.md). A counter event holds
// what was counted since the thread's previous read (Extrae's rule), so a burst's count is the
// sum of the counter's values at times in (begin, end]; a burst none of whose reads in that span
// has the counter has none (-1).

#include <cstdint>
#include <vector>

#include "src/model/pcf_catalog.h"
#include "src/model/time.h"
#include "src/store/trace_store.h"

namespace parallax::structure {

using model::Time;

inline constexpr uint32_t kRunningState = 1;
// Extrae's PAPI event types, used when the .pcf does not name the counters.
inline constexpr uint32_t kPapiInstructions = 42000050;  // PAPI_TOT_INS
inline constexpr uint32_t kPapiCycles = 42000059;        // PAPI_TOT_CYC

struct Burst {
  Time begin = 0, end = 0;
  uint32_t thread = 0;        // global thread index
  uint32_t cpu = 0;           // 1-based, 0: none (the state's)
  int64_t instructions = -1;  // -1: not read during the burst
  int64_t cycles = -1;
  Time duration() const { return end - begin; }
  double ipc() const { return cycles > 0 && instructions >= 0 ? double(instructions) / double(cycles) : -1; }
};

struct BurstTable {
  std::vector<Burst> bursts;  // by thread, then time
  uint32_t instructions_type = 0, cycles_type = 0;  // 0: the trace has no such counter
  uint64_t with_counters = 0;  // bursts with both counters
};

struct BurstOptions {
  Time from = 0, to = UINT64_MAX;  // bursts that begin in [from, to)
  unsigned worker_threads = 1;     // 0: all cores
};

// The counter types: by the .pcf's labels (PAPI_TOT_INS, PAPI_TOT_CYC), else Extrae's numbers
// when the trace has events of them.
void FindCounterTypes(const model::PcfCatalog* pcf, uint32_t* instructions, uint32_t* cycles);

// Reads the bursts of every thread. Throws store::DamagedRecords for a damaged cache.
BurstTable ReadBursts(const store::TraceStore& store, const model::PcfCatalog* pcf,
                      const BurstOptions& options = {});

}  // namespace parallax::structure
