#include "src/cfg/cfg_reader.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/cfg/cfg_names.h"
#include "src/cfg/cfg_parser.h"
#include "src/semantic/function_table.h"

namespace parallax::cfg {

namespace {

using H = CfgParser::Handler;

const std::unordered_map<std::string_view, H>& WindowKeys() {
  static const std::unordered_map<std::string_view, H> kKeys = {
      {"window_name", &CfgParser::OnName},
      {"window_type", &CfgParser::OnType},
      {"window_id", &CfgParser::OnIgnored},
      {"window_number_of_row", &CfgParser::OnIgnored},
      {"window_identifiers", &CfgParser::OnIdentifiers},
      {"window_factors", &CfgParser::OnFactors},
      {"window_shifts", &CfgParser::OnShifts},
      {"window_operation", &CfgParser::OnOperation},
      {"window_level", &CfgParser::OnLevel},
      {"window_units", &CfgParser::OnUnits},
      {"window_begin_time", &CfgParser::OnBeginTime},
      {"window_stop_time", &CfgParser::OnStopTime},
      {"window_end_time", &CfgParser::OnEndTime},
      {"window_begin_time_relative", &CfgParser::OnBeginRelative},
      {"window_end_time_relative", &CfgParser::OnEndRelative},
      {"window_scale_relative", &CfgParser::OnEndRelative},
      {"window_zoom_objects", &CfgParser::OnZoomObjects},
      {"window_object", &CfgParser::OnObject},
      {"window_selected_functions", &CfgParser::OnSelectedFunctions},
      {"window_compose_functions", &CfgParser::OnComposeFunctions},
      {"window_semantic_module", &CfgParser::OnSemanticModule},
      {"window_filter_module", &CfgParser::OnFilterModule},
      {"window_logical_filtered", &CfgParser::OnFilterFlag},
      {"window_physical_filtered", &CfgParser::OnFilterFlag},
      {"window_intracomms_enabled", &CfgParser::OnFilterFlag},
      {"window_intercomms_enabled", &CfgParser::OnFilterFlag},
      {"window_comm_fromto", &CfgParser::OnFilterFlag},
      {"window_comm_tagsize", &CfgParser::OnFilterFlag},
      {"window_comm_typeval", &CfgParser::OnFilterFlag},
      {"window_position_x", &CfgParser::OnGeometry},
      {"window_position_y", &CfgParser::OnGeometry},
      {"window_width", &CfgParser::OnGeometry},
      {"window_height", &CfgParser::OnGeometry},
      {"window_comm_lines_enabled", &CfgParser::OnDisplayFlag},
      {"window_flags_enabled", &CfgParser::OnDisplayFlag},
      {"window_custom_color_enabled", &CfgParser::OnDisplayFlag},
      {"window_semantic_scale_min_at_zero", &CfgParser::OnDisplayFlag},
      {"window_open", &CfgParser::OnDisplayFlag},
      {"window_noncolor_mode", &CfgParser::OnNonColorMode},
      {"window_color_mode", &CfgParser::OnColorMode},
      {"window_gradient_function", &CfgParser::OnGradientFunction},
      {"window_custom_color_palette", &CfgParser::OnCustomPalette},
      {"window_maximum_y", &CfgParser::OnScale},
      {"window_minimum_y", &CfgParser::OnScale},
      {"window_compute_y_max", &CfgParser::OnComputeYMax},
      {"window_drawmode", &CfgParser::OnDrawMode},
      {"window_drawmode_rows", &CfgParser::OnDrawMode},
      {"window_pixel_size", &CfgParser::OnDisplayNumber},
      {"window_labels_to_draw", &CfgParser::OnDisplayNumber},
      {"window_object_axis_position", &CfgParser::OnDisplayNumber},
      {"window_punctual_color_window", &CfgParser::OnDisplayNumber},
      {"window_synchronize", &CfgParser::OnDisplayNumber},
  };
  return kKeys;
}

bool IsHeaderKey(std::string_view key) {
  return key.starts_with("ConfigFile.") || key == "version" || key == "number_of_windows";
}

bool IsCfg4dKey(std::string_view key) {
  return key == "cfg4d" || key == "cfg4dlink" || key == "cfg4dstatistic" || key == "cfg4dparam";
}

bool IsHistogramKey(std::string_view key) {
  return key == "< NEW ANALYZER2D >" || key.starts_with("Analyzer2D.") ||
         key.starts_with("Analyzer3D.");
}

std::string_view FirstToken(std::string_view line) {
  size_t b = line.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  line.remove_prefix(b);
  return line.substr(0, line.find_first_of(" \t\r"));
}

template <typename F>
void ForEachLine(std::string_view text, F&& f) {
  size_t pos = 0;
  uint64_t n = 0;
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(pos, e - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!f(++n, line)) return;
    pos = e + 1;
  }
}

}  // namespace

bool LooksLikeCfg(std::string_view text) {
  bool version = false, windows = false, old_version = false, old_windows = false, tag = false;
  ForEachLine(text, [&](uint64_t, std::string_view line) {
    std::string_view t = FirstToken(line);
    tag |= t == "#ParaverCFG";
    version |= t == "ConfigFile.Version:";
    windows |= t == "ConfigFile.NumWindows:";
    old_version |= t == "version";
    old_windows |= t == "number_of_windows";
    return !tag;
  });
  return tag || (version && windows) || (old_version && old_windows);
}

Result<CfgFile> ParseCfg(std::string_view text, const std::string& file, const CfgContext& ctx) {
  return CfgParser(text, file, ctx).Run();
}

Result<CfgFile> ReadCfg(const std::string& path, const CfgContext& ctx) {
  Result<base::InputBuffer> in = base::InputBuffer::Open(path);
  if (!in.ok()) return in.status();
  return in->Parse([&](std::string_view text) { return ParseCfg(text, path, ctx); });
}

Result<CfgFile> CfgParser::Run() {
  if (!LooksLikeCfg(text_)) {
    return Status::Error("not a Paraver cfg file", Location{file_, 1, 1},
                         "a cfg has a '#ParaverCFG' line, or 'ConfigFile.Version:' and "
                         "'ConfigFile.NumWindows:' lines");
  }
  Status st;
  ForEachLine(text_, [&](uint64_t n, std::string_view line) {
    line_no_ = n;
    st = Line(line);
    return st.ok();
  });
  if (st.ok()) {
    // The last histogram is complete (the earlier ones were checked when the next began).
    st = CheckHistogramSize();
  }
  if (!st.ok() && out_.histograms.empty()) return st;
  if (!st.ok()) {
    // cfg-format.md §2 rule 6: the histogram being built is dropped and reading stops; the
    // windows read so far remain.
    out_.histograms.pop_back();
    out_.histogram_error = st.ToString();
    out_.histogram_failure = st;
    Notice("histogram dropped: " + st.message());
  }
  line_no_ = 0;
  if (Status s = FinishWindow(); !s.ok()) return s;
  if (out_.windows.empty()) {
    return Status::Error("the cfg defines no window", Location{file_, 0, 0},
                         "a window starts with a 'window_type single' line");
  }
  CheckEventsInTrace();
  FinishHistograms();
  return std::move(out_);
}

Status CfgParser::Line(std::string_view line) {
  if (in_description_) {
    std::string_view t = FirstToken(line);
    if (t == "ConfigFile.EndDescription" || t == "end_description") {
      in_description_ = false;
      return Status::Ok();
    }
    std::string_view key = line.substr(0, line.find(' '));
    if (!line.starts_with("<") && (WindowKeys().count(key) || IsHistogramKey(key)))
      return Unsupported(key);  // Paraver would execute it: we keep descriptions as text
    out_.description.emplace_back(line);
    return Status::Ok();
  }
  if (!line.empty() && line[0] == '#') {
    // Parallax's own settings ride in comments, which Paraver skips.
    constexpr std::string_view kPalette = "# parallax: palette ";
    if (line.starts_with(kPalette)) {
      std::string_view v = line.substr(kPalette.size());
      while (!v.empty() && (v.back() == ' ' || v.back() == '\r' || v.back() == '\t')) v.remove_suffix(1);
      if (v == "colorblind" || v == "paraver")
        out_.palette = std::string(v);
      else
        Notice(fmt::format("unknown palette '{}' (palettes: paraver, colorblind); Paraver's is used", v));
    }
    return Status::Ok();
  }
  if (line.empty()) return Status::Ok();
  if (line[0] == '<') return Key(line, Field{"", line.size() + 1}, line);
  size_t sp = line.find(' ');
  std::string_view key = line.substr(0, sp);
  Field value{sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1),
              sp == std::string_view::npos ? line.size() + 1 : sp + 2};
  return Key(key, value, line);
}

Status CfgParser::Key(std::string_view key, Field value, std::string_view line) {
  key_ = key;
  auto it = WindowKeys().find(key);
  if (it != WindowKeys().end()) {
    if (!have_window_ && it->second != &CfgParser::OnName && it->second != &CfgParser::OnType &&
        it->second != &CfgParser::OnIgnored) {
      Notice(fmt::format("ignored: {} before any window_type", key));
      return Status::Ok();
    }
    return (this->*(it->second))(value);
  }
  if (key == "ConfigFile.BeginDescription" || key == "begin_description") {
    in_description_ = true;
    out_.has_description = true;
    return Status::Ok();
  }
  if (IsHeaderKey(key) || key.starts_with("< NEW DISPLAYING WINDOW")) return Status::Ok();
  if (key == "CFG4D_ENABLED") {
    out_.cfg4d_enabled = true;
    return Status::Ok();
  }
  if (IsCfg4dKey(key)) {
    if (!have_window_) {
      Notice(fmt::format("ignored: {} before any window_type", key));
      return Status::Ok();
    }
    Info().display.cfg4d.emplace_back(line);
    return Status::Ok();
  }
  if (IsHistogramKey(key)) return HistogramKey(key, value, line);
  Notice(fmt::format("ignored: '{}' is not a cfg key", key));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Errors and values.

Status CfgParser::Expected(Field f, std::string_view what, std::string hint) const {
  return Status::Error(fmt::format("{}: expected {}, found '{}'", KeyName(), what, f.text),
                       Location{file_, line_no_, f.column}, std::move(hint));
}

Status CfgParser::Unsupported(std::string_view name, size_t column) const {
  return Status::Error(fmt::format("unsupported: {} at line {}", name, line_no_),
                       Location{file_, line_no_, column},
                       "Parallax does not implement this yet; remove the line or the object it "
                       "belongs to");
}

Status CfgParser::TokenFailure(const TokenError& e, std::string hint) const {
  return Status::Error(fmt::format("{}: expected {}, found '{}'", KeyName(), e.expected, e.found),
                       Location{file_, line_no_, e.column}, std::move(hint));
}

void CfgParser::Notice(std::string text) { out_.notices.push_back({line_no_, std::move(text)}); }

Status CfgParser::Bool(Field f, bool* out) const {
  std::string_view t = TrimRightBlanks(f.text);
  if (t == "true" || t == "false") {
    *out = t == "true";
    return Status::Ok();
  }
  return Expected(f, "'true' or 'false'", "window keys take lowercase true or false");
}

Status CfgParser::Double(Field f, double* out) const {
  if (ParseDouble(f.text, out)) return Status::Ok();
  return Expected(f, "a number", "write a decimal number such as 1.000000000000");
}

Status CfgParser::Uint(Field f, uint64_t max, uint64_t* out) const {
  if (ParseUint(f.text, max, out)) return Status::Ok();
  return Expected(f, fmt::format("an integer in 0..{}", max), "write a plain unsigned integer");
}

uint32_t CfgParser::ObjectCount(model::Level level) const {
  const model::ProcessModel* p = ctx_.process;
  const model::ResourceModel* r = ctx_.resources;
  switch (level) {
    case model::Level::kWorkload:
      return 1;
    case model::Level::kAppl:
      return p ? p->appls() : 0;
    case model::Level::kTask:
      return p ? p->tasks() : 0;
    case model::Level::kThread:
      return p ? p->threads() : 0;
    case model::Level::kSystem:
      return r && !r->empty() ? 1 : 0;
    case model::Level::kNode:
      return r ? r->nodes() : 0;
    case model::Level::kCpu:
      return r ? r->cpus() : 0;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// End of a window: symbol picking (cfg-format.md §3.4), selections, canonical function names.

Status CfgParser::FinishWindow() {
  if (!have_window_) return Status::Ok();
  semantic::WindowSpec& w = W();
  const CfgWindow& info = Info();
  if (!w.derived) {
    if (Status s = PickEventTypes(w, info); !s.ok()) return s;
    PickEventValues(w, info);
  }
  NormalizeWindow(w);
  have_window_ = false;
  return Status::Ok();
}

Status CfgParser::PickEventTypes(semantic::WindowSpec& w, const CfgWindow& info) {
  const EventFilterText& e = info.events;
  std::vector<double>& out = w.filter.event_type.values;
  out.clear();
  if (!e.type_labels.empty() && e.type_labels.size() != e.types.size()) {
    return Status::Error(
        fmt::format("window_filter_module evt_type_label: {} labels for {} event types",
                    e.type_labels.size(), e.types.size()),
        Location{file_, type_label_line_, 1},
        "give one label per event type of the window_filter_module evt_type line");
  }
  for (size_t i = 0; i < e.types.size(); ++i) {
    std::string_view label = e.type_labels.empty() ? std::string_view() : e.type_labels[i];
    std::vector<uint32_t> types;
    if (ctx_.pcf && !label.empty() && label != "Unknown") types = ctx_.pcf->TypesByLabel(label);
    if (types.empty()) {
      out.push_back(e.types[i]);
      continue;
    }
    for (uint32_t t : types) out.push_back(t);
  }
  return Status::Ok();
}

void CfgParser::PickEventValues(semantic::WindowSpec& w, const CfgWindow& info) {
  const EventFilterText& e = info.events;
  std::vector<double>& out = w.filter.event_value.values;
  out.clear();
  if (!e.value_labels.empty() && e.value_labels.size() != e.values.size()) {
    Notice(fmt::format("window '{}': {} value labels for {} event values; labels not used", w.name,
                       e.value_labels.size(), e.values.size()));
  }
  bool use_labels = ctx_.pcf && e.value_labels.size() == e.values.size();
  for (size_t i = 0; i < e.values.size(); ++i) {
    std::vector<double> found;
    if (use_labels && e.value_labels[i] != "Unknown" && !e.value_labels[i].empty()) {
      for (const auto& [type, value] : ctx_.pcf->ValuesByLabel(e.value_labels[i])) {
        double v = static_cast<double>(value);
        if (std::find(found.begin(), found.end(), v) == found.end()) found.push_back(v);
      }
    }
    if (found.empty()) found.push_back(e.values[i]);
    if (found.size() > 1) {
      Notice(fmt::format("window '{}': label \"{}\" names {} event values; all are used", w.name,
                         e.value_labels[i], found.size()));
    }
    out.insert(out.end(), found.begin(), found.end());
  }
}

void CfgParser::NormalizeWindow(semantic::WindowSpec& w) {
  for (size_t i = 0; i < semantic::kSlotCount; ++i) {
    semantic::FunctionSpec& f = w.functions[i];
    if (f.params.empty() && f.name == semantic::DefaultFunction(static_cast<semantic::Slot>(i)))
      f.name.clear();
  }
  for (size_t l = 0; l < w.selected.size(); ++l) {
    std::vector<bool>& sel = w.selected[l];
    bool any = std::find(sel.begin(), sel.end(), true) != sel.end();
    if (!sel.empty() && static_cast<size_t>(w.level) == l && !any) {
      out_.window_without_objects = true;
      Notice(fmt::format("window '{}' has no selected object at its level", w.name));
    }
    if (std::find(sel.begin(), sel.end(), false) == sel.end()) sel.clear();
  }
}

void CfgParser::CheckEventsInTrace() {
  if (!ctx_.trace_event_types) return;
  const std::vector<uint32_t>& in_trace = *ctx_.trace_event_types;
  bool any_named = false, any_found = false;
  for (const semantic::WindowSpec& w : out_.windows) {
    if (w.derived) continue;
    filter::CriterionOp op = w.filter.event_type.op;
    if (op == filter::CriterionOp::kAll || op == filter::CriterionOp::kNone) return;
    std::vector<double> missing;
    bool window_found = false;
    for (double t : w.filter.event_type.values) {
      any_named = true;
      bool found = t >= 0 && t <= UINT32_MAX &&
                   std::binary_search(in_trace.begin(), in_trace.end(), static_cast<uint32_t>(t));
      any_found |= found;
      window_found |= found;
      if (!found) missing.push_back(t);
    }
    // A type the trace lacks is normal (an MPI cfg names MPI I/O, which most runs never do):
    // only a window none of whose types occurs is said, in one line.
    if (!missing.empty() && !window_found) {
      Notice(fmt::format("window '{}': none of its event types is in the trace ({})", w.name,
                         fmt::join(missing, " ")));
    }
  }
  if (any_named && !any_found) {
    out_.no_filtered_event_in_trace = true;
    Notice("None of the events specified in the filter appear in the trace");
  }
}

}  // namespace parallax::cfg
