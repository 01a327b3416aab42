#include "src/report/charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "src/render/font.h"

namespace parallax::report {

namespace {

using render::Anchor;
using render::Rgb;

constexpr Rgb kInk{0, 0, 0};
constexpr Rgb kGrid{210, 210, 210};
constexpr Rgb kMissing{150, 150, 150};

Rgb Grade(double percent) {
  if (percent >= 80) return {46, 139, 87};   // good
  if (percent >= 60) return {230, 145, 30};  // fair
  return {200, 45, 45};                      // poor
}

// Runs after the first are lighter, so the bars of one factor read left to right in order.
Rgb Shade(Rgb c, size_t run, size_t runs) {
  if (runs < 2) return c;
  const double t = 0.55 * double(run) / double(runs - 1);
  auto mix = [&](uint8_t v) { return static_cast<uint8_t>(std::lround(v + (255 - v) * t)); };
  return {mix(c.r), mix(c.g), mix(c.b)};
}

}  // namespace

render::DrawList EfficiencyChart(const std::vector<ChartFactor>& factors, const std::vector<std::string>& runs,
                                 int width) {
  render::DrawList l;
  l.background = {255, 255, 255};
  l.width = std::max(width, 400);
  const size_t n = std::max<size_t>(runs.size(), 1);
  const int bar = n == 1 ? 12 : 8, gap = 8, label_w = 200, top = 8;
  const int group = int(n) * bar + gap;
  l.area_x = label_w;
  l.area_y = top;
  l.area_w = l.width - label_w - 60;
  l.area_h = int(factors.size()) * group;
  const int legend = runs.size() > 1 ? 18 : 0;
  l.height = top + l.area_h + 22 + legend;
  auto x_of = [&](double percent) { return l.area_x + int(std::lround(l.area_w * std::clamp(percent, 0.0, 100.0) / 100)); };
  // Grid and axis: 0, 25, 50, 75, 100%.
  for (int p = 0; p <= 100; p += 25) {
    const int x = x_of(p);
    l.lines.push_back({x, top, x, top + l.area_h, kGrid});
    l.texts.push_back({x, top + l.area_h + 4, fmt::format("{}%", p), kInk, Anchor::kCenter});
  }
  for (size_t f = 0; f < factors.size(); ++f) {
    const ChartFactor& c = factors[f];
    const int y = top + int(f) * group + gap / 2;
    l.texts.push_back({8 + 10 * c.depth, y + (int(n) * bar - render::kGlyphHeight) / 2, c.name, kInk, Anchor::kLeft});
    for (size_t r = 0; r < n; ++r) {
      const double v = r < c.values.size() ? c.values[r] : NAN;
      const int by = y + int(r) * bar;
      if (std::isnan(v)) {
        l.texts.push_back({l.area_x + 4, by + (bar - render::kGlyphHeight) / 2, "n/a", kMissing, Anchor::kLeft});
        continue;
      }
      const int w = std::max(1, x_of(v) - l.area_x);
      l.rects.push_back({l.area_x, by, w, bar - 2, Shade(Grade(v), r, n)});
      l.texts.push_back({l.area_x + w + 4, by + (bar - 2 - render::kGlyphHeight) / 2, fmt::format("{:.1f}", v), kInk,
                         Anchor::kLeft});
    }
  }
  if (legend > 0) {
    int x = l.area_x;
    const int y = top + l.area_h + 22;
    for (size_t r = 0; r < runs.size(); ++r) {
      l.rects.push_back({x, y, 10, 8, Shade({90, 90, 90}, r, runs.size())});
      l.texts.push_back({x + 14, y, runs[r], kInk, Anchor::kLeft});
      x += 24 + render::TextWidth(runs[r]);
    }
  }
  return l;
}

}  // namespace parallax::report
