#include "src/io/row/row_writer.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "src/io/row/row_reader.h"

namespace parallax::io {
namespace {

using model::Level;
using model::RowNames;

const std::string kData = PARALLAX_TEST_DATA;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

RowNames Parse(std::string_view text) {
  RowDiagnostics diags;
  Result<RowNames> r = ParseRow(text, "t.row", &diags);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  return std::move(r).value();
}

TEST(RowWriterTest, NamesBuiltInCodeUseExtraeLayout) {
  RowNames names;
  names.SetLabels(Level::kCpu, {"1.host", "2.host"});
  names.SetLabels(Level::kNode, {"host"});
  names.SetLabels(Level::kThread, {"THREAD 1.1.1", "", "THREAD 1.2.1"});
  const std::string text = WriteRow(names);
  EXPECT_EQ(text,
            "LEVEL CPU SIZE 2\n1.host\n2.host\n\nLEVEL NODE SIZE 1\nhost\n\n"
            "LEVEL THREAD SIZE 3\nTHREAD 1.1.1\n\nTHREAD 1.2.1\n");
  EXPECT_EQ(Parse(text), names);
  EXPECT_EQ(WriteRow(RowNames()), "");
}

TEST(RowWriterTest, ReplacedLabelsGetAFreshHeader) {
  RowNames names = Parse("LEVEL  NODE  SIZE 1\nold\n");
  EXPECT_EQ(WriteRow(names), "LEVEL  NODE  SIZE 1\nold\n");
  names.SetLabels(Level::kNode, {"a", "b"});
  EXPECT_EQ(WriteRow(names), "LEVEL NODE SIZE 2\na\nb\n");
}

TEST(RowWriterTest, CarriageReturnsInLabelsSurviveRoundTrips) {
  // A label ending in "\r\r" used to lose one '\r' per read/write cycle.
  for (const std::string text :
       {"LEVEL CPU SIZE 2\ncpu1\r\r\ncpu2\r\n", "LEVEL CPU SIZE 2\r\ncpu1\r\r\r\ncpu2\r\n"}) {
    SCOPED_TRACE(text);
    std::string once = WriteRow(Parse(text));
    EXPECT_EQ(once, text);
    EXPECT_EQ(WriteRow(Parse(once)), text);
  }
}

TEST(RowWriterTest, LayoutIsKept) {
  for (const char* text : {"# names\nLEVEL NODE SIZE 1\nn\n\n\nLEVEL CPU SIZE 1\nc\n\n",
                           "LEVEL NODE SIZE 1\r\nn\r\n\r\nLEVEL CPU SIZE 0\r\n",
                           "LEVEL NODE SIZE 1\nn\nLEVEL CPU SIZE 1\n#c\n"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(WriteRow(Parse(text)), text);
  }
}

class RealRowTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RealRowTest, RoundTripIsByteIdentical) {
  const std::string original = Slurp(kData + "/" + GetParam());
  ASSERT_FALSE(original.empty());
  const RowNames names = Parse(original);
  EXPECT_FALSE(names.empty());
  EXPECT_EQ(WriteRow(names), original);
}

INSTANTIATE_TEST_SUITE_P(
    AllFiles, RealRowTest,
    ::testing::Values("bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.row",
                      "compss_cholesky/cholesky_autoparallel.row", "epoch/epoch_1proc.row",
                      "epoch/epoch_2proc.row", "epoch/epoch_4proc.row", "omp/omp2.row",
                      "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.row", "profet/test1.row",
                      "profet/test2.row", "profet/test3.row"));

}  // namespace
}  // namespace parallax::io
