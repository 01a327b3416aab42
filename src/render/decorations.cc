// Text around the timeline: row labels, the time axis, the title and the legend, plus the
// labels of values (rendering.md §6.1) and objects.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "src/render/font.h"
#include "src/render/frame.h"

namespace parallax::render {

namespace {

using model::Level;

constexpr int32_t kLegendLine = 12;
constexpr int32_t kSwatch = 9;
constexpr size_t kMaxLegendEntries = 48;
constexpr int32_t kMaxLabelWidth = 160;

// Numbers as Paraver prints them: 2 decimals when fractional, `,` thousands grouping.
std::string Number(double v) {
  if (v != std::floor(v) || std::abs(v) >= 1e18) return fmt::format("{:.2f}", v);
  std::string digits = fmt::format("{}", static_cast<int64_t>(std::abs(v)));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

// `v` with `decimals` decimals and `,` thousands grouping of its whole part.
std::string FixedNumber(double v, int decimals) {
  if (decimals <= 0 || std::abs(v) >= 1e15) return Number(std::round(v));
  std::string s = fmt::format("{:.{}f}", std::abs(v), decimals);
  size_t point = s.find('.');
  std::string out;
  for (size_t i = 0; i < point; ++i) {
    if (i > 0 && (point - i) % 3 == 0) out += ',';
    out += s[i];
  }
  out += s.substr(point);
  return v < 0 && s.find_first_not_of("0.") != std::string::npos ? "-" + out : out;
}

// An integer value for the .pcf and object look-ups; out-of-range values map to -1.
int64_t Whole(double v) { return std::abs(v) < 9e18 ? static_cast<int64_t>(v) : -1; }
uint32_t Index(double v) {
  return v >= 0 && v < 4294967296.0 ? static_cast<uint32_t>(v) : UINT32_MAX;
}

std::string EventValueLabel(const TimelineContext& ctx, double v) {
  int64_t value = Whole(v);
  if (ctx.pcf == nullptr) return fmt::format("value {}", Number(v));
  // Only the window's own event types: another type's label for the same number is wrong.
  for (uint32_t type : ctx.label_types)
    if (const std::string* l = ctx.pcf->EventValueLabel(type, value)) return *l;
  return fmt::format("value {}", Number(v));
}

Level InfoLevel(semantic::InfoType t) {
  switch (t) {
    case semantic::InfoType::kAppl:
      return Level::kAppl;
    case semantic::InfoType::kTask:
      return Level::kTask;
    case semantic::InfoType::kNode:
      return Level::kNode;
    case semantic::InfoType::kCpu:
      return Level::kCpu;
    default:
      return Level::kThread;
  }
}

// A "nice" tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `span`.
double TickStep(double span, double count) {
  double raw = span / std::max(1.0, count);
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

}  // namespace

std::string ValueLabel(const TimelineContext& ctx, Level level, double v) {
  using semantic::InfoType;
  const auto* pcf = ctx.pcf;
  switch (ctx.info) {
    case InfoType::kState:
      if (pcf != nullptr)
        if (const std::string* l = pcf->StateLabel(Whole(v))) return *l;
      return fmt::format("Unknown state {}", Number(v));
    case InfoType::kEventType:
      if (pcf != nullptr)
        if (const std::string* l = pcf->EventTypeLabel(Index(v))) return *l;
      return fmt::format("type {}", Number(v));
    case InfoType::kEventValue:
      return EventValueLabel(ctx, v);
    case InfoType::kObject:
    case InfoType::kAppl:
    case InfoType::kTask:
    case InfoType::kThread:
      if (v < 1) return Number(v);
      return ObjectLabel(ctx, ctx.info == InfoType::kObject ? level : InfoLevel(ctx.info),
                         Index(v) - 1);
    case InfoType::kNode:
    case InfoType::kCpu:
      if (v < 1) return Number(v);
      return ObjectLabel(ctx, InfoLevel(ctx.info), Index(v) - 1);
    case InfoType::kTime:
      return fmt::format("{} {}", Number(v), model::TimeUnitName(ctx.unit));
    case InfoType::kCommSize:
      return fmt::format("{} bytes", Number(v));
    default:
      return Number(v);
  }
}

std::string ObjectLabel(const TimelineContext& ctx, Level level, uint32_t object) {
  if (ctx.row != nullptr)
    if (const std::string* l = ctx.row->Label(level, object)) return *l;
  return semantic::ObjectName(*ctx.header, level, object);
}

int32_t LabelAreaWidth(const Frame& f) {
  int32_t w = 0;
  for (const std::string& l : f.labels) w = std::max(w, TextWidth(l));
  return std::min(w, kMaxLabelWidth) + 6;
}

void AddRowLabels(Frame& f) {
  int32_t last_bottom = -1000;
  const size_t max_chars = kMaxLabelWidth / kGlyphAdvance;
  for (const RowBox& r : f.list.rows) {
    int32_t y = r.y + r.h / 2 - kGlyphHeight / 2;
    if (y < last_bottom + 1) continue;  // rows closer than a line of text: label some of them
    std::string text = r.label.size() > max_chars ? r.label.substr(0, max_chars) : r.label;
    f.list.texts.push_back(
        Text{f.list.area_x - 6, y, std::move(text), f.scheme.prefs.foreground, Anchor::kRight});
    last_bottom = y + kGlyphHeight;
  }
}

void AddTimeAxis(Frame& f) {
  DrawList& l = f.list;
  const Rgb fg = f.scheme.prefs.foreground;
  const int32_t y = l.area_y + l.area_h + 2;
  l.lines.push_back(Line{l.area_x, y, l.area_x + l.area_w - 1, y, fg});
  const model::TimeUnit tu = f.ctx->header->unit, wu = f.window->spec().unit;
  const auto b = static_cast<double>(f.columns.begin), e = static_cast<double>(f.columns.end);
  double wb = model::ConvertTime(b, tu, wu), we = model::ConvertTime(e, tu, wu);
  double step = TickStep(we - wb, l.area_w / 110.0);
  const std::string unit(model::TimeUnitName(wu));
  // As many decimals as the step needs, so consecutive ticks differ at any zoom.
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  const double first = std::ceil(wb / step);
  for (double i = 0;; ++i) {
    const double t = (first + i) * step;
    if (t > we + step * 1e-9) break;
    double trace_t = b + (t - wb) / (we - wb) * (e - b);
    auto x = static_cast<int32_t>(l.area_x + std::lround(f.columns.X(trace_t)));
    if (x > l.area_x + l.area_w) break;
    l.lines.push_back(Line{x, y, x, y + 3, fg});
    double shown = std::abs(t) < step * 1e-6 ? 0 : t;
    std::string text = FixedNumber(shown, decimals);
    Anchor a = x + TextWidth(text) / 2 >= l.width ? Anchor::kRight : Anchor::kCenter;
    l.texts.push_back(Text{a == Anchor::kRight ? l.width - 1 : x, y + 6, std::move(text), fg, a});
  }
  l.texts.push_back(Text{l.area_x + l.area_w, y + 6 + kGlyphHeight + 2, unit, fg, Anchor::kRight});
}

void AddTitle(Frame& f) {
  f.list.texts.push_back(
      Text{f.list.area_x, 5, f.options->title, f.scheme.prefs.foreground, Anchor::kLeft});
}

// Legend entries: the colours of the values drawn (code colour), or the gradient scale.
void PlanLegend(Frame& f) {
  const ColorMode mode = f.options->color;
  if (mode == ColorMode::kCode) {
    std::map<double, bool> seen;
    for (const FoldedRow& r : f.folded) {
      for (size_t j = 0; j < r.values.size(); ++j) {
        if (j > 0 && r.values[j] == r.values[j - 1]) continue;  // runs: one look-up each
        if (std::isnan(r.values[j])) continue;                  // kNoValue (highlight)
        if (seen.size() < kMaxLegendEntries) seen.emplace(r.values[j], true);
      }
    }
    for (const auto& [v, _] : seen)
      f.legend.push_back({CodeColor(f.scheme, v), ValueLabel(*f.ctx, f.level, v)});
  } else if (mode == ColorMode::kGradient || mode == ColorMode::kNullGradient ||
             mode == ColorMode::kAlternativeGradient) {
    f.legend.push_back({{}, ValueLabel(*f.ctx, f.level, f.scheme.min_y)});
    f.legend.push_back({{}, ValueLabel(*f.ctx, f.level, f.scheme.max_y)});
  }
  if (f.legend.empty()) return;
  if (mode != ColorMode::kCode) {
    f.legend_h = kLegendLine + 6;
    return;
  }
  int32_t x = 0, lines = 1;
  const int32_t width = f.list.width - 2 * 6;
  for (const LegendEntry& e : f.legend) {
    int32_t w = kSwatch + 4 + TextWidth(e.text) + 12;
    if (x > 0 && x + w > width) {
      ++lines;
      x = 0;
    }
    x += w;
  }
  f.legend_h = lines * kLegendLine + 6;
}

void AddLegend(Frame& f) {
  if (f.legend.empty()) return;
  DrawList& l = f.list;
  const Rgb fg = f.scheme.prefs.foreground;
  int32_t top = l.height - f.legend_h + 2;
  if (f.options->color != ColorMode::kCode) {
    const int32_t bar_x = 6 + TextWidth(f.legend[0].text) + 6, bar_w = std::min(256, l.width / 3);
    l.texts.push_back(Text{6, top + 1, f.legend[0].text, fg, Anchor::kLeft});
    ColorScheme s = f.scheme;
    for (int32_t i = 0; i < bar_w; ++i) {
      double v = s.min_y + (s.max_y - s.min_y) * i / std::max(1, bar_w - 1);
      Rgb c = f.options->color == ColorMode::kAlternativeGradient ? AlternativeGradientColor(s, v)
                                                                  : GradientColor(s, v, false);
      l.rects.push_back(Rect{bar_x + i, top, 1, kSwatch, c});
    }
    l.texts.push_back(Text{bar_x + bar_w + 6, top + 1, f.legend[1].text, fg, Anchor::kLeft});
    return;
  }
  int32_t x = 6;
  for (const LegendEntry& e : f.legend) {
    int32_t w = kSwatch + 4 + TextWidth(e.text) + 12;
    if (x > 6 && x + w > l.width - 6) {
      x = 6;
      top += kLegendLine;
    }
    l.rects.push_back(Rect{x, top, kSwatch, kSwatch, e.color});
    l.texts.push_back(Text{x + kSwatch + 4, top + 1, e.text, fg, Anchor::kLeft});
    x += w;
  }
}

}  // namespace parallax::render
