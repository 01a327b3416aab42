#pragma once
// The structure of a run (docs/structure.md): its main iterative loop (iterations per rank, the
// irregular start-up and tear-down apart), the phases inside an iteration, and clusters of its
// computation bursts (DBSCAN on instructions and IPC, or on durations without counters), with
// their text and json renderings, and the trace written back with them as events.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/tools.h"
#include "include/parallax/trace.h"

namespace parallax {

struct StructureOptions {
  // Iterations from this marker only: an event type, and a value (none: any non-zero value).
  std::optional<uint32_t> marker_type;
  std::optional<int64_t> marker_value;
  // Clustering: 0 / -1 choose from the data (docs/structure.md).
  double eps = 0;
  uint32_t min_points = 0;
  int64_t min_duration = -1;  // trace units
  bool duration_only = false;  // cluster by duration even when counters are present
  bool bursts = false;         // fill ProgramStructure::bursts
};

struct IterationItem {
  double begin_s = 0, end_s = 0;  // over all ranks
  uint64_t begin = 0, end = 0;    // trace units
  std::vector<uint64_t> begin_by_rank, end_by_rank;
};

struct IterationCandidate {
  std::string name;
  bool marker = false;
  uint64_t occurrences = 0, iterations = 0, steady = 0;
  uint32_t group = 1;
  double spread = 0, coverage = 0, consistency = 0;
  std::string rejected;
  std::string nested_in;  // qualifies only as a loop nested in this candidate's (see docs/structure.md)
};

struct IterationsInfo {
  bool found = false;
  std::string anchor;       // "MPI_Allreduce", "User function timestep"
  bool marker = false;      // a marker event rather than an MPI call
  uint32_t group = 1;       // anchor occurrences per iteration
  uint64_t count = 0;
  double period_s = 0;      // median duration
  double min_s = 0, median_s = 0, max_s = 0, mean_s = 0;
  double confidence = 0;    // 0..1
  // The run: from the end of MPI_Init (else its first MPI call or marker) to the start of
  // MPI_Finalize (else its last); start-up before the loop, tear-down after it.
  double startup_s = 0;
  double teardown_s = 0;
  uint64_t startup_iterations = 0, teardown_iterations = 0;  // irregular ones left out
  double loop_begin_s = 0, loop_end_s = 0;
  std::vector<double> variability_by_rank;  // coefficient of variation of each rank's durations
  std::vector<IterationItem> items;
  std::vector<IterationCandidate> tried;
  std::string why_none;
};

struct BurstCluster {
  int32_t id = 0;           // 1-based; the event value is id + 5 (the clustering suite's)
  uint64_t bursts = 0;
  double time_s = 0;
  double mean_duration_s = 0;
  double mean_ipc = -1, mean_instructions = -1;  // -1 without counters
  double imbalance = 0;     // max over ranks of its time / mean over the ranks that run it, minus 1
  std::vector<double> time_by_rank_s;
};

struct StructurePhase {
  uint32_t position = 0;
  std::string after_call, before_call;
  double mean_s = 0, share = 0, imbalance = 0;
  int32_t cluster = 0;  // 1-based; 0: noise or filtered
  std::vector<double> mean_by_rank_s;
};

struct ProgramStructure {
  std::string trace;
  std::vector<std::string> ranks;  // task labels of the units (MPI ranks, else tasks)
  std::vector<uint32_t> rank_threads;
  IterationsInfo iterations;
  std::vector<StructurePhase> phases;
  uint32_t calls_per_iteration = 0;
  std::vector<BurstCluster> clusters;  // by total time
  BurstCluster noise, filtered;        // id 0
  BurstCluster missing;                // clustered with counters, but without them (id 0)
  std::string features;
  bool counters = false;
  double eps = 0;
  uint32_t min_points = 0;
  double min_duration_s = 0;
  uint64_t bursts_total = 0;
  std::vector<std::string> notes;
  // Every burst (StructureOptions::bursts): thread, begin and end (trace units), cluster
  // (1-based, 0 noise, -1 filtered, -2 missing data), instructions and IPC (-1 when not read).
  struct Bursts {
    std::vector<uint32_t> thread, cpu;  // cpu: 1-based, 0 none
    std::vector<uint64_t> begin, end;
    std::vector<int32_t> cluster;
    std::vector<int64_t> instructions;
    std::vector<double> ipc;
  } bursts;
};

Result<ProgramStructure> AnalyzeStructure(const Trace& trace, const StructureOptions& options = {});

std::string FormatStructureText(const ProgramStructure& s);
std::string FormatStructureJson(const ProgramStructure& s);

// Event types written by WriteStructureTrace: the clustering suite's cluster id (value: cluster
// + 5, 1 missing data, 2 duration filtered, 5 noise, 0 at the burst's end) and the iteration number (1-based at
// its begin on each rank, 0 at the end of the last).
inline constexpr uint32_t kClusterIdEventType = 90000001;
inline constexpr uint32_t kIterationEventType = 90000101;

// Writes run.input with the structure's iterations and clusters as events (needs
// StructureOptions::bursts).
Result<ToolReport> WriteStructureTrace(const Trace& trace, const ProgramStructure& s, const ToolRun& run);

// The first and last iteration (1-based, inclusive) as a time span; the iterations
// `representative` typical ones: the run of that many consecutive iterations whose durations
// are closest to the median (the earliest of equals).
Result<TimeSpan> IterationSpan(const ProgramStructure& s, uint64_t first, uint64_t last);
Result<TimeSpan> RepresentativeSpan(const ProgramStructure& s, uint64_t count);

}  // namespace parallax
