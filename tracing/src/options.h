#pragma once
// Runtime options of the tracing library, read once from the environment at pxt_start().
// tracing/README.md documents every variable in one table; keep the two in step.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace parallax::tracing {

struct Options {
  bool enabled = true;             // PXT_ENABLED
  std::string output_dir = ".";    // PXT_OUTPUT_DIR
  std::string output_name;         // PXT_OUTPUT_NAME (default: the program's name)
  std::string program;             // the program's own name (per-process file names)
  size_t buffer_bytes = 8u << 20;  // PXT_BUFFER_SIZE, per thread
  std::vector<std::pair<uint32_t, uint32_t>> event_types;  // PXT_EVENT_TYPES; empty = all
  bool merge = true;                                       // PXT_MERGE
  bool crash_handlers = true;                              // PXT_CRASH_HANDLERS
  std::string extrae_notice;  // Extrae settings that are set but not read (said at start)
  bool verbose = true;                                     // PXT_VERBOSE
  bool show_runtime_threads = false;                       // PXT_SHOW_RUNTIME_THREADS
  int sync_rounds = 40;         // PXT_SYNC_ROUNDS (MPI clock ping-pongs per rank)
  int64_t clock_offset_ns = 0;  // PXT_CLOCK_OFFSET_NS (test injection, per rank)
  double clock_drift_ppm = 0;   // PXT_CLOCK_DRIFT_PPM (test injection, per rank)
  std::string counters;         // PXT_COUNTERS ("" = PAPI_TOT_INS,PAPI_TOT_CYC; "none")
  int callers = 1;              // PXT_CALLERS: levels of the call stack of every MPI call (0: none)
  // PXT_COUNTER_SETS: counter sets switched over time ("A,B;C,D"); empty: PXT_COUNTERS only.
  std::string counter_sets;
  uint64_t counter_switch_bursts = 0;  // PXT_COUNTER_SWITCH=N: every N bursts of a thread
  uint64_t counter_switch_ns = 0;      // PXT_COUNTER_SWITCH=10ms: after this time
  std::string functions;               // PXT_FUNCTIONS: file of the function names to record
  uint64_t max_size = 0;        // PXT_MAX_SIZE: bytes per process file, then stop (0: none)
  uint64_t burst_ns = 0;        // PXT_BURSTS: burst mode's threshold in ns (0: detailed)
  // Set when the configuration file (PXT_CONFIG) cannot be used: "FILE:LINE:COL: why".
  // Tracing is then off (a configuration the user asked for is never half applied).
  std::string config_error;

  // Most caller levels PXT_CALLERS may ask for (types 70000001..70000032).
  static constexpr int kMaxCallers = 32;

  bool TypeEnabled(uint32_t type) const;
  // The folder holding the per-process files: <output_dir>/<output_name>.pxt.d
  std::string ProcessDir() const;
  // The merged trace: <output_dir>/<output_name>.prv
  std::string MergedTrace() const;
};

// `rank` selects the element of per-rank lists (PXT_CLOCK_OFFSET_NS=0,5000,-300 gives rank 1
// 5000 ns); it comes from the launcher's environment because MPI_Init has not run yet.
Options ReadOptions(int rank);

// The MPI rank announced by the launcher (Open MPI, PMIx, MPICH/PMI), or -1.
int LauncherRank();

}  // namespace parallax::tracing
