// Writes a synthetic set of per-process trace files (`*.pxt`, tracing/src/record_format.h) for
// the merge benchmark (bench/merge_bench.sh): PROCS processes of THREADS threads each, chunks of
// CHUNK bytes per thread as the recorder flushes them, records as the library writes them
// (states entered and left, user events, source locations, cpu migrations, MPI calls with
// point-to-point messages between neighbour ranks on thread 0), until the set reaches SIZE
// bytes. Two hosts, the second with a measured clock offset, so the merge corrects clocks.
//
//   parallax-merge-bench-gen DIR [SIZE_MB=1024] [PROCS=4] [THREADS=4] [CHUNK_KB=8192]

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tracing/src/record_format.h"

namespace {

using parallax::tracing::ChunkHeader;
using parallax::tracing::ChunkKind;
using parallax::tracing::kChunkMagic;
using parallax::tracing::kMaxRecordBytes;
using parallax::tracing::PutVarint;
using parallax::tracing::RecordKind;
using parallax::tracing::ZigZag;

void Die(const char* what) {
  std::fprintf(stderr, "parallax-merge-bench-gen: %s: %s\n", what, std::strerror(errno));
  std::exit(1);
}

void WriteChunk(int fd, ChunkKind kind, uint32_t thread, uint64_t base, const void* p, size_t n) {
  ChunkHeader h{kChunkMagic, static_cast<uint32_t>(kind), thread, 0, base, n};
  iovec iov[2] = {{&h, sizeof h}, {const_cast<void*>(p), n}};
  if (writev(fd, iov, 2) != static_cast<ssize_t>(sizeof h + n)) Die("write");
}

uint64_t g_rng = 88172645463325252ull;
uint64_t Rand() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

struct Thread {
  std::vector<uint8_t> buf;
  size_t used = 0;
  uint64_t base = 0;  // time of the chunk's first record's predecessor
  uint64_t last = 0;  // time of the last record
  uint64_t now = 0;
  uint64_t iter = 0;
  uint32_t cpu = 1;
};

class Process {
 public:
  Process(int fd, int rank, int procs, int threads, size_t chunk) : fd_(fd), rank_(rank), procs_(procs) {
    threads_.resize(static_cast<size_t>(threads));
    for (size_t i = 0; i < threads_.size(); ++i) {
      threads_[i].buf.resize(chunk);
      threads_[i].now = 1000000 + 137 * i;
      threads_[i].base = threads_[i].last = threads_[i].now;
      threads_[i].cpu = static_cast<uint32_t>(i % 8) + 1;
    }
  }

  // One iteration of every thread; returns the bytes written to the file so far.
  uint64_t Step() {
    uint64_t buffered = 0;
    for (uint32_t i = 0; i < threads_.size(); ++i) Iteration(i), buffered += threads_[i].used;
    return written_ + buffered;
  }

  void Finish() {
    for (uint32_t i = 0; i < threads_.size(); ++i) {
      Thread& t = threads_[i];
      Put(i, RecordKind::kThreadEnd, t.now, {});
      Flush(i);
    }
  }

 private:
  void Put(uint32_t i, RecordKind kind, uint64_t time, std::initializer_list<uint64_t> fields) {
    Thread& t = threads_[i];
    if (t.used + kMaxRecordBytes > t.buf.size()) Flush(i);
    uint8_t* p = t.buf.data() + t.used;
    *p++ = static_cast<uint8_t>(kind);
    p = PutVarint(p, time - t.last);
    t.last = time;
    for (uint64_t f : fields) p = PutVarint(p, f);
    t.used = static_cast<size_t>(p - t.buf.data());
  }
  void Flush(uint32_t i) {
    Thread& t = threads_[i];
    if (t.used == 0) return;
    WriteChunk(fd_, ChunkKind::kData, i, t.base, t.buf.data(), t.used);
    written_ += sizeof(ChunkHeader) + t.used;
    t.used = 0;
    t.base = t.last;
  }
  uint64_t Tick(Thread& t, uint64_t lo, uint64_t spread) { return t.now += lo + Rand() % spread; }

  void Iteration(uint32_t i) {
    Thread& t = threads_[i];
    ++t.iter;
    if (t.iter % 64 == 0) Put(i, RecordKind::kLocation, Tick(t, 5, 10), {1 + t.iter / 64 % 3});
    Put(i, RecordKind::kStateEnter, Tick(t, 50, 100), {100});
    Put(i, RecordKind::kEvent, Tick(t, 20, 40), {1000, ZigZag(static_cast<int64_t>(t.iter))});
    Put(i, RecordKind::kEvent, t.now, {1001, ZigZag(static_cast<int64_t>(Rand() % 50))});
    Put(i, RecordKind::kEvent, Tick(t, 200, 800), {1002, ZigZag(static_cast<int64_t>(Rand() % 100000))});
    Put(i, RecordKind::kStateLeave, Tick(t, 200, 800), {});
    if (t.iter % 1024 == 0) {  // a migration now and then
      t.cpu = t.cpu % 8 + 1;
      Put(i, RecordKind::kCpu, Tick(t, 10, 10), {t.cpu});
    }
    if (i == 0 && procs_ > 1 && t.iter % 4 == 0) Message(i, t);
  }

  // MPI_Send to the next rank, then MPI_Recv from the previous one (50000001: 1 MPI_Send, 3
  // MPI_Recv, as Extrae's values).
  void Message(uint32_t i, Thread& t) {
    const uint64_t next = static_cast<uint64_t>((rank_ + 1) % procs_);
    const uint64_t prev = static_cast<uint64_t>((rank_ + procs_ - 1) % procs_);
    Put(i, RecordKind::kEvent, Tick(t, 30, 30), {50000001, ZigZag(1)});
    Put(i, RecordKind::kStateEnter, t.now, {4});
    const uint64_t send_delta = 100 + Rand() % 200;
    Put(i, RecordKind::kSend, Tick(t, 10, 10), {next, ZigZag(7), 0, 4096, sends_++, ZigZag(static_cast<int64_t>(send_delta))});
    Put(i, RecordKind::kStateLeave, Tick(t, 300, 300), {});
    Put(i, RecordKind::kEvent, t.now, {50000001, ZigZag(0)});
    Put(i, RecordKind::kEvent, Tick(t, 30, 30), {50000001, ZigZag(3)});
    Put(i, RecordKind::kStateEnter, t.now, {3});
    const uint64_t wait = 500 + Rand() % 2000;
    Put(i, RecordKind::kRecv, Tick(t, wait, 1), {prev, ZigZag(7), 0, 4096, recvs_++, ZigZag(static_cast<int64_t>(wait))});
    Put(i, RecordKind::kStateLeave, Tick(t, 20, 20), {});
    Put(i, RecordKind::kEvent, t.now, {50000001, ZigZag(0)});
  }

  int fd_;
  int rank_, procs_;
  std::vector<Thread> threads_;
  uint64_t written_ = 0;
  uint64_t sends_ = 0, recvs_ = 0;
};

std::string Meta(int rank, int procs, bool end, uint64_t end_time) {
  const std::string host = rank < (procs + 1) / 2 ? "node0" : "node1";
  // node1's clock is 25 us ahead of node0's (measured to +-300 ns) and drifts 3 us over the run.
  const long long offset = host == "node0" ? 0 : 25000 + (end ? 3000 : 0);
  std::string m = "pxt-meta 1\n";
  if (!end) m += "format 2\n";
  m += "process " + std::to_string(rank) + " " + std::to_string(procs) + " " + std::to_string(1000 + rank) + " 8 1000000 " +
       std::to_string(end_time) + "\n";
  m += "host " + host + "\nsession bench.1\nrun bench.1\n";
  m += "sync " + std::to_string(end ? end_time : 1000000) + " " + std::to_string(rank == 0 ? 0 : offset) + " 600\n";
  if (!end) {
    m += "state 100 Compute\ntype 1000 Iteration\ntype 1001 Work item\ntype 1002 Value\n";
    m += "value 1001 0 none\nlocation 1 gen.c:10\nlocation 2 gen.c:20\nlocation 3 gen.c:30\n";
  } else {
    m += "finished 1\n";
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parallax-merge-bench-gen DIR [SIZE_MB=1024] [PROCS=4] [THREADS=4] [CHUNK_KB=8192]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const uint64_t size = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1024) << 20;
  const int procs = argc > 3 ? std::atoi(argv[3]) : 4;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 4;
  const size_t chunk = (argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 8192) << 10;
  if (procs < 1 || threads < 1 || chunk < 4096) {
    std::fprintf(stderr, "parallax-merge-bench-gen: bad arguments\n");
    return 2;
  }
  uint64_t total = 0;
  for (int r = 0; r < procs; ++r) {
    const std::string path = dir + "/bench." + std::to_string(r) + ".pxt";
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) Die(path.c_str());
    std::string meta = Meta(r, procs, false, 0);
    WriteChunk(fd, ChunkKind::kMeta, 0, 0, meta.data(), meta.size());
    g_rng = 88172645463325252ull + static_cast<uint64_t>(r);
    Process p(fd, r, procs, threads, chunk);
    // Every process makes the same number of iterations, so that messages pair up.
    static uint64_t iterations = 0;
    uint64_t n = 0;
    if (r == 0) {
      while (p.Step() < size / static_cast<uint64_t>(procs)) ++n;
      iterations = n + 1;
    } else {
      for (n = 0; n < iterations; ++n) p.Step();
    }
    p.Finish();
    meta = Meta(r, procs, true, 1000000 + iterations * 2000);
    WriteChunk(fd, ChunkKind::kMeta, 0, 0, meta.data(), meta.size());
    const off_t end = lseek(fd, 0, SEEK_END);
    if (close(fd) != 0) Die(path.c_str());
    total += static_cast<uint64_t>(end);
  }
  std::printf("%llu\n", static_cast<unsigned long long>(total));
  return 0;
}
