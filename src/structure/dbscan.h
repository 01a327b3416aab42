#pragma once
// DBSCAN (Ester et al., 1996) on points of one or two coordinates, with a grid of cells so
// that the work stays near linear in the points: a cell's side is eps/sqrt(2), so the points of
// a cell holding min_points or more are all core points, and neighbours lie within two cells.
// Deterministic: the result depends on the points' order only through the numbering of the
// clusters (by their first point); a border point joins the cluster of its own cell's core
// points, else that of the nearest neighbouring cell (by cell distance, then a fixed order)
// with a core point within eps.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parallax::structure {

struct Point2 {
  double x = 0, y = 0;
};

inline constexpr int32_t kNoise = -1;

// Labels per point: kNoise, or a cluster number 0, 1, ... in the order of each cluster's first
// point.
std::vector<int32_t> Dbscan(const std::vector<Point2>& points, double eps, uint32_t min_points);

// An epsilon for `min_points` from the points: the knee of their sorted distances to their
// min_points-th nearest neighbour (on an evenly spaced sample of at most `sample` points), the
// point of that curve farthest from the line joining its ends.
double KneeEpsilon(const std::vector<Point2>& points, uint32_t min_points, size_t sample = 3000);

}  // namespace parallax::structure
