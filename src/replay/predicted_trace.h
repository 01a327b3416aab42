#pragma once
// The predicted trace of a replay: the original records (same objects, states, events and
// communications) with their times moved to the replayed timeline. Within each thread, time is
// mapped linearly between the anchors of its process (burst and call boundaries), so records keep
// their order and their place inside bursts and calls; threads without MPI calls keep their
// times.

#include "src/model/trace_header.h"
#include "src/replay/program.h"
#include "src/store/trace_store.h"

namespace parallax::replay {

struct PredictedTrace {
  model::TraceHeader header;
  store::TraceStore store;
};

PredictedTrace BuildPredictedTrace(const model::TraceHeader& header,
                                   const store::TraceStore& original, const Program& program,
                                   unsigned worker_threads);

}  // namespace parallax::replay
