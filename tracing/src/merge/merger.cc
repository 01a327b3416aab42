#include "tracing/src/merge/merger.h"

#include <csignal>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <cstring>
#include <condition_variable>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <thread>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "parallax/trace.h"
#include "tracing/src/merge/merge_model.h"
#include "tracing/src/merge/output_file.h"
#include "tracing/src/merge/pxt_reader.h"
#include "tracing/src/merge/symbolizer.h"
#include "tracing/src/input_file.h"
#include "tracing/src/mpi_calls.h"

namespace parallax::tracing {

namespace {

// Corrected times are kept within +-2^61 ns (73 years: any clock a process reads), so that the
// merge's differences and shifts of two times (causality repair, the rebase to 0) stay within
// int64_t whatever a damaged file's times and clock samples say.
constexpr long double kMaxMergeTime = 0x1p61L;

// Conversions of values computed from a file's numbers: a damaged file can put them anywhere,
// so they saturate (NaN gives 0) instead of being undefined.
int64_t SaturatingTime(long double v) {
  if (!(v == v)) return 0;
  return static_cast<int64_t>(std::clamp(v, -kMaxMergeTime, kMaxMergeTime));
}
uint64_t SaturatingUint64(long double v) {
  if (!(v > 0)) return 0;
  if (v >= 0x1p64L) return UINT64_MAX;
  return static_cast<uint64_t>(v);
}
// |v| without overflow (|INT64_MIN| fits in uint64_t).
uint64_t Magnitude(int64_t v) { return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

// offset(t) = local clock - reference clock at local time t, a line through the first and the
// last synchronisation sample (drift), or a constant with one sample.
__extension__ typedef __int128 Int128;

struct ClockModel {
  long double t1 = 0, o1 = 0, slope = 0;
  int64_t Correct(uint64_t t) const {
    // Without drift, t - o1 (o1 is an integer) in 128-bit integers: the same value as the long
    // double expression below (which is exact whenever the result is within +-2^61 and beyond
    // it saturates alike), at a fraction of its cost.
    if (slope == 0 && o1 >= -0x1p63L && o1 < 0x1p63L) {
      const Int128 v = static_cast<Int128>(t) - static_cast<Int128>(static_cast<int64_t>(o1));
      constexpr Int128 kMax = Int128{1} << 61;
      return static_cast<int64_t>(v > kMax ? kMax : v < -kMax ? -kMax : v);
    }
    long double off = o1 + slope * (static_cast<long double>(t) - t1);
    return SaturatingTime(static_cast<long double>(t) - off);
  }
  long double Offset(uint64_t t) const { return o1 + slope * (static_cast<long double>(t) - t1); }
};

// How far the model may be from the true offset between the first and the last sync point: at
// each sync point, the model's distance from the measured offset plus half the measurement's
// round trip; with a linear true drift the error in between is bounded by its ends.
uint64_t ClockUncertainty(const ProcessFile& f, const ClockModel& m) {
  long double worst = 0;
  for (const auto* s : {&f.sync.front(), &f.sync.back()})
    worst = std::max(worst, std::fabs(m.Offset(s->time) - static_cast<long double>(s->offset)) +
                                static_cast<long double>(s->rtt) / 2);
  return SaturatingUint64(std::ceil(worst));
}

// The offset is only believed when it exceeds its uncertainty; the drift is only believed when the
// offset moved by more than the two measurements' uncertainty (half their round trips): on short
// runs it would otherwise be noise amplified.
ClockModel FitClock(const ProcessFile& f, bool enabled) {
  ClockModel m;
  if (!enabled || f.sync.empty()) return m;
  const auto& a = f.sync.front();
  const auto& b = f.sync.back();
  // An estimate is within half its round trip of the true offset; when both samples are that
  // close to 0 the clocks are indistinguishable (e.g. processes of one host share a clock), and
  // correcting would only add noise that creates receive-before-send violations.
  auto consistent_with_zero = [](const auto& s) {
    return Magnitude(s.offset) <= s.rtt / 2;
  };
  if (consistent_with_zero(a) && consistent_with_zero(b)) return m;
  m.t1 = static_cast<long double>(a.time);
  m.o1 = static_cast<long double>(a.offset);
  const long double moved = static_cast<long double>(b.offset) - static_cast<long double>(a.offset);
  if (b.time > a.time && std::fabs(moved) > static_cast<long double>(a.rtt) / 2 + static_cast<long double>(b.rtt) / 2)
    m.slope = moved / static_cast<long double>(b.time - a.time);
  return m;
}

// The clock model of every process, and how it was chosen. Processes of one host read one clock
// (CLOCK_MONOTONIC of one kernel), so measuring each of them separately would give each its own
// noise: on rank 0's host the offset is 0 by construction, and the processes of another host all
// take the measurement with the shortest round trips among them. A process with an injected
// test skew has its own clock.
struct ClockChoice {
  std::vector<ClockModel> models;
  std::vector<std::string> how;
};

ClockChoice ChooseClocks(const std::vector<ProcessFile>& files, bool enabled) {
  ClockChoice c;
  c.models.resize(files.size());
  c.how.resize(files.size());
  const ProcessFile* ref = nullptr;
  for (const ProcessFile& f : files)
    if (f.rank == 0) ref = &f;
  std::map<std::string, size_t> best;  // host -> file with the shortest round trips
  auto rtt = [](const ProcessFile& f) { return f.sync.front().rtt + f.sync.back().rtt; };
  for (size_t i = 0; i < files.size(); ++i) {
    const ProcessFile& f = files[i];
    if (f.sync.empty() || f.clock_skewed || (ref && f.host == ref->host)) continue;
    auto [it, inserted] = best.emplace(f.host, i);
    if (!inserted && rtt(f) < rtt(files[it->second])) it->second = i;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const ProcessFile& f = files[i];
    if (f.sync.empty()) continue;
    if (f.rank == 0) {
      c.how[i] = "reference";
    } else if (ref && f.host == ref->host && !f.clock_skewed && !ref->clock_skewed) {
      c.how[i] = "shares rank 0's clock (same host), not corrected";
    } else if (!f.clock_skewed && best.count(f.host) && best[f.host] != i) {
      c.models[i] = FitClock(files[best[f.host]], enabled);
      c.how[i] = "shares the clock of rank " + std::to_string(files[best[f.host]].rank) +
                 " (same host), corrected with its measurement";
    } else {
      c.models[i] = FitClock(f, enabled);
      c.how[i] = "measured";
    }
  }
  return c;
}

// One side of a point-to-point message, before matching (80 bytes).
struct MessageKey {
  uint64_t comm;
  int src, dst;
  int64_t tag;
  uint64_t seq;
  auto Tie() const { return std::tie(comm, src, dst, tag, seq); }
  bool operator<(const MessageKey& o) const { return Tie() < o.Tie(); }
  bool operator==(const MessageKey& o) const { return Tie() == o.Tie(); }
  bool SameStream(const MessageKey& o) const {
    return comm == o.comm && src == o.src && dst == o.dst && tag == o.tag;
  }
};
struct MessageEnd {
  uint32_t thread;  // global
  uint32_t cpu;
  int64_t logical, physical;
  int64_t raw_physical;  // uncorrected, to count violations without correction
  uint64_t size;
  int call;  // Extrae value of the MPI call that recorded it (0: none), for the report
  uint32_t order;  // walk order among the ends of its side (in the padding): the last one wins
};
struct MessageSide {
  MessageKey key;
  MessageEnd end;
};

constexpr uint32_t kCallerFunctionType = 70000001;  // Extrae: "Caller at level 1"
constexpr uint32_t kCallerLineType = 80000001;      // Extrae: "Caller line at level 1"
constexpr uint64_t kMaxCallerLevel = 32;            // PXT_CALLERS' bound (options.h)

struct MergeState {
  MergedTrace trace;
  std::map<uint32_t, std::map<std::string, int64_t>> code_ids;  // type -> label -> value
  std::map<uint32_t, std::set<uint32_t>> code_types;            // id space -> types using it
  // Message ends in walk order (a later end with the same key replaces an earlier one).
  std::vector<MessageSide> sends, recvs;
  std::map<std::string, uint64_t> location_ids;
  std::map<uint64_t, int64_t> comm_ids;  // communicator key (mpi_support.h) -> .prv id
};

// Communicator ids: 1 for MPI_COMM_WORLD (key 0), then the created communicators in key order,
// each written as a communicator line when all its members are tasks of the trace.
void BuildCommunicators(const std::vector<ProcessFile>& files, MergeState* s) {
  std::map<int, uint32_t> task_of_rank;
  for (size_t i = 0; i < files.size(); ++i)
    if (files[i].rank >= 0) task_of_rank[files[i].rank] = static_cast<uint32_t>(i + 1);
  if (task_of_rank.empty()) return;
  std::map<uint64_t, std::vector<int>> comms;
  for (const ProcessFile& f : files) comms.insert(f.comms.begin(), f.comms.end());
  std::vector<uint32_t> all;
  for (const auto& [rank, task] : task_of_rank) all.push_back(task);
  s->comm_ids[0] = 1;
  s->trace.communicators.push_back({1, all});
  for (const auto& [key, ranks] : comms) {
    if (key == 0 || s->comm_ids.count(key)) continue;
    int64_t id = static_cast<int64_t>(s->comm_ids.size()) + 1;
    s->comm_ids[key] = id;
    std::vector<uint32_t> tasks;
    for (int r : ranks)
      if (task_of_rank.count(r)) tasks.push_back(task_of_rank[r]);
    if (tasks.size() == ranks.size()) s->trace.communicators.push_back({id, tasks});
  }
}

int64_t CommId(MergeState* s, int64_t key) {
  auto [it, inserted] = s->comm_ids.emplace(static_cast<uint64_t>(key), 0);
  if (inserted) it->second = static_cast<int64_t>(s->comm_ids.size());  // members unknown
  return it->second;
}

uint64_t GlobalLocation(MergeState* s, const std::string& where) {
  auto [it, inserted] = s->location_ids.emplace(where, s->trace.locations.size() + 1);
  if (inserted) s->trace.locations.push_back(where);
  return it->second;
}

// The value of a code label of `type`: "End" 0, "Unresolved" 1, "_NOT_Found" 2, then the labels
// in the order met. The labels go to the trace's value names (the .pcf).
int64_t CodeId(MergeState* s, uint32_t type, const std::string& label, bool line) {
  // The caller levels share one table of values per kind, as Extrae's do: a function has the
  // same value at every level (70000001..70000032), a line likewise (80000001..80000032).
  uint32_t space = type;
  if (type > kCallerFunctionType - 1 && type < kCallerFunctionType + kMaxCallerLevel) space = kCallerFunctionType;
  if (type > kCallerLineType - 1 && type < kCallerLineType + kMaxCallerLevel) space = kCallerLineType;
  auto& ids = s->code_ids[space];
  auto& names = s->trace.values;
  if (ids.empty()) {
    ids[line ? "0 (Unresolved)" : "Unresolved"] = 1;
    ids[line ? "0 (_NOT_Found)" : "_NOT_Found"] = 2;
  }
  auto [it, inserted] = ids.emplace(label, static_cast<int64_t>(ids.size()) + 1);
  auto& types = s->code_types[space];
  if (types.insert(type).second) {
    names[{type, 0}] = "End";
    for (const auto& [l, id] : ids) names[{type, id}] = l;
  }
  if (inserted)
    for (uint32_t t : types) names[{t, it->second}] = label;
  return it->second;
}

// Nodes from host names (in rank order), tasks one per process, labels from every process.
void BuildModel(const std::vector<ProcessFile>& files, MergeState* s) {
  MergedTrace& t = s->trace;
  for (const ProcessFile& f : files) {
    auto it = std::find(t.hosts.begin(), t.hosts.end(), f.host);
    if (it == t.hosts.end()) {
      t.hosts.push_back(f.host);
      t.node_cpus.push_back(std::max(1, f.ncpus));
      it = t.hosts.end() - 1;
    }
    size_t node = static_cast<size_t>(it - t.hosts.begin());
    t.node_cpus[node] = std::max(t.node_cpus[node], f.ncpus);
    t.task_node.push_back(static_cast<int>(node) + 1);
    t.task_labels.push_back(f.rank >= 0 ? "rank " + std::to_string(f.rank)
                                        : "pid " + std::to_string(f.pid));
    t.task_threads.push_back(static_cast<uint32_t>(std::max<size_t>(1, f.ThreadCount())));
    t.types.insert(f.types.begin(), f.types.end());
    t.values.insert(f.values.begin(), f.values.end());
    t.states.insert(f.states.begin(), f.states.end());
  }
}

// First cpu number of each task's node (cpus are numbered across nodes).
uint32_t CpuBase(const MergedTrace& t, size_t task) {
  uint32_t cpu_base = 0;
  for (int n = 1; n < t.task_node[task]; ++n) cpu_base += static_cast<uint32_t>(t.node_cpus[n - 1]);
  return cpu_base;
}

// One end of a message from its record.
MessageSide MakeMessage(const RawRecord& r, int rank, uint32_t gthread, uint32_t cpu, int call,
                        const ClockModel& clock, bool* send_out) {
  const bool send = r.kind == RecordKind::kSend;
  const auto peer = static_cast<int>(r.f[0]);
  const auto delta = static_cast<int64_t>(r.f[5]);
  const uint64_t raw_logical = send ? r.time : r.time - static_cast<uint64_t>(delta);
  const uint64_t raw_physical = send ? r.time + static_cast<uint64_t>(delta) : r.time;
  *send_out = send;
  return {{r.f[2], send ? rank : peer, send ? peer : rank, static_cast<int64_t>(r.f[1]), r.f[4]},
          {gthread, cpu, clock.Correct(raw_logical), clock.Correct(raw_physical),
           static_cast<int64_t>(raw_physical), r.f[3], call, 0}};
}

// Turns one thread's records into state intervals, events and message ends, given to a Sink:
//   State(begin, end, state, cpu)           a state interval, in increasing begin order
//   Event(t, cpu, type, value, comm)        an event (comm: the value is a communicator key)
//   Location(t, cpu, local id)              a source location event
//   Code(t, cpu, type, line type, address)  a code address, as two events
//   Message(record, cpu, call, clock)       a kSend / kRecv record
// The legacy in-memory merge, the streaming merge's first pass and its two readers of each
// thread (states, events) all walk the records with this one class.
template <class Sink>
class ThreadWalker {
 public:
  // `stop`: when the process stopped recording at its size limit (its clock; 0: it did not).
  ThreadWalker(const ClockModel& clock, uint32_t cpu_base, Sink* sink, uint64_t stop = 0)
      : clock_(clock), cpu_base_(cpu_base), sink_(sink), stop_(stop) {}

  void Apply(const RawRecord& r) {
    if (stop_ != 0 && !stopped_ && r.time > stop_) Stop();
    const int64_t t = clock_.Correct(r.time);
    last_ = r.time;
    any_ = true;
    if (!started_) begin_ = t, started_ = true;
    switch (r.kind) {
      case RecordKind::kCpu:  // a state record has one cpu: a migration splits the interval
        Close(t);
        cpu_ = r.f[0] ? cpu_base_ + static_cast<uint32_t>(r.f[0]) : 0;
        state_cpu_ = cpu_;
        break;
      case RecordKind::kEvent:
        if (stopped_) break;  // after the stop at the size limit: no event
        sink_->Event(t, cpu_, static_cast<uint32_t>(r.f[0]), static_cast<int64_t>(r.f[1]),
                     r.f[0] == PXT_TYPE_MPI_COLLECTIVE_COMM);
        if (r.f[0] >= PXT_TYPE_MPI_P2P && r.f[0] <= PXT_TYPE_MPI_IO && r.f[1] != 0)
          mpi_call_ = static_cast<int>(r.f[1]);
        break;
      case RecordKind::kLocation:
        if (!stopped_)
          sink_->Location(t, cpu_, r.f[0]);
        break;
      case RecordKind::kStateEnter:
        if (!stopped_) Close(t), stack_.push_back(static_cast<uint32_t>(r.f[0]));
        break;
      case RecordKind::kStateLeave:
        if (!stopped_) Close(t), stack_.size() > 1 ? stack_.pop_back() : void();
        break;
      case RecordKind::kSend:
      case RecordKind::kRecv:
        sink_->Message(r, cpu_, mpi_call_, clock_);
        break;
      case RecordKind::kCaller:
        if (!stopped_)
          sink_->Code(t, cpu_, kCallerFunctionType, kCallerLineType, r.f[0]);
        break;
      case RecordKind::kCallerAt:
        if (!stopped_ && r.f[0] >= 2 && r.f[0] <= kMaxCallerLevel)
          sink_->Code(t, cpu_, kCallerFunctionType - 1 + static_cast<uint32_t>(r.f[0]),
                      kCallerLineType - 1 + static_cast<uint32_t>(r.f[0]), r.f[1]);
        break;
      case RecordKind::kCodeEvent:
        if (!stopped_)
          sink_->Code(t, cpu_, static_cast<uint32_t>(r.f[0]), static_cast<uint32_t>(r.f[0]) + 100, r.f[1]);
        break;
      case RecordKind::kThreadEnd:
        ended_ = true;
        break;
    }
  }

  // After the last record: closes the state, and marks the end of a process that did not end
  // normally with an event (when the signal came, if it said, and not before the thread's last
  // record).
  void Finish(const ProcessFile& f) {
    if (!any_) return;
    const int64_t last = clock_.Correct(last_);
    Close(last);
    if (stop_ != 0 && !stopped_ && !ended_)  // the thread's records end before the stop
      sink_->Event(std::max(last, clock_.Correct(stop_)), cpu_, PXT_TYPE_SIZE_LIMIT, 1, false);
    if (f.EndedAbnormally()) {
      const int64_t when = f.abnormal_time ? std::max(last, clock_.Correct(f.abnormal_time)) : last;
      sink_->Event(when, cpu_, PXT_TYPE_ABNORMAL_END, f.abnormal, false);
    }
  }

 private:
  // The process stopped recording (PXT_MAX_SIZE): the mark, and the thread is in state 14
  // (Tracing disabled) from then on; a thread that had ended gets neither.
  void Stop() {
    stopped_ = true;
    if (!any_ || ended_) return;
    const int64_t t = std::max(begin_, clock_.Correct(stop_));
    Close(t);
    sink_->Event(t, cpu_, PXT_TYPE_SIZE_LIMIT, 1, false);
    stack_.assign(1, PXT_STATE_TRACING_DISABLED);
  }
  void Close(int64_t t) {
    if (t > begin_) sink_->State(begin_, t, stack_.back(), state_cpu_);
    if (t >= begin_) begin_ = t;
    state_cpu_ = cpu_;
  }

  const ClockModel& clock_;
  uint32_t cpu_base_;
  Sink* sink_;
  std::vector<uint32_t> stack_{PXT_STATE_RUNNING};
  int64_t begin_ = 0;
  bool started_ = false;
  bool any_ = false;
  uint64_t last_ = 0;
  uint32_t cpu_ = 0;
  uint32_t state_cpu_ = 0;
  int mpi_call_ = 0;  // the last MPI call entered by this thread
  uint64_t stop_ = 0;
  bool stopped_ = false;
  bool ended_ = false;
};

// The in-memory merge: every state and event line of the thread in `out`.
class MemorySink {
 public:
  MemorySink(MergeState* s, const ProcessFile& f, uint32_t gthread, OutThread* out, Symbolizer* symbolizer)
      : s_(s), f_(f), gthread_(gthread), out_(out), symbolizer_(symbolizer) {}
  void State(int64_t begin, int64_t end, uint32_t state, uint32_t cpu) {
    out_->states.push_back({begin, end, state, cpu});
  }
  void Event(int64_t t, uint32_t cpu, uint32_t type, int64_t value, bool comm) {
    ++s_->trace.used_types[type];
    auto& ev = out_->events;
    if (ev.empty() || ev.back().time != t || ev.back().cpu != cpu) ev.push_back({t, cpu, {}});
    ev.back().pairs.emplace_back(type, comm ? CommId(s_, value) : value);
  }
  void Location(int64_t t, uint32_t cpu, uint64_t local_id) {
    auto it = f_.locations.find(local_id);
    std::string where = it != f_.locations.end() ? it->second : "unknown:0";
    Event(t, cpu, PXT_TYPE_SOURCE_LOCATION, static_cast<int64_t>(GlobalLocation(s_, where)), false);
  }
  // A code address as two events, Extrae's way: `type` the function and `line_type`
  // "LINE (FILE, MODULE)".
  void Code(int64_t t, uint32_t cpu, uint32_t type, uint32_t line_type, uint64_t address) {
    if (symbolizer_ == nullptr) return;
    const CallSite& site = symbolizer_->Resolve(address);
    Event(t, cpu, type, CodeId(s_, type, site.function, false), false);
    Event(t, cpu, line_type, CodeId(s_, line_type, site.line, true), false);
  }
  void Message(const RawRecord& r, uint32_t cpu, int call, const ClockModel& clock) {
    bool send;
    MessageSide m = MakeMessage(r, f_.rank, gthread_, cpu, call, clock, &send);
    auto& side = send ? s_->sends : s_->recvs;
    m.end.order = static_cast<uint32_t>(side.size());
    side.push_back(m);
  }

 private:
  MergeState* s_;
  const ProcessFile& f_;
  uint32_t gthread_;
  OutThread* out_;
  Symbolizer* symbolizer_;
};

void WalkProcesses(const std::vector<ProcessFile>& files, bool correct, MergeState* s) {
  MergedTrace& t = s->trace;
  uint32_t gthread = 0;
  ClockChoice clocks = ChooseClocks(files, correct);
  for (size_t task = 0; task < files.size(); ++task) {
    const ProcessFile& f = files[task];
    const ClockModel& clock = clocks.models[task];
    const uint32_t cpu_base = CpuBase(t, task);
    Symbolizer symbolizer(f.modules);
    for (uint32_t th = 0; th < t.task_threads[task]; ++th, ++gthread) {
      t.threads.push_back({static_cast<uint32_t>(task + 1), th + 1, {}, {}});
      if (th >= f.threads.size()) continue;
      MemorySink sink(s, f, gthread, &t.threads.back(), &symbolizer);
      ThreadWalker<MemorySink> walker(clock, cpu_base, &sink, f.limit_time);
      for (const RawRecord& r : f.threads[th]) walker.Apply(r);
      walker.Finish(f);
    }
  }
}

bool MessageOrder(const MessageSide& a, const MessageSide& b) {
  return a.key < b.key || (a.key == b.key && a.end.order < b.end.order);
}

// A source of message ends sorted by (key, walk order): Next(MessageSide*) -> bool.
// Of the ends with one key it keeps the last recorded (a later end replaced an earlier one).
template <class Source>
class LastOfKey {
 public:
  explicit LastOfKey(Source* source) : source_(source) { has_ = source_->Next(&ahead_); }
  bool Next(MessageSide* out) {
    if (!has_) return false;
    *out = ahead_;
    while ((has_ = source_->Next(&ahead_)) && ahead_.key == out->key) *out = ahead_;
    return true;
  }

 private:
  Source* source_;
  MessageSide ahead_{};
  bool has_ = false;
};

// Groups of messages without partner: (side, rank, call, partner, tag, communicator) -> count.
using UnmatchedGroups = std::map<std::tuple<bool, int, int, int, int64_t, uint64_t>, uint64_t>;

// One report line per group of messages without partner, so that a lost message is never silent.
void ReportUnmatched(const UnmatchedGroups& groups, MergeReport* report) {
  constexpr size_t kMaxLines = 20;
  size_t shown = 0;
  for (const auto& [g, count] : groups) {
    if (shown++ == kMaxLines) {
      report->unmatched_detail.push_back(
          "unmatched: ... " + std::to_string(groups.size() - kMaxLines) + " more groups");
      break;
    }
    auto [send, rank, call, peer, tag, comm] = g;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "unmatched: %llu %s by rank %d in %s %s rank %d, tag %lld, communicator %s",
                  static_cast<unsigned long long>(count), send ? "send(s)" : "receive(s)", rank,
                  call ? MpiCallName(call) : "no MPI call", send ? "to" : "from", peer,
                  static_cast<long long>(tag), comm == 0 ? "world" : std::to_string(comm).c_str());
    report->unmatched_detail.push_back(buf);
  }
}

// Pairs sends with receives, both sorted by (key, walk order); counts and repairs messages
// received before they were sent; gives each communication to `out` in send key order.
//
// A receive's sequence field holds the ordinal of its post in its process (older files: its
// number in the stream, which sorts the same). Numbering the receives of each (comm, source,
// destination, tag) stream in post order gives the n-th posted receive the n-th message, which
// MPI's non-overtaking rule guarantees whatever order the receives completed in.
template <class Sends, class Recvs, class Out>
void MatchSorted(Sends* sorted_sends, Recvs* sorted_recvs, Out out, MergeReport* report) {
  LastOfKey<Sends> sends(sorted_sends);
  LastOfKey<Recvs> recvs(sorted_recvs);
  UnmatchedGroups groups;
  MessageSide send, recv, prev_recv{};
  uint64_t n = 0;
  bool has_recv = false, first_recv = true;
  auto next_recv = [&] {  // the next receive, renumbered in its stream
    has_recv = recvs.Next(&recv);
    if (!has_recv) return;
    if (first_recv || !recv.key.SameStream(prev_recv.key)) n = 0;
    first_recv = false;
    prev_recv = recv;
    recv.key.seq = n++;
  };
  auto unmatched_recv = [&] {
    ++report->unmatched_recvs;
    ++groups[{false, recv.key.dst, recv.end.call, recv.key.src, recv.key.tag, recv.key.comm}];
  };
  next_recv();
  while (sends.Next(&send)) {
    while (has_recv && recv.key < send.key) unmatched_recv(), next_recv();
    if (!has_recv || !(recv.key == send.key)) {
      ++report->unmatched_sends;
      ++groups[{true, send.key.src, send.end.call, send.key.dst, send.key.tag, send.key.comm}];
      continue;
    }
    const MessageEnd& snd = send.end;
    MessageEnd rcv = recv.end;
    next_recv();
    // MPI delivers whole messages: a different size means the pairing is wrong.
    if (rcv.size != snd.size) ++report->size_mismatches;
    if (rcv.raw_physical < snd.raw_physical) ++report->violations_raw;
    if (rcv.physical < snd.physical) {
      ++report->violations_corrected;
      report->largest_violation = std::max(
          report->largest_violation, static_cast<uint64_t>(snd.physical - rcv.physical));
      rcv.physical = snd.physical + 1;  // the receive moves: one time unit after the send
      rcv.logical = std::min(rcv.logical, rcv.physical);
    }
    out(OutComm{snd.thread, rcv.thread, snd.cpu, rcv.cpu, snd.logical, snd.physical, rcv.logical, rcv.physical,
                snd.size, send.key.tag});
  }
  while (has_recv) unmatched_recv(), next_recv();
  ReportUnmatched(groups, report);
}

// A sorted vector as a source.
struct VectorSource {
  const std::vector<MessageSide>* v;
  size_t i = 0;
  bool Next(MessageSide* out) {
    if (i == v->size()) return false;
    *out = (*v)[i++];
    return true;
  }
};

// The in-memory merge's matching: communications in send key order; the message ends are freed.
void MatchMessages(MergeState* s, MergeReport* report) {
  std::sort(s->sends.begin(), s->sends.end(), MessageOrder);
  std::sort(s->recvs.begin(), s->recvs.end(), MessageOrder);
  VectorSource sends{&s->sends}, recvs{&s->recvs};
  MatchSorted(&sends, &recvs, [s](const OutComm& c) { s->trace.comms.push_back(c); }, report);
  s->sends = {};
  s->recvs = {};
}

// Moves the time origin to the earliest record so every time is >= 0 and finds the end.
void Rebase(MergedTrace* t) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = 0;
  for (const auto& th : t->threads) {
    for (const auto& st : th.states) lo = std::min(lo, st.begin);
    for (const auto& ev : th.events) lo = std::min(lo, ev.time);
  }
  for (const auto& c : t->comms) lo = std::min({lo, c.lsend, c.psend, c.lrecv, c.precv});
  if (lo == std::numeric_limits<int64_t>::max()) lo = 0;
  for (auto& th : t->threads) {
    for (auto& st : th.states) st.begin -= lo, st.end -= lo, hi = std::max(hi, st.end);
    for (auto& ev : th.events) ev.time -= lo, hi = std::max(hi, ev.time);
  }
  for (auto& c : t->comms) {
    c.lsend -= lo, c.psend -= lo, c.lrecv -= lo, c.precv -= lo;
    hi = std::max({hi, c.lsend, c.psend, c.lrecv, c.precv});
  }
  t->end_time = hi;
}

// The report, once `r` has the counts of states, event lines and communications.
void Summarise(const std::vector<ProcessFile>& files, const MergeOptions& o, const MergedTrace& t,
               MergeReport* r) {
  r->processes = static_cast<int>(files.size());
  r->threads = static_cast<int>(t.threads.size());
  r->nodes = static_cast<int>(t.hosts.size());
  char buf[512];
  std::snprintf(buf, sizeof buf, "merged %d processes, %d threads, %d nodes -> %s", r->processes,
                r->threads, r->nodes, o.output.c_str());
  r->lines.push_back(buf);
  std::snprintf(buf, sizeof buf, "records: %llu states, %llu event lines, %llu communications",
                static_cast<unsigned long long>(r->states),
                static_cast<unsigned long long>(r->event_lines),
                static_cast<unsigned long long>(r->comms));
  r->lines.push_back(buf);
  ClockChoice clocks = ChooseClocks(files, true);
  for (size_t i = 0; i < files.size(); ++i) {
    const ProcessFile& f = files[i];
    if (f.sync.empty()) continue;
    const ClockModel& m = clocks.models[i];
    std::snprintf(buf, sizeof buf,
                  "clock: rank %d measured offset %+lld ns; applied %+lld ns, drift %+.3f ppm "
                  "(%zu sync points, within %llu ns): %s%s",
                  f.rank, static_cast<long long>(f.sync.front().offset),
                  static_cast<long long>(m.o1), static_cast<double>(m.slope * 1e6L), f.sync.size(),
                  static_cast<unsigned long long>(ClockUncertainty(f, m)), clocks.how[i].c_str(),
                  o.correct_clocks ? "" : " (not applied)");
    r->lines.push_back(buf);
  }
  if (r->comms) {
    std::snprintf(buf, sizeof buf,
                  "causality: %llu of %llu messages received before sent after clock correction "
                  "(%llu with raw clocks); %llu receives moved to just after their send (the "
                  "largest by %llu ns)",
                  static_cast<unsigned long long>(r->violations_corrected),
                  static_cast<unsigned long long>(r->comms),
                  static_cast<unsigned long long>(r->violations_raw),
                  static_cast<unsigned long long>(r->violations_corrected),
                  static_cast<unsigned long long>(r->largest_violation));
    r->lines.push_back(buf);
  }
  if (r->size_mismatches)
    r->lines.push_back("warning: " + std::to_string(r->size_mismatches) +
                       " paired messages whose receive size differs from the send size (the "
                       "pairing of their stream is not the one MPI made)");
  if (r->unmatched_sends || r->unmatched_recvs) {
    std::snprintf(buf, sizeof buf,
                  "unmatched: %llu sends and %llu receives without partner (their calls are in "
                  "the trace, no communication line)",
                  static_cast<unsigned long long>(r->unmatched_sends),
                  static_cast<unsigned long long>(r->unmatched_recvs));
    r->lines.push_back(buf);
    r->lines.insert(r->lines.end(), r->unmatched_detail.begin(), r->unmatched_detail.end());
  }
  for (const ProcessFile& f : files)
    for (const std::string& note : f.notes) {
      r->lines.push_back("lost: rank " + std::to_string(f.rank) + ": " + note);
      ++r->lost_notes;
    }
  // Conditions of the run, once each with the number of processes that reported them.
  std::map<std::string, size_t> notices;
  for (const ProcessFile& f : files)
    for (const std::string& n : f.notices) ++notices[n];
  for (const auto& [text, count] : notices)
    r->lines.push_back("notice: " + text + " (" + std::to_string(count) + " of " +
                       std::to_string(files.size()) + " processes)");
  if (r->truncated_chunks)
    r->lines.push_back("warning: " + std::to_string(r->truncated_chunks) +
                       " truncated chunks (a process did not finish); records kept up to the cut");
  for (const ProcessFile& f : files) {
    const std::string who = f.rank >= 0 ? "rank " + std::to_string(f.rank) : "pid " + std::to_string(f.pid);
    if (f.limit_time != 0)
      r->lines.push_back("size limit: " + who + ": recording stopped when the process file reached PXT_MAX_SIZE=" +
                         std::to_string(f.limit_max) + " bytes (" + std::to_string(f.limit_bytes) +
                         " written); what was recorded before is kept, event " +
                         std::to_string(PXT_TYPE_SIZE_LIMIT) +
                         " marks the stop and the threads are in state 14 (Tracing disabled) after it");
    if (f.burst_threshold != 0)
      r->lines.push_back("bursts: " + who + ": PXT_BURSTS=" + std::to_string(f.burst_threshold) + " ns: " +
                         std::to_string(f.bursts_kept) + " bursts kept (Running, with their counters), " +
                         std::to_string(f.bursts_dropped) + " shorter ones and " +
                         std::to_string(f.burst_records_dropped) + " records (calls, events) dropped");
  }
  for (const ProcessFile& f : files) {
    if (!f.EndedAbnormally()) continue;
    ++r->abnormal_processes;
    const std::string who = f.rank >= 0 ? "rank " + std::to_string(f.rank) : "pid " + std::to_string(f.pid);
    r->lines.push_back("ended abnormally: " + who + ": " + AbnormalEndLabel(f.abnormal) +
                       " (its records up to its last flush are kept; event " +
                       std::to_string(PXT_TYPE_ABNORMAL_END) + " marks the end)");
  }
}

// ---------------------------------------------------------------------------------------------
// The streaming merge (MergeTraceFiles): memory bounded by the options' budget, whatever the size
// of the trace, but for one compact global table: the message ends (see MatchMessages).
//
//  1. ScanProcessFile: each file's metadata and the index of its data chunks (32 bytes a chunk).
//  2. First pass, thread after thread in the in-memory merge's order (so that source locations,
//     code labels and communicators get the same ids): the records are walked as that merge
//     walks them, keeping only counts, the time range, the ids met (per process: its location
//     ids and call sites) and the message ends (80 bytes each), which are then matched
//     (communications: 64 bytes each, sorted by send time).
//  3. Second pass: a k-way merge writes the .prv in the order of the in-memory merge's sort
//     (time, thread, state < event < communication): each thread is two streams, its state
//     intervals and its event lines, each read from the file through a window of its own; the
//     communications are the third kind of stream.
// A thread whose event times go backwards (a damaged file or a clock model that is not
// monotonic) cannot be streamed: the merge is then done in memory, as before, and says so.
// ---------------------------------------------------------------------------------------------

// Fixed-size records put in order: sorted in memory while they fit in `capacity` bytes, else in
// sorted runs written to an unlinked temporary file in `dir` (nothing is left behind, whatever
// happens) and merged back through windows. `Less` must be a strict total order.
template <class T, bool (*Less)(const T&, const T&)>
class SpillSort {
 public:
  SpillSort(std::string dir, uint64_t capacity)
      : dir_(std::move(dir)), capacity_(static_cast<size_t>(std::max<uint64_t>(16, capacity / sizeof(T)))) {}
  ~SpillSort() {
    if (fd_ >= 0) ::close(fd_);
  }
  SpillSort(const SpillSort&) = delete;
  SpillSort& operator=(const SpillSort&) = delete;

  void Add(const T& v) {
    if (buf_.size() >= capacity_) Spill();
    buf_.push_back(v);
  }
  // After the last Add: ready to be read in order, with windows of `window` bytes in all.
  void Finish(uint64_t window) {
    if (runs_.empty()) {
      std::sort(buf_.begin(), buf_.end(), Less);
      return;
    }
    Spill();
    buf_ = {};
    const size_t each = static_cast<size_t>(std::max<uint64_t>(4096, window / runs_.size()) / sizeof(T)) + 1;
    for (size_t i = 0; i < runs_.size(); ++i) {
      runs_[i].win.resize(each);
      if (Fill(&runs_[i])) heap_.push_back(i);
    }
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
  }
  bool Next(T* out) {
    if (runs_.empty()) {
      if (next_ == buf_.size()) return false;
      *out = buf_[next_++];
      return true;
    }
    if (heap_.empty()) return false;
    Run& r = runs_[heap_[0]];
    *out = r.win[r.i++];
    if (r.i == r.n && !Fill(&r)) {
      heap_[0] = heap_.back();
      heap_.pop_back();
    }
    if (!heap_.empty()) SiftDown(0);
    return true;
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  struct Run {
    uint64_t pos, left;  // in the file: the next record, records left
    std::vector<T> win;
    size_t i = 0, n = 0;
  };
  void Spill() {
    if (buf_.empty()) return;
    std::sort(buf_.begin(), buf_.end(), Less);
    if (fd_ < 0 && error_.empty()) {
      std::string path = dir_ + "/.pxt-merge.XXXXXX";
      fd_ = ::mkstemp(path.data());
      if (fd_ < 0)
        error_ = "cannot write a temporary file in " + dir_ + ": " + std::strerror(errno);
      else
        ::unlink(path.c_str());
    }
    if (error_.empty()) {
      const auto* p = reinterpret_cast<const char*>(buf_.data());
      size_t left = buf_.size() * sizeof(T);
      uint64_t at = end_;
      while (left > 0) {
        const ssize_t n = ::pwrite(fd_, p, left, static_cast<off_t>(at));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          error_ = "cannot write a temporary file in " + dir_ + ": " + std::strerror(n < 0 ? errno : ENOSPC);
          break;
        }
        p += n, left -= static_cast<size_t>(n), at += static_cast<uint64_t>(n);
      }
      runs_.push_back({end_, buf_.size(), {}, 0, 0});
      end_ += buf_.size() * sizeof(T);
    }
    buf_.clear();
  }
  bool Fill(Run* r) {
    const size_t k = static_cast<size_t>(std::min<uint64_t>(r->left, r->win.size()));
    r->i = r->n = 0;
    if (k == 0 || !error_.empty()) return false;
    auto* p = reinterpret_cast<char*>(r->win.data());
    size_t left = k * sizeof(T);
    uint64_t at = r->pos;
    while (left > 0) {
      const ssize_t n = ::pread(fd_, p, left, static_cast<off_t>(at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = "cannot read a temporary file in " + dir_ + ": " + std::strerror(n < 0 ? errno : EIO);
        return false;
      }
      p += n, left -= static_cast<size_t>(n), at += static_cast<uint64_t>(n);
    }
    r->pos += k * sizeof(T), r->left -= k, r->n = k;
    return true;
  }
  const T& Head(size_t h) const { return runs_[heap_[h]].win[runs_[heap_[h]].i]; }
  void SiftDown(size_t i) {
    const size_t n = heap_.size();
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) return;
      if (c + 1 < n && Less(Head(c + 1), Head(c))) ++c;
      if (!Less(Head(c), Head(i))) return;
      std::swap(heap_[i], heap_[c]);
      i = c;
    }
  }

  std::string dir_;
  size_t capacity_;  // records held before a run is written
  std::vector<T> buf_;
  size_t next_ = 0;
  int fd_ = -1;
  uint64_t end_ = 0;
  std::vector<Run> runs_;
  std::vector<size_t> heap_;
  std::string error_;
};

// A communication and its place in send key order (the order of the sort's ties).
struct CommRecord {
  OutComm c;
  uint64_t index;
};
bool CommOrder(const CommRecord& a, const CommRecord& b) {
  return std::tie(a.c.lsend, a.c.send_thread, a.index) < std::tie(b.c.lsend, b.c.send_thread, b.index);
}
using MessageSort = SpillSort<MessageSide, MessageOrder>;
using CommSort = SpillSort<CommRecord, CommOrder>;

constexpr uint64_t kDefaultMemoryBudget = uint64_t{64} << 20;

// What the first pass found that the second needs, per process.
struct ProcessIds {
  std::unordered_map<uint64_t, int64_t> locations;  // local location id -> global value
  std::map<std::pair<uint32_t, uint64_t>, std::pair<int64_t, int64_t>> code;  // (type, address) -> values
};

struct FirstPassTotals {
  uint64_t states = 0, event_lines = 0, bad_chunks = 0, sends = 0, recvs = 0;
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  bool monotonic = true;
};

class FirstPassSink {
 public:
  FirstPassSink(MergeState* s, const ProcessFile& f, uint32_t gthread, Symbolizer* symbolizer, ProcessIds* ids,
                FirstPassTotals* totals, MessageSort* sends, MessageSort* recvs)
      : s_(s), f_(f), gthread_(gthread), symbolizer_(symbolizer), ids_(ids), totals_(totals), sends_(sends),
        recvs_(recvs) {}
  void State(int64_t begin, int64_t end, uint32_t, uint32_t) {
    ++totals_->states;
    totals_->lo = std::min(totals_->lo, begin);
    totals_->hi = std::max(totals_->hi, end);
  }
  void Event(int64_t t, uint32_t cpu, uint32_t type, int64_t value, bool comm) {
    if (comm) CommId(s_, value);
    if (!has_type_ || type != last_type_) ++s_->trace.used_types[type], last_type_ = type, has_type_ = true;
    if (has_line_ && t == line_time_ && cpu == line_cpu_) return;
    if (has_line_ && t < line_time_) totals_->monotonic = false;
    has_line_ = true, line_time_ = t, line_cpu_ = cpu;
    ++totals_->event_lines;
    totals_->lo = std::min(totals_->lo, t);
    totals_->hi = std::max(totals_->hi, t);
  }
  void Location(int64_t t, uint32_t cpu, uint64_t local_id) {
    auto [it, inserted] = ids_->locations.emplace(local_id, 0);
    if (inserted) {
      auto where = f_.locations.find(local_id);
      it->second = static_cast<int64_t>(
          GlobalLocation(s_, where != f_.locations.end() ? where->second : std::string("unknown:0")));
    }
    Event(t, cpu, PXT_TYPE_SOURCE_LOCATION, it->second, false);
  }
  void Code(int64_t t, uint32_t cpu, uint32_t type, uint32_t line_type, uint64_t address) {
    auto [it, inserted] = ids_->code.emplace(std::make_pair(type, address), std::make_pair(int64_t{0}, int64_t{0}));
    if (inserted) {
      const CallSite& site = symbolizer_->Resolve(address);
      it->second.first = CodeId(s_, type, site.function, false);
      it->second.second = CodeId(s_, line_type, site.line, true);
    }
    Event(t, cpu, type, it->second.first, false);
    Event(t, cpu, line_type, it->second.second, false);
  }
  void Message(const RawRecord& r, uint32_t cpu, int call, const ClockModel& clock) {
    bool send;
    MessageSide m = MakeMessage(r, f_.rank, gthread_, cpu, call, clock, &send);
    m.end.order = static_cast<uint32_t>(send ? totals_->sends++ : totals_->recvs++);
    (send ? sends_ : recvs_)->Add(m);
  }

 private:
  MergeState* s_;
  const ProcessFile& f_;
  uint32_t gthread_;
  Symbolizer* symbolizer_;
  ProcessIds* ids_;
  FirstPassTotals* totals_;
  MessageSort* sends_;
  MessageSort* recvs_;
  bool has_type_ = false, has_line_ = false;
  uint32_t last_type_ = 0, line_cpu_ = 0;
  int64_t line_time_ = 0;
};

// The second pass's view of one thread's states: the next interval.
struct StateSink {
  bool ready = false;
  OutState item{};
  void State(int64_t begin, int64_t end, uint32_t state, uint32_t cpu) {
    item = {begin, end, state, cpu};
    ready = true;
  }
  void Event(int64_t, uint32_t, uint32_t, int64_t, bool) {}
  void Location(int64_t, uint32_t, uint64_t) {}
  void Code(int64_t, uint32_t, uint32_t, uint32_t, uint64_t) {}
  void Message(const RawRecord&, uint32_t, int, const ClockModel&) {}
};

// ... and of its event lines: the line being filled and the last completed one.
struct EventSink {
  using Pairs = std::vector<std::pair<uint32_t, int64_t>>;
  MergeState* s;
  const ProcessIds* ids;
  bool has_cur = false, has_out = false;
  int64_t cur_time = 0, out_time = 0;
  uint32_t cur_cpu = 0, out_cpu = 0;
  Pairs cur, out;  // reused: no allocation per line once they have grown

  void State(int64_t, int64_t, uint32_t, uint32_t) {}
  void Message(const RawRecord&, uint32_t, int, const ClockModel&) {}
  void Event(int64_t t, uint32_t cpu, uint32_t type, int64_t value, bool comm) {
    if (comm) value = CommId(s, value);
    if (!has_cur || t != cur_time || cpu != cur_cpu) {
      if (has_cur) Complete();
      cur.clear();
      cur_time = t, cur_cpu = cpu, has_cur = true;
    }
    cur.emplace_back(type, value);
  }
  void Location(int64_t t, uint32_t cpu, uint64_t local_id) {
    auto it = ids->locations.find(local_id);  // the first pass met them all
    Event(t, cpu, PXT_TYPE_SOURCE_LOCATION, it != ids->locations.end() ? it->second : 0, false);
  }
  void Code(int64_t t, uint32_t cpu, uint32_t type, uint32_t line_type, uint64_t address) {
    auto it = ids->code.find({type, address});
    const auto v = it != ids->code.end() ? it->second : std::make_pair(int64_t{2}, int64_t{2});
    Event(t, cpu, type, v.first, false);
    Event(t, cpu, line_type, v.second, false);
  }
  void Complete() {
    std::swap(cur, out);
    out_time = cur_time, out_cpu = cur_cpu, has_out = true, has_cur = false;
  }
};

// One thread's records as a sequence of items (its states, or its event lines) in time order.
template <class Sink>
class ThreadStream {
 public:
  ThreadStream(int fd, const ProcessFile& f, size_t th, size_t window, const ClockModel& clock, uint32_t cpu_base,
               Sink sink)
      : f_(f), cursor_(fd, &f.chunks[th], window), sink_(std::move(sink)), walker_(clock, cpu_base, &sink_, f.limit_time) {}
  Sink& sink() { return sink_; }
  const RecordCursor& cursor() const { return cursor_; }

  // The next state interval (sink().item); false when there is none.
  bool NextState() {
    sink_.ready = false;
    RawRecord r;
    while (!sink_.ready) {
      if (cursor_.Next(&r)) {
        walker_.Apply(r);
      } else {
        if (done_ || cursor_.failed()) return false;
        done_ = true;
        walker_.Finish(f_);
      }
    }
    return true;
  }
  // The next event line (sink().out_*); false when there is none.
  bool NextEventLine() {
    sink_.has_out = false;
    RawRecord r;
    while (!sink_.has_out) {
      if (!done_) {
        if (cursor_.Next(&r)) {
          walker_.Apply(r);
          continue;
        }
        if (cursor_.failed()) return false;
        done_ = true;
        walker_.Finish(f_);
        continue;
      }
      if (!sink_.has_cur) return false;
      sink_.Complete();
    }
    return true;
  }

 private:
  const ProcessFile& f_;
  RecordCursor cursor_;
  Sink sink_;
  ThreadWalker<Sink> walker_;
  bool done_ = false;
};

// The .prv body, formatted into blocks; a full block is written (or compressed) by a thread of
// its own while the next one is formatted (two blocks of 1 MiB).
class BodyWriter {
 public:
  static constexpr size_t kBlock = size_t{1} << 20;
  explicit BodyWriter(OutputFile* out) : out_(out) {
    for (auto& b : blocks_) b.resize(kBlock + 4096);
    thread_ = std::thread([this] { WriteLoop(); });
  }
  ~BodyWriter() { Finish(); }
  BodyWriter(const BodyWriter&) = delete;
  BodyWriter& operator=(const BodyWriter&) = delete;
  // Room for n more bytes (n <= 4096).
  char* Room(size_t n) {
    if (used_ + n > blocks_[fill_].size()) Hand();
    return blocks_[fill_].data() + used_;
  }
  void Done(char* p) {
    used_ = static_cast<size_t>(p - blocks_[fill_].data());
    if (used_ >= kBlock) Hand();
  }
  // Writes what is left and stops the thread.
  void Finish() {
    if (!thread_.joinable()) return;
    Hand();
    {
      std::unique_lock lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  // Gives the block being filled to the writing thread, once it has written the previous one.
  void Hand() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !pending_; });
    pending_ = true;
    pending_index_ = fill_;
    pending_size_ = used_;
    lock.unlock();
    cv_.notify_all();
    fill_ ^= 1;
    used_ = 0;
  }
  void WriteLoop() {
    for (;;) {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return pending_ || stop_; });
      if (!pending_) return;
      const size_t index = pending_index_, size = pending_size_;
      lock.unlock();
      out_->Put(std::string_view(blocks_[index].data(), size));
      lock.lock();
      pending_ = false;
      lock.unlock();
      cv_.notify_all();
    }
  }

  OutputFile* out_;
  std::vector<char> blocks_[2];
  size_t fill_ = 0;  // the block being filled
  size_t used_ = 0;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool pending_ = false, stop_ = false;  // the other block is to be written; the end
  size_t pending_index_ = 0, pending_size_ = 0;
  std::thread thread_;
};

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Decimal, as std::to_string writes it.
inline char* PutUnsigned(char* p, uint64_t v) {
  char tmp[20];
  char* q = tmp + sizeof tmp;
  while (v >= 100) {
    const size_t i = static_cast<size_t>(v % 100) * 2;
    v /= 100;
    q -= 2;
    std::memcpy(q, kDigitPairs + i, 2);
  }
  if (v >= 10) {
    q -= 2;
    std::memcpy(q, kDigitPairs + v * 2, 2);
  } else {
    *--q = static_cast<char>('0' + v);
  }
  const auto n = static_cast<size_t>(tmp + sizeof tmp - q);
  std::memcpy(p, q, n);
  return p + n;
}
inline char* PutSigned(char* p, int64_t v) {
  if (v < 0) {
    *p++ = '-';
    return PutUnsigned(p, uint64_t{0} - static_cast<uint64_t>(v));
  }
  return PutUnsigned(p, static_cast<uint64_t>(v));
}
inline char* PutField(char* p, int64_t v) {
  *p++ = ':';
  return PutSigned(p, v);
}

// "CPU:1:TASK:THREAD" of a record.
struct ThreadName {
  char text[32];  // ":1:TASK:THREAD"
  uint8_t size;
};
inline char* PutObject(char* p, uint32_t cpu, const ThreadName& n) {
  p = PutUnsigned(p, cpu);
  std::memcpy(p, n.text, n.size);
  return p + n.size;
}

// The second pass: the .prv body in order.
bool WriteBody(const MergeState& state, const std::vector<ProcessFile>& files, const std::vector<int>& fds,
               const ClockChoice& clocks, const std::vector<ProcessIds>& ids, CommSort* comms, int64_t lo,
               uint64_t budget, BodyWriter* body, std::string* error) {
  const MergedTrace& t = state.trace;
  std::vector<ThreadName> names(t.threads.size());
  for (size_t g = 0; g < t.threads.size(); ++g) {
    char* p = names[g].text;
    *p++ = ':', *p++ = '1', *p++ = ':';
    p = PutUnsigned(p, t.threads[g].task);
    *p++ = ':';
    p = PutUnsigned(p, t.threads[g].thread);
    names[g].size = static_cast<uint8_t>(p - names[g].text);
  }
  // Two streams per thread with records, each with its window (half the budget in all).
  size_t walked = 0;
  for (size_t task = 0; task < files.size(); ++task)
    walked += std::min<size_t>(files[task].chunks.size(), t.task_threads[task]);
  const size_t window = static_cast<size_t>(
      std::clamp<uint64_t>(budget / 2 / std::max<uint64_t>(1, 2 * walked), kMinCursorWindow, uint64_t{1} << 20));
  std::vector<std::unique_ptr<ThreadStream<StateSink>>> states(t.threads.size());
  std::vector<std::unique_ptr<ThreadStream<EventSink>>> events(t.threads.size());
  MergeState* mutable_state = const_cast<MergeState*>(&state);  // CommId: every key is already there
  {
    uint32_t g = 0;
    for (size_t task = 0; task < files.size(); ++task) {
      const ProcessFile& f = files[task];
      const uint32_t cpu_base = CpuBase(t, task);
      for (uint32_t th = 0; th < t.task_threads[task]; ++th, ++g) {
        if (th >= f.chunks.size()) continue;
        states[g] = std::make_unique<ThreadStream<StateSink>>(fds[task], f, th, window, clocks.models[task], cpu_base,
                                                              StateSink{});
        EventSink es;
        es.s = mutable_state;
        es.ids = &ids[task];
        events[g] = std::make_unique<ThreadStream<EventSink>>(fds[task], f, th, window, clocks.models[task], cpu_base,
                                                              std::move(es));
      }
    }
  }
  struct Head {
    int64_t time;
    uint32_t thread;
    uint32_t kind;  // 0 states, 1 events, 2 communications
    bool operator<(const Head& o) const { return std::tie(time, thread, kind) < std::tie(o.time, o.thread, o.kind); }
  };
  std::vector<Head> heap;
  heap.reserve(2 * t.threads.size() + 1);
  CommRecord comm{};  // communications in the order of the sort: send time, thread, send key order
  // The next item of a stream as its heap entry; false when the stream is done.
  auto advance = [&](Head* h) -> bool {
    switch (h->kind) {
      case 0: {
        auto& s = *states[h->thread];
        if (!s.NextState()) return false;
        h->time = s.sink().item.begin;
        return true;
      }
      case 1: {
        auto& s = *events[h->thread];
        if (!s.NextEventLine()) return false;
        h->time = s.sink().out_time;
        return true;
      }
      default:
        if (!comms->Next(&comm)) return false;
        h->time = comm.c.lsend;
        h->thread = comm.c.send_thread;
        return true;
    }
  };
  auto sift_down = [&](size_t i) {
    const size_t n = heap.size();
    const Head h = heap[i];
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && heap[c + 1] < heap[c]) ++c;
      if (!(heap[c] < h)) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = h;
  };
  for (uint32_t g = 0; g < t.threads.size(); ++g) {
    Head h{0, g, 0};
    if (states[g] && advance(&h)) heap.push_back(h);
    h = {0, g, 1};
    if (events[g] && advance(&h)) heap.push_back(h);
  }
  {
    Head h{0, 0, 2};
    if (advance(&h)) heap.push_back(h);
  }
  for (size_t i = heap.size() / 2; i-- > 0;) sift_down(i);

  while (!heap.empty()) {
    Head& h = heap[0];
    switch (h.kind) {
      case 0: {
        const OutState& s = states[h.thread]->sink().item;
        char* p = body->Room(160);
        *p++ = '1', *p++ = ':';
        p = PutObject(p, s.cpu, names[h.thread]);
        p = PutField(p, s.begin - lo);
        p = PutField(p, s.end - lo);
        p = PutField(p, s.state);
        *p++ = '\n';
        body->Done(p);
        break;
      }
      case 1: {
        const EventSink& e = events[h.thread]->sink();
        char* p = body->Room(128);
        *p++ = '2', *p++ = ':';
        p = PutObject(p, e.out_cpu, names[h.thread]);
        p = PutField(p, e.out_time - lo);
        for (const auto& [type, value] : e.out) {
          body->Done(p);
          p = body->Room(64);
          p = PutField(p, type);
          p = PutField(p, value);
        }
        *p++ = '\n';
        body->Done(p);
        break;
      }
      default: {
        const OutComm& c = comm.c;
        char* p = body->Room(320);
        *p++ = '3', *p++ = ':';
        p = PutObject(p, c.send_cpu, names[c.send_thread]);
        p = PutField(p, c.lsend - lo);
        p = PutField(p, c.psend - lo);
        *p++ = ':';
        p = PutObject(p, c.recv_cpu, names[c.recv_thread]);
        p = PutField(p, c.lrecv - lo);
        p = PutField(p, c.precv - lo);
        p = PutField(p, static_cast<int64_t>(c.size));
        p = PutField(p, c.tag);
        *p++ = '\n';
        body->Done(p);
        break;
      }
    }
    if (advance(&h)) {
      sift_down(0);
    } else {
      heap[0] = heap.back();
      heap.pop_back();
      if (!heap.empty()) sift_down(0);
    }
  }
  for (size_t g = 0; g < t.threads.size(); ++g)
    for (const RecordCursor* c : {states[g] ? &states[g]->cursor() : nullptr, events[g] ? &events[g]->cursor() : nullptr})
      if (c && c->failed()) {
        *error = files[t.threads[g].task - 1].path + ": read error: " + c->error();
        return false;
      }
  return true;
}

// The folder of a file's path.
std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Descriptors of the process files, closed on every path.
struct FileSet {
  std::vector<int> fds;
  ~FileSet() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
};

// The streaming merge; false with `*in_memory` set when it cannot stream this trace (the caller
// merges in memory), false with `*error` otherwise.
bool StreamingMerge(const MergeOptions& o, MergeReport* report, bool* in_memory, std::string* error) {
  *in_memory = false;
  if (o.inputs.empty()) {
    *error = "no per-process trace files (*.pxt) to merge";
    return false;
  }
  const uint64_t budget = o.memory_budget ? o.memory_budget : kDefaultMemoryBudget;
  const size_t block = static_cast<size_t>(std::clamp<uint64_t>(budget / 8, 4096, uint64_t{1} << 20));
  std::vector<ProcessFile> files(o.inputs.size());
  for (size_t i = 0; i < files.size(); ++i)
    if (!ScanProcessFile(o.inputs[i], block, &files[i], error)) return false;
  uint64_t threads = 0;
  for (const ProcessFile& f : files) {
    report->truncated_chunks += f.truncated_chunks;
    threads += std::max<size_t>(1, f.ThreadCount());
  }
  if (threads > kMaxThreadsPerProcess) {  // as many as one .prv holds
    *error = "the processes have " + std::to_string(threads) + " threads in all; a trace holds at most " +
             std::to_string(kMaxThreadsPerProcess);
    return false;
  }
  std::stable_sort(files.begin(), files.end(), [](const ProcessFile& a, const ProcessFile& b) {
    return std::tie(a.rank, a.start_time, a.pid) < std::tie(b.rank, b.start_time, b.pid);
  });
  FileSet set;
  for (const ProcessFile& f : files) {
    std::string why;
    set.fds.push_back(OpenInputFd(f.path, &why));
    if (set.fds.back() < 0) {
      *error = f.path + ": cannot open: " + why;
      return false;
    }
  }
  MergeState state;
  MergedTrace& t = state.trace;
  BuildModel(files, &state);
  BuildCommunicators(files, &state);
  const ClockChoice clocks = ChooseClocks(files, o.correct_clocks);

  // First pass. The message ends go to sorters that spill to a temporary file next to the
  // output past a quarter of the budget each.
  const std::string temp_dir = FolderOf(o.output);
  auto sends = std::make_unique<MessageSort>(temp_dir, budget / 4);
  auto recvs = std::make_unique<MessageSort>(temp_dir, budget / 4);
  std::vector<ProcessIds> ids(files.size());
  FirstPassTotals totals;
  const size_t window = static_cast<size_t>(std::clamp<uint64_t>(budget / 4, kMinCursorWindow, uint64_t{4} << 20));
  uint32_t gthread = 0;
  for (size_t task = 0; task < files.size(); ++task) {
    const ProcessFile& f = files[task];
    const uint32_t cpu_base = CpuBase(t, task);
    Symbolizer symbolizer(f.modules);
    for (uint32_t th = 0; th < t.task_threads[task]; ++th, ++gthread) {
      t.threads.push_back({static_cast<uint32_t>(task + 1), th + 1, {}, {}});
      if (th >= f.chunks.size()) continue;
      FirstPassSink sink(&state, f, gthread, &symbolizer, &ids[task], &totals, sends.get(), recvs.get());
      ThreadWalker<FirstPassSink> walker(clocks.models[task], cpu_base, &sink, f.limit_time);
      RecordCursor cursor(set.fds[task], &f.chunks[th], window);
      RawRecord r;
      while (cursor.Next(&r)) walker.Apply(r);
      if (cursor.failed()) {
        *error = f.path + ": read error: " + cursor.error();
        return false;
      }
      walker.Finish(f);
      totals.bad_chunks += cursor.bad_chunks();
    }
  }
  if (!totals.monotonic) {
    *in_memory = true;
    return false;
  }
  report->truncated_chunks += totals.bad_chunks;
  // Matching, into the communications in the order of the .prv; the time origin and the end, as
  // Rebase.
  int64_t lo = totals.lo, hi = totals.hi;
  uint64_t ncomms = 0;
  CommSort comms(temp_dir, budget / 4);
  sends->Finish(budget / 4);
  recvs->Finish(budget / 4);
  MatchSorted(
      sends.get(), recvs.get(),
      [&](const OutComm& c) {
        lo = std::min({lo, c.lsend, c.psend, c.lrecv, c.precv});
        hi = std::max({hi, c.lsend, c.psend, c.lrecv, c.precv});
        comms.Add({c, ncomms++});
      },
      report);
  for (const auto* sort : {sends.get(), recvs.get()})
    if (sort->failed()) {
      *error = sort->error();
      return false;
    }
  sends.reset();
  recvs.reset();
  comms.Finish(budget / 4);
  if (comms.failed()) {
    *error = comms.error();
    return false;
  }
  if (lo == std::numeric_limits<int64_t>::max()) lo = 0;
  t.end_time = hi == std::numeric_limits<int64_t>::min() ? 0 : std::max<int64_t>(0, hi - lo);
  report->states = totals.states;
  report->event_lines = totals.event_lines;
  report->comms = ncomms;
  Summarise(files, o, t, report);

  // Second pass.
  {
    OutputFile out(o.output, error);
    if (!out) return false;
    out.Put(PrvHeader(t));
    BodyWriter body(&out);
    const bool written = WriteBody(state, files, set.fds, clocks, ids, &comms, lo, budget, &body, error);
    body.Finish();
    if (written && comms.failed()) *error = comms.error();
    if (!written || comms.failed() || !out.Finish()) return false;
  }
  return WritePcfAndRow(t, o.output, error);
}

bool ReadInputs(const MergeOptions& o, std::vector<ProcessFile>* files, MergeReport*,
                std::string* error) {
  if (o.inputs.empty()) {
    *error = "no per-process trace files (*.pxt) to merge";
    return false;
  }
  for (const std::string& path : o.inputs) {
    files->emplace_back();
    if (!ReadProcessFile(path, false, &files->back(), error)) return false;
  }
  return true;
}

}  // namespace

bool MergeProcesses(std::vector<ProcessFile>* files, const MergeOptions& options, MergeReport* report,
                    MergedTrace* out, std::string* error) {
  uint64_t threads = 0;
  for (const ProcessFile& f : *files) {
    report->truncated_chunks += f.truncated_chunks;
    threads += std::max<size_t>(1, f.ThreadCount());
  }
  if (threads > kMaxThreadsPerProcess) {  // as many as one .prv holds
    *error = "the processes have " + std::to_string(threads) + " threads in all; a trace holds at most " +
             std::to_string(kMaxThreadsPerProcess);
    return false;
  }
  std::stable_sort(files->begin(), files->end(), [](const ProcessFile& a, const ProcessFile& b) {
    return std::tie(a.rank, a.start_time, a.pid) < std::tie(b.rank, b.start_time, b.pid);
  });
  MergeState state;
  BuildModel(*files, &state);
  BuildCommunicators(*files, &state);
  WalkProcesses(*files, options.correct_clocks, &state);
  MatchMessages(&state, report);
  Rebase(&state.trace);
  for (const auto& th : state.trace.threads)
    report->states += th.states.size(), report->event_lines += th.events.size();
  report->comms = state.trace.comms.size();
  Summarise(*files, options, state.trace, report);
  *out = std::move(state.trace);
  return true;
}

bool MergeTraceFiles(const MergeOptions& options, MergeReport* report, std::string* error) {
  if (!options.in_memory) {
    bool in_memory = false;
    if (StreamingMerge(options, report, &in_memory, error)) return true;
    if (!in_memory) return false;
    *report = MergeReport{};
    report->lines.push_back("note: event times of a thread go backwards: merged in memory");
  }
  std::vector<ProcessFile> files;
  if (!ReadInputs(options, &files, report, error)) return false;
  MergedTrace trace;
  if (!MergeProcesses(&files, options, report, &trace, error)) return false;
  return WriteParaverFiles(trace, options.output, error);
}

std::string AbnormalEndLabel(int code) {
  switch (code) {
    case 0:
      return "stopped without a word (SIGKILL or a lost node)";
    case kAbnormalMpiAbort:
      return "MPI_Abort";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGXCPU:
      return "SIGXCPU (CPU time limit)";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
  }
  return "signal " + std::to_string(code);
}

bool OtherSessionOfRun(const std::string& dir, const std::string& run, const std::string& session) {
  DIR* d = opendir(dir.c_str());
  if (!d) return false;
  bool found = false;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name, ignored;
    if (found || name.size() < 5 || name.compare(name.size() - 4, 4, ".pxt") != 0) continue;
    ProcessFile f;
    if (ReadProcessFile(dir + "/" + name, true, &f, &ignored))
      found = f.run == run && f.session != session;
  }
  closedir(d);
  return found;
}

bool ListSessionFiles(const std::string& dir, const std::string& session,
                      std::vector<std::string>* files, std::string* note, std::string* error) {
  DIR* d = opendir(dir.c_str());
  if (!d) {
    *error = dir + ": cannot open folder";
    return false;
  }
  struct Found {
    std::string path, session;
    long mtime;
  };
  std::vector<Found> found;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".pxt") != 0) continue;
    ProcessFile f;
    std::string path = dir + "/" + name, ignored;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !ReadProcessFile(path, true, &f, &ignored)) continue;
    found.push_back({path, f.session, static_cast<long>(st.st_mtime)});
  }
  closedir(d);
  std::string wanted = session;
  long newest = -1;
  for (const Found& f : found)
    if (session.empty() && f.mtime > newest) newest = f.mtime, wanted = f.session;
  size_t skipped = 0;
  for (const Found& f : found) (f.session == wanted ? files->push_back(f.path) : void(++skipped));
  std::sort(files->begin(), files->end());
  if (skipped) *note = std::to_string(skipped) + " file(s) of other runs in " + dir + " skipped";
  if (files->empty()) *error = dir + ": no per-process trace files (*.pxt) found";
  return !files->empty();
}

}  // namespace parallax::tracing
