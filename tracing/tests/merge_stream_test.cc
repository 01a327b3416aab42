// The streaming merge against the in-memory one (MergeOptions::in_memory) on generated process
// files with many threads and many small chunks: with a tiny memory budget (windows of 256 bytes,
// records cut across windows and chunks) the .prv, .pcf, .row and the report must be the same,
// byte for byte (the header's date aside).

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "parallax/trace.h"
#include "tracing/src/merge/merger.h"
#include "tracing/src/record_format.h"

namespace parallax::tracing {
namespace {

uint64_t g_rng = 0x9E3779B97F4A7C15ull;
uint64_t Rand(uint64_t n) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng % n;
}

struct Rec {
  uint64_t time;
  RecordKind kind;
  std::vector<uint64_t> f;
};

std::string Slurp(const std::string& path) {
  std::string s;
  gzFile z = gzopen(path.c_str(), "rb");  // reads plain files as they are
  if (z == nullptr) return s;
  char buf[1 << 16];
  int n;
  while ((n = gzread(z, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  gzclose(z);
  return s;
}

// The .prv without the date of its header.
std::string Body(const std::string& prv) {
  std::string s = Slurp(prv);
  const size_t close = s.find("):");
  return close == std::string::npos ? s : s.substr(close);
}

class PxtFile {
 public:
  explicit PxtFile(const std::string& path) : f_(std::fopen(path.c_str(), "wb")) {}
  ~PxtFile() { Close(); }
  void Close() {
    if (f_) EXPECT_EQ(std::fclose(f_), 0);
    f_ = nullptr;
  }
  void Chunk(ChunkKind kind, uint32_t thread, uint64_t base, const std::string& bytes, uint64_t claimed = 0) {
    ChunkHeader h{kChunkMagic, static_cast<uint32_t>(kind), thread, 0, base, claimed ? claimed : bytes.size()};
    ASSERT_EQ(std::fwrite(&h, sizeof h, 1, f_), 1u);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f_), bytes.size());
  }
  void Meta(const std::string& text) { Chunk(ChunkKind::kMeta, 0, 0, text); }

 private:
  std::FILE* f_;
};

std::string Encode(const Rec& r, uint64_t* last) {
  uint8_t buf[kMaxRecordBytes];
  uint8_t* p = buf;
  *p++ = static_cast<uint8_t>(r.kind);
  p = PutVarint(p, r.time - *last);
  *last = r.time;
  for (uint64_t v : r.f) p = PutVarint(p, v);
  return std::string(reinterpret_cast<char*>(buf), static_cast<size_t>(p - buf));
}

// Writes the records of each thread of one process as chunks of 1 to ~120 bytes, the chunks of
// the threads interleaved at random (each thread's in order).
void WriteThreads(PxtFile* file, std::vector<std::vector<Rec>>* threads, bool backwards = false) {
  struct Pending {
    std::vector<std::string> chunks;
    std::vector<uint64_t> bases;
    size_t next = 0;
  };
  std::vector<Pending> pending(threads->size());
  for (size_t th = 0; th < threads->size(); ++th) {
    auto& recs = (*threads)[th];
    std::stable_sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.time < b.time; });
    uint64_t last = recs.empty() ? 0 : recs.front().time - Rand(50);
    std::string chunk;
    uint64_t base = last;
    size_t limit = 1 + Rand(120);
    for (const Rec& r : recs) {
      chunk += Encode(r, &last);
      if (chunk.size() >= limit) {
        pending[th].chunks.push_back(chunk);
        pending[th].bases.push_back(base);
        chunk.clear();
        base = last;
        // Every third chunk of thread 1 starts 5 us early: its times go backwards.
        if (backwards && th == 1 && pending[th].chunks.size() % 3 == 0) base = last > 5000 ? last - 5000 : 0;
        limit = 1 + Rand(120);
      }
    }
    if (!chunk.empty()) pending[th].chunks.push_back(chunk), pending[th].bases.push_back(base);
  }
  for (;;) {
    std::vector<size_t> left;
    for (size_t th = 0; th < pending.size(); ++th)
      if (pending[th].next < pending[th].chunks.size()) left.push_back(th);
    if (left.empty()) break;
    const size_t th = left[Rand(left.size())];
    Pending& p = pending[th];
    file->Chunk(ChunkKind::kData, static_cast<uint32_t>(th), p.bases[p.next], p.chunks[p.next]);
    ++p.next;
  }
}

// Three MPI ranks (rank 1 on another host with a drifting clock, rank 2 killed by SIGSEGV with a
// cut last chunk and a damaged one) and a process without rank, six threads each.
void WriteTrace(const std::string& dir, bool backwards) {
  g_rng = 0x9E3779B97F4A7C15ull;
  constexpr int kRanks = 3, kThreads = 6;
  std::vector<std::vector<std::vector<Rec>>> recs(kRanks + 1, std::vector<std::vector<Rec>>(kThreads));
  for (int p = 0; p <= kRanks; ++p)
    for (int th = 0; th < kThreads; ++th) {
      auto& out = recs[static_cast<size_t>(p)][static_cast<size_t>(th)];
      uint64_t t = 100000 + Rand(1000);
      int depth = 0;
      for (int i = 0; i < 400; ++i) {
        t += Rand(5) == 0 ? 0 : Rand(400);  // some records share a time
        switch (Rand(10)) {
          case 0:
            out.push_back({t, RecordKind::kStateEnter, {100 + Rand(4)}}), ++depth;
            break;
          case 1:
            if (depth > 0 || Rand(4) == 0) out.push_back({t, RecordKind::kStateLeave, {}}), --depth;
            break;
          case 2:
            out.push_back({t, RecordKind::kEvent, {1000 + Rand(3), ZigZag(static_cast<int64_t>(Rand(1000)) - 500)}});
            break;
          case 3:
            out.push_back({t, RecordKind::kLocation, {1 + Rand(5)}});  // 5 is not named
            out.push_back({t, RecordKind::kStateEnter, {101}}), ++depth;
            break;
          case 4:
            out.push_back({t, RecordKind::kCpu, {Rand(5)}});  // 0: unknown cpu
            break;
          case 5:
            out.push_back({t, RecordKind::kCodeEvent, {60000018, 0x1000 * Rand(4)}});
            break;
          case 6:
            out.push_back({t, RecordKind::kCaller, {0x400000 + 16 * Rand(6)}});
            out.push_back({t, RecordKind::kEvent, {PXT_TYPE_MPI_P2P, ZigZag(1 + static_cast<int64_t>(Rand(3)))}});
            break;
          case 7:
            out.push_back({t, RecordKind::kEvent, {PXT_TYPE_MPI_COLLECTIVE, ZigZag(10)}});
            out.push_back({t, RecordKind::kEvent, {PXT_TYPE_MPI_COLLECTIVE_COMM, ZigZag(static_cast<int64_t>(Rand(3) * 77))}});
            break;
          case 8:
            out.push_back({t, RecordKind::kEvent, {1000, ZigZag(1)}});
            out.push_back({t, RecordKind::kEvent, {1001, ZigZag(2)}});
            break;
          default:
            out.push_back({t, RecordKind::kEvent, {PXT_TYPE_MPI_P2P, 0}});
            break;
        }
      }
      if (Rand(2)) out.push_back({t + 10, RecordKind::kThreadEnd, {}});
    }
  // Messages between the ranks: receive ordinals posted out of order, duplicated keys, sends to a
  // rank that is not there, receives of messages never sent, some received before sent.
  std::vector<uint64_t> send_seq(64, 0), recv_post(kRanks, 0);
  for (int m = 0; m < 300; ++m) {
    const int src = static_cast<int>(Rand(kRanks));
    const int dst = Rand(20) == 0 ? 7 : static_cast<int>(Rand(kRanks));
    const uint64_t tag = Rand(2), comm = Rand(4) == 0 ? 77 : 0;
    uint64_t& seq = send_seq[static_cast<size_t>(src * 8 + dst) * 2 + tag];
    const uint64_t ts = 100000 + Rand(60000);
    const uint64_t sent = Rand(15) == 0 && seq > 0 ? seq - 1 : seq++;
    recs[static_cast<size_t>(src)][Rand(kThreads)].push_back(
        {ts, RecordKind::kSend, {static_cast<uint64_t>(dst), ZigZag(static_cast<int64_t>(tag)), comm, 64 + Rand(2), sent, ZigZag(static_cast<int64_t>(Rand(300)))}});
    if (dst >= kRanks || Rand(12) == 0) continue;
    const uint64_t tr = ts + Rand(4000) - 1000;
    const uint64_t wait = Rand(500);
    recs[static_cast<size_t>(dst)][Rand(kThreads)].push_back(
        {tr, RecordKind::kRecv, {static_cast<uint64_t>(src), ZigZag(static_cast<int64_t>(tag)), comm, 64, recv_post[static_cast<size_t>(dst)]++ * 3 + Rand(3), ZigZag(static_cast<int64_t>(wait))}});
  }
  const char* hosts[] = {"n0", "n1", "n0", "n0"};
  for (int p = 0; p <= kRanks; ++p) {
    PxtFile file(dir + "/p" + std::to_string(p) + ".pxt");
    const int rank = p == kRanks ? -1 : p;
    std::string meta = "pxt-meta 1\nformat 2\nprocess " + std::to_string(rank) + " " + std::to_string(kRanks) + " " +
                       std::to_string(500 + p) + " 4 1000 0\nhost " + hosts[p] + "\nsession s\nrun s\n";
    meta += "state 100 Work\nstate 101 Located\ntype 1000 Step\nvalue 1000 1 one\n";
    meta += "location 1 a.c:1\nlocation 2 a.c:2\nlocation 3 b.c:3\nlocation 4 b.c:4\ncomm 77 0 1 2\ncomm 99 0 5\n";
    meta += "module 4194304 4198400 0 /nonexistent/program\n";
    if (rank >= 0) meta += p == 1 ? "sync 100000 400 100\n" : "sync 100000 0 100\n";
    file.Meta(meta);
    WriteThreads(&file, &recs[static_cast<size_t>(p)], backwards && p == 0);
    if (p == 2) {
      uint64_t last = 150000;
      const std::string bad = Encode({200000, RecordKind::kEvent, {1000, 2}}, &last) + "\xEE\x01\x02";
      file.Chunk(ChunkKind::kData, 3, 150000, bad);
      file.Meta("abnormal 11 170000\n");
      last = 190000;
      file.Chunk(ChunkKind::kData, 4, 190000, Encode({190500, RecordKind::kStateEnter, {100}}, &last), 1000);
    } else {
      file.Meta("pxt-meta 1\nprocess " + std::to_string(rank) + " " + std::to_string(kRanks) + " " +
                std::to_string(500 + p) + " 4 1000 200000\n" + (p == 1 ? "sync 190000 2400 100\n" : "") +
                "note a lost receive\nnotice no counters\nfinished 1\n");
    }
  }
}

class MergeStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pxt_merge_stream_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::vector<std::string> Inputs() const {
    std::vector<std::string> v;
    for (int p = 0; p < 4; ++p) v.push_back(dir_ + "/p" + std::to_string(p) + ".pxt");
    return v;
  }
  // Merges to OUT (.prv or .prv.gz); the report's lines but the one that names the output.
  std::vector<std::string> Merge(const std::string& out, bool in_memory, uint64_t budget) {
    MergeOptions o;
    o.inputs = Inputs();
    o.output = out;
    o.in_memory = in_memory;
    o.memory_budget = budget;
    MergeReport report;
    std::string error;
    EXPECT_TRUE(MergeTraceFiles(o, &report, &error)) << error;
    std::vector<std::string> lines;
    for (const std::string& l : report.lines)
      if (l.rfind("merged ", 0) != 0) lines.push_back(l);
    return lines;
  }
  void ExpectSame(const std::string& a, const std::string& b) {
    const std::string body = Body(a + ".prv");
    EXPECT_GT(body.size(), 10000u);
    EXPECT_EQ(body, Body(b + ".prv"));
    EXPECT_EQ(Slurp(a + ".pcf"), Slurp(b + ".pcf"));
    EXPECT_EQ(Slurp(a + ".row"), Slurp(b + ".row"));
  }
  std::string dir_;
};

TEST_F(MergeStreamTest, TinyBudgetGivesTheInMemoryMergeByteForByte) {
  WriteTrace(dir_, false);
  const auto reference = Merge(dir_ + "/mem.prv", true, 0);
  for (uint64_t budget : {uint64_t{1}, uint64_t{5000}, uint64_t{0}}) {
    SCOPED_TRACE("budget " + std::to_string(budget));
    EXPECT_EQ(Merge(dir_ + "/stream.prv", false, budget), reference);
    ExpectSame(dir_ + "/stream", dir_ + "/mem");
  }
  // What the trace holds: every kind of line, repaired and unmatched messages, the damaged
  // chunks, the process that died.
  const std::string prv = Slurp(dir_ + "/mem.prv");
  EXPECT_NE(prv.find("\n3:"), std::string::npos);
  EXPECT_NE(prv.find(":" + std::to_string(PXT_TYPE_ABNORMAL_END) + ":11"), std::string::npos);
  std::string all;
  for (const auto& l : reference) all += l + "\n";
  EXPECT_NE(all.find("receives moved"), std::string::npos) << all;
  EXPECT_NE(all.find("unmatched:"), std::string::npos) << all;
  EXPECT_NE(all.find("truncated chunks"), std::string::npos) << all;
  EXPECT_NE(all.find("ended abnormally: rank 2"), std::string::npos) << all;
}

TEST_F(MergeStreamTest, GzipOutputStreamsToo) {
  WriteTrace(dir_, false);
  Merge(dir_ + "/mem.prv", true, 0);
  Merge(dir_ + "/stream.prv.gz", false, 1);
  EXPECT_EQ(Body(dir_ + "/stream.prv.gz"), Body(dir_ + "/mem.prv"));
  EXPECT_EQ(Slurp(dir_ + "/stream.pcf"), Slurp(dir_ + "/mem.pcf"));
  EXPECT_EQ(Slurp(dir_ + "/stream.row"), Slurp(dir_ + "/mem.row"));
  // The file is gzip, not text.
  std::FILE* f = std::fopen((dir_ + "/stream.prv.gz").c_str(), "rb");
  ASSERT_NE(f, nullptr);
  unsigned char magic[2] = {0, 0};
  EXPECT_EQ(std::fread(magic, 1, 2, f), 2u);
  std::fclose(f);
  EXPECT_EQ(magic[0], 0x1f);
  EXPECT_EQ(magic[1], 0x8b);
}

TEST_F(MergeStreamTest, ThreadWhoseTimesGoBackwardsIsMergedInMemory) {
  WriteTrace(dir_, true);
  const auto reference = Merge(dir_ + "/mem.prv", true, 0);
  auto lines = Merge(dir_ + "/stream.prv", false, 1);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), "note: event times of a thread go backwards: merged in memory");
  lines.erase(lines.begin());
  EXPECT_EQ(lines, reference);
  ExpectSame(dir_ + "/stream", dir_ + "/mem");
}

TEST_F(MergeStreamTest, AnOutputThatCannotBeWrittenFails) {
  WriteTrace(dir_, false);
  MergeOptions o;
  o.inputs = Inputs();
  o.output = dir_ + "/missing/dir/m.prv";
  o.memory_budget = 1;
  MergeReport report;
  std::string error;
  EXPECT_FALSE(MergeTraceFiles(o, &report, &error));
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
}

}  // namespace
}  // namespace parallax::tracing
