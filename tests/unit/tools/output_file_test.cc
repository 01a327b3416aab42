// OutputFile writes the same bytes with or without its write-behind thread (buffers handed over
// in order, text longer than a buffer included), renames into place only on Commit, and leaves
// nothing behind when dropped while its writer still holds buffers.

#include <gtest/gtest.h>

#include <string>

#include "src/tools/output_file.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax::tools {
namespace {

// About 7 MB: numbers, short texts, and texts of 3 MB (longer than a buffer).
std::string Fill(OutputFile* out) {
  std::string expected;
  const std::string big(3u << 20, 'x');
  for (uint64_t i = 0; i < 400000; ++i) {
    out->Num(i * 7919);
    out->Char(':');
    out->Text("ab");
    out->Char('\n');
    expected += std::to_string(i * 7919) + ":ab\n";
    if (i == 1000 || i == 300000) {
      out->Text(big);
      expected += big;
    }
  }
  EXPECT_EQ(out->bytes_written(), expected.size());
  return expected;
}

TEST(OutputFileTest, WriteBehindWritesTheSameBytes) {
  tools_test::ScratchDir dir;
  for (bool behind : {false, true}) {
    for (const char* name : {"o.prv", "o.prv.gz"}) {
      const std::string path = dir / ((behind ? "b_" : "s_") + std::string(name));
      auto out = OutputFile::Create(path, false);
      ASSERT_TRUE(out.ok()) << out.status().ToString();
      if (behind) out.value()->WriteBehind();
      const std::string expected = Fill(out.value().get());
      EXPECT_FALSE(tools_test::Exists(path));  // only the temporary name so far
      ASSERT_TRUE(out.value()->Commit().ok());
      EXPECT_TRUE(tools_test::ReadAll(path) == expected) << path;
    }
  }
}

TEST(OutputFileTest, DroppedWithAWriterLeavesNothing) {
  tools_test::ScratchDir dir;
  {
    auto out = OutputFile::Create(dir / "x.prv", false);
    ASSERT_TRUE(out.ok());
    out.value()->WriteBehind();
    Fill(out.value().get());
  }
  EXPECT_EQ(std::system(("test -z \"$(ls -A '" + dir.path() + "')\"").c_str()), 0);
}

// The start of the file is overwritten in place after megabytes went through the writer
// thread; a compressed output refuses (its bytes are not the text's).
TEST(OutputFileTest, RewriteStartReplacesTheFirstBytes) {
  tools_test::ScratchDir dir;
  for (const char* name : {"h.prv", "h.prv.gz"}) {
    auto out = OutputFile::Create(dir / name, false);
    ASSERT_TRUE(out.ok());
    out.value()->WriteBehind();
    out.value()->Text("#END=0100\n");
    std::string expected;
    for (int i = 0; i < 300000; ++i) {  // megabytes, through the writer thread
      out.value()->Num(i);
      out.value()->Char('\n');
      expected += std::to_string(i) + "\n";
    }
    const bool plain = std::string(name) == "h.prv";
    EXPECT_EQ(out.value()->RewriteStart("#END=9999\n"), plain) << name;
    EXPECT_FALSE(out.value()->RewriteStart(std::string(20u << 20, 'x')));  // longer than written
    out.value()->Text("tail\n");
    ASSERT_TRUE(out.value()->Commit().ok());
    EXPECT_TRUE(tools_test::ReadAll(dir / name) ==
                (plain ? "#END=9999\n" : "#END=0100\n") + expected + "tail\n")
        << name;
  }
}

}  // namespace
}  // namespace parallax::tools
