#pragma once
// The 2D/3D analyzer (analysis.md): crosses the values of a control window (columns) with a
// data window (what is measured), per object of the control window's level (rows), over a time
// range, optionally split into planes by a 3D control window. Every statistic is computed;
// semantic histograms keep the 17 of §6.2 per cell, communication histograms (selected by a
// communication statistic) the 10 of §7.2. Rows are computed in parallel.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <optional>
#include <utility>
#include <vector>

#include "include/parallax/status.h"
#include "src/cfg/histogram_spec.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/window_spec.h"

namespace parallax::analysis {

// What the analyzer needs to know about a window beyond its WindowSpec (display settings of
// the cfg that change the columns and rows).
struct HistogramWindowInfo {
  bool code_color = true;  // code-color mode: auto scale uses unit columns (§2.2 step 5)
  std::optional<std::pair<uint32_t, uint32_t>> zoom_objects;  // `window_zoom_objects`
};

struct HistogramInput {
  semantic::TraceView trace;
  std::vector<semantic::WindowSpec> windows;
  std::vector<HistogramWindowInfo> info;  // parallel to `windows`; missing entries: defaults
  cfg::HistogramSpec spec;
  unsigned threads = 0;  // 0: all cores
  // A fixed analysis range [first, second) in trace units, in place of the cfg's
  // Analyzer2D.AnalysisLimits (a portion of the trace, or a window's zoom); the end is still
  // capped at the trace end. Intervals are clipped to it as for the cfg's limits (§4).
  std::optional<std::pair<model::Time, model::Time>> range;
  // A share of the rows for one of several processes: only the rows this process owns are
  // computed (the others are left without cells) when `shared` says so in the result. Rows are
  // dealt out by their cost (semantic::RowCosts, base::BalanceByCost), the same on every process:
  // HistogramResult::owner. Communication histograms are always computed whole.
  unsigned share_index = 0, share_count = 1;
  // With a share: how the processes exchange their automatic-scale scans (every process' bytes
  // in process order, or an error). Unset: every process scans every row itself.
  std::function<Result<std::vector<std::string>>(const std::string& mine)> exchange;
};

// Columns or planes: `count` bins over [min, max] (analysis.md §2.1).
struct Bins {
  double min = 0, max = 1, delta = 1;
  uint32_t count = 1;
  // The bin of a value, or -1 when out of range.
  int64_t Of(double v) const;
};

inline constexpr size_t kMaxStatistics = 17;
using CellStats = std::array<double, kMaxStatistics>;

// One existing cell: column, plane and the final statistics (§6.2 or §7.2 order).
struct Cell {
  uint32_t column = 0;
  uint32_t plane = 0;
  CellStats stats{};
};

struct HistogramResult {
  bool comm = false;  // a communication histogram (columns are partner objects)
  int statistic = 0;  // index of the printed statistic
  model::Level level = model::Level::kThread;  // the control window's level (rows)
  std::vector<uint32_t> rows;                  // objects at that level, in order
  Bins columns;
  bool three_d = false;
  Bins planes;                           // 3D only; 2D histograms have one plane
  std::vector<std::vector<Cell>> cells;  // per row, sorted by (plane, column)
  model::Time begin = 0, end = 0;        // analysis range [B, E)
  bool shared = false;  // only the input's share of the rows has cells (HistogramInput)
  // With a share: the process that computes each row (empty: round-robin, row % processes).
  std::vector<uint32_t> owner;
  unsigned OwnerOf(size_t row, unsigned processes) const {
    return owner.empty() ? static_cast<unsigned>(row % processes) : owner[row];
  }
};

// How the rows `objects` (at `level`) of a histogram are dealt out among the processes of
// `in`'s share: by their cost, the same deal on every process (empty: a single process).
std::vector<uint32_t> ShareOwners(const HistogramInput& in, model::Level level,
                                  const std::vector<uint32_t>& objects);

// The index of a statistic name in its table (semantic or communication), or -1.
int SemanticStatisticIndex(std::string_view name);
int CommStatisticIndex(std::string_view name);

Result<HistogramResult> ComputeHistogram(const HistogramInput& input);

}  // namespace parallax::analysis
