// parallax clocks: worked examples by hand (the report, a pure offset, a clock jump the linear
// model cannot follow, a causal cycle), the recovery of injected offsets and drifts on a
// synthetic trace with known true times, and bad input.

#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::ReadAll;
using tools_test::ScratchDir;
using tools_test::WriteAll;

const char* kHeader = "#Paraver (01/01/2024 at 10:00):3000_ns:1(2):1:2(1:1,1:1)\n";

ClockCorrection Correct(const ScratchDir& dir, const std::string& body,
                        ClockCorrectOptions o = {}) {
  WriteAll(dir / "in.prv", kHeader + body);
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  run.force = true;
  auto r = CorrectClocks(run, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : ClockCorrection{};
}

std::string Body(const ScratchDir& dir) {
  std::string s = ReadAll(dir / "out.prv");
  return s.substr(s.find('\n') + 1);
}

TEST(ClocksTest, ReportsBackwardMessagesByPair) {
  ScratchDir dir;
  WriteAll(dir / "in.prv", std::string(kHeader) +
                               "3:1:1:1:1:10:12:2:1:2:1:5:8:64:1\n"      // 1->2: 4 and 5 back
                               "3:1:1:1:1:20:21:2:1:2:1:30:31:64:1\n"    // fine
                               "3:1:1:1:1:22:30:2:1:2:1:25:27:64:1\n"    // 1->2: physical 3
                               "3:2:1:2:1:40:40:1:1:1:1:38:39:8:1\n");   // 2->1: 1 and 2 back
  auto r = CheckClocks(dir / "in.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r.value().messages, 4u);
  EXPECT_EQ(r.value().physical, 3u);
  EXPECT_EQ(r.value().logical, 2u);
  ASSERT_EQ(r.value().pairs.size(), 2u);
  const ClockPair& a = r.value().pairs[0];
  EXPECT_EQ(std::make_pair(a.send_task, a.recv_task), std::make_pair(1u, 2u));
  EXPECT_EQ(a.messages, 3u);
  EXPECT_EQ(a.physical, 2u);
  EXPECT_EQ(a.physical_max, 4u);
  EXPECT_EQ(a.physical_total, 7u);
  EXPECT_EQ(a.logical, 1u);
  EXPECT_EQ(a.logical_max, 5u);
  EXPECT_EQ(a.logical_total, 5u);
  const ClockPair& b = r.value().pairs[1];
  EXPECT_EQ(std::make_pair(b.send_task, b.recv_task), std::make_pair(2u, 1u));
  EXPECT_EQ(b.physical_max, 1u);
  EXPECT_EQ(b.logical_max, 2u);
}

// Task 2's clock is 100 behind task 1's, latency 20 each way. Its points: a message to it
// (send 1000, receive 920) needs offset >= 80, one from it (send 1900, receive 2020) needs
// offset <= 120: the middle is 100, and no drift is told by two messages.
TEST(ClocksTest, RecoversAPureOffsetAndMovesEveryRecordOfTheTask) {
  ScratchDir dir;
  auto c = Correct(dir,
                   "1:1:1:1:1:0:3000:1\n"
                   "1:2:1:2:1:0:900:1\n"
                   "3:1:1:1:1:1000:1000:2:1:2:1:910:920:8:1\n"
                   "2:2:1:2:1:1500:7:3\n"
                   "3:2:1:2:1:1900:1900:1:1:1:1:2010:2020:8:1\n");
  EXPECT_EQ(c.before.physical, 1u);
  EXPECT_EQ(c.after.physical, 0u);
  EXPECT_EQ(c.after.logical, 0u);
  EXPECT_EQ(c.reference_task, 1u);
  ASSERT_EQ(c.tasks.size(), 2u);
  EXPECT_FALSE(c.tasks[0].fitted);
  EXPECT_TRUE(c.tasks[1].fitted);
  EXPECT_NEAR(c.tasks[1].offset, 100, 1e-6);
  EXPECT_NEAR(c.tasks[1].drift, 0, 1e-12);
  EXPECT_NEAR(c.tasks[1].margin, 20, 1e-6);
  EXPECT_EQ(c.shift, 0u);
  EXPECT_EQ(c.receives_moved, 0u);
  EXPECT_EQ(Body(dir),
            "1:1:1:1:1:0:3000:1\n"
            "1:2:1:2:1:100:1000:1\n"
            "3:1:1:1:1:1000:1000:2:1:2:1:1010:1020:8:1\n"
            "2:2:1:2:1:1600:7:3\n"
            "3:2:1:2:1:2000:2000:1:1:1:1:2010:2020:8:1\n");
  EXPECT_EQ(CheckClocks(dir / "out.prv").value().physical, 0u);
}

// A negative offset moves the whole trace so that no time is negative.
TEST(ClocksTest, ShiftsTheTraceWhenATaskIsAhead) {
  ScratchDir dir;
  auto c = Correct(dir,
                   "3:1:1:1:1:10:10:2:1:2:1:100:100:8:1\n"  // task 2 is 100 ahead:
                   "3:2:1:2:1:150:150:1:1:1:1:60:60:8:1\n");  // offset in [-90, -90]
  EXPECT_NEAR(c.tasks[1].offset, -90, 1e-6);
  EXPECT_EQ(c.shift, 90u);
  EXPECT_EQ(Body(dir),
            "3:1:1:1:1:100:100:2:1:2:1:100:100:8:1\n"
            "3:2:1:2:1:150:150:1:1:1:1:150:150:8:1\n");
}

// Task 2's clock jumps by 60 between its messages: no line with a drift under 1000 ppm fits,
// and the logical clock moves what is left, keeping task 2's records in order.
TEST(ClocksTest, LogicalClockFixesAClockJumpAndKeepsThreadOrder) {
  ScratchDir dir;
  auto c = Correct(dir,
                   "3:1:1:1:1:100:100:2:1:2:1:150:150:8:1\n"
                   "3:2:1:2:1:160:160:1:1:1:1:130:130:8:1\n"
                   "2:2:1:2:1:200:1:1\n"
                   "3:1:1:1:1:300:300:2:1:2:1:290:290:8:1\n"
                   "2:2:1:2:1:295:1:2\n"
                   "3:2:1:2:1:400:400:1:1:1:1:440:440:8:1\n");
  EXPECT_LT(c.tasks[1].margin, 0);
  EXPECT_EQ(c.after.physical, 0u);
  EXPECT_GE(c.receives_moved, 1u);
  EXPECT_EQ(c.unresolved, 0u);
  // Task 2's own times, in file order, still increase.
  std::string body = Body(dir);
  std::vector<uint64_t> t2;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t end = body.find('\n', pos);
    std::string line = body.substr(pos, end - pos);
    pos = end + 1;
    std::vector<std::string> f;
    size_t p = 0;
    while (true) {
      size_t q = line.find(':', p);
      f.push_back(line.substr(p, q - p));
      if (q == std::string::npos) break;
      p = q + 1;
    }
    if (f[0] == "2" && f[3] == "2") t2.push_back(std::stoull(f[5]));
    if (f[0] == "3" && f[3] == "2") t2.push_back(std::stoull(f[6]));
    if (f[0] == "3" && f[9] == "2") t2.push_back(std::stoull(f[12]));
  }
  // Task 2's records are in the file in its local order (150, 160, 200, 290, 295, 400).
  ASSERT_EQ(t2.size(), 6u);
  for (size_t i = 1; i < t2.size(); ++i) EXPECT_LE(t2[i - 1], t2[i]) << i;
  EXPECT_EQ(CheckClocks(dir / "out.prv").value().physical, 0u);
}

// Each task receives the other's message before sending its own: a causal cycle no forward
// clock can fix. It is counted, not looped on.
TEST(ClocksTest, CausalCycleIsReportedNotLoopedOn) {
  ScratchDir dir;
  auto c = Correct(dir,
                   "3:1:1:1:1:100:100:2:1:2:1:90:90:8:1\n"
                   "3:2:1:2:1:95:95:1:1:1:1:97:97:8:1\n");
  EXPECT_EQ(c.unresolved, 1u);
  ASSERT_FALSE(c.io.notes.empty());
  EXPECT_NE(c.io.notes.back().find("causal cycle"), std::string::npos);
}

// A synthetic run of 4 tasks over one second, 3000 messages with latencies of 50 to 150 ns,
// written with per-task clocks local = true * (1 + drift) + offset. The fit must give back
// corrected(local(t)) = t + shift within 100 ns over the whole second, every drift within
// 0.05 ppm, and leave no backward message.
TEST(ClocksTest, RecoversInjectedOffsetsAndDrifts) {
  ScratchDir dir;
  const double offset[4] = {0, 5000, -3000, 1000000};
  const double drift[4] = {0, 20e-6, -30e-6, 50e-6};
  auto local = [&](int task, double t) {
    return static_cast<uint64_t>(std::llround(t * (1 + drift[task]) + offset[task] + 10000));
  };
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> who(0, 3);
  std::uniform_real_distribution<double> when(0, 1e9), lat(50, 150);
  std::vector<double> sends;
  for (int i = 0; i < 3000; ++i) sends.push_back(when(rng));
  std::sort(sends.begin(), sends.end());
  std::string body;
  for (int t = 0; t < 4; ++t) {
    body += "1:" + std::to_string(t + 1) + ":1:" + std::to_string(t + 1) + ":1:" +
            std::to_string(local(t, 0)) + ":" + std::to_string(local(t, 1.001e9)) + ":1\n";
  }
  for (double ts : sends) {
    const int a = who(rng);
    int b = who(rng);
    while (b == a) b = who(rng);
    const double tr = ts + lat(rng);
    const std::string s = std::to_string(local(a, ts)), r = std::to_string(local(b, tr));
    body += "2:" + std::to_string(a + 1) + ":1:" + std::to_string(a + 1) + ":1:" + s + ":5:1\n";
    body += "3:" + std::to_string(a + 1) + ":1:" + std::to_string(a + 1) + ":1:" + s + ":" + s +
            ":" + std::to_string(b + 1) + ":1:" + std::to_string(b + 1) + ":1:" + r + ":" + r +
            ":64:1\n";
  }
  WriteAll(dir / "in.prv",
           "#Paraver (01/01/2024 at 10:00):1002000000_ns:1(4):1:4(1:1,1:1,1:1,1:1)\n" + body);
  auto before = CheckClocks(dir / "in.prv");
  ASSERT_TRUE(before.ok());
  EXPECT_GT(before.value().physical, 1000u);
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  auto r = CorrectClocks(run, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ClockCorrection& c = r.value();
  ASSERT_EQ(c.tasks.size(), 4u);
  for (int t = 0; t < 4; ++t) {
    const TaskClock& k = c.tasks[t];
    EXPECT_NEAR(k.drift, -drift[t] / (1 + drift[t]), 0.05e-6) << "task " << t + 1;
    for (double x : {0.0, 2.5e8, 5e8, 7.5e8, 1e9}) {
      const double l = static_cast<double>(local(t, x));
      const double corrected = l + k.offset + k.drift * l + static_cast<double>(c.shift);
      EXPECT_NEAR(corrected, x + 10000 + static_cast<double>(c.shift), 100)
          << "task " << t + 1 << " at " << x;
    }
  }
  EXPECT_EQ(c.after.physical, 0u);
  EXPECT_EQ(c.after.messages, 3000u);
  EXPECT_EQ(c.unresolved, 0u);
  auto after = CheckClocks(dir / "out.prv");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after.value().physical, 0u);
  EXPECT_EQ(after.value().logical, 0u);
}

TEST(ClocksTest, BadInputIsALocatedError) {
  ScratchDir dir;
  WriteAll(dir / "in.prv", std::string(kHeader) + "3:1:1:1:1:10:12:2:1:2:1:5:x:64:1\n");
  auto r = CheckClocks(dir / "in.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("in.prv:2:27"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("physical receive time"), std::string::npos);
  auto missing = CheckClocks(dir / "nope.prv");
  EXPECT_FALSE(missing.ok());
  // An existing output is not replaced without force, and nothing is left behind on error.
  WriteAll(dir / "good.prv", std::string(kHeader) + "3:1:1:1:1:10:12:2:1:2:1:5:8:64:1\n");
  WriteAll(dir / "out.prv", "mine");
  ToolRun run;
  run.input = dir / "good.prv";
  run.output = dir / "out.prv";
  auto c = CorrectClocks(run, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().ToString().find("exists"), std::string::npos);
  EXPECT_EQ(ReadAll(dir / "out.prv"), "mine");
  run.input = dir / "in.prv";
  run.output = dir / "new.prv";
  EXPECT_FALSE(CorrectClocks(run, {}).ok());
  EXPECT_FALSE(tools_test::Exists(dir / "new.prv"));
}

// The prv fuzz corpus (heads of real traces, and hostile ones): each run ends with a result or
// an error, and a corrected trace has no backward message outside a causal cycle.
TEST(ClocksTest, FuzzCorpusEndsCleanly) {
  const std::string corpus = tools_test::Data("../fuzz/corpus/prv");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    ++files;
    const std::string path = entry.path().string();
    auto report = CheckClocks(path);
    ScratchDir dir;
    ToolRun run;
    run.input = path;
    run.output = dir / "out.prv";
    auto c = CorrectClocks(run, {});
    EXPECT_EQ(report.ok(), c.ok()) << path;
    if (!c.ok()) continue;
    EXPECT_EQ(c.value().before.physical, report.value().physical) << path;
    if (c.value().unresolved == 0) EXPECT_EQ(c.value().after.physical, 0u) << path;
    auto again = CheckClocks(dir / "out.prv");
    ASSERT_TRUE(again.ok()) << path << ": " << again.status().ToString();
    EXPECT_EQ(again.value().physical, c.value().after.physical) << path;
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace parallax
