// Handlers of the histogram keys (cfg-format.md §5); see CfgParser in cfg_parser.h.

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "src/cfg/cfg_names.h"
#include "src/cfg/cfg_parser.h"

namespace parallax::cfg {

namespace {

using model::Level;

bool IsStatistic(std::string_view name) {
  for (const char* s : kSemanticStatistics)
    if (name == s) return true;
  for (const char* s : kCommStatistics)
    if (name == s) return true;
  return false;
}

// Whether window `a` is `b` or one of its parents, recursively.
bool IsAncestor(const std::vector<semantic::WindowSpec>& w, int a, int b) {
  if (a == b) return true;
  if (b < 0 || !w[static_cast<size_t>(b)].derived) return false;
  const semantic::WindowSpec& d = w[static_cast<size_t>(b)];
  return IsAncestor(w, a, d.parent0) || IsAncestor(w, a, d.parent1);
}

// analysis.md §1: `other` may be the control window itself, or a window at the same or a
// coarser level of the same model that is neither an ancestor nor a descendant of it.
bool Compatible(const std::vector<semantic::WindowSpec>& w, int control, int other) {
  if (control < 0 || other < 0 || control == other) return true;
  Level c = w[static_cast<size_t>(control)].level, o = w[static_cast<size_t>(other)].level;
  if (IsResourceLevel(c) != IsResourceLevel(o) || o > c) return false;
  return !IsAncestor(w, control, other) && !IsAncestor(w, other, control);
}

const std::pair<std::string_view, SortCriteria> kCriteria[] = {
    {"Total", SortCriteria::kTotal},     {"Average", SortCriteria::kAverage},
    {"Maximum", SortCriteria::kMaximum}, {"Minimum", SortCriteria::kMinimum},
    {"Stdev", SortCriteria::kStdev},     {"Avg/Max", SortCriteria::kAvgMax},
    {"Custom", SortCriteria::kCustom}};

// GUI keys: validated as Paraver does, then kept verbatim. 'b' strict bool, 'l' lenient,
// 'd' double, 'u' unsigned, 'm' draw mode, '-' anything.
const std::pair<std::string_view, char> kGuiKeys[] = {
    {"Analyzer2D.X:", 'u'},
    {"Analyzer2D.Y:", 'u'},
    {"Analyzer2D.Width:", 'u'},
    {"Analyzer2D.Height:", 'u'},
    {"Analyzer2D.CalculateAll:", '-'},
    {"Analyzer2D.UseCustomDelta:", '-'},
    {"Analyzer2D.Accumulator:", '-'},
    {"Analyzer2D.AccumulateByControlWindow:", 'b'},
    {"Analyzer2D.RelativeTime:", 'b'},
    {"Analyzer2D.Color:", 'l'},
    {"Analyzer2D.SemanticColor:", 'l'},
    {"Analyzer2D.Zoom:", '-'},
    {"Analyzer2D.ComputeGradient:", 'b'},
    {"Analyzer2D.MinimumGradient:", 'd'},
    {"Analyzer2D.MaximumGradient:", 'd'},
    {"Analyzer2D.DrawModeObjects:", 'm'},
    {"Analyzer2D.DrawModeColumns:", 'm'},
    {"Analyzer2D.PixelSize:", 'u'},
    {"Analyzer2D.CodeColor:", 'b'},
    {"Analyzer2D.ColorMode:", '-'},
    {"Analyzer2D.ShowOnlyTotals:", 'b'},
    {"Analyzer2D.Synchronize:", '-'},
};

}  // namespace

Status CfgParser::HistogramKey(std::string_view key, Field v, std::string_view line) {
  if (key == "< NEW ANALYZER2D >") return NewHistogram();
  if (out_.histograms.empty()) {
    if (out_.windows.empty())
      return Status::Error(fmt::format("{}: no window defined before the histogram", key),
                           Location{file_, line_no_, 1}, "define the windows first");
    Notice(fmt::format("ignored: {} before '< NEW ANALYZER2D >'", key));
    return Status::Ok();
  }
  bool handled = false;
  if (Status s = HistSpecKey(key, v, &handled); !s.ok() || handled) return s;
  for (const auto& [name, kind] : kGuiKeys) {
    if (key != name) continue;
    if (Status s = HistGuiKey(key, v); !s.ok()) return s;
    out_.histograms.back().gui_lines.emplace_back(TrimRightBlanks(line));
    return Status::Ok();
  }
  Notice(fmt::format("ignored: unknown histogram key '{}'", key));
  return Status::Ok();
}

Status CfgParser::NewHistogram() {
  if (Status s = FinishWindow(); !s.ok()) return s;
  if (out_.windows.empty())
    return Status::Error("< NEW ANALYZER2D >: no window defined before the histogram",
                         Location{file_, line_no_, 1}, "define the windows first");
  if (Status s = CheckHistogramSize(); !s.ok()) return s;  // the previous one is complete
  out_.histograms.emplace_back();
  out_.histograms.back().line = line_no_;
  columns_line_ = planes_line_ = line_no_;
  columns_key_ = planes_key_ = "< NEW ANALYZER2D >";
  return Status::Ok();
}

// The size limits of histogram_spec.h, for the bins a cfg fixes (automatic scales are checked
// by src/analysis once computed): columns, planes, and cells when the rows are known.
Status CfgParser::CheckHistogramSize() const {
  if (out_.histograms.empty()) return Status::Ok();
  const HistogramSpec& h = out_.histograms.back().spec;
  uint64_t columns = 1, planes = 1;
  if (!h.compute_y_scale) {
    columns = h.use_fixed_delta || !h.num_columns ? FixedBinCount(h.minimum, h.maximum, h.delta)
                                                  : std::max<uint64_t>(*h.num_columns, 1);
  }
  if (columns > kMaxHistogramColumns)
    return Status::Error(
        fmt::format("{}: histogram '{}' has {} columns, more than the limit of {}", columns_key_,
                    h.name, columns, kMaxHistogramColumns),
        Location{file_, columns_line_, 1},
        "use a larger Analyzer2D.Delta or a narrower Analyzer2D.Minimum..Analyzer2D.Maximum range");
  if (h.extra >= 0 && !h.compute_3d_scale)
    planes = FixedBinCount(h.minimum_3d, h.maximum_3d, h.delta_3d);
  if (planes > kMaxHistogramPlanes)
    return Status::Error(
        fmt::format("{}: histogram '{}' has {} planes, more than the limit of {}", planes_key_,
                    h.name, planes, kMaxHistogramPlanes),
        Location{file_, planes_line_, 1},
        "use a larger Analyzer2D.3D_Delta or a narrower 3D_Minimum..3D_Maximum range");
  uint64_t rows =
      h.control >= 0 ? ObjectCount(out_.windows[static_cast<size_t>(h.control)].level) : 0;
  // In double: rows x columns x planes may not fit 64 bits.
  double cells =
      static_cast<double>(rows) * static_cast<double>(columns) * static_cast<double>(planes);
  if (rows > 0 && cells > static_cast<double>(kMaxHistogramCells)) {
    bool by_columns = columns_line_ >= planes_line_;
    return Status::Error(
        fmt::format(
            "{}: histogram '{}' has {} rows x {} columns x {} planes = {:.0f} cells, more than the "
            "limit of {}",
            by_columns ? columns_key_ : planes_key_, h.name, rows, columns, planes, cells,
            kMaxHistogramCells),
        Location{file_, by_columns ? columns_line_ : planes_line_, 1},
        "use fewer columns or planes (a larger Analyzer2D.Delta or Analyzer2D.3D_Delta)");
  }
  return Status::Ok();
}

Status CfgParser::HistGuiKey(std::string_view key, Field v) {
  char kind = '-';
  for (const auto& [name, k] : kGuiKeys)
    if (name == key) kind = k;
  std::string_view t = TrimRightBlanks(v.text);
  double d = 0;
  uint64_t u = 0;
  switch (kind) {
    case 'b':
      return HistBool(v, nullptr);
    case 'd':
      return Double(v, &d);
    case 'u':
      return Uint(v, UINT16_MAX, &u);
    case 'm':
      if (!ParseDrawMode(t)) return Expected(v, "a draw mode", "e.g. draw_maximum");
      return Status::Ok();
    default:
      return Status::Ok();
  }
}

Status CfgParser::HistBool(Field v, bool* out) const {
  std::string_view t = TrimRightBlanks(v.text);
  if (t != "True" && t != "False")
    return Expected(v, "'True' or 'False'", "histogram keys take capitalised True or False");
  if (out) *out = t == "True";
  return Status::Ok();
}

Status CfgParser::HistWindow(Field v, int* out) {
  uint64_t n = 0;
  uint64_t count = out_.windows.size();
  if (!ParseUint(TrimRightBlanks(v.text), UINT32_MAX, &n) || n == 0 || n > count) {
    return Expected(v, fmt::format("a window number in 1..{}", count),
                    "histograms refer to windows defined before them, numbered from 1");
  }
  int old = *out;
  *out = static_cast<int>(n - 1);
  const HistogramSpec& h = Hist();
  int data = h.data < 0 ? h.control : h.data;
  if (!Compatible(out_.windows, h.control, data) || !Compatible(out_.windows, h.control, h.extra)) {
    *out = old;
    return Status::Error(
        fmt::format("{}: window {} cannot be used with the control window", KeyName(), n),
        Location{file_, line_no_, v.column},
        "data and 3D windows must be at the control window's level or coarser, "
        "and not derived from it");
  }
  return Status::Ok();
}

Status CfgParser::HistObjects(Field v) {
  std::string_view t = TrimBlanks(v.text);
  if (t == "All") {
    Hist().objects.reset();
    return Status::Ok();
  }
  std::vector<uint32_t> objects;
  size_t pos = 0;
  while (pos <= t.size()) {
    size_t comma = t.find(',', pos);
    if (comma == std::string_view::npos) comma = t.size();
    uint64_t n = 0;
    if (!ParseUint(TrimBlanks(t.substr(pos, comma - pos)), UINT32_MAX, &n))
      return Expected(v, "'All' or 0-based object indices separated by ','", "e.g. 0,1,2");
    objects.push_back(static_cast<uint32_t>(n));
    pos = comma + 1;
  }
  Hist().objects = std::move(objects);
  return Status::Ok();
}

Status CfgParser::HistParameters(Field v) {
  std::vector<double> values;
  std::string_view t = TrimBlanks(v.text);
  size_t pos = 0;
  while (pos < t.size()) {
    size_t sp = t.find_first_of(" \t", pos);
    if (sp == std::string_view::npos) sp = t.size();
    double d = 0;
    if (sp > pos) {
      if (!ParseDouble(t.substr(pos, sp - pos), &d))
        return Expected(v, "'n v1 ... vn'", "a count followed by that many numbers");
      values.push_back(d);
    }
    pos = sp + 1;
  }
  if (values.empty() || values[0] != static_cast<double>(values.size() - 1))
    return Expected(v, "'n v1 ... vn'", "a count followed by that many numbers");
  Hist().parameters.assign(values.begin() + 1, values.end());
  return Status::Ok();
}

Status CfgParser::HistSpecKey(std::string_view key, Field v, bool* handled) {
  HistogramSpec& h = Hist();
  std::string_view t = TrimRightBlanks(v.text);
  *handled = true;
  static constexpr std::string_view kColumnKeys[] = {
      "Analyzer2D.ComputeYScale:", "Analyzer2D.Minimum:",       "Analyzer2D.Maximum:",
      "Analyzer2D.Delta:",         "Analyzer2D.UseFixedDelta:", "Analyzer2D.NumColumns:"};
  static constexpr std::string_view kPlaneKeys[] = {
      "Analyzer3D.ComputeYScale:", "Analyzer2D.3D_Minimum:", "Analyzer2D.3D_Maximum:",
      "Analyzer2D.3D_Delta:", "Analyzer2D.3D_ControlWindow:"};
  if (std::find(std::begin(kColumnKeys), std::end(kColumnKeys), key) != std::end(kColumnKeys)) {
    columns_line_ = line_no_;
    columns_key_ = std::string(key.substr(0, key.size() - 1));  // without the ':'
  }
  if (std::find(std::begin(kPlaneKeys), std::end(kPlaneKeys), key) != std::end(kPlaneKeys)) {
    planes_line_ = line_no_;
    planes_key_ = std::string(key.substr(0, key.size() - 1));
  }
  if (key == "Analyzer2D.Name:") {
    h.name = std::string(v.text);
    return Status::Ok();
  }
  if (key == "Analyzer2D.ControlWindow:") return HistWindow(v, &h.control);
  if (key == "Analyzer2D.DataWindow:") return HistWindow(v, &h.data);
  if (key == "Analyzer2D.3D_ControlWindow:") return HistWindow(v, &h.extra);
  if (key == "Analyzer2D.Statistic:") {
    if (!IsStatistic(t)) return Expected(v, "a statistic name", "see analysis.md §6.2 and §7.2");
    h.statistic = std::string(t);
    return Status::Ok();
  }
  if (key == "Analyzer2D.AnalysisLimits:") {
    if (t == "Alltrace")
      h.limits = AnalysisLimits::kAlltrace;
    else if (t == "Region")
      h.limits = AnalysisLimits::kRegion;
    else if (t == "Allwindow" && h.control >= 0)
      h.limits = AnalysisLimits::kAllwindow;
    else
      return Expected(v, "Alltrace, Allwindow (after ControlWindow) or Region", "time range");
    return Status::Ok();
  }
  if (key == "Analyzer2D.ComputeYScale:") return HistBool(v, &h.compute_y_scale);
  if (key == "Analyzer2D.ComputeYScaleZero:") return HistBool(v, &h.compute_y_scale_zero);
  if (key == "Analyzer2D.Minimum:") return HistDouble(v, &h.minimum);
  if (key == "Analyzer2D.Maximum:") return HistDouble(v, &h.maximum);
  if (key == "Analyzer2D.Delta:") return HistDouble(v, &h.delta);
  if (key == "Analyzer2D.UseFixedDelta:") return HistBool(v, &h.use_fixed_delta);
  if (key == "Analyzer2D.NumColumns:") {
    uint64_t n = 0;
    if (Status s = Uint(v, UINT32_MAX, &n); !s.ok()) return s;
    h.num_columns = static_cast<uint32_t>(n);
    return Status::Ok();
  }
  if (key == "Analyzer3D.ComputeYScale:") return HistBool(v, &h.compute_3d_scale);
  if (key == "Analyzer2D.3D_Minimum:") return HistDouble(v, &h.minimum_3d);
  if (key == "Analyzer2D.3D_Maximum:") return HistDouble(v, &h.maximum_3d);
  if (key == "Analyzer2D.3D_Delta:") return HistDouble(v, &h.delta_3d);
  if (key == "Analyzer2D.3D_FixedValue:") {
    double d = 0;
    if (Status s = Double(v, &d); !s.ok()) return s;
    h.fixed_value_3d = d;
    return Status::Ok();
  }
  if (key == "Analyzer2D.Objects:") return HistObjects(v);
  if (key == "Analyzer2D.HorizVert:") {
    if (t != "Horizontal" && t != "Vertical")
      return Expected(v, "'Horizontal' or 'Vertical'", "table layout");
    h.horizontal = t == "Horizontal";
    return Status::Ok();
  }
  if (key == "Analyzer2D.HideCols:") return HistBool(v, &h.hide_columns);
  if (key == "Analyzer2D.ShortHeaderLabels:") return HistBool(v, &h.short_labels);
  if (key == "Analyzer2D.SortCols:") return HistBool(v, &h.sort_columns);
  if (key == "Analyzer2D.SortReverse:") return HistBool(v, &h.sort_reverse);
  if (key == "Analyzer2D.SortCriteria:") {
    for (const auto& [name, c] : kCriteria) {
      if (t != name) continue;
      h.sort_criteria = c;
      return Status::Ok();
    }
    return Expected(v, "Average, Total, Maximum, Minimum, Stdev, Avg/Max or Custom", "sort key");
  }
  if (key == "Analyzer2D.Parameters:") return HistParameters(v);
  *handled = false;
  return Status::Ok();
}

// analysis.md §2.3: without automatic scale and without NumColumns, the columns come from
// Minimum, Maximum and Delta (fixed delta).
void CfgParser::FinishHistograms() {
  for (CfgHistogram& h : out_.histograms)
    if (!h.spec.compute_y_scale && !h.spec.num_columns) h.spec.use_fixed_delta = true;
}

}  // namespace parallax::cfg
