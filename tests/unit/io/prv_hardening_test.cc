// Regression tests of the .prv reader against hostile or damaged input: streamed gzip
// (truncated, not gzip, corrupt, several members), the memory budget, binary data, and the
// diagnostics' order and wording.

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "src/base/input_buffer.h"
#include "src/io/prv/prv_reader.h"
#include "tests/unit/io/prv_test_util.h"
#include "tests/unit/scratch_folder.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;
using testing::kTraceT;
using testing::Parse;

const store::ThreadRecords& Thread(const PrvTrace& t, uint32_t i) {
  return t.store.thread(ThreadIndex(i));
}

// One gzip member holding `text`.
std::string Gzip(std::string_view text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string WriteTemp(const std::string& name, std::string_view bytes) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

PrvReadOptions Options(size_t chunk, unsigned threads = 2, bool strict = false) {
  PrvReadOptions o;
  o.chunk_bytes = chunk;
  o.threads = threads;
  o.strict = strict;
  return o;
}

// Trace T followed by `n` more copies of its body, shifted in time so the records stay sorted:
// a body large against small chunks.
std::string LongTrace(int n) {
  std::string text = kTraceT;
  for (int k = 1; k <= n; ++k) {
    const std::string shift = std::to_string(k * 1000);
    text += "1:1:1:1:1:" + shift + "0:" + shift + "5:1\n";
    text += "2:1:1:1:1:" + shift + "1:50000001:" + std::to_string(k) + "\n";
    text += "1:2:1:2:1:" + shift + "0:" + shift + "7:3\n";
  }
  return text;
}

void ExpectSameStore(const PrvTrace& a, const PrvTrace& b) {
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(Thread(a, i).states.begin, Thread(b, i).states.begin);
    EXPECT_EQ(Thread(a, i).states.end, Thread(b, i).states.end);
    EXPECT_EQ(Thread(a, i).states.state, Thread(b, i).states.state);
    EXPECT_EQ(Thread(a, i).events.time, Thread(b, i).events.time);
    EXPECT_EQ(Thread(a, i).events.value, Thread(b, i).events.value);
  }
  EXPECT_EQ(a.store.comms().rows(), b.store.comms().rows());
  EXPECT_EQ(a.body_lines, b.body_lines);
  EXPECT_EQ(a.file_bytes, b.file_bytes);
}

TEST(PrvHardening, GzipIsStreamedInBoundedPiecesAndGivesTheTextStore) {
  const std::string text = LongTrace(1500);  // about 50 KB
  auto plain = ParsePrv(text, "t.prv", Options(0));
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  const std::string gz = Gzip(text);
  for (size_t chunk : {1, 7, 100, 4096}) {
    SCOPED_TRACE(chunk);
    auto r = ParsePrvGzip(gz, "t.prv.gz", Options(chunk));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ExpectSameStore(*r, *plain);
    EXPECT_EQ(r->diagnostics.problems(), 0u);
    // Two workers hold two pieces of about `chunk` bytes (at least a line): never the text.
    EXPECT_GT(r->text_buffer_bytes, 0u);
    EXPECT_LE(r->text_buffer_bytes, 4 * std::max<size_t>(chunk, 128) + 256);
  }
}

TEST(PrvHardening, GzipFileIsReadThroughTheStream) {
  const std::string text = LongTrace(50);
  std::string path = WriteTemp("hardening_stream.prv.gz", Gzip(text));
  auto r = ReadPrv(path, Options(64));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto plain = Parse(text);
  ASSERT_TRUE(plain.ok());
  ExpectSameStore(*r, *plain);
}

TEST(PrvHardening, GzipHeaderLongerThanTheFirstRead) {
  // 30000 communicator lines (about 500 KB): the header is read from a growing prefix.
  std::string text = "#Paraver (x):1000:1(1):1:1(1:1),30000\n";
  for (int i = 0; i < 30000; ++i) text += "c:1:" + std::to_string(i + 1) + ":1:1\n";
  const size_t header_end = text.size();
  text += "1:1:1:1:1:0:10:1\n1:1:1:1:1:10:20:2\n";
  auto r = ParsePrvGzip(Gzip(text), "t.prv.gz", Options(100));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->header.communicators.size(), 30000u);
  EXPECT_EQ(r->header.communicators.back(), "c:1:30000:1:1");
  EXPECT_EQ(Thread(*r, 0).states.state, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(r->file_bytes, text.size());
  // Cut inside the communicator lines: the same error as for the text.
  auto cut = ParsePrvGzip(Gzip(text.substr(0, header_end / 2)), "t.prv.gz", Options(100));
  auto cut_text = Parse(text.substr(0, header_end / 2));
  ASSERT_FALSE(cut.ok());
  ASSERT_FALSE(cut_text.ok());
  EXPECT_EQ(cut.status().message(), cut_text.status().message());
  EXPECT_EQ(cut.status().where().line, cut_text.status().where().line);
}

TEST(PrvHardening, SeveralGzipMembersAreOneTrace) {
  const std::string text = LongTrace(20);
  const size_t cut = text.find('\n', text.size() / 2) + 1;
  std::string gz = Gzip(text.substr(0, cut)) + Gzip(text.substr(cut));
  auto r = ParsePrvGzip(gz, "t.prv.gz", Options(50));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto plain = Parse(text);
  ExpectSameStore(*r, *plain);
  EXPECT_EQ(r->diagnostics.problems(), 0u);
}

// paramedir writes its outputs as text whatever their name (pypop's X.prv.roifilter.gz): a .gz
// name holding text is read as text, as zlib's readers do, with the same records.
TEST(PrvHardening, TextNamedGzIsReadAsText) {
  std::string path = WriteTemp("hardening_text.prv.gz", kTraceT);
  auto r = ReadPrv(path, Options(0));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto plain = Parse(kTraceT);
  ExpectSameStore(*r, *plain);
}

TEST(PrvHardening, TruncatedGzipLoadsWhatIsThereAndSaysWhereItStops) {
  const std::string text = LongTrace(2000);
  const std::string gz = Gzip(text);
  const std::string cut = gz.substr(0, gz.size() / 2);
  auto r = ParsePrvGzip(cut, "t.prv.gz", Options(1000));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Diagnostics& d = r->diagnostics;
  ASSERT_EQ(d.count(DiagKind::kTruncatedInput), 1u);
  EXPECT_NE(d.examples(DiagKind::kTruncatedInput)[0].detail.find(
                "stops at byte " + std::to_string(cut.size()) + " inside a gzip member"),
            std::string::npos)
      << d.examples(DiagKind::kTruncatedInput)[0].detail;
  EXPECT_GT(Thread(*r, 0).states.size(), 100u);
  EXPECT_LT(r->file_bytes, text.size());
  // Strict mode refuses it, naming the cut.
  auto strict = ParsePrvGzip(cut, "t.prv.gz", Options(1000, 2, true));
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("inside a gzip member"), std::string::npos)
      << strict.status().ToString();
}

TEST(PrvHardening, CorruptGzipIsAnErrorWithTheOffset) {
  std::string gz = Gzip(LongTrace(2000));
  for (size_t i = gz.size() / 3; i < gz.size() / 3 + 64; ++i)
    gz[i] = static_cast<char>(gz[i] ^ 0x5a);
  auto r = ParsePrvGzip(gz, "t.prv.gz", Options(1000));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("corrupt gzip data at compressed byte"), std::string::npos)
      << r.status().ToString();
}

TEST(PrvHardening, GarbageAfterTheGzipDataIsReported) {
  std::string gz = Gzip(kTraceT) + "garbage";
  auto r = ParsePrvGzip(gz, "t.prv.gz", Options(0));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->diagnostics.count(DiagKind::kTrailingData), 1u);
  EXPECT_NE(r->diagnostics.examples(DiagKind::kTrailingData)[0].detail.find("7 bytes"),
            std::string::npos);
}

TEST(PrvHardening, ATraceOverTheMemoryBudgetIsRefusedWithTheBudget) {
  const std::string text = LongTrace(1000);
  PrvReadOptions o = Options(0);
  o.memory_budget = 10000;
  for (bool gzip : {false, true}) {
    SCOPED_TRACE(gzip);
    auto r = gzip ? ParsePrvGzip(Gzip(text), "t.prv.gz", o) : ParsePrv(text, "t.prv", o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("does not fit in the memory budget"), std::string::npos)
        << r.status().ToString();
    EXPECT_NE(r.status().message().find("the budget is 9.8 KiB"), std::string::npos)
        << r.status().ToString();
    EXPECT_NE(r.status().hint().find("memory limit"), std::string::npos);
  }
  // Streamed in small pieces, the load stops as soon as what was counted exceeds the budget:
  // before the end, so the need is a lower bound.
  o.chunk_bytes = 512;
  auto early = ParsePrvGzip(Gzip(text), "t.prv.gz", o);
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("its records need more than"), std::string::npos)
      << early.status().ToString();
  o.memory_budget = 64 << 20;
  EXPECT_TRUE(ParsePrv(text, "t.prv", o).ok());
  EXPECT_TRUE(ParsePrvGzip(Gzip(text), "t.prv.gz", o).ok());
}

TEST(PrvHardening, BinaryDataIsRefusedAtOnce) {
  // A NUL near the start: the file is not a text trace (a file of NUL bytes used to be scanned
  // whole). The message points at the byte.
  std::string zeros(1 << 20, '\0');
  auto r = Parse(zeros);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("binary data: a NUL byte at byte offset 0"),
            std::string::npos)
      << r.status().ToString();
  std::string header_nul = "#Paraver (x):10:1(1):1:1(1:1)\n1:1:1:1:1:0:10:1\n1:1:";
  header_nul += '\0';
  header_nul += "\n";
  auto h = Parse(header_nul);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().where().line, 3u);
  EXPECT_EQ(h.status().where().column, 5u);
  auto gz = ParsePrvGzip(Gzip(zeros), "t.prv.gz", Options(0));
  ASSERT_FALSE(gz.ok());
  EXPECT_NE(gz.status().message().find("binary data"), std::string::npos);
}

TEST(PrvHardening, ControlBytesInMessagesAreEscaped) {
  std::string text =
      "#Paraver (x):10:1(1):1:1(1:1)\n1:1:1:1:1:0:10:1\n1:1:1:1:1:0:10:\x01\x1b[31m\n";
  auto r = Parse(text);
  ASSERT_TRUE(r.ok());
  const auto& ex = r->diagnostics.examples(DiagKind::kSyntax);
  ASSERT_EQ(ex.size(), 1u);
  EXPECT_EQ(ex[0].detail, "expected a number, found '\\x01'");
  auto header = Parse(
      "#Paraver (x):1\x1b"
      "0:1(1):1:1(1:1)\n");
  ASSERT_FALSE(header.ok());
  EXPECT_EQ(header.status().ToString().find('\x1b'), std::string::npos)
      << header.status().ToString();
  EXPECT_NE(header.status().ToString().find("\\x1b"), std::string::npos)
      << header.status().ToString();
}

TEST(PrvHardening, ARejectedLineIsNotAlsoOutOfOrder) {
  // The second event line has an earlier time but is rejected (negative type): one problem.
  std::string text =
      "#Paraver (x):100:1(1):1:1(1:1)\n"
      "2:1:1:1:1:50:7:1\n"
      "2:1:1:1:1:5:-7:1\n"
      "2:1:1:1:1:60:7:2\n";
  for (size_t chunk : {0, 1, 20}) {
    auto r = Parse(text, chunk);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->diagnostics.count(DiagKind::kNumberTooLarge), 1u) << chunk;
    EXPECT_EQ(r->diagnostics.count(DiagKind::kOutOfOrder), 0u) << chunk;
    EXPECT_EQ(Thread(*r, 0).events.time, (std::vector<model::Time>{50, 60})) << chunk;
    auto strict = Parse(text, chunk, true);
    ASSERT_FALSE(strict.ok());
    EXPECT_NE(strict.status().message().find("event type must be"), std::string::npos)
        << strict.status().ToString();
    EXPECT_EQ(strict.status().where().line, 3u);
  }
}

TEST(PrvHardening, StrictNamesTheFirstProblemInFileOrder) {
  std::string text =
      "#Paraver (x):100:1(1):1:1(1:1)\n"
      "1:1:1:1:1:50:60:1\n"
      "1:1:1:1:1:10:20:1\n"  // out of order (a warning kind listed before syntax errors)
      "1:1:1:1:1:10:x:1\n";
  std::string earlier_syntax =
      "#Paraver (x):100:1(1):1:1(1:1)\n"
      "1:1:1:1:1:50:60:1\n"
      "1:1:1:1:1:10:x:1\n"
      "1:1:1:1:1:10:20:1\n";
  auto a = Parse(text, 0, true);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().where().line, 3u);
  EXPECT_NE(a.status().message().find("comes after"), std::string::npos) << a.status().message();
  auto b = Parse(earlier_syntax, 0, true);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().where().line, 3u);
  EXPECT_NE(b.status().message().find("expected a number"), std::string::npos)
      << b.status().message();
}

TEST(PrvHardening, DiagnosticExamplesAreTheFirstInFileOrderWhateverTheChunking) {
  // Twelve records, each earlier than the one before: eleven out-of-order records, detected
  // inside a chunk or across a chunk boundary depending on the chunking.
  std::string text = "#Paraver (x):1000:1(1):1:1(1:1)\n";
  for (int t = 120; t >= 10; t -= 10)
    text += "1:1:1:1:1:" + std::to_string(t) + ":" + std::to_string(t + 5) + ":1\n";
  auto reference = ParsePrv(text, "t.prv", Options(1 << 20, 1));
  ASSERT_TRUE(reference.ok());
  const auto& want = reference->diagnostics.examples(DiagKind::kOutOfOrder);
  ASSERT_EQ(want.size(), Diagnostics::kMaxExamples);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(want[i].line, 3 + i);
  for (unsigned threads : {1u, 2u, 3u}) {
    for (size_t chunk = 1; chunk < 200; chunk += 7) {
      auto r = ParsePrv(text, "t.prv", Options(chunk, threads));
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->diagnostics.count(DiagKind::kOutOfOrder), 11u);
      const auto& got = r->diagnostics.examples(DiagKind::kOutOfOrder);
      ASSERT_EQ(got.size(), want.size()) << chunk;
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].line, want[i].line) << "chunk " << chunk << " threads " << threads;
        EXPECT_EQ(got[i].detail, want[i].detail) << "chunk " << chunk << " threads " << threads;
      }
    }
  }
}

TEST(PrvHardening, EveryRecordRejectedShowsTheFirstReason) {
  auto r = Parse("#Paraver (x):100:1(1):1:1(1:1)\n1:1:9:1:1:0:10:1\n1:1:1:1:1:0:x:1\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 2u);
  EXPECT_EQ(r.status().where().column, 3u);
  EXPECT_NE(r.status().message().find("every record was rejected (2 skipped)"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("thread 9.1.1 is not declared in the header"),
            std::string::npos)
      << r.status().message();
  auto header_only = Parse("#Paraver (x):100:1(1):1:1(1:1)\n");
  ASSERT_FALSE(header_only.ok());
  EXPECT_EQ(header_only.status().hint(), "the file holds only a header");
}

TEST(PrvHardening, ManyDeclaredThreadsMakeChunksLarger) {
  // Found by fuzzing: a 624-byte trace whose header declares a task of 165535 threads, cut in
  // chunks of a few bytes, timed out (each chunk keeps counters for every thread).
  std::string many = "#Paraver (x):100:1(1):1:2(165535:1,1:1)\n";
  std::string body;
  for (int i = 0; i < 20; ++i)
    body += "1:1:1:2:1:" + std::to_string(i) + ":" + std::to_string(i + 1) + ":1\n";
  auto r = ParsePrv(many + body, "t.prv", Options(16));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->chunks, 1u);
  EXPECT_EQ(r->store.threads(), 165536u);
  EXPECT_EQ(Thread(*r, 165535).states.size(), 20u);
  // With few threads, small chunks stay small (the boundary tests rely on it).
  auto few_ok = ParsePrv(std::string(kTraceT), "t.prv", Options(16));
  ASSERT_TRUE(few_ok.ok());
  EXPECT_GT(few_ok->chunks, 10u);
}

// Whole-file reads (cfgs, companion files) of .gz names: text is read as text, and a truncated file
// is an error there, since such a reader has no diagnostics table.
TEST(PrvHardening, WholeFileGzipReadsRefuseTextTruncationAndOversize) {
  const std::string text = LongTrace(200);
  const std::string gz = Gzip(text);
  auto whole = base::InputBuffer::Open(WriteTemp("hardening_whole.cfg.gz", gz));
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(whole->view(), text);
  auto not_gzip = base::InputBuffer::Open(WriteTemp("hardening_text.cfg.gz", text));
  ASSERT_TRUE(not_gzip.ok()) << not_gzip.status().ToString();  // text under a .gz name
  EXPECT_EQ(not_gzip->view(), text);
  auto cut = base::InputBuffer::Open(WriteTemp("hardening_cut.cfg.gz", gz.substr(0, gz.size() / 2)));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("truncated gzip file: the compressed data stops at byte " +
                                        std::to_string(gz.size() / 2)),
            std::string::npos)
      << cut.status().ToString();
  auto big = base::InputBuffer::Open(WriteTemp("hardening_big.cfg.gz", gz), {}, 64 << 10);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("larger than the memory budget allows"), std::string::npos)
      << big.status().ToString();
}

// A .prv truncated in place while it is parsed (rsync --inplace, cp onto it): the reader maps
// the file, and the first read past the new end raised SIGBUS and killed the process. The lost
// pages now read as zeros and the load fails saying that the file changed.
TEST(PrvHardening, ATraceTruncatedWhileItIsReadIsReportedAsChanged) {
  test::ScratchFolder dir;
  std::string text = "#Paraver (x):40000000:1(1):1:1(1:1)\n";
  for (int i = 0; i < 40000; ++i) text += "1:1:1:1:1:" + std::to_string(i * 1000) + ":" + std::to_string(i * 1000 + 1000) + ":1\n";
  const std::string path = dir.Write("cut.prv", text);
  PrvReadOptions o;
  o.threads = 1;
  o.chunk_bytes = 4096;
  bool cut = false;
  o.progress = [&](uint64_t, uint64_t) {
    if (!cut) cut = ::truncate(path.c_str(), 64) == 0;
  };
  auto r = ReadPrv(path, o);
  ASSERT_TRUE(cut);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().file, path);
  EXPECT_NE(r.status().message().find("the file changed while it was read"), std::string::npos)
      << r.status().ToString();
}

}  // namespace
}  // namespace parallax::io
