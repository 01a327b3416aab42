// OrderWindow, the one-pass sort of nearly ordered lines: lines that come a few places out of
// order leave in the canonical order even through many refills of a small window; ties keep
// their order of arrival; a line that sorts before one already written is refused; lines
// built in place (Text/Char/Num) are the same as lines added whole.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "src/tools/order_window.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax::tools {
namespace {

using tools_test::ReadAll;

struct Line {
  SortKey key;
  std::string text;
};

// `n` lines at times 10 * i moved by up to +-`jitter`, on 4 threads, of every kind.
std::vector<Line> Jittered(size_t n, int jitter, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-jitter, jitter);
  std::vector<Line> lines;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t t = 1000 + 10 * i + static_cast<uint64_t>(d(rng));
    const char kind = "123"[i % 3];
    SortKey k{t, i % 4, kind};
    lines.push_back({k, std::string(1, kind) + ":" + std::to_string(t) + ":" +
                            std::to_string(i % 4) + ":line" + std::to_string(i)});
  }
  return lines;
}

std::string Expected(std::vector<Line> lines) {
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.key < b.key; });
  std::string out;
  for (const Line& l : lines) out += l.text + "\n";
  return out;
}

TEST(OrderWindowTest, NearlySortedLinesLeaveInOrderThroughManyRefills) {
  tools_test::ScratchDir dir;
  const std::vector<Line> lines = Jittered(20000, 35, 7);
  auto out = OutputFile::Create(dir / "out.txt", false);
  ASSERT_TRUE(out.ok());
  OrderWindow window(*out.value(), 64u << 10);  // a few hundred lines at a time
  size_t written_before_end = 0;
  for (const Line& l : lines) {
    ASSERT_TRUE(window.Add(l.key, l.text));
    written_before_end = window.lines_written();
  }
  EXPECT_GT(written_before_end, 15000u);  // refilled many times, not sorted at the end
  EXPECT_FALSE(window.sorted_input());
  window.Finish();
  EXPECT_EQ(window.lines_written(), lines.size());
  ASSERT_TRUE(out.value()->Commit().ok());
  EXPECT_EQ(ReadAll(dir / "out.txt"), Expected(lines));
}

TEST(OrderWindowTest, TiesKeepTheirOrderOfArrival) {
  tools_test::ScratchDir dir;
  auto out = OutputFile::Create(dir / "out.txt", false);
  ASSERT_TRUE(out.ok());
  OrderWindow window(*out.value(), 1);  // a refill after every line
  const SortKey k{5, 1, '2'};
  ASSERT_TRUE(window.Add(k, "a"));
  ASSERT_TRUE(window.Add(k, "b"));
  EXPECT_EQ(window.lines_written(), 2u);
  ASSERT_TRUE(window.Add(k, "c"));  // the key of lines already written: accepted, after them
  ASSERT_TRUE(window.Add({5, 1, '3'}, "comm"));
  EXPECT_FALSE(window.Add(k, "d"));  // now before "comm", which is written
  window.Finish();
  ASSERT_TRUE(out.value()->Commit().ok());
  EXPECT_EQ(ReadAll(dir / "out.txt"), "a\nb\nc\ncomm\n");
  // Held in one window, equal keys also keep their order.
  auto out2 = OutputFile::Create(dir / "out2.txt", false);
  ASSERT_TRUE(out2.ok());
  OrderWindow big(*out2.value(), 1u << 20);
  for (const char* text : {"x", "y", "z"}) ASSERT_TRUE(big.Add(k, text));
  ASSERT_TRUE(big.Add({4, 1, '2'}, "w"));
  big.Finish();
  ASSERT_TRUE(out2.value()->Commit().ok());
  EXPECT_EQ(ReadAll(dir / "out2.txt"), "w\nx\ny\nz\n");
}

TEST(OrderWindowTest, ALineBeforeOneWrittenIsRefused) {
  tools_test::ScratchDir dir;
  auto out = OutputFile::Create(dir / "out.txt", false);
  ASSERT_TRUE(out.ok());
  OrderWindow window(*out.value(), 16u << 10);
  uint64_t t = 100;
  while (!window.started()) ASSERT_TRUE(window.Add({t++, 0, '1'}, "state"));
  EXPECT_TRUE(window.sorted_input());
  EXPECT_FALSE(window.Add({99, 0, '1'}, "late"));
  EXPECT_FALSE(window.Add({t, 0, '1'}, "after the refusal"));  // nothing more is taken
}

TEST(OrderWindowTest, LinesBuiltInPlaceEqualLinesAddedWhole) {
  tools_test::ScratchDir dir;
  auto out = OutputFile::Create(dir / "out.txt", false);
  ASSERT_TRUE(out.ok());
  OrderWindow window(*out.value(), 1u << 20);
  window.Text("1:1:1:1:1:");
  window.Num(uint64_t{200});
  window.Char(':');
  window.Num(uint64_t{300});
  window.Text(":7");
  ASSERT_TRUE(window.EndLine({200, 0, '1'}));
  ASSERT_TRUE(window.Add({100, 0, '1'}, "1:1:1:1:1:100:200:7"));
  window.Finish();
  ASSERT_TRUE(out.value()->Commit().ok());
  EXPECT_EQ(ReadAll(dir / "out.txt"), "1:1:1:1:1:100:200:7\n1:1:1:1:1:200:300:7\n");
}

}  // namespace
}  // namespace parallax::tools
