// Highlight ranges (TimelineOptions::highlight): values outside the range take no part in the
// draw modes and columns left without a value are drawn in the background colour.

#include <gtest/gtest.h>

#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

// One thread: state 1 on [0,10), 2 on [10,20), 3 on [20,30), 2 on [30,40).
const char* kTrace =
    "#Paraver (x):40_ns:1(1):1:1(1:1)\n"
    "1:1:1:1:1:0:10:1\n"
    "1:1:1:1:1:10:20:2\n"
    "1:1:1:1:1:20:30:3\n"
    "1:1:1:1:1:30:40:2\n";

Rgb Pixel(const Image& img, int32_t column) { return img.At(kAreaX + column, kAreaY + 2); }

TEST(Highlight, CodeColoursOnlyForValuesInRange) {
  Loaded t = Load(kTrace);
  TimelineOptions o = Bare(40, 10);
  Image plain = Render(t, Window("State As Is"), o);
  const Rgb c1 = Pixel(plain, 5), c2 = Pixel(plain, 15), c3 = Pixel(plain, 25);
  ASSERT_NE(c1, c2);
  ASSERT_NE(c2, c3);
  const Rgb bg = o.prefs.background;
  o.highlight = Highlight{2, 2};
  Image img = Render(t, Window("State As Is"), o);
  for (int32_t j = 0; j < 40; ++j)
    EXPECT_EQ(Pixel(img, j), (j / 10) % 2 == 1 ? c2 : bg) << "column " << j;
  o.highlight = Highlight{1, 3};  // [1, 3)
  img = Render(t, Window("State As Is"), o);
  for (int32_t j = 0; j < 40; ++j)
    EXPECT_EQ(Pixel(img, j), j < 10 ? c1 : j < 20 || j >= 30 ? c2 : bg) << "column " << j;
}

// Out-of-range values are dropped before the time draw mode: a column holding 1 and 2 drawn
// with "maximum" shows 1 when only 1 is highlighted.
TEST(Highlight, BeforeTheDrawMode) {
  Loaded t = Load(kTrace);
  TimelineOptions o = Bare(40, 10);
  Image plain = Render(t, Window("State As Is"), o);
  const Rgb c1 = Pixel(plain, 5), c2 = Pixel(plain, 15);
  o.width = 4 + 1 + kAreaX + 12;  // 4 columns of 8.75 ns from 5: [5, 13.75) holds 1 and 2
  o.from = 5;
  o.to = 40;
  o.time_mode = DrawMode::kMaximum;
  EXPECT_EQ(Pixel(Render(t, Window("State As Is"), o), 0), c2);
  o.highlight = Highlight{1, 1};
  Image img = Render(t, Window("State As Is"), o);
  EXPECT_EQ(Pixel(img, 0), c1);
  EXPECT_EQ(Pixel(img, 1), o.prefs.background);
}

// In gradient modes too the values left out are the background, not the gradient's zero.
TEST(Highlight, GradientBackground) {
  Loaded t = Load(kTrace);
  TimelineOptions o = Bare(40, 10);
  o.color = ColorMode::kGradient;
  o.min_y = 0;
  o.max_y = 3;
  o.highlight = Highlight{3, 3};
  Image img = Render(t, Window("State As Is"), o);
  EXPECT_EQ(Pixel(img, 5), o.prefs.background);
  EXPECT_NE(Pixel(img, 25), o.prefs.background);
}

}  // namespace
}  // namespace parallax::render::testing
