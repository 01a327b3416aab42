// The filter's communication selections (size range, tag, partner task or thread) on a small
// trace: three tasks, task 3 with two threads, five messages. Kept lines are worked out by hand.

#include <gtest/gtest.h>

#include <string>

#include "include/parallax/tools.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax {
namespace {

// Messages (sender -> receiver, size, tag):
//   A 1.1 -> 2.1   64  5      B 2.1 -> 1.1    8  5      C 1.1 -> 3.2  1024  7
//   D 3.1 -> 2.1    0  7      E 3.2 -> 3.1  100  9
const char* const kComms =
    "#Paraver (01/01/2024 at 10:00):100_ns:1(4):1:3(1:1,1:1,2:1)\n"
    "1:1:1:1:1:0:100:1\n"
    "3:1:1:1:1:10:11:2:1:2:1:12:13:64:5\n"
    "3:2:1:2:1:20:21:1:1:1:1:22:23:8:5\n"
    "3:1:1:1:1:30:31:4:1:3:2:32:33:1024:7\n"
    "3:3:1:3:1:40:41:2:1:2:1:42:43:0:7\n"
    "3:4:1:3:2:50:51:3:1:3:1:52:53:100:9\n";

const char* const kA = "3:1:1:1:1:10:11:2:1:2:1:12:13:64:5\n";
const char* const kB = "3:2:1:2:1:20:21:1:1:1:1:22:23:8:5\n";
const char* const kC = "3:1:1:1:1:30:31:4:1:3:2:32:33:1024:7\n";
const char* const kD = "3:3:1:3:1:40:41:2:1:2:1:42:43:0:7\n";
const char* const kE = "3:4:1:3:2:50:51:3:1:3:1:52:53:100:9\n";

// The communications the filter keeps (the state line is always kept).
std::string Kept(const FilterOptions& o) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "in.prv", kComms);
  ToolRun run;
  run.input = dir / "in.prv";
  run.output = dir / "out.prv";
  auto r = FilterTrace(run, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  std::string s = tools_test::ReadAll(run.output);
  const std::string state = "1:1:1:1:1:0:100:1\n";
  size_t at = s.find(state);
  EXPECT_NE(at, std::string::npos) << s;
  return s.substr(at + state.size());
}

TEST(FilterCommsTest, SizeRange) {
  FilterOptions o;
  o.min_comm_size = 8;
  o.max_comm_size = 100;
  EXPECT_EQ(Kept(o), std::string(kA) + kB + kE);
  o.min_comm_size = 0;
  o.max_comm_size = 0;  // only empty messages
  EXPECT_EQ(Kept(o), kD);
}

TEST(FilterCommsTest, Tags) {
  FilterOptions o;
  o.comm_tags = {7, 9};
  EXPECT_EQ(Kept(o), std::string(kC) + kD + kE);
}

TEST(FilterCommsTest, PartnersByTaskOrThread) {
  FilterOptions o;
  o.comm_partners = {{3, 0}};  // any thread of task 3, as sender or receiver
  EXPECT_EQ(Kept(o), std::string(kC) + kD + kE);
  o.comm_partners = {{3, 2}};  // only thread 3.2
  EXPECT_EQ(Kept(o), std::string(kC) + kE);
  o.comm_partners = {{1, 0}, {3, 1}};
  EXPECT_EQ(Kept(o), std::string(kA) + kB + kC + kD + kE);
  // Combined with a tag: task 2's messages with tag 5.
  o.comm_partners = {{2, 0}};
  o.comm_tags = {5};
  EXPECT_EQ(Kept(o), std::string(kA) + kB);
}

}  // namespace
}  // namespace parallax
