#include "src/compare/difference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax::compare {

TimeMap::TimeMap(std::vector<std::pair<model::Time, model::Time>> points, model::Time a_end, model::Time b_end) {
  points.emplace_back(0, 0);
  points.emplace_back(a_end, b_end);
  std::sort(points.begin(), points.end());
  for (const auto& [a, b] : points) {
    if (!a_.empty() && (a <= a_.back() || b <= b_.back())) continue;
    if (a > a_end || b > b_end) continue;
    a_.push_back(a);
    b_.push_back(b);
  }
}

model::Time TimeMap::Map(const std::vector<model::Time>& from, const std::vector<model::Time>& to, model::Time t) {
  // The segment whose start is the last point at or before t; past the last point, the last
  // segment's slope goes on (or slope 1 with a single point).
  auto it = std::upper_bound(from.begin(), from.end(), t);
  size_t i = it == from.begin() ? 0 : size_t(it - from.begin()) - 1;
  if (i + 1 >= from.size()) {
    if (from.size() < 2) return t;
    i = from.size() - 2;
  }
  const long double x0 = from[i], x1 = from[i + 1], y0 = to[i], y1 = to[i + 1];
  const long double y = y0 + (static_cast<long double>(t) - x0) * (y1 - y0) / (x1 - x0);
  if (y <= 0) return 0;
  if (y >= static_cast<long double>(std::numeric_limits<model::Time>::max()))
    return std::numeric_limits<model::Time>::max();
  return static_cast<model::Time>(std::llround(y));
}

model::Time TimeMap::ToB(model::Time a) const { return Map(a_, b_, a); }
model::Time TimeMap::ToA(model::Time b) const { return Map(b_, a_, b); }

namespace {

// Moves a row to its first interval of positive length ending after t (on A's axis, through
// `end_of`); false when the row reaches its trace's end first.
template <typename EndOf>
bool SkipTo(semantic::Row& row, model::Time t, model::Time row_end, EndOf end_of) {
  for (;;) {
    const semantic::Interval& i = row.current();
    if (i.end > i.begin && end_of(i) > t) return true;
    if (i.end >= row_end) return false;
    row.Next();
  }
}

}  // namespace

DifferenceRow MergeRows(semantic::Row& a, semantic::Row& b, const TimeMap& map, model::Time from, model::Time to,
                        model::Time a_end, model::Time b_end) {
  DifferenceRow out;
  if (to <= from) return out;
  a.Init(from);
  b.Init(map.ToB(from));
  auto a_to = [](const semantic::Interval& i) { return i.end; };
  auto b_to = [&](const semantic::Interval& i) { return map.ToA(i.end); };
  model::Time t = from;
  while (t < to) {
    const bool has_a = SkipTo(a, t, a_end, a_to), has_b = SkipTo(b, t, b_end, b_to);
    const double va = has_a ? a.current().value : 0, vb = has_b ? b.current().value : 0;
    model::Time next = to;
    if (has_a) next = std::min(next, a.current().end);
    if (has_b) next = std::min(next, b_to(b.current()));
    if (!has_a && !has_b) next = to;
    if (next <= t) next = t + 1;
    if (!out.begin.empty() && out.end.back() == t && out.a.back() == va && out.b.back() == vb) {
      out.end.back() = next;
    } else {
      out.begin.push_back(t);
      out.end.push_back(next);
      out.a.push_back(va);
      out.b.push_back(vb);
    }
    t = next;
  }
  return out;
}

DifferenceMeans MeansOf(const DifferenceRow& row) {
  if (row.begin.empty()) return {};
  return MeansOf(row, row.begin.front(), row.end.back());
}

DifferenceMeans MeansOf(const DifferenceRow& row, model::Time from, model::Time to) {
  DifferenceMeans m;
  long double span = 0, sa = 0, sb = 0;
  // The first interval ending after `from`.
  const size_t first = size_t(std::upper_bound(row.end.begin(), row.end.end(), from) - row.end.begin());
  for (size_t i = first; i < row.begin.size() && row.begin[i] < to; ++i) {
    const model::Time b = std::max(row.begin[i], from), e = std::min(row.end[i], to);
    if (e <= b) continue;
    const long double d = static_cast<long double>(e - b);
    span += d;
    sa += d * row.a[i];
    sb += d * row.b[i];
    if (row.a[i] != row.b[i]) m.differs_s += static_cast<double>(d);
  }
  if (span > 0) {
    m.a = static_cast<double>(sa / span);
    m.b = static_cast<double>(sb / span);
    m.diff = m.a - m.b;
  }
  return m;
}

namespace {

class DifferenceRowCursor : public semantic::Row {
 public:
  DifferenceRowCursor(const DifferenceRow& row, DifferenceOp op, model::Time trace_end)
      : row_(row), op_(op), trace_end_(trace_end) {}
  void Init(model::Time t) override {
    auto it = std::upper_bound(row_.begin.begin(), row_.begin.end(), t);
    i_ = it == row_.begin.begin() ? 0 : size_t(it - row_.begin.begin()) - 1;
    Set();
  }
  void Next() override {
    if (i_ < row_.begin.size()) ++i_;
    Set();
  }

 private:
  void Set() {
    if (row_.begin.empty()) {
      cur_ = {0, trace_end_, 0, 0};
      return;
    }
    if (i_ >= row_.begin.size()) {
      // Past the range: nothing to draw up to the trace's end.
      cur_ = {row_.end.back(), std::max(trace_end_, row_.end.back()), std::numeric_limits<double>::quiet_NaN(), 0};
      return;
    }
    const double a = row_.a[i_], b = row_.b[i_];
    const double v = op_ == DifferenceOp::kDiff ? a - b : (b != 0 ? a / b : std::numeric_limits<double>::quiet_NaN());
    cur_ = {row_.begin[i_], row_.end[i_], v, 0};
  }
  const DifferenceRow& row_;
  DifferenceOp op_;
  model::Time trace_end_;
  size_t i_ = 0;
};

}  // namespace

std::unique_ptr<semantic::Row> MakeDifferenceRow(const DifferenceRow& row, DifferenceOp op, model::Time trace_end) {
  return std::make_unique<DifferenceRowCursor>(row, op, trace_end);
}

}  // namespace parallax::compare
