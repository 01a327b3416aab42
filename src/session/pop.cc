// include/parallax/pop.h over src/pop: loads each trace in turn (only one is in memory at a
// time), computes its raw data, then the factors of the series. In a distributed run
// (PopOptions::distribution) the processes share one trace's rows, or deal several traces out.

#include "include/parallax/diagnose.h"
#include "include/parallax/pop.h"

#include <fmt/format.h>

#include <utility>

#include "src/base/wire.h"
#include "src/model/time.h"
#include "src/pop/pop_format.h"
#include "src/pop/pop_metrics.h"
#include "src/session/distributed.h"
#include "src/session/guard.h"
#include "src/session/replay_session.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

// The ideal replay's outcome, as one process sends it to the others.
std::string PackIdeal(const pop::RawData& raw) {
  std::string out;
  base::WirePut(out, raw.runtime_ideal_us);
  base::WirePut(out, raw.useful_ideal_max_us);
  base::WirePutString(out, raw.ideal_unavailable);
  pop::PackWaiting(raw, out);
  return out;
}

bool UnpackIdeal(const std::string& in, pop::RawData& raw) {
  base::WireReader r(in);
  return r.Get(&raw.runtime_ideal_us) && r.Get(&raw.useful_ideal_max_us) &&
         r.GetString(&raw.ideal_unavailable) && pop::UnpackWaiting(r, &raw) && r.done();
}

// The raw data of a loaded trace. `call`: this process' part of a distributed run that shares
// the trace (the rows are dealt out, the last process replays), or null.
Result<pop::RawData> RawDataOfLoaded(const session::TraceImpl& t, const std::string& path,
                                     const PopOptions& options, PopTraceInfo& info,
                                     session::DistributedCall* call) {
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
  base::WorkShare share;
  if (call != nullptr) {
    share.index = call->rank();
    share.count = call->ranks();
    share.exchange = [call](const std::string& mine) { return call->Share(mine); };
  }
  const unsigned threads = options.load.threads;
  auto raw = pop::ComputeRawData(t.View(), t.EventTypes(), threads, range,
                                 call != nullptr ? &share : nullptr);
  if (!raw.ok())
    return Status::Error(fmt::format("{}: {}", path, raw.status().message()), Location{path});
  info.processes = raw->processes;
  info.threads = raw->threads;
  if (range) {
    raw->ideal_unavailable =
        "the ideal replay runs on whole traces only (cut the portion with `parallax cut` and run "
        "pop on the cut for them)";
  } else if (!options.replay) {
    raw->ideal_unavailable = "the replay was skipped (--no-replay)";
  }
  if (call == nullptr || call->rank() + 1 == call->ranks()) {
    // The diagnosis' waiting over the same portion (in a distributed run the last process,
    // which reads every thread for the replay anyway, computes it and shares it).
    DiagnoseOptions d;
    if (info.portion) d.range = info.portion;
    d.instances = false;
    d.worst = 0;
    auto diagnosis = Diagnose(t, d);
    if (!diagnosis.ok()) {
      raw->waiting_unavailable = diagnosis.status().message();
    } else if (diagnosis->ranks.empty()) {
      raw->waiting_unavailable = "the trace has no MPI call events";
    } else {
      raw->waiting_unavailable.clear();
      double waiting = 0, mpi = 0;
      for (const PatternSummary& p : diagnosis->patterns) {
        raw->waiting_us.emplace_back(p.key, p.time_s * 1e6);
        waiting += p.time_s;
      }
      for (double v : diagnosis->mpi_s) mpi += v;
      raw->waiting_us.emplace_back("mpi_not_waiting", std::max(0.0, mpi - waiting) * 1e6);
    }
  }
  if (!range && options.replay && (call == nullptr || call->rank() + 1 == call->ranks())) {
    // modelfactors runs Dimemas with dimemas_ideal.cfg: the ideal machine of src/replay.
    auto ideal = ReplayLoaded(t, path, replay::IdealMachine(), threads, false);
    if (ideal.ok()) {
      raw->runtime_ideal_us = ideal->runtime_us;
      raw->useful_ideal_max_us = ideal->useful_max_us;
    } else {
      raw->ideal_unavailable = ideal.status().message();
    }
  }
  if (call == nullptr) return raw;
  // The last exchange: the replayer's outcome (the same for all when there was no replay).
  auto all = call->Share(PackIdeal(raw.value()), true);
  if (!all.ok()) return all.status();
  const unsigned replayer = call->ranks() - 1;
  if (all->size() <= replayer || !UnpackIdeal(all.value()[replayer], raw.value()))
    return Status::Error(
        fmt::format("process {} of {} sent a damaged replay result", replayer, call->ranks()), {},
        "all processes must run the same Parallax on the same traces");
  return raw;
}

// Loads one trace and computes its raw data. `shared`: every process of this distributed run
// opens the trace and computes its share of it.
Result<pop::RawData> RawDataOf(const std::string& path, const PopOptions& options,
                               PopTraceInfo& info, const Distribution* shared = nullptr) {
  LoadOptions load = options.load;
  load.distribution = shared;
  auto trace = session::OpenTrace(path, load);
  // A failed distributed open has ended its exchanges on every process: nothing more is owed.
  if (!trace.ok()) return trace.status();
  if (shared == nullptr) return RawDataOfLoaded(*trace.value(), path, options, info, nullptr);
  session::DistributedCall call(*shared);
  try {
    auto raw = RawDataOfLoaded(*trace.value(), path, options, info, &call);
    if (!raw.ok()) call.Finish(true);  // nothing once the last exchange is over
    return raw;
  } catch (...) {  // the others must not wait for this process
    call.Finish(true);
    throw;
  }
}

// What a process sends for each of its traces: the index u32, then 1 and the raw data and the
// trace's info, or 0 and the error.
void PackTrace(uint32_t index, const Result<pop::RawData>& raw, const PopTraceInfo& info,
               std::string& out) {
  base::WirePut(out, index);
  base::WirePut(out, static_cast<uint8_t>(raw.ok()));
  if (raw.ok()) {
    pop::PackRawData(raw.value(), out);
    base::WirePut(out, info.processes);
    base::WirePut(out, info.threads);
    base::WirePut(out, static_cast<uint8_t>(info.portion.has_value()));
    base::WirePut(out, info.portion.value_or(TimeSpan{}));
    base::WirePutString(out, info.time_unit);
    return;
  }
  const Status& s = raw.status();
  base::WirePut(out, static_cast<uint8_t>(s.limit()));
  base::WirePutString(out, s.message());
  base::WirePutString(out, s.where().file);
  base::WirePut(out, s.where().line);
  base::WirePut(out, s.where().column);
  base::WirePutString(out, s.hint());
}

bool UnpackTrace(base::WireReader& in, std::vector<std::optional<Result<pop::RawData>>>& raws,
                 std::vector<PopTraceInfo>& infos) {
  uint32_t index = 0;
  uint8_t ok = 0;
  if (!in.Get(&index) || index >= raws.size() || raws[index] || !in.Get(&ok)) return false;
  if (ok != 0) {
    pop::RawData raw;
    PopTraceInfo& info = infos[index];
    uint8_t has_portion = 0;
    TimeSpan portion;
    if (!pop::UnpackRawData(in, &raw) || !in.Get(&info.processes) || !in.Get(&info.threads) ||
        !in.Get(&has_portion) || !in.Get(&portion) || !in.GetString(&info.time_unit))
      return false;
    if (has_portion != 0) info.portion = portion;
    raws[index] = std::move(raw);
    return true;
  }
  uint8_t limit = 0;
  std::string message, hint;
  Location where;
  if (!in.Get(&limit) || !in.GetString(&message) || !in.GetString(&where.file) ||
      !in.Get(&where.line) || !in.Get(&where.column) || !in.GetString(&hint))
    return false;
  raws[index] = limit != 0 ? Status::Limit(message, where, hint) : Status::Error(message, where, hint);
  return true;
}

// Several traces over the processes of a distributed run: process r computes traces r, r + N,
// ... whole, and every process gets all of them in one exchange. The first failure in the
// order given is the run's, as in a single process.
Result<PopReport> ComputePopDealt(const std::vector<std::string>& traces, const PopOptions& options,
                                  session::DistributedCall& call) {
  std::vector<std::optional<Result<pop::RawData>>> raws(traces.size());
  std::vector<PopTraceInfo> infos(traces.size());
  std::string mine;
  for (size_t i = call.rank(); i < traces.size(); i += call.ranks()) {
    infos[i].path = traces[i];
    auto raw = session::Guarded(traces[i], [&] { return RawDataOf(traces[i], options, infos[i]); });
    PackTrace(static_cast<uint32_t>(i), raw, infos[i], mine);
  }
  auto all = call.Share(mine, true);
  if (!all.ok()) return all.status();
  for (unsigned p = 0; p < call.ranks() && p < all->size(); ++p) {
    base::WireReader in(all.value()[p]);
    while (!in.done())
      if (!UnpackTrace(in, raws, infos))
        return Status::Error(fmt::format("process {} of {} sent a damaged share of the POP metrics",
                                         p, call.ranks()),
                             {}, "all processes must run the same Parallax on the same traces");
  }
  std::vector<pop::RawData> raw;
  for (size_t i = 0; i < traces.size(); ++i) {
    if (!raws[i])
      return Status::Error(fmt::format("no process computed {}", traces[i]), {},
                           "all processes must run the same Parallax on the same traces");
    if (!raws[i]->ok()) return raws[i]->status();
    infos[i].path = traces[i];
    raw.push_back(std::move(raws[i]->value()));
  }
  return pop::BuildReport(raw, std::move(infos), options.scaling);
}

}  // namespace

static Result<PopReport> ComputePopUnguarded(const std::vector<std::string>& traces,
                                             const PopOptions& options) {
  if (traces.empty())
    return Status::Error("no trace given", {},
                         "give one trace, or several traces of the same code (a scaling series)");
  // Distributed, one trace: every process takes part in computing it.
  const Distribution* shared = traces.size() == 1 ? options.distribution : nullptr;
  std::vector<pop::RawData> raw;
  std::vector<PopTraceInfo> infos;
  for (const std::string& path : traces) {
    PopTraceInfo info;
    info.path = path;
    auto r = RawDataOf(path, options, info, shared);
    if (!r.ok()) return r.status();
    infos.push_back(std::move(info));
    raw.push_back(std::move(r.value()));
  }
  return pop::BuildReport(raw, std::move(infos), options.scaling);
}

Result<PopReport> ComputePop(const std::vector<std::string>& traces, const PopOptions& options) {
  const std::string first = traces.empty() ? std::string() : traces.front();
  if (options.distribution == nullptr || traces.size() < 2)
    return session::Guarded(first, [&] { return ComputePopUnguarded(traces, options); });
  session::DistributedCall call(*options.distribution);
  auto report = session::Guarded(first, [&] { return ComputePopDealt(traces, options, call); });
  if (!report.ok()) call.Finish(true);  // nothing once the exchange is over
  return report;
}

std::string FormatPopText(const PopReport& report) { return pop::FormatText(report); }
std::string FormatPopCsv(const PopReport& report) { return pop::FormatCsv(report); }
std::string FormatPopJson(const PopReport& report) { return pop::FormatJson(report); }

}  // namespace parallax
