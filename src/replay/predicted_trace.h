#pragma once
// The predicted trace of a replay: the original records (same objects, states, events and
// communications) with their times moved to the replayed timeline. Within each thread, time is
// mapped linearly between the anchors of its process (burst and call boundaries), so records keep
// their order and their place inside bursts and calls; threads without MPI calls keep their
// times. The records are not copied: the .prv writer maps each time as it writes it, reading the
// original store a block at a time.

#include <array>
#include <vector>

#include "src/model/trace_header.h"
#include "src/replay/program.h"
#include "src/store/time_mapping.h"
#include "src/store/trace_store.h"

namespace parallax::replay {

// Original times to replayed ones, per thread, through the anchors of the thread's process.
class PredictedTimes : public store::TimeMapping {
 public:
  explicit PredictedTimes(const Program& program) : program_(&program) {}
  model::Time Thread(uint32_t thread, model::Time t) const override;
  // Each side's times by its thread; a physical receive never before the physical send.
  std::array<model::Time, 4> Comm(const store::CommTable& c, size_t id) const override;

 private:
  const std::vector<Anchor>* AnchorsOf(uint32_t thread) const;
  const Program* program_;
};

struct PredictedTrace {
  model::TraceHeader header;  // end time: the latest replayed record or anchor
  PredictedTimes times;
};

// The program must have its anchors (ProgramOptions::keep_anchors) and outlive the result.
PredictedTrace BuildPredictedTrace(const model::TraceHeader& header,
                                   const store::TraceStore& original, const Program& program,
                                   unsigned worker_threads);

}  // namespace parallax::replay
