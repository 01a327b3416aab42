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

}  // namespace
}  // namespace parallax::render::testing
