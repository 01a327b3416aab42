// The cutter against the real paramedir's outputs (tests/data/oracles/paramedir-tools): the 16
// by-time cases on qsort_beo3 and the two cuts of epoch_2proc, each driven by the XML file the
// reference read, identical after normalising the provenance line's date and path.

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::Data;
using tools_test::NormaliseProvenance;
using tools_test::ReadAll;

CutOptions CutFromXml(const std::string& xml) {
  auto steps = ReadToolXml(xml);
  EXPECT_TRUE(steps.ok()) << steps.status().ToString();
  EXPECT_EQ(steps.value().size(), 1u);
  EXPECT_EQ(steps.value()[0].kind, ToolStep::Kind::kCut);
  return steps.value()[0].cut;
}

// Cuts to DIR/out.prv.gz and then DIR/out.prv: a plain output is cut in one pass when it can,
// a compressed one always in two; both must equal the reference's output (the second run
// replaces the first's .pcf and .row).
void CutBothWays(ToolRun run, const tools_test::ScratchDir& dir, const CutOptions& options,
                 const std::string& oracle) {
  run.force = true;
  for (const char* out : {"out.prv.gz", "out.prv"}) {
    run.output = dir / out;
    auto report = CutTrace(run, options);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    EXPECT_EQ(NormaliseProvenance(ReadAll(run.output)), NormaliseProvenance(ReadAll(oracle)))
        << out;
  }
}

class QsortCutterTest : public ::testing::TestWithParam<std::string> {};

TEST_P(QsortCutterTest, MatchesParamedir) {
  const std::string name = GetParam();
  const std::string oracle = Data("oracles/paramedir-tools/qsort_beo3/" + name);
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  CutBothWays(run, dir, CutFromXml(oracle + ".xml"), oracle + ".prv");
  // The reference copies the .pcf unchanged (every oracle .pcf equals the input's).
  EXPECT_EQ(ReadAll(dir / "out.pcf"), ReadAll(Data("qsort_beo3/qsort_beo3.pcf")));
  EXPECT_FALSE(tools_test::Exists(dir / "out.row"));  // the input has none
}

std::vector<std::string> QsortCases() {
  std::vector<std::string> names;
  for (int o = 0; o < 2; ++o)
    for (int b = 0; b < 2; ++b)
      for (int f = 0; f < 2; ++f)
        for (int l = 0; l < 2; ++l)
          names.push_back("cut.bytime.orig-" + std::to_string(o) + ".brk-" + std::to_string(b) +
                          ".rmfirst-" + std::to_string(f) + ".rmlast-" + std::to_string(l));
  return names;
}

INSTANTIATE_TEST_SUITE_P(Oracles, QsortCutterTest, ::testing::ValuesIn(QsortCases()),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '.' || c == '-') c = '_';
                           return s;
                         });

class EpochCutterTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EpochCutterTest, MatchesParamedir) {
  const std::string oracle = Data("oracles/paramedir-tools/epoch_2proc/" + GetParam());
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("epoch/epoch_2proc.prv.gz");
  CutBothWays(run, dir, CutFromXml(oracle + ".xml"), oracle + ".prv.gz");
  EXPECT_EQ(ReadAll(dir / "out.pcf"), ReadAll(Data("epoch/epoch_2proc.pcf")));
  EXPECT_EQ(ReadAll(dir / "out.row"), ReadAll(Data("epoch/epoch_2proc.row")));
}

INSTANTIATE_TEST_SUITE_P(Oracles, EpochCutterTest,
                         ::testing::Values("cut.bytime.mid20.orig-0", "cut.bytime.mid20.orig-1"),
                         [](const auto& info) {
                           return info.param == "cut.bytime.mid20.orig-0" ? "Shifted"
                                                                          : "OriginalTime";
                         });

TEST(CutterTest, ProvenanceLineNamesInputAndLimits) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  run.output = dir / "out.prv";
  run.provenance_date = "20240102030405";
  // Breaking states (the default) clips the first states at the begin: the offset is the begin.
  CutOptions o;
  o.begin = 106933;
  o.end = 107202;
  ASSERT_TRUE(CutTrace(run, o).ok());
  std::string text = ReadAll(run.output);
  EXPECT_NE(text.find("\n#20240102030405:CUTTER:ORIGINAL:\"/"), std::string::npos);
  EXPECT_NE(text.find("qsort_beo3.prv\":106933:106933:107202\n"), std::string::npos);
}

// The one-pass cut guesses the shift (the first written record's begin time) and the header's
// length (its end time from the cut's end); when a guess fails it cuts again in two passes.
// Worked by hand: the whole of each trace, states broken at the limits (the default).
TEST(CutterTest, FailedGuessesCutAgainInTwoPasses) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.provenance_date = "20240102030405";
  CutOptions whole;
  whole.by_time = false;
  whole.begin_percent = 0;
  whole.end_percent = 100;
  // The second line begins before the first: the shift is 10, not 20.
  tools_test::WriteAll(dir / "late.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)\n"
                       "1:1:1:1:1:20:50:1\n"
                       "2:2:1:2:1:10:7:1\n"
                       "1:2:1:2:1:30:100:1\n");
  run.input = dir / "late.prv";
  for (const char* out : {"late_cut.prv", "late_cut.prv.gz"}) {
    run.output = dir / out;
    auto r = CutTrace(run, whole);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r.value().output_records, 3u);
    EXPECT_EQ(NormaliseProvenance(ReadAll(run.output)),
              "#Paraver (01/01/2024 at 10:00):90_ns:1(2):1:2(1:1,1:1)\n"
              "#DATE:CUTTER:ORIGINAL:\"PATH\":10:0:100\n"
              "1:1:1:1:1:10:40:1\n"
              "2:2:1:2:1:0:7:1\n"
              "1:2:1:2:1:20:90:1\n"
              "# Appending events with value 0\n"
              "2:2:1:2:1:90:7:0\n")
        << out;
  }
  // The records end at 9, long before the header's 100: the end time has fewer digits than
  // guessed, so the header cannot be rewritten in place.
  tools_test::WriteAll(dir / "short.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1)\n"
                       "# a comment before the first record\n"
                       "1:1:1:1:1:0:9:1\n"
                       "2:1:1:1:1:9:7:1\n");
  run.input = dir / "short.prv";
  run.output = dir / "short_cut.prv";
  auto r = CutTrace(run, whole);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(NormaliseProvenance(ReadAll(run.output)),
            "#Paraver (01/01/2024 at 10:00):9_ns:1(1):1:1(1:1)\n"
            "#DATE:CUTTER:ORIGINAL:\"PATH\":0:0:100\n"
            "# a comment before the first record\n"
            "1:1:1:1:1:0:9:1\n"
            "2:1:1:1:1:9:7:1\n"
            "# Appending events with value 0\n"  // at the cut's end, as the reference does
            "2:1:1:1:1:100:7:0\n");
  // Only the cut files are left beside the inputs (the dropped attempts left nothing).
  EXPECT_EQ(std::system(("test \"$(ls -A '" + dir.path() + "' | wc -l)\" = 5").c_str()), 0);
}

// What the cutter follows is decided by the .pcf, as paramedir's cutter does (worked by hand):
// type 100 has value labels and 200 is not in the .pcf: both are opened by a value other than 0
// and closed at the cut's end, the one opened last first; 46096880 is a hardware counter (no
// labels, in Extrae's counter range): its first value in the cut is written 0, and it is closed
// on a line of its own; 50100001 (no labels, not a counter) and 41999999 (the active counter
// set) are copied and never closed. The header's ",0" is dropped, as Paraver's tools write it.
TEST(CutterTest, PcfDecidesWhichTypesAreClosedAndReset) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "t.prv",
                       "#Paraver(01/01/2024 at 10:00):100_ns:1(1):1:1(1:1),0\n"
                       "1:1:1:1:1:0:100:1\n"
                       "2:1:1:1:1:10:100:3:200:4:50100001:8:41999999:1:46096880:555\n"
                       "2:1:1:1:1:20:46096880:30:50100001:0\n");
  tools_test::WriteAll(dir / "t.pcf",
                       "EVENT_TYPE\n0 100 Region\nVALUES\n0 End\n3 Solve\n\n"
                       "EVENT_TYPE\n1 50100001 Send Size in MPI Global OP\n\n"
                       "EVENT_TYPE\n7 41999999 Active hardware counter set\n"
                       "7 46096880 skx_unc_imc0::UNC_M_CAS_COUNT:RD ([DRAM reads])\n");
  ToolRun run;
  run.input = dir / "t.prv";
  run.output = dir / "cut.prv";
  CutOptions o;
  o.begin = 5;
  o.end = 50;
  ASSERT_TRUE(CutTrace(run, o).ok());
  EXPECT_EQ(NormaliseProvenance(ReadAll(run.output)),
            "#Paraver (01/01/2024 at 10:00):45_ns:1(1):1:1(1:1)\n"
            "#DATE:CUTTER:ORIGINAL:\"PATH\":5:5:50\n"
            "1:1:1:1:1:0:45:1\n"
            "2:1:1:1:1:5:100:3:200:4:50100001:8:41999999:1:46096880:0\n"
            "2:1:1:1:1:15:46096880:30:50100001:0\n"
            "# Appending events with value 0\n"
            "2:1:1:1:1:45:200:0:100:0\n"
            "2:1:1:1:1:45:46096880:0\n");
}

TEST(CutterTest, PercentagesUseTheHeaderEndTime) {
  // 260199 / 100 = 2601 (integer), so 40%..60% is 104040..156060.
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  run.output = dir / "out.prv";
  CutOptions o;
  o.by_time = false;
  o.begin_percent = 40;
  o.end_percent = 60;
  ASSERT_TRUE(CutTrace(run, o).ok());
  EXPECT_NE(ReadAll(run.output).find(":104040:156060\n"), std::string::npos);
}

// Pablo's record range: record 300 of qsort_beo3's body (state/event/comm lines in file order)
// is the state at 106839, record 400 the event line at 107161 (counted with awk), so
// --records 300..400 is the by-time cut 106839..107161; the body has 747 records.
TEST(CutterTest, RecordRangeIsTheCutBetweenTheRecordsTimes) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  run.provenance_date = "20240102030405";
  CutOptions by_records;
  by_records.first_record = 300;
  by_records.last_record = 400;
  run.output = dir / "records.prv";
  ASSERT_TRUE(CutTrace(run, by_records).ok());
  CutOptions by_time;
  by_time.begin = 106839;
  by_time.end = 107161;
  run.output = dir / "time.prv";
  ASSERT_TRUE(CutTrace(run, by_time).ok());
  EXPECT_EQ(ReadAll(dir / "records.prv"), ReadAll(dir / "time.prv"));
  by_records.last_record = 100000;
  run.output = dir / "none.prv";
  auto r = CutTrace(run, by_records);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the trace has 747 records"), std::string::npos)
      << r.status().message();
}

TEST(CutterTest, RangeAfterTheEndIsAnError) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  run.output = dir / "out.prv";
  CutOptions o;
  o.begin = 300000;
  o.end = 400000;
  auto r = CutTrace(run, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("after the end of the trace (260199)"), std::string::npos);
  EXPECT_FALSE(tools_test::Exists(run.output));
  EXPECT_FALSE(tools_test::Exists(dir / "out.pcf"));
}

TEST(CutterTest, ExistingOutputIsKeptWithoutForce) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("qsort_beo3/qsort_beo3.prv");
  run.output = dir / "out.prv";
  tools_test::WriteAll(run.output, "precious");
  CutOptions o;
  o.begin = 106933;
  o.end = 107202;
  auto r = CutTrace(run, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().hint().find("--force"), std::string::npos);
  EXPECT_EQ(ReadAll(run.output), "precious");
  run.force = true;
  ASSERT_TRUE(CutTrace(run, o).ok());
  EXPECT_NE(ReadAll(run.output), "precious");
}

TEST(CutterTest, MalformedRecordIsLocatedAndNothingIsLeft) {
  tools_test::ScratchDir dir;
  std::string input = dir / "bad.prv";
  tools_test::WriteAll(input,
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1)\n"
                       "1:1:1:1:1:0:50:1\n"
                       "1:1:1:1:1:50:x:1\n");
  ToolRun run;
  run.input = input;
  run.output = dir / "out.prv";
  CutOptions o;
  o.begin = 10;
  o.end = 90;
  auto r = CutTrace(run, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 3u);
  EXPECT_EQ(r.status().where().column, 14u);
  EXPECT_NE(r.status().message().find("end time"), std::string::npos);
  EXPECT_FALSE(tools_test::Exists(run.output));
  // No temporary file either.
  EXPECT_EQ(std::system(("test -z \"$(ls -A '" + dir.path() + "' | grep -v bad.prv)\"").c_str()),
            0);
}

}  // namespace
}  // namespace parallax
