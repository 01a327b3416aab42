// Numbers in cfgs (issue 11): every decimal number Paraver can print reads, including ±DBL_MAX
// written with "%f" (309 digits before the point) and runs of digits beyond the double range.

#include <cfloat>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "src/cfg/cfg_tokens.h"

namespace parallax::cfg {
namespace {

double Parse(const std::string& text) {
  double d = -1;
  EXPECT_TRUE(ParseDouble(text, &d)) << text.substr(0, 40);
  return d;
}

TEST(CfgNumbers, DblMaxAsParaverPrintsItOnEveryPlatform) {
  // glibc prints the exact decimal expansion; other C libraries print 17 digits and zeros.
  std::string exact =
      "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558"
      "632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245"
      "490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168"
      "738177180919299881250404026184124858368.000000000000";
  std::string zeros = "17976931348623157" + std::string(292, '0') + ".000000000000";
  EXPECT_EQ(Parse(exact), DBL_MAX);
  EXPECT_EQ(Parse("-" + exact), -DBL_MAX);
  EXPECT_EQ(Parse(zeros), DBL_MAX);
  EXPECT_EQ(Parse("-" + zeros), -DBL_MAX);
}

TEST(CfgNumbers, DigitsBeyondTheDoubleRangeSaturate) {
  // 1.7976931348623159e308 is above DBL_MAX by more than half a unit in the last place.
  EXPECT_EQ(Parse("17976931348623159" + std::string(292, '0')), DBL_MAX);
  EXPECT_EQ(Parse(std::string(1024, '9') + ".5"), DBL_MAX);
  EXPECT_EQ(Parse("-" + std::string(1024, '9')), -DBL_MAX);
  EXPECT_EQ(Parse("0.000001e400"), DBL_MAX);
  EXPECT_EQ(Parse("+1e99999999999999999999"), DBL_MAX);
}

TEST(CfgNumbers, DigitsBelowTheDoubleRangeReadAsZero) {
  double d = Parse("-0." + std::string(1024, '0') + "1");
  EXPECT_EQ(d, 0.0);
  EXPECT_TRUE(std::signbit(d));
  EXPECT_EQ(Parse("0." + std::string(1024, '0')), 0.0);
  EXPECT_EQ(Parse("1e-400"), 0.0);
  EXPECT_EQ(Parse("123456789e-99999999999999999999"), 0.0);
}

TEST(CfgNumbers, OrdinaryNumbersAndNonNumbers) {
  EXPECT_EQ(Parse(" 1000000000000000000.000000000000 "), 1e18);
  EXPECT_EQ(Parse("+2.5"), 2.5);
  EXPECT_EQ(Parse(std::string(1000, '0') + "1"), 1.0);
  double d = 0;
  for (const char* bad : {"", " ", "1x", "1e18x", "--1", "+", "1 2", "0x10", "1.2.3"})
    EXPECT_FALSE(ParseDouble(bad, &d)) << bad;
}

}  // namespace
}  // namespace parallax::cfg
