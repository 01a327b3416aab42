#pragma once
// The fold step of the renderer (rendering.md §1–§2): a time range cut into pixel columns, and
// the semantic intervals of each row reduced to one value per column with a draw mode. This is
// the only step whose cost grows with the trace; everything after it works on columns.

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "src/base/parallel.h"
#include "src/base/wire.h"
#include "src/model/time.h"
#include "src/render/draw_modes.h"
#include "src/semantic/evaluator.h"
#include "src/store/state_blocks.h"

namespace parallax::render {

// The pixel columns of a time range (§1). Column j covers [begin + p0[j], begin + p1[j]) and is
// `pixel_size` pixels wide. The boundaries are offsets from `begin`, and every time is compared
// with them as its exact integer distance from `begin` (Offset), so they are as precise at
// 1.7e18 ns (today's epoch times, where a double's step is 256 ns) as near 0: an integer offset
// below 2^53 ns is exact, and so is an integer boundary (j · step when step is a whole number).
// They are not rounded to integers: a range narrower than its pixel count has columns narrower
// than 1 ns, each showing the interval that covers it, as Paraver draws them.
struct Columns {
  model::Time begin = 0;
  model::Time end = 0;
  double step = 1;
  uint32_t pixel_size = 1;
  std::vector<double> p0;
  std::vector<double> p1;

  uint32_t count() const { return static_cast<uint32_t>(p0.size()); }
  // t - begin as a double, computed in integers first (exact when |t - begin| < 2^53).
  double Offset(model::Time t) const {
    return t >= begin ? static_cast<double>(t - begin) : -static_cast<double>(begin - t);
  }
  // The first integer time at or after begin + offset (saturating): `t < Limit(o)` is
  // `Offset(t) < o` for every time t >= begin.
  model::Time Limit(double offset) const;
  // Column x offset (pixels from the start of the drawable area) of a time, unclamped.
  double X(model::Time t) const { return Offset(t) * pixel_size / step; }
  // The column whose [p0, p1] holds t, or -1 when none.
  int64_t ColumnOf(model::Time t) const;
};

// Columns for [begin, end) over `width` drawable pixels, never past `trace_end`.
Columns MakeColumns(model::Time begin, model::Time end, model::Time trace_end, uint32_t width,
                    uint32_t pixel_size);

// One row folded: the time-draw-mode value of every column, plus what the scale fit and the
// punctual mode need.
struct FoldedRow {
  std::vector<double> values;  // kNoValue where the highlight left nothing
  // Punctual mode: per column, whether some interval starts inside it, and the reduced value of
  // those intervals.
  std::vector<uint8_t> has_start;
  std::vector<double> start_values;
  // Over every interval visited (semantic scale fit, §3).
  double largest = 0;
  double smallest_non_zero = 0;
  bool any_non_zero = false;
  bool exist_zero = false;
};

// The value of a column where nothing is drawn (every interval in it was left out by the
// highlight range): drawn as the background.
inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Which values are drawn when a highlight range is set: low <= v < high, or v == low when
// low == high.
struct Highlight {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool Contains(double v) const { return low == high ? v == low : (v >= low && v < high); }
};

struct FoldOptions {
  DrawMode time_mode = DrawMode::kMaximum;
  bool punctual = false;
  unsigned threads = 0;  // 0: all cores
  // The trace store, for the fast State As Is row (fast_rows.h); null: always the window's rows.
  const store::TraceStore* store = nullptr;
  // Set: the store's state summaries (store/state_blocks.h), with which a State As Is row takes
  // the runs of states inside a column whole, for every draw mode but mode and without highlight
  // or punctual marks; the values are the same as without.
  const store::StateBlockCache* state_blocks = nullptr;
  // Set: the values outside the range take no part in the draw modes, and a column with no
  // value left is kNoValue.
  std::optional<Highlight> highlight;
};

// Folds one row (seeded with `row_id` for the random draw modes).
FoldedRow FoldRow(semantic::Row& row, const Columns& columns, const FoldOptions& options,
                  uint64_t row_id, model::Time trace_end);

// Folds the rows of `objects` (window-level object indices) in parallel.
std::vector<FoldedRow> FoldRows(const semantic::WindowEvaluator& window,
                                const std::vector<uint32_t>& objects, const Columns& columns,
                                const FoldOptions& options);

// FoldRows in a distributed run: this process folds its share of the objects (thread rows
// dealt out by their records, base::BalanceByCost; others round-robin) and the others' rows
// come through the exchange, so every process gets all of them.
Result<std::vector<FoldedRow>> FoldRowsShared(const semantic::WindowEvaluator& window,
                                              const std::vector<uint32_t>& objects,
                                              const Columns& columns, const FoldOptions& options,
                                              const base::WorkShare& share);

}  // namespace parallax::render
