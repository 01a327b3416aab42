#pragma once
// Phases inside an iteration (docs/structure.md): on each rank, the computation between two MPI
// calls of a steady iteration, placed by its position in the iteration's calls (the anchor is
// call 0). Iterations with the commonest number of calls on a rank take part; a position whose
// computation averages at least 2% of the iteration is a phase, described by the calls around
// it, its time and its dominant burst cluster.

#include <cstdint>
#include <string>
#include <vector>

#include "src/calls/call_table.h"
#include "src/structure/bursts.h"
#include "src/structure/clusters.h"
#include "src/structure/iterations.h"

namespace parallax::structure {

struct Phase {
  uint32_t position = 0;     // the call after which the phase runs (0: the anchor)
  std::string after_call, before_call;  // "" before_call: runs until the next iteration
  uint64_t samples = 0;      // (rank, iteration) pairs
  double mean = 0;           // mean duration, trace units
  double share = 0;          // of the mean iteration
  double imbalance = 0;      // max over ranks of the mean / mean over ranks, minus 1
  int32_t cluster = kLabelNoise;  // the dominant cluster of its bursts by time
  std::vector<double> mean_by_unit;
};

struct Phases {
  uint32_t calls_per_iteration = 0;  // the commonest count
  uint64_t iterations_used = 0;      // (rank, iteration) pairs with that count
  std::vector<Phase> phases;         // by position
};

Phases FindPhases(const calls::CallTable& table, const Iterations& its, const BurstTable& bursts,
                  const Clustering& clustering, const model::PcfCatalog* pcf);

// The phase each stretch of computation belongs to: per rank, per MPI call, 1 + the index into
// phases.phases of the phase running from the call's exit to the next call's entry; 0 when it
// is none (outside the steady loop, in an iteration of another shape, or a position below 2%).
std::vector<std::vector<uint16_t>> PhaseOfCalls(const calls::CallTable& table, const Iterations& its,
                                                const Phases& phases);

}  // namespace parallax::structure
