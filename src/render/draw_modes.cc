#include "src/render/draw_modes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace parallax::render {

namespace {

constexpr std::string_view kNames[] = {"last",
                                       "maximum",
                                       "minimum-not-zero",
                                       "random",
                                       "random-not-zero",
                                       "average",
                                       "average-not-zero",
                                       "mode",
                                       "abs-maximum",
                                       "abs-minimum"};

// Indexed by cfg::ColorMode.
constexpr std::string_view kColorModeNames[] = {
    "code", "gradient", "null-gradient", "alt-gradient", "punctual", "fused", "line"};
static_assert(std::size(kColorModeNames) == static_cast<size_t>(cfg::ColorMode::kFunctionLine) + 1);

double MinNotZero(std::span<const double> v) {
  double m = std::numeric_limits<double>::infinity();
  for (double x : v)
    if (x != 0 && x < m) m = x;
  return std::isinf(m) ? 0 : m;
}

double Average(std::span<const double> v, bool not_zero) {
  double sum = 0;
  size_t n = 0;
  for (double x : v) {
    if (not_zero && x == 0) continue;
    sum += x;
    ++n;
  }
  return n == 0 ? 0 : sum / static_cast<double>(n);
}

// Most frequent value; on ties the one that first reached the winning count. Columns hold few
// distinct values, so a linear table beats a hash map.
double Mode(std::span<const double> v) {
  std::vector<std::pair<double, size_t>> counts;
  double best = v[0];
  size_t best_count = 0;
  for (double x : v) {
    auto it =
        std::find_if(counts.begin(), counts.end(), [x](const auto& c) { return c.first == x; });
    if (it == counts.end()) it = counts.insert(counts.end(), {x, 0});
    if (++it->second > best_count) {
      best_count = it->second;
      best = x;
    }
  }
  return best;
}

double RandomNotZero(std::span<const double> v, double random) {
  size_t start = RandomIndex(v.size(), random);
  for (size_t k = 0; k < v.size(); ++k) {
    double x = v[(start + k) % v.size()];
    if (x != 0) return x;
  }
  return 0;
}

// The kernel stores the signed value and compares its absolute value next time (§2).
double AbsMaximum(std::span<const double> v) {
  double m = -std::numeric_limits<double>::infinity();
  for (double x : v)
    if (std::abs(x) > m) m = x;
  return m;
}

double AbsMinimumNotZero(std::span<const double> v) {
  double m = std::numeric_limits<double>::infinity();
  for (double x : v)
    if (x != 0 && std::abs(x) < m) m = x;
  return std::isinf(m) ? 0 : m;
}

}  // namespace

size_t RandomIndex(size_t len, double random) {
  size_t i = static_cast<size_t>(std::floor(static_cast<double>(len) * random));
  return std::min(i, len - 1);
}

double Reduce(DrawMode mode, std::span<const double> v, double random) {
  switch (mode) {
    case DrawMode::kLast:
      return v.back();
    case DrawMode::kMaximum:
      return *std::max_element(v.begin(), v.end());
    case DrawMode::kMinNotZero:
      return MinNotZero(v);
    case DrawMode::kRandom:
      return v[RandomIndex(v.size(), random)];
    case DrawMode::kRandNotZero:
      return RandomNotZero(v, random);
    case DrawMode::kAverage:
      return Average(v, false);
    case DrawMode::kAverageNotZero:
      return Average(v, true);
    case DrawMode::kMode:
      return Mode(v);
    case DrawMode::kAbsoluteMaximum:
      return AbsMaximum(v);
    case DrawMode::kAbsoluteMinimum:
      return AbsMinimumNotZero(v);
  }
  return v.back();
}

std::optional<DrawMode> ParseDrawMode(std::string_view name) {
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (kNames[i] == name) return static_cast<DrawMode>(i);
  return std::nullopt;
}

std::string_view DrawModeName(DrawMode mode) { return kNames[static_cast<size_t>(mode)]; }

std::optional<cfg::ColorMode> ParseColorModeName(std::string_view name) {
  for (size_t i = 0; i < std::size(kColorModeNames); ++i)
    if (kColorModeNames[i] == name) return static_cast<cfg::ColorMode>(i);
  return std::nullopt;
}

std::string_view ColorModeName(cfg::ColorMode mode) {
  return kColorModeNames[static_cast<size_t>(mode)];
}

double PixelRandom(uint64_t row, uint64_t column) {
  uint64_t z = row * 0x9E3779B97F4A7C15ull + column + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

}  // namespace parallax::render
