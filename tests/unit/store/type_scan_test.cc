// store::TypeScan against a scalar reference: types at the ranges' edges, ranges at 0 and at
// UINT32_MAX (the signed-comparison shift), overlapping and adjacent ranges, more ranges than
// are tested at once (merged, each hit checked), columns of every length around the 16-lane
// steps and starting anywhere.

#include "src/store/type_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace parallax::store {
namespace {

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

std::vector<size_t> Reference(const Ranges& ranges, const std::vector<uint32_t>& types, size_t begin, size_t end) {
  std::vector<size_t> out;
  for (size_t i = begin; i < end; ++i)
    for (const auto& [lo, hi] : ranges)
      if (types[i] >= lo && types[i] <= hi) {
        out.push_back(i);
        break;
      }
  return out;
}

std::vector<size_t> Scanned(const TypeScan& scan, const std::vector<uint32_t>& types, size_t begin, size_t end) {
  std::vector<size_t> out;
  scan.ForEach(types.data(), begin, end, [&](size_t i) { out.push_back(i); });
  return out;
}

TEST(TypeScanTest, FindsExactlyTheTypesOfTheRangesInOrder) {
  const std::vector<Ranges> cases = {
      {},
      {{50000001, 50000005}},
      {{50000001, 50000005}, {50100001, 50100004}, {1, 39999999}, {60000019, 60000019}, {60000023, 60000023}},
      {{0, 0}, {UINT32_MAX, UINT32_MAX}},
      {{0, UINT32_MAX}},
      {{10, 20}, {15, 30}, {31, 31}, {5, 4}},  // overlapping, adjacent, and an empty range
      {{1, 1}, {3, 3}, {5, 5}, {7, 7}, {9, 9}, {11, 11}, {13, 13}, {100, 200}, {1000, 1000}},  // merged
  };
  std::mt19937 rng(11);
  const std::vector<uint32_t> edges = {0, 1, 2, 4, 5, 6, 9, 10, 11, 12, 13, 14, 20, 21, 30, 31, 32, 99, 100, 200, 201,
                                       999, 1000, 1001, 39999999, 40000000, 50000000, 50000001, 50000005, 50000006,
                                       50100001, 50100004, 60000019, 60000023, 0x7FFFFFFF, 0x80000000, UINT32_MAX - 1,
                                       UINT32_MAX};
  for (const Ranges& ranges : cases) {
    const TypeScan scan(ranges);
    EXPECT_EQ(scan.empty(), ranges.empty());
    for (uint32_t t : edges) EXPECT_EQ(scan.Contains(t), !Reference(ranges, {t}, 0, 1).empty()) << t;
    for (size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 100, 1000}) {
      std::vector<uint32_t> types(n);
      for (uint32_t& t : types) t = edges[rng() % edges.size()];
      for (size_t begin : {size_t{0}, size_t{1}, size_t{7}})
        for (size_t end : {n, n > 3 ? n - 3 : n}) {
          if (begin > end) continue;
          ASSERT_EQ(Scanned(scan, types, begin, end), Reference(ranges, types, begin, end))
              << "ranges " << ranges.size() << " n " << n << " begin " << begin << " end " << end;
        }
    }
  }
}

}  // namespace
}  // namespace parallax::store
