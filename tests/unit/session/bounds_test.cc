// Bounded resources through the core API, as the server reaches them with a posted cfg_text:
// derived-window DAGs, histogram sizes computed from automatic scales, object lists. Every case
// must come back as a Status (or a result), never as an exception or a huge allocation.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "include/parallax/render.h"
#include "include/parallax/trace.h"

namespace parallax {
namespace {

// qsort_beo3: 4 threads (one per task), states and events of types 4e7 and 5e7.
const Trace& Qsort() {
  static const std::unique_ptr<Trace> trace = [] {
    auto t = Trace::Open(std::string(PARALLAX_TEST_DATA) + "/qsort_beo3/qsort_beo3.prv");
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t.value()) : nullptr;
  }();
  return *trace;
}

constexpr const char* kHead = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n\n";

std::string Single(const std::string& name, const std::string& function) {
  return "window_name " + name +
         "\nwindow_type single\nwindow_level thread\nwindow_units Nanoseconds\n" +
         "window_selected_functions { 1, { {thread, " + function + "} } }\n";
}

std::string Composed(const std::string& name, int p0, int p1) {
  return "window_name " + name + "\nwindow_type composed\nwindow_identifiers " +
         std::to_string(p0) + " " + std::to_string(p1) + "\nwindow_operation add\n";
}

std::vector<TextInterval> Dump(const std::string& cfg, const std::string& window) {
  TextRequest req;
  req.cfg_text = cfg;
  req.window = window;
  req.object_index = 1;
  auto view = Qsort().Text(req);
  EXPECT_TRUE(view.ok()) << view.status().ToString();
  return view.ok() ? view->intervals : std::vector<TextInterval>{};
}

// 32 windows each the sum of the previous one with itself: 2^32 times the states, computed
// once per window (before: 2^32 row cursors and the OOM killer).
TEST(BoundsTest, DiamondOfDerivedWindowsThroughCfgText) {
  std::string cfg = std::string(kHead) + Single("w0", "State As Is");
  for (int k = 1; k <= 32; ++k) cfg += Composed("w" + std::to_string(k), k, k);
  auto base = Dump(cfg, "w0");
  auto top = Dump(cfg, "w32");
  ASSERT_FALSE(base.empty());
  ASSERT_EQ(top.size(), base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(top[i].begin, base[i].begin);
    EXPECT_EQ(top[i].end, base[i].end);
    EXPECT_EQ(top[i].value, std::ldexp(base[i].value, 32)) << i;
  }
}

// A chain of 40 derived windows (refused as "a cycle" by the old depth limit of 32).
TEST(BoundsTest, LongChainThroughCfgText) {
  std::string cfg = std::string(kHead) + Single("w0", "State As Is");
  for (int k = 1; k < 40; ++k) cfg += Composed("w" + std::to_string(k), k, 1);
  auto base = Dump(cfg, "w0");
  auto top = Dump(cfg, "w39");
  ASSERT_EQ(top.size(), base.size());
  for (size_t i = 0; i < base.size(); ++i) EXPECT_EQ(top[i].value, 40 * base[i].value) << i;
}

Status AnalyzeError(const std::string& cfg) {
  AnalyzeRequest req;
  req.cfg_text = cfg;
  auto r = Analyze(Qsort(), req);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Status::Ok() : r.status();
}

// Automatic scale with a fixed delta of 1e-9 over the state values: billions of columns, known
// only once the values are scanned. The error names the histogram's line.
TEST(BoundsTest, AutomaticColumnsAreLimited) {
  std::string cfg = std::string(kHead) + Single("states", "State As Is") +
                    "< NEW ANALYZER2D >\nAnalyzer2D.Name: fine\nAnalyzer2D.ControlWindow: 1\n"
                    "Analyzer2D.UseFixedDelta: True\nAnalyzer2D.Delta: 0.000000001\n";
  Status s = AnalyzeError(cfg);
  EXPECT_EQ(s.where().file, "cfg");
  EXPECT_EQ(s.where().line, 10u);
  EXPECT_EQ(
      s.message(),
      "histogram 'fine': 4294967295 columns, more than the limit of 1000000 (Analyzer2D.Minimum, "
      "Analyzer2D.Maximum, Analyzer2D.Delta)");
  EXPECT_FALSE(s.hint().empty());
}

// A 3D control window in code colour over event types (4e7..5e7): one plane per value between.
TEST(BoundsTest, AutomaticPlanesAreLimited) {
  std::string cfg = std::string(kHead) + Single("states", "State As Is") +
                    Single("types", "Last Evt Type") +
                    "< NEW ANALYZER2D >\nAnalyzer2D.Name: cube\nAnalyzer2D.ControlWindow: 1\n"
                    "Analyzer2D.3D_ControlWindow: 2\n";
  Status s = AnalyzeError(cfg);
  EXPECT_EQ(s.where().line, 15u);
  EXPECT_NE(s.message().find("histogram 'cube': "), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(" planes, more than the limit of 100000"), std::string::npos)
      << s.message();
}

// Maximum 1e30 (an undefined conversion before) and 1e16 (rows x 2^31 doubles before).
TEST(BoundsTest, FixedColumnsFromCfgText) {
  for (const char* max : {"1e30", "10000000000000000"}) {
    std::string cfg =
        std::string(kHead) + Single("states", "State As Is") +
        "< NEW ANALYZER2D >\nAnalyzer2D.Name: h\nAnalyzer2D.ControlWindow: 1\n"
        "Analyzer2D.ComputeYScale: False\nAnalyzer2D.Minimum: 0\nAnalyzer2D.Delta: 1\n"
        "Analyzer2D.Maximum: " +
        std::string(max) + "\n";
    Status s = AnalyzeError(cfg);
    EXPECT_EQ(s.message(),
              "histogram not read: Analyzer2D.Maximum: histogram 'h' has 4294967295 columns, "
              "more than the limit of 1000000")
        << s.ToString();
    EXPECT_EQ(s.where().line, 16u);
  }
}

// Found by cfg_fuzz: a derived state window with factors 1e30 gives values of 1e60 and more, and
// the textual view looked up their state label through an undefined double-to-int64 conversion
// (UBSan in the asan-ubsan and fuzz builds). Values beyond the labels have none.
TEST(BoundsTest, HugeValuesInTheTextView) {
  std::string cfg = std::string(kHead) + Single("s", "State As Is") + Composed("big", 1, 1) +
                    "window_factors 1e30 1e30\n";
  cfg.replace(cfg.find("window_operation add"), 20, "window_operation product");
  auto base = Dump(cfg, "s");
  auto big = Dump(cfg, "big");
  ASSERT_EQ(big.size(), base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(big[i].value, (base[i].value * 1e30) * (base[i].value * 1e30)) << i;
    if (big[i].value != 0) EXPECT_EQ(big[i].label, "") << i;
  }
}

// `--objects 1-4294967295` looped on a uint32 until memory ran out.
TEST(BoundsTest, ObjectListsAreCheckedAgainstTheLevel) {
  TimelineRequest req;
  req.thread_function = "State As Is";
  req.format = "json";
  req.width = 400;
  req.objects = "1-4294967295";
  auto r = RenderTimeline(Qsort(), req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "object list '1-4294967295': object 4294967295 does not exist, the window's level "
            "THREAD has 4 objects");
  EXPECT_EQ(r.status().hint(), "write objects between 1 and 4");
  for (const char* bad : {"5", "0", "2-1", "1-x", "4294967296", "1,,2"}) {
    req.objects = bad;
    EXPECT_FALSE(RenderTimeline(Qsort(), req).ok()) << bad;
  }
  req.objects = "1-2,4";
  auto ok = RenderTimeline(Qsort(), req);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
}

// Image sizes are bounded for every front end, not only the server's requests: a height of
// 2147483648 wrapped to a negative int32 and came back as an empty 83-byte image (other values
// ran the layout over 2^31 pixel rows).
TEST(Bounds, ImageSizesHaveAMaximum) {
  auto render = [](uint32_t width, uint32_t height, uint32_t pixel_size = 0) {
    TimelineRequest r;
    r.width = width;
    r.height = height;
    r.pixel_size = pixel_size;
    return RenderTimeline(Qsort(), r);
  };
  auto message = [](const auto& r) { return r.ok() ? std::string("accepted") : r.status().message(); };
  EXPECT_EQ(message(render(1000, 2147483648u)), "image height 2147483648 is beyond the maximum of 65535 pixels");
  EXPECT_EQ(message(render(4000000000u, 0)), "image width 4000000000 is beyond the maximum of 65535 pixels");
  EXPECT_EQ(message(render(65535, 65535)), "an image of 65535 x 65535 pixels is beyond the maximum of 268435456 pixels");
  EXPECT_EQ(message(render(1000, 0, 4000000000u)), "column width (pixel size) 4000000000 is not between 1 and 64 pixels");
  auto r = render(1000, 2147483648u);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().hint().find("up to 65535 pixels"), std::string::npos) << r.status().hint();
  EXPECT_TRUE(render(65535, 300).ok());
}

}  // namespace
}  // namespace parallax
