#pragma once
// The replay of a loaded trace, shared by `parallax replay` and `parallax pop` (which needs the
// ideal-network rows).

#include <string>

#include "include/parallax/status.h"
#include "src/replay/engine.h"
#include "src/replay/machine_model.h"
#include "src/replay/program.h"
#include "src/session/trace_impl.h"

namespace parallax::session {

struct LoadedReplay {
  replay::Program program;
  replay::Simulation simulation;
  double runtime_us = 0;     // last process end
  double useful_max_us = 0;  // longest replayed computation of a process
};

// Fails when the trace has no MPI calls or the replay deadlocks. `threads` read the trace's
// threads in parallel (0 = all cores); the simulation itself is sequential. `anchors`: keep the
// anchors a predicted trace is mapped with (two per MPI call; otherwise the replay's memory
// grows with the messages only).
Result<LoadedReplay> ReplayLoaded(const TraceImpl& trace, const std::string& path,
                                  const replay::MachineModel& model, unsigned threads,
                                  bool anchors);

}  // namespace parallax::session
