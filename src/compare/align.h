#pragma once
// Alignment of two runs' units (docs/compare.md): each run gives its units as (key, value,
// per-rank values); units of the same key are compared, those of one run only are kept as such,
// and the rows are ranked by impact (the absolute difference, a missing side counting as 0).

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::compare {

struct Unit {
  std::string key;
  double value = 0;                // seconds
  std::vector<double> by_rank;     // seconds per rank (may be empty)
};

struct RankStats {
  double mean = 0, max = 0, imbalance = 0;  // imbalance: max / mean - 1
  size_t ranks = 0;
};

RankStats StatsOf(const std::vector<double>& by_rank);

struct Row {
  std::string key;
  bool in_a = false, in_b = false;
  double a = 0, b = 0;   // 0 where the unit is missing
  double diff = 0;       // b - a
  double ratio = 0;      // b / a; NaN when a is 0 or missing
  RankStats a_ranks, b_ranks;
  size_t order = 0;      // position in A (then B) before ranking
};

// Rows of the units of a and b: matched by key (each key once per run), in A's order then B's
// extra units; then ranked by |diff|, the largest first (ties keep that order).
std::vector<Row> Align(const std::vector<Unit>& a, const std::vector<Unit>& b);

}  // namespace parallax::compare
