// Every input of the fuzz corpora (tests/fuzz/corpus: seeds and the inputs of crashes found by
// fuzzing) checked with the fuzz targets' properties, so a fixed crash stays fixed in the
// normal test run: reading never fails hard, and writing what was read is a fixed point.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_reader.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_reader.h"
#include "src/io/row/row_writer.h"

namespace parallax::io {
namespace {

std::vector<std::pair<std::string, std::string>> Corpus(const std::string& target) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::filesystem::path dir =
      std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz" / "corpus" / target;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out.emplace_back(entry.path().filename().string(), s.str());
  }
  EXPECT_GE(out.size(), 5u) << dir;
  return out;
}

TEST(FuzzCorpus, RowFilesWriteBackToAFixedPoint) {
  for (const auto& [name, text] : Corpus("row")) {
    auto first = ParseRow(text, name, nullptr);
    ASSERT_TRUE(first.ok()) << name;
    const std::string once = WriteRow(first.value());
    auto second = ParseRow(once, name, nullptr);
    ASSERT_TRUE(second.ok()) << name;
    EXPECT_EQ(WriteRow(second.value()), once) << name;
  }
}

TEST(FuzzCorpus, PcfFilesWriteBackToAFixedPoint) {
  for (const auto& [name, text] : Corpus("pcf")) {
    auto first = ParsePcf(text, name, nullptr);
    ASSERT_TRUE(first.ok()) << name;
    const std::string once = WritePcf(first.value());
    auto second = ParsePcf(once, name, nullptr);
    ASSERT_TRUE(second.ok()) << name;
    EXPECT_EQ(WritePcf(second.value()), once) << name;
  }
}

TEST(FuzzCorpus, PrvFilesWriteBackToAFixedPoint) {
  for (const auto& [name, bytes] : Corpus("prv")) {
    PrvReadOptions o;
    o.threads = 1;
    o.chunk_bytes = 16 + bytes.size() % 61;  // as the fuzz target does
    o.memory_budget = 64 << 20;
    const bool gzip = bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b';
    auto first = gzip ? ParsePrvGzip(bytes, name, o) : ParsePrv(bytes, name, o);
    if (!first.ok()) continue;  // a refused input is fine; the target only needs no crash
    auto write = [](const PrvTrace& t) {
      return WritePrvToString({&t.header, &t.store, &t.unsigned_value_types, t.open_end_as_number});
    };
    const std::string once = write(first.value());
    auto second = ParsePrv(once, name, o);
    ASSERT_TRUE(second.ok()) << name << ": " << second.status().ToString();
    EXPECT_EQ(write(second.value()), once) << name;
  }
}

// The input of the first crash the row target found, reduced: a dropped first line without '\r'
// followed by a comment ending in "\r\n" used to be read as LF, written with the comment's
// '\r', and then read back as CRLF (the first line kept was now the comment).
TEST(FuzzCorpus, ADroppedFirstLineDoesNotChangeTheLineEnding) {
  const std::string row = "junk\n# comment\r\n\nLEVEL CPU SIZE 1\ncpu1\n";
  auto r = ParseRow(row, "t.row", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->crlf);
  const std::string once = WriteRow(r.value());
  EXPECT_EQ(once, "# comment\r\n\nLEVEL CPU SIZE 1\ncpu1\n");
  EXPECT_EQ(WriteRow(ParseRow(once, "t.row", nullptr).value()), once);
  const std::string pcf = "junk\n# comment\r\n\nSTATES\n1 Running\n";
  auto p = ParsePcf(pcf, "t.pcf", nullptr);
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->crlf);
  const std::string pcf_once = WritePcf(p.value());
  EXPECT_EQ(WritePcf(ParsePcf(pcf_once, "t.pcf", nullptr).value()), pcf_once);
}

}  // namespace
}  // namespace parallax::io
