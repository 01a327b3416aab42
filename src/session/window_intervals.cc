// EvaluateWindow and Records (include/parallax/window.h): a window's intervals for every object
// as columns, and the trace's records as columns.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "include/parallax/window.h"
#include "src/analysis/histogram_labels.h"
#include "src/analysis/timeline_dump.h"
#include "src/base/parallel.h"
#include "src/cfg/cfg_names.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/info_type.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

struct RowColumns {
  std::vector<uint64_t> begin, end;
  std::vector<double> value;
};
constexpr uint64_t kRowBytes = 2 * sizeof(uint64_t) + sizeof(double);  // one interval's columns

Result<WindowIntervals> EvaluateWindowUnguarded(const Trace& trace, const WindowRequest& req) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  TextRequest text;
  text.cfg_path = req.cfg_path;
  text.cfg_text = req.cfg_text;
  text.window = req.window;
  text.thread_function = req.thread_function;
  text.parameters = req.parameters;
  auto windows = impl.TextWindows(text);
  if (!windows.ok()) return windows.status();
  auto& [specs, index] = windows.value();
  if (!req.level.empty()) {
    std::string name = req.level;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::optional<model::Level> level = cfg::ParseLevelName(name);
    if (!level)
      return Status::Error(fmt::format("unknown level '{}'", req.level), {},
                           "use thread, task, appl, workload, cpu, node or system");
    if (specs[index].derived)
      return Status::Error(fmt::format("level '{}' cannot be applied to derived window '{}'", req.level,
                                       specs[index].name),
                           {}, "set the level of its parents in the cfg, or evaluate a non-derived window");
    specs[index].level = *level;
  }
  semantic::InfoType info = semantic::WindowInfoType(specs, index, &impl.functions());
  const base::Deadline deadline(req.time_limit);
  const base::RequestMemory memory(req.memory_limit);
  semantic::TraceView view = impl.View();
  view.deadline = &deadline;
  view.memory = &memory;
  auto ev = semantic::WindowEvaluator::Create(view, specs,
                                              index);
  if (!ev.ok()) return ev.status();
  const semantic::WindowEvaluator& w = *ev.value();
  WindowIntervals out;
  out.window = w.spec().name;
  out.level = std::string(model::LevelName(w.level()));
  out.info_type = std::string(semantic::InfoTypeName(info));
  out.time_unit = std::string(model::TimeUnitName(impl.header().unit));
  out.unit = analysis::ValueUnit(specs, index, &impl.functions());
  out.from = req.from.value_or(w.begin_time());
  out.to = std::min<uint64_t>(req.to.value_or(w.end_time()), w.trace_end());
  if (out.to < out.from)
    return Status::Error(fmt::format("empty time range: from {} is after to {}", out.from, out.to),
                         {}, "give from <= to, in trace units");
  std::vector<RowColumns> rows(w.rows());
  base::ParallelFor(rows.size(), req.threads ? req.threads : base::DefaultThreads(),
                    [&](size_t o) {
                      RowColumns& r = rows[o];
                      base::ChargeBatch charge(&memory);
                      analysis::ForEachDumpedInterval(
                          w, static_cast<uint32_t>(o), out.from, out.to,
                          [&](const semantic::Interval& i) {
                            // The row's columns (up to twice their size while they grow),
                            // then the interval's place in the result's columns.
                            charge.Add(2 * kRowBytes + kRowBytes + sizeof(uint32_t));
                            r.begin.push_back(i.begin);
                            r.end.push_back(i.end);
                            r.value.push_back(i.value);
                          });
                      charge.Flush();
                    });
  size_t total = 0;
  for (const RowColumns& r : rows) total += r.begin.size();
  out.object.reserve(total);
  out.begin.reserve(total);
  out.end.reserve(total);
  out.value.reserve(total);
  for (uint32_t o = 0; o < rows.size(); ++o) {
    out.object_names.push_back(semantic::ObjectName(impl.header(), w.level(), o));
    out.object.insert(out.object.end(), rows[o].begin.size(), o);
    out.begin.insert(out.begin.end(), rows[o].begin.begin(), rows[o].begin.end());
    out.end.insert(out.end.end(), rows[o].end.begin(), rows[o].end.end());
    out.value.insert(out.value.end(), rows[o].value.begin(), rows[o].value.end());
    rows[o] = {};
  }
  return out;
}

TraceRecords RecordsUnguarded(const Trace& trace) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const store::TraceStore& st = impl.store();
  TraceRecords out;
  size_t states = 0, events = 0;
  for (uint32_t t = 0; t < st.threads(); ++t) {
    states += st.StateCount(model::ThreadIndex(t));
    events += st.EventCount(model::ThreadIndex(t));
  }
  auto& s = out.states;
  auto& e = out.events;
  s.thread.reserve(states);
  e.thread.reserve(events);
  out.thread_names = ThreadNames(trace);
  for (uint32_t t = 0; t < st.threads(); ++t) {
    const auto pin = st.Pin(model::ThreadIndex(t));
    const store::ThreadRecords& r = *pin;
    s.thread.insert(s.thread.end(), r.states.size(), t);
    s.begin.insert(s.begin.end(), r.states.begin.begin(), r.states.begin.end());
    s.end.insert(s.end.end(), r.states.end.begin(), r.states.end.end());
    s.state.insert(s.state.end(), r.states.state.begin(), r.states.state.end());
    s.cpu.insert(s.cpu.end(), r.states.cpu.begin(), r.states.cpu.end());
    e.thread.insert(e.thread.end(), r.events.size(), t);
    e.time.insert(e.time.end(), r.events.time.begin(), r.events.time.end());
    e.type.insert(e.type.end(), r.events.type.begin(), r.events.type.end());
    e.value.insert(e.value.end(), r.events.value.begin(), r.events.value.end());
    e.cpu.insert(e.cpu.end(), r.events.cpu.begin(), r.events.cpu.end());
  }
  const store::CommTable& c = st.comms();
  out.comms = {c.sender.ToVector(),   c.receiver.ToVector(), c.log_send.ToVector(), c.phy_send.ToVector(),
               c.log_recv.ToVector(), c.phy_recv.ToVector(), c.size.ToVector(),     c.tag.ToVector()};
  return out;
}

}  // namespace

Result<WindowIntervals> EvaluateWindow(const Trace& trace, const WindowRequest& req) {
  return session::GuardedOn(trace, session::PathOf(trace),
                          [&] { return EvaluateWindowUnguarded(trace, req); });
}

std::vector<std::string> ThreadNames(const Trace& trace) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  std::vector<std::string> names;
  names.reserve(impl.store().threads());
  for (uint32_t t = 0; t < impl.store().threads(); ++t)
    names.push_back(semantic::ObjectName(impl.header(), model::Level::kThread, t));
  return names;
}

Result<TraceRecords> Records(const Trace& trace) {
  return session::GuardedOn(trace, session::PathOf(trace),
                          [&]() -> Result<TraceRecords> { return RecordsUnguarded(trace); });
}

}  // namespace parallax
