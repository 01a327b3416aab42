// parallax-gen: writes a deterministic synthetic Paraver trace (.prv, .pcf, .row) that looks like
// what Extrae records for an MPI+OpenMP stencil code, so that the loader and the analyses can be
// benchmarked on traces of any size without shipping gigabytes of real data.
//
//   parallax-gen --size 100M --out bench/out/synth_100M [--tasks 16 --threads 8 --seed 1]
//
// The simulated program: MPI_Init, then iterations of { 2-3 x (OpenMP parallel region, halo
// exchange with the 2D-grid neighbours by Isend/Irecv/Waitall or blocking Send/Recv),
// MPI_Allreduce }, then MPI_Finalize and a final buffer flush. Every state change carries an
// event line with the MPI/OpenMP call, PAPI counter deltas and, for MPI calls, a 3-level call
// stack, like Extrae writes them. Output depends only on the options (a splitmix64 PRNG, no
// std:: distributions, no clock), so two runs with the same options give identical bytes.
//
// Only the standard library and fmt: lines are formatted into memory arenas and written with
// fwrite in large blocks.

#include <fmt/compile.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

// Extrae state numbers (STATES section of every Extrae .pcf).
constexpr uint32_t kIdle = 0;
constexpr uint32_t kRunning = 1;
constexpr uint32_t kNotCreated = 2;
constexpr uint32_t kWaitingMessage = 3;
constexpr uint32_t kBlockingSend = 4;
constexpr uint32_t kSynchronization = 5;
constexpr uint32_t kForkJoin = 7;
constexpr uint32_t kWaitAll = 8;
constexpr uint32_t kImmediateSend = 10;
constexpr uint32_t kImmediateReceive = 11;
constexpr uint32_t kIo = 12;
constexpr uint32_t kGroupCommunication = 13;
constexpr uint32_t kOthers = 15;

// Extrae event types.
constexpr uint32_t kEvApplication = 40000001;
constexpr uint32_t kEvTraceInit = 40000002;
constexpr uint32_t kEvFlushing = 40000003;
constexpr uint32_t kEvExecutingCpu = 40000033;
constexpr uint32_t kEvPid = 40000036;
constexpr uint32_t kEvPpid = 40000037;
constexpr uint32_t kEvForkDepth = 40000038;
constexpr uint32_t kEvRawClock = 40000050;
constexpr uint32_t kEvSamplingInterval = 40000133;
constexpr uint32_t kEvCounterSet = 41999999;
constexpr uint32_t kEvMpiP2p = 50000001;
constexpr uint32_t kEvMpiCollective = 50000002;
constexpr uint32_t kEvMpiOther = 50000003;
constexpr uint32_t kEvGlobalSendSize = 50100001;
constexpr uint32_t kEvGlobalRecvSize = 50100002;
constexpr uint32_t kEvGlobalRoot = 50100003;
constexpr uint32_t kEvGlobalComm = 50100004;
constexpr uint32_t kEvOmpParallel = 60000001;
constexpr uint32_t kEvOmpLock = 60000006;
constexpr uint32_t kEvOmpFunction = 60000018;
constexpr uint32_t kEvUserFunction = 60000019;
// Lock addresses are raw pointers: the one type whose values may exceed INT64_MAX.
constexpr uint32_t kEvOmpLockAddress = 60000032;
constexpr uint32_t kEvOmpFunctionLine = 60000118;
constexpr uint32_t kEvCallerLevel1 = 70000001;
constexpr uint32_t kEvCallerLineLevel1 = 80000001;

// Extrae MPI call values.
constexpr uint64_t kMpiSend = 1;
constexpr uint64_t kMpiRecv = 2;
constexpr uint64_t kMpiIsend = 3;
constexpr uint64_t kMpiIrecv = 4;
constexpr uint64_t kMpiWaitall = 6;
constexpr uint64_t kMpiAllreduce = 10;
constexpr uint64_t kMpiCommRank = 19;
constexpr uint64_t kMpiCommSize = 20;
constexpr uint64_t kMpiInit = 31;
constexpr uint64_t kMpiFinalize = 32;

constexpr std::array<uint32_t, 8> kPapiTypes = {42000050, 42000059, 42000000, 42000002,
                                                42000008, 42000055, 42000046, 42001047};

// Labels of the symbolic values; the ids are positions in these tables (Extrae reserves
// 0 = End, 1 = Unresolved, 2 = _NOT_Found).
constexpr std::array<const char*, 10> kUserFunctions = {
    "timestep",         "compute_forces", "update_positions", "exchange_halo",    "reduce_energy",
    "apply_boundaries", "smooth_field",   "interpolate",      "write_checkpoint", "rebalance"};
constexpr std::array<const char*, 6> kOmpFunctions = {
    "compute_forces._omp_fn.0", "update_positions._omp_fn.1", "smooth_field._omp_fn.2",
    "interpolate._omp_fn.3",    "apply_boundaries._omp_fn.4", "rebalance._omp_fn.5"};
constexpr std::array<const char*, 12> kCallers = {
    "main",      "MAIN__",        "timestep",  "exchange_halo", "post_receives", "post_sends",
    "wait_halo", "reduce_energy", "mpi_setup", "mpi_teardown",  "pack_buffers",  "unpack_buffers"};
constexpr std::array<const char*, 4> kSourceFiles = {"main.f90", "timestep.f90", "halo.f90",
                                                     "reduce.f90"};
constexpr uint64_t kCallerLines = 48;  // values 3 .. 3+kCallerLines-1 of 80000001..3

// splitmix64: tiny, fast, and its output is fixed by its definition (unlike std::
// distributions, whose results differ between standard libraries).
class SplitMix64 {
  __extension__ typedef unsigned __int128 Wide;

 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), by the multiply-shift method (no modulo bias worth mentioning).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<Wide>(Next()) * n) >> 64);
  }
  uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }
  // Uniform in [0, 1) with 53 bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  bool Chance(double p) { return Unit() < p; }
  // base scaled by a uniform factor in [1 - spread, 1 + spread], never below 1.
  uint64_t Around(uint64_t base, double spread) {
    const double f = 1.0 + spread * (2.0 * Unit() - 1.0);
    return std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(base) * f));
  }

 private:
  uint64_t state_;
};

// Up to 24 type:value pairs of one event line.
struct Pairs {
  std::array<std::pair<uint32_t, uint64_t>, 24> items;
  size_t size = 0;
  void Add(uint32_t type, uint64_t value) {
    if (size < items.size()) items[size++] = {type, value};
  }
};

struct Stats {
  uint64_t states = 0;
  uint64_t event_lines = 0;
  uint64_t event_pairs = 0;
  uint64_t comms = 0;
  uint64_t huge_values = 0;
  uint64_t bumped_times = 0;  // must stay 0: a state would have had zero length
};

// Collects formatted lines of the near future and writes them in global time order. The
// simulation only appends lines whose time is >= the current watermark (the earliest begin of
// a state still open), so everything before the watermark is final and can be written.
class SortedSink {
 public:
  explicit SortedSink(std::FILE* out) : out_(out) { out_buffer_.reserve(kOutBlock + 65536); }

  // kind orders lines of one thread at one time like Extrae: state, then events, then comms.
  enum Kind : uint64_t { kStateLine = 0, kEventLine = 1, kCommLine = 2 };

  void State(uint32_t thread, uint32_t cpu, uint32_t task, uint32_t thread_in_task, uint64_t begin,
             uint64_t end, uint32_t state) {
    const size_t start = arena_.size();
    fmt::format_to(std::back_inserter(arena_), FMT_COMPILE("1:{}:1:{}:{}:{}:{}:{}\n"), cpu,
                   task + 1, thread_in_task + 1, begin, end, state);
    Push(begin, thread, kStateLine, start);
    ++stats_.states;
  }

  void Event(uint32_t thread, uint32_t cpu, uint32_t task, uint32_t thread_in_task, uint64_t time,
             const Pairs& pairs) {
    if (pairs.size == 0) return;
    const size_t start = arena_.size();
    fmt::format_to(std::back_inserter(arena_), FMT_COMPILE("2:{}:1:{}:{}:{}"), cpu, task + 1,
                   thread_in_task + 1, time);
    for (size_t i = 0; i < pairs.size; ++i)
      fmt::format_to(std::back_inserter(arena_), FMT_COMPILE(":{}:{}"), pairs.items[i].first,
                     pairs.items[i].second);
    arena_.push_back('\n');
    Push(time, thread, kEventLine, start);
    ++stats_.event_lines;
    stats_.event_pairs += pairs.size;
  }

  struct CommEnd {
    uint32_t thread, cpu, task;
  };
  void Comm(const CommEnd& s, uint64_t lsend, uint64_t psend, const CommEnd& r, uint64_t lrecv,
            uint64_t precv, uint64_t size, uint64_t tag) {
    const size_t start = arena_.size();
    fmt::format_to(std::back_inserter(arena_),
                   FMT_COMPILE("3:{}:1:{}:1:{}:{}:{}:1:{}:1:{}:{}:{}:{}\n"), s.cpu, s.task + 1,
                   lsend, psend, r.cpu, r.task + 1, lrecv, precv, size, tag);
    Push(lsend, s.thread, kCommLine, start);
    ++stats_.comms;
  }

  // Writes every pending line with time < watermark, in (time, thread, kind, creation) order.
  void Flush(uint64_t watermark) {
    std::sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
      return a.time != b.time ? a.time < b.time : a.order < b.order;
    });
    auto split = std::partition_point(pending_.begin(), pending_.end(),
                                      [&](const Pending& p) { return p.time < watermark; });
    for (auto it = pending_.begin(); it != split; ++it) {
      out_buffer_.insert(out_buffer_.end(), arena_.data() + it->offset,
                         arena_.data() + it->offset + it->length);
      generated_ += it->length;
      if (out_buffer_.size() >= kOutBlock) WriteOut();
    }
    // Keep the rest, compacted into a fresh arena so memory stays bounded.
    fmt::memory_buffer kept;
    std::vector<Pending> rest;
    rest.reserve(static_cast<size_t>(pending_.end() - split));
    for (auto it = split; it != pending_.end(); ++it) {
      Pending p = *it;
      const size_t start = kept.size();
      kept.append(arena_.data() + p.offset, arena_.data() + p.offset + p.length);
      p.offset = static_cast<uint32_t>(start);
      rest.push_back(p);
    }
    arena_ = std::move(kept);
    pending_ = std::move(rest);
  }

  void Finish() {
    Flush(std::numeric_limits<uint64_t>::max());
    WriteOut();
  }

  uint64_t generated_bytes() const { return generated_ + arena_.size(); }
  Stats& stats() { return stats_; }

 private:
  static constexpr size_t kOutBlock = 8 << 20;

  struct Pending {
    uint64_t time;
    uint64_t order;  // thread:16 | kind:2 | sequence:46
    uint32_t offset;
    uint32_t length;
  };

  void Push(uint64_t time, uint32_t thread, Kind kind, size_t start) {
    const uint64_t order = (static_cast<uint64_t>(thread) << 48) |
                           (static_cast<uint64_t>(kind) << 46) | (sequence_++ & ((1ULL << 46) - 1));
    pending_.push_back(
        {time, order, static_cast<uint32_t>(start), static_cast<uint32_t>(arena_.size() - start)});
  }

  void WriteOut() {
    if (out_buffer_.empty()) return;
    if (std::fwrite(out_buffer_.data(), 1, out_buffer_.size(), out_) != out_buffer_.size()) {
      std::perror("parallax-gen: write");
      std::exit(1);
    }
    out_buffer_.clear();
  }

  std::FILE* out_;
  fmt::memory_buffer arena_;
  std::vector<Pending> pending_;
  std::vector<char> out_buffer_;
  uint64_t generated_ = 0;  // bytes moved out of the arena, in order
  uint64_t sequence_ = 0;
  Stats stats_;
};

struct Config {
  uint64_t size_bytes = 100ULL << 20;
  uint32_t tasks = 16;
  uint32_t threads = 8;
  uint32_t cpus_per_node = 32;
  uint64_t seed = 1;
  bool huge_values = true;
  // Changes injected for comparisons (parallax compare): with the same seed, two traces draw the
  // same random numbers, so they differ only by these.
  uint64_t iterations = 0;          // > 0: exactly this many time steps (the size is not a target)
  int64_t slow_task = -1;           // this task's OpenMP work is multiplied by slow_factor
  double slow_factor = 1.0;
  double message_scale = 1.0;       // halo message sizes multiplied by this
};

// One simulated thread: where it runs and its open state.
struct SimThread {
  uint32_t global = 0;  // 0-based global thread index
  uint32_t task = 0;    // 0-based
  uint32_t local = 0;   // 0-based thread within the task
  uint32_t cpu = 0;     // 1-based global CPU
  uint64_t now = 0;     // simulated time of this thread
  uint32_t state = kNotCreated;
  uint64_t state_begin = 0;
  uint64_t counters_read = 0;  // time of the last PAPI read (counters are deltas)
  bool counters_started = false;
  double ipc = -1;  // the IPC of the OpenMP function running (-1: serial code, 1.1..2.1)
};

// Three planted behaviours of the OpenMP functions (function k has behaviour k % 3): work
// relative to the region's and IPC, so that their bursts form three clusters (docs/structure.md).
constexpr std::array<double, 3> kBehaviourWork = {1.0, 0.35, 3.0};
constexpr std::array<double, 3> kBehaviourIpc = {1.8, 0.6, 1.2};

// A halo message between two task masters within one exchange.
struct Message {
  uint32_t from, to;
  uint64_t size, tag;
  uint64_t lsend = 0, psend = 0, arrival = 0, recv_post = 0, recv_complete = 0;
};

class Generator {
 public:
  Generator(const Config& config, std::FILE* body)
      : config_(config), rng_(config.seed * 0x2545f4914f6cdd1dULL + 0x1234567ULL), sink_(body) {
    tasks_per_node_ = std::max<uint32_t>(1, config_.cpus_per_node / config_.threads);
    nodes_ = (config_.tasks + tasks_per_node_ - 1) / tasks_per_node_;
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      const uint32_t node = t / tasks_per_node_;
      for (uint32_t h = 0; h < config_.threads; ++h) {
        SimThread th;
        th.global = static_cast<uint32_t>(threads_.size());
        th.task = t;
        th.local = h;
        th.cpu = node * config_.cpus_per_node + (t % tasks_per_node_) * config_.threads + h + 1;
        threads_.push_back(th);
      }
      // Fixed per-task load imbalance, the kind of pattern an analyst looks for.
      imbalance_.push_back(0.85 + 0.3 * rng_.Unit());
    }
    BuildNeighbours();
  }

  uint32_t nodes() const { return nodes_; }
  uint32_t tasks_per_node() const { return tasks_per_node_; }
  uint64_t end_time() const { return end_time_; }
  uint64_t iterations() const { return iterations_; }
  Stats& stats() { return sink_.stats(); }

  // header_bytes: size of the header and communicator lines, counted against the target.
  void Run(uint64_t header_bytes) {
    header_bytes_ = header_bytes;
    Startup();
    // Stop at the end of the parallel region (plus halo exchange) that brings the size closest
    // to the target: one region is ~1% of a 10 MiB trace, an iteration ~3%.
    while (Iteration()) sink_.Flush(Watermark());
    Shutdown();
    sink_.Finish();
  }

 private:
  // True when one more parallel region would overshoot the target by more than half its size.
  bool BudgetSpent() const {
    const uint64_t finish_estimate = 400ULL * threads_.size();
    return header_bytes_ + sink_.generated_bytes() + region_bytes_ / 2 + allreduce_bytes_ +
               finish_estimate >
           config_.size_bytes;
  }

 private:
  SimThread& Master(uint32_t task) { return threads_[task * config_.threads]; }

  // The earliest time any future line can have.
  uint64_t Watermark() const {
    uint64_t w = std::numeric_limits<uint64_t>::max();
    for (const SimThread& th : threads_) w = std::min(w, th.state_begin);
    return w;
  }

  // Closes the open state of th at t and opens new_state; returns the time actually used.
  uint64_t Switch(SimThread& th, uint64_t t, uint32_t new_state) {
    if (t <= th.state_begin) {
      ++sink_.stats().bumped_times;
      t = th.state_begin + 1;
    }
    sink_.State(th.global, th.cpu, th.task, th.local, th.state_begin, t, th.state);
    th.state = new_state;
    th.state_begin = t;
    th.now = t;
    return t;
  }

  void Emit(const SimThread& th, uint64_t t, const Pairs& pairs) {
    sink_.Event(th.global, th.cpu, th.task, th.local, t, pairs);
  }

  // PAPI counter deltas since the previous read, shaped by the state just left.
  void AddCounters(Pairs& pairs, SimThread& th, uint64_t t, uint32_t state_left) {
    if (!th.counters_started) {
      th.counters_started = true;
      pairs.Add(kEvCounterSet, 1);
      for (uint32_t type : kPapiTypes) pairs.Add(type, 0);
      th.counters_read = t;
      return;
    }
    const uint64_t dt = t > th.counters_read ? t - th.counters_read : 0;
    th.counters_read = t;
    const double cycles = static_cast<double>(dt) * 2.6 * (0.96 + 0.04 * rng_.Unit());
    const double ipc = state_left != kRunning ? 0.3 + 0.3 * rng_.Unit()
                       : th.ipc >= 0      ? th.ipc - 0.1 + 0.2 * rng_.Unit()
                                          : 1.1 + 1.0 * rng_.Unit();
    const double ins = cycles * ipc;
    const double l1 = ins * (0.01 + 0.02 * rng_.Unit());
    const double l2 = l1 * (0.2 + 0.2 * rng_.Unit());
    const double l3 = l2 * (0.2 + 0.3 * rng_.Unit());
    const double br = ins * (0.12 + 0.06 * rng_.Unit());
    const std::array<double, 8> values = {ins, cycles, l1, l2, l3, br, br * 0.01, cycles * 0.25};
    // Extrae drops a counter now and then (multiplexing, overflow); so do we, rarely.
    const uint64_t skip = rng_.Chance(0.05) ? 2 + rng_.Below(6) : 99;
    for (size_t i = 0; i < kPapiTypes.size(); ++i)
      if (i != skip) pairs.Add(kPapiTypes[i], static_cast<uint64_t>(values[i]));
  }

  // Three caller levels of an MPI call site; each site has fixed functions and lines.
  static void AddCallStack(Pairs& pairs, uint64_t site) {
    for (uint32_t level = 0; level < 3; ++level) {
      const uint64_t fn = 3 + (site * 5 + level * 3) % kCallers.size();
      const uint64_t line = 3 + (site * 7 + level * 11) % kCallerLines;
      pairs.Add(kEvCallerLevel1 + level, fn);
      pairs.Add(kEvCallerLineLevel1 + level, line);
    }
  }

  // Enters an MPI call on a master: state + event line with call, counters and call stack.
  uint64_t EnterMpi(SimThread& m, uint64_t t, uint32_t state, uint32_t type, uint64_t call,
                    uint64_t site) {
    const uint32_t left = m.state;
    t = Switch(m, t, state);
    Pairs pairs;
    pairs.Add(type, call);
    AddCounters(pairs, m, t, left);
    AddCallStack(pairs, site);
    Emit(m, t, pairs);
    return t;
  }

  uint64_t LeaveMpi(SimThread& m, uint64_t t, uint32_t type) {
    const uint32_t left = m.state;
    t = Switch(m, t, kRunning);
    Pairs pairs;
    pairs.Add(type, 0);
    AddCounters(pairs, m, t, left);
    Emit(m, t, pairs);
    return t;
  }

  void BuildNeighbours() {
    uint32_t px = 1;
    for (uint32_t d = 1; d * d <= config_.tasks; ++d)
      if (config_.tasks % d == 0) px = d;
    const uint32_t py = config_.tasks / px;
    neighbours_.resize(config_.tasks);
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      const uint32_t x = t % px, y = t / px;
      const std::array<uint32_t, 4> candidates = {y * px + (x + px - 1) % px, y * px + (x + 1) % px,
                                                  ((y + py - 1) % py) * px + x,
                                                  ((y + 1) % py) * px + x};
      for (uint32_t n : candidates)
        if (n != t &&
            std::find(neighbours_[t].begin(), neighbours_[t].end(), n) == neighbours_[t].end())
          neighbours_[t].push_back(n);
    }
  }

  void Startup() {
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      Pairs app;
      app.Add(kEvApplication, 1);
      app.Add(kEvRawClock, 1763798400000000ULL + rng_.Below(1000000));
      app.Add(kEvExecutingCpu, m.cpu);
      app.Add(kEvSamplingInterval, 0);
      Emit(m, 0, app);
      uint64_t time = Switch(m, rng_.Around(900000, 0.2), kOthers);
      Pairs init;
      init.Add(kEvTraceInit, 1);
      init.Add(kEvPid, 210000 + t);
      init.Add(kEvPpid, 0);
      init.Add(kEvForkDepth, 1);
      AddCounters(init, m, time, kNotCreated);
      Emit(m, time, init);
      time = Switch(m, time + rng_.Around(4000, 0.3), kRunning);
      Pairs done;
      done.Add(kEvTraceInit, 0);
      AddCounters(done, m, time, kOthers);
      Emit(m, time, done);
      EnterMpi(m, time + rng_.Around(3000, 0.5), kOthers, kEvMpiOther, kMpiInit, 30);
    }
    // MPI_Init returns together (it synchronises), then rank and size queries.
    uint64_t init_end = 0;
    for (uint32_t t = 0; t < config_.tasks; ++t) init_end = std::max(init_end, Master(t).now);
    init_end += 40000000;  // MPI_Init of a real run takes tens of milliseconds
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      uint64_t time = LeaveMpi(m, init_end + rng_.Below(2000), kEvMpiOther);
      for (uint64_t call : {kMpiCommRank, kMpiCommSize}) {
        time = EnterMpi(m, time + rng_.Around(1500, 0.5), kOthers, kEvMpiOther, call, 31 + call);
        time = LeaveMpi(m, time + rng_.Around(600, 0.5), kEvMpiOther);
      }
      m.now = time;
    }
  }

  // One time step; returns false when the size target is reached (the trace must end).
  bool Iteration() {
    const uint32_t regions = 2 + static_cast<uint32_t>(rng_.Below(2));
    const bool blocking = rng_.Chance(0.25);
    const uint64_t region_work = rng_.Around(320000, 0.15);
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      Pairs pairs;
      pairs.Add(kEvUserFunction, 3);  // "timestep"
      AddCounters(pairs, m, m.now, m.state);
      Emit(m, m.now, pairs);
    }
    bool go_on = true;
    for (uint32_t r = 0; r < regions && go_on; ++r) {
      const uint64_t before = sink_.generated_bytes();
      const uint64_t fn = 3 + (iterations_ + r) % kOmpFunctions.size();
      for (uint32_t t = 0; t < config_.tasks; ++t) ParallelRegion(t, fn, region_work);
      HaloExchange(blocking, r);
      region_bytes_ = sink_.generated_bytes() - before;
      go_on = config_.iterations > 0 || !BudgetSpent();
    }
    const uint64_t before = sink_.generated_bytes();
    Allreduce();
    allreduce_bytes_ = sink_.generated_bytes() - before;
    ++iterations_;
    if (config_.iterations > 0) return iterations_ < config_.iterations;
    return go_on && !BudgetSpent();
  }

  // Fork, imbalanced work on every thread (with an occasional named lock), barrier, join.
  void ParallelRegion(uint32_t task, uint64_t fn, uint64_t region_work) {
    SimThread& m = Master(task);
    const uint64_t fork = m.now + rng_.Around(30000, 0.5);  // serial part before the region
    uint64_t time = Switch(m, fork, kForkJoin);
    Pairs open;
    open.Add(kEvOmpParallel, 1);
    AddCounters(open, m, time, kRunning);
    Emit(m, time, open);
    const uint64_t started = time + rng_.Around(3000, 0.5);
    std::vector<uint64_t> ends(config_.threads);
    const size_t behaviour = (fn - 3) % kBehaviourWork.size();
    const double slow = static_cast<int64_t>(task) == config_.slow_task ? config_.slow_factor : 1.0;
    const uint64_t work = static_cast<uint64_t>(static_cast<double>(region_work) * imbalance_[task] *
                                                kBehaviourWork[behaviour] * slow);
    for (uint32_t h = 0; h < config_.threads; ++h) {
      SimThread& th = threads_[task * config_.threads + h];
      const uint64_t begin = std::max(th.now + 1, started + (h == 0 ? 0 : rng_.Around(1500, 0.6)));
      const uint32_t left = th.state;
      time = Switch(th, begin, kRunning);
      th.ipc = kBehaviourIpc[behaviour];
      Pairs enter;
      enter.Add(kEvOmpFunction, fn);
      enter.Add(kEvOmpFunctionLine, fn);
      AddCounters(enter, th, time, left);
      Emit(th, time, enter);
      uint64_t length = rng_.Around(work, 0.06);
      if (rng_.Chance(0.01)) length += length / 2;  // an outlier burst (page faults, noise)
      if (h != 0 && rng_.Chance(0.25)) time = NamedLock(th, time + length / 2);
      ends[h] = std::max(begin + length, time + 2000);
    }
    const uint64_t join = *std::max_element(ends.begin(), ends.end()) + rng_.Around(1200, 0.5);
    for (uint32_t h = 0; h < config_.threads; ++h) {
      SimThread& th = threads_[task * config_.threads + h];
      time = Switch(th, ends[h], kSynchronization);
      Pairs leave;
      leave.Add(kEvOmpFunction, 0);
      leave.Add(kEvOmpFunctionLine, 0);
      AddCounters(leave, th, time, kRunning);
      th.ipc = -1;
      Emit(th, time, leave);
      Pairs after;
      if (h == 0) {
        time = Switch(th, join, kRunning);
        after.Add(kEvOmpParallel, 0);
      } else {
        time = Switch(th, join + rng_.Around(800, 0.5), kIdle);
      }
      AddCounters(after, th, time, kSynchronization);
      Emit(th, time, after);
    }
    m.now = join + rng_.Around(8000, 0.5);
  }

  // A worker takes an OpenMP named lock (critical section); returns the time it is released.
  uint64_t NamedLock(SimThread& th, uint64_t at) {
    uint64_t time = Switch(th, at, kSynchronization);
    Pairs request;
    request.Add(kEvOmpLock, 3);
    Emit(th, time, request);
    time = Switch(th, time + rng_.Around(2500, 0.8), kRunning);
    Pairs locked;
    locked.Add(kEvOmpLock, 6);
    locked.Add(kEvOmpLockAddress, LockAddress());
    Emit(th, time, locked);
    time += rng_.Around(1500, 0.5);
    Pairs release;
    release.Add(kEvOmpLock, 0);
    release.Add(kEvOmpLockAddress, 0);
    Emit(th, time, release);
    th.now = time;
    return time;
  }

  uint64_t LockAddress() {
    if (config_.huge_values && rng_.Chance(1.0 / 4096)) {
      ++sink_.stats().huge_values;
      return 0xffff888000000000ULL + (rng_.Below(1 << 20) << 4);  // kernel-space, > INT64_MAX
    }
    return 0x5581c2a40000ULL + (rng_.Below(64) << 6);
  }

  SortedSink::CommEnd CommEndOf(uint32_t task) {
    const SimThread& m = Master(task);
    return {m.global, m.cpu, m.task};
  }

  uint64_t Latency(uint32_t from, uint32_t to, uint64_t size) {
    const bool same_node = from / tasks_per_node_ == to / tasks_per_node_;
    const uint64_t base = same_node ? 1500 : 4500;
    return rng_.Around(base, 0.4) + size / (same_node ? 20 : 10);  // ~20 / ~10 GB/s
  }

  void HaloExchange(bool blocking, uint32_t region) {
    std::vector<Message> messages;
    for (uint32_t t = 0; t < config_.tasks; ++t)
      for (size_t d = 0; d < neighbours_[t].size(); ++d) {
        Message msg{t, neighbours_[t][d], 0, 1000 + 10 * region + d};
        msg.size = static_cast<uint64_t>(
            static_cast<double>((d < 2 ? 49152 : 24576) + 8 * rng_.Below(1024)) * config_.message_scale);
        messages.push_back(msg);
      }
    if (blocking)
      BlockingExchange(messages);
    else
      ImmediateExchange(messages);
    for (const Message& msg : messages) {
      const uint64_t lrecv = std::max(msg.recv_post, msg.lsend);
      sink_.Comm(CommEndOf(msg.from), msg.lsend, msg.psend, CommEndOf(msg.to), lrecv,
                 msg.recv_complete, msg.size, msg.tag);
    }
  }

  // MPI_Irecv for every neighbour, MPI_Isend for every neighbour, MPI_Waitall.
  void ImmediateExchange(std::vector<Message>& messages) {
    std::vector<uint64_t> wait_enter(config_.tasks);
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      uint64_t time = m.now;
      for (Message& msg : messages)
        if (msg.to == t) {
          time = EnterMpi(m, time, kImmediateReceive, kEvMpiP2p, kMpiIrecv, 4);
          msg.recv_post = time;
          time = LeaveMpi(m, time + rng_.Around(900, 0.5), kEvMpiP2p) + rng_.Around(400, 0.5);
        }
      for (Message& msg : messages)
        if (msg.from == t) {
          time = EnterMpi(m, time, kImmediateSend, kEvMpiP2p, kMpiIsend, 3);
          msg.lsend = time;
          msg.psend = time + rng_.Below(300);
          msg.arrival = msg.psend + Latency(msg.from, msg.to, msg.size);
          time = LeaveMpi(m, time + rng_.Around(1200, 0.5), kEvMpiP2p) + rng_.Around(400, 0.5);
        }
      wait_enter[t] = EnterMpi(m, time, kWaitAll, kEvMpiP2p, kMpiWaitall, 6);
    }
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      uint64_t done = wait_enter[t];
      for (const Message& msg : messages)
        if (msg.to == t) done = std::max(done, msg.arrival);
      // Also wait for the own sends to complete (rendezvous for the larger messages).
      for (const Message& msg : messages)
        if (msg.from == t) done = std::max(done, msg.arrival);
      done += rng_.Around(1000, 0.5);
      for (Message& msg : messages)
        if (msg.to == t) msg.recv_complete = done;
      SimThread& m = Master(t);
      m.now = LeaveMpi(m, done, kEvMpiP2p) + rng_.Around(5000, 0.5);
    }
  }

  // Blocking MPI_Send to every neighbour (eager), then a blocking MPI_Recv from every one.
  void BlockingExchange(std::vector<Message>& messages) {
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      uint64_t time = m.now;
      for (Message& msg : messages)
        if (msg.from == t) {
          time = EnterMpi(m, time, kBlockingSend, kEvMpiP2p, kMpiSend, 1);
          msg.lsend = time;
          msg.psend = time + rng_.Below(300);
          msg.arrival = msg.psend + Latency(msg.from, msg.to, msg.size);
          time = LeaveMpi(m, time + 1000 + msg.size / 25, kEvMpiP2p) + rng_.Around(400, 0.5);
        }
      m.now = time;
    }
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      uint64_t time = m.now;
      for (Message& msg : messages)
        if (msg.to == t) {
          time = EnterMpi(m, time, kWaitingMessage, kEvMpiP2p, kMpiRecv, 2);
          msg.recv_post = time;
          const uint64_t done = std::max(time + 700, msg.arrival) + rng_.Around(600, 0.5);
          msg.recv_complete = done;
          time = LeaveMpi(m, done, kEvMpiP2p) + rng_.Around(400, 0.5);
        }
      m.now = time + rng_.Around(5000, 0.5);
    }
  }

  void Allreduce() {
    uint64_t last_enter = 0;
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      Pairs leave_fn;
      leave_fn.Add(kEvUserFunction, 0);
      Emit(m, m.now, leave_fn);
      const uint64_t time = EnterMpi(m, m.now + rng_.Around(4000, 0.5), kGroupCommunication,
                                     kEvMpiCollective, kMpiAllreduce, 10);
      Pairs global;
      global.Add(kEvGlobalSendSize, 8);
      global.Add(kEvGlobalRecvSize, 8);
      global.Add(kEvGlobalRoot, 0);
      global.Add(kEvGlobalComm, 1);
      Emit(m, time, global);
      last_enter = std::max(last_enter, time);
    }
    uint64_t stages = 1;
    while ((1U << stages) < config_.tasks) ++stages;
    const uint64_t release = last_enter + stages * rng_.Around(3000, 0.3);
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      uint64_t time = LeaveMpi(m, release + rng_.Below(1500), kEvMpiCollective);
      // Extrae flushes its buffer to disk now and then, stalling the task.
      if (rng_.Chance(0.002)) time = Flushing(m, time + rng_.Around(2000, 0.5));
      m.now = time + 1;
    }
  }

  uint64_t Flushing(SimThread& m, uint64_t at) {
    const uint32_t left = m.state;
    uint64_t time = Switch(m, at, kIo);
    Pairs begin;
    begin.Add(kEvFlushing, 1);
    AddCounters(begin, m, time, left);
    Emit(m, time, begin);
    time = Switch(m, time + rng_.Around(2000000, 0.5), kRunning);
    Pairs end;
    end.Add(kEvFlushing, 0);
    AddCounters(end, m, time, kIo);
    Emit(m, time, end);
    return time;
  }

  void Shutdown() {
    uint64_t last_enter = 0;
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      last_enter = std::max(last_enter, EnterMpi(m, m.now + rng_.Around(20000, 0.5), kOthers,
                                                 kEvMpiOther, kMpiFinalize, 32));
    }
    const uint64_t release = last_enter + rng_.Around(300000, 0.3);
    uint64_t end = 0;
    for (uint32_t t = 0; t < config_.tasks; ++t) {
      SimThread& m = Master(t);
      const uint64_t time = LeaveMpi(m, release + rng_.Below(3000), kEvMpiOther);
      end = std::max(end, Flushing(m, time + rng_.Around(5000, 0.5)));
    }
    end += rng_.Around(10000, 0.5);
    for (SimThread& th : threads_) {
      Switch(th, end, th.state);
      if (th.local == 0) {
        Pairs app;
        app.Add(kEvApplication, 0);
        app.Add(kEvRawClock, 1763798400000000ULL + end / 1000);
        Emit(th, end, app);
      }
    }
    end_time_ = end;
  }

  Config config_;
  SplitMix64 rng_;
  SortedSink sink_;
  std::vector<SimThread> threads_;
  std::vector<double> imbalance_;
  std::vector<std::vector<uint32_t>> neighbours_;
  uint32_t tasks_per_node_ = 1;
  uint32_t nodes_ = 1;
  uint64_t end_time_ = 0;
  uint64_t iterations_ = 0;
  uint64_t header_bytes_ = 0;
  uint64_t region_bytes_ = 0;     // bytes of the last parallel region + halo exchange
  uint64_t allreduce_bytes_ = 0;  // bytes of the last allreduce
};

std::string Header(const Config& config, const Generator& gen, uint64_t end_time) {
  std::string h = fmt::format("#Paraver (22/11/2026 at 10:00):{}_ns:{}(", end_time, gen.nodes());
  for (uint32_t n = 0; n < gen.nodes(); ++n)
    h += fmt::format("{}{}", n ? "," : "", config.cpus_per_node);
  h += fmt::format("):1:{}(", config.tasks);
  for (uint32_t t = 0; t < config.tasks; ++t)
    h += fmt::format("{}{}:{}", t ? "," : "", config.threads, t / gen.tasks_per_node() + 1);
  h += fmt::format("),{}\n", config.tasks + 1);
  // MPI_COMM_WORLD, then one MPI_COMM_SELF per task, as Extrae writes them.
  h += fmt::format("c:1:1:{}", config.tasks);
  for (uint32_t t = 0; t < config.tasks; ++t) h += fmt::format(":{}", t + 1);
  h += '\n';
  for (uint32_t t = 0; t < config.tasks; ++t) h += fmt::format("c:1:{}:1:{}\n", t + 2, t + 1);
  return h;
}

constexpr const char* kPcfHead = R"(DEFAULT_OPTIONS

LEVEL               THREAD
UNITS               NANOSEC
LOOK_BACK           100
SPEED               1
FLAG_ICONS          ENABLED
NUM_OF_STATE_COLORS 1000
YMAX_SCALE          37


DEFAULT_SEMANTIC

THREAD_FUNC          State As Is


STATES
0    Idle
1    Running
2    Not created
3    Waiting a message
4    Blocking Send
5    Synchronization
6    Test/Probe
7    Scheduling and Fork/Join
8    Wait/WaitAll
9    Blocked
10    Immediate Send
11    Immediate Receive
12    I/O
13    Group Communication
14    Tracing Disabled
15    Others
16    Send Receive
17    Memory transfer
18    Profiling
19    On-line analysis
20    Remote memory access
21    Atomic memory operation
22    Memory ordering operation
23    Distributed locking
24    Overhead
25    One-sided op
26    Startup latency
27    Waiting links
28    Data copy
29    RTT
30    Allocating memory
31    Freeing memory


STATES_COLOR
0    {117,195,255}
1    {0,0,255}
2    {255,255,255}
3    {255,0,0}
4    {255,0,174}
5    {179,0,0}
6    {0,255,0}
7    {255,255,0}
8    {235,0,0}
9    {0,162,0}
10    {255,0,255}
11    {100,100,177}
12    {172,174,41}
13    {255,144,26}
14    {2,255,177}
15    {192,224,0}
16    {66,66,66}
17    {255,0,96}
18    {169,169,169}
19    {169,0,0}
20    {0,109,255}
21    {200,61,68}
22    {200,66,0}
23    {0,41,0}
24    {139,121,177}
25    {116,116,116}
26    {200,50,89}
27    {255,171,98}
28    {0,68,189}
29    {52,43,0}
30    {255,46,0}
31    {100,216,32}


EVENT_TYPE
9   50000001    MPI Point-to-point
VALUES
6   MPI_Waitall
4   MPI_Irecv
3   MPI_Isend
2   MPI_Recv
1   MPI_Send
0   Outside MPI


EVENT_TYPE
9   50000002    MPI Collective Comm
VALUES
10   MPI_Allreduce
0   Outside MPI


EVENT_TYPE
9   50000003    MPI Other
VALUES
32   MPI_Finalize
31   MPI_Init
20   MPI_Comm_size
19   MPI_Comm_rank
0   Outside MPI


EVENT_TYPE
1    50100001    Send Size in MPI Global OP
1    50100002    Recv Size in MPI Global OP
1    50100003    Root in MPI Global OP
1    50100004    Communicator in MPI Global OP


EVENT_TYPE
0 60000001  Parallel (OMP)
VALUES
0 close
1 DO (open)
2 SECTIONS (open)
3 REGION (open)


EVENT_TYPE
0 60000006 OpenMP named-Lock
VALUES
0 Unlocked status
3 Lock
5 Unlock
6 Locked status


EVENT_TYPE
0 60000032 OpenMP named-Lock address name


EVENT_TYPE
6    40000033    Executing CPU
6    40000133    CPU-Event sampling interval


EVENT_TYPE
6    40000001    Application
VALUES
0      End
1      Begin


EVENT_TYPE
6    40000050    RAW clock() value from system


EVENT_TYPE
6    40000003    Flushing Traces
VALUES
0      End
1      Begin


EVENT_TYPE
6    40000002    Trace initialization
VALUES
0      End
1      Begin


EVENT_TYPE
6    40000036    Process IDentifier
6    40000037    Parent Process IDentifier
6    40000038    fork() depth


EVENT_TYPE
7  42000050 PAPI_TOT_INS [Instr completed]
7  42000059 PAPI_TOT_CYC [Total cycles]
7  42000000 PAPI_L1_DCM [L1D cache misses]
7  42000002 PAPI_L2_DCM [L2D cache misses]
7  42000008 PAPI_L3_TCM [L3 cache misses]
7  42000055 PAPI_BR_INS [Branches]
7  42000046 PAPI_BR_MSP [Cond br mspredictd]
7  42001047 RESOURCE_STALLS [Cycles Allocation is stalled due to Resource Related reason]
7  41999999 Active hardware counter set


GRADIENT_COLOR
0    {0,255,2}
1    {0,244,13}
2    {0,232,25}
3    {0,220,37}
4    {0,209,48}
5    {0,197,60}
6    {0,185,72}
7    {0,173,84}
8    {0,162,95}
9    {0,150,107}
10    {0,138,119}
11    {0,127,130}
12    {0,115,142}
13    {0,103,154}
14    {0,91,166}


GRADIENT_NAMES
0    Gradient 0
1    Grad. 1/MPI Events
2    Grad. 2/OMP Events
3    Grad. 3/OMP locks
4    Grad. 4/User func
5    Grad. 5/User Events
6    Grad. 6/General Events
7    Grad. 7/Hardware Counters
8    Gradient 8
9    Gradient 9
10    Gradient 10
11    Gradient 11
12    Gradient 12
13    Gradient 13
14    Gradient 14

)";

// The symbolic-value blocks (functions, call stack) come after the fixed part, as in Extrae.
std::string Pcf() {
  std::string p = kPcfHead;
  auto symbols = [&p](const char* types, auto&& label_of, uint64_t count) {
    p += "\nEVENT_TYPE\n";
    p += types;
    p += "VALUES\n0   End\n1 Unresolved\n2 _NOT_Found\n";
    for (uint64_t i = 0; i < count; ++i) p += fmt::format("{} {}\n", i + 3, label_of(i));
    p += '\n';
  };
  symbols(
      "0    60000019    User function\n", [](uint64_t i) { return kUserFunctions[i]; },
      kUserFunctions.size());
  symbols(
      "0    60000018    Executed OpenMP parallel function\n",
      [](uint64_t i) { return kOmpFunctions[i]; }, kOmpFunctions.size());
  symbols(
      "0    60000118    Executed OpenMP parallel function line and file\n",
      [](uint64_t i) { return fmt::format("{} (kernels.f90, synth)", 40 + 25 * i); },
      kOmpFunctions.size());
  symbols(
      "0    70000001    Caller at level 1\n0    70000002    Caller at level 2\n"
      "0    70000003    Caller at level 3\n",
      [](uint64_t i) { return kCallers[i]; }, kCallers.size());
  symbols(
      "0    80000001    Caller line at level 1\n0    80000002    Caller line at level 2\n"
      "0    80000003    Caller line at level 3\n",
      [](uint64_t i) {
        return fmt::format("{} ({}, synth)", 17 + 13 * i, kSourceFiles[i % kSourceFiles.size()]);
      },
      kCallerLines);
  return p;
}

std::string Row(const Config& config, const Generator& gen) {
  const uint32_t cpus = gen.nodes() * config.cpus_per_node;
  std::string r = fmt::format("LEVEL CPU SIZE {}\n", cpus);
  for (uint32_t c = 0; c < cpus; ++c)
    r += fmt::format("{}.synth{:02}\n", c % config.cpus_per_node + 1, c / config.cpus_per_node + 1);
  r += fmt::format("\nLEVEL NODE SIZE {}\n", gen.nodes());
  for (uint32_t n = 0; n < gen.nodes(); ++n) r += fmt::format("synth{:02}\n", n + 1);
  r += fmt::format("\nLEVEL THREAD SIZE {}\n", config.tasks * config.threads);
  for (uint32_t t = 0; t < config.tasks; ++t)
    for (uint32_t h = 0; h < config.threads; ++h)
      r += fmt::format("THREAD 1.{}.{}\n", t + 1, h + 1);
  return r;
}

// "10M", "1G", "512K", "1000": binary multiples (M = 2^20 bytes).
std::optional<uint64_t> ParseSize(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t multiplier = 1;
  std::string digits = text;
  switch (text.back()) {
    case 'k':
    case 'K':
      multiplier = 1ULL << 10;
      digits.pop_back();
      break;
    case 'm':
    case 'M':
      multiplier = 1ULL << 20;
      digits.pop_back();
      break;
    case 'g':
    case 'G':
      multiplier = 1ULL << 30;
      digits.pop_back();
      break;
    default:
      break;
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits) * multiplier;
}

bool WriteText(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// Appends the whole of `from` to `to` (in the kernel when possible).
bool AppendFile(std::FILE* from, std::FILE* to) {
  std::fflush(to);
  std::rewind(from);
  const int in = fileno(from), out = fileno(to);
  while (true) {
    const ssize_t n = copy_file_range(in, nullptr, out, nullptr, 1 << 30, 0);
    if (n == 0) return true;
    if (n < 0) break;  // not supported here: fall back to read/write
  }
  std::vector<char> buffer(8 << 20);
  while (true) {
    const size_t n = std::fread(buffer.data(), 1, buffer.size(), from);
    if (n == 0) return std::ferror(from) == 0;
    if (std::fwrite(buffer.data(), 1, n, to) != n) return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"parallax-gen: deterministic synthetic Extrae-like Paraver trace generator"};
  Config config;
  std::string size_text = "100M";
  std::string out;
  app.add_option("--size", size_text, "target .prv size, e.g. 10M, 100M, 1G, 3G (binary units)");
  app.add_option("--out", out, "output path without extension: DIR/NAME writes NAME.prv/.pcf/.row")
      ->required();
  app.add_option("--tasks", config.tasks, "MPI tasks")->check(CLI::Range(1, 4096));
  app.add_option("--threads", config.threads, "OpenMP threads per task")->check(CLI::Range(1, 256));
  app.add_option("--cpus-per-node", config.cpus_per_node, "CPUs per node")
      ->check(CLI::Range(1, 4096));
  app.add_option("--seed", config.seed, "PRNG seed");
  bool stream = false;
  app.add_flag("--stream", stream,
               "write NAME.prv in one go, with no scratch copy of the body, so it may be a pipe "
               "(mkfifo): the trace is generated twice, the first time to learn its end time");
  app.add_option("--iterations", config.iterations,
                 "exactly this many time steps (the size is then not a target)");
  app.add_option("--slow-task", config.slow_task, "make this task's OpenMP work (0-based) slower by --slow-factor");
  app.add_option("--slow-factor", config.slow_factor, "factor of --slow-task's work (default 1)")
      ->check(CLI::Range(0.01, 100.0));
  app.add_option("--message-scale", config.message_scale, "multiply the halo messages' sizes by this")
      ->check(CLI::Range(0.01, 100.0));
  bool no_huge = false;
  app.add_flag("--no-huge-values", no_huge,
               "never write lock addresses above INT64_MAX (type 60000032)");
  CLI11_PARSE(app, argc, argv);
  config.huge_values = !no_huge;
  // Paraver stores object counts in 16 bits; the sink also packs the thread into 16 bits.
  if (static_cast<uint64_t>(config.tasks) * config.threads > 65535) {
    fmt::print(stderr, "parallax-gen: --tasks x --threads must be at most 65535\n");
    return 2;
  }
  config.cpus_per_node = std::max(config.cpus_per_node, config.threads);
  const std::optional<uint64_t> size = ParseSize(size_text);
  if (!size) {
    fmt::print(stderr, "parallax-gen: bad --size '{}' (use e.g. 10M, 1G)\n", size_text);
    return 2;
  }
  config.size_bytes = *size;
  if (out.size() > 4 && out.ends_with(".prv")) out.resize(out.size() - 4);
  const std::filesystem::path parent = std::filesystem::path(out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);

  const auto start = std::chrono::steady_clock::now();
  const std::string prv_path = out + ".prv";
  // The header holds the end time, known only at the end: the body goes to a scratch file
  // first and is then appended after the header; or, streamed, a first run of the generator
  // finds the end time and a second one writes the body after the header.
  const std::string body_path = out + ".prv.body.tmp";
  std::FILE* body = std::fopen(stream ? "/dev/null" : body_path.c_str(), "w+b");
  if (body == nullptr) {
    std::perror(("parallax-gen: " + body_path).c_str());
    return 1;
  }
  Generator first(config, body);
  const uint64_t header_estimate = Header(config, first, 1ULL << 40).size();
  first.Run(header_estimate);
  const std::string header = Header(config, first, first.end_time());

  std::FILE* prv = std::fopen(prv_path.c_str(), "wb");
  bool ok = prv != nullptr && std::fwrite(header.data(), 1, header.size(), prv) == header.size();
  std::optional<Generator> second;
  if (stream) {
    second.emplace(config, prv);
    if (ok) second->Run(header_estimate);
    ok = ok && second->end_time() == first.end_time();
  } else {
    ok = ok && AppendFile(body, prv);
  }
  if (prv != nullptr) ok = std::fclose(prv) == 0 && ok;
  std::fclose(body);
  if (!stream) std::remove(body_path.c_str());
  Generator& gen = stream ? *second : first;
  ok = ok && WriteText(out + ".pcf", Pcf()) && WriteText(out + ".row", Row(config, gen));
  if (!ok) {
    std::perror(("parallax-gen: writing " + out).c_str());
    return 1;
  }

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t bytes = std::filesystem::is_regular_file(prv_path) ? std::filesystem::file_size(prv_path) : 0;
  const Stats& s = gen.stats();
  fmt::print(
      stderr,
      "parallax-gen: {} bytes ({:.1f} MiB) in {:.2f} s ({:.0f} MiB/s); {} iterations, end {} ns\n"
      "  states {}  event_lines {}  event_pairs {}  comms {}  lines {}\n"
      "  records {} (states + event pairs + comms)  huge_values {}  bumped_times {}\n",
      bytes, static_cast<double>(bytes) / (1 << 20), seconds,
      static_cast<double>(bytes) / (1 << 20) / seconds, gen.iterations(), gen.end_time(), s.states,
      s.event_lines, s.event_pairs, s.comms, s.states + s.event_lines + s.comms,
      s.states + s.event_pairs + s.comms, s.huge_values, s.bumped_times);
  return 0;
}
