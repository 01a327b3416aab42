// The difference-window core (src/compare/difference.h): the time map through matched
// instants, and two rows merged on A's axis, worked by hand.

#include "src/compare/difference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace parallax::compare {
namespace {

// A row from a list of intervals covering [0, end).
class ListRow : public semantic::Row {
 public:
  explicit ListRow(std::vector<semantic::Interval> list) : list_(std::move(list)) {}
  void Init(model::Time t) override {
    i_ = 0;
    while (i_ + 1 < list_.size() && list_[i_].end <= t) ++i_;
    cur_ = list_[i_];
  }
  void Next() override {
    if (i_ + 1 < list_.size()) ++i_;
    cur_ = list_[i_];
  }

 private:
  std::vector<semantic::Interval> list_;
  size_t i_ = 0;
};

TEST(TimeMapTest, LinearBetweenMatchedInstants) {
  // A's iteration [100, 200) is B's [100, 300): B runs twice as slow inside it.
  const TimeMap map({{100, 100}, {200, 300}}, 400, 500);
  EXPECT_EQ(map.ToB(0), 0u);
  EXPECT_EQ(map.ToB(100), 100u);
  EXPECT_EQ(map.ToB(150), 200u);
  EXPECT_EQ(map.ToB(200), 300u);
  EXPECT_EQ(map.ToB(300), 400u);  // [200, 400) -> [300, 500)
  EXPECT_EQ(map.ToB(400), 500u);
  EXPECT_EQ(map.ToA(200), 150u);
  EXPECT_EQ(map.ToA(500), 400u);
  EXPECT_EQ(map.points(), 4u);
}

TEST(TimeMapTest, PointsThatWouldMakeItDecreaseAreLeftOut) {
  // (150, 90) would go back on B's axis after (100, 100): left out; equal instants once.
  const TimeMap map({{100, 100}, {150, 90}, {100, 100}, {200, 200}}, 300, 300);
  EXPECT_EQ(map.points(), 4u);  // 0, 100, 200, 300
  EXPECT_EQ(map.ToB(150), 150u);
}

TEST(TimeMapTest, WithoutPointsTheRunsAreStretchedFromStartToEnd) {
  const TimeMap map({}, 1000, 2000);
  EXPECT_EQ(map.ToB(250), 500u);
  EXPECT_EQ(map.ToA(2000), 1000u);
}

TEST(MergeRowsTest, IntervalsOfBothRunsOnAsAxis) {
  // A: 1 on [0, 100), 2 on [100, 200). B (twice as long): 1 on [0, 300), 3 on [300, 400).
  ListRow a({{0, 100, 1}, {100, 200, 2}});
  ListRow b({{0, 300, 1}, {300, 400, 3}});
  const TimeMap map({}, 200, 400);
  const DifferenceRow d = MergeRows(a, b, map, 0, 200, 200, 400);
  // B's 300 is A's 150: [0,100) 1|1, [100,150) 2|1, [150,200) 2|3.
  ASSERT_EQ(d.begin.size(), 3u);
  EXPECT_EQ(d.begin, (std::vector<model::Time>{0, 100, 150}));
  EXPECT_EQ(d.end, (std::vector<model::Time>{100, 150, 200}));
  EXPECT_EQ(d.a, (std::vector<double>{1, 2, 2}));
  EXPECT_EQ(d.b, (std::vector<double>{1, 1, 3}));
  const DifferenceMeans m = MeansOf(d);
  EXPECT_DOUBLE_EQ(m.a, 1.5);    // (100*1 + 100*2) / 200
  EXPECT_DOUBLE_EQ(m.b, 1.5);    // (150*1 + 50*3) / 200
  EXPECT_DOUBLE_EQ(m.diff, 0);
  EXPECT_DOUBLE_EQ(m.differs_s, 100);  // [100, 200)
}

TEST(MergeRowsTest, EqualNeighboursJoinAndInstantsAreLeftOut) {
  // A has a zero-length interval (a punctual value) at 50 and two equal neighbours.
  ListRow a({{0, 50, 4}, {50, 50, 9}, {50, 100, 4}});
  ListRow b({{0, 100, 4}});
  const TimeMap map({}, 100, 100);
  const DifferenceRow d = MergeRows(a, b, map, 0, 100, 100, 100);
  ASSERT_EQ(d.begin.size(), 1u);
  EXPECT_EQ(d.end[0], 100u);
  EXPECT_EQ(d.a[0], 4);
  EXPECT_EQ(MeansOf(d).differs_s, 0);
}

TEST(MergeRowsTest, APortionStartsInsideIntervals) {
  ListRow a({{0, 100, 1}, {100, 200, 2}});
  ListRow b({{0, 200, 5}});
  const TimeMap map({}, 200, 200);
  const DifferenceRow d = MergeRows(a, b, map, 50, 150, 200, 200);
  EXPECT_EQ(d.begin, (std::vector<model::Time>{50, 100}));
  EXPECT_EQ(d.end, (std::vector<model::Time>{100, 150}));
  EXPECT_EQ(d.b, (std::vector<double>{5, 5}));
}

TEST(DifferenceRowTest, DrawnAsDifferenceOrRatio) {
  DifferenceRow d{{0, 10}, {10, 20}, {4, 3}, {2, 0}};
  auto diff = MakeDifferenceRow(d, DifferenceOp::kDiff, 30);
  diff->Init(0);
  EXPECT_EQ(diff->current().value, 2);
  diff->Next();
  EXPECT_EQ(diff->current().value, 3);
  diff->Next();  // past the range: nothing drawn
  EXPECT_EQ(diff->current().end, 30u);
  EXPECT_TRUE(std::isnan(diff->current().value));
  auto ratio = MakeDifferenceRow(d, DifferenceOp::kRatio, 30);
  ratio->Init(15);
  EXPECT_TRUE(std::isnan(ratio->current().value));  // B is 0
  ratio->Init(5);
  EXPECT_EQ(ratio->current().value, 2);
}

}  // namespace
}  // namespace parallax::compare
