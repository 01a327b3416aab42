#pragma once
// Small statistics of the structure's passes (and of their public values in src/session).

#include <algorithm>
#include <cmath>
#include <vector>

namespace parallax::structure {

// The q-quantile of v (0..1; the value at the rounded position, 0 for none); q = 0.5 is the
// median (the upper one of an even count).
inline double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * double(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// The coefficient of variation of v (0 for fewer than 2 values or a mean of 0).
inline double Variation(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double s = 0, s2 = 0;
  for (double x : v) {
    s += x;
    s2 += x * x;
  }
  const double mean = s / double(v.size());
  return mean > 0 ? std::sqrt(std::max(0.0, s2 / double(v.size()) - mean * mean)) / mean : 0;
}

}  // namespace parallax::structure
