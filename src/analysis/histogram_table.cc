#include "src/analysis/histogram_table.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

namespace parallax::analysis {

namespace {

const double kNan = -std::numeric_limits<double>::quiet_NaN();

// One plane of the printed statistic: values of existing cells per (row, column).
struct PlaneValues {
  std::vector<std::vector<double>> v;      // [row][column]
  std::vector<std::vector<char>> present;  // [row][column]
  bool any = false;
};

PlaneValues Values(const HistogramResult& r, uint32_t plane) {
  PlaneValues p;
  uint32_t ncol = r.columns.count;
  p.v.assign(r.rows.size(), std::vector<double>(ncol, 0.0));
  p.present.assign(r.rows.size(), std::vector<char>(ncol, 0));
  for (size_t i = 0; i < r.rows.size(); ++i) {
    for (const Cell& c : r.cells[i]) {
      if (c.plane != plane) continue;
      p.v[i][c.column] = c.stats[static_cast<size_t>(r.statistic)];
      p.present[i][c.column] = 1;
      p.any = true;
    }
  }
  return p;
}

std::vector<Totals> ColumnTotals(const PlaneValues& p, uint32_t ncol) {
  std::vector<Totals> out(ncol);
  for (uint32_t k = 0; k < ncol; ++k) {
    std::vector<double> vs;
    for (size_t i = 0; i < p.v.size(); ++i)
      if (p.present[i][k]) vs.push_back(p.v[i][k]);
    out[k] = ComputeTotals(vs);
  }
  return out;
}

std::string RangeLabel(double lo, double delta, double max) {
  auto n = [](double x) { return GroupedNumber(x, 2, true); };
  if (lo + delta >= max) return fmt::format("[{}..{}]", n(lo), n(max));
  return fmt::format("[{}..{})", n(lo), n(lo + delta));
}

std::string BinLabel(const Bins& b, uint32_t k, const HistogramInput& in, int window,
                     const LabelContext& labels) {
  double lo = b.min + k * b.delta;
  if (b.min != std::floor(b.min) || b.delta != 1) return RangeLabel(lo, b.delta, b.max);
  return ValueLabel(labels, in.windows, static_cast<size_t>(window), b.min + k,
                    in.spec.short_labels);
}

// The control values column k counts (Bins::Of; labels as BinLabel: unit bins from a whole
// number are discrete values).
std::pair<double, double> ColumnRange(const HistogramResult& r, uint32_t k) {
  const Bins& b = r.columns;
  if (r.comm) return {kNan, kNan};
  double lo = b.min + k * b.delta;
  if (b.min == std::floor(b.min) && b.delta == 1) return {lo, lo};
  if (k + 1 >= b.count) return {lo, std::nextafter(b.max, std::numeric_limits<double>::infinity())};
  return {lo, lo + b.delta};
}

size_t CriteriaIndex(cfg::SortCriteria c) {
  switch (c) {
    case cfg::SortCriteria::kTotal:
      return 0;
    case cfg::SortCriteria::kMaximum:
      return 2;
    case cfg::SortCriteria::kMinimum:
      return 3;
    case cfg::SortCriteria::kStdev:
      return 4;
    case cfg::SortCriteria::kAvgMax:
      return 5;
    default:
      return 1;
  }
}

// §8.1.1: the printed columns of a plane.
std::vector<uint32_t> PrintedColumns(const cfg::HistogramSpec& h, bool hide,
                                     const std::vector<uint32_t>& asc,
                                     const std::vector<Totals>& totals) {
  uint32_t ncol = static_cast<uint32_t>(totals.size());
  std::vector<uint32_t> nonempty;
  for (uint32_t k = 0; k < ncol; ++k)
    if (totals[k][0] != 0) nonempty.push_back(k);
  uint32_t n = hide ? static_cast<uint32_t>(nonempty.size()) : ncol;
  std::vector<uint32_t> out(n);
  for (uint32_t p = 0; p < n; ++p) {
    if (h.sort_columns)
      out[p] = h.sort_reverse ? asc[ncol - n + p] : asc[ncol - 1 - p];
    else if (hide)
      out[p] = h.sort_reverse ? nonempty[n - 1 - p] : nonempty[p];
    else
      out[p] = h.sort_reverse ? ncol - 1 - p : p;
  }
  return out;
}

int64_t SelectedPlane(const HistogramResult& r, const cfg::HistogramSpec& h,
                      const std::vector<char>& has) {
  int64_t sel = -1;
  for (uint32_t i = 0; i < has.size(); ++i) {
    if (!has[i]) continue;
    if (sel < 0) sel = i;
    double lo = r.planes.min + r.planes.delta * i;
    if (h.fixed_value_3d && lo <= *h.fixed_value_3d && *h.fixed_value_3d < lo + 1) sel = i;
  }
  return sel < 0 ? 0 : sel;
}

std::vector<uint32_t> Ascending(const std::vector<Totals>& totals, size_t criteria) {
  std::vector<uint32_t> asc(totals.size());
  std::iota(asc.begin(), asc.end(), 0);
  std::stable_sort(asc.begin(), asc.end(), [&](uint32_t a, uint32_t b) {
    return totals[a][criteria] < totals[b][criteria];
  });
  return asc;
}

}  // namespace

Totals ComputeTotals(const std::vector<double>& vs) {
  Totals t{0, 0, 0, 0, 0, kNan};
  if (vs.empty()) return t;
  double s = 0, q = 0, mx = -DBL_MAX, mn = DBL_MAX;
  for (double v : vs) {
    s = s + v;
    q = q + v * v;
    if (v > mx) mx = v;
    if (v != 0 && v < mn) mn = v;
  }
  if (mn == DBL_MAX) mn = 0;
  double n = static_cast<double>(vs.size());
  double a = s / n;
  double d = (q - n * (a * a)) / n;
  t = {s, a, mx, mn, std::sqrt(std::fabs(d)), a / mx};
  return t;
}

HistogramTable BuildTable(const HistogramResult& r, const HistogramInput& in,
                          const LabelContext& labels, const TableOptions& opt) {
  const cfg::HistogramSpec& h = in.spec;
  HistogramTable t;
  t.statistic = h.statistic;
  t.horizontal = h.horizontal;
  uint32_t nplanes = r.three_d ? r.planes.count : 1;
  std::vector<PlaneValues> planes;
  std::vector<char> has(nplanes);
  for (uint32_t p = 0; p < nplanes; ++p) {
    planes.push_back(Values(r, p));
    has[p] = planes.back().any;
  }
  int64_t selected = SelectedPlane(r, h, has);
  uint32_t ncol = r.columns.count;
  std::vector<uint32_t> asc(ncol);
  std::iota(asc.begin(), asc.end(), 0);
  if (h.sort_columns)
    asc = Ascending(ColumnTotals(planes[static_cast<size_t>(selected)], ncol),
                    CriteriaIndex(h.sort_criteria));
  std::vector<std::string> col_labels(ncol), row_labels;
  for (uint32_t k = 0; k < ncol; ++k)
    col_labels[k] =
        r.comm ? ObjectLabel(labels, r.level, k) : BinLabel(r.columns, k, in, h.control, labels);
  for (uint32_t o : r.rows) row_labels.push_back(ObjectLabel(labels, r.level, o));
  t.plane_labels = r.three_d && nplanes > 1;
  for (uint32_t p = 0; p < nplanes; ++p) {
    if (r.three_d && !has[p]) continue;
    if (opt.only_selected_plane && p != selected) continue;
    const PlaneValues& pv = planes[p];
    HistogramTable::Plane out;
    if (t.plane_labels) out.label = BinLabel(r.planes, p, in, h.extra, labels);
    std::vector<Totals> totals = ColumnTotals(pv, ncol);
    std::vector<uint32_t> cols = PrintedColumns(h, h.hide_columns || opt.hide_empty, asc, totals);
    for (uint32_t k : cols) {
      out.columns.push_back(col_labels[k]);
      out.column_totals.push_back(totals[k]);
      out.column_ranges.push_back(ColumnRange(r, k));
    }
    out.rows = row_labels;
    out.row_objects = r.rows;
    for (size_t i = 0; i < r.rows.size(); ++i) {
      std::vector<double> row, existing;
      for (uint32_t k : cols) row.push_back(pv.v[i][k]);
      for (uint32_t k = 0; k < ncol; ++k)
        if (pv.present[i][k]) existing.push_back(pv.v[i][k]);
      out.values.push_back(std::move(row));
      out.row_totals.push_back(ComputeTotals(existing));
    }
    t.planes.push_back(std::move(out));
  }
  return t;
}

namespace {

void Number(std::string& out, double v, int precision) {
  if (std::isnan(v))
    out += "-nan";
  else
    fmt::format_to(std::back_inserter(out), "{:.{}f}", v, precision);
  out += '\t';
}

}  // namespace

std::string FormatParamedirTable(const HistogramTable& t, int precision) {
  std::string out;
  for (const HistogramTable::Plane& p : t.planes) {
    if (t.plane_labels) out += p.label + '\n';
    const std::vector<std::string>& head = t.horizontal ? p.columns : p.rows;
    const std::vector<std::string>& side = t.horizontal ? p.rows : p.columns;
    out += '\t';
    for (const std::string& l : head) out += l + '\t';
    out += '\n';
    for (size_t i = 0; i < side.size(); ++i) {
      out += side[i] + '\t';
      for (size_t j = 0; j < head.size(); ++j)
        Number(out, t.horizontal ? p.values[i][j] : p.values[j][i], precision);
      out += '\n';
    }
    out += '\n';
    const std::vector<Totals>& totals = t.horizontal ? p.column_totals : p.row_totals;
    for (size_t k = 0; k < 6; ++k) {
      out += std::string(kTotalNames[k]) + '\t';
      for (const Totals& tot : totals) Number(out, tot[k], precision);
      out += '\n';
    }
    out += '\n';
  }
  return out;
}

}  // namespace parallax::analysis
