#pragma once
// Difference windows (docs/compare.md): one window evaluated on two runs, B's time mapped onto
// A's by a monotone piecewise-linear map through matched instants (the boundaries of the
// iterations both runs have), and the two rows merged into intervals of A's time axis that
// carry both values.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/model/time.h"
#include "src/semantic/evaluator.h"

namespace parallax::compare {

// A monotone map between two time axes through matched instants (a_i, b_i), linear between
// them. Points that would make it decrease or stand still on either axis are left out.
class TimeMap {
 public:
  // `a_end`, `b_end`: the ends of both axes, matched with each other (as 0 is with 0).
  TimeMap(std::vector<std::pair<model::Time, model::Time>> points, model::Time a_end, model::Time b_end);
  model::Time ToB(model::Time a) const;
  model::Time ToA(model::Time b) const;
  size_t points() const { return a_.size(); }

 private:
  static model::Time Map(const std::vector<model::Time>& from, const std::vector<model::Time>& to, model::Time t);
  std::vector<model::Time> a_, b_;
};

// One object's difference: intervals [begin, end) of A's axis, each with A's value and B's
// (B's row at the mapped times), in time order, consecutive ones differing in a value. Punctual
// (zero-length) intervals are left out: a difference is over time.
struct DifferenceRow {
  std::vector<model::Time> begin, end;
  std::vector<double> a, b;
};

// Merges row `a` over A's [from, to) with row `b` over the mapped range (`a_end`, `b_end`: the
// runs' trace ends, where rows stop). Work: the intervals of both rows in the range.
DifferenceRow MergeRows(semantic::Row& a, semantic::Row& b, const TimeMap& map, model::Time from, model::Time to,
                        model::Time a_end, model::Time b_end);

// Time-weighted means of a row's values over [from, to), and of their difference and ratio
// (the ratio's over the time where B is not 0).
struct DifferenceMeans {
  double a = 0, b = 0, diff = 0;
  double differs_s = 0;  // trace units where the values differ
};
DifferenceMeans MeansOf(const DifferenceRow& row);
// The same over [from, to) only (the row's intervals clipped to it).
DifferenceMeans MeansOf(const DifferenceRow& row, model::Time from, model::Time to);

// A row of values computed from a DifferenceRow (a - b, or a / b with NaN where b is 0), to draw
// it as a window's row.
enum class DifferenceOp { kDiff, kRatio };
std::unique_ptr<semantic::Row> MakeDifferenceRow(const DifferenceRow& row, DifferenceOp op, model::Time trace_end);

}  // namespace parallax::compare
