// LineSource returns the same lines whatever its read size: every block size from 1 byte up
// to past the file, on a real trace (plain and gzipped) and on edge cases (CRLF, no final
// newline, empty lines).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/tools/line_source.h"
#include "tests/unit/fifo_guard.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax::tools {
namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string::npos ? text.size() : nl;
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

std::vector<std::string> ReadWith(const std::string& path, size_t block) {
  auto src = LineSource::Open(path, block);
  EXPECT_TRUE(src.ok()) << src.status().ToString();
  std::vector<std::string> lines;
  std::string_view line;
  while (src.value()->Next(&line)) lines.emplace_back(line);
  EXPECT_TRUE(src.value()->status().ok());
  EXPECT_EQ(src.value()->line_number(), lines.size());
  return lines;
}

TEST(LineSourceTest, EveryBlockSizeGivesTheSameLines) {
  const std::string path = tools_test::Data("qsort_beo3/qsort_beo3.prv");
  const std::vector<std::string> expected = SplitLines(tools_test::ReadAll(path));
  ASSERT_EQ(expected.size(), 801u);
  for (size_t block : {1, 2, 3, 5, 7, 64, 333, 4096, 1 << 20}) {
    EXPECT_EQ(ReadWith(path, block), expected) << "block " << block;
  }
}

TEST(LineSourceTest, GzipInputAtSmallBlocks) {
  const std::string path = tools_test::Data("epoch/epoch_1proc.prv.gz");
  const std::vector<std::string> expected = SplitLines(tools_test::ReadAll(path));
  for (size_t block : {1, 13, 1 << 16})
    EXPECT_EQ(ReadWith(path, block), expected) << "block " << block;
}

TEST(LineSourceTest, CrlfEmptyLinesAndNoFinalNewline) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "t.txt", "a\r\n\r\n\nlast");
  for (size_t block = 1; block <= 12; ++block) {
    EXPECT_EQ(ReadWith(dir / "t.txt", block), (std::vector<std::string>{"a", "", "", "last"}))
        << block;
  }
}

TEST(LineSourceTest, MissingFileAndFolderAreErrors) {
  auto missing = LineSource::Open("/nonexistent/x.prv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open"), std::string::npos);
  auto folder = LineSource::Open(tools_test::Data("qsort_beo3"));
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.status().message().find("is a directory"), std::string::npos);
}

// The streaming tools (cut, filter, sort, shift, ...) read through LineSource: a named pipe
// given as their input blocked them in open(2).
TEST(LineSourceTest, NamedPipesAreRefusedWithoutBlocking) {
  tools_test::ScratchDir dir;
  const std::string fifo = dir / "pipe.prv";
  ASSERT_TRUE(test::MakeFifo(fifo));
  test::FinishesWithin(10, {fifo}, [&] {
    auto src = LineSource::Open(fifo);
    ASSERT_FALSE(src.ok());
    EXPECT_EQ(src.status().message(), "is a named pipe (FIFO), not a regular file: not read");
  }, "LineSource::Open of a FIFO");
}

TEST(LineSourceTest, TruncatedGzipIsAnError) {
  tools_test::ScratchDir dir;
  std::string whole =
      tools_test::ReadAll(tools_test::Data("epoch/epoch_1proc.prv.gz"));  // decompressed
  // Take the compressed bytes and cut them in half.
  FILE* f = std::fopen(tools_test::Data("epoch/epoch_1proc.prv.gz").c_str(), "rb");
  std::string raw(1 << 20, '\0');
  raw.resize(std::fread(raw.data(), 1, raw.size(), f));
  std::fclose(f);
  tools_test::WriteAll(dir / "cut.prv.gz", raw.substr(0, raw.size() / 2));
  auto src = LineSource::Open(dir / "cut.prv.gz", 4096);
  ASSERT_TRUE(src.ok());
  std::string_view line;
  uint64_t n = 0;
  while (src.value()->Next(&line)) ++n;
  EXPECT_LT(n, SplitLines(whole).size());
  EXPECT_FALSE(src.value()->status().ok());
  EXPECT_NE(src.value()->status().message().find("cannot decompress"), std::string::npos);
}

}  // namespace
}  // namespace parallax::tools
