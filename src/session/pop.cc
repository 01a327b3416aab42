// include/parallax/pop.h over src/pop: loads each trace in turn (only one is in memory at a
// time), computes its raw data, then the factors of the series.

#include "include/parallax/pop.h"

#include <fmt/format.h>

#include <utility>

#include "src/model/time.h"

#include "src/pop/pop_format.h"
#include "src/pop/pop_metrics.h"
#include "src/session/guard.h"
#include "src/session/replay_session.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

Result<pop::RawData> RawDataOf(const std::string& path, const PopOptions& options,
                               PopTraceInfo& info) {
  const LoadOptions& load = options.load;
  auto trace = session::OpenTrace(path, load);
  if (!trace.ok()) return trace.status();
  const session::TraceImpl& t = *trace.value();
  if (t.header().processes.threads() == 0)
    return Status::Error("the trace declares no threads, so it has no POP metrics", Location{path});
  info.time_unit = std::string(model::TimeUnitName(t.header().unit));
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (options.portion) {
    auto span = options.portion(t, path);
    if (!span.ok()) return span.status();
    info.portion = span.value();
    if (info.portion) range = std::pair(info.portion->from, info.portion->to);
  }
  auto raw = pop::ComputeRawData(t.View(), t.EventTypes(), load.threads, range);
  if (!raw.ok())
    return Status::Error(fmt::format("{}: {}", path, raw.status().message()), Location{path});
  info.processes = raw->processes;
  info.threads = raw->threads;
  if (range) {
    raw->ideal_unavailable =
        "the ideal replay runs on whole traces only (cut the portion with `parallax cut` and run "
        "pop on the cut for them)";
    return raw;
  }
  if (!options.replay) {
    raw->ideal_unavailable = "the replay was skipped (--no-replay)";
    return raw;
  }
  // modelfactors runs Dimemas with dimemas_ideal.cfg: the ideal machine of src/replay.
  auto ideal = ReplayLoaded(t, path, replay::IdealMachine(), load.threads);
  if (ideal.ok()) {
    raw->runtime_ideal_us = ideal->runtime_us;
    raw->useful_ideal_max_us = ideal->useful_max_us;
  } else {
    raw->ideal_unavailable = ideal.status().message();
  }
  return raw;
}

}  // namespace

static Result<PopReport> ComputePopUnguarded(const std::vector<std::string>& traces,
                                             const PopOptions& options) {
  if (traces.empty())
    return Status::Error("no trace given", {},
                         "give one trace, or several traces of the same code (a scaling series)");
  std::vector<pop::RawData> raw;
  std::vector<PopTraceInfo> infos;
  for (const std::string& path : traces) {
    PopTraceInfo info;
    info.path = path;
    auto r = RawDataOf(path, options, info);
    if (!r.ok()) return r.status();
    infos.push_back(std::move(info));
    raw.push_back(std::move(r.value()));
  }
  return pop::BuildReport(raw, std::move(infos), options.scaling);
}

Result<PopReport> ComputePop(const std::vector<std::string>& traces, const PopOptions& options) {
  return session::Guarded(traces.empty() ? std::string() : traces.front(),
                          [&] { return ComputePopUnguarded(traces, options); });
}

std::string FormatPopText(const PopReport& report) { return pop::FormatText(report); }
std::string FormatPopCsv(const PopReport& report) { return pop::FormatCsv(report); }
std::string FormatPopJson(const PopReport& report) { return pop::FormatJson(report); }

}  // namespace parallax
