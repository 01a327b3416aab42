// `parallax shift` (paramedir -t/-tt/-ta) on a small trace worked out by hand: task 1 with one
// thread, task 2 with two; each record moves by its object's offset (a message's receive times
// by the receiver's), and the result is sorted again.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::ReadAll;

const char* const kTrace =
    "#Paraver (01/01/2024 at 10:00):100_ns:1(3):1:2(1:1,2:1)\n"
    "1:1:1:1:1:0:100:1\n"
    "1:1:1:2:1:0:100:1\n"
    "1:1:1:2:2:0:100:1\n"
    "2:1:1:1:1:50:7:1\n"
    "3:1:1:1:1:60:61:1:1:2:1:70:71:8:3\n";

class ShiftTest : public ::testing::Test {
 protected:
  void SetUp() override { tools_test::WriteAll(dir_ / "in.prv", kTrace); }
  Result<ToolReport> Shift(ShiftOptions::Level level, const std::string& offsets_text,
                           const std::string& out, uint64_t memory = uint64_t{64} << 20) {
    tools_test::WriteAll(dir_ / "offsets.txt", offsets_text);
    auto offsets = ReadShiftOffsets(dir_ / "offsets.txt");
    if (!offsets.ok()) return offsets.status();
    ShiftOptions o;
    o.level = level;
    o.offsets = offsets.value();
    o.memory_bytes = memory;
    ToolRun run;
    run.input = dir_ / "in.prv";
    run.output = dir_ / out;
    return ShiftTrace(run, o);
  }
  std::string Out(const std::string& name) { return ReadAll(dir_ / name); }
  tools_test::ScratchDir dir_;
};

TEST_F(ShiftTest, TaskOffsets) {
  auto r = Shift(ShiftOptions::Level::kTask, "# per task\n5\n  +20 \n", "t.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("t.prv"),
            "#Paraver (01/01/2024 at 10:00):120_ns:1(3):1:2(1:1,2:1)\n"
            "1:1:1:1:1:5:105:1\n"
            "1:1:1:2:1:20:120:1\n"
            "1:1:1:2:2:20:120:1\n"
            "2:1:1:1:1:55:7:1\n"
            "3:1:1:1:1:65:66:1:1:2:1:90:91:8:3\n");
}

TEST_F(ShiftTest, ThreadOffsetsReorderTheBody) {
  auto r = Shift(ShiftOptions::Level::kThread, "30\n0\n0\n", "th.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("th.prv"),
            "#Paraver (01/01/2024 at 10:00):130_ns:1(3):1:2(1:1,2:1)\n"
            "1:1:1:2:1:0:100:1\n"
            "1:1:1:2:2:0:100:1\n"
            "1:1:1:1:1:30:130:1\n"
            "2:1:1:1:1:80:7:1\n"
            "3:1:1:1:1:90:91:1:1:2:1:70:71:8:3\n");
  // One application: one offset moves everything.
  r = Shift(ShiftOptions::Level::kApplication, "-0\n", "a.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("a.prv"), kTrace);
}

TEST_F(ShiftTest, ErrorsAreLocatedAndLeaveNothing) {
  auto r = Shift(ShiftOptions::Level::kTask, "5\n20\n7\n", "n.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "3 offsets for 2 tasks");
  r = Shift(ShiftOptions::Level::kTask, "5\n2x\n", "bad.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 2u);
  EXPECT_NE(r.status().message().find("bad offset \"2x\""), std::string::npos);
  r = Shift(ShiftOptions::Level::kThread, "0\n0\n-10\n", "neg.prv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 4u);
  EXPECT_NE(r.status().message().find("moves time 0 before 0"), std::string::npos);
  EXPECT_EQ(std::system(("test \"$(ls -A '" + dir_.path() + "' | sort | tr '\\n' ' ')\" = "
                         "'in.prv offsets.txt '")
                            .c_str()),
            0);
}

// A group of threads sharing an offset whose records are out of order (thread 1.1.1 at 50
// then 10): the shifted body is sorted as a whole. The comment moves after the header, as
// `parallax sort` puts it, on both paths.
TEST_F(ShiftTest, UnsortedInputIsSortedAfterTheShift) {
  tools_test::WriteAll(dir_ / "in.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(3):1:2(1:1,2:1)\n"
                       "2:1:1:1:1:50:7:1\n"
                       "# note\n"
                       "2:1:1:1:1:10:7:2\n"
                       "2:1:1:2:1:20:7:3\n");
  auto r = Shift(ShiftOptions::Level::kTask, "5\n0\n", "u.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("u.prv"),
            "#Paraver (01/01/2024 at 10:00):100_ns:1(3):1:2(1:1,2:1)\n"
            "# note\n"
            "2:1:1:1:1:15:7:2\n"
            "2:1:1:2:1:20:7:3\n"
            "2:1:1:1:1:55:7:1\n");
  // Without the one-pass window (a budget of one byte): the full sort, same bytes.
  r = Shift(ShiftOptions::Level::kTask, "5\n0\n", "u_small.prv", 1);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("u_small.prv"), Out("u.prv"));
  // Sorted input, same comment: the per-group path gives the same layout.
  tools_test::WriteAll(dir_ / "in.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(3):1:2(1:1,2:1)\n"
                       "2:1:1:1:1:10:7:2\n"
                       "# note\n"
                       "2:1:1:2:1:20:7:3\n"
                       "2:1:1:1:1:50:7:1\n");
  r = Shift(ShiftOptions::Level::kTask, "5\n0\n", "s.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("s.prv"), Out("u.prv"));
  EXPECT_EQ(r.value().output_records, 4u);
}

// More distinct offsets than group files (40 tasks, each its own offset): the shifted body is
// sorted. Task j (1-based) moves by 40 - j, so the last tasks come first; the expected order
// is by time, then task, then state before event.
TEST_F(ShiftTest, ManyOffsetsAreSortedToo) {
  std::string header = "#Paraver (01/01/2024 at 10:00):100_ns:1(40):1:40(";
  std::string body, offsets;
  std::vector<std::tuple<uint64_t, int, int, std::string>> expected;
  for (int j = 1; j <= 40; ++j) {
    header += std::string(j > 1 ? "," : "") + "1:1";
    const int d = 40 - j;
    const std::string id = std::to_string(j) + ":1:" + std::to_string(j) + ":1:";  // cpu j, task j
    body += "1:" + id + "0:100:1\n2:" + id + "10:7:1\n";
    offsets += std::to_string(d) + "\n";
    expected.emplace_back(d, j, 1, "1:" + id + std::to_string(d) + ":" + std::to_string(100 + d) + ":1");
    expected.emplace_back(10 + d, j, 2, "2:" + id + std::to_string(10 + d) + ":7:1");
  }
  header += ")\n";
  tools_test::WriteAll(dir_ / "in.prv", header + body);
  auto r = Shift(ShiftOptions::Level::kTask, offsets, "m.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::sort(expected.begin(), expected.end());
  std::string want = "#Paraver (01/01/2024 at 10:00):139_ns:1(40):1:40(";
  want += header.substr(want.size());
  for (const auto& e : expected) want += std::get<3>(e) + "\n";
  EXPECT_EQ(Out("m.prv"), want);
  r = Shift(ShiftOptions::Level::kTask, offsets, "m_small.prv", 1);  // no window: sorted runs
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Out("m_small.prv"), want);
}

// The one-pass window, the per-group files and the full sort give the same bytes. A budget of
// one byte makes the window give up at the first line out of order (then the groups, sorted
// in the input, are merged); an end time that gains a digit (100 -> 1050: the header written
// first cannot keep its length) or a compressed output makes it step aside.
TEST_F(ShiftTest, EveryPathGivesTheSameBytes) {
  auto r = Shift(ShiftOptions::Level::kTask, "5\n950\n", "digit.prv");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::string want =
      "#Paraver (01/01/2024 at 10:00):1050_ns:1(3):1:2(1:1,2:1)\n"
      "1:1:1:1:1:5:105:1\n"
      "2:1:1:1:1:55:7:1\n"
      "3:1:1:1:1:65:66:1:1:2:1:1020:1021:8:3\n"
      "1:1:1:2:1:950:1050:1\n"
      "1:1:1:2:2:950:1050:1\n";
  EXPECT_EQ(Out("digit.prv"), want);
  EXPECT_EQ(r.value().output_records, 5u);
  for (const char* out : {"digit_small.prv", "digit.prv.gz"}) {
    r = Shift(ShiftOptions::Level::kTask, "5\n950\n", out, 1);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(Out(out), want) << out;
    EXPECT_EQ(r.value().output_records, 5u);
  }
  for (const char* out : {"th.prv", "th_small.prv", "th.prv.gz"}) {
    r = Shift(ShiftOptions::Level::kThread, "30\n0\n0\n", out,
              std::string(out) == "th_small.prv" ? 1 : uint64_t{64} << 20);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(Out(out), Out("th.prv")) << out;
  }
  EXPECT_EQ(Out("th.prv").substr(0, 40), "#Paraver (01/01/2024 at 10:00):130_ns:1(");
}

TEST(ShiftOffsetsTest, ParsesCommentsSignsAndLocatesErrors) {
  auto r = ParseShiftOffsets("# per task\n0\n+1000\n-250\n\n  42  # note\r\n", "o.txt");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r.value(), (std::vector<int64_t>{0, 1000, -250, 42}));
  for (const char* bad : {"1\n 2 3\n", "1\n--2\n", "1\n+\n", "1\n99999999999999999999\n"}) {
    auto e = ParseShiftOffsets(bad, "o.txt");
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_EQ(e.status().where().line, 2u) << bad;
  }
}

// The seeds of the fuzz target (tests/fuzz/corpus/shift_offsets) keep its property: parsed
// offsets written back one per line parse to the same values; an error is located.
TEST(ShiftOffsetsTest, FuzzCorpusRoundTrips) {
  const auto dir = std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz" / "corpus" /
                   "shift_offsets";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    std::string text = ReadAll(entry.path().string());
    auto first = ParseShiftOffsets(text, entry.path().string());
    if (!first.ok()) {
      EXPECT_GT(first.status().where().line, 0u);
      continue;
    }
    std::string written;
    for (int64_t v : first.value()) written += std::to_string(v) + "\n";
    auto second = ParseShiftOffsets(written, "again");
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second.value(), first.value());
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace parallax
