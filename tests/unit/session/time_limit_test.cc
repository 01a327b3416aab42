// A request's time limit (TimelineRequest/TextRequest/AnalyzeRequest/WindowRequest::time_limit):
// the evaluation stops with a limit Status once the time is over. A limit of a nanosecond is
// over before the first row is positioned, whatever the machine's speed, so these tests do not
// depend on timing.

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/render.h"
#include "include/parallax/trace.h"
#include "include/parallax/window.h"

namespace parallax {
namespace {

const Trace& Qsort() {
  static const std::unique_ptr<Trace> trace = [] {
    auto t = Trace::Open(std::string(PARALLAX_TEST_DATA) + "/qsort_beo3/qsort_beo3.prv");
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t.value()) : nullptr;
  }();
  return *trace;
}

const std::string kStatesCfg = std::string(PARALLAX_TEST_DATA) + "/cfg/bsc/General/views/state_as_is.cfg";
const std::string kProfileCfg =
    std::string(PARALLAX_TEST_DATA) + "/cfg/bsc/General/analysis/2dh_useful_duration.cfg";
constexpr double kOver = 1e-9;  // seconds: over before any row moves

void ExpectTimeLimit(const Status& s) {
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.limit()) << s.ToString();
  EXPECT_NE(s.message().find("took more than its limit of 1e-09 s"), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.hint().find("shorter time range"), std::string::npos) << s.ToString();
}

TEST(TimeLimit, TimelineStopsWithALimitError) {
  TimelineRequest r;
  r.cfg_path = kStatesCfg;
  r.time_limit = kOver;
  ExpectTimeLimit(RenderTimeline(Qsort(), r).status());
  r.time_limit = 0;  // no limit: the same request succeeds
  EXPECT_TRUE(RenderTimeline(Qsort(), r).ok());
}

TEST(TimeLimit, TextViewStopsWithALimitError) {
  TextRequest r;
  r.cfg_path = kStatesCfg;
  r.time_limit = kOver;
  ExpectTimeLimit(Qsort().Text(r).status());
  r.time_limit = 3600;  // a limit far away changes nothing
  EXPECT_TRUE(Qsort().Text(r).ok());
}

TEST(TimeLimit, HistogramStopsWithALimitError) {
  AnalyzeRequest r;
  r.cfg_path = kProfileCfg;
  r.time_limit = kOver;
  ExpectTimeLimit(Analyze(Qsort(), r).status());
  r.time_limit = 0;
  auto ok = Analyze(Qsort(), r);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_FALSE(ok->empty());
}

TEST(TimeLimit, WindowIntervalsStopWithALimitError) {
  WindowRequest r;
  r.cfg_path = kStatesCfg;
  r.time_limit = kOver;
  ExpectTimeLimit(EvaluateWindow(Qsort(), r).status());
}

TEST(TimeLimit, InputErrorsAreNotLimits) {
  TimelineRequest r;
  r.cfg_text = "not a cfg";
  r.time_limit = kOver;
  Status s = RenderTimeline(Qsort(), r).status();
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(s.limit()) << s.ToString();
}

}  // namespace
}  // namespace parallax
