// The bytes distributed processes exchange (src/base/wire.h): values and strings read back as
// written, short or damaged input refused; BalanceByCost's deal worked by hand.

#include "src/base/wire.h"

#include <gtest/gtest.h>

namespace parallax::base {
namespace {

TEST(Wire, ReadsBackWhatWasWritten) {
  std::string out;
  WirePut(out, uint32_t{7});
  WirePutString(out, "abc");
  WirePutVector(out, std::vector<double>{1.5, -2});
  WireReader in(out);
  uint32_t n = 0;
  std::string s;
  std::vector<double> v;
  ASSERT_TRUE(in.Get(&n) && in.GetString(&s) && in.GetVector(&v));
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(s, "abc");
  EXPECT_EQ(v, (std::vector<double>{1.5, -2}));
  EXPECT_TRUE(in.done());
}

TEST(Wire, RefusesTooFewBytes) {
  std::string out;
  WirePut(out, uint32_t{1000});  // a string of 1000 bytes announced, 2 given
  out += "ab";
  WireReader in(out);
  std::string s;
  EXPECT_FALSE(in.GetString(&s));
  WireReader vectors(out);
  std::vector<uint64_t> v;
  EXPECT_FALSE(vectors.GetVector(&v));
  uint64_t big = 0;
  const std::string three(3, 'x');
  WireReader shorter(three);
  EXPECT_FALSE(shorter.Get(&big));
}

// Costs 9, 1, 1, 1 (an MPI thread and three others, twice) over 2 processes: round-robin would
// give process 0 both 9s; the deal gives each one 9 and three 1s.
TEST(BalanceByCost, SpreadsTheLargestItemsFirst) {
  const std::vector<uint64_t> cost = {9, 1, 1, 1, 9, 1, 1, 1};
  std::vector<uint32_t> owner = BalanceByCost(cost, 2);
  EXPECT_EQ(owner, (std::vector<uint32_t>{0, 0, 1, 0, 1, 1, 0, 1}));
  uint64_t load[2] = {0, 0};
  for (size_t i = 0; i < cost.size(); ++i) load[owner[i]] += cost[i];
  EXPECT_EQ(load[0], 12u);
  EXPECT_EQ(load[1], 12u);
  WorkShare share{1, 2, nullptr, owner};
  EXPECT_EQ(share.Mine(cost.size()), (std::vector<size_t>{2, 4, 5, 7}));
  // Items of no cost are still spread; one process takes everything.
  EXPECT_EQ(BalanceByCost({0, 0, 0}, 3), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(BalanceByCost({5, 0, 3}, 1), (std::vector<uint32_t>{0, 0, 0}));
}

}  // namespace
}  // namespace parallax::base
