#include "src/structure/dbscan.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

namespace parallax::structure {
namespace {

// A deterministic generator of points (splitmix64).
struct Rng {
  uint64_t s;
  double Unit() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
};

TEST(DbscanTest, WorkedExample) {
  // Two groups of 4 points 0.1 apart, a lone point; eps 0.15, min 3 (the point itself counts).
  std::vector<Point2> p = {{0, 0}, {0.1, 0}, {0, 0.1}, {0.1, 0.1},   // cluster 0
                           {1, 1}, {1.1, 1}, {1, 1.1}, {1.1, 1.1},   // cluster 1
                           {0.5, 0.5},                               // noise
                           {0.2, 0.2}};                              // border of cluster 0
  const std::vector<int32_t> l = Dbscan(p, 0.15, 4);
  const std::vector<int32_t> want = {0, 0, 0, 0, 1, 1, 1, 1, kNoise, 0};
  EXPECT_EQ(l, want);
}

TEST(DbscanTest, ThreePlantedBlobsWithNoiseAreRecovered) {
  Rng rng{7};
  std::vector<Point2> p;
  std::vector<int> truth;
  const Point2 centres[3] = {{0.2, 0.2}, {0.8, 0.3}, {0.5, 0.8}};
  for (int i = 0; i < 3000; ++i) {
    const int c = i % 3;
    p.push_back({centres[c].x + 0.06 * (rng.Unit() - 0.5), centres[c].y + 0.06 * (rng.Unit() - 0.5)});
    truth.push_back(c);
  }
  for (int i = 0; i < 60; ++i) {  // sparse background
    p.push_back({rng.Unit(), rng.Unit()});
    truth.push_back(-1);
  }
  const double eps = KneeEpsilon(p, 10);
  EXPECT_GT(eps, 0.001);
  EXPECT_LT(eps, 0.1);
  const std::vector<int32_t> l = Dbscan(p, eps, 10);
  std::map<std::pair<int, int32_t>, int> joint;
  for (size_t i = 0; i < 3000; ++i) ++joint[{truth[i], l[i]}];
  // Each blob is one cluster holding almost all its points, and the clusters differ.
  std::map<int, int32_t> label_of;
  size_t agree = 0;
  for (int c = 0; c < 3; ++c) {
    int best = 0;
    for (const auto& [k, n] : joint)
      if (k.first == c && k.second != kNoise && n > best) {
        best = n;
        label_of[c] = k.second;
      }
    agree += static_cast<size_t>(best);
  }
  EXPECT_GT(agree, 2950u);
  EXPECT_NE(label_of[0], label_of[1]);
  EXPECT_NE(label_of[1], label_of[2]);
  EXPECT_NE(label_of[0], label_of[2]);
}

TEST(DbscanTest, OneCoordinateAndDegenerateInputs) {
  std::vector<Point2> p;
  for (int i = 0; i < 50; ++i) p.push_back({0.001 * i, 0});
  for (int i = 0; i < 50; ++i) p.push_back({0.9 + 0.001 * i, 0});
  const std::vector<int32_t> l = Dbscan(p, 0.01, 5);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(l[i], 0);
  for (int i = 50; i < 100; ++i) EXPECT_EQ(l[i], 1);
  EXPECT_TRUE(Dbscan({}, 0.1, 4).empty());
  // A zero or negative epsilon makes everything noise; identical points form one cluster.
  EXPECT_EQ(Dbscan(p, 0, 4)[0], kNoise);
  const std::vector<Point2> same(20, Point2{0.3, 0.3});
  for (int32_t x : Dbscan(same, 0.01, 5)) EXPECT_EQ(x, 0);
  EXPECT_EQ(KneeEpsilon(same, 5), 0);
}

TEST(DbscanTest, ResultDoesNotDependOnThePointsOrderBeyondNumbering) {
  Rng rng{3};
  std::vector<Point2> p;
  for (int i = 0; i < 500; ++i) p.push_back({(i % 2) * 0.5 + 0.05 * rng.Unit(), 0.05 * rng.Unit()});
  std::vector<Point2> reversed(p.rbegin(), p.rend());
  const auto a = Dbscan(p, 0.02, 5), b = Dbscan(reversed, 0.02, 5);
  // Same partition: points together in one are together in the other.
  for (size_t i = 0; i < p.size(); i += 7)
    for (size_t j = 0; j < p.size(); j += 11)
      EXPECT_EQ(a[i] == a[j], b[p.size() - 1 - i] == b[p.size() - 1 - j]);
}

}  // namespace
}  // namespace parallax::structure
