// RecordStream (the tools' pipelined record loop) gives the records, line numbers and errors of
// the plain loop (LineSource::Next + ReadPrvRecord) whatever the number of parsing threads and
// the read size: on real traces (plain and gzipped), on edge cases (CRLF, empty lines, no final
// newline, a line longer than a block) and on malformed input, and it stops cleanly when the
// caller stops early.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/tools/line_source.h"
#include "src/tools/record_stream.h"
#include "tests/unit/tools/tools_test_util.h"

namespace parallax::tools {
namespace {

// What a test compares of one record.
struct Seen {
  uint64_t line_no;
  std::string line;
  char kind;
  uint64_t t1, t2;
  std::vector<std::pair<uint64_t, std::string>> pairs;
  bool operator==(const Seen&) const = default;
};

// The fields a kind sets (the others keep what an earlier line left there).
Seen Of(const PrvRecord& r, uint64_t line_no) {
  const bool timed = r.kind == '1' || r.kind == '2' || r.kind == '3' || r.kind == '4';
  const bool two = r.kind == '1' || r.kind == '3';
  Seen s{line_no, std::string(r.line), r.kind, timed ? r.t1 : 0, two ? r.t2 : 0, {}};
  for (const EventPair& p : r.events) s.pairs.emplace_back(p.type, std::string(p.value_text));
  return s;
}

// The plain loop: every body line after `skip` header lines; the error where it stops.
std::vector<Seen> Plain(const std::string& path, size_t skip, RecordParse parse, Status* error) {
  auto src = LineSource::Open(path, 1 << 16);
  EXPECT_TRUE(src.ok()) << src.status().ToString();
  std::vector<Seen> out;
  std::string_view line;
  PrvRecord rec;
  while (src.value()->Next(&line)) {
    if (src.value()->line_number() <= skip) continue;
    const uint64_t n = src.value()->line_number();
    if (!ReadPrvRecord(line, path, n, &rec, error, parse.pairs)) return out;
    if (parse.global_ops && rec.kind == 'o' && IsGlobalOpLine(line)) {
      *error = ParseGlobalOp(line, path, n, &rec);
      if (!error->ok()) return out;
    }
    out.push_back(Of(rec, n));
  }
  *error = src.value()->status();
  return out;
}

std::vector<Seen> Streamed(const std::string& path, size_t skip, RecordParse parse,
                           unsigned threads, size_t block, Status* error) {
  auto src = LineSource::Open(path, block);
  EXPECT_TRUE(src.ok()) << src.status().ToString();
  std::string_view line;
  for (size_t i = 0; i < skip; ++i) EXPECT_TRUE(src.value()->Next(&line));
  RecordStream stream(*src.value(), parse, threads);
  std::vector<Seen> out;
  const PrvRecord* rec = nullptr;
  while (stream.Next(&rec)) out.push_back(Of(*rec, stream.line_number()));
  *error = stream.status();
  EXPECT_FALSE(stream.Next(&rec));  // stays at the end
  return out;
}

void ExpectSame(const std::string& path, size_t skip, RecordParse parse,
                const std::vector<size_t>& blocks) {
  Status plain_error;
  const std::vector<Seen> expected = Plain(path, skip, parse, &plain_error);
  ASSERT_FALSE(expected.empty());
  for (unsigned threads : {0u, 1u, 2u, 3u}) {
    for (size_t block : blocks) {
      Status error;
      const std::vector<Seen> got = Streamed(path, skip, parse, threads, block, &error);
      EXPECT_EQ(got.size(), expected.size()) << threads << " threads, block " << block;
      EXPECT_TRUE(got == expected) << threads << " threads, block " << block;
      EXPECT_EQ(error.ToString(), plain_error.ToString()) << threads << " threads, " << block;
    }
  }
}

TEST(RecordStreamTest, SameRecordsAsThePlainLoopOnARealTrace) {
  // qsort_beo3: 801 lines, the header and no communicator line.
  const std::string path = tools_test::Data("qsort_beo3/qsort_beo3.prv");
  ExpectSame(path, 1, {Pairs::kRead, false}, {1, 7, 333, 4096, 1 << 20});
  ExpectSame(path, 1, {Pairs::kSkip, false}, {5, 1 << 20});
  ExpectSame(path, 1, {Pairs::kCheck, true}, {64, 1 << 20});
}

// A rewrite on the workers gives each state, event and communication line the text
// "time:time", and fails on the first record at time 106842 (line 338). Every thread count and
// block size gives the same texts, and the error at the same line of the file (the rewrite is
// given the line's number within its block; the stream makes it the file's).
class TimeTwice : public RecordRewrite {
 public:
  bool Rewrite(PrvRecord& r, const std::string& file, uint64_t line_no, std::string& out,
               Status* error) const override {
    if (r.t1 == 106842) {
      *error = Status::Error("refused", {file, line_no, 1}, "");
      return false;
    }
    out += std::to_string(r.t1) + ":" + std::to_string(r.t1);
    r.rewritten_time = r.t1;
    r.rewritten_end = r.t1 + 1;
    return true;
  }
};

TEST(RecordStreamTest, RewriteRunsOnTheWorkersAndStopsWhereItFails) {
  const std::string path = tools_test::Data("qsort_beo3/qsort_beo3.prv");
  const TimeTwice rewrite;
  std::vector<std::string> expected;
  uint64_t expected_line = 0;
  {
    auto src = LineSource::Open(path, 1 << 16);
    ASSERT_TRUE(src.ok());
    std::string_view line;
    PrvRecord rec;
    Status error;
    while (src.value()->Next(&line)) {
      if (src.value()->line_number() == 1) continue;
      ASSERT_TRUE(ReadPrvRecord(line, path, src.value()->line_number(), &rec, &error));
      if (rec.kind != '1' && rec.kind != '2' && rec.kind != '3') continue;
      if (rec.t1 == 106842) {
        expected_line = src.value()->line_number();
        break;
      }
      expected.push_back(std::to_string(rec.t1) + ":" + std::to_string(rec.t1));
    }
  }
  ASSERT_GT(expected.size(), 100u);
  ASSERT_EQ(expected_line, 338u);
  for (unsigned threads : {0u, 2u}) {
    for (size_t block : {size_t{97}, size_t{1} << 20}) {
      auto src = LineSource::Open(path, block);
      ASSERT_TRUE(src.ok());
      std::string_view line;
      ASSERT_TRUE(src.value()->Next(&line));  // the header
      RecordStream stream(*src.value(), {Pairs::kRead, false, &rewrite}, threads);
      std::vector<std::string> got;
      const PrvRecord* rec = nullptr;
      while (stream.Next(&rec)) {
        if (rec->kind != '1' && rec->kind != '2' && rec->kind != '3') continue;
        got.emplace_back(rec->rewritten);
        EXPECT_EQ(rec->rewritten_end, rec->rewritten_time + 1);
      }
      EXPECT_TRUE(got == expected) << threads << " threads, block " << block;
      EXPECT_EQ(stream.status().message(), "refused");
      EXPECT_EQ(stream.status().where().line, expected_line) << threads << ", " << block;
    }
  }
}

TEST(RecordStreamTest, GzipInput) {
  ExpectSame(tools_test::Data("epoch/epoch_1proc.prv.gz"), 1, {Pairs::kRead, false}, {13, 1 << 16});
}

TEST(RecordStreamTest, CrlfEmptyLinesLongLinesAndNoFinalNewline) {
  tools_test::ScratchDir dir;
  std::string events = "2:1:1:1:1:5";
  for (int i = 0; i < 200; ++i) events += ":" + std::to_string(1000 + i) + ":" + std::to_string(i);
  tools_test::WriteAll(dir / "t.prv", "1:1:1:1:1:0:5:1\r\n\r\n\n" + events + "\n# note\n" +
                                          "3:1:1:1:1:1:2:2:1:2:1:3:4:64:7\n4:1:1:1:1:9:1:2:3\n" +
                                          "1:1:1:1:1:5:9:2");
  ExpectSame(dir / "t.prv", 0, {Pairs::kRead, true}, {1, 2, 3, 17, 100, 4096});
  ExpectSame(dir / "t.prv", 0, {Pairs::kCheck, false}, {1, 9, 4096});
}

TEST(RecordStreamTest, MalformedLineIsReportedAfterEveryRecordBeforeIt) {
  tools_test::ScratchDir dir;
  std::string text;
  for (int i = 0; i < 500; ++i)
    text += "1:1:1:1:1:" + std::to_string(i) + ":" + std::to_string(i + 1) + ":1\n";
  text += "2:1:1:1:1:600:7:x\n";  // line 501, column 17: a value that is not a number
  for (int i = 0; i < 500; ++i) text += "1:1:1:1:1:700:701:1\n";
  tools_test::WriteAll(dir / "bad.prv", text);
  ExpectSame(dir / "bad.prv", 0, {Pairs::kRead, false}, {1, 64, 4096, 1 << 20});
  Status error;
  const auto got = Streamed(dir / "bad.prv", 0, {Pairs::kRead, false}, 2, 64, &error);
  EXPECT_EQ(got.size(), 500u);
  EXPECT_EQ(error.where().line, 501u);
  EXPECT_EQ(error.where().column, 17u);
  EXPECT_NE(error.message().find("event value"), std::string::npos) << error.message();
}

TEST(RecordStreamTest, BadGlobalOperationIsLocated) {
  tools_test::ScratchDir dir;
  tools_test::WriteAll(dir / "g.prv", "1:1:1:1:1:0:5:1\n4:1:1:1:1:9:\n");
  ExpectSame(dir / "g.prv", 0, {Pairs::kRead, true}, {1, 4096});
  Status error;
  Streamed(dir / "g.prv", 0, {Pairs::kRead, true}, 2, 4096, &error);
  EXPECT_EQ(error.where().line, 2u);
}

TEST(RecordStreamTest, TruncatedGzipIsAnErrorAfterTheLinesBeforeIt) {
  tools_test::ScratchDir dir;
  FILE* f = std::fopen(tools_test::Data("epoch/epoch_1proc.prv.gz").c_str(), "rb");
  std::string raw(1 << 20, '\0');
  raw.resize(std::fread(raw.data(), 1, raw.size(), f));
  std::fclose(f);
  tools_test::WriteAll(dir / "cut.prv.gz", raw.substr(0, raw.size() / 2));
  for (unsigned threads : {0u, 2u}) {
    Status error;
    const auto got = Streamed(dir / "cut.prv.gz", 1, {Pairs::kSkip, false}, threads, 4096, &error);
    EXPECT_GT(got.size(), 0u);
    EXPECT_NE(error.message().find("cannot decompress"), std::string::npos) << error.ToString();
    EXPECT_EQ(error.where().line, got.back().line_no + 1) << threads;
  }
}

TEST(RecordStreamTest, StoppingEarlyEndsTheWorkers) {
  const std::string path = tools_test::Data("qsort_beo3/qsort_beo3.prv");
  for (unsigned threads : {1u, 2u, 3u}) {
    for (int take : {0, 1, 100}) {
      auto src = LineSource::Open(path, 7);  // many small blocks: the workers are ahead
      ASSERT_TRUE(src.ok());
      RecordStream stream(*src.value(), {}, threads);
      const PrvRecord* rec = nullptr;
      for (int i = 0; i < take; ++i) ASSERT_TRUE(stream.Next(&rec));
      if (take > 0) EXPECT_EQ(stream.line_number(), static_cast<uint64_t>(take));
    }  // the destructor joins the workers; a hang here fails the test by its timeout
  }
}

}  // namespace
}  // namespace parallax::tools
