#pragma once
// Replay of an MPI trace on a modelled machine (docs/replay.md), as BSC's Dimemas does: the
// CPU bursts between MPI calls are kept (divided by a CPU speed ratio), the MPI calls are
// re-executed with the model's latency, bandwidth, links, eager limit and collective costs, and
// the predicted trace has the original records at their replayed times.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

struct ReplayOptions {
  std::string config_path;  // a Dimemas configuration file; empty: the ideal machine
  // Overrides applied after the configuration (for every node and between nodes).
  std::optional<double> latency_s;       // seconds
  std::optional<double> bandwidth_MBps;  // MB = 2^20 bytes, as Dimemas; 0 = infinite
  std::optional<int64_t> eager_bytes;    // larger messages use rendezvous
  std::optional<double> cpu_ratio;       // bursts are divided by it
  std::optional<uint32_t> tasks_per_node;
  std::optional<uint32_t> links;  // input/output links per node; 0 = no contention
  bool init_barrier = true;       // MPI_Init synchronises every task
  LoadOptions load;
};

struct ReplayTaskResult {
  std::string thread;     // "1.2.1"
  double end_us = 0;      // replayed end
  double compute_us = 0;  // replayed CPU bursts
};

struct ReplayReport {
  std::string trace;
  std::string machine;  // the model in one line
  double original_runtime_us = 0;
  double predicted_runtime_us = 0;
  double predicted_useful_max_us = 0;  // the longest replayed computation of a task
  double ideal_runtime_us = 0;         // the same trace on the ideal machine
  double ideal_useful_max_us = 0;
  std::vector<ReplayTaskResult> tasks;
  uint64_t mpi_events = 0;  // MPI call events (entries and exits) replayed
  uint64_t messages = 0;
  double replay_seconds = 0;  // the simulation alone
  std::vector<DiagnosticInfo> diagnostics;
  std::string output;  // the predicted trace written, if any
};

// Replays `trace`; writes the predicted trace (.prv or .prv.gz, with its .pcf and .row) to
// `output` when it is not empty, never replacing an existing file unless `overwrite`.
Result<ReplayReport> ReplayTrace(const std::string& trace, const ReplayOptions& options,
                                 const std::string& output, bool overwrite);

std::string FormatReplayText(const ReplayReport& report);
std::string FormatReplayJson(const ReplayReport& report);

}  // namespace parallax
