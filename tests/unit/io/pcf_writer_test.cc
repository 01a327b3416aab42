#include "src/io/pcf/pcf_writer.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "src/io/pcf/pcf_reader.h"

namespace parallax::io {
namespace {

using model::PcfCatalog;

const std::string kData = PARALLAX_TEST_DATA;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

PcfCatalog Parse(std::string_view text) {
  PcfDiagnostics diags;
  Result<PcfCatalog> r = ParsePcf(text, "t.pcf", &diags);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  return std::move(r).value();
}

// A catalog built in code, with one line of every kind.
PcfCatalog Built() {
  PcfCatalog c;
  c.default_options = {{"LEVEL", "THREAD", {}}, {"NUM_OF_STATE_COLORS", "1000", {}}};
  c.default_semantic = {{"THREAD_FUNC", "State As Is", {}}};
  c.states = {{0, "Idle", {}}, {3, "Waiting a message", {}}};
  c.states_color = {{0, {117, 195, 255}, {}}};
  model::PcfEventBlock mpi;
  mpi.types = {{"9", 50000001, "MPI Point-to-point", {}}, {"9", 50000002, "MPI Collective", {}}};
  mpi.values = {{0, "Outside MPI", {}}, {-1, "Minus one", {}}};
  model::PcfEventBlock papi;
  papi.types = {{"7", 42000050, "PAPI_TOT_INS", {}}};
  papi.precision = 3;
  c.event_blocks = {mpi, papi};
  c.gradient_color = {{0, {0, 255, 2}, {}}};
  c.gradient_names = {{0, "Gradient 0", {}}};
  c.Finalize();
  return c;
}

constexpr std::string_view kBuiltText =
    "DEFAULT_OPTIONS\n"
    "\n"
    "LEVEL               THREAD\n"
    "NUM_OF_STATE_COLORS 1000\n"
    "\n"
    "\n"
    "DEFAULT_SEMANTIC\n"
    "\n"
    "THREAD_FUNC          State As Is\n"
    "\n"
    "\n"
    "STATES\n"
    "0    Idle\n"
    "3    Waiting a message\n"
    "\n"
    "\n"
    "STATES_COLOR\n"
    "0    {117,195,255}\n"
    "\n"
    "\n"
    "EVENT_TYPE\n"
    "9    50000001    MPI Point-to-point\n"
    "9    50000002    MPI Collective\n"
    "VALUES\n"
    "0      Outside MPI\n"
    "-1      Minus one\n"
    "\n"
    "\n"
    "EVENT_TYPE\n"
    "7    42000050    PAPI_TOT_INS\n"
    "PRECISION 3\n"
    "\n"
    "\n"
    "GRADIENT_COLOR\n"
    "0    {0,255,2}\n"
    "\n"
    "\n"
    "GRADIENT_NAMES\n"
    "0    Gradient 0\n"
    "\n"
    "\n";

TEST(PcfWriterTest, CanonicalLayoutForACatalogBuiltInCode) {
  EXPECT_EQ(WritePcf(Built()), kBuiltText);
}

TEST(PcfWriterTest, CanonicalOutputReadsBackEqual) {
  const PcfCatalog built = Built();
  PcfCatalog back = Parse(WritePcf(built));
  EXPECT_EQ(back, built);
  EXPECT_EQ(back.Precision(42000050), 3);
  EXPECT_EQ(*back.EventValueLabel(50000002, -1), "Minus one");
}

TEST(PcfWriterTest, EmptyCatalogWritesNothing) { EXPECT_EQ(WritePcf(PcfCatalog()), ""); }

TEST(PcfWriterTest, EmptyFieldsDropTheirGap) {
  PcfCatalog c;
  c.states = {{5, "", {}}};
  model::PcfEventBlock b;
  b.types = {{"0", 8, "", {}}};
  b.values_line = true;  // a VALUES line with no value after it
  c.event_blocks = {b};
  const std::string text = WritePcf(c);
  EXPECT_EQ(text, "STATES\n5\n\n\nEVENT_TYPE\n0    8\nVALUES\n\n\n");
  EXPECT_EQ(Parse(text), c);
}

TEST(PcfWriterTest, ParsedTextIsWrittenBackByteForByte) {
  const std::string text =
      "# written by hand\n"
      "STATES\n"
      "  1\tRunning   \n"
      "\n"
      "EVENT_TYPE\n"
      "0 1 A\n"
      "VALUES\n"
      "1 one\n"
      "PRECISION  2\n"
      "2 two\n"
      "EVENT_TYPE\n"
      "0 2 B\n"
      "VALUES\n"
      "STATES\n"
      "2 Second section\n"
      "GRADIENT_COLOR\n"
      "\n"
      "# the end\n";
  EXPECT_EQ(WritePcf(Parse(text)), text);
}

TEST(PcfWriterTest, CrlfTextIsWrittenBackWithCrlf) {
  const std::string text = "STATES\r\n1    Running\r\n\r\nEVENT_TYPE\r\n0 7 Seven\r\n\r\n";
  EXPECT_EQ(WritePcf(Parse(text)), text);
}

TEST(PcfWriterTest, CarriageReturnsInLabelsSurviveRoundTrips) {
  // A label ending in "\r\r" used to lose one '\r' per read/write cycle.
  for (const std::string text : {"STATES\n1 Running\r\r\nEVENT_TYPE\n0 7 Seven\r\n",
                                 "STATES\r\n1 Running\r\r\r\nEVENT_TYPE\r\n0 7 Seven\r\r\n"}) {
    SCOPED_TRACE(text);
    std::string once = WritePcf(Parse(text));
    EXPECT_EQ(once, text);
    EXPECT_EQ(WritePcf(Parse(once)), text);
  }
}

TEST(PcfWriterTest, AChangedCatalogIsWrittenCanonically) {
  PcfCatalog c = Parse("STATES\n1\tRunning\n\n\nEVENT_TYPE\n0 7 Seven\n# gone\n");
  c.states.push_back({2, "Added", {}});
  c.Finalize();
  // The layout no longer describes the content: canonical sections and spacing, but the
  // spacing recorded for the lines that came from the file is kept.
  EXPECT_EQ(WritePcf(c), "STATES\n1\tRunning\n2    Added\n\n\nEVENT_TYPE\n0 7 Seven\n\n\n");
  EXPECT_EQ(Parse(WritePcf(c)), c);
}

TEST(PcfWriterTest, PrecisionStaysWhereItWas) {
  for (const char* text :
       {"EVENT_TYPE\nPRECISION 1\n0 1 A\n", "EVENT_TYPE\n0 1 A\nPRECISION 1\nVALUES\n1 x\n",
        "EVENT_TYPE\n0 1 A\nVALUES\nPRECISION 1\n1 x\n",
        "EVENT_TYPE\n0 1 A\nVALUES\n1 x\nPRECISION 1\n",
        "EVENT_TYPE\n0 1 A\nVALUES\nPRECISION 1\n"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(WritePcf(Parse(text)), text);
  }
}

class RealPcfTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RealPcfTest, RoundTripIsByteIdentical) {
  const std::string path = kData + "/" + GetParam();
  const std::string original = Slurp(path);
  ASSERT_FALSE(original.empty()) << path;
  const PcfCatalog c = Parse(original);
  const std::string written = WritePcf(c);
  EXPECT_EQ(written.size(), original.size());
  EXPECT_TRUE(written == original)
      << "first difference at byte "
      << std::mismatch(written.begin(), written.end(), original.begin(), original.end()).first -
             written.begin();
}

TEST_P(RealPcfTest, CanonicalRewriteReadsBackEqual) {
  PcfCatalog c = Parse(Slurp(kData + "/" + GetParam()));
  PcfCatalog stripped = c;
  stripped.layout.clear();  // forces the canonical layout
  const std::string canonical = WritePcf(stripped);
  PcfCatalog back = Parse(canonical);
  EXPECT_EQ(back, c);
  // Canonical output is a fixed point.
  back.layout.clear();
  EXPECT_EQ(WritePcf(back), canonical);
}

INSTANTIATE_TEST_SUITE_P(
    AllFiles, RealPcfTest,
    ::testing::Values("bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.pcf",
                      "compss_cholesky/cholesky_autoparallel.pcf", "epoch/epoch_1proc.pcf",
                      "epoch/epoch_2proc.pcf", "epoch/epoch_4proc.pcf", "omp/omp2.pcf",
                      "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.pcf", "profet/test1.pcf",
                      "profet/test2.pcf", "profet/test3.pcf", "qsort_beo3/qsort_beo3.pcf"));

}  // namespace
}  // namespace parallax::io
