#pragma once
// The replay engine: executes a Program on a MachineModel and returns when every process ends
// (docs/replay.md "The model"). Processes advance in time order (a heap of process clocks), so
// links are reserved in the order the transfers happen; every operation is executed once plus
// once per wake-up, so the cost is linear in the number of operations (times log P).

#include <cstdint>
#include <vector>

#include "include/parallax/status.h"
#include "src/replay/machine_model.h"
#include "src/replay/program.h"

namespace parallax::replay {

struct Simulation {
  double runtime = 0;           // trace units: the last process end
  std::vector<double> end;      // per process, trace units
  std::vector<double> compute;  // per process: replayed burst time, trace units
  uint64_t operations = 0;      // operations executed (including re-executions after waits)
  Diagnostics diagnostics;
};

// Replays `program` (its anchors receive the replayed times). `units_per_second` converts the
// model's seconds to trace units. Fails, naming the processes involved, when the processes wait
// for one another in a cycle (a deadlock under the model's eager limit).
Result<Simulation> Simulate(Program& program, const MachineModel& model, double units_per_second,
                            const model::TraceHeader& header);

}  // namespace parallax::replay
