#pragma once
// Float to integer conversions defined for every double. A plain static_cast is undefined when
// the value does not fit (a cfg may say `Analyzer2D.Maximum: 1e30` or filter on 6e28), so cfg
// values, function parameters and computed values go through SaturateCast: NaN gives 0, values
// beyond the target type's range give its minimum or maximum, the others are truncated toward
// zero as static_cast does (docs/compatibility.md, "Numbers out of range").

#include <cmath>
#include <limits>
#include <type_traits>

namespace parallax::semantic {

template <typename I>
I SaturateCast(double v) {
  static_assert(std::is_integral_v<I>);
  using L = std::numeric_limits<I>;
  // 2^digits is the first value past the maximum, exactly representable as a double.
  const double past_max = std::ldexp(1.0, L::digits);
  if (std::isnan(v)) return 0;
  if (v >= past_max) return L::max();
  if constexpr (std::is_signed_v<I>) {
    if (v <= -past_max) return L::min();
  } else {
    if (v <= -1) return 0;
  }
  return static_cast<I>(v);
}

}  // namespace parallax::semantic
