// Software counters against the real paramedir's outputs on epoch_2proc: MPI calls counted per
// 100 ms interval, globally, and per burst of at least 1 ms; the .pcf names each counter.

#include <gtest/gtest.h>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::Data;
using tools_test::ReadAll;

class SoftCountersOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SoftCountersOracleTest, MatchesParamedir) {
  const std::string oracle = Data("oracles/paramedir-tools/epoch_2proc/" + GetParam());
  auto steps = ReadToolXml(oracle + ".xml");
  ASSERT_TRUE(steps.ok()) << steps.status().ToString();
  ASSERT_EQ(steps.value()[0].kind, ToolStep::Kind::kSoftCounters);
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("epoch/epoch_2proc.prv.gz");
  run.output = dir / "out.prv";
  auto report = SoftwareCountersTrace(run, steps.value()[0].softcounters);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(ReadAll(run.output), ReadAll(oracle + ".prv.gz"));
  // The reference writes an empty .pcf for a .prv.gz input (README); these oracles come from
  // the uncompressed trace.
  EXPECT_EQ(ReadAll(dir / "out.pcf"), ReadAll(oracle + ".pcf"));
  EXPECT_EQ(ReadAll(dir / "out.row"), ReadAll(Data("epoch/epoch_2proc.row")));
}

INSTANTIATE_TEST_SUITE_P(Oracles, SoftCountersOracleTest,
                         ::testing::Values("sc.count_mpi", "sc.count_mpi.global",
                                           "sc.count_mpi.bystates"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '.') c = '_';
                           return s;
                         });

// A worked example: thread 1 runs [0,10) and [20,40), events of type 50000001 inside.
TEST(SoftCountersTest, AccumulatesAndKeepsEvents) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "in.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1)\n"
                       "1:1:1:1:1:0:10:1\n"
                       "2:1:1:1:1:5:7:4:9:1\n"
                       "2:1:1:1:1:8:7:6\n"
                       "1:1:1:1:1:10:20:3\n"
                       "1:1:1:1:1:20:40:1\n"
                       "2:1:1:1:1:30:7:1:9:0\n");
  SoftCountersOptions o;
  o.sampling_interval = 15;
  o.accum_types = {{7, 0, {}}};
  o.keep_types = {9};
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  ASSERT_TRUE(SoftwareCountersTrace(run, o).ok());
  std::string s = ReadAll(run.output);
  // Counters are written, before the state, at the start of a running burst that ends at
  // least 15 after the last write (not the first: it ends at 10; the second at 20 with 4 + 6),
  // and once more at the header's end - 10 = 90. State 3 is not copied.
  EXPECT_EQ(s.substr(s.find('\n') + 1),
            "1:1:1:1:1:0:10:1\n"
            "2:1:1:1:1:5:9:1\n"
            "2:0:1:1:1:20:7:10\n"
            "1:1:1:1:1:20:40:1\n"
            "2:1:1:1:1:30:9:0\n"
            "2:0:1:1:1:90:7:1\n");
}

TEST(SoftCountersTest, ZeroIntervalIsAnError) {
  SoftCountersOptions o;
  o.sampling_interval = 0;
  ToolRun run;
  run.input = Data("epoch/epoch_2proc.prv.gz");
  run.output = "/tmp/never_written.prv";
  auto r = SoftwareCountersTrace(run, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("sampling interval"), std::string::npos);
}

}  // namespace
}  // namespace parallax
