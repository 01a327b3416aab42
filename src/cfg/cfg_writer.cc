#include "src/cfg/cfg_writer.h"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "src/cfg/cfg_names.h"
#include "src/cfg/cfg_tokens.h"
#include "src/semantic/function_table.h"

namespace parallax::cfg {

namespace {

using model::Level;
using semantic::Slot;
using semantic::WindowSpec;

const char* BoolText(bool b) { return b ? "true" : "false"; }

// An integral value (filter values, object numbers); beyond 64 bits as its digits.
std::string Int(double v) {
  if (std::fabs(v) < 9.2e18) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:.0f}", v);
}

void Key(std::string& out, std::string_view key, std::string_view value) {
  out += key;
  out += ' ';
  out += value;
  out += '\n';
}

void Entry(std::string& out, const WindowSpec& w, Slot slot, bool* first) {
  out += *first ? "" : ", ";
  *first = false;
  out += fmt::format("{{{}, {}}}", CfgSlotName(slot), semantic::SlotFunction(w, slot).name);
}

void Criterion(std::string& out, std::string_view kind, const filter::Criterion& c) {
  out += fmt::format(", {{{}, {}}}", kind, filter::CriterionName(c.op));
}

void SelectedFunctions(std::string& out, const WindowSpec& w) {
  std::string list;
  bool first = true;
  if (!w.derived) {
    for (Slot s : {Slot::kCpu, Slot::kAppl, Slot::kTask, Slot::kThread, Slot::kNode, Slot::kSystem,
                   Slot::kWorkload})
      Entry(list, w, s, &first);
    const filter::FilterSpec& f = w.filter;
    Criterion(list, "from_obj", f.from);
    Criterion(list, "to_obj", f.to);
    Criterion(list, "tag_msg", f.tag);
    Criterion(list, "size_msg", f.size);
    Criterion(list, "bw_msg", f.bandwidth);
    Criterion(list, "evt_type", f.event_type);
    Criterion(list, "evt_value", f.event_value);
    Key(out, "window_selected_functions", fmt::format("{{ 14, {{ {} }} }}", list));
    return;
  }
  // Derived windows list their aggregation slots, each followed by ", " (as Paraver does).
  size_t n = 0;
  for (Slot s : {Slot::kCpu, Slot::kAppl, Slot::kTask, Slot::kThread, Slot::kNode, Slot::kSystem,
                 Slot::kWorkload}) {
    if ((s == Slot::kCpu || s == Slot::kThread) && w.functions[static_cast<size_t>(s)].name.empty())
      continue;
    list += fmt::format("{{{}, {}}}, ", CfgSlotName(s), semantic::SlotFunction(w, s).name);
    ++n;
  }
  Key(out, "window_selected_functions", fmt::format("{{ {}, {{ {}}} }}", n, list));
}

void ComposeFunctions(std::string& out, const WindowSpec& w) {
  std::string list;
  bool first = true;
  for (Slot s : {Slot::kComposeCpu, Slot::kComposeAppl, Slot::kComposeTask, Slot::kComposeThread,
                 Slot::kComposeNode, Slot::kComposeSystem, Slot::kComposeWorkload,
                 Slot::kTopCompose1, Slot::kTopCompose2})
    Entry(list, w, s, &first);
  for (const semantic::FunctionSpec& f : w.extra_composes)
    list += fmt::format(", {{extratopcompose1, {}}}", f.name);
  Key(out, "window_compose_functions",
      fmt::format("{{ {}, {{ {} }} }}", 9 + w.extra_composes.size(), list));
}

std::string Params(const std::vector<std::vector<double>>& params) {
  std::string s = fmt::format("{{ {}, {{", params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    s += fmt::format(" {}", params[i].size());
    for (double v : params[i]) s += " " + FormatDouble(v);
    if (i + 1 < params.size()) s += ',';
  }
  return s + " } }";
}

void SemanticModules(std::string& out, const WindowSpec& w) {
  for (size_t i = 0; i < semantic::kSlotCount; ++i) {
    const semantic::FunctionSpec& f = w.functions[i];
    if (f.params.empty() || static_cast<Slot>(i) == Slot::kDerived) continue;
    Key(out, "window_semantic_module",
        fmt::format("{} {} {}", CfgSlotName(static_cast<Slot>(i)), f.name, Params(f.params)));
  }
  for (const semantic::FunctionSpec& f : w.extra_composes) {
    if (!f.params.empty())
      Key(out, "window_semantic_module",
          fmt::format("extratopcompose1 {} {}", f.name, Params(f.params)));
  }
}

template <typename F>
void FilterLine(std::string& out, std::string_view kind, const std::vector<double>& values,
                F&& format) {
  if (values.empty()) return;
  std::string s = fmt::format("{} {}", kind, values.size());
  for (double v : values) s += " " + format(v);
  Key(out, "window_filter_module", s);
}

void LabelLine(std::string& out, std::string_view kind, const std::vector<std::string>& labels) {
  if (labels.empty()) return;
  std::string s = fmt::format("{} {}", kind, labels.size());
  for (const std::string& l : labels) s += fmt::format(" \"{}\"", l);
  Key(out, "window_filter_module", s);
}

void FilterModules(std::string& out, const WindowSpec& w, const EventFilterText& e) {
  const filter::FilterSpec& f = w.filter;
  auto plus_one = [](double v) { return Int(v + 1); };
  FilterLine(out, "from_obj", f.from.values, plus_one);
  FilterLine(out, "to_obj", f.to.values, plus_one);
  FilterLine(out, "tag_msg", f.tag.values, Int);
  FilterLine(out, "size_msg", f.size.values, Int);
  FilterLine(out, "bw_msg", f.bandwidth.values, FormatDouble);
  bool as_read = !e.types.empty() || !e.values.empty();
  FilterLine(out, "evt_type", as_read ? e.types : f.event_type.values, Int);
  if (as_read) LabelLine(out, "evt_type_label", e.type_labels);
  FilterLine(out, "evt_value", as_read ? e.values : f.event_value.values, FormatDouble);
  if (as_read) LabelLine(out, "evt_value_label", e.value_labels);
}

std::string ObjectText(const ObjectLine& line) {
  std::string s = fmt::format("{} {{ ", CfgLevelName(line.level));
  for (uint32_t g : line.group) s += fmt::format("{}, ", g);
  s += fmt::format("{}, {{ ", line.selected.size());
  for (size_t i = 0; i < line.selected.size(); ++i) {
    if (i > 0) s += ", ";
    s += line.numeric ? (line.selected[i] ? "1" : "0") : (line.selected[i] ? "All" : "None");
  }
  return s + " } }";
}

void Identity(std::string& out, const WindowSpec& w, size_t index) {
  out += "################################################################################\n";
  out += fmt::format("< NEW DISPLAYING WINDOW {} >\n", w.name);
  out += "################################################################################\n";
  Key(out, "window_name", w.name);
  Key(out, "window_type", w.derived ? "composed" : "single");
  Key(out, "window_id", fmt::format("{}", index + 1));
  if (!w.derived) return;
  Key(out, "window_factors", FormatDouble(w.factor0) + " " + FormatDouble(w.factor1));
  if (w.shift0 != 0 || w.shift1 != 0)
    Key(out, "window_shifts", fmt::format("{} {}", w.shift0, w.shift1));
  Key(out, "window_operation", semantic::SlotFunction(w, Slot::kDerived).name);
  Key(out, "window_identifiers", fmt::format("{} {}", w.parent0 + 1, w.parent1 + 1));
}

void Colors(std::string& out, const WindowDisplay& d) {
  Key(out, "window_comm_lines_enabled", BoolText(d.comm_lines));
  Key(out, "window_flags_enabled", BoolText(d.flags));
  Key(out, "window_noncolor_mode", BoolText(d.color != ColorMode::kFunctionLine));
  if (d.color != ColorMode::kFunctionLine && d.color != ColorMode::kCode)
    Key(out, "window_color_mode", ColorModeName(d.color));
  if (d.gradient) Key(out, "window_gradient_function", GradientFunctionName(*d.gradient));
  if (d.custom_color) Key(out, "window_custom_color_enabled", "true");
  if (d.custom_palette) Key(out, "window_custom_color_palette", *d.custom_palette);
  if (d.scale_min_at_zero) Key(out, "window_semantic_scale_min_at_zero", "true");
}

void FilterFlags(std::string& out, const WindowSpec& w) {
  const filter::FilterSpec& f = w.filter;
  if (w.derived && f == filter::FilterSpec{}) return;
  Key(out, "window_logical_filtered", BoolText(f.logical));
  Key(out, "window_physical_filtered", BoolText(f.physical));
  if (!f.intra_node) Key(out, "window_intracomms_enabled", "false");
  if (!f.inter_node) Key(out, "window_intercomms_enabled", "false");
  Key(out, "window_comm_fromto", BoolText(f.from_to_and));
  Key(out, "window_comm_tagsize", BoolText(f.tag_size_and));
  Key(out, "window_comm_typeval", BoolText(f.type_value_and));
}

void TimeAndObjects(std::string& out, const WindowSpec& w, const CfgWindow& info) {
  const WindowDisplay& d = info.display;
  Key(out, "window_units", CfgUnitName(w.unit));
  Key(out, "window_maximum_y", FormatDouble(d.maximum_y));
  Key(out, "window_minimum_y", FormatDouble(d.minimum_y));
  Key(out, "window_compute_y_max", d.compute_y_max ? BoolText(*d.compute_y_max) : "");
  Key(out, "window_level", CfgLevelName(w.level));
  if (w.range.relative) {
    Key(out, "window_scale_relative", FormatDouble(w.range.end));
    Key(out, "window_end_time_relative", FormatDouble(w.range.end));
  } else {
    Key(out, "window_stop_time", FormatDouble(w.range.end));
  }
  for (const ObjectLine& line : info.objects) Key(out, "window_object", ObjectText(line));
  Key(out, w.range.relative ? "window_begin_time_relative" : "window_begin_time",
      FormatDouble(w.range.begin));
}

void Drawing(std::string& out, const WindowDisplay& d) {
  Key(out, "window_open", BoolText(d.open));
  Key(out, "window_drawmode", DrawModeName(d.draw_time));
  Key(out, "window_drawmode_rows", DrawModeName(d.draw_rows));
  Key(out, "window_pixel_size", fmt::format("{}", d.pixel_size));
  Key(out, "window_labels_to_draw", fmt::format("{}", d.labels_to_draw));
  if (d.object_axis_position)
    Key(out, "window_object_axis_position", fmt::format("{}", *d.object_axis_position));
  if (d.punctual_color_window)
    Key(out, "window_punctual_color_window", fmt::format("{}", *d.punctual_color_window));
  if (d.synchronize) Key(out, "window_synchronize", fmt::format("{}", *d.synchronize));
  if (d.zoom_objects)
    Key(out, "window_zoom_objects",
        fmt::format("{} {}", d.zoom_objects->first, d.zoom_objects->second));
}

void Window(std::string& out, const WindowSpec& w, const CfgWindow& info, size_t index) {
  const WindowDisplay& d = info.display;
  Identity(out, w, index);
  Key(out, "window_position_x", fmt::format("{}", d.x));
  Key(out, "window_position_y", fmt::format("{}", d.y));
  Key(out, "window_width", fmt::format("{}", d.width));
  Key(out, "window_height", fmt::format("{}", d.height));
  Colors(out, d);
  FilterFlags(out, w);
  TimeAndObjects(out, w, info);
  Drawing(out, d);
  SelectedFunctions(out, w);
  ComposeFunctions(out, w);
  SemanticModules(out, w);
  if (!w.derived) FilterModules(out, w, info.events);
  out += '\n';
  for (const std::string& line : d.cfg4d) out += line + '\n';
  if (!d.cfg4d.empty()) out += '\n';
}

// A double that reads back exactly: "%.12f" when that is exact, else the shortest form.
std::string Exact(double v) {
  std::string s = FormatDouble(v);
  double back = 0;
  return ParseDouble(s, &back) && back == v ? s : fmt::format("{}", v);
}

const char* HistBool(bool b) { return b ? "True" : "False"; }

std::string_view CriteriaName(SortCriteria c) {
  static constexpr std::string_view kNames[] = {"Total",   "Average", "Maximum", "Minimum",
                                                "Stdev",   "Avg/Max", "Custom"};
  return kNames[static_cast<size_t>(c)];
}

void HistogramColumns(std::string& out, const HistogramSpec& h) {
  Key(out, "Analyzer2D.ComputeYScale:", HistBool(h.compute_y_scale));
  Key(out, "Analyzer2D.ComputeYScaleZero:", HistBool(h.compute_y_scale_zero));
  Key(out, "Analyzer2D.Minimum:", Exact(h.minimum));
  Key(out, "Analyzer2D.Maximum:", Exact(h.maximum));
  Key(out, "Analyzer2D.Delta:", Exact(h.delta));
  Key(out, "Analyzer2D.UseFixedDelta:", HistBool(h.use_fixed_delta));
  if (h.num_columns) Key(out, "Analyzer2D.NumColumns:", fmt::format("{}", *h.num_columns));
  if (h.extra < 0) return;
  Key(out, "Analyzer3D.ComputeYScale:", HistBool(h.compute_3d_scale));
  Key(out, "Analyzer2D.3D_Minimum:", Exact(h.minimum_3d));
  Key(out, "Analyzer2D.3D_Maximum:", Exact(h.maximum_3d));
  Key(out, "Analyzer2D.3D_Delta:", Exact(h.delta_3d));
  if (h.fixed_value_3d) Key(out, "Analyzer2D.3D_FixedValue:", Exact(*h.fixed_value_3d));
}

void Histogram(std::string& out, const CfgHistogram& hist) {
  const HistogramSpec& h = hist.spec;
  out += "< NEW ANALYZER2D >\n";
  Key(out, "Analyzer2D.Name:", h.name);
  if (h.control >= 0) Key(out, "Analyzer2D.ControlWindow:", fmt::format("{}", h.control + 1));
  if (h.data >= 0) Key(out, "Analyzer2D.DataWindow:", fmt::format("{}", h.data + 1));
  if (h.extra >= 0) Key(out, "Analyzer2D.3D_ControlWindow:", fmt::format("{}", h.extra + 1));
  Key(out, "Analyzer2D.Statistic:", h.statistic);
  static constexpr std::string_view kLimits[] = {"Alltrace", "Allwindow", "Region"};
  Key(out, "Analyzer2D.AnalysisLimits:", kLimits[static_cast<size_t>(h.limits)]);
  HistogramColumns(out, h);
  if (h.objects) Key(out, "Analyzer2D.Objects:", fmt::format("{}", fmt::join(*h.objects, ",")));
  Key(out, "Analyzer2D.HorizVert:", h.horizontal ? "Horizontal" : "Vertical");
  Key(out, "Analyzer2D.HideCols:", HistBool(h.hide_columns));
  Key(out, "Analyzer2D.ShortHeaderLabels:", HistBool(h.short_labels));
  Key(out, "Analyzer2D.SortCols:", HistBool(h.sort_columns));
  Key(out, "Analyzer2D.SortReverse:", HistBool(h.sort_reverse));
  Key(out, "Analyzer2D.SortCriteria:", CriteriaName(h.sort_criteria));
  if (!h.parameters.empty()) {
    std::string p = fmt::format("{}", h.parameters.size());
    for (double v : h.parameters) p += " " + Exact(v);
    Key(out, "Analyzer2D.Parameters:", p);
  }
  for (const std::string& line : hist.gui_lines) out += line + '\n';
  out += '\n';
}

}  // namespace

std::string WriteCfg(const CfgFile& cfg) {
  std::string out = "#ParaverCFG\nConfigFile.Version: 3.4\n";
  out += fmt::format("ConfigFile.NumWindows: {}\n", cfg.windows.size());
  if (cfg.has_description) {
    out += "ConfigFile.BeginDescription\n";
    for (const std::string& line : cfg.description) out += line + '\n';
    out += "ConfigFile.EndDescription\n";
  }
  out += '\n';
  if (!cfg.palette.empty()) out += "# parallax: palette " + cfg.palette + "\n\n";
  if (cfg.cfg4d_enabled) out += "CFG4D_ENABLED\n\n";
  static const CfgWindow kNoInfo;
  for (size_t i = 0; i < cfg.windows.size(); ++i) {
    const CfgWindow& info = i < cfg.window_info.size() ? cfg.window_info[i] : kNoInfo;
    Window(out, cfg.windows[i], info, i);
  }
  for (const CfgHistogram& h : cfg.histograms) Histogram(out, h);
  return out;
}

}  // namespace parallax::cfg
