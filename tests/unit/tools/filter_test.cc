// The filter against the real paramedir's output on epoch_2proc (all states, only MPI events of
// type 50000001, no communications), and worked examples of each selection.

#include <gtest/gtest.h>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::Data;
using tools_test::ReadAll;

const char* kSmall =
    "#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:50:1\n"
    "2:1:1:1:1:10:7:1:8:2:9:3\n"
    "3:1:1:1:1:20:21:2:1:2:1:30:31:64:5\n"
    "3:1:1:1:1:22:23:2:1:2:1:32:33:8:5\n"
    "1:2:1:2:1:0:5:2\n"
    "1:2:1:2:1:5:100:1\n"
    "2:2:1:2:1:40:8:0\n";

Result<ToolReport> RunSmall(const tools_test::ScratchDir& dir, const FilterOptions& o) {
  tools_test::WriteAll(dir / "in.prv", kSmall);
  tools_test::WriteAll(dir / "in.pcf", "STATES\n0 Idle\n1 Running\n2 Not created\n");
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  run.force = true;
  return FilterTrace(run, o);
}

std::string Body(const tools_test::ScratchDir& dir) {
  std::string s = ReadAll(dir / "out.prv");
  return s.substr(s.find('\n') + 1);
}

TEST(FilterTest, MatchesParamedirOnEpoch) {
  const std::string oracle = Data("oracles/paramedir-tools/epoch_2proc/filter.mpi50000001.states");
  auto steps = ReadToolXml(oracle + ".xml");
  ASSERT_TRUE(steps.ok()) << steps.status().ToString();
  ASSERT_EQ(steps.value()[0].kind, ToolStep::Kind::kFilter);
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("epoch/epoch_2proc.prv.gz");
  run.output = dir / "out.prv";
  auto report = FilterTrace(run, steps.value()[0].filter);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(ReadAll(run.output), ReadAll(oracle + ".prv.gz"));
  EXPECT_EQ(ReadAll(dir / "out.pcf"), ReadAll(Data("epoch/epoch_2proc.pcf")));
  EXPECT_EQ(ReadAll(dir / "out.row"), ReadAll(Data("epoch/epoch_2proc.row")));
}

TEST(FilterTest, KeepsStatesByNameAndMinimumDuration) {
  tools_test::ScratchDir dir;
  FilterOptions o;
  o.all_states = false;
  o.state_names = {"Running"};
  o.min_state_time = 50;
  o.keep_events = false;
  o.keep_comms = false;
  ASSERT_TRUE(RunSmall(dir, o).ok());
  EXPECT_EQ(Body(dir), "1:1:1:1:1:0:50:1\n1:2:1:2:1:5:100:1\n");
}

// A state that ends before it begins (real traces have them) has an unsigned duration in
// Paraver, longer than any minimum: kept, as the reference keeps it.
TEST(FilterTest, StateEndingBeforeItBeginsPassesAnyMinimum) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "in.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1),0\n"
                       "1:1:1:1:1:0:10:1\n"
                       "1:1:1:1:1:90:20:1\n");
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  FilterOptions o;
  o.min_state_time = 50;
  ASSERT_TRUE(FilterTrace(run, o).ok());
  // The header as Paraver's tools write it: no ",0" without communicator lines.
  EXPECT_EQ(ReadAll(run.output),
            "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:90:20:1\n");
}

TEST(FilterTest, KeepsSelectedPairsOfAnEventLine) {
  tools_test::ScratchDir dir;
  FilterOptions o;
  o.keep_states = false;
  o.keep_comms = false;
  o.types = {{8, 0, {}}, {9, 0, {3}}};
  ASSERT_TRUE(RunSmall(dir, o).ok());
  EXPECT_EQ(Body(dir), "2:1:1:1:1:10:8:2:9:3\n2:2:1:2:1:40:8:0\n");
}

TEST(FilterTest, DiscardsGivenTypesAndSmallMessages) {
  tools_test::ScratchDir dir;
  FilterOptions o;
  o.keep_states = false;
  o.discard_given_types = true;
  o.types = {{8, 9, {}}};
  o.min_comm_size = 10;
  ASSERT_TRUE(RunSmall(dir, o).ok());
  EXPECT_EQ(Body(dir), "2:1:1:1:1:10:7:1\n3:1:1:1:1:20:21:2:1:2:1:30:31:64:5\n");
}

TEST(FilterTest, UnknownStateNameIsAnError) {
  tools_test::ScratchDir dir;
  FilterOptions o;
  o.all_states = false;
  o.state_names = {"Sleeping"};
  auto r = RunSmall(dir, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("\"Sleeping\" is not in"), std::string::npos);
  EXPECT_FALSE(tools_test::Exists(dir / "out.prv"));
}

TEST(FilterTest, TypeThatNeverOccursIsReported) {
  tools_test::ScratchDir dir;
  FilterOptions o;
  o.types = {{12345, 0, {}}};
  auto r = RunSmall(dir, o);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r.value().notes.empty());
  EXPECT_NE(r.value().notes[0].find("none of the selected event types occurs"), std::string::npos);
}

}  // namespace
}  // namespace parallax
