// The merge on two hand-written process files: clock correction, message matching by
// (comm, source, destination, tag, sequence), causality repair, state stacking, labels.

#include "tracing/src/merge/merger.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tracing/src/merge/merge_model.h"
#include "tracing/src/record_format.h"

namespace parallax::tracing {
namespace {

// Builds one .pxt file: a data chunk of thread 0 plus a metadata chunk.
class PxtBuilder {
 public:
  void Record(RecordKind kind, uint64_t t, std::vector<uint64_t> fields) {
    data_.push_back(static_cast<uint8_t>(kind));
    Put(t - last_);
    last_ = t;
    for (uint64_t f : fields) Put(f);
  }
  void Write(const std::string& path, const std::string& meta) {
    std::ofstream out(path, std::ios::binary);
    Chunk(out, ChunkKind::kData, data_.data(), data_.size());
    Chunk(out, ChunkKind::kMeta, reinterpret_cast<const uint8_t*>(meta.data()), meta.size());
  }

 private:
  void Put(uint64_t v) {
    uint8_t buf[10];
    data_.insert(data_.end(), buf, PutVarint(buf, v));
  }
  static void Chunk(std::ofstream& out, ChunkKind kind, const uint8_t* p, size_t n) {
    ChunkHeader h{kChunkMagic, static_cast<uint32_t>(kind), 0, 0, 0, n};
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n));
  }
  std::vector<uint8_t> data_;
  uint64_t last_ = 0;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pxt_merge_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string dir_;
};

TEST_F(MergeTest, CorrectsClocksMatchesMessagesAndRepairsCausality) {
  // Rank 0: state 100 around two sends (tag 5) to rank 1 at 1000 and 2000.
  PxtBuilder r0;
  r0.Record(RecordKind::kCpu, 0, {1});
  r0.Record(RecordKind::kStateEnter, 1000, {100});
  r0.Record(RecordKind::kSend, 1000, {1, ZigZag(5), 0, 64, 0, ZigZag(0)});
  r0.Record(RecordKind::kSend, 2000, {1, ZigZag(5), 0, 64, 1, ZigZag(0)});
  r0.Record(RecordKind::kStateLeave, 3000, {});
  r0.Write(dir_ + "/a.pxt",
           "process 0 2 1 2 0 3000\nhost n0\nsession s\nsync 0 0 0\n"
           "state 100 Work\nlocation 1 a.c:7\n");
  // Rank 1: clock 1000000 ahead; receives at raw 1001500 (500 after send 0, once corrected)
  // and 1001800 (before send 1 even after correction: must be repaired).
  PxtBuilder r1;
  r1.Record(RecordKind::kCpu, 1000000, {2});
  r1.Record(RecordKind::kLocation, 1001000, {1});
  r1.Record(RecordKind::kEvent, 1001000, {42, ZigZag(-3)});
  r1.Record(RecordKind::kRecv, 1001500, {0, ZigZag(5), 0, 64, 0, ZigZag(100)});
  r1.Record(RecordKind::kRecv, 1001800, {0, ZigZag(5), 0, 64, 1, ZigZag(100)});
  r1.Write(dir_ + "/b.pxt",
           "process 1 2 2 2 0 0\nhost n1\nsession s\nsync 1000000 1000000 10\n"
           "location 1 b.c:9\n");

  MergeReport report;
  std::string error;
  ASSERT_TRUE(
      MergeTraceFiles({{dir_ + "/b.pxt", dir_ + "/a.pxt"}, dir_ + "/m.prv", true}, &report, &error))
      << error;
  EXPECT_EQ(report.processes, 2);
  EXPECT_EQ(report.nodes, 2);
  EXPECT_EQ(report.comms, 2u);
  EXPECT_EQ(report.violations_corrected, 1u);
  EXPECT_EQ(report.violations_raw, 0u);
  std::string prv = Slurp(dir_ + "/m.prv");
  // Header: 2 nodes with 2 cpus each, 2 tasks of 1 thread on nodes 1 and 2; one communicator
  // line (MPI_COMM_WORLD, id 1, both tasks).
  EXPECT_NE(prv.find("_ns:2(2,2):1:2(1:1,1:2),1\nc:1:1:2:1:2\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("1:1:1:1:1:1000:3000:100\n"), std::string::npos) << prv;
  // Message 0 as recorded (logical receive 1400, physical 1500), message 1 moved to 2001.
  EXPECT_NE(prv.find("3:1:1:1:1:1000:1000:4:1:2:1:1400:1500:64:5\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("3:1:1:1:1:2000:2000:4:1:2:1:1700:2001:64:5\n"), std::string::npos) << prv;
  // Both processes' locations get distinct global ids; the event keeps its negative value.
  EXPECT_NE(prv.find(":40001000:1:42:-3\n"), std::string::npos) << prv;
  std::string pcf = Slurp(dir_ + "/m.pcf");
  EXPECT_NE(pcf.find("1      b.c:9\n"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("100    Work\n"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("32    Flushing\n"), std::string::npos) << pcf;
}

// Rank 0 sends three messages of one stream (tag 7) at 1000, 2000, 3000. Rank 1 posted three
// receives (ordinals 10, 11, 12) and completed them in the order 12, 10, 11 (a Waitsome or
// Testany loop): the n-th posted receive must get the n-th message whatever the completion order.
TEST_F(MergeTest, PairsReceivesInPostOrderWhateverTheCompletionOrder) {
  PxtBuilder r0;
  r0.Record(RecordKind::kCpu, 0, {1});
  for (uint64_t i = 0; i < 3; ++i)
    r0.Record(RecordKind::kSend, 1000 * (i + 1), {1, ZigZag(7), 0, 8 * (i + 1), i, ZigZag(0)});
  r0.Write(dir_ + "/a.pxt", "process 0 2 1 1 0 0\nhost n0\nsession s\n");
  PxtBuilder r1;
  r1.Record(RecordKind::kCpu, 0, {1});
  // physical receive times 5000, 6000, 7000; all posted at 500 (logical = physical - delta)
  r1.Record(RecordKind::kRecv, 5000, {0, ZigZag(7), 0, 24, 12, ZigZag(4500)});
  r1.Record(RecordKind::kRecv, 6000, {0, ZigZag(7), 0, 8, 10, ZigZag(5500)});
  r1.Record(RecordKind::kRecv, 7000, {0, ZigZag(7), 0, 16, 11, ZigZag(6500)});
  r1.Write(dir_ + "/b.pxt", "process 1 2 2 1 0 0\nhost n0\nsession s\n");
  MergeReport report;
  std::string error;
  ASSERT_TRUE(MergeTraceFiles({{dir_ + "/a.pxt", dir_ + "/b.pxt"}, dir_ + "/m.prv", false}, &report,
                              &error))
      << error;
  EXPECT_EQ(report.comms, 3u);
  EXPECT_EQ(report.unmatched_sends + report.unmatched_recvs, 0u);
  EXPECT_EQ(report.size_mismatches, 0u);
  std::string prv = Slurp(dir_ + "/m.prv");
  // send 1 (8 bytes) -> ordinal 10 (received at 6000), send 2 -> 11 (7000), send 3 -> 12 (5000)
  EXPECT_NE(prv.find(":1000:1000:1:1:2:1:500:6000:8:7\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find(":2000:2000:1:1:2:1:500:7000:16:7\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find(":3000:3000:1:1:2:1:500:5000:24:7\n"), std::string::npos) << prv;
}

// A send without receive and a receive without send are reported with their rank, MPI call,
// partner, tag and communicator; the processes' notes (receives never completed) too.
TEST_F(MergeTest, ReportsUnmatchedMessagesAndLostReceivesByCallSite) {
  PxtBuilder r0;
  r0.Record(RecordKind::kCpu, 0, {1});
  r0.Record(RecordKind::kEvent, 1000, {50000001, ZigZag(3)});  // MPI_Isend
  r0.Record(RecordKind::kSend, 1000, {1, ZigZag(9), 0, 8, 0, ZigZag(0)});
  r0.Record(RecordKind::kEvent, 1100, {50000001, ZigZag(0)});
  r0.Write(dir_ + "/a.pxt", "process 0 2 1 1 0 0\nhost n0\nsession s\n");
  PxtBuilder r1;
  r1.Record(RecordKind::kCpu, 0, {1});
  r1.Record(RecordKind::kEvent, 2000, {50000001, ZigZag(60)});  // MPI_Waitsome
  r1.Record(RecordKind::kRecv, 2500, {0, ZigZag(4), 0, 8, 0, ZigZag(100)});
  r1.Write(dir_ + "/b.pxt",
           "process 1 2 2 1 0 0\nhost n0\nsession s\n"
           "note 2 receive(s) posted by MPI_Irecv never completed before MPI_Finalize\n");
  MergeReport report;
  std::string error;
  ASSERT_TRUE(MergeTraceFiles({{dir_ + "/a.pxt", dir_ + "/b.pxt"}, dir_ + "/m.prv", false}, &report,
                              &error))
      << error;
  EXPECT_EQ(report.unmatched_sends, 1u);
  EXPECT_EQ(report.unmatched_recvs, 1u);
  EXPECT_EQ(report.lost_notes, 1u);
  std::string all;
  for (const std::string& line : report.lines) all += line + "\n";
  EXPECT_NE(all.find("unmatched: 1 send(s) by rank 0 in MPI_Isend to rank 1, tag 9, "
                     "communicator world\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("unmatched: 1 receive(s) by rank 1 in MPI_Waitsome from rank 0, tag 4, "
                     "communicator world\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("lost: rank 1: 2 receive(s) posted by MPI_Irecv never completed"),
            std::string::npos)
      << all;
}

// Communicators created by the program become communicator lines; the collective events'
// communicator keys become their ids.
TEST_F(MergeTest, WritesCommunicatorLinesAndTheirIds) {
  for (int rank = 0; rank < 3; ++rank) {
    PxtBuilder b;
    b.Record(RecordKind::kCpu, 0, {1});
    b.Record(RecordKind::kEvent, 1000, {50100004, ZigZag(rank == 1 ? 0 : 777)});
    std::string meta = "process " + std::to_string(rank) + " 3 " + std::to_string(rank + 10) +
                       " 1 0 0\nhost n0\nsession s\ncomm 777 0 2\n";
    b.Write(dir_ + "/" + std::to_string(rank) + ".pxt", meta);
  }
  MergeReport report;
  std::string error;
  ASSERT_TRUE(
      MergeTraceFiles({{dir_ + "/0.pxt", dir_ + "/1.pxt", dir_ + "/2.pxt"}, dir_ + "/m.prv", false},
                      &report, &error))
      << error;
  std::string prv = Slurp(dir_ + "/m.prv");
  EXPECT_NE(prv.find("),2\nc:1:1:3:1:2:3\nc:1:2:2:1:3\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("2:1:1:1:1:1000:50100004:2\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("2:1:1:2:1:1000:50100004:1\n"), std::string::npos) << prv;
}

// Processes of one host read one clock: on rank 0's host nothing is corrected even when a
// measurement is off (rank 1: +5000 ns with a 100 ns round trip); on another host every process
// takes the measurement with the shortest round trip (rank 2's, +1000000 ns) instead of its own.
TEST_F(MergeTest, ProcessesOfOneHostShareOneClockCorrection) {
  struct P {
    int rank;
    const char* host;
    uint64_t event_time;
    const char* sync;
  };
  const P procs[] = {{0, "n0", 0, "sync 0 0 0\nsync 9000000 0 0\n"},
                     {1, "n0", 7000, "sync 0 5000 100\nsync 9000000 5000 100\n"},
                     {2, "n1", 1001000, "sync 0 1000000 10\nsync 9000000 1000000 10\n"},
                     {3, "n1", 1002000, "sync 0 1000400 800\nsync 9000000 1000400 800\n"}};
  std::vector<std::string> inputs;
  for (const P& p : procs) {
    PxtBuilder b;
    b.Record(RecordKind::kCpu, p.event_time, {1});
    b.Record(RecordKind::kEvent, p.event_time, {77, ZigZag(p.rank)});
    inputs.push_back(dir_ + "/" + std::to_string(p.rank) + ".pxt");
    b.Write(inputs.back(), "process " + std::to_string(p.rank) + " 4 " +
                               std::to_string(p.rank + 10) + " 1 0 0\nhost " + p.host +
                               "\nsession s\n" + p.sync);
  }
  MergeReport report;
  std::string error;
  ASSERT_TRUE(MergeTraceFiles({inputs, dir_ + "/m.prv", true}, &report, &error)) << error;
  std::string prv = Slurp(dir_ + "/m.prv");
  EXPECT_NE(prv.find(":1:2:1:7000:77:1\n"), std::string::npos) << prv;  // rank 1: as recorded
  EXPECT_NE(prv.find(":1:3:1:1000:77:2\n"), std::string::npos) << prv;  // rank 2: -1000000
  EXPECT_NE(prv.find(":1:4:1:2000:77:3\n"), std::string::npos) << prv;  // rank 3: rank 2's too
  std::string all;
  for (const std::string& line : report.lines) all += line + "\n";
  EXPECT_NE(all.find("rank 1 measured offset +5000 ns; applied +0 ns"), std::string::npos) << all;
  EXPECT_NE(all.find("rank 3 measured offset +1000400 ns; applied +1000000 ns"), std::string::npos)
      << all;
}

TEST_F(MergeTest, RejectsFilesThatAreNotTraces) {
  std::ofstream(dir_ + "/x.pxt") << "not a trace at all, but long enough for one chunk header";
  MergeReport report;
  std::string error;
  EXPECT_FALSE(MergeTraceFiles({{dir_ + "/x.pxt"}, dir_ + "/m.prv", true}, &report, &error));
  EXPECT_NE(error.find("bad chunk magic"), std::string::npos) << error;
}

// A data chunk naming thread 0xFFFFFFFF: the reader sized its thread table with thread + 1,
// which wrapped to 0, and wrote past it (a segfault). Ids are now bounded by what a .prv holds.
TEST_F(MergeTest, RejectsThreadAndCpuIdsBeyondATrace) {
  auto write = [&](const std::string& name, uint32_t thread, const std::string& meta) {
    std::ofstream out(dir_ + "/" + name, std::ios::binary);
    const uint8_t record[] = {static_cast<uint8_t>(RecordKind::kStateEnter), 0, 1};
    ChunkHeader data{kChunkMagic,  static_cast<uint32_t>(ChunkKind::kData), thread, 0, 0,
                     sizeof record};
    out.write(reinterpret_cast<const char*>(&data), sizeof data);
    out.write(reinterpret_cast<const char*>(record), sizeof record);
    ChunkHeader m{kChunkMagic, static_cast<uint32_t>(ChunkKind::kMeta), 0, 0, 0, meta.size()};
    out.write(reinterpret_cast<const char*>(&m), sizeof m);
    out << meta;
  };
  const std::string meta = "pxt-meta 1\nprocess 0 1 100 4 0 10\n";
  write("wrap.pxt", 0xFFFFFFFFu, meta);
  MergeReport report;
  std::string error;
  EXPECT_FALSE(MergeTraceFiles({{dir_ + "/wrap.pxt"}, dir_ + "/m.prv", true}, &report, &error));
  EXPECT_EQ(
      error,
      dir_ +
          "/wrap.pxt: the chunk at byte 0 names thread 4294967295; a process has at most 1048576 "
          "threads (the file is damaged: trace the program again)");
  write("cpus.pxt", 0, "pxt-meta 1\nprocess 0 1 100 2147483647 0 10\n");
  EXPECT_FALSE(MergeTraceFiles({{dir_ + "/cpus.pxt"}, dir_ + "/m.prv", true}, &report, &error));
  EXPECT_NE(error.find("names 2147483647 cpus; a host has 1 to 65535"), std::string::npos) << error;
  write("ok.pxt", 3, meta);
  EXPECT_TRUE(MergeTraceFiles({{dir_ + "/ok.pxt"}, dir_ + "/m.prv", true}, &report, &error))
      << error;
}

// Clock samples and times at the ends of their ranges (a damaged file): the clock correction
// converted a long double beyond int64_t, and the causality repair and the rebase to 0 overflowed
// (undefined behaviour, found by the pxt fuzz target). Corrected times now stay within +-2^61 ns.
TEST_F(MergeTest, TimesAndClockSamplesAtTheEndsOfTheirRangesStayInRange) {
  PxtBuilder p;
  p.Record(RecordKind::kStateEnter, 1, {100});
  p.Record(RecordKind::kSend, 2, {0, ZigZag(5), 0, 8, 0, ZigZag(0)});
  p.Record(RecordKind::kRecv, uint64_t{1} << 63, {0, ZigZag(5), 0, 8, 0, ZigZag(INT64_MAX)});
  p.Record(RecordKind::kStateLeave, UINT64_MAX, {});
  p.Write(dir_ + "/far.pxt",
          "process 0 1 1 1 0 10\nsync 0 -9223372036854775808 0\nsync 1 9223372036854775807 0\n");
  MergeReport report;
  std::string error;
  ASSERT_TRUE(MergeTraceFiles({{dir_ + "/far.pxt"}, dir_ + "/far.prv", true}, &report, &error)) << error;
  std::istringstream prv(Slurp(dir_ + "/far.prv"));
  std::string line;
  std::getline(prv, line);  // the header
  size_t records = 0;
  while (std::getline(prv, line)) {
    if (line.empty() || line[0] == 'c') continue;
    ++records;
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ':');) f.push_back(x);
    // Times: fields 5 and 6 of a state, 5 of an event, 5, 6, 11 and 12 of a communication.
    std::vector<size_t> times = f[0] == "1" ? std::vector<size_t>{5, 6}
                                : f[0] == "2" ? std::vector<size_t>{5}
                                              : std::vector<size_t>{5, 6, 11, 12};
    for (size_t i : times) {
      ASSERT_LT(i, f.size()) << line;
      EXPECT_NE(f[i][0], '-') << line;
      EXPECT_LE(std::stoull(f[i]), uint64_t{1} << 62) << line;
    }
  }
  EXPECT_GT(records, 0u);
}

// Every input of the fuzz target's corpus (tests/fuzz/corpus/pxt: seeds and the inputs of what
// it found) reads and merges, or fails with a message, as the target drives them.
// Process files of a run that died: one said how (a signal handler's "abnormal" line), one of
// format 2 never finished (SIGKILL), one of format 1 (before the format said when a file is
// complete) is taken as finished. The threads of the first two end with event 40000099 (the
// signal, 0 for none said) at the later of their last record and the signal; the report says it.
TEST_F(MergeTest, MarksTheEndOfProcessesThatDied) {
  PxtBuilder term;
  term.Record(RecordKind::kStateEnter, 1000, {100});
  term.Record(RecordKind::kEvent, 2000, {1000, ZigZag(1)});
  term.Write(dir_ + "/a.pxt", "format 2\nprocess 0 3 1 2 0 0\nhost n\nsession s\nabnormal 15 5000\n");
  PxtBuilder killed;
  killed.Record(RecordKind::kEvent, 1500, {1000, ZigZag(1)});
  killed.Write(dir_ + "/b.pxt", "format 2\nprocess 1 3 2 2 0 0\nhost n\nsession s\n");
  PxtBuilder old;
  old.Record(RecordKind::kEvent, 1200, {1000, ZigZag(1)});
  old.Write(dir_ + "/c.pxt", "process 2 3 3 2 0 3000\nhost n\nsession s\n");
  MergeReport report;
  std::string error;
  ASSERT_TRUE(MergeTraceFiles({{dir_ + "/a.pxt", dir_ + "/b.pxt", dir_ + "/c.pxt"}, dir_ + "/m.prv", true}, &report,
                              &error))
      << error;
  EXPECT_EQ(report.abnormal_processes, 2);
  const std::string prv = Slurp(dir_ + "/m.prv");
  // Rank 0 (task 1) at the signal (5000, after its last record at 2000, rebased by 1000);
  // rank 1 (task 2) at its last record (1500 - 1000).
  EXPECT_NE(prv.find("2:0:1:1:1:4000:40000099:15\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("2:0:1:2:1:500:1000:1:40000099:0\n"), std::string::npos) << prv;
  EXPECT_EQ(prv.find("1:3:1:40000099"), std::string::npos) << prv;
  std::string lines;
  for (const std::string& l : report.lines) lines += l + "\n";
  EXPECT_NE(lines.find("ended abnormally: rank 0: SIGTERM"), std::string::npos) << lines;
  EXPECT_NE(lines.find("ended abnormally: rank 1: stopped without a word"), std::string::npos) << lines;
  const std::string pcf = Slurp(dir_ + "/m.pcf");
  EXPECT_NE(pcf.find("40000099    Trace ended abnormally"), std::string::npos) << pcf;
}

TEST(PxtFuzzCorpus, EveryInputReadsAndMergesOrFailsCleanly) {
  const std::filesystem::path corpus = PXT_FUZZ_CORPUS;
  if (!std::filesystem::is_directory(corpus)) GTEST_SKIP() << "no " << corpus;
  size_t inputs = 0, merged = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    std::string rest = Slurp(entry.path().string());
    std::vector<ProcessFile> files;
    std::string error;
    for (size_t cut = 0; cut != std::string::npos;) {
      cut = rest.find("PXTNEXT!");
      ProcessFile f;
      if (ParseProcessFile(std::string_view(rest).substr(0, cut), entry.path().string(), false, &f, &error)) {
        f.modules.clear();
        files.push_back(std::move(f));
      }
      if (cut != std::string::npos) rest.erase(0, cut + 8);
    }
    ++inputs;
    MergeReport report;
    MergedTrace trace;
    if (!files.empty() && MergeProcesses(&files, {}, &report, &trace, &error)) ++merged;
  }
  EXPECT_GE(inputs, 5u);
  EXPECT_GE(merged, 3u);  // the seeds
}

}  // namespace
}  // namespace parallax::tracing
