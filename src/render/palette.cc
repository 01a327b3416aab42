#include "src/render/palette.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_set>

namespace parallax::render {

namespace {

// Entries 0..48 of the kernel's code-colour palette (rendering.md §4.1).
constexpr Rgb kBase[] = {
    {117, 195, 255}, {0, 0, 255},     {255, 255, 255}, {255, 0, 0},    {255, 0, 174},
    {179, 0, 0},     {0, 255, 0},     {255, 255, 0},   {235, 0, 0},    {0, 162, 0},
    {255, 0, 255},   {100, 100, 177}, {172, 174, 41},  {255, 144, 26}, {2, 255, 177},
    {192, 224, 0},   {66, 66, 66},    {189, 168, 100}, {95, 200, 0},   {203, 60, 69},
    {0, 109, 255},   {200, 61, 68},   {200, 66, 0},    {10, 66, 40},   {139, 121, 177},
    {116, 116, 116}, {200, 50, 89},   {255, 171, 98},  {0, 68, 189},   {66, 66, 0},
    {255, 46, 0},    {100, 216, 32},  {0, 50, 120},    {105, 105, 0},  {132, 75, 255},
    {184, 232, 0},   {0, 109, 112},   {189, 168, 100}, {132, 75, 75},  {255, 75, 75},
    {255, 20, 0},    {130, 30, 30},   {10, 66, 10},    {184, 132, 0},  {100, 16, 32},
    {146, 255, 255}, {50, 50, 100},   {146, 0, 255},   {0, 138, 119}};
constexpr size_t kBaseSize = sizeof(kBase) / sizeof(kBase[0]);
static_assert(kBaseSize == 49);

uint32_t Pack(Rgb c) { return (uint32_t{c.r} << 16) | (uint32_t{c.g} << 8) | c.b; }

// The expansion state: the growing palette and the set of colours already used.
class Expander {
 public:
  explicit Expander(Rgb background) : bg_lum_(Luminance(background)) {
    for (Rgb c : kBase) {
      palette_.push_back(c);
      inserted_.insert(Pack(c));
    }
  }

  std::vector<Rgb> Run() {
    constexpr int kIterations = 32000 / 49 / 3;
    size_t base = 1;
    for (int it = 0; it < kIterations; ++it) {
      if (base > palette_.size() - 1) base = palette_.size() - 1;
      for (int component = 0; component < 3; ++component) Grow(base, component);
      base += kBaseSize;
    }
    for (size_t k : conflicts_) Fix(palette_[k]);
    return std::move(palette_);
  }

 private:
  bool Similar(Rgb c) const { return std::abs(bg_lum_ - Luminance(c)) < 42; }

  void Grow(size_t base, int component) {
    for (size_t i = base; i < base + kBaseSize; ++i) {
      if (i > palette_.size() - 1) break;
      Rgb c = palette_[i];
      uint8_t& x = component == 0 ? c.r : component == 1 ? c.g : c.b;
      x = static_cast<uint8_t>(x + 1);
      if (!inserted_.insert(Pack(c)).second) continue;
      if (Similar(c)) conflicts_.push_back(palette_.size());
      palette_.push_back(c);
    }
  }

  bool Take(Rgb c) { return !Similar(c) && inserted_.insert(Pack(c)).second; }

  // Nested cyclic search: blue fastest, then green, then red (rendering.md §4.1).
  void Fix(Rgb& c) {
    for (int r = 0; r < 256; ++r) {
      if (r > 0 && (c.r = static_cast<uint8_t>(c.r + 1), Take(c))) return;
      for (int g = 0; g < 256; ++g) {
        if (g > 0 && (c.g = static_cast<uint8_t>(c.g + 1), Take(c))) return;
        if (SweepBlue(c)) return;
      }
    }
  }

  // The innermost search's 255 steps (blue + 1, then Take) in one go. With red and green fixed,
  // the luminance only grows with blue, so the blues whose colour is similar to the background
  // form one interval [lo, hi]: it is skipped whole instead of tested step by step. Leaves blue
  // where the steps would: on the colour taken, or 255 steps on.
  bool SweepBlue(Rgb& c) {
    const int start = c.b;
    const int base = (30 * c.r) / 100 + (59 * c.g) / 100;  // Luminance without blue's 11 b / 100
    const int q_lo = std::max(0, bg_lum_ - 41 - base), q_hi = std::min(28, bg_lum_ + 41 - base);
    int lo = 256, hi = -1;  // no similar blue
    if (q_lo <= q_hi) {
      lo = (100 * q_lo + 10) / 11;                  // the least blue with 11 b / 100 >= q_lo
      hi = std::min(255, (100 * q_hi + 99) / 11);  // the greatest with 11 b / 100 <= q_hi
    }
    for (int step = 1; step <= 255;) {
      const int b = (start + step) & 255;
      if (b >= lo && b <= hi) {
        step += hi - b + 1;
        continue;
      }
      c.b = static_cast<uint8_t>(b);
      if (inserted_.insert(Pack(c)).second) return true;
      ++step;
    }
    c.b = static_cast<uint8_t>(start + 255);
    return false;
  }

  int bg_lum_;
  std::vector<Rgb> palette_;
  std::unordered_set<uint32_t> inserted_;
  std::vector<size_t> conflicts_;
};

Rgb Lerp(Rgb a, Rgb b, double n) {
  auto one = [n](uint8_t x, uint8_t y) {
    double v = x + std::floor((static_cast<double>(y) - x) * n);
    return static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));
  };
  return Rgb{one(a.r, b.r), one(a.g, b.g), one(a.b, b.b)};
}

// A gradient from `begin` to `end` through the optional intermediate stops.
Rgb Stops(Rgb begin, Rgb end, const std::vector<Rgb>& stops, double n) {
  if (stops.size() < 2) return Lerp(begin, end, n);
  double k = static_cast<double>(stops.size() - 1);
  double pos = std::clamp(n, 0.0, 1.0) * k;
  size_t seg = std::min(static_cast<size_t>(pos), stops.size() - 2);
  return Lerp(stops[seg], stops[seg + 1], pos - static_cast<double>(seg));
}

}  // namespace

int Luminance(Rgb c) { return (30 * c.r) / 100 + (59 * c.g) / 100 + (11 * c.b) / 100; }

std::vector<Rgb> ExpandedPalette(Rgb background) { return Expander(background).Run(); }

std::vector<Rgb> TracePalette(Rgb background, const model::PcfCatalog* pcf) {
  std::vector<Rgb> p = ExpandedPalette(background);
  if (pcf == nullptr) return p;
  for (const auto& sc : pcf->states_color) {
    if (sc.value < 0) continue;
    size_t v = static_cast<size_t>(sc.value);
    while (v >= p.size()) p.insert(p.end(), p.begin(), p.end());
    p[v] = sc.rgb;
  }
  return p;
}

double ApplyGradientFn(GradientFn f, double n) {
  switch (f) {
    case GradientFn::kLinear:
      return n;
    case GradientFn::kSteps:
      return std::floor(10 * n) / 10;
    case GradientFn::kLog:
      return std::log(100 * n + 1) / std::log(101.0);
    case GradientFn::kExp:
      return std::exp(10 * n) / std::exp(10.0);
  }
  return n;
}

std::vector<Rgb> ColourBlindPalette(Rgb background) {
  // Okabe & Ito (2008): orange, sky blue, bluish green, yellow, blue, vermillion, reddish
  // purple, grey; then each lighter and darker, 24 in all, repeated over the value range.
  static constexpr Rgb kBase[] = {{230, 159, 0},  {86, 180, 233}, {0, 158, 115},  {240, 228, 66},
                                  {0, 114, 178},  {213, 94, 0},   {204, 121, 167}, {153, 153, 153}};
  std::vector<Rgb> shades;
  for (int tone = 0; tone < 3; ++tone)
    for (const Rgb& c : kBase) {
      auto mix = [&](uint8_t x) -> uint8_t {
        if (tone == 1) return static_cast<uint8_t>(x + (255 - x) / 2);  // lighter
        if (tone == 2) return static_cast<uint8_t>(x / 2);              // darker
        return x;
      };
      Rgb shade{mix(c.r), mix(c.g), mix(c.b)};
      if (!(shade == background)) shades.push_back(shade);
    }
  constexpr size_t kSize = 1 + 24 * 1024;  // as long as Paraver's expanded palette and more
  std::vector<Rgb> out(kSize);
  out[0] = background;
  for (size_t i = 1; i < kSize; ++i) out[i] = shades[(i - 1) % shades.size()];
  return out;
}

std::vector<Rgb> ColourBlindGradient() {
  return {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
}

Rgb CodeColor(const ColorScheme& s, double v) {
  Rgb zero = s.prefs.use_color_zero ? s.prefs.color_zero : s.palette[0];
  if (v < 0 || v < s.min_y || v > s.max_y) return zero;
  // uint32(v) as the kernel does; values beyond 2^32 wrap instead of overflowing.
  double whole = std::fmod(std::floor(v), 4294967296.0);
  size_t index = static_cast<uint32_t>(whole) % s.palette.size();
  return index == 0 ? zero : s.palette[index];
}

Rgb GradientColor(const ColorScheme& s, double v, bool not_null) {
  const ColorPrefs& p = s.prefs;
  if (not_null && v == 0) return p.use_color_zero ? p.color_zero : p.background;
  if (v < s.min_y) return p.below_min;
  if (v > s.max_y) return p.above_max;
  if (s.max_y == s.min_y)
    return p.gradient_stops.empty() ? p.gradient_begin : p.gradient_stops.front();
  if (v < 0) {
    double n = s.max_y < 0 ? (v - s.min_y) / (s.max_y - s.min_y) : v / s.min_y;
    return Lerp(p.negative_begin, p.negative_end, ApplyGradientFn(s.gradient, n));
  }
  double n = ApplyGradientFn(s.gradient, (v - s.min_y) / (s.max_y - s.min_y));
  return Stops(p.gradient_begin, p.gradient_end, p.gradient_stops, n);
}

Rgb AlternativeGradientColor(const ColorScheme& s, double v) {
  const ColorPrefs& p = s.prefs;
  if (v == 0) return p.use_color_zero ? p.color_zero : p.background;
  if (v < s.min_y || v > s.max_y) return p.background;
  double n =
      s.max_y == s.min_y ? 0 : ApplyGradientFn(s.gradient, (v - s.min_y) / (s.max_y - s.min_y));
  if (n < 0.5) return Lerp(Rgb{0, 255, 0}, Rgb{255, 255, 0}, n / 0.5);
  return Lerp(Rgb{255, 255, 0}, Rgb{255, 0, 0}, (n - 0.5) / 0.5);
}

}  // namespace parallax::render
