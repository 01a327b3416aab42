// paramedir-compatible batch output of one cfg (analysis.md §8.3) and cfg loading against the
// trace.

#include <fmt/format.h>

#include <algorithm>

#include "src/analysis/histogram_table.h"
#include "src/analysis/timeline_dump.h"
#include "src/cfg/cfg_reader.h"
#include "src/session/analyze.h"
#include "src/session/distributed.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax::session {

const std::vector<uint32_t>& TraceImpl::EventTypes() const {
  std::call_once(event_types_once_, [&] {
    event_types_ = prv_.event_types_known ? prv_.event_types : store::ScanEventTypes(store());
  });
  return event_types_;
}

void TraceImpl::SetEventTypes(std::vector<uint32_t> types) {
  std::call_once(event_types_once_, [&] { event_types_ = std::move(types); });
}

cfg::CfgContext TraceImpl::CfgContextOf() const {
  cfg::CfgContext ctx;
  ctx.process = &header().processes;
  ctx.resources = header().resources.empty() ? nullptr : &header().resources;
  ctx.pcf = pcf();
  ctx.trace_event_types = &EventTypes();
  ctx.functions = &functions();
  return ctx;
}

Result<cfg::CfgFile> TraceImpl::LoadCfg(const std::string& path) const {
  return cfg::ReadCfg(path, CfgContextOf());
}

Result<cfg::CfgFile> TraceImpl::LoadCfgText(const std::string& text,
                                            const std::string& name) const {
  return cfg::ParseCfg(text, name, CfgContextOf());
}

Result<cfg::CfgFile> TraceImpl::LoadRequestCfg(const std::string& path,
                                               const std::string& text) const {
  if (text.empty()) return LoadCfg(path);
  return LoadCfgText(text, path.empty() ? "cfg" : path);
}

namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".cfg") == 0)
    name.resize(name.size() - 4);
  return name;
}

}  // namespace

Result<std::vector<ParamedirOutput>> TraceImpl::ParamedirUnguarded(
    const std::string& cfg_path, const std::string& output_name,
    const ParamedirOptions& options, DistributedCall* dist) const {
  auto file = LoadCfg(cfg_path);
  if (!file.ok()) return file.status();
  // A histogram that cannot be read is an error of the cfg: falling back to the timeline
  // dump, as paramedir does, would write another kind of output under the table's name.
  if (!file->histogram_failure.ok()) return HistogramFailure(file->histogram_failure);
  ParamedirOutput out;
  out.file_name = output_name.empty() ? BaseName(cfg_path) : output_name;
  if (file->histograms.empty() && out.file_name.find(".csv") == std::string::npos)
    out.file_name += ".csv";
  for (const auto& n : file->notices)
    out.notices.push_back(n.line ? fmt::format("line {}: {}", n.line, n.text) : n.text);
  if (file->windows.empty())
    return Status::Error("the cfg defines no window", Location{cfg_path, 0, 0});
  if (file->no_filtered_event_in_trace) {
    // The cfg reader's notices already say "None of the events specified in the filter appear
    // in the trace".
    out.write = false;
    return std::vector<ParamedirOutput>{std::move(out)};
  }
  if (file->window_without_objects) {
    out.notices.push_back("a window has no selected object; nothing written");
    out.write = false;
    return std::vector<ParamedirOutput>{std::move(out)};
  }
  std::optional<TimeSpan> span;
  if (options.from || options.to) {
    auto r = TraceRange(*this, options.from, options.to);
    if (!r.ok()) return r.status();
    span = r.value();
  }
  if (!file->histograms.empty()) {
    // analysis.md §8.3: only the last histogram is computed and written.
    analysis::HistogramInput in = HistogramInputOf(*this, *file, file->histograms.size() - 1);
    if (span) in.range = std::pair<model::Time, model::Time>(span->from, span->to);
    if (dist != nullptr) {
      // Communication histograms are not split: rank 0 computes them whole.
      const bool comm = analysis::CommStatisticIndex(in.spec.statistic) >= 0;
      if (comm && dist->rank() != 0) {
        out.write = false;
        return std::vector<ParamedirOutput>{std::move(out)};
      }
      if (!comm) DealRows(in, *dist);
    }
    auto result = analysis::ComputeHistogram(in);
    if (!result.ok())
      return Status::Error(result.status().message(), Location{cfg_path, 0, 0},
                           result.status().hint());
    if (result->shared) {
      if (Status st = dist->Exchange(result.value()); !st.ok())
        return Status::Error(st.message(), Location{cfg_path, 0, 0}, st.hint());
    }
    analysis::TableOptions table{options.hide_empty_columns, options.selected_plane_only};
    out.content = analysis::FormatParamedirTable(
        analysis::BuildTable(*result, in, HistogramLabels(*this), table),
        options.no_precision_limit ? 10 : 2);
    return std::vector<ParamedirOutput>{std::move(out)};
  }
  if (dist != nullptr && dist->rank() != 0) {  // timeline dumps are written by rank 0 alone
    out.write = false;
    return std::vector<ParamedirOutput>{std::move(out)};
  }
  auto ev = semantic::WindowEvaluator::Create(View(), file->windows,
                                              file->windows.size() - 1);
  if (!ev.ok())
    return Status::Error(ev.status().message(), Location{cfg_path, 0, 0}, ev.status().hint());
  analysis::TimelineDumpOptions dump;
  dump.trace_units = options.trace_units;
  if (span) dump.range = std::pair<model::Time, model::Time>(span->from, span->to);
  if (!options.one_file_per_object) {
    analysis::DumpTimeline(*ev.value(), header(), dump, out.content);
    return std::vector<ParamedirOutput>{std::move(out)};
  }
  // -m: one file per object, without the label column.
  dump.label_column = false;
  std::vector<std::string> rows = analysis::DumpTimelineRows(*ev.value(), header(), dump);
  std::string base = out.file_name.substr(0, out.file_name.find(".csv"));
  std::vector<ParamedirOutput> outs;
  for (size_t o = 0; o < rows.size(); ++o)
    outs.push_back(ParamedirOutput{fmt::format("{}_{:05}", base, o + 1), std::move(rows[o]), {}, true});
  if (outs.empty()) return std::vector<ParamedirOutput>{std::move(out)};
  outs.front().notices = out.notices;
  return outs;
}

Result<std::vector<ParamedirOutput>> TraceImpl::Paramedir(const std::string& cfg_path,
                                                          const std::string& output_name,
                                                          const ParamedirOptions& options) const {
  if (options.distribution == nullptr)
    return session::GuardedOn(*this, cfg_path,
                            [&] { return ParamedirUnguarded(cfg_path, output_name, options, nullptr); });
  DistributedCall dist(*options.distribution);
  auto r = session::GuardedOn(*this, cfg_path,
                            [&] { return ParamedirUnguarded(cfg_path, output_name, options, &dist); });
  dist.Finish(!r.ok());
  return r;
}

}  // namespace parallax::session
