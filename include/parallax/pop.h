#pragma once
// POP efficiency metrics (model factors) of one trace or of a scaling series of traces of the
// same code, computed as BSC's modelfactors computes them (../shared/spec/pop-metrics.md), and
// their text, csv (modelfactors' own layout) and json renderings.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// How the traces of a series relate: strong scaling (same problem, more processes) or weak
// scaling (problem grows with the processes). kAuto guesses from the useful instructions, as
// modelfactors does.
enum class PopScaling { kAuto, kStrong, kWeak };

struct PopOptions {
  PopScaling scaling = PopScaling::kAuto;
  // Replay each trace on the ideal network (docs/replay.md) for serialization and transfer
  // efficiency and the two ideal raw lines; false leaves them unavailable.
  bool replay = true;
  LoadOptions load;
  // The portion of each trace to compute on, asked once per trace right after it is loaded
  // (so that percentages and record ranges resolve against that trace); an empty optional
  // (or no function) means the whole trace. Intervals are clipped to the portion as the
  // histograms of `analyze --from/--to` clip them (TimeSpan). The ideal replay runs on whole
  // traces only, so with a portion its lines are unavailable.
  std::function<Result<std::optional<TimeSpan>>(const Trace& trace, const std::string& path)>
      portion;
  // Set: one process' part of a distributed run (Distribution, trace.h); every process gets the
  // single-process report. One trace: every process opens it, scans its share of the threads,
  // and the last process runs the ideal replay. Several traces: they are dealt out round-robin,
  // each process computing its own traces whole. `load.distribution` is not used.
  const Distribution* distribution = nullptr;
};

// One line of the report: a factor or a raw value, one value per trace (NaN: not available).
struct PopLine {
  std::string key;   // json key: "parallel_efficiency", "runtime_us", ...
  std::string name;  // as modelfactors names it: "Parallel efficiency", "Runtime (us)", ...
  int depth = 0;     // indentation of the factor in the efficiency tree (text output)
  bool percent = false;
  std::vector<double> values;
  std::string unavailable;  // why the line has no values; empty when it has them
};

struct PopTraceInfo {
  std::string path;
  uint32_t processes = 0;  // tasks
  uint32_t threads = 0;    // threads of all tasks
  std::optional<TimeSpan> portion;  // the part computed on, trace units; none: whole trace
  std::string time_unit;            // of the trace ("ns", "us", "ms")
};

struct PopReport {
  std::vector<PopTraceInfo> traces;  // the columns, in the order given
  size_t reference = 0;              // the trace the scalabilities refer to (fewest processes)
  PopScaling scaling = PopScaling::kStrong;  // the one used (never kAuto)
  bool scaling_detected = false;             // guessed rather than given
  std::vector<PopLine> factors;              // modelfactors' order
  std::vector<PopLine> raw;                  // modelfactors' `#` lines
  // Where the time in MPI goes (docs/diagnose.md): each wait-state pattern and the rest of MPI
  // (transfer, overhead), as percentages of the processes' time (processes x runtime).
  std::vector<PopLine> waiting;
  std::vector<std::string> warnings;
};

// Loads every trace (one at a time) and computes the report. Fails when a trace cannot be
// loaded or the list is empty.
Result<PopReport> ComputePop(const std::vector<std::string>& traces,
                             const PopOptions& options = {});

// A table for people: the factors as percentages, the raw values, and notes saying why some
// factors are not available.
std::string FormatPopText(const PopReport& report);
// modelfactors' modelfactors.csv: `;` separated, one column per trace, factors with 6
// decimals, raw lines prefixed by `#` with 2 decimals, `NaN` where not available.
std::string FormatPopCsv(const PopReport& report);
// The same for scripts; unavailable values are null with the reason beside them.
std::string FormatPopJson(const PopReport& report);

const char* PopScalingName(PopScaling scaling);  // "auto", "strong", "weak"

}  // namespace parallax
