// The streaming tools' record parser on type-4 global operations: the fields each tool needs
// (objects, time, where the rest begins), and located errors on malformed lines.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "src/tools/prv_record.h"

namespace parallax::tools {
namespace {

TEST(PrvRecord, TypeFourIsOtherForParsePrvRecord) {
  PrvRecord r;
  ASSERT_TRUE(ParsePrvRecord("4:2:1:2:1:73107:91:32:0:10:0", "t.prv", 7, &r).ok());
  EXPECT_EQ(r.kind, 'o');
  EXPECT_TRUE(IsGlobalOpLine("4:2:1:2:1:73107:91:32:0:10:0"));
  EXPECT_FALSE(IsGlobalOpLine("4"));
  EXPECT_FALSE(IsGlobalOpLine("40:1"));
}

// A line of tests/data/qsort_beo3 (an MPI_Bcast's root sending 32 bytes on communicator 91).
TEST(PrvRecord, GlobalOpFields) {
  const std::string line = "4:2:1:2:1:73107:91:32:0:10:0";
  PrvRecord r;
  ASSERT_TRUE(ParseGlobalOp(line, "t.prv", 7, &r).ok());
  EXPECT_EQ(r.kind, '4');
  EXPECT_EQ(r.cpu, 2u);
  EXPECT_EQ(r.appl, 1u);
  EXPECT_EQ(r.task, 2u);
  EXPECT_EQ(r.thread, 1u);
  EXPECT_EQ(r.t1, 73107u);
  EXPECT_EQ(line.substr(r.times_at), "73107:91:32:0:10:0");
  EXPECT_EQ(line.substr(r.pairs_at), "91:32:0:10:0");
  // Negative fields are integers too; one field after the time is enough.
  ASSERT_TRUE(ParseGlobalOp("4:0:1:1:1:5:-1", "t.prv", 1, &r).ok());
  EXPECT_EQ(r.cpu, 0u);
  EXPECT_EQ(r.t1, 5u);
}

TEST(PrvRecord, MalformedGlobalOpsAreLocated) {
  PrvRecord r;
  auto error = [&](const std::string& line) {
    Status s = ParseGlobalOp(line, "t.prv", 3, &r);
    EXPECT_FALSE(s.ok()) << line;
    EXPECT_EQ(s.where().file, "t.prv");
    EXPECT_EQ(s.where().line, 3u);
    return std::to_string(s.where().column) + " " + s.message();
  };
  EXPECT_EQ(error("4:1:1:1:1:100"), "14 global operation without fields after its time");
  EXPECT_EQ(error("4:1:1:1:1:100:"), "15 bad field: expected a value after ':'");
  EXPECT_EQ(error("4:1:1:1:1:100:91:x"), "18 bad global operation field: expected an integer");
  EXPECT_EQ(error("4:1:1:1"), "8 bad thread: expected a non-negative integer");
  EXPECT_EQ(error("4:1:-1:1:1:5:1"), "5 bad application: expected a non-negative integer");
  EXPECT_EQ(error("4:1:1:1:1:99999999999999999999:1"),
            "11 bad time: expected a number that fits in 64 bits");
}

// Numbers are read 8 digits at a time: every length from 1 to 20 digits, at every alignment
// in the line, gives the value std::stoull gives; the byte ending a number (any byte that is
// not a digit, including those just below '0', just above '9' and above 0xF9) stops it.
TEST(PrvRecord, NumbersOfEveryLengthAndEnding) {
  std::mt19937_64 rng(7);
  PrvRecord r;
  for (int len = 1; len <= 19; ++len) {
    for (int pad = 0; pad < 8; ++pad) {
      std::string digits;
      for (int i = 0; i < len; ++i) digits += static_cast<char>('0' + rng() % 10);
      const std::string cpu = std::string(static_cast<size_t>(pad), '0') + "1";
      const std::string line = "2:" + cpu + ":1:1:1:" + digits + ":" + digits + ":-" + digits +
                               ":" + digits + ":" + digits;
      ASSERT_TRUE(ParsePrvRecord(line, "t.prv", 1, &r).ok()) << line;
      const uint64_t want = std::stoull(digits);
      EXPECT_EQ(r.cpu, 1u);
      EXPECT_EQ(r.t1, want) << line;
      ASSERT_EQ(r.events.size(), 2u);
      EXPECT_EQ(r.events[0].type, want);
      EXPECT_EQ(r.events[0].value, -static_cast<int64_t>(want));
      EXPECT_EQ(r.events[0].value_text, "-" + digits);
      EXPECT_EQ(r.events[1].type, want);
      EXPECT_EQ(r.events[1].value, static_cast<int64_t>(want));
    }
  }
  ASSERT_TRUE(
      ParsePrvRecord("1:1:1:1:1:18446744073709551615:18446744073709551615:1", "t.prv", 1, &r).ok());
  EXPECT_EQ(r.t2, UINT64_MAX);
  Status s = ParsePrvRecord("1:1:1:1:1:0:18446744073709551616:1", "t.prv", 1, &r);
  EXPECT_EQ(s.message(), "bad end time: expected a number that fits in 64 bits");
  for (char end : {'/', ';', ' ', 'a', '\xFA', '\xFF', '\x80'}) {
    const std::string line = "2:1:1:1:1:12345678901" + std::string(1, end) + "9:50000001:1";
    s = ParsePrvRecord(line, "t.prv", 1, &r);
    EXPECT_FALSE(s.ok()) << static_cast<int>(end);
    EXPECT_EQ(s.where().column, 22u) << static_cast<int>(end);
    const std::string pair = "2:1:1:1:1:5:50000001:123456789012345" + std::string(1, end) + "1";
    s = ParsePrvRecord(pair, "t.prv", 1, &r);
    EXPECT_FALSE(s.ok()) << static_cast<int>(end);
  }
}

// The seeds of the prv_record fuzz target, with its properties: errors name their line.
TEST(PrvRecord, FuzzCorpusLinesParseOrFailLocated) {
  const std::filesystem::path dir =
      std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz" / "corpus" / "prv_record";
  int global_ops = 0, errors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::string line;
    uint64_t n = 0;
    PrvRecord r;
    while (std::getline(in, line)) {
      ++n;
      Status s = IsGlobalOpLine(line) ? ParseGlobalOp(line, "c.prv", n, &r)
                                      : ParsePrvRecord(line, "c.prv", n, &r);
      if (s.ok() && r.kind == '4') ++global_ops;
      if (!s.ok()) {
        ++errors;
        EXPECT_EQ(s.where().line, n) << entry.path() << ": " << line;
      }
    }
  }
  EXPECT_EQ(global_ops, 6 + 2);  // qsort_globalops.txt, and two edge cases
  EXPECT_EQ(errors, 5 + 3 + 1);  // bad_globalops.txt, bad_records.txt (not "5:1"), the CR line
}

}  // namespace
}  // namespace parallax::tools
