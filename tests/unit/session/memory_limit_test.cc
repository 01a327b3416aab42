// A request's memory limit (TimelineRequest/TextRequest/AnalyzeRequest/WindowRequest::
// memory_limit): what the request builds up (intervals, histogram cells, image pixels,
// communication lines) is charged as it grows, and the request fails with a limit Status once
// it passes the limit, instead of taking the machine's memory. A limit of 1 KiB is below what
// any of these requests needs on qsort_beo3 (thousands of intervals, a 1000-pixel image).

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
constexpr uint64_t kTiny = 1024;
constexpr uint64_t kAmple = uint64_t{1} << 30;

void ExpectMemoryLimit(const Status& s) {
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.limit()) << s.ToString();
  EXPECT_NE(s.message().find("needs more than its memory limit of 1.0 KiB"), std::string::npos) << s.ToString();
  EXPECT_NE(s.hint().find("shorter time range"), std::string::npos) << s.ToString();
}

TEST(MemoryLimit, TextView) {
  TextRequest r;
  r.cfg_path = kStatesCfg;
  r.memory_limit = kTiny;
  ExpectMemoryLimit(Qsort().Text(r).status());
  // An ample limit changes nothing.
  r.memory_limit = kAmple;
  auto limited = Qsort().Text(r);
  r.memory_limit = 0;
  auto free = Qsort().Text(r);
  ASSERT_TRUE(limited.ok() && free.ok());
  EXPECT_GT(free->intervals.size(), 40u);
  EXPECT_EQ(limited->intervals.size(), free->intervals.size());
  EXPECT_EQ(limited->events.size(), free->events.size());
  // A portion small enough fits in a small limit: the limit scales with what is asked for.
  r.memory_limit = 64 << 10;
  r.from = free->intervals[10].begin;
  r.to = free->intervals[12].end;
  auto part = Qsort().Text(r);
  ASSERT_TRUE(part.ok()) << part.status().ToString();
  EXPECT_EQ(part->intervals.size(), 3u);
}

TEST(MemoryLimit, WindowIntervals) {
  WindowRequest r;
  r.cfg_path = kStatesCfg;
  r.memory_limit = kTiny;
  ExpectMemoryLimit(EvaluateWindow(Qsort(), r).status());
  r.memory_limit = kAmple;
  auto limited = EvaluateWindow(Qsort(), r);
  r.memory_limit = 0;
  auto free = EvaluateWindow(Qsort(), r);
  ASSERT_TRUE(limited.ok() && free.ok());
  EXPECT_EQ(limited->begin, free->begin);
  EXPECT_EQ(limited->value, free->value);
}

TEST(MemoryLimit, Histogram) {
  AnalyzeRequest r;
  r.cfg_path = kProfileCfg;
  r.memory_limit = kTiny;
  ExpectMemoryLimit(Analyze(Qsort(), r).status());
  r.memory_limit = kAmple;
  auto limited = Analyze(Qsort(), r);
  r.memory_limit = 0;
  auto free = Analyze(Qsort(), r);
  ASSERT_TRUE(limited.ok() && free.ok());
  ASSERT_EQ(limited->size(), free->size());
  EXPECT_EQ(limited->back().planes[0].values, free->back().planes[0].values);
}

TEST(MemoryLimit, Timeline) {
  TimelineRequest r;
  r.cfg_path = kStatesCfg;
  r.memory_limit = kTiny;
  ExpectMemoryLimit(RenderTimeline(Qsort(), r).status());
  r.memory_limit = kAmple;
  auto limited = RenderTimeline(Qsort(), r);
  r.memory_limit = 0;
  auto free = RenderTimeline(Qsort(), r);
  ASSERT_TRUE(limited.ok() && free.ok());
  EXPECT_EQ(limited->front().data, free->front().data);
}

}  // namespace
}  // namespace parallax
