// `parallax sort` on a small shuffled trace whose canonical order is worked out by hand (time,
// then thread, then state < event < communication, then file order), in memory and through
// spilled runs; and on a real trace, where one run and many runs must agree.

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

using tools_test::Data;
using tools_test::ReadAll;

const char* const kShuffled =
    "#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)\n"
    "# a comment\n"
    "2:2:1:2:1:30:5:1\n"
    "1:1:1:1:1:0:50:1\n"
    "3:2:1:2:1:20:21:1:1:1:1:25:26:8:3\n"
    "2:1:1:1:1:20:5:2\n"
    "1:2:1:2:1:0:100:1\n"
    "2:1:1:1:1:20:6:3\n"
    "1:1:1:1:1:50:100:2\n";

const char* const kSorted =
    "# a comment\n"
    "1:1:1:1:1:0:50:1\n"
    "1:2:1:2:1:0:100:1\n"
    "2:1:1:1:1:20:5:2\n"
    "2:1:1:1:1:20:6:3\n"
    "3:2:1:2:1:20:21:1:1:1:1:25:26:8:3\n"
    "2:2:1:2:1:30:5:1\n"
    "1:1:1:1:1:50:100:2\n";

std::string Body(const std::string& text) { return text.substr(text.find('\n') + 1); }

TEST(SorterTest, CanonicalOrderInMemoryAndThroughRuns) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "in.prv", kShuffled);
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "mem.prv";
  auto r = SortTrace(run, SortOptions());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Body(ReadAll(run.output)), kSorted);
  EXPECT_EQ(r.value().output_records, 8u);
  // One line per run: seven runs merged.
  SortOptions tiny;
  tiny.memory_bytes = 1;
  run.output = dir / "runs.prv.gz";
  r = SortTrace(run, tiny);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Body(ReadAll(run.output)), kSorted);
  // The runs are gone: only the inputs and the two outputs are left.
  EXPECT_EQ(std::system(("test \"$(ls -A '" + dir.path() + "' | wc -l)\" = 3").c_str()), 0);
  // Sorting a sorted trace changes nothing, and says so.
  run.input = dir / "mem.prv";
  run.output = dir / "again.prv";
  r = SortTrace(run, SortOptions());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ReadAll(dir / "again.prv"), ReadAll(dir / "mem.prv"));
  ASSERT_FALSE(r.value().notes.empty());
  EXPECT_EQ(r.value().notes[0], "the input was already in canonical order");
}

TEST(SorterTest, RealTraceOneRunEqualsManyRuns) {
  tools_test::ScratchDir dir;
  ToolRun run;
  run.input = Data("epoch/epoch_2proc.prv.gz");
  run.output = dir / "one.prv";
  ASSERT_TRUE(SortTrace(run, SortOptions()).ok());
  SortOptions small;
  small.memory_bytes = 4096;
  run.output = dir / "many.prv";
  ASSERT_TRUE(SortTrace(run, small).ok());
  std::string one = ReadAll(dir / "one.prv");
  EXPECT_EQ(one, ReadAll(dir / "many.prv"));
  EXPECT_EQ(ReadAll(dir / "one.row"), ReadAll(Data("epoch/epoch_2proc.row")));
  // Same lines as the input, reordered.
  auto lines = [](const std::string& s) {
    std::vector<std::string> v;
    size_t p = s.find('\n') + 1;
    while (p < s.size()) {
      size_t e = s.find('\n', p);
      v.push_back(s.substr(p, e - p));
      p = e + 1;
    }
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(lines(one), lines(ReadAll(Data("epoch/epoch_2proc.prv.gz"))));
  // The body reversed: too much disorder for the one-pass window, so a small budget sorts
  // through runs merged from disk, and a large one in memory; both agree (equal keys keep the
  // reversed order, so the result differs from `one` only among them).
  std::string text = ReadAll(Data("epoch/epoch_2proc.prv.gz"));
  std::string reversed;  // the header and its communicator lines stay first
  std::vector<std::string> body;
  for (size_t p = 0; p < text.size();) {
    size_t e = text.find('\n', p);
    std::string line = text.substr(p, e - p);
    if (!line.empty() && line[0] >= '1' && line[0] <= '3') {
      body.push_back(line);
    } else {
      reversed += line + "\n";
    }
    p = e + 1;
  }
  ASSERT_GT(body.size(), 1000u);
  for (auto it = body.rbegin(); it != body.rend(); ++it) reversed += *it + "\n";
  tools_test::WriteAll(dir / "rev.prv", reversed);
  run.input = dir / "rev.prv";
  run.output = dir / "rev_one.prv";
  auto r1 = SortTrace(run, SortOptions());
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  run.output = dir / "rev_many.prv";
  auto r = SortTrace(run, small);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().notes.empty());  // not "already in canonical order"
  EXPECT_EQ(ReadAll(dir / "rev_one.prv"), ReadAll(dir / "rev_many.prv"));
  EXPECT_EQ(lines(ReadAll(dir / "rev_many.prv")), lines(one));
}

TEST(SorterTest, MalformedLineIsLocatedAndNothingIsLeft) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "bad.prv",
                       "#Paraver (01/01/2024 at 10:00):100_ns:1(1):1:1(1:1)\n"
                       "2:1:1:1:1:20:5:2\n"
                       "2:1:1:1:1:zz:5:2\n");
  ToolRun run;
  run.input = dir / "bad.prv";
  run.output = dir / "out.prv";
  SortOptions tiny;
  tiny.memory_bytes = 1;
  auto r = SortTrace(run, tiny);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 3u);
  EXPECT_EQ(std::system(("test \"$(ls -A '" + dir.path() + "')\" = bad.prv").c_str()), 0);
}

}  // namespace
}  // namespace parallax
