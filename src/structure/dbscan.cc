#include "src/structure/dbscan.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace parallax::structure {

namespace {

struct Cell {
  int64_t cx = 0, cy = 0;
  uint32_t first = 0, count = 0;  // into the sorted order
  uint32_t cores = 0;             // core points of the cell
};

int64_t Key(int64_t cx, int64_t cy) {
  return static_cast<int64_t>((static_cast<uint64_t>(cx) << 32) ^ (static_cast<uint64_t>(cy) & 0xffffffffULL));
}

// The cell of a coordinate; far outliers share the outermost cells (no overflow).
int64_t CellOf(double v, double side) { return static_cast<int64_t>(std::clamp(std::floor(v / side), -1e15, 1e15)); }

double Dist2(const Point2& a, const Point2& b) {
  const double dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

struct UnionFind {
  std::vector<uint32_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t Find(uint32_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  }
  void Join(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

}  // namespace

std::vector<int32_t> Dbscan(const std::vector<Point2>& points, double eps, uint32_t min_points) {
  const size_t n = points.size();
  std::vector<int32_t> labels(n, kNoise);
  if (n == 0 || !(eps > 0)) return labels;
  min_points = std::max<uint32_t>(min_points, 1);
  const double side = eps / std::sqrt(2.0), eps2 = eps * eps;
  auto cell_of = [&](const Point2& p) {
    return std::pair<int64_t, int64_t>{CellOf(p.x, side), CellOf(p.y, side)};
  };
  // Points sorted by cell; cells in that order.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<std::pair<int64_t, int64_t>> cell_xy(n);
  for (size_t i = 0; i < n; ++i) cell_xy[i] = cell_of(points[i]);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return cell_xy[a] < cell_xy[b]; });
  std::vector<Cell> cells;
  std::vector<uint32_t> cell_of_point(n);
  std::unordered_map<int64_t, uint32_t> index;
  for (uint32_t k = 0; k < n; ++k) {
    const auto [cx, cy] = cell_xy[order[k]];
    if (cells.empty() || cells.back().cx != cx || cells.back().cy != cy) {
      index.emplace(Key(cx, cy), static_cast<uint32_t>(cells.size()));
      cells.push_back({cx, cy, k, 0, 0});
    }
    ++cells.back().count;
    cell_of_point[order[k]] = static_cast<uint32_t>(cells.size() - 1);
  }
  // The cells within two of a cell (where points within eps can be), nearest first; fn(cell)
  // returns false to stop.
  std::vector<std::pair<int64_t, int64_t>> offsets;
  for (int64_t dx = -2; dx <= 2; ++dx)
    for (int64_t dy = -2; dy <= 2; ++dy) offsets.push_back({dx, dy});
  std::stable_sort(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) {
    return a.first * a.first + a.second * a.second < b.first * b.first + b.second * b.second;
  });
  auto neighbours = [&](const Cell& c, auto&& fn) {
    for (const auto& [dx, dy] : offsets) {
      auto it = index.find(Key(c.cx + dx, c.cy + dy));
      if (it != index.end() && !fn(it->second)) return;
    }
  };
  // Core points.
  std::vector<uint8_t> core(n, 0);
  for (Cell& c : cells) {
    if (c.count >= min_points) {
      for (uint32_t k = c.first; k < c.first + c.count; ++k) core[order[k]] = 1;
      c.cores = c.count;
      continue;
    }
    for (uint32_t k = c.first; k < c.first + c.count; ++k) {
      const Point2& p = points[order[k]];
      uint32_t near = 0;
      neighbours(c, [&](uint32_t other) {
        const Cell& o = cells[other];
        for (uint32_t j = o.first; j < o.first + o.count && near < min_points; ++j)
          if (Dist2(p, points[order[j]]) <= eps2) ++near;
        return near < min_points;
      });
      if (near >= min_points) {
        core[order[k]] = 1;
        ++c.cores;
      }
    }
  }
  // The core points of each cell, contiguous, and their bounding boxes.
  std::vector<uint32_t> cores_of;  // point indices, cell by cell
  std::vector<uint32_t> cores_first(cells.size() + 1, 0);
  struct Box {
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  };
  std::vector<Box> box(cells.size());
  cores_of.reserve(n);
  for (uint32_t c = 0; c < cells.size(); ++c) {
    cores_first[c] = static_cast<uint32_t>(cores_of.size());
    bool any = false;
    for (uint32_t k = cells[c].first; k < cells[c].first + cells[c].count; ++k) {
      const uint32_t i = order[k];
      if (!core[i]) continue;
      cores_of.push_back(i);
      const Point2& p = points[i];
      if (!any) box[c] = {p.x, p.x, p.y, p.y};
      box[c] = {std::min(box[c].x0, p.x), std::max(box[c].x1, p.x), std::min(box[c].y0, p.y), std::max(box[c].y1, p.y)};
      any = true;
    }
  }
  cores_first[cells.size()] = static_cast<uint32_t>(cores_of.size());
  // Squared distance from a point to a box (0 inside), and between two boxes (least, most).
  auto to_box = [](const Point2& p, const Box& b) {
    const double dx = std::max({b.x0 - p.x, 0.0, p.x - b.x1}), dy = std::max({b.y0 - p.y, 0.0, p.y - b.y1});
    return dx * dx + dy * dy;
  };
  auto between = [](const Box& a, const Box& b) {
    const double dx = std::max({b.x0 - a.x1, 0.0, a.x0 - b.x1}), dy = std::max({b.y0 - a.y1, 0.0, a.y0 - b.y1});
    const double fx = std::max(a.x1, b.x1) - std::min(a.x0, b.x0), fy = std::max(a.y1, b.y1) - std::min(a.y0, b.y0);
    return std::pair<double, double>{dx * dx + dy * dy, fx * fx + fy * fy};
  };
  // Whether core point p has a core point of cell c within eps.
  auto near_core = [&](const Point2& p, uint32_t c) {
    if (to_box(p, box[c]) > eps2) return false;
    for (uint32_t k = cores_first[c]; k < cores_first[c + 1]; ++k)
      if (Dist2(p, points[cores_of[k]]) <= eps2) return true;
    return false;
  };
  // Cells with core points joined when two of their core points are within eps: decided by the
  // boxes when they are far enough or close enough, else point by point for the points of each
  // near the other's box.
  UnionFind sets(cells.size());
  for (uint32_t a = 0; a < cells.size(); ++a) {
    if (cells[a].cores == 0) continue;
    neighbours(cells[a], [&](uint32_t b) {
      if (b <= a || cells[b].cores == 0 || sets.Find(a) == sets.Find(b)) return true;
      const auto [least, most] = between(box[a], box[b]);
      if (least > eps2) return true;
      bool joined = most <= eps2;
      for (uint32_t k = cores_first[a]; k < cores_first[a + 1] && !joined; ++k) joined = near_core(points[cores_of[k]], b);
      if (joined) sets.Join(a, b);
      return true;
    });
  }
  // Cluster numbers in the order of each cluster's first core point (all the core points of a
  // cell are in one cluster: the cell's diagonal is eps).
  std::vector<int32_t> number(cells.size(), kNoise), cell_label(cells.size(), kNoise);
  int32_t clusters = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!core[i]) continue;
    const uint32_t root = sets.Find(cell_of_point[i]);
    if (number[root] == kNoise) number[root] = clusters++;
    labels[i] = number[root];
    cell_label[cell_of_point[i]] = labels[i];
  }
  // A border point joins the cluster of its own cell's core points, else of the first
  // neighbouring cell, nearest first, with a core point within eps.
  for (size_t i = 0; i < n; ++i) {
    if (core[i]) continue;
    const uint32_t own = cell_of_point[i];
    neighbours(cells[own], [&](uint32_t c) {
      if (cells[c].cores == 0 || (c != own && !near_core(points[i], c))) return true;
      labels[i] = cell_label[c];
      return false;
    });
  }
  return labels;
}

double KneeEpsilon(const std::vector<Point2>& points, uint32_t min_points, size_t sample) {
  const size_t n = points.size();
  if (n < 2) return 0;
  std::vector<Point2> s;
  const size_t m = std::min(n, std::max<size_t>(sample, 2));
  s.reserve(m);
  for (size_t i = 0; i < m; ++i) s.push_back(points[i * n / m]);
  const size_t k = std::min<size_t>(std::max<uint32_t>(min_points, 2) - 1, s.size() - 1);
  std::vector<double> kdist(s.size());
  std::vector<double> d(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    for (size_t j = 0; j < s.size(); ++j) d[j] = Dist2(s[i], s[j]);
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k), d.end());
    kdist[i] = std::sqrt(d[k]);  // d holds the point itself at 0: its k-th other neighbour
  }
  std::sort(kdist.begin(), kdist.end());
  const double x0 = 0, y0 = kdist.front(), x1 = double(kdist.size() - 1), y1 = kdist.back();
  if (y1 <= y0) return y1;
  // The farthest point from the chord, in coordinates scaled to a unit square.
  double best = -1, eps = y1;
  for (size_t i = 0; i < kdist.size(); ++i) {
    const double x = (double(i) - x0) / (x1 - x0), y = (kdist[i] - y0) / (y1 - y0);
    const double dist = x - y;  // distance to the diagonal y = x, up to a constant factor
    if (dist > best) {
      best = dist;
      eps = kdist[i];
    }
  }
  return eps;
}

}  // namespace parallax::structure
