// The model factors of a series from its raw data (pop-metrics.md "Factors", modelfactors'
// compute_model_factors), with the reasons for what cannot be computed.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "src/diagnose/patterns.h"
#include "src/pop/pop_metrics.h"

namespace parallax::pop {

namespace {

// a / b, NaN when either is NaN or b is 0 (modelfactors prints NaN there too).
double Div(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || b == 0) return kNaN;
  return a / b;
}

// The reference trace: the one with fewest processes (the first of them).
size_t Reference(const std::vector<RawData>& raw) {
  size_t r = 0;
  for (size_t i = 1; i < raw.size(); ++i)
    if (raw[i].processes < raw[r].processes) r = i;
  return r;
}

// modelfactors' guess: the average over the other traces of (instruction ratio / process
// ratio) to the reference is close to 1 for weak scaling, below 0.5 for strong scaling.
PopScaling GuessScaling(const std::vector<RawData>& raw, size_t ref) {
  if (raw.size() < 2) return PopScaling::kStrong;
  double normalized = 0;
  for (const RawData& r : raw)
    normalized += Div(r.useful_instructions, raw[ref].useful_instructions) /
                  Div(static_cast<double>(r.processes), static_cast<double>(raw[ref].processes));
  normalized = (normalized - 1) / static_cast<double>(raw.size() - 1);
  return normalized > 0.9 ? PopScaling::kWeak : PopScaling::kStrong;
}

PopLine Line(std::string key, std::string name, int depth, bool percent) {
  PopLine l;
  l.key = std::move(key);
  l.name = std::move(name);
  l.depth = depth;
  l.percent = percent;
  return l;
}

// One trace's factors, in modelfactors' order (pop-metrics.md "Factors").
std::vector<double> TraceFactors(const RawData& n, const RawData& ref, bool weak) {
  const double ratio =
      weak ? Div(static_cast<double>(n.processes), static_cast<double>(ref.processes)) : 1.0;
  const double lb = Div(n.useful_avg_us, n.useful_max_us) * 100;
  const double comm = Div(n.useful_max_us, n.runtime_us) * 100;
  const double parallel = lb * comm / 100;
  const double comp = Div(ref.useful_total_us, n.useful_total_us) * ratio * 100;
  const double ipc = Div(n.useful_instructions, n.useful_cycles);
  const double ipc_ref = Div(ref.useful_instructions, ref.useful_cycles);
  const double freq = Div(n.useful_cycles, n.useful_total_us) / 1000;
  const double freq_ref = Div(ref.useful_cycles, ref.useful_total_us) / 1000;
  const double inst = Div(ref.useful_instructions, n.useful_instructions) * ratio * 100;
  const double speedup = Div(ref.runtime_us, n.runtime_us) * ratio;
  const double serialization = Div(n.useful_ideal_max_us, n.runtime_ideal_us) * 100;
  return {parallel,
          lb,
          comm,
          serialization,
          Div(comm, serialization) * 100,
          comp,
          parallel * comp / 100,
          Div(ipc, ipc_ref) * 100,
          inst,
          Div(freq, freq_ref) * 100,
          speedup,
          ipc,
          freq};
}

std::vector<PopLine> FactorLines() {
  return {Line("parallel_efficiency", "Parallel efficiency", 0, true),
          Line("load_balance", "Load balance", 1, true),
          Line("communication_efficiency", "Communication efficiency", 1, true),
          Line("serialization_efficiency", "Serialization efficiency", 2, true),
          Line("transfer_efficiency", "Transfer efficiency", 2, true),
          Line("computation_scalability", "Computation scalability", 0, true),
          Line("global_efficiency", "Global efficiency", 0, true),
          Line("ipc_scalability", "IPC scalability", 0, true),
          Line("instruction_scalability", "Instruction scalability", 0, true),
          Line("frequency_scalability", "Frequency scalability", 0, true),
          Line("speedup", "Speedup", 0, false),
          Line("average_ipc", "Average IPC", 0, false),
          Line("average_frequency_ghz", "Average frequency (GHz)", 0, false)};
}

// Why no trace has ideal-network values; empty when at least one has them (the others get a
// warning and NaN).
std::string NoIdealReason(const std::vector<RawData>& raw) {
  for (const RawData& r : raw)
    if (!std::isnan(r.runtime_ideal_us)) return {};
  return raw.empty() ? std::string()
                     : "needs the trace replayed on an ideal network: " + raw[0].ideal_unavailable;
}

std::vector<PopLine> RawLines(const std::vector<RawData>& raw) {
  std::vector<PopLine> lines = {
      Line("runtime_us", "Runtime (us)", 0, false),
      Line("runtime_ideal_us", "Runtime (ideal)", 0, false),
      Line("useful_average_us", "Useful duration (average)", 0, false),
      Line("useful_maximum_us", "Useful duration (maximum)", 0, false),
      Line("useful_total_us", "Useful duration (total)", 0, false),
      Line("useful_ideal_maximum_us", "Useful duration (ideal, max)", 0, false),
      Line("useful_instructions", "Useful instructions (total)", 0, false),
      Line("useful_cycles", "Useful cycles (total)", 0, false)};
  for (const RawData& r : raw) {
    const double v[] = {r.runtime_us,          r.runtime_ideal_us, r.useful_avg_us,
                        r.useful_max_us,       r.useful_total_us,  r.useful_ideal_max_us,
                        r.useful_instructions, r.useful_cycles};
    for (size_t k = 0; k < lines.size(); ++k) lines[k].values.push_back(v[k]);
  }
  const std::string why = NoIdealReason(raw);
  lines[1].unavailable = why;
  lines[5].unavailable = why;
  return lines;
}

void Warn(const std::vector<RawData>& raw, const std::vector<PopTraceInfo>& traces,
          PopReport& report) {
  for (size_t i = 0; i < raw.size(); ++i) {
    const std::string& path = traces[i].path;
    if (std::isnan(raw[i].useful_instructions))
      report.warnings.push_back(
          fmt::format("{}: no PAPI_TOT_INS events (type {}): IPC and instruction scalability "
                      "are not available",
                      path, kInstructionsType));
    if (std::isnan(raw[i].useful_cycles))
      report.warnings.push_back(
          fmt::format("{}: no PAPI_TOT_CYC events (type {}): IPC and frequency are not available",
                      path, kCyclesType));
    if (std::isnan(raw[i].runtime_ideal_us) && NoIdealReason(raw).empty())
      report.warnings.push_back(
          fmt::format("{}: no ideal-network replay ({}): serialization and transfer efficiency are "
                      "not available",
                      path, raw[i].ideal_unavailable));
    if (!(raw[i].useful_total_us > 0))
      report.warnings.push_back(
          fmt::format("{}: no thread is ever in the Running state (no useful computation): "
                      "the efficiencies are not defined",
                      path));
  }
}

// Traces of one code in a strong or weak scaling series execute about as many useful
// instructions as the reference, or that times the process ratio; anything far outside says
// the traces are probably not of the same code or input.
void WarnSeries(const std::vector<RawData>& raw, size_t ref,
                const std::vector<PopTraceInfo>& traces, PopReport& report) {
  for (size_t i = 0; i < raw.size(); ++i) {
    const double ins = Div(raw[i].useful_instructions, raw[ref].useful_instructions);
    const double procs =
        Div(static_cast<double>(raw[i].processes), static_cast<double>(raw[ref].processes));
    if (i == ref || std::isnan(ins) || std::isnan(procs) || (ins >= 0.5 && ins <= 2 * procs))
      continue;
    report.warnings.push_back(
        fmt::format("{} executes {:.2f} times the useful instructions of {} with {:.2f} times the "
                    "processes: are they "
                    "traces of the same code and input?",
                    traces[i].path, ins, traces[ref].path, procs));
  }
}

// "a, b, c" (at most 4, then "...").
std::string TypeList(const std::vector<uint32_t>& types) {
  std::string out;
  for (size_t i = 0; i < types.size() && i < 4; ++i)
    out += fmt::format("{}{}", i ? ", " : "", types[i]);
  return types.size() > 4 ? out + ", ..." : out;
}

// Traces of one code traced the same way record the same kinds of events (MPI, OpenMP, user
// functions, callers).
void WarnEventTypes(const std::vector<RawData>& raw, size_t ref,
                    const std::vector<PopTraceInfo>& traces, PopReport& report) {
  const std::vector<uint32_t>& want = raw[ref].code_event_types;
  for (size_t i = 0; i < raw.size(); ++i) {
    const std::vector<uint32_t>& got = raw[i].code_event_types;
    if (got == want) continue;
    std::vector<uint32_t> only_here, only_ref;
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(only_here));
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(only_ref));
    report.warnings.push_back(fmt::format(
        "{} records other event types than {} (only there: {}; only in the reference: {}): are "
        "they traces of the "
        "same code, traced the same way?",
        traces[i].path, traces[ref].path, only_here.empty() ? "none" : TypeList(only_here),
        only_ref.empty() ? "none" : TypeList(only_ref)));
  }
}

}  // namespace

// One line per pattern (in the order the first trace with a diagnosis gives them) and the rest
// of MPI: percent of processes x runtime.
std::vector<PopLine> WaitingLines(const std::vector<RawData>& raw) {
  std::vector<PopLine> lines;
  const RawData* first = nullptr;
  for (const RawData& r : raw)
    if (!r.waiting_us.empty()) {
      first = &r;
      break;
    }
  if (first == nullptr) return lines;
  for (const auto& [key, v] : first->waiting_us) {
    PopLine l;
    l.key = key;
    diagnose::Pattern pattern;
    l.name = key == "mpi_not_waiting"                   ? "MPI, not waiting (transfer, overhead)"
             : diagnose::FindPattern(key.c_str(), &pattern) ? diagnose::Info(pattern).name
                                                            : key;
    l.percent = true;
    for (const RawData& r : raw) {
      double value = kNaN;
      for (const auto& [k, us] : r.waiting_us)
        if (k == key && r.processes > 0 && r.runtime_us > 0)
          value = 100.0 * us / (static_cast<double>(r.processes) * r.runtime_us);
      l.values.push_back(value);
    }
    lines.push_back(std::move(l));
  }
  return lines;
}

PopReport BuildReport(const std::vector<RawData>& raw, std::vector<PopTraceInfo> traces,
                      PopScaling scaling) {
  PopReport report;
  report.traces = std::move(traces);
  report.reference = raw.empty() ? 0 : Reference(raw);
  report.scaling_detected = scaling == PopScaling::kAuto;
  report.scaling =
      report.scaling_detected && !raw.empty() ? GuessScaling(raw, report.reference) : scaling;
  if (report.scaling == PopScaling::kAuto) report.scaling = PopScaling::kStrong;
  report.factors = FactorLines();
  for (const RawData& r : raw) {
    std::vector<double> f =
        TraceFactors(r, raw[report.reference], report.scaling == PopScaling::kWeak);
    for (size_t k = 0; k < f.size(); ++k) report.factors[k].values.push_back(f[k]);
  }
  report.factors[3].unavailable = NoIdealReason(raw);
  report.factors[4].unavailable = report.factors[3].unavailable;
  report.raw = RawLines(raw);
  report.waiting = WaitingLines(raw);
  Warn(raw, report.traces, report);
  if (!raw.empty()) {
    WarnSeries(raw, report.reference, report.traces, report);
    WarnEventTypes(raw, report.reference, report.traces, report);
  }
  return report;
}

}  // namespace parallax::pop
