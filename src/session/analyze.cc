// `parallax analyze`: the histograms of a cfg as tables (analysis.md), and the helpers the
// paramedir batch mode shares.

#include "src/session/analyze.h"

#include <fmt/format.h>

#include "src/session/distributed.h"
#include "src/session/guard.h"

namespace parallax::session {

analysis::HistogramInput HistogramInputOf(const TraceImpl& trace, const cfg::CfgFile& file,
                                          size_t index) {
  analysis::HistogramInput in;
  in.trace = trace.View();  // with the trace's functions (plug-in and Python ones too)
  in.windows = file.windows;
  for (const cfg::CfgWindow& w : file.window_info)
    in.info.push_back({w.display.color == cfg::ColorMode::kCode, w.display.zoom_objects});
  in.spec = file.histograms[index].spec;
  return in;
}

analysis::LabelContext HistogramLabels(const TraceImpl& trace) {
  return analysis::LabelContext{&trace.header(), trace.pcf(), trace.row(), &trace.EventTypes(), &trace.functions()};
}

Status HistogramFailure(const Status& failure) {
  std::string hint = failure.hint();
  if (!hint.empty()) hint += "; ";
  hint += "nothing is written for this cfg (paramedir would dump the last window instead)";
  return Status::Error("histogram not read: " + failure.message(), failure.where(),
                       std::move(hint));
}

}  // namespace parallax::session

namespace parallax {

namespace {

AnalyzePlane ToPlane(const analysis::HistogramTable::Plane& p) {
  AnalyzePlane out;
  out.label = p.label;
  out.columns = p.columns;
  out.rows = p.rows;
  out.row_objects = p.row_objects;
  out.column_ranges = p.column_ranges;
  out.values = p.values;
  for (size_t k = 0; k < std::size(analysis::kTotalNames); ++k) {
    out.total_names.emplace_back(analysis::kTotalNames[k]);
    std::vector<double> line;
    for (const analysis::Totals& t : p.column_totals) line.push_back(t[k]);
    out.totals.push_back(std::move(line));
  }
  return out;
}

}  // namespace

Result<TimeSpan> TraceRange(const Trace& trace, std::optional<uint64_t> from,
                            std::optional<uint64_t> to) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const uint64_t end = impl.store().end_time();
  const std::string unit(model::TimeUnitName(impl.header().unit));
  TimeSpan span{from.value_or(0), to.value_or(end)};
  Location where{session::PathOf(trace), 0, 0};
  if (span.from >= end)
    return Status::Error(fmt::format("the range begins at {} {}, at or after the trace end {} {}",
                                     span.from, unit, end, unit),
                         where, fmt::format("give a begin below {} (or a percentage)", end));
  if (span.to > end)
    return Status::Error(fmt::format("the range ends at {} {}, after the trace end {} {}", span.to,
                                     unit, end, unit),
                         where, fmt::format("give an end of at most {} (or 100%)", end));
  if (span.from >= span.to)
    return Status::Error(
        fmt::format("empty range: begin {} {} is not before end {} {}", span.from, unit, span.to,
                    unit),
        where, "the begin must be smaller than the end");
  return span;
}

// `call`: in a distributed run (req.distribution), the collective call of the histogram in
// progress; each histogram ends its call (its rows' exchange, or Finish) and the next one gets a
// fresh one. `*all_done` is set once the last histogram's call is over.
static Result<std::vector<AnalyzeTable>> AnalyzeUnguarded(const Trace& trace, const AnalyzeRequest& req,
                                                          std::optional<session::DistributedCall>* call,
                                                          bool* all_done) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  auto file = impl.LoadRequestCfg(req.cfg_path, req.cfg_text);
  if (!file.ok()) return file.status();
  if (!file->histogram_failure.ok()) return session::HistogramFailure(file->histogram_failure);
  if (file->histograms.empty()) {
    std::string why = file->histogram_error.empty() ? "" : ": " + file->histogram_error;
    return Status::Error("the cfg defines no histogram" + why,
                         Location{req.cfg_path.empty() ? "cfg" : req.cfg_path, 0, 0},
                         "a histogram starts with a '< NEW ANALYZER2D >' line");
  }
  const base::Deadline deadline(req.time_limit);
  const base::RequestMemory memory(req.memory_limit);
  std::optional<std::pair<model::Time, model::Time>> range;
  if (req.from || req.to) {
    auto span = TraceRange(trace, req.from, req.to);
    if (!span.ok()) return span.status();
    range = std::pair<model::Time, model::Time>(span->from, span->to);
  }
  std::vector<AnalyzeTable> out;
  size_t first = req.all_histograms ? 0 : file->histograms.size() - 1;
  for (size_t i = first; i < file->histograms.size(); ++i) {
    analysis::HistogramInput in = session::HistogramInputOf(impl, *file, i);
    in.trace.deadline = &deadline;
    in.trace.memory = &memory;
    in.range = range;
    const bool last = i + 1 == file->histograms.size();
    const bool comm = analysis::CommStatisticIndex(in.spec.statistic) >= 0;
    session::DistributedCall* dist = call != nullptr ? &**call : nullptr;
    // Distributed: the rows are dealt out; communication histograms are computed by rank 0
    // alone (as in paramedir), and only rank 0's tables are complete.
    if (dist != nullptr && !comm) session::DealRows(in, *dist);
    auto end_call = [&] {  // this histogram's part in the run is over
      if (dist == nullptr) return;
      dist->Finish(false);
      if (last) *all_done = true;
      else call->emplace(*req.distribution);
    };
    if (dist != nullptr && comm && dist->rank() != 0) {
      end_call();
      continue;
    }
    auto result = analysis::ComputeHistogram(in);
    if (result.ok() && result->shared) {
      if (Status st = dist->Exchange(result.value()); !st.ok()) return st;
    }
    if (result.ok()) end_call();
    if (!result.ok()) {
      const Status& s = result.status();
      if (!s.where().file.empty()) return s;
      return Status::Error(
          s.message(),
          Location{req.cfg_path.empty() ? "cfg" : req.cfg_path, file->histograms[i].line, 1},
          s.hint());
    }
    // The table is dense: a value per row, column and plane, and its labels.
    memory.Charge(uint64_t{result->rows.size() + 8} * result->columns.count *
                  (result->three_d ? result->planes.count : 1) * sizeof(double));
    analysis::HistogramTable t = analysis::BuildTable(*result, in, session::HistogramLabels(impl),
                                                      {req.hide_empty_columns, false});
    AnalyzeTable table;
    table.name = in.spec.name;
    table.statistic = in.spec.statistic;
    table.unit = analysis::StatisticUnit(in.spec.statistic, in.windows, in.spec.control, in.spec.data,
                                         &impl.functions());
    table.control_window = in.spec.control;
    table.data_window = in.spec.data < 0 ? in.spec.control : in.spec.data;
    table.extra_window = in.spec.extra;
    table.paramedir_writes = !file->no_filtered_event_in_trace && !file->window_without_objects;
    for (const auto& p : t.planes) table.planes.push_back(ToPlane(p));
    out.push_back(std::move(table));
  }
  return out;
}

Result<std::vector<AnalyzeTable>> Analyze(const Trace& trace, const AnalyzeRequest& req) {
  if (req.distribution == nullptr)
    return session::GuardedOn(trace, session::PathOf(trace), [&] { return AnalyzeUnguarded(trace, req, nullptr, nullptr); });
  std::optional<session::DistributedCall> call;
  call.emplace(*req.distribution);
  bool all_done = false;
  auto r = session::GuardedOn(trace, session::PathOf(trace), [&] { return AnalyzeUnguarded(trace, req, &call, &all_done); });
  // A failure owes the others one call with the failure mark (none once the last histogram's
  // call is over: nobody waits then).
  if (!r.ok() && !all_done) call->Finish(true);
  return r;
}

}  // namespace parallax
