#include "tracing/src/runtime.h"

#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "parallax/trace.h"

namespace parallax::tracing {

ClockSkew g_clock_skew;
constinit std::atomic<bool> g_active{false};
thread_local bool t_in_tracer = false;
thread_local ThreadBuffer* t_buffer = nullptr;

namespace {

constexpr uint32_t kTracingType = 40000012;  // Extrae's "Tracing": 0 disabled, 1 enabled

// Room kept free at the end of a buffer: the record being written, a cpu change, and the four
// records describing a flush.
constexpr size_t kReserveBytes = 8 * kMaxRecordBytes;

// Flushes the thread's buffer when the thread ends; a separate object because only objects
// with destructors get a per-thread exit hook, and the hot path must not touch it.
struct ThreadExitHook {
  ~ThreadExitHook() {
    if (ThreadBuffer* b = t_buffer) {
      t_buffer = nullptr;
      Runtime::Get().ThreadExit(b);
    }
  }
};
thread_local ThreadExitHook t_exit_hook;

bool MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    std::string prefix = path.substr(0, i);
    if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string HostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "localhost";
  return host;
}

// Labels become single .pcf lines: no newlines inside.
std::string OneLine(const char* label) {
  std::string s = label ? label : "";
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::atomic<bool> g_forked_child{false};

// The child of a fork() without exec shares the parent's file descriptor and buffers: it must
// neither write to the parent's file nor claim its rank, so it records nothing.
void AfterForkInChild() {
  g_forked_child.store(true);
  g_active.store(false);
}

void AtExit() {
  Runtime& rt = Runtime::Get();
  if (!rt.pending() || g_forked_child.load()) return;
  std::string path = rt.FinishProcess();
  if (!path.empty() && rt.identity().rank < 0 && rt.options().merge) MergeOwnSession();
}

}  // namespace

// The counts since the thread's previous reading, as events at time t.
static void RecordCounters(ThreadBuffer* b, uint64_t t);

void RecordCountersNow(ThreadBuffer* b, uint64_t t) {
  if (b->counters) RecordCounters(b, t);
}

static void RecordCounters(ThreadBuffer* b, uint64_t t) {
  int64_t deltas[16];
  if (!b->counters->Read(deltas)) return;
  const std::vector<CounterDef>& defs = Runtime::Get().counters().set(b->counters->set);
  for (size_t i = 0; i < defs.size(); ++i) RecordEvent(b, t, defs[i].type, deltas[i]);
}

// PXT_COUNTER_SETS: at the end of a burst (its counts just recorded), switches the thread to the
// next set when PXT_COUNTER_SWITCH says so: event 41999999 = the new set's number, and, as
// Extrae writes them, zero readings of the new set's counters the old one did not have.
static void MaybeSwitchCounterSet(ThreadBuffer* b, uint64_t t) {
  const Runtime& rt = Runtime::Get();
  const Counters& all = rt.counters();
  ThreadCounters& c = *b->counters;
  const Options& o = rt.options();
  const bool due = o.counter_switch_ns != 0 ? t - c.switched_at >= o.counter_switch_ns
                                            : ++c.bursts >= o.counter_switch_bursts;
  if (!due) return;
  const size_t old = c.set, next = (c.set + 1) % all.num_sets();
  if (!c.Switch(next)) return;
  c.bursts = 0;
  c.switched_at = t;
  RecordEvent(b, t, kCounterSetType, static_cast<int64_t>(next + 1));
  for (const CounterDef& d : all.set(next)) {
    bool before = false;
    for (const CounterDef& e : all.set(old)) before = before || e.type == d.type;
    if (!before) RecordEvent(b, t, d.type, 0);
  }
}

ThreadBuffer::ThreadBuffer(Runtime* runtime, uint32_t index, size_t bytes)
    : runtime_(runtime), index_(index), data_(new uint8_t[bytes]), capacity_(bytes) {
  pos_ = data_.get();
  limit_ = data_.get() + capacity_ - kReserveBytes;
}

void ThreadBuffer::Reset(uint64_t base) {
  pos_ = data_.get();
  base_time_ = base;
  last_time_ = base;
}

void ThreadBuffer::Flush(bool record_intrusion) {
  TracerSection section;
  uint64_t t0 = Now();
  size_t used = static_cast<size_t>(pos_ - data_.get());
  // The records leave the buffer before they are written, and are not written once a crash
  // flush ran: a signal handler (Runtime::CrashFlush, on this thread or another) never writes
  // them a second time. At worst a dying process loses this last buffer, never repeats it.
  pos_ = data_.get();
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (used && !runtime_->crash_flushed())
    runtime_->WriteChunk(ChunkKind::kData, index_, base_time_, data_.get(), used);
  Reset(t0);
  // The size limit stopped recording: the record that made this flush is not written either.
  if (runtime_->limit_reached()) dropping_ = true;
  if (!record_intrusion || !used || dropping_) return;
  uint64_t t1 = Now();
  Commit(PutVarint(Open(RecordKind::kStateEnter, t0), PXT_STATE_FLUSHING));
  uint8_t* p = PutVarint(Open(RecordKind::kEvent, t0), PXT_TYPE_FLUSHING);
  Commit(PutVarint(p, ZigZag(1)));
  p = PutVarint(Open(RecordKind::kEvent, t1), PXT_TYPE_FLUSHING);
  Commit(PutVarint(p, ZigZag(0)));
  Commit(Open(RecordKind::kStateLeave, t1));
}

Runtime& Runtime::Get() {
  // Never destroyed: threads and atexit handlers may still record while statics are torn down.
  static Runtime* runtime = new Runtime();
  return *runtime;
}

bool Runtime::Start() {
  TracerSection section;
  std::lock_guard lock(mutex_);
  if (started_) return g_active.load();
  started_ = true;
  int launcher_rank = LauncherRank();
  // The launcher's rank variables are inherited by whatever a rank starts (system(), popen):
  // only the process that first claimed the rank (or its exec'd image, same pid) is that rank.
  if (launcher_rank >= 0) {
    const std::string me = std::to_string(getpid());
    const char* owner = std::getenv("PXT_RANK_OWNER");
    if (owner != nullptr && *owner != '\0' && me != owner) {
      launcher_rank = -1;
    } else {
      setenv("PXT_RANK_OWNER", me.c_str(), 1);
    }
  }
  options_ = ReadOptions(launcher_rank);
  if (!options_.config_error.empty())
    std::fprintf(stderr, "parallax-trace: %s; tracing disabled\n", options_.config_error.c_str());
  if (!options_.extrae_notice.empty()) std::fprintf(stderr, "parallax-trace: %s\n", options_.extrae_notice.c_str());
  if (!options_.enabled) return false;
  if (!MakeDirs(options_.ProcessDir())) {
    std::fprintf(stderr, "parallax-trace: cannot create %s: %s; tracing disabled\n",
                 options_.ProcessDir().c_str(), std::strerror(errno));
    return false;
  }
  if (options_.clock_offset_ns != 0 || options_.clock_drift_ppm != 0) {
    g_clock_skew = {true, options_.clock_offset_ns, options_.clock_drift_ppm, RawNow()};
  }
  // Hardware counters: a notice (never a failure) when they cannot be read.
  counters_ = Counters::Init(options_.counters, &counter_notice_, options_.counter_sets);
  for (const CounterDef& d : counters_.defs()) type_names_[d.type] = OneLine(CounterLabel(d).c_str());
  if (counters_.num_sets() > 1) {
    if (options_.counter_switch_bursts == 0 && options_.counter_switch_ns == 0)
      options_.counter_switch_ns = 500000000;  // PXT_COUNTER_SWITCH's default: 500ms
    type_names_[kCounterSetType] = "Active hardware counter set";
    for (size_t k = 0; k < counters_.num_sets(); ++k)
      value_names_[{kCounterSetType, static_cast<int64_t>(k + 1)}] = OneLine(CounterSetLabel(counters_, k).c_str());
  }
  if (!counter_notice_.empty()) {
    if (options_.verbose) std::fprintf(stderr, "parallax-trace: %s\n", counter_notice_.c_str());
    extra_meta_.push_back(OneLine(("notice " + counter_notice_).c_str()));
  }
  start_time_ = Now();
  timespec wall;
  clock_gettime(CLOCK_REALTIME, &wall);
  start_wall_ns_ = static_cast<int64_t>(wall.tv_sec) * 1000000000 + wall.tv_nsec;
  identity_.rank = launcher_rank >= 0 ? launcher_rank : -1;
  identity_.session =
      HostName() + "." + std::to_string(getpid()) + "." + std::to_string(start_time_);
  // The run: inherited from a traced parent (a shell running several programs), else this
  // process starts one and passes it on to its children.
  const char* run = std::getenv("PXT_RUN_ID");
  run_id_ = run && *run ? run : identity_.session;
  setenv("PXT_RUN_ID", run_id_.c_str(), 0);
  // Where a crash writes when nothing was flushed yet (the first name OpenFile tries).
  std::snprintf(crash_path_, sizeof crash_path_, "%s/%s.%s.%ld.pxt", options_.ProcessDir().c_str(),
                options_.program.c_str(), HostName().c_str(), static_cast<long>(getpid()));
  // Who this process is, before any record: a run that dies still leaves it in its file.
  std::string early = "pxt-meta 1\nformat 2\n" + ProcessLine(0) + "host " + HostName() + "\nsession " + identity_.session +
                      "\nrun " + run_id_ + "\n";
  if (g_clock_skew.active) early += "skew 1\n";
  for (const auto& [type, label] : type_names_) early += "type " + std::to_string(type) + " " + label + "\n";
  for (const auto& [key, label] : value_names_)
    early += "value " + std::to_string(key.first) + " " + std::to_string(key.second) + " " + label + "\n";
  for (const auto& line : extra_meta_) early += line + "\n";
  early += ModuleMap();
  QueueMeta(early);
  g_active.store(true);
  std::atexit(AtExit);
  pthread_atfork(nullptr, nullptr, AfterForkInChild);
  InstallCrashHandlers();
  return true;
}

ThreadBuffer* Runtime::RegisterCurrentThread() {
  TracerSection section;
  ThreadBuffer* b;
  {
    std::lock_guard lock(mutex_);
    if (!g_active.load()) return nullptr;
    auto index = static_cast<uint32_t>(threads_.size());
    threads_.push_back(std::make_unique<ThreadBuffer>(this, index, options_.buffer_bytes));
    b = threads_.back().get();
    if (counters_.enabled()) {
      bool first_notice = counter_notice_.empty();
      b->counters = counters_.StartThread(&counter_notice_);
      if (!b->counters && first_notice && !counter_notice_.empty()) {
        if (options_.verbose) std::fprintf(stderr, "parallax-trace: %s\n", counter_notice_.c_str());
        extra_meta_.push_back(OneLine(("notice " + counter_notice_).c_str()));
      }
    }
  }
  b->next_registered = registry_.load();
  while (!registry_.compare_exchange_weak(b->next_registered, b)) {
  }
  t_buffer = b;
  (void)&t_exit_hook;  // odr-use: registers the exit hook of this thread
  b->Reserve();
  const uint64_t now = Now();
  b->CheckCpu(now);
  if (b->counters && counters_.num_sets() > 1) {  // the thread starts with the first set
    b->counters->switched_at = now;
    RecordEvent(b, now, kCounterSetType, 1);
  }
  if (options_.burst_ns != 0) {
    // Burst mode: Extrae's mode event, and the thread is Idle but in the bursts it keeps.
    b->bursts.threshold = options_.burst_ns;
    b->bursts.begin = now;
    RecordEvent(b, now, PXT_TYPE_TRACING_MODE, 2);
    b->Reserve();
    b->Commit(PutVarint(b->Open(RecordKind::kStateEnter, now), PXT_STATE_IDLE));
    b->set_dropping(true);
  }
  return b;
}

void Runtime::ThreadExit(ThreadBuffer* b) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  if (b->finished || !g_active.load()) return;
  uint64_t t = Now();
  if (b->bursts.threshold != 0)
    EndBursts(b, t, true);
  else if (b->counters && !limit_reached_.load())
    RecordCounters(b, t);  // the counts of the thread's last burst
  b->set_dropping(false);  // its end record (burst mode, or a stop at the size limit)
  b->Reserve();
  b->Commit(b->Open(RecordKind::kThreadEnd, t));
  b->Flush(true);
  b->Flush(false);
  b->finished = true;
}

// PROGRAM.HOST.PID.pxt: a shell that starts the program (`bash -c "prog; ..."`, same output
// name) has another name or pid; a process image exec'd with the same pid and name gets a
// numbered file instead of truncating its predecessor's.
bool Runtime::OpenFile() {
  std::string base = options_.ProcessDir() + "/" + options_.program + "." + HostName() + "." +
                     std::to_string(getpid());
  for (int n = 1; n < 100; ++n) {
    path_ = base;  // appends only: GCC 12 warns (-Wrestrict) on `const char* + string`
    if (n > 1) path_.append(".").append(std::to_string(n));
    path_.append(".pxt");
    // Appending: every chunk is one write, which a crash flush from a signal handler cannot
    // split.
    fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd_ >= 0 || errno != EEXIST) break;
  }
  if (fd_ < 0) {
    std::fprintf(stderr, "parallax-trace: cannot write %s: %s\n", path_.c_str(),
                 std::strerror(errno));
    return false;
  }
  if (!pending_meta_.empty()) {
    std::string meta;
    meta.swap(pending_meta_);
    WriteChunkLocked(ChunkKind::kMeta, 0, 0, reinterpret_cast<const uint8_t*>(meta.data()), meta.size());
  }
  return true;
}

namespace {

// write(2) of a header and its data as one call (async-signal-safe).
void WriteAll(int fd, const ChunkHeader& h, const uint8_t* data, size_t length) {
  iovec iov[2] = {{const_cast<ChunkHeader*>(&h), sizeof h}, {const_cast<uint8_t*>(data), length}};
  int n = length ? 2 : 1;
  iovec* v = iov;
  while (n > 0) {
    ssize_t w = writev(fd, v, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    auto left = static_cast<size_t>(w);
    while (n > 0 && left >= v->iov_len) left -= v->iov_len, ++v, --n;
    if (n > 0) v->iov_base = static_cast<char*>(v->iov_base) + left, v->iov_len -= left;
  }
}

}  // namespace

void Runtime::WriteChunkLocked(ChunkKind kind, uint32_t thread, uint64_t base, const uint8_t* data,
                               size_t length) {
  if (fd_ < 0 && !OpenFile()) return;
  ChunkHeader h{kChunkMagic, static_cast<uint32_t>(kind), thread, 0, base, length};
  WriteAll(fd_, h, data, length);
  bytes_written_ += sizeof h + length;
}

// The chunk that would take the file past PXT_MAX_SIZE is still written, and so are the other
// threads' buffers at the end: they hold records from before the stop, so every thread's trace
// is a complete prefix of the run up to the stop (the file may exceed the limit by the buffers
// held then, at most one PXT_BUFFER_SIZE per thread).
void Runtime::StopAtLimitLocked(size_t length) {
  if (limit_reached_.exchange(true)) return;
  const uint64_t t = Now();
  const uint64_t written = bytes_written_;
  paused_.store(true);  // still pending: the end of the run flushes and finishes the file
  g_active.store(false);
  const std::string line = "pxt-meta 1\nlimit " + std::to_string(t) + " " + std::to_string(options_.max_size) +
                           " " + std::to_string(written) + "\n";
  WriteChunkLocked(ChunkKind::kMeta, 0, 0, reinterpret_cast<const uint8_t*>(line.data()), line.size());
  std::fprintf(stderr,
               "parallax-trace: trace size limit reached (PXT_MAX_SIZE=%llu bytes; %llu written, a chunk of "
               "%llu more): recording stopped; the trace keeps what was recorded before, and event %u marks "
               "the stop\n",
               static_cast<unsigned long long>(options_.max_size), static_cast<unsigned long long>(written),
               static_cast<unsigned long long>(length), PXT_TYPE_SIZE_LIMIT);
}

void Runtime::QueueMeta(const std::string& lines) {
  // Whatever holds file_mutex_ runs as the library: an interposed malloc or write must not
  // record (a flush would take the mutex again).
  TracerSection section;
  std::lock_guard lock(file_mutex_);
  if (fd_ < 0) {
    pending_meta_ += pending_meta_.empty() && lines.rfind("pxt-meta", 0) != 0 ? "pxt-meta 1\n" + lines : lines;
    return;
  }
  const std::string meta = lines.rfind("pxt-meta", 0) == 0 ? lines : "pxt-meta 1\n" + lines;
  WriteChunkLocked(ChunkKind::kMeta, 0, 0, reinterpret_cast<const uint8_t*>(meta.data()), meta.size());
}

void Runtime::WriteChunk(ChunkKind kind, uint32_t thread, uint64_t base, const uint8_t* data,
                         size_t length) {
  TracerSection section;
  std::lock_guard lock(file_mutex_);
  if (kind == ChunkKind::kData && options_.max_size != 0 && !limit_reached_.load() &&
      bytes_written_ + sizeof(ChunkHeader) + length > options_.max_size)
    StopAtLimitLocked(length);
  WriteChunkLocked(kind, thread, base, data, length);
}

void Runtime::NameType(uint32_t type, const char* label) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  type_names_[type] = OneLine(label);
  QueueMeta("type " + std::to_string(type) + " " + type_names_[type] + "\n");
}

void Runtime::NameValue(uint32_t type, int64_t value, const char* label) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  value_names_[{type, value}] = OneLine(label);
  QueueMeta("value " + std::to_string(type) + " " + std::to_string(value) + " " + value_names_[{type, value}] + "\n");
}

void Runtime::NameState(uint32_t state, const char* label) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  state_names_[state] = OneLine(label);
  QueueMeta("state " + std::to_string(state) + " " + state_names_[state] + "\n");
}

int Runtime::RegisterLocation(const char* file, int line) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  locations_.push_back(OneLine(file) + ":" + std::to_string(line));
  QueueMeta("location " + std::to_string(locations_.size()) + " " + locations_.back() + "\n");
  return static_cast<int>(locations_.size());
}

void Runtime::Pause() {
  TracerSection section;
  {
    std::lock_guard lock(mutex_);
    if (!g_active.load()) return;
    if (ThreadBuffer* b = t_buffer) RecordEvent(b, Now(), kTracingType, 0);
    paused_.store(true);
    g_active.store(false);
  }
  NameType(kTracingType, "Tracing");
  NameValue(kTracingType, 0, "Disabled");
  NameValue(kTracingType, 1, "Enabled");
}

void Runtime::Resume() {
  TracerSection section;
  {
    std::lock_guard lock(mutex_);
    if (limit_reached_.load() || !paused_.exchange(false)) return;  // the size limit is final
    g_active.store(true);
  }
  if (ThreadBuffer* b = CurrentBuffer()) RecordEvent(b, Now(), kTracingType, 1);
}

void Runtime::AddNote(const std::string& text) { AddMetaLine("note " + text); }

void Runtime::AddMetaLine(const std::string& line) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  extra_meta_.push_back(OneLine(line.c_str()));
  QueueMeta(extra_meta_.back() + "\n");
}

void Runtime::SetIdentity(const ProcessIdentity& id) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  identity_ = id;
  if (started_) QueueMeta(ProcessLine(0) + "session " + identity_.session + "\n");
}

void Runtime::AddClockSample(uint64_t local_time, int64_t offset_ns, uint64_t rtt_ns) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  clock_samples_.push_back({local_time, offset_ns, rtt_ns});
  QueueMeta("sync " + std::to_string(local_time) + " " + std::to_string(offset_ns) + " " + std::to_string(rtt_ns) +
            "\n");
}

// One fact per line, `key fields...`; the merge reads it back (merge/pxt_reader.cc).
namespace {

// "module LOW HIGH BIAS PATH" for each executable segment of each loaded object: the merge
// turns recorded code addresses into (object, address in the object) with it.
int AddModule(dl_phdr_info* info, size_t, void* out) {
  std::string path = info->dlpi_name ? info->dlpi_name : "";
  if (path.empty()) {  // the program itself
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    path.assign(exe, static_cast<size_t>(n));
  }
  if (path[0] != '/') return 0;  // the vDSO and such: no file to read
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t low = info->dlpi_addr + ph.p_vaddr;
    *static_cast<std::string*>(out) += "module " + std::to_string(low) + " " +
                                       std::to_string(low + ph.p_memsz) + " " +
                                       std::to_string(info->dlpi_addr) + " " + path + "\n";
  }
  return 0;
}

}  // namespace

std::string Runtime::ModuleMap() {
  std::string s;
  dl_iterate_phdr(AddModule, &s);
  return s;
}

std::string Runtime::ProcessLine(uint64_t end_time) const {
  return "process " + std::to_string(identity_.rank) + " " + std::to_string(identity_.size) + " " +
         std::to_string(getpid()) + " " + std::to_string(sysconf(_SC_NPROCESSORS_CONF)) + " " +
         std::to_string(start_time_) + " " + std::to_string(end_time) + "\n";
}

// The last metadata chunk: names, notes and clock samples went out as they came (QueueMeta);
// this one adds the end, the thread count, the objects loaded since, and the mark of a
// complete file.
std::string Runtime::MetadataText(uint64_t end_time) const {
  std::string s = "pxt-meta 1\n" + ProcessLine(end_time);
  s += "threads " + std::to_string(threads_.size()) + "\n";
  if (options_.burst_ns != 0) {
    uint64_t kept = 0, dropped = 0, records = 0;
    for (const auto& b : threads_) {
      kept += b->bursts.kept;
      dropped += b->bursts.dropped;
      records += b->bursts.dropped_records;
    }
    s += "bursts " + std::to_string(options_.burst_ns) + " " + std::to_string(kept) + " " +
         std::to_string(dropped) + " " + std::to_string(records) + "\n";
  }
  s += ModuleMap();
  return s;
}

std::string Runtime::FinishProcess(int abnormal) {
  TracerSection section;
  std::lock_guard lock(mutex_);
  if (crash_flushed_.load()) return path_;
  const bool was_active = g_active.exchange(false);
  if (!was_active && !paused_.exchange(false)) return path_;
  // A process that recorded nothing (typically a shell or launcher that inherited LD_PRELOAD)
  // leaves no file and merges nothing: it must not replace the trace of the program it ran.
  if (threads_.empty() && fd_ < 0 && identity_.rank < 0) return "";
  uint64_t end_time = Now();
  for (auto& b : threads_) {
    if (b->finished) continue;
    // Counters can be read only by their own thread: the calling one's last burst.
    if (b->bursts.threshold != 0)
      EndBursts(b.get(), end_time, b.get() == t_buffer);
    else if (b->counters && b.get() == t_buffer && !limit_reached_.load())
      RecordCounters(b.get(), end_time);
    b->set_dropping(false);
    b->Reserve();
    b->Commit(b->Open(RecordKind::kThreadEnd, end_time));
    b->Flush(true);
    b->Flush(false);
    b->finished = true;
  }
  std::string meta = MetadataText(Now());
  if (abnormal != 0) meta += "abnormal " + std::to_string(abnormal) + " " + std::to_string(end_time) + "\n";
  meta += "finished 1\n";
  WriteChunk(ChunkKind::kMeta, 0, 0, reinterpret_cast<const uint8_t*>(meta.data()), meta.size());
  std::lock_guard file_lock(file_mutex_);
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  return path_;
}

namespace {

// Decimal digits of v at p (async-signal-safe).
char* PutDecimal(char* p, uint64_t v) {
  char digits[24];
  int n = 0;
  do digits[n++] = static_cast<char>('0' + v % 10), v /= 10;
  while (v != 0);
  while (n > 0) *p++ = digits[--n];
  return p;
}

char* PutText(char* p, const char* s) {
  while (*s) *p++ = *s++;
  return p;
}

}  // namespace

bool InForkedChild() { return g_forked_child.load(); }

void Runtime::CrashFlush(int signal) {
  if (g_forked_child.load() || !started_ || crash_flushed_.exchange(true)) return;
  if (!g_active.exchange(false) && !paused_.load()) return;  // finished normally already
  const uint64_t now = Now();
  // The file: open, else the first name OpenFile would have tried, with the metadata kept for
  // it (read without the lock: a signal may have stopped a thread holding it).
  int fd = fd_;
  // A process that recorded nothing (a shell that inherited LD_PRELOAD) leaves no file, as at a
  // normal end.
  if (fd < 0 && registry_.load() == nullptr && identity_.rank < 0) return;
  if (fd < 0) {
    fd = open(crash_path_, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0) return;
    fd_ = fd;
    if (!pending_meta_.empty()) {
      ChunkHeader h{kChunkMagic, static_cast<uint32_t>(ChunkKind::kMeta), 0, 0, 0, pending_meta_.size()};
      WriteAll(fd, h, reinterpret_cast<const uint8_t*>(pending_meta_.data()), pending_meta_.size());
    }
  }
  for (ThreadBuffer* b = registry_.load(); b != nullptr; b = b->next_registered) {
    if (b->finished) continue;
    const size_t n = b->committed();
    if (n == 0) continue;
    ChunkHeader h{kChunkMagic, static_cast<uint32_t>(ChunkKind::kData), b->index(), 0, b->base_time(), n};
    WriteAll(fd, h, b->data(), n);
  }
  char text[96];
  char* p = PutText(text, "pxt-meta 1\nabnormal ");
  p = PutDecimal(p, static_cast<uint64_t>(signal));
  *p++ = ' ';
  p = PutDecimal(p, now);
  *p++ = '\n';
  ChunkHeader h{kChunkMagic, static_cast<uint32_t>(ChunkKind::kMeta), 0, 0, 0, static_cast<uint64_t>(p - text)};
  WriteAll(fd, h, reinterpret_cast<const uint8_t*>(text), static_cast<size_t>(p - text));
}

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGQUIT};
constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[65];  // what each signal did before the crash handler

void CrashHandler(int sig, siginfo_t* info, void* context) {
  const int saved = errno;
  Runtime::Get().CrashFlush(sig);
  const struct sigaction& old = g_previous[sig];
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction != nullptr) {
    old.sa_sigaction(sig, info, context);
  } else if (old.sa_handler == SIG_IGN) {
  } else if (old.sa_handler == SIG_DFL || old.sa_handler == nullptr) {
    // The default action, now: the process ends as it would have without the tracer.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
    raise(sig);
  } else {
    old.sa_handler(sig);
  }
  errno = saved;
}

void Install(int sig, bool over_default_only) {
  struct sigaction current {};
  if (sigaction(sig, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == CrashHandler) return;  // already first
  // A program's own stop handler ends its run its way (and the normal end flushes); an
  // ignored signal stays ignored.
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) return;
  if (over_default_only && current.sa_handler != SIG_DFL) return;
  g_previous[sig] = current;
  struct sigaction ours {};
  ours.sa_sigaction = CrashHandler;
  ours.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&ours.sa_mask);
  sigaction(sig, &ours, nullptr);
}

}  // namespace

void Runtime::InstallCrashHandlers(bool after_mpi_init) {
  if (!options_.crash_handlers) return;
  for (int sig : kStopSignals) Install(sig, !after_mpi_init);
  for (int sig : kFaultSignals) Install(sig, false);
}

void RecordEvent(ThreadBuffer* b, uint64_t t, uint32_t type, int64_t value) {
  b->Reserve();
  uint8_t* p = PutVarint(b->Open(RecordKind::kEvent, t), type);
  b->Commit(PutVarint(p, ZigZag(value)));
}

void RecordCaller(ThreadBuffer* b, uint64_t t, uintptr_t address) {
  b->Reserve();
  b->Commit(PutVarint(b->Open(RecordKind::kCaller, t), address));
}

void RecordCodeEvent(ThreadBuffer* b, uint64_t t, uint32_t type, uintptr_t address) {
  b->Reserve();
  uint8_t* p = PutVarint(b->Open(RecordKind::kCodeEvent, t), type);
  b->Commit(PutVarint(p, address));
}

namespace {

// Burst mode: the Running interval [begin, t) ends; kept (state Running and the counters of the
// burst at its end) when it lasted at least the threshold.
void EndBurst(ThreadBuffer* b, uint64_t t, bool read_counters) {
  ThreadBuffer::Bursts& s = b->bursts;
  if (t - s.begin < s.threshold) {
    ++s.dropped;
    return;
  }
  ++s.kept;
  b->set_dropping(false);
  b->Reserve();
  b->CheckCpu(s.begin);
  b->Commit(PutVarint(b->Open(RecordKind::kStateEnter, s.begin), PXT_STATE_RUNNING));
  if (read_counters && b->counters) RecordCounters(b, t);
  b->Reserve();
  b->Commit(b->Open(RecordKind::kStateLeave, t));
  b->set_dropping(true);
}

}  // namespace

void EndBursts(ThreadBuffer* b, uint64_t t, bool own) {
  if (b->bursts.depth == 0) EndBurst(b, t, own);
  b->set_dropping(false);  // the thread's end record
}

void RecordStateEnter(ThreadBuffer* b, uint64_t t, uint32_t state) {
  if (b->bursts.threshold != 0) [[unlikely]] {
    ++b->bursts.dropped_records;
    if (b->bursts.depth++ == 0) {
      EndBurst(b, t, true);
      if (b->counters && Runtime::Get().counters().num_sets() > 1) {
        b->set_dropping(false);  // a switch is kept between the bursts
        MaybeSwitchCounterSet(b, t);
        b->set_dropping(true);
      }
    }
    return;
  }
  if (b->counters) {
    RecordCounters(b, t);
    if (b->counters->depth++ == 0 && Runtime::Get().counters().num_sets() > 1) MaybeSwitchCounterSet(b, t);
  }
  b->Reserve();
  b->CheckCpu(t);
  b->Commit(PutVarint(b->Open(RecordKind::kStateEnter, t), state));
}

void RecordStateLeave(ThreadBuffer* b, uint64_t t) {
  if (b->bursts.threshold != 0) [[unlikely]] {
    ++b->bursts.dropped_records;
    if (b->bursts.depth > 0 && --b->bursts.depth == 0) {  // a burst begins: counters from here
      b->bursts.begin = t;
      int64_t discard[16];
      if (b->counters) b->counters->Read(discard);
    }
    return;
  }
  if (b->counters) {
    RecordCounters(b, t);
    if (b->counters->depth > 0) --b->counters->depth;
  }
  b->Reserve();
  b->CheckCpu(t);
  b->Commit(b->Open(RecordKind::kStateLeave, t));
}

namespace {
uint8_t* PutMessage(uint8_t* p, const MessageInfo& m, uint64_t logical, uint64_t physical) {
  p = PutVarint(p, static_cast<uint64_t>(m.peer));
  p = PutVarint(p, ZigZag(m.tag));
  p = PutVarint(p, m.comm_key);
  p = PutVarint(p, m.size);
  p = PutVarint(p, m.sequence);
  return PutVarint(p, ZigZag(static_cast<int64_t>(physical - logical)));
}
}  // namespace

void RecordSend(ThreadBuffer* b, const MessageInfo& m, uint64_t logical, uint64_t physical) {
  b->Reserve();
  b->Commit(PutMessage(b->Open(RecordKind::kSend, logical), m, logical, physical));
}

void RecordRecv(ThreadBuffer* b, const MessageInfo& m, uint64_t logical, uint64_t physical) {
  b->Reserve();
  b->Commit(PutMessage(b->Open(RecordKind::kRecv, physical), m, logical, physical));
}

}  // namespace parallax::tracing
