// The time axis under the timeline: at any zoom, consecutive tick labels differ (enough decimals
// for the tick step), in the window's time unit.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

// One thread, 10 s long (in ns), two states.
const char* kTrace =
    "#Paraver (x):10000000000_ns:1(1):1:1(1:1)\n"
    "1:1:1:1:1:0:5000000000:1\n"
    "1:1:1:1:1:5000000000:10000000000:2\n";

// The tick labels of the axis (the texts on the line below the area, left to right), without
// the unit name drawn under them.
std::vector<std::string> TickLabels(const DrawList& l) {
  std::vector<std::string> out;
  const int32_t y = l.area_y + l.area_h + 2 + 6;
  for (const Text& t : l.texts)
    if (t.y == y) out.push_back(t.text);
  return out;
}

DrawList Axis(const Loaded& t, model::TimeUnit unit, model::Time from, model::Time to) {
  semantic::WindowSpec w = Window("State As Is");
  w.unit = unit;
  TimelineOptions o;
  o.width = 1000;
  o.from = from;
  o.to = to;
  o.threads = 1;
  o.legend = false;
  auto ev = semantic::WindowEvaluator::Create({&t.prv.header, &t.prv.store, nullptr}, {w}, 0);
  EXPECT_TRUE(ev.ok()) << ev.status().ToString();
  auto list = RenderWindow(*ev.value(), t.Context(), o);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  return list.value();
}

void ExpectDistinctTicks(const std::vector<std::string>& ticks) {
  ASSERT_GE(ticks.size(), 3u);
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_NE(ticks[i], ticks[i - 1]) << "tick " << i;
}

// 500 ns around 5 s, shown in milliseconds: a tick every 0.0001 ms. Six significant digits
// ("5000") made every label the same.
TEST(TimeAxis, DeepZoomInACoarserUnitKeepsTicksApart) {
  Loaded t = Load(kTrace);
  auto ticks = TickLabels(Axis(t, model::TimeUnit::kMs, 5000000000, 5000000500));
  ExpectDistinctTicks(ticks);
  EXPECT_EQ(ticks[0], "5,000.0000");
  EXPECT_EQ(ticks[1], "5,000.0001");
}

TEST(TimeAxis, SecondsWithNanosecondTicks) {
  Loaded t = Load(kTrace);
  auto ticks = TickLabels(Axis(t, model::TimeUnit::kS, 7123456000, 7123456040));
  ExpectDistinctTicks(ticks);
  EXPECT_EQ(ticks[0], "7.123456000");
  EXPECT_EQ(ticks[1], "7.123456005");
}

// Whole steps keep integer labels with thousands grouping.
TEST(TimeAxis, WholeStepsAreIntegers) {
  Loaded t = Load(kTrace);
  auto ticks = TickLabels(Axis(t, model::TimeUnit::kNs, 5000000000, 5000000050));
  ExpectDistinctTicks(ticks);
  EXPECT_EQ(ticks[0], "5,000,000,000");
  EXPECT_EQ(ticks[1], "5,000,000,010");
}

}  // namespace
}  // namespace parallax::render::testing
