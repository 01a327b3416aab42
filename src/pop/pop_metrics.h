#pragma once
// The raw values behind the POP model factors of one trace, computed directly with the
// semantic module the way paramedir computes the histograms of modelfactors' cfgs
// (tests/data/cfg/pypop), and the factors of a series of traces computed from them
// (../shared/spec/pop-metrics.md).

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/pop.h"
#include "include/parallax/status.h"
#include "src/base/wire.h"
#include "src/semantic/evaluator.h"

namespace parallax::pop {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr uint32_t kInstructionsType = 42000050;  // PAPI_TOT_INS
inline constexpr uint32_t kCyclesType = 42000059;        // PAPI_TOT_CYC

// modelfactors' raw data of one trace. Times in microseconds, as modelfactors prints them.
struct RawData {
  uint32_t processes = 0;  // tasks
  uint32_t threads = 0;
  // Time statistic of `State As Is` over the whole trace (total_runtime.cfg), largest over
  // threads.
  double runtime_us = kNaN;
  // Time statistic of `Useful` (total_useful_computation.cfg) per thread: average, maximum
  // and total over the threads that have useful time (paramedir's totals skip empty cells).
  double useful_avg_us = kNaN, useful_max_us = kNaN, useful_total_us = kNaN;
  // `Sum bursts` of Next Evt Val (counter) x Useful (useful_instructions.cfg,
  // useful_cycles.cfg), total over threads; NaN when the trace has no such counter.
  double useful_instructions = kNaN, useful_cycles = kNaN;
  // The same trace replayed on the ideal network (src/replay, as Dimemas with
  // dimemas_ideal.cfg): its runtime and the largest replayed computation of a task. NaN, with
  // the reason in `ideal_unavailable`, when there was no replay.
  double runtime_ideal_us = kNaN, useful_ideal_max_us = kNaN;
  std::string ideal_unavailable = "the ideal replay was not run";
  // Event types of the programming model and of the code (MPI, OpenMP, user functions,
  // callers: 50000000 and above), sorted: traces of one code traced the same way share them.
  std::vector<uint32_t> code_event_types;
  // The diagnosis' waiting (docs/diagnose.md), summed over the processes, in us: one entry per
  // wait-state pattern (its key) and "mpi_not_waiting" (the rest of the time in MPI). Empty,
  // with the reason, when it was not computed.
  std::vector<std::pair<std::string, double>> waiting_us;
  std::string waiting_unavailable = "the diagnosis was not run";
};

// Computes the raw data of a loaded trace whose event types (sorted, every type that occurs)
// are `event_types`, rows on up to `threads` workers (0 = all cores). With `portion`
// [from, to) (trace units, inside the trace), every interval is clipped to it as a
// histogram's analysis range clips it (analysis.md §4); without, the whole trace. With
// `share` (a distributed run, session/distributed.h), this process scans only its threads and
// the sums of the others come through the exchange: every process gets the same raw data, the
// single-process one.
Result<RawData> ComputeRawData(const semantic::TraceView& trace,
                               const std::vector<uint32_t>& event_types, unsigned threads,
                               std::optional<std::pair<uint64_t, uint64_t>> portion = {},
                               const base::WorkShare* share = nullptr);

// RawData as bytes for another process, and back (false: the bytes are not a RawData).
void PackRawData(const RawData& raw, std::string& out);
bool UnpackRawData(base::WireReader& in, RawData* raw);
// The waiting alone (the process that computes it shares it with the others).
void PackWaiting(const RawData& raw, std::string& out);
bool UnpackWaiting(base::WireReader& in, RawData* raw);

// The factors and raw lines of a series (one RawData per trace, in the order given).
// `traces` only names the columns; warnings explain what is not available.
PopReport BuildReport(const std::vector<RawData>& raw, std::vector<PopTraceInfo> traces,
                      PopScaling scaling);

}  // namespace parallax::pop
