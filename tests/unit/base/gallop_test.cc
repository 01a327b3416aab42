#include "src/base/gallop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace parallax::base {
namespace {

// Every query from every hint, against std::partition_point: near (the walk), far (the
// exponential search), before the first and past the last element, on runs of equal values.
TEST(GallopTest, EveryQueryFromEveryHintIsThePartitionPoint) {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::vector<int> v(static_cast<size_t>(rng() % 60));
    for (int& x : v) x = static_cast<int>(rng() % 25);
    std::sort(v.begin(), v.end());
    for (int q = -1; q <= 26; ++q) {
      auto pred = [q](int x) { return x <= q; };
      const auto want = std::partition_point(v.begin(), v.end(), pred);
      for (size_t hint = 0; hint <= v.size() + 2; ++hint) {
        size_t h = hint;
        const auto got = PartitionPointFrom(v.begin(), v.end(), pred, &h);
        ASSERT_EQ(got - v.begin(), want - v.begin()) << "query " << q << " hint " << hint << " size " << v.size();
        EXPECT_EQ(h, static_cast<size_t>(want - v.begin()));
      }
    }
  }
}

TEST(GallopTest, EmptyRange) {
  std::vector<int> v;
  size_t h = 5;
  EXPECT_EQ(PartitionPointFrom(v.begin(), v.end(), [](int) { return true; }, &h), v.end());
  EXPECT_EQ(h, 0u);
}

}  // namespace
}  // namespace parallax::base
