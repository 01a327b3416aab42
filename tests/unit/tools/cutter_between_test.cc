// The event-driven cut (--between TYPE[:VALUE] --occurrences A..B) on a small trace whose
// answers are worked out by hand: two threads, a loop marker 1000 (value 1 opens an iteration,
// 0 closes it) at
//   thread 1.1: 100 (1), 200 (0), 300 (1), 500 (1)
//   thread 2.1: 150 (1), 350 (0), 400 (1), 600 (1)

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::ReadAll;

const char* const kLoopTrace =
    "#Paraver (01/01/2024 at 10:00):1000_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:1000:1\n"
    "1:2:1:2:1:0:1000:1\n"
    "2:1:1:1:1:100:1000:1\n"
    "2:2:1:2:1:150:1000:1\n"
    "2:1:1:1:1:200:1000:0\n"
    "2:1:1:1:1:300:1000:1\n"
    "2:2:1:2:1:350:1000:0\n"
    "2:2:1:2:1:400:1000:1\n"
    "2:1:1:1:1:500:1000:1\n"
    "2:2:1:2:1:600:1000:1\n";

class BetweenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tools_test::WriteAll(dir_ / "loop.prv", kLoopTrace);
    run_.input = dir_ / "loop.prv";
    run_.provenance_date = "20240102030405";
  }
  Result<ToolReport> Cut(const CutOptions& o, const std::string& out) {
    run_.output = dir_ / out;
    return CutTrace(run_, o);
  }
  static CutOptions Between(uint64_t first, uint64_t last) {
    CutOptions o;
    o.by_event = true;
    o.event_type = 1000;
    o.first_occurrence = first;
    o.last_occurrence = last;
    return o;
  }
  tools_test::ScratchDir dir_;
  ToolRun run_;
};

// Occurrences 2..3 (values != 0): thread 1.1 at 300 and 500, thread 2.1 at 400 and 600, so the
// cut is [300, 600]: states clipped, times shifted by 300, the two open markers closed at the
// end (300 after the shift).
TEST_F(BetweenTest, SecondToThirdOccurrence) {
  auto r = Cut(Between(2, 3), "b.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string text = tools_test::NormaliseProvenance(ReadAll(dir_ / "b.prv"));
  std::string body = text.substr(text.find('\n') + 1);
  EXPECT_EQ(body,
            "#DATE:CUTTER:ORIGINAL:\"PATH\":300:300:600\n"
            "1:1:1:1:1:0:300:1\n"
            "1:2:1:2:1:0:300:1\n"
            "2:1:1:1:1:0:1000:1\n"
            "2:2:1:2:1:50:1000:0\n"
            "2:2:1:2:1:100:1000:1\n"
            "2:1:1:1:1:200:1000:1\n"
            "2:2:1:2:1:300:1000:1\n"
            "# Appending events with value 0\n"
            "2:1:1:1:1:300:1000:0\n"
            "2:2:1:2:1:300:1000:0\n");
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "#Paraver (01/01/2024 at 10:00):300_ns:1(2):1:2(1:1,1:1)");
  // The same as the by-time cut between those times.
  CutOptions by_time;
  by_time.begin = 300;
  by_time.end = 600;
  ASSERT_TRUE(Cut(by_time, "t.prv").ok());
  EXPECT_EQ(ReadAll(dir_ / "t.prv"), ReadAll(dir_ / "b.prv"));
}

TEST_F(BetweenTest, DefaultsAndValuesAndTasks) {
  // No range: first to last occurrence, [100, 600].
  ASSERT_TRUE(Cut(Between(1, 0), "all.prv").ok());
  EXPECT_NE(ReadAll(dir_ / "all.prv").find(":100:100:600\n"), std::string::npos);
  // TYPE:0, the closing markers: once per thread, at 200 and 350.
  CutOptions closes = Between(1, 1);
  closes.has_event_value = true;
  closes.event_value = 0;
  ASSERT_TRUE(Cut(closes, "closes.prv").ok());
  EXPECT_NE(ReadAll(dir_ / "closes.prv").find(":200:200:350\n"), std::string::npos);
  // Only task 2 counts: occurrences 1..2 are 150 and 400.
  CutOptions task2 = Between(1, 2);
  task2.tasks = {{2, 2}};
  ASSERT_TRUE(Cut(task2, "task2.prv").ok());
  EXPECT_NE(ReadAll(dir_ / "task2.prv").find(":150:150:400\n"), std::string::npos);
}

TEST_F(BetweenTest, ErrorsNameTheProblemAndLeaveNothing) {
  CutOptions unknown = Between(1, 2);
  unknown.event_type = 999;
  auto r = Cut(unknown, "u.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("event type 999 never occurs"), std::string::npos)
      << r.status().message();
  r = Cut(Between(2, 4), "far.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("at most 3 times on a thread, fewer than the 4 asked"),
            std::string::npos)
      << r.status().message();
  r = Cut(Between(3, 2), "rev.prv");
  ASSERT_FALSE(r.ok());
  CutOptions value = Between(1, 1);
  value.has_event_value = true;
  value.event_value = 7;
  r = Cut(value, "v.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("event 1000:7 never occurs"), std::string::npos);
  for (const char* name : {"u.prv", "far.prv", "rev.prv", "v.prv"})
    EXPECT_FALSE(tools_test::Exists(dir_ / name));
}

}  // namespace
}  // namespace parallax
