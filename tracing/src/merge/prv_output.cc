// Writes a MergedTrace as NAME.prv (records sorted by time), NAME.pcf (Extrae's states and
// MPI labels, the library's own types, the program's names) and NAME.row (object names).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <ctime>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "parallax/trace.h"
#include "tracing/src/merge/merger.h"
#include "tracing/src/merge/merge_model.h"
#include "tracing/src/merge/output_file.h"
#include "tracing/src/mpi_calls.h"

namespace parallax::tracing {

std::string PrvHeader(const MergedTrace& t) {
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%d/%m/%Y at %H:%M", std::localtime(&now));
  // Appends only: GCC 12 warns (-Wrestrict, a false positive) on chains of `const char* + string`.
  std::string h = "#Paraver (";
  h.append(date).append("):").append(std::to_string(t.end_time)).append("_ns:");
  h.append(std::to_string(t.hosts.size())).append("(");
  for (size_t i = 0; i < t.node_cpus.size(); ++i)
    h.append(i ? "," : "").append(std::to_string(t.node_cpus[i]));
  h.append("):1:").append(std::to_string(t.task_threads.size())).append("(");
  for (size_t i = 0; i < t.task_threads.size(); ++i)
    h.append(i ? "," : "")
        .append(std::to_string(t.task_threads[i]))
        .append(":")
        .append(std::to_string(t.task_node[i]));
  h.append(")");
  if (!t.communicators.empty()) h.append(",").append(std::to_string(t.communicators.size()));
  h.append("\n");
  for (const auto& [id, tasks] : t.communicators) {
    h.append("c:1:").append(std::to_string(id)).append(":").append(std::to_string(tasks.size()));
    for (uint32_t task : tasks) h.append(":").append(std::to_string(task));
    h.append("\n");
  }
  return h;
}

namespace {

// A body line with the key the canonical order sorts on: time, thread, state < event < comm.
struct Line {
  int64_t time;
  uint32_t thread;
  uint8_t kind;
  std::string text;
};

std::string Loc(uint32_t cpu, const OutThread& th) {
  std::string s = std::to_string(cpu);
  return s.append(":1:")
      .append(std::to_string(th.task))
      .append(":")
      .append(std::to_string(th.thread));
}

// Appends ":v" for each value (appends only, see Header).
void Fields(std::string* s, std::initializer_list<int64_t> values) {
  for (int64_t v : values) s->append(":").append(std::to_string(v));
}

void CollectLines(const MergedTrace& t, std::vector<Line>* lines) {
  for (uint32_t g = 0; g < t.threads.size(); ++g) {
    const OutThread& th = t.threads[g];
    for (const OutState& s : th.states) {
      std::string text = "1:";
      text.append(Loc(s.cpu, th));
      Fields(&text, {s.begin, s.end, s.state});
      lines->push_back({s.begin, g, 0, std::move(text)});
    }
    for (const OutEvent& e : th.events) {
      std::string text = "2:";
      text.append(Loc(e.cpu, th));
      Fields(&text, {e.time});
      for (const auto& [type, value] : e.pairs) Fields(&text, {type, value});
      lines->push_back({e.time, g, 1, std::move(text)});
    }
  }
  for (const OutComm& c : t.comms) {
    std::string text = "3:";
    text.append(Loc(c.send_cpu, t.threads[c.send_thread]));
    Fields(&text, {c.lsend, c.psend});
    text.append(":").append(Loc(c.recv_cpu, t.threads[c.recv_thread]));
    Fields(&text, {c.lrecv, c.precv, static_cast<int64_t>(c.size), c.tag});
    lines->push_back({c.lsend, c.send_thread, 2, std::move(text)});
  }
}

bool WritePrv(const MergedTrace& t, const std::string& path, std::string* error) {
  OutputFile f(path, error);
  if (!f) return false;
  std::vector<Line> lines;
  CollectLines(t, &lines);
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return std::tie(a.time, a.thread, a.kind) < std::tie(b.time, b.thread, b.kind);
  });
  f.Put(PrvHeader(t));
  std::string block;
  for (const Line& l : lines) {
    block.append(l.text).push_back('\n');
    if (block.size() >= (1u << 20)) f.Put(block), block.clear();
  }
  f.Put(block);
  return f.Finish();
}

constexpr const char* kStateNames[] = {"Idle",
                                       "Running",
                                       "Not created",
                                       "Waiting a message",
                                       "Blocking Send",
                                       "Synchronization",
                                       "Test/Probe",
                                       "Scheduling and Fork/Join",
                                       "Wait/WaitAll",
                                       "Blocked",
                                       "Immediate Send",
                                       "Immediate Receive",
                                       "I/O",
                                       "Group Communication",
                                       "Tracing Disabled",
                                       "Others",
                                       "Send Receive",
                                       "Memory transfer",
                                       "Profiling",
                                       "On-line analysis",
                                       "Remote memory access",
                                       "Atomic memory operation",
                                       "Memory ordering operation",
                                       "Distributed locking",
                                       "Overhead",
                                       "One-sided op",
                                       "Startup latency",
                                       "Waiting links",
                                       "Data copy",
                                       "RTT",
                                       "Allocating memory",
                                       "Freeing memory",
                                       "Flushing"};
constexpr const char* kStateColors[] = {
    "{117,195,255}", "{0,0,255}",     "{255,255,255}", "{255,0,0}",     "{255,0,174}",
    "{179,0,0}",     "{0,255,0}",     "{255,255,0}",   "{235,0,0}",     "{0,162,0}",
    "{255,0,255}",   "{100,100,177}", "{172,174,41}",  "{255,144,26}",  "{2,255,177}",
    "{192,224,0}",   "{66,66,66}",    "{255,0,96}",    "{169,169,169}", "{169,0,0}",
    "{0,109,255}",   "{200,61,68}",   "{200,66,0}",    "{0,41,0}",      "{139,121,177}",
    "{116,116,116}", "{200,50,89}",   "{255,171,98}",  "{0,68,189}",    "{52,43,0}",
    "{255,46,0}",    "{100,216,32}",  "{255,215,0}"};
static_assert(std::size(kStateNames) == PXT_STATE_FLUSHING + 1);
static_assert(std::size(kStateColors) == std::size(kStateNames));

void PcfStates(const MergedTrace& t, std::string* out) {
  std::map<uint32_t, std::string> states;
  for (uint32_t i = 0; i < std::size(kStateNames); ++i) states[i] = kStateNames[i];
  for (const auto& [id, label] : t.states) states[id] = label;
  *out += "STATES\n";
  for (const auto& [id, label] : states) *out += std::to_string(id) + "    " + label + "\n";
  *out += "\n\nSTATES_COLOR\n";
  for (size_t i = 0; i < std::size(kStateColors); ++i)
    *out += std::to_string(i) + "    " + kStateColors[i] + "\n";
  *out += "\n\n";
}

void PcfType(uint32_t type, const std::string& label, const std::map<int64_t, std::string>& values,
             std::string* out) {
  *out += "EVENT_TYPE\n0    " + std::to_string(type) + "    " + label + "\n";
  if (!values.empty()) {
    *out += "VALUES\n";
    for (const auto& [v, l] : values) *out += std::to_string(v) + "      " + l + "\n";
  }
  *out += "\n\n";
}

void PcfMpi(const MergedTrace& t, std::string* out) {
  const std::pair<uint32_t, const char*> groups[] = {
      {PXT_TYPE_MPI_P2P, "MPI Point-to-point"},
      {PXT_TYPE_MPI_COLLECTIVE, "MPI Collective Comm"},
      {PXT_TYPE_MPI_OTHER, "MPI Other"},
      {PXT_TYPE_MPI_RMA, "MPI One-sided"},
      {PXT_TYPE_MPI_IO, "MPI I/O"}};
  for (const auto& [type, label] : groups) {
    if (!t.used_types.count(type)) continue;
    std::map<int64_t, std::string> values{{0, "Outside MPI"}};
    for (const MpiCall& c : kMpiCalls)
      if (c.type == type) values.emplace(c.value, c.name);
    PcfType(type, label, values, out);
  }
  const std::pair<uint32_t, const char*> sizes[] = {
      {PXT_TYPE_MPI_COLLECTIVE_SEND_BYTES, "Send Size in MPI Global OP"},
      {PXT_TYPE_MPI_COLLECTIVE_RECV_BYTES, "Recv Size in MPI Global OP"},
      {PXT_TYPE_MPI_COLLECTIVE_ROOT, "Root in MPI Global OP"},
      {PXT_TYPE_MPI_COLLECTIVE_COMM, "Communicator in MPI Global OP"},
      {PXT_TYPE_MPI_RMA_BYTES, "MPI One-sided size"},
      {PXT_TYPE_MPI_RMA_TARGET, "MPI One-sided target rank"},
      {PXT_TYPE_MPI_IO_BYTES, "MPI I/O size"}};
  for (const auto& [type, label] : sizes)
    if (t.used_types.count(type)) PcfType(type, label, {}, out);
}

void PcfLibraryTypes(const MergedTrace& t, std::string* out) {
  if (t.used_types.count(PXT_TYPE_ABNORMAL_END)) {
    std::map<int64_t, std::string> values;
    for (int code : {0, 1, 2, 3, 4, 6, 7, 8, 11, 15, 24, kAbnormalMpiAbort}) values[code] = AbnormalEndLabel(code);
    PcfType(PXT_TYPE_ABNORMAL_END, "Trace ended abnormally", values, out);
  }
  if (t.used_types.count(PXT_TYPE_FLUSHING))
    PcfType(PXT_TYPE_FLUSHING, "Flushing Traces", {{0, "End"}, {1, "Begin"}}, out);
  if (t.used_types.count(PXT_TYPE_PTHREAD))
    PcfType(PXT_TYPE_PTHREAD, "pthread call",
            {{0, "End"},
             {kPthreadCreate, "pthread_create"},
             {kPthreadJoin, "pthread_join"},
             {kPthreadMutexWait, "pthread_mutex_lock (wait)"},
             {kPthreadCondWait, "pthread_cond_wait"},
             {kPthreadCondTimedWait, "pthread_cond_timedwait"},
             {kPthreadBarrierWait, "pthread_barrier_wait"},
             {kPthreadRwlockRdWait, "pthread_rwlock_rdlock (wait)"},
             {kPthreadRwlockWrWait, "pthread_rwlock_wrlock (wait)"},
             {kPthreadSemWait, "sem_wait (wait)"}},
            out);
  if (t.used_types.count(PXT_TYPE_IO_CALL))
    PcfType(PXT_TYPE_IO_CALL, "I/O calls",
            {{0, "End"},
             {kIoRead, "read()"},
             {kIoWrite, "write()"},
             {3, "fread()"},
             {4, "fwrite()"},
             {kIoPread, "pread()"},
             {kIoPwrite, "pwrite()"},
             {kIoReadv, "readv()"},
             {kIoWritev, "writev()"},
             {kIoPreadv, "preadv()"},
             {kIoPwritev, "pwritev()"},
             {kIoOpen, "open()"},
             {12, "fopen()"},
             {13, "ioctl()"},
             {kIoOpenat, "openat()"},
             {kIoCreat, "creat()"},
             {kIoClose, "close()"},
             {kIoLseek, "lseek()"},
             {kIoFsync, "fsync()"},
             {kIoFdatasync, "fdatasync()"}},
            out);
  const std::pair<uint32_t, const char*> io_types[] = {
      {PXT_TYPE_IO_DESCRIPTOR, "I/O descriptor"},
      {PXT_TYPE_IO_SIZE, "I/O size"},
      {PXT_TYPE_IO_RESULT, "I/O bytes returned"},
      {PXT_TYPE_DYNAMIC_MEMORY_SIZE, "Requested size in dynamic memory call"},
      {PXT_TYPE_DYNAMIC_MEMORY_IN, "In pointer (free, realloc)"},
      {PXT_TYPE_DYNAMIC_MEMORY_OUT, "Out pointer (malloc, calloc, realloc)"}};
  for (const auto& [type, label] : io_types)
    if (t.used_types.count(type)) PcfType(type, label, {}, out);
  if (t.used_types.count(PXT_TYPE_DYNAMIC_MEMORY))
    PcfType(PXT_TYPE_DYNAMIC_MEMORY, "Dynamic memory calls",
            {{0, "End"},
             {kMemMalloc, "malloc()"},
             {kMemFree, "free()"},
             {kMemRealloc, "realloc()"},
             {kMemCalloc, "calloc()"},
             {kMemPosixMemalign, "posix_memalign()"},
             {kMemAlignedAlloc, "aligned_alloc()"},
             {kMemMemalign, "memalign()"}},
            out);
  if (t.used_types.count(PXT_TYPE_TRACING_MODE))
    PcfType(PXT_TYPE_TRACING_MODE, "Tracing mode:", {{1, "Detailed"}, {2, "CPU Bursts"}}, out);
  if (t.used_types.count(PXT_TYPE_SIZE_LIMIT))
    PcfType(PXT_TYPE_SIZE_LIMIT, "Trace size limit reached (PXT_MAX_SIZE): recording stopped",
            {{1, "Recording stopped"}}, out);
  if (!t.locations.empty()) {
    std::map<int64_t, std::string> values;
    for (size_t i = 0; i < t.locations.size(); ++i)
      values[static_cast<int64_t>(i + 1)] = t.locations[i];
    PcfType(PXT_TYPE_SOURCE_LOCATION, "Source location", values, out);
  }
}

void PcfUserTypes(const MergedTrace& t, std::string* out) {
  std::map<uint32_t, std::map<int64_t, std::string>> values;
  for (const auto& [key, label] : t.values) values[key.first][key.second] = label;
  std::map<uint32_t, std::string> types = t.types;
  for (const auto& [type, v] : values) {
    // Extrae's caller levels: 7000000L "Caller at level L", 8000000L "Caller line at level L".
    if (type > 70000000 && type <= 70000032)
      types.emplace(type, "Caller at level " + std::to_string(type - 70000000));
    else if (type > 80000000 && type <= 80000032)
      types.emplace(type, "Caller line at level " + std::to_string(type - 80000000));
    else
      types.emplace(type, "User event " + std::to_string(type));
  }
  for (const auto& [type, label] : types) PcfType(type, label, values[type], out);
}

bool WritePcf(const MergedTrace& t, const std::string& path, std::string* error) {
  std::string s =
      "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
      "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\n";
  PcfStates(t, &s);
  PcfMpi(t, &s);
  PcfLibraryTypes(t, &s);
  PcfUserTypes(t, &s);
  OutputFile f(path, error);
  f.Put(s);
  return f.Finish();
}

bool WriteRow(const MergedTrace& t, const std::string& path, std::string* error) {
  std::string s;
  size_t cpus = 0;
  for (int n : t.node_cpus) cpus += static_cast<size_t>(n);
  s += "LEVEL CPU SIZE " + std::to_string(cpus) + "\n";
  for (size_t n = 0; n < t.hosts.size(); ++n)
    for (int c = 1; c <= t.node_cpus[n]; ++c) s += t.hosts[n] + "." + std::to_string(c) + "\n";
  s += "\nLEVEL NODE SIZE " + std::to_string(t.hosts.size()) + "\n";
  for (const auto& h : t.hosts) s += h + "\n";
  s += "\nLEVEL TASK SIZE " + std::to_string(t.task_labels.size()) + "\n";
  for (const auto& l : t.task_labels) s += l + "\n";
  s += "\nLEVEL THREAD SIZE " + std::to_string(t.threads.size()) + "\n";
  for (const OutThread& th : t.threads)
    s += "THREAD 1." + std::to_string(th.task) + "." + std::to_string(th.thread) + "\n";
  OutputFile f(path, error);
  f.Put(s);
  return f.Finish();
}

// NAME.prv or NAME.prv.gz -> NAME.pcf, NAME.row.
std::string Sibling(const std::string& prv, const char* ext) {
  std::string base = prv;
  for (const char* suffix : {".prv.gz", ".prv"}) {
    const size_t n = std::strlen(suffix);
    if (base.size() >= n && base.compare(base.size() - n, n, suffix) == 0) {
      base.resize(base.size() - n);
      break;
    }
  }
  return base + ext;
}

}  // namespace

bool WriteParaverFiles(const MergedTrace& trace, const std::string& prv_path, std::string* error) {
  return WritePrv(trace, prv_path, error) && WritePcfAndRow(trace, prv_path, error);
}

bool WritePcfAndRow(const MergedTrace& trace, const std::string& prv_path, std::string* error) {
  return WritePcf(trace, Sibling(prv_path, ".pcf"), error) && WriteRow(trace, Sibling(prv_path, ".row"), error);
}

}  // namespace parallax::tracing
