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
#include <map>
#include <tuple>

#include "parallax/trace.h"
#include "tracing/src/merge/merge_model.h"
#include "tracing/src/merge/pxt_reader.h"
#include "tracing/src/merge/symbolizer.h"
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
struct ClockModel {
  long double t1 = 0, o1 = 0, slope = 0;
  int64_t Correct(uint64_t t) const {
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

// One side of a point-to-point message, before matching.
struct MessageEnd {
  uint32_t thread;  // global
  uint32_t cpu;
  int64_t logical, physical;
  int64_t raw_logical, raw_physical;  // uncorrected, to count violations without correction
  uint64_t size;
  int call;  // Extrae value of the MPI call that recorded it (0: none), for the report
};
using MessageKey = std::tuple<uint64_t, int, int, int64_t, uint64_t>;  // comm, src, dst, tag, seq

constexpr uint32_t kCallerFunctionType = 70000001;  // Extrae: "Caller at level 1"
constexpr uint32_t kCallerLineType = 80000001;      // Extrae: "Caller line at level 1"

struct MergeState {
  MergedTrace trace;
  std::map<uint32_t, std::map<std::string, int64_t>> code_ids;  // type -> label -> value
  std::map<MessageKey, MessageEnd> sends, recvs;
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
    t.task_threads.push_back(static_cast<uint32_t>(std::max<size_t>(1, f.threads.size())));
    t.types.insert(f.types.begin(), f.types.end());
    t.values.insert(f.values.begin(), f.values.end());
    t.states.insert(f.states.begin(), f.states.end());
  }
}

// Turns one thread's records into state intervals, event lines and message ends.
class ThreadWalker {
 public:
  ThreadWalker(MergeState* s, const ProcessFile& f, const ClockModel& clock, uint32_t gthread,
               uint32_t cpu_base, OutThread* out, Symbolizer* symbolizer)
      : s_(s), f_(f), clock_(clock), gthread_(gthread), cpu_base_(cpu_base), out_(out),
        symbolizer_(symbolizer) {}

  void Walk(const std::vector<RawRecord>& records) {
    for (const RawRecord& r : records) Apply(r, clock_.Correct(r.time));
    if (records.empty()) return;
    const int64_t last = clock_.Correct(records.back().time);
    Close(last);
    // A process that did not end normally: its threads' records stop here, said with an event
    // (when the signal came, if it said, and not before the thread's last record).
    if (f_.EndedAbnormally()) {
      const int64_t when = f_.abnormal_time ? std::max(last, clock_.Correct(f_.abnormal_time)) : last;
      AddEvent(when, PXT_TYPE_ABNORMAL_END, f_.abnormal);
    }
  }

 private:
  void Apply(const RawRecord& r, int64_t t) {
    if (!started_) begin_ = t, started_ = true;
    switch (r.kind) {
      case RecordKind::kCpu:
        SetCpu(t, r.f[0]);
        break;
      case RecordKind::kEvent:
        AddEvent(t, static_cast<uint32_t>(r.f[0]),
                 r.f[0] == PXT_TYPE_MPI_COLLECTIVE_COMM ? CommId(s_, static_cast<int64_t>(r.f[1]))
                                                        : static_cast<int64_t>(r.f[1]));
        if (r.f[0] >= PXT_TYPE_MPI_P2P && r.f[0] <= PXT_TYPE_MPI_IO && r.f[1] != 0)
          mpi_call_ = static_cast<int>(r.f[1]);
        break;
      case RecordKind::kLocation:
        AddLocation(t, r.f[0]);
        break;
      case RecordKind::kStateEnter:
        Close(t), stack_.push_back(static_cast<uint32_t>(r.f[0]));
        break;
      case RecordKind::kStateLeave:
        Close(t), stack_.size() > 1 ? stack_.pop_back() : void();
        break;
      case RecordKind::kSend:
      case RecordKind::kRecv:
        AddMessage(r, t);
        break;
      case RecordKind::kCaller:
        AddCodeEvent(t, kCallerFunctionType, kCallerLineType, r.f[0]);
        break;
      case RecordKind::kCodeEvent:
        AddCodeEvent(t, static_cast<uint32_t>(r.f[0]), static_cast<uint32_t>(r.f[0]) + 100, r.f[1]);
        break;
      case RecordKind::kThreadEnd:
        break;
    }
  }

  // A state record has one cpu: a migration splits the current state interval.
  void SetCpu(int64_t t, uint64_t cpu_plus_one) {
    Close(t);
    cpu_ = cpu_plus_one ? cpu_base_ + static_cast<uint32_t>(cpu_plus_one) : 0;
    state_cpu_ = cpu_;
  }

  void Close(int64_t t) {
    if (t > begin_) out_->states.push_back({begin_, t, stack_.back(), state_cpu_});
    if (t >= begin_) begin_ = t;
    state_cpu_ = cpu_;
  }

  void AddEvent(int64_t t, uint32_t type, int64_t value) {
    ++s_->trace.used_types[type];
    auto& ev = out_->events;
    if (ev.empty() || ev.back().time != t || ev.back().cpu != cpu_) ev.push_back({t, cpu_, {}});
    ev.back().pairs.emplace_back(type, value);
  }

  // A code address as two events, Extrae's way: `type` the function (value labels "End",
  // "Unresolved", "_NOT_Found", then the names) and `line_type` "LINE (FILE, MODULE)". The
  // labels go to the trace's value names (the .pcf).
  void AddCodeEvent(int64_t t, uint32_t type, uint32_t line_type, uint64_t address) {
    if (symbolizer_ == nullptr) return;
    const CallSite& site = symbolizer_->Resolve(address);
    AddEvent(t, type, CodeId(type, site.function, false));
    AddEvent(t, line_type, CodeId(line_type, site.line, true));
  }

  int64_t CodeId(uint32_t type, const std::string& label, bool line) {
    auto& ids = s_->code_ids[type];
    auto& names = s_->trace.values;
    if (ids.empty()) {
      names[{type, 0}] = "End";
      ids[line ? "0 (Unresolved)" : "Unresolved"] = 1;
      ids[line ? "0 (_NOT_Found)" : "_NOT_Found"] = 2;
      for (const auto& [l, id] : ids) names[{type, id}] = l;
    }
    auto [it, inserted] = ids.emplace(label, static_cast<int64_t>(ids.size()) + 1);
    if (inserted) names[{type, it->second}] = label;
    return it->second;
  }

  void AddLocation(int64_t t, uint64_t local_id) {
    auto it = f_.locations.find(local_id);
    std::string where = it != f_.locations.end() ? it->second : "unknown:0";
    AddEvent(t, PXT_TYPE_SOURCE_LOCATION, static_cast<int64_t>(GlobalLocation(s_, where)));
  }

  void AddMessage(const RawRecord& r, int64_t t) {
    bool send = r.kind == RecordKind::kSend;
    auto peer = static_cast<int>(r.f[0]);
    auto delta = static_cast<int64_t>(r.f[5]);
    uint64_t raw_logical = send ? r.time : r.time - static_cast<uint64_t>(delta);
    uint64_t raw_physical = send ? r.time + static_cast<uint64_t>(delta) : r.time;
    MessageEnd end{gthread_,
                   cpu_,
                   clock_.Correct(raw_logical),
                   clock_.Correct(raw_physical),
                   static_cast<int64_t>(raw_logical),
                   static_cast<int64_t>(raw_physical),
                   r.f[3],
                   mpi_call_};
    MessageKey key{r.f[2], send ? f_.rank : peer, send ? peer : f_.rank,
                   static_cast<int64_t>(r.f[1]), r.f[4]};
    (send ? s_->sends : s_->recvs)[key] = end;
    (void)t;
  }

  MergeState* s_;
  const ProcessFile& f_;
  const ClockModel& clock_;
  uint32_t gthread_;
  uint32_t cpu_base_;
  OutThread* out_;
  Symbolizer* symbolizer_;
  std::vector<uint32_t> stack_{PXT_STATE_RUNNING};
  int64_t begin_ = 0;
  bool started_ = false;
  uint32_t cpu_ = 0;
  uint32_t state_cpu_ = 0;
  int mpi_call_ = 0;  // the last MPI call entered by this thread
};

void WalkProcesses(const std::vector<ProcessFile>& files, bool correct, MergeState* s) {
  MergedTrace& t = s->trace;
  uint32_t gthread = 0;
  ClockChoice clocks = ChooseClocks(files, correct);
  for (size_t task = 0; task < files.size(); ++task) {
    const ProcessFile& f = files[task];
    const ClockModel& clock = clocks.models[task];
    uint32_t cpu_base = 0;
    for (int n = 1; n < t.task_node[task]; ++n)
      cpu_base += static_cast<uint32_t>(t.node_cpus[n - 1]);
    Symbolizer symbolizer(f.modules);
    for (uint32_t th = 0; th < t.task_threads[task]; ++th, ++gthread) {
      t.threads.push_back({static_cast<uint32_t>(task + 1), th + 1, {}, {}});
      if (th < f.threads.size())
        ThreadWalker(s, f, clock, gthread, cpu_base, &t.threads.back(), &symbolizer)
            .Walk(f.threads[th]);
    }
  }
}

// A receive's sequence field holds the ordinal of its post in its process (older files: its
// number in the stream, which sorts the same). Numbering the receives of each (comm, source,
// destination, tag) stream in post order gives the n-th posted receive the n-th message, which
// MPI's non-overtaking rule guarantees whatever order the receives completed in.
void NumberReceives(MergeState* s) {
  std::map<MessageKey, MessageEnd> numbered;
  std::tuple<uint64_t, int, int, int64_t> stream{};
  uint64_t n = 0;
  bool first = true;
  for (auto& [key, end] : s->recvs) {  // map order: by stream, then by ordinal
    auto this_stream =
        std::make_tuple(std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key));
    if (first || this_stream != stream) stream = this_stream, n = 0, first = false;
    numbered.emplace(
        MessageKey{std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), n++},
        end);
  }
  s->recvs = std::move(numbered);
}

// Messages without partner, grouped by (side, rank, call, partner, tag, communicator): one
// report line per group, so that a lost message is never silent.
void ReportUnmatched(const std::vector<std::pair<MessageKey, MessageEnd>>& sends,
                     const std::map<MessageKey, MessageEnd>& recvs, MergeReport* report) {
  using Group = std::tuple<bool, int, int, int, int64_t, uint64_t>;
  std::map<Group, uint64_t> groups;
  for (const auto& [key, end] : sends)
    ++groups[{true, std::get<1>(key), end.call, std::get<2>(key), std::get<3>(key),
              std::get<0>(key)}];
  for (const auto& [key, end] : recvs)
    ++groups[{false, std::get<2>(key), end.call, std::get<1>(key), std::get<3>(key),
              std::get<0>(key)}];
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

// Pairs sends with receives; counts and repairs messages received before they were sent.
void MatchMessages(MergeState* s, MergeReport* report) {
  NumberReceives(s);
  std::vector<std::pair<MessageKey, MessageEnd>> unmatched_sends;
  for (auto& [key, snd] : s->sends) {
    auto it = s->recvs.find(key);
    if (it == s->recvs.end()) {
      ++report->unmatched_sends;
      unmatched_sends.emplace_back(key, snd);
      continue;
    }
    MessageEnd rcv = it->second;
    s->recvs.erase(it);
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
    s->trace.comms.push_back({snd.thread, rcv.thread, snd.cpu, rcv.cpu, snd.logical, snd.physical,
                              rcv.logical, rcv.physical, snd.size, std::get<3>(key)});
  }
  report->unmatched_recvs = s->recvs.size();
  ReportUnmatched(unmatched_sends, s->recvs, report);
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

void Summarise(const std::vector<ProcessFile>& files, const MergeOptions& o, MergeState* s,
               MergeReport* r) {
  const MergedTrace& t = s->trace;
  r->processes = static_cast<int>(files.size());
  r->threads = static_cast<int>(t.threads.size());
  r->nodes = static_cast<int>(t.hosts.size());
  for (const auto& th : t.threads)
    r->states += th.states.size(), r->event_lines += th.events.size();
  r->comms = t.comms.size();
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
    if (!f.EndedAbnormally()) continue;
    ++r->abnormal_processes;
    const std::string who = f.rank >= 0 ? "rank " + std::to_string(f.rank) : "pid " + std::to_string(f.pid);
    r->lines.push_back("ended abnormally: " + who + ": " + AbnormalEndLabel(f.abnormal) +
                       " (its records up to its last flush are kept; event " +
                       std::to_string(PXT_TYPE_ABNORMAL_END) + " marks the end)");
  }
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
    threads += std::max<size_t>(1, f.threads.size());
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
  Summarise(*files, options, &state, report);
  *out = std::move(state.trace);
  return true;
}

bool MergeTraceFiles(const MergeOptions& options, MergeReport* report, std::string* error) {
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
