#include "src/io/row/row_reader.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace parallax::io {
namespace {

using model::Level;
using model::RowNames;

const std::string kData = PARALLAX_TEST_DATA;

RowNames Parse(std::string_view text, RowDiagnostics* diags = nullptr) {
  Result<RowNames> r = ParseRow(text, "t.row", diags);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

std::string Str(const std::string* s) { return s == nullptr ? "<null>" : *s; }

TEST(RowReaderTest, SpecExample) {
  RowDiagnostics diags;
  RowNames names = Parse(
      "LEVEL CPU SIZE 2\nnode1.1\nnode1.2\n\nLEVEL THREAD SIZE 2\nTHREAD 1.1.1\nTHREAD 1.2.1\n",
      &diags);
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(Str(names.Label(Level::kCpu, 0)), "node1.1");  // CPU 1
  EXPECT_EQ(Str(names.Label(Level::kCpu, 1)), "node1.2");
  EXPECT_EQ(names.Label(Level::kCpu, 2), nullptr);
  EXPECT_EQ(Str(names.Label(Level::kThread, 1)), "THREAD 1.2.1");
  EXPECT_EQ(names.Label(Level::kTask, 0), nullptr);
  EXPECT_EQ(names.Labels(Level::kTask), nullptr);
  ASSERT_EQ(names.blocks().size(), 2u);
  EXPECT_EQ(names.blocks()[0].level, Level::kCpu);
  EXPECT_EQ(names.blocks()[1].before, "\n");
}

TEST(RowReaderTest, LabelLinesAreTakenVerbatimEvenEmptyOrCommentLike) {
  RowDiagnostics diags;
  RowNames names = Parse("LEVEL TASK SIZE 4\n\n# not a comment\n  spaced  \nlast\n", &diags);
  EXPECT_EQ(diags.count, 0u);
  const std::vector<std::string> expected = {"", "# not a comment", "  spaced  ", "last"};
  EXPECT_EQ(*names.Labels(Level::kTask), expected);
  EXPECT_EQ(names.Label(Level::kTask, 0), nullptr);  // empty label = no label
  EXPECT_EQ(Str(names.Label(Level::kTask, 1)), "# not a comment");
}

TEST(RowReaderTest, AllLevelNames) {
  RowNames names = Parse(
      "LEVEL WORKLOAD SIZE 1\nw\nLEVEL APPL SIZE 1\na\nLEVEL TASK SIZE 1\nt\n"
      "LEVEL THREAD SIZE 1\nth\nLEVEL SYSTEM SIZE 1\ns\nLEVEL NODE SIZE 1\nn\n"
      "LEVEL CPU SIZE 1\nc\n");
  EXPECT_EQ(Str(names.Label(Level::kWorkload, 0)), "w");
  EXPECT_EQ(Str(names.Label(Level::kAppl, 0)), "a");
  EXPECT_EQ(Str(names.Label(Level::kTask, 0)), "t");
  EXPECT_EQ(Str(names.Label(Level::kThread, 0)), "th");
  EXPECT_EQ(Str(names.Label(Level::kSystem, 0)), "s");
  EXPECT_EQ(Str(names.Label(Level::kNode, 0)), "n");
  EXPECT_EQ(Str(names.Label(Level::kCpu, 0)), "c");
}

TEST(RowReaderTest, CrlfLinesLoseTheirCarriageReturn) {
  RowNames names = Parse("LEVEL NODE SIZE 2\r\nn1\r\n\r\nLEVEL CPU SIZE 1\r\nc1\r\n");
  EXPECT_TRUE(names.crlf);
  EXPECT_EQ(Str(names.Label(Level::kNode, 0)), "n1");
  EXPECT_EQ(names.Label(Level::kNode, 1), nullptr);  // the blank line is label 2
  EXPECT_EQ(Str(names.Label(Level::kCpu, 0)), "c1");
}

TEST(RowReaderTest, SizeZeroAndCommentsBetweenBlocks) {
  RowDiagnostics diags;
  RowNames names = Parse("# names\nLEVEL APPL SIZE 0\n\n# more\nLEVEL NODE SIZE 1\nx\n", &diags);
  EXPECT_EQ(diags.count, 0u);
  ASSERT_NE(names.Labels(Level::kAppl), nullptr);
  EXPECT_TRUE(names.Labels(Level::kAppl)->empty());
  EXPECT_EQ(names.blocks()[0].before, "# names\n");
  EXPECT_EQ(names.blocks()[1].before, "\n# more\n");
}

TEST(RowReaderTest, UnknownLevelSkipsTheHeaderAndItsLinesBecomeStray) {
  RowDiagnostics diags;
  RowNames names = Parse("LEVEL CORE SIZE 2\nc1\nc2\nLEVEL NODE SIZE 1\nn\n", &diags);
  EXPECT_EQ(Str(names.Label(Level::kNode, 0)), "n");
  EXPECT_EQ(names.blocks().size(), 1u);
  ASSERT_EQ(diags.count, 3u);
  EXPECT_EQ(diags.first[0].line, 1u);
  EXPECT_EQ(diags.first[0].column, 7u);
  EXPECT_NE(diags.first[0].reason.find("unknown level 'CORE'"), std::string::npos);
  EXPECT_EQ(diags.first[1].line, 2u);
  EXPECT_EQ(diags.first[1].column, 1u);
  EXPECT_NE(diags.first[1].reason.find("outside any LEVEL block"), std::string::npos);
  EXPECT_EQ(diags.first[2].line, 3u);
}

TEST(RowReaderTest, BlockCutShortByTheEndOfTheFile) {
  RowDiagnostics diags;
  RowNames names = Parse("LEVEL NODE SIZE 1\nn\n\nLEVEL CPU SIZE 5\nc1\nc2\nc3", &diags);
  ASSERT_EQ(diags.count, 1u);
  EXPECT_EQ(diags.first[0].line, 4u);
  EXPECT_EQ(diags.first[0].column, 16u);
  EXPECT_EQ(diags.first[0].reason, "LEVEL CPU announces 5 labels but the file ends after 3");
  // The labels that are there are kept.
  EXPECT_EQ(Str(names.Label(Level::kCpu, 2)), "c3");
  EXPECT_EQ(names.Label(Level::kCpu, 3), nullptr);
  EXPECT_EQ(diags.ToString(),
            "t.row:4:16: LEVEL CPU announces 5 labels but the file ends after 3\n");
}

TEST(RowReaderTest, AHugeSizeReservesOnlyWhatIsThere) {
  // SIZE 4294967295 used to reserve 4 G labels up front (std::bad_alloc, abort).
  RowDiagnostics diags;
  RowNames names = Parse("LEVEL THREAD SIZE 4294967295\nt1\nt2\n", &diags);
  ASSERT_EQ(diags.count, 1u);
  EXPECT_EQ(diags.first[0].reason,
            "LEVEL THREAD announces 4294967295 labels but the file ends after 2");
  ASSERT_EQ(names.blocks().size(), 1u);
  EXPECT_EQ(names.blocks()[0].labels.size(), 2u);
  EXPECT_LE(names.blocks()[0].labels.capacity(), 1u << 16);
  EXPECT_EQ(Str(names.Label(Level::kThread, 1)), "t2");
}

TEST(RowReaderTest, MalformedHeadersAreCountedWithTheirLocation) {
  struct Bad {
    std::string text;
    uint64_t line;
    uint64_t column;
    std::string reason_part;
  };
  const std::vector<Bad> cases = {
      {"node1\n", 1, 1, "outside any LEVEL block"},
      {"\n  stray\n", 2, 3, "outside any LEVEL block"},
      {"LEVEL CPU\n", 1, 1, "expected 'LEVEL <name> SIZE <n>'"},
      {"LEVEL CPU SIZE\n", 1, 1, "expected 'LEVEL <name> SIZE <n>'"},
      {"LEVEL CPU COUNT 2\n", 1, 1, "expected 'LEVEL <name> SIZE <n>'"},
      {"LEVEL CPU SIZE 2 extra\n", 1, 1, "expected 'LEVEL <name> SIZE <n>'"},
      {"LEVEL CPU SIZE -1\n", 1, 16, "SIZE '-1' is not a count"},
      {"LEVEL CPU SIZE two\n", 1, 16, "SIZE 'two' is not a count"},
      {"LEVEL CPU SIZE 99999999999\n", 1, 16, "is not a count"},
      {"LEVEL cpu SIZE 1\n", 1, 7, "unknown level 'cpu'"},
      {"LEVEL NODE SIZE 1\na\nLEVEL NODE SIZE 1\nb\n", 3, 1, "replaces the one at line 1"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.text);
    RowDiagnostics diags;
    Parse(bad.text, &diags);
    ASSERT_GE(diags.count, 1u);
    EXPECT_EQ(diags.file, "t.row");
    EXPECT_EQ(diags.first[0].line, bad.line);
    EXPECT_EQ(diags.first[0].column, bad.column);
    EXPECT_NE(diags.first[0].reason.find(bad.reason_part), std::string::npos)
        << diags.first[0].reason;
  }
}

TEST(RowReaderTest, ALaterBlockReplacesAnEarlierOne) {
  RowNames names = Parse("LEVEL NODE SIZE 2\na\nb\nLEVEL NODE SIZE 1\nc\n");
  EXPECT_EQ(Str(names.Label(Level::kNode, 0)), "c");
  EXPECT_EQ(names.Label(Level::kNode, 1), nullptr);
  EXPECT_EQ(names.blocks().size(), 2u);  // both kept for writing
}

TEST(RowReaderTest, MissingFileIsAbsentNotUnreadable) {
  bool absent = false;
  Result<RowNames> r = ReadRow(kData + "/no_such_file.row", nullptr, &absent);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(absent);
  r = ReadRow(kData, nullptr, &absent);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(absent);
}

TEST(RowReaderTest, ExtraeFiles) {
  RowDiagnostics diags;
  Result<RowNames> r = ReadRow(kData + "/epoch/epoch_4proc.row", &diags);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(Str(r->Label(Level::kCpu, 3)), "4.s04r2b68");
  EXPECT_EQ(Str(r->Label(Level::kNode, 0)), "s04r2b68");
  EXPECT_EQ(Str(r->Label(Level::kThread, 2)), "THREAD 1.3.1");
  EXPECT_EQ(r->Label(Level::kThread, 4), nullptr);

  r = ReadRow(kData + "/profet/lulesh_7+1_with_uncores_sockets1+2.chop8.row", &diags);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(r->Labels(Level::kCpu)->size(), 20u);
  EXPECT_EQ(Str(r->Label(Level::kCpu, 0)), "01.epeec04");
  EXPECT_EQ(Str(r->Label(Level::kThread, 17)), "THREAD 2.10.1");

  r = ReadRow(kData + "/compss_cholesky/cholesky_autoparallel.row", &diags);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(Str(r->Label(Level::kThread, 7)), "THREAD 1.2.5");
  EXPECT_EQ(Str(r->Label(Level::kNode, 0)), "linux-BSC");
}

}  // namespace
}  // namespace parallax::io
