// include/parallax/cfg.h over the cfg reader and writer: a cfg's windows and histograms as
// plain values a front end edits (DescribeCfg, EditCfg), a one-window cfg for a thread function
// (FunctionCfg), and the names a cfg browser lists (SummarizeCfg).
//
// EditCfg compares every editable value with what DescribeCfg gives for the same text and
// changes only what differs, so the parts of the file the values do not cover (or show in a
// resolved form, like event types picked by label) are written back as they were read.

#include "include/parallax/cfg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <tuple>

#include "src/cfg/cfg_names.h"
#include "src/cfg/cfg_reader.h"
#include "src/cfg/cfg_writer.h"
#include "src/cfg/histogram_spec.h"
#include "src/filter/filter_spec.h"
#include "src/render/draw_modes.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/function_table.h"
#include "src/session/names.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

using model::Level;
using semantic::Slot;

constexpr std::array<std::string_view, semantic::kSlotCount> kSlotNames = {
    "thread",   "compose_thread",   "task",         "compose_task", "appl",   "compose_appl",
    "workload", "compose_workload", "cpu",          "compose_cpu",  "node",   "compose_node",
    "system",   "compose_system",   "top_compose1", "top_compose2", "derived"};

std::string_view SlotText(Slot s) { return kSlotNames[static_cast<size_t>(s)]; }

std::optional<Slot> ParseSlot(std::string_view name) {
  for (size_t i = 0; i < kSlotNames.size(); ++i)
    if (kSlotNames[i] == name) return static_cast<Slot>(i);
  return std::nullopt;
}

constexpr std::array<Level, 7> kLevels = {Level::kWorkload, Level::kAppl,   Level::kTask,
                                          Level::kThread,   Level::kSystem, Level::kNode,
                                          Level::kCpu};

std::optional<Level> ParseLevel(std::string_view name) {
  for (Level l : kLevels)
    if (cfg::CfgLevelName(l) == name) return l;
  return std::nullopt;
}

// The aggregation (or cpu) slot of a level and its compose slot.
std::pair<Slot, Slot> LevelSlots(Level l) {
  Slot own = cfg::LevelSlot(l);
  return {own, *cfg::ComposeSlotOf(own)};
}

// Levels from `low` up to `top` (coarser), within one model; a resource window starts at the
// thread level and then goes cpu, node, system.
std::vector<Level> LevelsUp(Level low, Level top) {
  bool resource = cfg::IsResourceLevel(top);
  std::vector<Level> out;
  if (resource && !cfg::IsResourceLevel(low)) {
    out.push_back(low);
    low = Level::kCpu;
  }
  if (cfg::IsResourceLevel(low) != resource) return out;
  for (int l = static_cast<int>(low); l >= static_cast<int>(top); --l)
    out.push_back(static_cast<Level>(l));
  return out;
}

// Fineness of a level within its model (as the evaluator picks a derived window's level).
int Depth(Level l) {
  switch (l) {
    case Level::kThread:
    case Level::kCpu:
      return 3;
    case Level::kTask:
    case Level::kNode:
      return 2;
    case Level::kAppl:
      return 1;
    default:
      return 0;
  }
}

// The slots that take part in window `index`, from the thread (or derived) function up.
std::vector<Slot> WindowSlots(const std::vector<semantic::WindowSpec>& ws, size_t index) {
  const semantic::WindowSpec& w = ws[index];
  std::vector<Slot> out;
  if (!w.derived) {
    for (Level l : LevelsUp(Level::kThread, w.level)) {
      out.push_back(LevelSlots(l).first);
      out.push_back(LevelSlots(l).second);
    }
  } else {
    out.push_back(Slot::kDerived);
    Level low = w.level;
    bool parents = w.parent0 >= 0 && w.parent1 >= 0 && static_cast<size_t>(w.parent0) < index &&
                   static_cast<size_t>(w.parent1) < index;
    if (parents) {
      Level l0 = ws[static_cast<size_t>(w.parent0)].level;
      Level l1 = ws[static_cast<size_t>(w.parent1)].level;
      low = Depth(l0) >= Depth(l1) ? l0 : l1;
    }
    std::vector<Level> up = LevelsUp(low, w.level);
    if (up.empty()) up.push_back(low);
    for (size_t k = 0; k < up.size(); ++k) {
      if (k > 0) out.push_back(LevelSlots(up[k]).first);
      out.push_back(LevelSlots(up[k]).second);
    }
  }
  out.push_back(Slot::kTopCompose1);
  out.push_back(Slot::kTopCompose2);
  return out;
}

CfgFunction DescribeFunction(const semantic::FunctionRegistry& reg, const semantic::WindowSpec& w, Slot slot) {
  const semantic::FunctionSpec& f = semantic::SlotFunction(w, slot);
  CfgFunction out{std::string(SlotText(slot)), f.name, f.params};
  if (const semantic::FunctionDesc* d = reg.Find(f.name, slot))
    for (size_t k = out.params.size(); k < d->params.size(); ++k)
      out.params.push_back(d->params[k].defaults);
  return out;
}

CfgCriterion DescribeCriterion(const filter::Criterion& c) {
  return CfgCriterion{filter::CriterionName(c.op), c.values};
}

CfgFilter DescribeFilter(const filter::FilterSpec& f) {
  CfgFilter out;
  out.logical = f.logical;
  out.physical = f.physical;
  out.from_to_and = f.from_to_and;
  out.tag_size_and = f.tag_size_and;
  out.type_value_and = f.type_value_and;
  out.from = DescribeCriterion(f.from);
  out.to = DescribeCriterion(f.to);
  out.tag = DescribeCriterion(f.tag);
  out.size = DescribeCriterion(f.size);
  out.bandwidth = DescribeCriterion(f.bandwidth);
  out.event_type = DescribeCriterion(f.event_type);
  out.event_value = DescribeCriterion(f.event_value);
  return out;
}

CfgWindowSettings DescribeWindow(const semantic::FunctionRegistry& reg, const std::vector<semantic::WindowSpec>& ws,
                                 const cfg::CfgWindow& info, size_t index) {
  const semantic::WindowSpec& w = ws[index];
  const cfg::WindowDisplay& d = info.display;
  CfgWindowSettings out;
  out.name = w.name;
  out.level = std::string(cfg::CfgLevelName(w.level));
  out.unit = std::string(model::TimeUnitName(w.unit));
  for (Slot s : WindowSlots(ws, index)) out.functions.push_back(DescribeFunction(reg, w, s));
  out.filter = DescribeFilter(w.filter);
  out.derived = w.derived;
  out.parent0 = w.parent0;
  out.parent1 = w.parent1;
  out.factor0 = w.factor0;
  out.factor1 = w.factor1;
  out.color_mode = std::string(render::ColorModeName(d.color));
  out.draw_mode = std::string(render::DrawModeName(d.draw_time));
  out.object_draw_mode = std::string(render::DrawModeName(d.draw_rows));
  out.flags = d.flags;
  out.comm_lines = d.comm_lines;
  out.min_y = d.minimum_y;
  out.max_y = d.maximum_y;
  out.pixel_size = d.pixel_size;
  out.open = d.open;
  out.synchronize = d.synchronize.value_or(0);
  out.range_relative = w.range.relative;
  out.range_begin = w.range.begin;
  out.range_end = w.range.end;
  return out;
}

bool IsCommStatistic(const std::string& name) {
  return std::find(std::begin(cfg::kCommStatistics), std::end(cfg::kCommStatistics), name) !=
         std::end(cfg::kCommStatistics);
}

// `Analyzer2D.SortCriteria` names, in the order of cfg::SortCriteria.
constexpr const char* kSortCriteria[] = {"Total", "Average", "Maximum", "Minimum", "Stdev", "Avg/Max", "Custom"};

CfgHistogramSettings DescribeHistogram(const cfg::HistogramSpec& h) {
  CfgHistogramSettings out;
  out.name = h.name;
  out.statistic = h.statistic;
  out.communications = IsCommStatistic(h.statistic);
  if (out.communications)
    out.statistics.assign(std::begin(cfg::kCommStatistics), std::end(cfg::kCommStatistics));
  else
    out.statistics.assign(std::begin(cfg::kSemanticStatistics), std::end(cfg::kSemanticStatistics));
  out.control = h.control;
  out.data = h.data < 0 ? h.control : h.data;
  out.extra = h.extra;
  out.hide_empty_columns = h.hide_columns;
  out.horizontal = h.horizontal;
  out.compute_scale = h.compute_y_scale;
  out.minimum = h.minimum;
  out.maximum = h.maximum;
  out.delta = h.delta;
  out.sort_columns = h.sort_columns;
  out.sort_reverse = h.sort_reverse;
  out.sort_criteria = kSortCriteria[static_cast<size_t>(h.sort_criteria)];
  return out;
}

CfgDocument Describe(const semantic::FunctionRegistry& reg, const cfg::CfgFile& file) {
  CfgDocument doc;
  doc.description = file.description;
  for (size_t i = 0; i < file.windows.size(); ++i)
    doc.windows.push_back(DescribeWindow(reg, file.windows, file.window_info[i], i));
  for (const cfg::CfgHistogram& h : file.histograms)
    doc.histograms.push_back(DescribeHistogram(h.spec));
  for (const cfg::CfgNotice& n : file.notices)
    doc.notices.push_back(n.line ? fmt::format("line {}: {}", n.line, n.text) : n.text);
  if (!file.histogram_error.empty())
    doc.notices.push_back("histograms not read: " + file.histogram_error);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Editing: every Apply* changes what differs from the description of the text as read.

// Errors of one edited window or histogram name it.
Status Bad(const std::string& what, std::string message, std::string hint) {
  return Status::Error(fmt::format("{}: {}", what, message), {}, std::move(hint));
}

Status CheckName(const std::string& what, const std::string& name) {
  if (name.empty() || name.find_first_of("\r\n") != std::string::npos)
    return Bad(what, fmt::format("bad name '{}'", name), "give a non-empty name on one line");
  return Status::Ok();
}

Status ApplyFunction(const semantic::FunctionRegistry& reg, const std::string& what, const std::vector<CfgFunction>& before,
                     const CfgFunction& f, semantic::WindowSpec& w) {
  auto slot = ParseSlot(f.slot);
  if (!slot)
    return Bad(what, fmt::format("unknown slot '{}'", f.slot),
               "slots: thread, compose_thread, task, compose_task, appl, compose_appl, workload, "
               "compose_workload, cpu, compose_cpu, node, compose_node, system, compose_system, "
               "top_compose1, top_compose2, derived");
  if (*slot == Slot::kDerived && !w.derived)
    return Bad(what, "only derived windows have a derived function", "");
  auto old = std::find_if(before.begin(), before.end(),
                          [&](const CfgFunction& b) { return b.slot == f.slot; });
  if (old != before.end() && old->name == f.name && old->params == f.params) return Status::Ok();
  const semantic::FunctionDesc* d = reg.Find(f.name, *slot);
  if (d == nullptr) {
    bool elsewhere = reg.FindAnyGroup(f.name) != nullptr;
    std::string message =
        elsewhere ? fmt::format("function '{}' cannot be used in slot {}", f.name, f.slot)
                  : fmt::format("unknown function '{}' (slot {})", f.name, f.slot);
    return Bad(what, std::move(message),
               "see `parallax functions` for the names (as Paraver spells them) and their slots");
  }
  // A new function keeps no parameter of the one it replaces.
  bool stale = old != before.end() && old->name != f.name && old->params == f.params;
  semantic::FunctionSpec spec{f.name, stale ? std::vector<std::vector<double>>{} : f.params};
  if (spec.params.size() > d->params.size())
    return Bad(what,
               fmt::format("function '{}' takes {} parameters, {} given", f.name, d->params.size(),
                           spec.params.size()),
               "");
  if (spec.params.empty() && spec.name == semantic::DefaultFunction(*slot)) spec.name.clear();
  w.functions[static_cast<size_t>(*slot)] = std::move(spec);
  return Status::Ok();
}

Status ApplyCriterion(const std::string& what, std::string_view kind, const CfgCriterion& before,
                      const CfgCriterion& c, filter::Criterion& out, bool* changed) {
  *changed = false;
  if (before.op == c.op && before.values == c.values) return Status::Ok();
  filter::Criterion next{filter::CriterionOp::kAll, c.values};
  if (!filter::ParseCriterionName(c.op, &next.op))
    return Bad(what, fmt::format("unknown {} criterion '{}'", kind, c.op),
               "criteria: All, None, =, !=, >, <, [x,y]");
  if (next.op == filter::CriterionOp::kRange && next.values.size() != 2)
    return Bad(what, fmt::format("{} criterion [x,y] needs two values", kind), "");
  *changed = out != next;
  out = std::move(next);
  return Status::Ok();
}

Status ApplyFilter(const std::string& what, const CfgFilter& before, const CfgFilter& f,
                   semantic::WindowSpec& w, cfg::EventFilterText& events) {
  filter::FilterSpec& s = w.filter;
  if (f.logical != before.logical) s.logical = f.logical;
  if (f.physical != before.physical) s.physical = f.physical;
  if (f.from_to_and != before.from_to_and) s.from_to_and = f.from_to_and;
  if (f.tag_size_and != before.tag_size_and) s.tag_size_and = f.tag_size_and;
  if (f.type_value_and != before.type_value_and) s.type_value_and = f.type_value_and;
  bool changed = false;
  const std::array<
      std::tuple<std::string_view, const CfgCriterion*, const CfgCriterion*, filter::Criterion*>, 5>
      comm = {{{"from", &before.from, &f.from, &s.from},
               {"to", &before.to, &f.to, &s.to},
               {"tag", &before.tag, &f.tag, &s.tag},
               {"size", &before.size, &f.size, &s.size},
               {"bandwidth", &before.bandwidth, &f.bandwidth, &s.bandwidth}}};
  for (const auto& [kind, b, c, out] : comm)
    if (Status st = ApplyCriterion(what, kind, *b, *c, *out, &changed); !st.ok()) return st;
  // The event lists as written win over the resolved values in the writer: replace the list
  // that changed (its labels no longer apply).
  bool as_read = !events.types.empty() || !events.values.empty();
  if (Status st = ApplyCriterion(what, "event type", before.event_type, f.event_type, s.event_type,
                                 &changed);
      !st.ok())
    return st;
  if (changed && as_read) {
    events.types = s.event_type.values;
    events.type_labels.clear();
  }
  if (Status st = ApplyCriterion(what, "event value", before.event_value, f.event_value,
                                 s.event_value, &changed);
      !st.ok())
    return st;
  if (changed && as_read) {
    events.values = s.event_value.values;
    events.value_labels.clear();
  }
  return Status::Ok();
}

Status ApplyDrawMode(const std::string& what, const std::string& before, const std::string& name,
                     cfg::DrawMode& out) {
  if (name.empty() || name == before) return Status::Ok();
  auto m = render::ParseDrawMode(name);
  if (!m)
    return Bad(what, fmt::format("unknown draw mode '{}'", name),
               "use last, maximum, minimum-not-zero, random, random-not-zero, average, "
               "average-not-zero, mode, abs-maximum or abs-minimum");
  out = *m;
  return Status::Ok();
}

// Empty mode names keep the window's modes (a new window: Paraver's defaults).
Status ApplyDisplay(const std::string& what, const CfgWindowSettings& before,
                    const CfgWindowSettings& s, cfg::WindowDisplay& d) {
  if (!s.color_mode.empty() && s.color_mode != before.color_mode) {
    auto m = render::ParseColorModeName(s.color_mode);
    if (!m)
      return Bad(what, fmt::format("unknown colour mode '{}'", s.color_mode),
                 "use code, gradient, null-gradient, alt-gradient, line, fused or punctual");
    d.color = *m;
  }
  if (Status st = ApplyDrawMode(what, before.draw_mode, s.draw_mode, d.draw_time); !st.ok())
    return st;
  if (Status st = ApplyDrawMode(what, before.object_draw_mode, s.object_draw_mode, d.draw_rows);
      !st.ok())
    return st;
  if (s.pixel_size != before.pixel_size) {
    if (s.pixel_size != 1 && s.pixel_size != 2 && s.pixel_size != 4 && s.pixel_size != 8)
      return Bad(what, fmt::format("pixel size {}", s.pixel_size), "use 1, 2, 4 or 8");
    d.pixel_size = s.pixel_size;
  }
  if (s.flags != before.flags) d.flags = s.flags;
  if (s.comm_lines != before.comm_lines) d.comm_lines = s.comm_lines;
  // A scale set by hand is no longer fitted to the values.
  if (s.min_y != before.min_y || s.max_y != before.max_y) {
    d.minimum_y = s.min_y;
    d.maximum_y = s.max_y;
    d.compute_y_max = false;
  }
  if (s.open != before.open) d.open = s.open;
  if (s.synchronize != before.synchronize)
    d.synchronize = s.synchronize == 0 ? std::nullopt : std::optional<uint32_t>(s.synchronize);
  return Status::Ok();
}

// Level, derived parents and factors: what decides which slots a window has.
Status ApplyShape(const session::TraceImpl& t, const std::string& what,
                  const CfgWindowSettings& before, const CfgWindowSettings& s, size_t index,
                  semantic::WindowSpec& w) {
  if (!s.level.empty() && s.level != before.level) {
    auto level = ParseLevel(s.level);
    if (!level)
      return Bad(what, fmt::format("unknown level '{}'", s.level),
                 "levels: workload, appl, task, thread, system, node, cpu");
    if (cfg::IsResourceLevel(*level) && t.header().resources.empty())
      return Bad(what, fmt::format("level {} needs a resource model", s.level),
                 "this trace's header describes no nodes and cpus");
    w.level = *level;
  }
  if (!s.unit.empty() && s.unit != before.unit) {
    auto unit = model::ParseTimeUnit(s.unit);
    if (!unit) return Bad(what, fmt::format("unknown time unit '{}'", s.unit), "units: ns, us, ms, s, min, h, day");
    w.unit = *unit;
  }
  if (s.derived != w.derived)
    return Bad(what,
               s.derived ? "an existing window cannot become derived"
                         : "a derived window cannot become a plain one",
               "add a new window instead");
  if (!w.derived) return Status::Ok();
  for (int p : {s.parent0, s.parent1})
    if (p < 0 || static_cast<size_t>(p) >= index)
      return Bad(what, fmt::format("parent {} is not an earlier window", p),
                 fmt::format("a derived window's parents are windows 0..{} (0-based) before it",
                             index == 0 ? 0 : index - 1));
  w.parent0 = s.parent0;
  w.parent1 = s.parent1;
  if (s.factor0 != before.factor0) w.factor0 = s.factor0;
  if (s.factor1 != before.factor1) w.factor1 = s.factor1;
  return Status::Ok();
}

// The window's time range (a zoom saved with the cfg).
Status ApplyRange(const std::string& what, const CfgWindowSettings& s, semantic::WindowSpec& w) {
  if (!std::isfinite(s.range_begin) || !std::isfinite(s.range_end) || s.range_begin < 0 ||
      s.range_end <= s.range_begin || (s.range_relative && s.range_end > 1))
    return Bad(what, fmt::format("time range {}..{} is not a range{}", s.range_begin, s.range_end,
                                 s.range_relative ? " of fractions of the trace" : " of trace units"),
               s.range_relative ? "relative: 0 <= begin < end <= 1" : "absolute: 0 <= begin < end, in trace units");
  w.range = {s.range_relative, s.range_begin, s.range_end};
  return Status::Ok();
}

Status ApplyWindow(const session::TraceImpl& t, const CfgWindowSettings& s, size_t index,
                   cfg::CfgFile& file) {
  semantic::WindowSpec& w = file.windows[index];
  cfg::CfgWindow& info = file.window_info[index];
  const std::string what = fmt::format("window {} '{}'", index, s.name);
  const CfgWindowSettings before = DescribeWindow(t.functions(), file.windows, info, index);
  if (s.name != before.name) {
    if (Status st = CheckName(what, s.name); !st.ok()) return st;
    w.name = s.name;
  }
  if (Status st = ApplyShape(t, what, before, s, index, w); !st.ok()) return st;
  if (s.range_relative != before.range_relative || s.range_begin != before.range_begin ||
      s.range_end != before.range_end) {
    if (Status st = ApplyRange(what, s, w); !st.ok()) return st;
  }
  for (const CfgFunction& f : s.functions)
    if (Status st = ApplyFunction(t.functions(), what, before.functions, f, w); !st.ok()) return st;
  if (Status st = ApplyFilter(what, before.filter, s.filter, w, info.events); !st.ok()) return st;
  return ApplyDisplay(what, before, s, info.display);
}

// A window past the end of the text's: a default window of the doc's kind and level, then the
// doc's values applied to it.
Status AddWindow(const session::TraceImpl& t, const CfgWindowSettings& s, cfg::CfgFile& file) {
  size_t index = file.windows.size();
  const std::string what = fmt::format("new window {} '{}'", index, s.name);
  if (Status st = CheckName(what, s.name); !st.ok()) return st;
  semantic::WindowSpec w;
  w.name = s.name;
  w.unit = t.header().unit;
  w.derived = s.derived;
  if (w.derived) {
    w.parent0 = s.parent0;
    w.parent1 = s.parent1;
    if (s.parent0 >= 0 && static_cast<size_t>(s.parent0) < index)
      w.unit = file.windows[static_cast<size_t>(s.parent0)].unit;
  }
  auto level = ParseLevel(s.level.empty() ? "thread" : s.level);
  if (!level)
    return Bad(what, fmt::format("unknown level '{}'", s.level),
               "levels: workload, appl, task, thread, system, node, cpu");
  w.level = *level;
  file.windows.push_back(std::move(w));
  cfg::CfgWindow info;
  info.display.compute_y_max = true;  // a new window fits its scale, as Paraver's do
  file.window_info.push_back(std::move(info));
  // The doc's scale is not applied over the fitted one unless it was set (not the defaults).
  CfgWindowSettings settings = s;
  if (settings.min_y == CfgWindowSettings{}.min_y && settings.max_y == CfgWindowSettings{}.max_y) {
    settings.min_y = file.window_info.back().display.minimum_y;
    settings.max_y = file.window_info.back().display.maximum_y;
  }
  return ApplyWindow(t, settings, index, file);
}

Status ApplyHistogram(const CfgHistogramSettings& s, size_t index, size_t windows,
                      cfg::HistogramSpec& h) {
  const std::string what = fmt::format("histogram {} '{}'", index, s.name);
  const CfgHistogramSettings before = DescribeHistogram(h);
  if (s.name != before.name) {
    if (Status st = CheckName(what, s.name); !st.ok()) return st;
    h.name = s.name;
  }
  if (s.statistic != before.statistic) {
    if (std::find(before.statistics.begin(), before.statistics.end(), s.statistic) ==
        before.statistics.end())
      return Bad(what, fmt::format("unknown statistic '{}'", s.statistic),
                 fmt::format("this {} histogram shows one of: {}",
                             before.communications ? "communication" : "semantic",
                             fmt::join(before.statistics, ", ")));
    h.statistic = s.statistic;
  }
  auto window = [&](int w, bool optional) {
    return (optional && w == -1) || (w >= 0 && static_cast<size_t>(w) < windows);
  };
  if (s.control != before.control || s.data != before.data || s.extra != before.extra) {
    if (!window(s.control, false) || !window(s.data, false) || !window(s.extra, true))
      return Bad(
          what,
          fmt::format("windows {}, {}, {} (control, data, 3D control)", s.control, s.data, s.extra),
          fmt::format("use 0-based window indices below {} (-1: no 3D control window)", windows));
    // A data window left unset follows the control window: keep the one the values showed.
    if (h.data < 0 && s.control != before.control) h.data = before.data;
    if (s.data != before.data) h.data = s.data;
    h.control = s.control;
    h.extra = s.extra;
  }
  if (s.hide_empty_columns != before.hide_empty_columns) h.hide_columns = s.hide_empty_columns;
  if (s.horizontal != before.horizontal) h.horizontal = s.horizontal;
  if (s.minimum != before.minimum || s.maximum != before.maximum || s.delta != before.delta) {
    if (!std::isfinite(s.minimum) || !std::isfinite(s.maximum) || !(s.minimum < s.maximum) ||
        !std::isfinite(s.delta) || !(s.delta > 0))
      return Bad(what, fmt::format("control scale {} .. {} by {}", s.minimum, s.maximum, s.delta),
                 "the minimum must be below the maximum, and the delta above 0");
    if (cfg::FixedBinCount(s.minimum, s.maximum, s.delta) > cfg::kMaxHistogramColumns)
      return Bad(what, fmt::format("control scale {} .. {} by {} makes too many columns", s.minimum, s.maximum, s.delta),
                 fmt::format("at most {} columns: use a larger delta", cfg::kMaxHistogramColumns));
    h.minimum = s.minimum;
    h.maximum = s.maximum;
    h.delta = s.delta;
    h.use_fixed_delta = true;  // the delta given makes the columns
  }
  if (s.compute_scale != before.compute_scale) h.compute_y_scale = s.compute_scale;
  if (s.sort_columns != before.sort_columns) h.sort_columns = s.sort_columns;
  if (s.sort_reverse != before.sort_reverse) h.sort_reverse = s.sort_reverse;
  if (s.sort_criteria != before.sort_criteria) {
    auto* it = std::find_if(std::begin(kSortCriteria), std::end(kSortCriteria) - 1,
                            [&](const char* c) { return s.sort_criteria == c; });
    if (it == std::end(kSortCriteria) - 1)
      return Bad(what, fmt::format("unknown sort criterion '{}'", s.sort_criteria),
                 "one of: Total, Average, Maximum, Minimum, Stdev, Avg/Max");
    h.sort_criteria = static_cast<cfg::SortCriteria>(it - std::begin(kSortCriteria));
  }
  return Status::Ok();
}

// Every window must bind (functions in their slots, parents, levels) before the text is given.
Status CheckWindows(const session::TraceImpl& t, const cfg::CfgFile& file) {
  for (size_t i = 0; i < file.windows.size(); ++i) {
    auto ev =
        semantic::WindowEvaluator::Create(t.View(), file.windows, i);
    if (!ev.ok())
      return Status::Error(
          fmt::format("window {} '{}': {}", i, file.windows[i].name, ev.status().message()), {},
          ev.status().hint());
  }
  return Status::Ok();
}

const session::TraceImpl& Impl(const Trace& trace) {
  return dynamic_cast<const session::TraceImpl&>(trace);
}

}  // namespace

static Result<CfgDocument> DescribeCfgUnguarded(const Trace& trace, const std::string& cfg_text,
                                                const std::string& name) {
  auto file = Impl(trace).LoadCfgText(cfg_text, name);
  if (!file.ok()) return file.status();
  return Describe(Impl(trace).functions(), file.value());
}

Result<CfgDocument> DescribeCfg(const Trace& trace, const std::string& cfg_text,
                                const std::string& name) {
  return session::GuardedOn(trace, name, [&] { return DescribeCfgUnguarded(trace, cfg_text, name); });
}

static Result<std::string> EditCfgUnguarded(const Trace& trace, const std::string& cfg_text,
                                            const std::string& name, const CfgDocument& doc) {
  const session::TraceImpl& t = Impl(trace);
  auto read = t.LoadCfgText(cfg_text, name);
  if (!read.ok()) return read.status();
  cfg::CfgFile& file = read.value();
  if (!file.histogram_error.empty())
    return Status::Error("the cfg's histograms could not all be read: " + file.histogram_error,
                         Location{name, 0, 0}, "fix the histogram first: editing would drop it");
  if (doc.histograms.size() > file.histograms.size())
    return Status::Error(fmt::format("the cfg has {} histograms, the edit gives {}",
                                     file.histograms.size(), doc.histograms.size()),
                         Location{name, 0, 0}, "histograms cannot be added by an edit");
  for (size_t i = 0; i < doc.windows.size(); ++i) {
    Status st = i < file.windows.size() ? ApplyWindow(t, doc.windows[i], i, file)
                                        : AddWindow(t, doc.windows[i], file);
    if (!st.ok()) return st;
  }
  for (size_t i = 0; i < doc.histograms.size(); ++i)
    if (Status st =
            ApplyHistogram(doc.histograms[i], i, file.windows.size(), file.histograms[i].spec);
        !st.ok())
      return st;
  if (Status st = CheckWindows(t, file); !st.ok()) return st;
  std::string text = cfg::WriteCfg(file);
  auto again = t.LoadCfgText(text, name);
  if (!again.ok())
    return Status::Error("the edited cfg does not read back: " + again.status().ToString(),
                         Location{name, 0, 0}, "this is a bug; please report the cfg and the edit");
  return text;
}

Result<std::string> EditCfg(const Trace& trace, const std::string& cfg_text,
                            const std::string& name, const CfgDocument& doc) {
  return session::GuardedOn(trace, name, [&] { return EditCfgUnguarded(trace, cfg_text, name, doc); });
}

static Result<std::string> FunctionCfgUnguarded(const Trace& trace, const std::string& function,
                                                const std::vector<double>& params) {
  const session::TraceImpl& t = Impl(trace);
  if (t.functions().Find(function, Slot::kThread) == nullptr)
    return Status::Error(fmt::format("unknown thread function '{}'", function), {},
                         session::ThreadFunctionHint(t.functions(), function));
  semantic::WindowSpec w;
  w.name = function;
  w.unit = t.header().unit;
  semantic::FunctionSpec f{function, {}};
  if (!params.empty()) f.params.push_back(params);
  if (!(f.params.empty() && function == semantic::DefaultFunction(Slot::kThread)))
    w.functions[static_cast<size_t>(Slot::kThread)] = std::move(f);
  cfg::CfgFile file;
  file.windows.push_back(std::move(w));
  cfg::CfgWindow info;
  info.display.compute_y_max = true;  // a new window fits its scale, as Paraver's do
  // States of a trace with more of them than a frame has pixels: a pixel shows the state
  // that took most of its time (the "mode"), not the highest-numbered one (Paraver's maximum
  // draws the rarest states over the dominant one on a first view).
  const uint64_t threads = std::max<uint64_t>(1, t.header().processes.threads());
  if (function == semantic::DefaultFunction(Slot::kThread) && t.store().state_records() > threads * 1000)
    info.display.draw_time = cfg::DrawMode::kMode;
  file.window_info.push_back(std::move(info));
  return cfg::WriteCfg(file);
}

Result<std::string> FunctionCfg(const Trace& trace, const std::string& function,
                                const std::vector<double>& params) {
  return session::GuardedOn(trace, function, [&] { return FunctionCfgUnguarded(trace, function, params); });
}

// A window whose intervals come from its threads' state records alone: not derived, at a
// level of processes (resource levels go through the cpus' records), a built-in thread
// function whose only valid records are states (semantics.md §4.1: events and communications
// never start its intervals), and no event type named in its filter (whether any occurs in the
// trace decides whether paramedir writes, cfg-format.md §6). Compose and aggregation functions
// read their children's values, not records.
static bool ReadsStatesOnly(const semantic::WindowSpec& w) {
  if (w.derived || !w.filter.event_type.values.empty()) return false;
  if (w.level != Level::kThread && w.level != Level::kTask && w.level != Level::kAppl &&
      w.level != Level::kWorkload)
    return false;
  const semantic::FunctionDesc* f = semantic::FindFunction(SlotFunction(w, Slot::kThread).name, Slot::kThread);
  return f != nullptr && f->custom == nullptr && f->valid == semantic::kValidStates;
}

static Result<CfgSummary> SummarizeCfgUnguarded(const std::string& cfg_path) {
  auto file = cfg::ReadCfg(cfg_path, cfg::CfgContext{});
  if (!file.ok()) return file.status();
  CfgSummary out;
  out.description = file->description;
  for (const semantic::WindowSpec& w : file->windows) out.windows.push_back(w.name);
  for (const cfg::CfgHistogram& h : file->histograms) out.histograms.push_back(h.spec.name);
  out.reads_states_only =
      !file->windows.empty() &&
      std::all_of(file->windows.begin(), file->windows.end(), ReadsStatesOnly) &&
      std::all_of(file->histograms.begin(), file->histograms.end(), [](const cfg::CfgHistogram& h) {
        return std::find(std::begin(cfg::kSemanticStatistics), std::end(cfg::kSemanticStatistics),
                         h.spec.statistic) != std::end(cfg::kSemanticStatistics);
      });
  return out;
}

Result<CfgSummary> SummarizeCfg(const std::string& cfg_path) {
  return session::Guarded(cfg_path, [&] { return SummarizeCfgUnguarded(cfg_path); });
}

}  // namespace parallax
