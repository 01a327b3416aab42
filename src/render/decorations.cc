// Text around the timeline: row labels, the time axis, the title and the legend, plus the
// labels of values (rendering.md §6.1) and objects.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
constexpr int32_t kLabelGap = 8;  // pixels at least between two labels of the time axis

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

// `v` with `decimals` decimals and `,` thousands grouping of its whole part. A long double holds
// every 64-bit time exactly (x86-64's has a 64-bit mantissa), so ticks a few units apart at
// 1.7e18 ns print apart; beyond 1e15 decimals are dropped (they would not be exact).
std::string FixedNumber(long double v, int decimals) {
  if (std::fabs(v) >= 1e15L) decimals = 0;
  std::string s = fmt::format("{:.{}f}", std::fabs(v), std::max(decimals, 0));
  size_t point = std::min(s.find('.'), s.size());
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

// A "nice" tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `span`; 0 when `span`
// is not a positive finite number.
long double TickStep(long double span, double count) {
  if (!(span > 0) || !std::isfinite(span)) return 0;
  long double raw = span / std::max(1.0, count);
  long double p = std::pow(10.0L, std::floor(std::log10(raw)));
  for (long double m : {1.0L, 2.0L, 5.0L, 10.0L})
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

namespace {

// The ticks of the time axis on line `y`: multiples of a nice step of the window's unit. Times
// are 64-bit integers: at 1.7e18 ns (or past 2^53) a range a few units long has ends that are
// equal as doubles, so the ticks are computed in long double (exact for 64-bit integers) from
// the exact integer span, and the loop is bounded by the number of pixels whatever the
// arithmetic gives.
void AddTicks(Frame& f, int32_t y) {
  DrawList& l = f.list;
  const Rgb fg = f.scheme.prefs.foreground;
  // Trace units to window units: a product or a quotient by a power of 1000, kept exact.
  const double to_window = model::ConvertTime(1.0, f.ctx->header->unit, f.unit);
  const long double mul = to_window >= 1 ? std::round(to_window) : 1;
  const long double div = to_window >= 1 ? 1 : std::round(1 / to_window);
  const long double wb = static_cast<long double>(f.columns.begin) * mul / div;
  const long double span = static_cast<long double>(f.columns.end - f.columns.begin) * mul / div;
  // A tick every 110 pixels, or more where labels are long (19 digits and their commas, and the
  // decimals a fine step needs: the step is chosen again for labels that wide).
  int decimals = 0;
  long double step = 0;
  for (int decimals_assumed = 0, pass = 0; pass < 2; ++pass) {
    const int32_t label = TextWidth(FixedNumber(wb + span, decimals_assumed)) + 24;
    step = TickStep(span, l.area_w / static_cast<double>(std::max(110, label)));
    if (!(step > 0)) return;
    if (step < 1 && wb + span >= 1e15L) step = 1;  // labels there have no decimals (FixedNumber)
    // As many decimals as the step needs, so consecutive ticks differ at any zoom.
    decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9L));
    if (decimals == decimals_assumed) break;
    decimals_assumed = decimals;
  }
  const long double first = std::ceil(wb / step);
  long double previous = -1;
  int32_t last_right = std::numeric_limits<int32_t>::min() / 2;  // of the last label written
  for (int32_t i = 0; i <= l.area_w; ++i) {
    const long double t = (first + i) * step;
    const long double offset = t - wb;  // window units from the left edge
    if (offset > span + step * 1e-9L || offset <= previous) break;
    previous = offset;
    const double pixels = static_cast<double>(offset * div / mul) * f.columns.pixel_size / f.columns.step;
    const auto x = static_cast<int32_t>(l.area_x + std::lround(pixels));
    if (x > l.area_x + l.area_w) break;
    l.lines.push_back(Line{x, y, x, y + 3, fg});
    std::string text = FixedNumber(std::fabs(t) < step * 1e-6L ? 0 : t, decimals);
    // Centred under its tick, kept inside the image; a label that would touch the one before
    // it (a narrow window) is left out, its tick drawn.
    const int32_t w = TextWidth(text);
    const int32_t left = std::clamp(x - w / 2, 0, std::max(0, l.width - 1 - w));
    if (left < last_right + kLabelGap) continue;
    last_right = left + w;
    if (left == x - w / 2)
      l.texts.push_back(Text{x, y + 6, std::move(text), fg, Anchor::kCenter});
    else
      l.texts.push_back(Text{left, y + 6, std::move(text), fg, Anchor::kLeft});
  }
}

}  // namespace

void AddTimeAxis(Frame& f) {
  DrawList& l = f.list;
  const Rgb fg = f.scheme.prefs.foreground;
  const int32_t y = l.area_y + l.area_h + 2;
  l.lines.push_back(Line{l.area_x, y, l.area_x + l.area_w - 1, y, fg});
  AddTicks(f, y);
  const std::string unit(model::TimeUnitName(f.unit));
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
