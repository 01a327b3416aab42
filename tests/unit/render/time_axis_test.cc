// The time axis under the timeline: at any zoom, consecutive tick labels differ (enough decimals
// for the tick step), in the window's time unit.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

#include "src/render/font.h"
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

DrawList Axis(const Loaded& t, model::TimeUnit unit, model::Time from, model::Time to, uint32_t width = 1000,
              bool labels = true) {
  semantic::WindowSpec w = Window("State As Is");
  w.unit = unit;
  TimelineOptions o;
  o.width = width;
  o.labels = labels;
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

// Absolute nanosecond times of today are about 1.7e18, past 2^53: a range a few ns long has
// ends that are equal as doubles. The tick step came out 0 and the tick loop never ended (it
// filled memory with ticks); now the ticks are exact and the loop is bounded. A watchdog ends
// the test binary when the axis still spins.
TEST(TimeAxis, NanosecondsNearTodayKeepTicksApartAndEnd) {
  Loaded t = Load(
      "#Paraver (x):1700000000000001000_ns:1(1):1:1(1:1)\n"
      "1:1:1:1:1:1700000000000000000:1700000000000000500:1\n"
      "1:1:1:1:1:1700000000000000500:1700000000000001000:2\n");
  auto axis = std::async(std::launch::async, [&] {
    return std::make_pair(TickLabels(Axis(t, model::TimeUnit::kNs, 1700000000000000499, 1700000000000000502)),
                          TickLabels(Axis(t, model::TimeUnit::kUs, 1700000000000000000, 1700000000000000003)));
  });
  if (axis.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    std::fprintf(stderr, "TimeAxis: the axis of a 3 ns range at 1.7e18 ns is still being drawn after 20 s\n");
    std::_Exit(1);
  }
  auto [ns, us] = axis.get();
  EXPECT_EQ(ns, (std::vector<std::string>{"1,700,000,000,000,000,499", "1,700,000,000,000,000,500",
                                          "1,700,000,000,000,000,501", "1,700,000,000,000,000,502"}));
  // In microseconds the 3 ns are 0.003 us: whole units there (no decimals beyond 1e15).
  EXPECT_EQ(us, (std::vector<std::string>{"1,700,000,000,000,000"}));
}

// Labels never touch: in a narrow window (side by side, 160 pixels and up) a deep zoom at large
// times made ticks closer than their labels ("1,000,000,000" over "1,000,000,050" at 160
// pixels), and without row labels the first label began left of the image. Every text's box
// (the bitmap font's width) is inside the image and at least a pixel away from every other.
TEST(TimeAxis, LabelsNeverOverlapAndStayInside) {
  Loaded t = Load(kTrace);
  const std::vector<std::pair<model::Time, model::Time>> ranges = {
      {0, 10000000000}, {1000000000, 1000000050}, {1000000000, 1000005000}, {5000000000, 5000123457},
      {999999, 1000003}, {9999999000, 10000000000}};
  for (uint32_t width : {160u, 200u, 240u, 320u, 500u, 800u})
    for (auto [from, to] : ranges)
      for (model::TimeUnit unit : {model::TimeUnit::kNs, model::TimeUnit::kUs, model::TimeUnit::kMs})
        for (bool labels : {true, false}) {
          DrawList l = Axis(t, unit, from, to, width, labels);
          struct Box {
            int32_t x0, y0, x1, y1;
            std::string text;
          };
          std::vector<Box> boxes;
          for (const Text& x : l.texts) {
            const int32_t w = TextWidth(x.text);
            const int32_t x0 = x.anchor == Anchor::kLeft ? x.x : x.anchor == Anchor::kRight ? x.x - w : x.x - w / 2;
            boxes.push_back({x0, x.y, x0 + w, x.y + kGlyphHeight, x.text});
          }
          const std::string where = std::to_string(width) + " px, " + std::to_string(from) + " .. " + std::to_string(to);
          for (size_t i = 0; i < boxes.size(); ++i) {
            EXPECT_GE(boxes[i].x0, 0) << boxes[i].text << " at " << where;
            EXPECT_LE(boxes[i].x1, l.width) << boxes[i].text << " at " << where;
            for (size_t j = i + 1; j < boxes.size(); ++j) {
              const Box &a = boxes[i], &b = boxes[j];
              const bool apart = a.x1 + 1 < b.x0 || b.x1 + 1 < a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
              EXPECT_TRUE(apart) << "'" << a.text << "' and '" << b.text << "' touch at " << where;
            }
          }
          EXPECT_GE(TickLabels(l).size(), 1u) << where;
        }
}

}  // namespace
}  // namespace parallax::render::testing
