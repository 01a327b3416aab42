// Bounded resources in cfg reading: windows per cfg, histogram sizes, numbers that do not fit
// an integer (docs/compatibility.md, "Limits").

#include <gtest/gtest.h>

#include <string>

#include "src/cfg/cfg_reader.h"
#include "src/cfg/cfg_writer.h"
#include "src/semantic/window_spec.h"

namespace parallax::cfg {
namespace {

constexpr const char* kHead = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n\n";

struct Models {
  model::ProcessModel process;
  model::ResourceModel resources{std::vector<uint32_t>{4}};
  Models() { process.AddAppl(std::vector<std::pair<uint32_t, uint32_t>>(4, {1, 1})); }
  CfgContext Context() const { return CfgContext{&process, &resources, nullptr, nullptr}; }
};

std::string Single(const std::string& name) {
  return "window_name " + name + "\nwindow_type single\nwindow_level thread\n";
}

// A 2D histogram on window 1 with fixed columns from the given keys.
std::string Histogram(const std::string& keys) {
  return std::string(kHead) + Single("w") +
         "< NEW ANALYZER2D >\nAnalyzer2D.Name: h\nAnalyzer2D.ControlWindow: "
         "1\nAnalyzer2D.ComputeYScale: False\n" +
         keys;
}

TEST(CfgBoundsTest, WindowsPerCfg) {
  std::string text = kHead;
  for (size_t k = 0; k < semantic::kMaxWindows; ++k) text += Single("w" + std::to_string(k));
  Models m;
  auto ok = ParseCfg(text, "many.cfg", m.Context());
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->windows.size(), semantic::kMaxWindows);
  text += Single("one too many");
  auto r = ParseCfg(text, "many.cfg", m.Context());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "window_type: more than 512 windows in one cfg");
  EXPECT_EQ(r.status().where().file, "many.cfg");
  EXPECT_EQ(r.status().where().line, 4u + 3 * semantic::kMaxWindows + 2);  // the 513th window_type
  EXPECT_FALSE(r.status().hint().empty());
}

// Maximum 1e16 with Delta 1 asked for 2^31 columns per row (and 1e30 was an undefined cast).
TEST(CfgBoundsTest, HistogramColumnsAreLimited) {
  Models m;
  for (const char* max : {"10000000000000000", "1e30"}) {
    auto r = ParseCfg(
        Histogram(std::string("Analyzer2D.Minimum: 0\nAnalyzer2D.Delta: 1\nAnalyzer2D.Maximum: ") +
                  max + "\n"),
        "big.cfg", m.Context());
    ASSERT_TRUE(r.ok()) << r.status().ToString();  // the windows remain (cfg-format.md §2 rule 6)
    EXPECT_TRUE(r->histograms.empty());
    EXPECT_NE(r->histogram_error.find(
                  "big.cfg:14:1: error: Analyzer2D.Maximum: histogram 'h' has 4294967295 "
                  "columns, more than the limit of 1000000"),
              std::string::npos)
        << r->histogram_error;
    EXPECT_NE(r->histogram_error.find("hint: use a larger Analyzer2D.Delta"), std::string::npos);
  }
  // The limit itself is fine; Delta after Maximum is the line named.
  auto at = ParseCfg(
      Histogram("Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 999999\nAnalyzer2D.Delta: 1\n"),
      "ok.cfg", m.Context());
  ASSERT_TRUE(at.ok());
  ASSERT_EQ(at->histograms.size(), 1u);
  auto over = ParseCfg(
      Histogram("Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 1\nAnalyzer2D.Delta: 0.0000001\n"),
      "d.cfg", m.Context());
  ASSERT_TRUE(over.ok());
  EXPECT_NE(over->histogram_error.find(
                "d.cfg:14:1: error: Analyzer2D.Delta: histogram 'h' has 10000000 columns"),
            std::string::npos)
      << over->histogram_error;
  auto num = ParseCfg(Histogram("Analyzer2D.NumColumns: 4000000000\n"), "n.cfg", m.Context());
  ASSERT_TRUE(num.ok());
  EXPECT_NE(
      num->histogram_error.find("Analyzer2D.NumColumns: histogram 'h' has 4000000000 columns"),
      std::string::npos)
      << num->histogram_error;
}

TEST(CfgBoundsTest, HistogramPlanesAndCellsAreLimited) {
  Models m;
  std::string three_d =
      "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 10\nAnalyzer2D.Delta: 1\n"
      "Analyzer2D.3D_ControlWindow: 1\nAnalyzer3D.ComputeYScale: False\n"
      "Analyzer2D.3D_Minimum: 0\nAnalyzer2D.3D_Delta: 1\nAnalyzer2D.3D_Maximum: 1e12\n";
  auto planes = ParseCfg(Histogram(three_d), "p.cfg", m.Context());
  ASSERT_TRUE(planes.ok());
  EXPECT_NE(planes->histogram_error.find(
                "p.cfg:19:1: error: Analyzer2D.3D_Maximum: histogram 'h' has 4294967295 "
                "planes, more than the limit of 100000"),
            std::string::npos)
      << planes->histogram_error;
  // 4 rows x 1,000,000 columns x 20 planes = 80,000,000 cells.
  std::string cells =
      "Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 999999\nAnalyzer2D.Delta: 1\n"
      "Analyzer2D.3D_ControlWindow: 1\nAnalyzer3D.ComputeYScale: False\n"
      "Analyzer2D.3D_Minimum: 0\nAnalyzer2D.3D_Delta: 1\nAnalyzer2D.3D_Maximum: 19\n";
  auto c = ParseCfg(Histogram(cells), "c.cfg", m.Context());
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->histogram_error.find(
                "c.cfg:19:1: error: Analyzer2D.3D_Maximum: histogram 'h' has 4 rows x 1000000 "
                "columns x 20 planes = 80000000 cells, more than the limit of 50000000"),
            std::string::npos)
      << c->histogram_error;
  // A histogram followed by another is checked when the next one begins: only the bad one goes.
  std::string two =
      Histogram("Analyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 3\nAnalyzer2D.Delta: 1\n") +
      "< NEW ANALYZER2D >\nAnalyzer2D.Name: big\nAnalyzer2D.ControlWindow: 1\n"
      "Analyzer2D.ComputeYScale: False\nAnalyzer2D.Maximum: 1e16\n"
      "< NEW ANALYZER2D >\nAnalyzer2D.Name: never read\nAnalyzer2D.ControlWindow: 1\n";
  auto t = ParseCfg(two, "two.cfg", m.Context());
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->histograms.size(), 1u);
  EXPECT_EQ(t->histograms[0].spec.name, "h");
  EXPECT_NE(t->histogram_error.find("two.cfg:19:1: error: Analyzer2D.Maximum: histogram 'big'"),
            std::string::npos)
      << t->histogram_error;
}

// A filter value of 6e28 was an undefined float-to-integer conversion in the integer check and in
// the writer; it is an integer (as a double) and is kept and written with all its digits.
TEST(CfgBoundsTest, HugeFilterValues) {
  Models m;
  std::string text = std::string(kHead) + Single("w") +
                     "window_filter_module tag_msg 1 60000000000000000000000000000\n"
                     "window_filter_module evt_type 1 60000000000000000000000000000\n";
  auto r = ParseCfg(text, "f.cfg", m.Context());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->windows[0].filter.tag.values.size(), 1u);
  EXPECT_EQ(r->windows[0].filter.tag.values[0], 6e28);
  // Written with every digit of the double (6e28 is 60000000000000001896764932096 as a double),
  // so it reads back as the same value.
  std::string written = WriteCfg(r.value());
  EXPECT_NE(written.find("tag_msg 1 60000000000000001896764932096\n"), std::string::npos)
      << written;
  auto again = ParseCfg(written, "f2.cfg", m.Context());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->windows[0].filter.tag.values, r->windows[0].filter.tag.values);
  EXPECT_EQ(again->windows[0].filter.event_type.values, r->windows[0].filter.event_type.values);
  auto nonint = ParseCfg(std::string(kHead) + Single("w") + "window_filter_module tag_msg 1 1.5\n",
                         "f.cfg", m.Context());
  ASSERT_FALSE(nonint.ok());
  EXPECT_EQ(nonint.status().message(), "window_filter_module: expected an integer, found '1.5'");
}

}  // namespace
}  // namespace parallax::cfg
