// Code colours, the expanded palette, gradients (rendering.md §4) and their pixels.

#include <gtest/gtest.h>

#include "src/render/palette.h"
#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

ColorScheme Scheme(double min_y, double max_y) {
  ColorScheme s;
  s.palette = ExpandedPalette(Rgb{0, 0, 0});
  s.min_y = min_y;
  s.max_y = max_y;
  return s;
}

TEST(Palette, ExpansionMatchesSpec) {
  std::vector<Rgb> p = ExpandedPalette(Rgb{0, 0, 0});
  EXPECT_EQ(p.size(), 13717u);
  EXPECT_EQ(p[1], Rgb(0, 0, 255));
  EXPECT_EQ(p[48], Rgb(0, 138, 119));
  const Rgb expected[] = {{1, 24, 255}, {0, 255, 255}, {0, 24, 255}, {0, 25, 255},   {180, 0, 0},
                          {1, 255, 0},  {236, 0, 0},   {1, 162, 0},  {101, 100, 177}};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(p[49 + i], expected[i]) << 49 + i;
  EXPECT_EQ(p[76], Rgb(0, 46, 137));
  EXPECT_EQ(p[84], Rgb(0, 75, 75));
  EXPECT_EQ(p[99], Rgb(235, 1, 0));
}

// The whole expansion, for backgrounds that make conflicts (black: dark colours; white and grey:
// light and middle ones), as a hash of every colour in order: the cyclic search of the
// conflicts may be made faster, never different.
uint64_t HashOf(const std::vector<Rgb>& p) {
  uint64_t h = 1469598103934665603ull;
  for (Rgb c : p)
    for (uint8_t x : {c.r, c.g, c.b}) h = (h ^ x) * 1099511628211ull;
  return h;
}

TEST(Palette, WholeExpansionsStayTheSame) {
  // Recorded from the step-by-step search (rendering.md §4.1) before blue's similar interval
  // was skipped whole: 1.8 s for the four, 15 ms after.
  EXPECT_EQ(HashOf(ExpandedPalette(Rgb{0, 0, 0})), 3695830908210121934u);
  EXPECT_EQ(HashOf(ExpandedPalette(Rgb{255, 255, 255})), 5067450771041501603u);
  EXPECT_EQ(HashOf(ExpandedPalette(Rgb{127, 127, 127})), 10164796341757397985u);
  EXPECT_EQ(HashOf(ExpandedPalette(Rgb{30, 200, 90})), 11346110690821222899u);
}

TEST(Palette, PcfStatesColorOverrides) {
  model::PcfCatalog pcf;
  pcf.states_color.push_back({1, Rgb{10, 20, 30}, {}});
  pcf.Finalize();
  EXPECT_EQ(TracePalette(Rgb{0, 0, 0}, &pcf)[1], Rgb(10, 20, 30));
}

// The colour-blind palette: Okabe and Ito's eight colours for values 1..8, then their lighter
// and darker shades, repeated; value 0 the background; no entry equal to the background.
TEST(Palette, ColourBlindCodesAndGradient) {
  std::vector<Rgb> p = ColourBlindPalette(Rgb{0, 0, 0});
  ASSERT_GT(p.size(), 10000u);
  EXPECT_EQ(p[0], Rgb(0, 0, 0));
  EXPECT_EQ(p[1], Rgb(230, 159, 0));    // orange
  EXPECT_EQ(p[2], Rgb(86, 180, 233));   // sky blue
  EXPECT_EQ(p[5], Rgb(0, 114, 178));    // blue
  EXPECT_EQ(p[9], Rgb(242, 207, 127));  // orange, lighter
  EXPECT_EQ(p[17], Rgb(115, 79, 0));    // orange, darker
  EXPECT_EQ(p[25], p[1]);               // 24 shades, repeated
  for (size_t i = 1; i < 100; ++i) EXPECT_FALSE(p[i] == Rgb(0, 0, 0)) << i;
  std::vector<Rgb> g = ColourBlindGradient();
  ASSERT_EQ(g.size(), 5u);
  EXPECT_EQ(g.front(), Rgb(68, 1, 84));
  EXPECT_EQ(g.back(), Rgb(253, 231, 37));
  // Lighter and lighter along the gradient: read apart in grey too.
  for (size_t i = 1; i < g.size(); ++i) EXPECT_GT(Luminance(g[i]), Luminance(g[i - 1])) << i;
}

TEST(CodeColor, SpecExamples) {
  ColorScheme s = Scheme(0, 18);
  EXPECT_EQ(CodeColor(s, 1), Rgb(0, 0, 255));
  EXPECT_EQ(CodeColor(s, 3), Rgb(255, 0, 0));
  EXPECT_EQ(CodeColor(s, 3.9), Rgb(255, 0, 0));
  EXPECT_EQ(CodeColor(s, 0), Rgb(0, 0, 0));
  EXPECT_EQ(CodeColor(s, 25), Rgb(0, 0, 0));
  EXPECT_EQ(CodeColor(s, -1), Rgb(0, 0, 0));
  s.prefs.use_color_zero = false;
  EXPECT_EQ(CodeColor(s, 0), Rgb(117, 195, 255));
}

TEST(Gradient, SpecExamples) {
  ColorScheme s = Scheme(0, 100);
  EXPECT_EQ(GradientColor(s, 0, false), Rgb(0, 255, 0));
  EXPECT_EQ(GradientColor(s, 50, false), Rgb(0, 127, 127));
  EXPECT_EQ(GradientColor(s, 100, false), Rgb(0, 0, 255));
  EXPECT_EQ(GradientColor(s, 150, false), Rgb(255, 146, 24));
  EXPECT_EQ(GradientColor(s, 0, true), Rgb(0, 0, 0));
  s.min_y = 10;
  EXPECT_EQ(GradientColor(s, 5, false), Rgb(207, 207, 68));
  s = Scheme(0, 100);
  s.gradient = GradientFn::kSteps;
  EXPECT_EQ(GradientColor(s, 57, false), Rgb(0, 127, 127));
  EXPECT_EQ(AlternativeGradientColor(Scheme(0, 100), 100), Rgb(255, 0, 0));
  EXPECT_EQ(AlternativeGradientColor(Scheme(0, 100), 50), Rgb(255, 255, 0));
}

// Values 0, 50, 100, 150, 57 in columns 0..4 of a [0, 100] window.
const char* kValues =
    "#Paraver (x):100_ns:1(1):1:1(1:1)\n"
    "2:1:1:1:1:0:10:0\n2:1:1:1:1:10:10:50\n2:1:1:1:1:20:10:100\n2:1:1:1:1:30:10:150\n2:1:1:1:1:40:"
    "10:57\n";

std::vector<Rgb> Row(ColorMode mode, bool fit = false) {
  const Loaded t = Load(kValues);
  TimelineOptions o = Bare(10, 8);
  o.time_mode = DrawMode::kLast;
  o.color = mode;
  o.min_y = 0;
  o.max_y = 100;
  o.fit_scale = fit;
  Image img = Render(t, Window("Last Evt Val"), o);
  std::vector<Rgb> out;
  for (int32_t j = 0; j < 5; ++j) out.push_back(img.At(kAreaX + j, kAreaY + 1));
  return out;
}

TEST(Gradient, Pixels) {
  EXPECT_EQ(
      Row(ColorMode::kGradient),
      (std::vector<Rgb>{{0, 255, 0}, {0, 127, 127}, {0, 0, 255}, {255, 146, 24}, {0, 109, 145}}));
  EXPECT_EQ(Row(ColorMode::kNullGradient)[0], Rgb(0, 0, 0));
  // Fitted: [50, 150]; 0 is below the minimum.
  EXPECT_EQ(
      Row(ColorMode::kGradient, true),
      (std::vector<Rgb>{{207, 207, 68}, {0, 255, 0}, {0, 127, 127}, {0, 0, 255}, {0, 237, 17}}));
}

TEST(CodeColor, PixelsWithWhiteBackground) {
  const Loaded t = Load(kValues);
  TimelineOptions o = Bare(10, 8);
  o.prefs.background = Rgb{255, 255, 255};
  o.max_y = 18;
  Image img = Render(t, Window("Last Evt Val"), o);
  EXPECT_EQ(img.At(0, 0), Rgb(255, 255, 255));
  EXPECT_EQ(img.At(kAreaX, kAreaY), Rgb(0, 0, 0));      // value 0: colour zero
  EXPECT_EQ(img.At(kAreaX + 1, kAreaY), Rgb(0, 0, 0));  // 50 > max: colour zero
}

TEST(FunctionLine, HeightFollowsValue) {
  const Loaded t = Load(kValues);
  TimelineOptions o = Bare(10, 11);  // band 9 pixels tall (gap 2)
  o.time_mode = DrawMode::kLast;
  o.color = ColorMode::kFunctionLine;
  o.max_y = 100;
  Image img = Render(t, Window("Last Evt Val"), o);
  const int32_t bottom = kAreaY + 8;
  EXPECT_EQ(img.At(kAreaX, bottom), Rgb(255, 255, 255));          // 0: bottom
  EXPECT_EQ(img.At(kAreaX + 2, bottom - 8), Rgb(255, 255, 255));  // 100: top
  EXPECT_EQ(img.At(kAreaX + 1, bottom - 4), Rgb(255, 255, 255));  // 50: middle
}

}  // namespace
}  // namespace parallax::render::testing
