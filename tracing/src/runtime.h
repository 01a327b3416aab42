#pragma once
// The recorder's process-wide state and the per-thread buffers.
//
// Recording a record touches only the calling thread's buffer (no lock, no atomic
// read-modify-write): a thread_local pointer, one clock read, a few varint stores. Locks are
// taken only when a thread registers, when a buffer is flushed, and when names are added. The
// runtime is a process-wide singleton on purpose: an instrumented program has exactly one
// tracer, reachable from C call sites that cannot carry a handle.

#include <sched.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tracing/src/counters.h"
#include "tracing/src/options.h"
#include "tracing/src/record_format.h"

namespace parallax::tracing {

// Clock skew injected for tests (PXT_CLOCK_OFFSET_NS / PXT_CLOCK_DRIFT_PPM): recorded times
// are shifted as if this process's clock were off, so the merge's correction can be checked.
struct ClockSkew {
  bool active = false;
  int64_t offset_ns = 0;
  double drift_ppm = 0;
  uint64_t origin = 0;
};
extern ClockSkew g_clock_skew;

inline uint64_t RawNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t Now() {
  uint64_t t = RawNow();
  if (g_clock_skew.active) [[unlikely]] {
    double drift = static_cast<double>(t - g_clock_skew.origin) * g_clock_skew.drift_ppm * 1e-6;
    t = static_cast<uint64_t>(static_cast<int64_t>(t) + g_clock_skew.offset_ns +
                              static_cast<int64_t>(drift));
  }
  return t;
}

class Runtime;
class ThreadBuffer;

// Set while the library itself runs (registration, flush, names): the pthread wrappers do not
// record the library's own locks.
extern thread_local bool t_in_tracer [[gnu::tls_model("initial-exec")]];
extern thread_local ThreadBuffer* t_buffer [[gnu::tls_model("initial-exec")]];
// Read on every record; constant-initialised so it is valid before any constructor runs.
extern std::atomic<bool> g_active;

struct TracerSection {
  bool saved = t_in_tracer;
  TracerSection() { t_in_tracer = true; }
  ~TracerSection() { t_in_tracer = saved; }
};

// One thread's record buffer. Only its thread writes it, except at process exit.
class ThreadBuffer {
 public:
  ThreadBuffer(Runtime* runtime, uint32_t index, size_t bytes);

  // Starts a record of `kind` at time `t` and returns where its fields go; the caller stores
  // the fields and calls Commit with the end. Callers flush first (Reserve) so that a flush
  // does not end up between taking a time and recording it.
  void Reserve() {
    if (pos_ > limit_) [[unlikely]]
      Flush(true);
  }
  uint8_t* Open(RecordKind kind, uint64_t t) {
    if (dropping_) [[unlikely]] {  // burst mode: the fields go to a scratch record
      scratch_[0] = static_cast<uint8_t>(kind);
      return scratch_ + 1;
    }
    uint8_t* p = pos_;
    *p++ = static_cast<uint8_t>(kind);
    p = PutVarint(p, t >= last_time_ ? t - last_time_ : 0);
    if (t > last_time_) last_time_ = t;
    return p;
  }
  void Commit(uint8_t* end) {
    if (dropping_) [[unlikely]] {
      ++bursts.dropped_records;
      return;
    }
    pos_ = end;
  }

  // Records a cpu change when the thread moved since its last check.
  void CheckCpu(uint64_t t) {
    int cpu = sched_getcpu();
    if (cpu != cpu_ && !dropping_) [[unlikely]] {
      cpu_ = cpu;
      Commit(PutVarint(Open(RecordKind::kCpu, t), static_cast<uint64_t>(cpu + 1)));
    }
  }

  // Writes the buffer as one data chunk of the process file. With `record_intrusion`, the
  // flush itself is recorded (state Flushing, event 40000003) at the start of the empty buffer.
  void Flush(bool record_intrusion);

  uint32_t index() const { return index_; }
  // The records committed so far and the time they are relative to (the crash flush).
  const uint8_t* data() const { return data_.get(); }
  size_t committed() const { return static_cast<size_t>(pos_ - data_.get()); }
  uint64_t base_time() const { return base_time_; }
  bool finished = false;
  // The next buffer of the lock-free list a signal handler walks (Runtime::CrashFlush).
  ThreadBuffer* next_registered = nullptr;
  // The thread's hardware counters, read at every state change; null when not recorded.
  std::unique_ptr<ThreadCounters> counters;

  // Burst mode (PXT_BURSTS): records go nowhere (dropping) but for the Running bursts longer
  // than the threshold, written when they end (runtime.cc, BurstStateEnter / Leave).
  struct Bursts {
    uint64_t threshold = 0;  // ns; 0: detailed tracing
    uint64_t begin = 0;      // of the current burst
    uint32_t depth = 0;      // states entered and not left (0: in a burst)
    uint64_t kept = 0;
    uint64_t dropped = 0;          // bursts shorter than the threshold
    uint64_t dropped_records = 0;  // records not written (calls, events, short bursts)
  } bursts;
  void set_dropping(bool on) { dropping_ = on; }
  bool dropping() const { return dropping_; }

 private:
  void Reset(uint64_t base);

  Runtime* runtime_;
  uint32_t index_;
  std::unique_ptr<uint8_t[]> data_;
  size_t capacity_;
  uint8_t* pos_;
  uint8_t* limit_;
  uint64_t base_time_ = 0;
  uint64_t last_time_ = 0;
  int cpu_ = -2;
  bool dropping_ = false;
  uint8_t scratch_[kMaxRecordBytes];
};

// Who this process is, written to the metadata chunk for the merge.
struct ProcessIdentity {
  int rank = -1;  // -1: not an MPI process
  int size = 1;
  std::string session;
};

class Runtime {
 public:
  static Runtime& Get();

  // pxt_start(): reads the options, creates the output folder. Idempotent.
  bool Start();
  bool active() const { return g_active.load(std::memory_order_relaxed); }
  // Started and not finished: recording, or paused by Pause().
  bool pending() const { return active() || paused_.load(); }
  // Extrae_shutdown / Extrae_restart, MPI_Pcontrol(0/1): stop and resume recording (event
  // 40000012 "Tracing" 0 and 1 on the calling thread); the end of the run still flushes.
  void Pause();
  void Resume();
  const Options& options() const { return options_; }
  const Counters& counters() const { return counters_; }

  // Registers the calling thread (first record); nullptr when inactive.
  ThreadBuffer* RegisterCurrentThread();
  // Flushes and forgets the calling thread's buffer (thread exit).
  void ThreadExit(ThreadBuffer* buffer);

  void WriteChunk(ChunkKind kind, uint32_t thread, uint64_t base, const uint8_t* data,
                  size_t length);

  void NameType(uint32_t type, const char* label);
  void NameValue(uint32_t type, int64_t value, const char* label);
  void NameState(uint32_t state, const char* label);
  int RegisterLocation(const char* file, int line);

  // A fact the merge must report (e.g. MPI receives that could not be recorded); one line.
  void AddNote(const std::string& text);
  // A metadata line "key fields..." read by the merge (e.g. "comm KEY RANK...").
  void AddMetaLine(const std::string& line);

  void SetIdentity(const ProcessIdentity& id);
  const ProcessIdentity& identity() const { return identity_; }
  // Wall-clock time (CLOCK_REALTIME, ns) at Start: files written after it belong to this run.
  int64_t start_wall_ns() const { return start_wall_ns_; }
  // The run this process belongs to (PXT_RUN_ID, inherited by the processes it starts).
  const std::string& run_id() const { return run_id_; }
  // offset = local clock - rank 0 clock at local_time, measured with a round trip of rtt_ns.
  void AddClockSample(uint64_t local_time, int64_t offset_ns, uint64_t rtt_ns);

  // Stops recording, flushes every buffer, writes the metadata and closes the process file.
  // Returns the file's path ("" when tracing never started). `abnormal` (a signal number, or
  // kAbnormalMpiAbort) marks a run that is ending without its normal end.
  std::string FinishProcess(int abnormal = 0);

  // Async-signal-safe: stops recording and writes every thread's committed records and an
  // "abnormal SIGNAL TIME" metadata line, with write(2) only; once per process.
  void CrashFlush(int signal);
  bool crash_flushed() const { return crash_flushed_.load(); }
  // PXT_MAX_SIZE was reached: recording stopped for good.
  bool limit_reached() const { return limit_reached_.load(std::memory_order_relaxed); }
  // Installs the crash handlers: over the default action of SIGTERM, SIGINT, SIGHUP, SIGXCPU
  // and SIGQUIT, and in front of whatever handles SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
  // `after_mpi_init`: again after MPI_Init, in front of the handlers its library installed
  // (they end the process) for every one of them.
  void InstallCrashHandlers(bool after_mpi_init = false);

 private:
  Runtime() = default;
  bool OpenFile();
  // PXT_MAX_SIZE reached by a chunk of `length` bytes: stop recording; file_mutex_ held.
  void StopAtLimitLocked(size_t length);
  // Writes a chunk; file_mutex_ held.
  void WriteChunkLocked(ChunkKind kind, uint32_t thread, uint64_t base, const uint8_t* data, size_t length);
  // Metadata lines: written at once when the file is open, else kept for its first chunk, so
  // that a process that dies still leaves its identity and names (mutex_ may be held).
  void QueueMeta(const std::string& lines);
  std::string ProcessLine(uint64_t end_time) const;
  std::string MetadataText(uint64_t end_time) const;
  static std::string ModuleMap();

  bool started_ = false;
  Options options_;
  Counters counters_;
  std::string counter_notice_;  // why counters are not recorded (said once)
  ProcessIdentity identity_;
  uint64_t start_time_ = 0;
  int64_t start_wall_ns_ = 0;
  std::string run_id_;
  int fd_ = -1;
  std::string path_;
  std::string pending_meta_;        // file_mutex_: metadata waiting for the file
  char crash_path_[4096] = {};      // where a crash flush writes when no file is open yet
  std::atomic<bool> crash_flushed_{false};
  std::atomic<bool> paused_{false};
  std::atomic<bool> limit_reached_{false};  // PXT_MAX_SIZE: stopped for good
  uint64_t bytes_written_ = 0;              // file_mutex_: bytes of the process file
  std::atomic<ThreadBuffer*> registry_{nullptr};  // every buffer, for the crash flush

  std::mutex file_mutex_;  // serialises chunk writes
  std::mutex mutex_;       // guards everything below
  std::vector<std::unique_ptr<ThreadBuffer>> threads_;
  std::map<uint32_t, std::string> type_names_;
  std::map<std::pair<uint32_t, int64_t>, std::string> value_names_;
  std::map<uint32_t, std::string> state_names_;
  std::vector<std::string> locations_;   // id - 1 -> "file:line"
  std::vector<std::string> extra_meta_;  // AddNote, AddMetaLine
  struct ClockSample {
    uint64_t time;
    int64_t offset;
    uint64_t rtt;
  };
  std::vector<ClockSample> clock_samples_;
};

// The calling thread's buffer (registering the thread on first use), nullptr when inactive.
inline ThreadBuffer* CurrentBuffer() {
  if (!g_active.load(std::memory_order_relaxed)) [[unlikely]]
    return nullptr;
  ThreadBuffer* b = t_buffer;
  if (b) [[likely]]
    return b;
  return Runtime::Get().RegisterCurrentThread();
}

// Internal recording entry points shared by the C API and the MPI / pthread wrappers. They
// record unconditionally (no event-type filter) at the given time.
void RecordEvent(ThreadBuffer* b, uint64_t t, uint32_t type, int64_t value);
void RecordStateEnter(ThreadBuffer* b, uint64_t t, uint32_t state);
void RecordStateLeave(ThreadBuffer* b, uint64_t t);
// Burst mode: closes the thread's last burst before its end record (`own`: the calling
// thread's buffer, whose counters can be read).
void EndBursts(ThreadBuffer* b, uint64_t t, bool own);
// The code address that called the MPI (or other library) call starting at time t.
void RecordCaller(ThreadBuffer* b, uint64_t t, uintptr_t address);
// The thread's hardware counters since its previous reading, as events at time t (when it
// reads any).
void RecordCountersNow(ThreadBuffer* b, uint64_t t);
// A code address as an event of `type` (the function) and `type + 100` (its line), resolved by
// the merge like call sites (Extrae's OpenMP function types).
void RecordCodeEvent(ThreadBuffer* b, uint64_t t, uint32_t type, uintptr_t address);

struct MessageInfo {
  int32_t peer;  // world rank of the partner
  int64_t tag;
  uint64_t comm_key;
  uint64_t size;
  uint64_t sequence;
};
void RecordSend(ThreadBuffer* b, const MessageInfo& m, uint64_t logical, uint64_t physical);
void RecordRecv(ThreadBuffer* b, const MessageInfo& m, uint64_t logical, uint64_t physical);

// True in the child of a fork() without exec: it records nothing and writes no file.
bool InForkedChild();

// Merges the per-process files of this process's session into options().MergedTrace();
// prints the report to stderr when verbose. Returns false (with a message) on failure.
bool MergeOwnSession();

}  // namespace parallax::tracing
