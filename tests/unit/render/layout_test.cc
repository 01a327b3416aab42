// The layout the UI receives with each frame: any_non_zero tells a window of zeros only (a cfg
// whose events never occur in the trace) from one that drew values.

#include <gtest/gtest.h>

#include "src/render/encoders.h"
#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

// State 0 on [0,20), then state 3 on [20,40).
const char* kTrace =
    "#Paraver (x):40_ns:1(1):1:1(1:1)\n"
    "1:1:1:1:1:0:20:0\n"
    "1:1:1:1:1:20:40:3\n";

DrawList List(const Loaded& t, model::Time from, model::Time to) {
  TimelineOptions o = Bare(40, 10);
  o.from = from;
  o.to = to;
  auto ev = semantic::WindowEvaluator::Create({&t.prv.header, &t.prv.store, nullptr}, {Window("State As Is")}, 0);
  EXPECT_TRUE(ev.ok()) << ev.status().ToString();
  auto list = RenderWindow(*ev.value(), t.Context(), o);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  return list.value();
}

TEST(Layout, TellsWhetherSomeValueIsNotZero) {
  Loaded t = Load(kTrace);
  DrawList zeros = List(t, 0, 20);
  EXPECT_FALSE(zeros.any_non_zero);
  EXPECT_NE(EncodeLayoutJson(zeros).find("\"any_non_zero\":false,"), std::string::npos) << EncodeLayoutJson(zeros);
  DrawList values = List(t, 10, 40);
  EXPECT_TRUE(values.any_non_zero);
  EXPECT_NE(EncodeLayoutJson(values).find("\"any_non_zero\":true,"), std::string::npos);
}

// Four threads over [0,40): on [0,20) threads 1-3 in state 1, thread 4 in state 5; on [20,40)
// threads 1, 2 and 4 in state 5, thread 3 in state 1.
const char* kFour =
    "#Paraver (x):40_ns:1(4):1:4(1:1,1:1,1:1,1:1)\n"
    "1:1:1:1:1:0:20:1\n1:1:1:1:1:20:40:5\n"
    "1:2:1:2:1:0:20:1\n1:2:1:2:1:20:40:5\n"
    "1:3:1:3:1:0:20:1\n1:3:1:3:1:20:40:1\n"
    "1:4:1:4:1:0:20:5\n1:4:1:4:1:20:40:5\n";

// A summary row (a collapsed group): one row where its first object is met, labelled as asked,
// saying how many objects it holds, drawn with the most frequent state of its objects in each
// column (code colours) or their mean (a gradient).
TEST(Layout, SummaryRowsDrawTheDominantValueOfTheirObjects) {
  Loaded t = Load(kFour);
  TimelineOptions o = Bare(40, 40);
  o.objects = {0, 1, 2, 3};
  o.summaries.push_back({{1, 2, 3}, "TASK 1.2-4 (3)"});
  auto ev = semantic::WindowEvaluator::Create({&t.prv.header, &t.prv.store, nullptr}, {Window("State As Is")}, 0);
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  auto list = RenderWindow(*ev.value(), t.Context(), o);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->rows.size(), 2u);
  EXPECT_EQ(list->rows[0].object, 0u);
  EXPECT_EQ(list->rows[0].summarised, 0u);
  EXPECT_EQ(list->rows[1].label, "TASK 1.2-4 (3)");
  EXPECT_EQ(list->rows[1].object, 1u);
  EXPECT_EQ(list->rows[1].summarised, 3u);
  EXPECT_NE(EncodeLayoutJson(*list).find("[\"TASK 1.2-4 (3)\","), std::string::npos) << EncodeLayoutJson(*list);
  EXPECT_NE(EncodeLayoutJson(*list).find(",1,3]"), std::string::npos) << EncodeLayoutJson(*list);
  // The summary row's colour in each half: state 1 (two of three) then state 5 (two of three),
  // whatever the window's object draw mode (maximum would give 5 on both halves).
  Image img = Rasterize(*list);
  const int32_t y = list->rows[1].y + list->rows[1].h / 2;
  Image first = Render(t, Window("State As Is"), [&] { TimelineOptions x = Bare(40, 40); x.objects = {0}; return x; }());
  const auto at = [](const Image& i, int32_t x, int32_t yy) { return i.At(x, yy); };
  EXPECT_EQ(at(img, kAreaX + 5, y), at(first, kAreaX + 5, kAreaY + 5)) << "state 1 dominates the first half";
  EXPECT_NE(at(img, kAreaX + 30, y), at(first, kAreaX + 5, kAreaY + 5)) << "state 5 dominates the second half";
  // The same objects without a summary: four rows.
  o.summaries.clear();
  auto plain = RenderWindow(*ev.value(), t.Context(), o);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->rows.size(), 4u);
}

}  // namespace
}  // namespace parallax::render::testing
