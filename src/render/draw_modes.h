#pragma once
// Paraver's draw modes (rendering.md §2): how the values of the intervals that fall in one
// pixel column (time draw mode), or of the objects that share one pixel row (object draw mode),
// are reduced to the one value drawn.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "src/cfg/cfg_file.h"

namespace parallax::render {

using cfg::DrawMode;

// Reduces `values` (in collection order, not empty). `random` is the source for the random
// modes: a value in [0, 1) (Paraver uses rand()/RAND_MAX; we take a hash of the row and column
// so that images are reproducible).
double Reduce(DrawMode mode, std::span<const double> values, double random);

// The position the random modes pick among `len` (> 0) values.
size_t RandomIndex(size_t len, double random);

// The names the command line accepts ("last", "maximum", "minimum-not-zero", "random",
// "random-not-zero", "average", "average-not-zero", "mode", "abs-maximum", "abs-minimum").
std::optional<DrawMode> ParseDrawMode(std::string_view name);
std::string_view DrawModeName(DrawMode mode);

// The names front ends use for colour modes ("code", "gradient", "null-gradient",
// "alt-gradient", "line", "fused", "punctual"; "line" is cfg::ColorMode::kFunctionLine).
std::optional<cfg::ColorMode> ParseColorModeName(std::string_view name);
std::string_view ColorModeName(cfg::ColorMode mode);

// A reproducible value in [0, 1) for (row, column).
double PixelRandom(uint64_t row, uint64_t column);

}  // namespace parallax::render
