#include "src/analysis/timeline_dump.h"

#include <fmt/format.h>

#include <vector>

#include "src/base/parallel.h"

namespace parallax::analysis {

std::string DumpLabel(const model::TraceHeader& h, model::Level level, uint32_t o) {
  using model::Level;
  switch (level) {
    case Level::kThread: return model::DefaultThreadLabel(h.processes, model::ThreadIndex(o));
    case Level::kTask: return model::DefaultTaskLabel(h.processes, model::TaskIndex(o));
    case Level::kAppl: return model::DefaultApplLabel(model::ApplIndex(o));
    case Level::kNode: return fmt::format("{}", o);
    case Level::kCpu:  // paramedir prints the label of cpu `row index` (row 0 prints 0)
      return o == 0 ? "0" : model::DefaultCpuLabel(h.resources, model::CpuId(o));
    default: return "";
  }
}

namespace {

void DumpRow(const semantic::WindowEvaluator& w, const model::TraceHeader& h, const TimelineDumpOptions& opt,
             uint32_t object, std::string& out) {
  const std::string label = opt.label_column ? DumpLabel(h, w.level(), object) + "\t" : std::string();
  auto to_window = [&](double t) { return model::ConvertTime(t, h.unit, w.spec().unit); };
  const model::Time from = opt.range ? opt.range->first : w.begin_time();
  const model::Time to = opt.range ? opt.range->second : w.end_time();
  ForEachDumpedInterval(w, object, from, to, [&](const semantic::Interval& i) {
    if (opt.trace_units) {
      fmt::format_to(std::back_inserter(out), "{}{}\t{}\t{:.{}f}\n", label, i.begin, i.end - i.begin, i.value,
                     opt.precision);
    } else {
      fmt::format_to(std::back_inserter(out), "{}{:.{}f}\t{:.{}f}\t{:.{}f}\n", label,
                     to_window(static_cast<double>(i.begin)), opt.precision,
                     to_window(static_cast<double>(i.end - i.begin)), opt.precision, i.value, opt.precision);
    }
  });
}

}  // namespace

std::vector<std::string> DumpTimelineRows(const semantic::WindowEvaluator& w, const model::TraceHeader& h,
                                          const TimelineDumpOptions& opt) {
  std::vector<std::string> parts(w.rows());
  base::ParallelFor(parts.size(), opt.threads ? opt.threads : base::DefaultThreads(),
                    [&](size_t o) { DumpRow(w, h, opt, static_cast<uint32_t>(o), parts[o]); });
  return parts;
}

void DumpTimeline(const semantic::WindowEvaluator& w, const model::TraceHeader& h, const TimelineDumpOptions& opt,
                  std::string& out) {
  for (const auto& p : DumpTimelineRows(w, h, opt)) out += p;
}

}  // namespace parallax::analysis
