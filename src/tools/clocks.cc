// Clock coherence of a trace: finds the messages received before they are sent, and corrects
// the clocks in three steps (docs/tools.md, "parallax clocks"):
//  1. one streamed pass collects the physical send and receive times of every message;
//  2. each task gets a linear clock, corrected(t) = t + offset + drift * t, fitted against the
//     tasks already fitted (the reference task first, then always the task with the most
//     messages with them): every message gives a one-way delay constraint
//     recv_corrected >= send_corrected + min_latency, that is a point the line offset + drift*t
//     must stay above (messages to the task) or below (messages from it). The band's width at a
//     drift is a concave function of the drift (evaluated on the two convex hulls); the drift
//     kept is the middle of the drifts where the width is not negative (found by golden-section
//     search for the widest drift, then bisection for both ends), the one nearest 0 when the
//     messages leave that range open on one side, or the widest drift when none fits; the offset is the middle of the band at that drift;
//  3. a logical clock moves what the linear model leaves backward: each thread gets a
//     non-decreasing shift, raised at a receive to put it min_latency after its (already
//     corrected) send, and kept for the rest of the thread, so every thread keeps its order.
// A second streamed pass rewrites every state, event and communication time.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "include/parallax/tools.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

uint64_t TaskKey(uint32_t appl, uint32_t task) { return (uint64_t{appl} << 32) | task; }

// Counts backward messages by pair of tasks.
class ClockTally {
 public:
  void Add(uint32_t sa, uint32_t st, uint64_t lsend, uint64_t psend, uint32_t ra, uint32_t rt,
           uint64_t lrecv, uint64_t precv) {
    ++report_.messages;
    const bool phys = precv < psend, logi = lrecv < lsend;
    auto key = std::make_pair(TaskKey(sa, st), TaskKey(ra, rt));
    if (last_ == nullptr || last_key_ != key) {
      last_ = &pairs_[key];
      last_key_ = key;
      if (last_->messages == 0) {
        last_->send_appl = sa, last_->send_task = st, last_->recv_appl = ra, last_->recv_task = rt;
      }
    }
    ClockPair& p = *last_;
    ++p.messages;
    if (phys) {
      const uint64_t d = psend - precv;
      ++p.physical, ++report_.physical;
      p.physical_max = std::max(p.physical_max, d);
      p.physical_total += d;
    }
    if (logi) {
      const uint64_t d = lsend - lrecv;
      ++p.logical, ++report_.logical;
      p.logical_max = std::max(p.logical_max, d);
      p.logical_total += d;
    }
  }
  ClockReport Take() {
    for (auto& [key, p] : pairs_) {
      if (p.physical > 0 || p.logical > 0) report_.pairs.push_back(p);
    }
    return std::move(report_);
  }

 private:
  ClockReport report_;
  std::map<std::pair<uint64_t, uint64_t>, ClockPair> pairs_;  // one per pair of tasks
  std::pair<uint64_t, uint64_t> last_key_;
  ClockPair* last_ = nullptr;
};

class TallyEngine {
 public:
  static constexpr tools::Pairs kPairs = tools::Pairs::kCheck;
  void Process(const tools::PrvRecord& r) {
    if (r.kind == '3') tally.Add(r.appl, r.task, r.t1, r.t2, r.appl2, r.task2, r.t3, r.t4);
  }
  ClockTally tally;
};

// Dense numbers for tasks and threads, in order of first appearance.
class Ids {
 public:
  uint32_t Task(uint32_t appl, uint32_t task) {
    auto [it, added] = tasks_.try_emplace(TaskKey(appl, task), task_keys_.size());
    if (added) task_keys_.push_back(TaskKey(appl, task));
    return it->second;
  }
  uint32_t Thread(uint32_t appl, uint32_t task, uint32_t thread) {
    // Threads interleave in the body: a direct-mapped cache answers most lookups.
    const uint64_t at = TaskKey(appl, task);
    Slot& slot = cache_[((at * 0x9E3779B97F4A7C15ull) ^ (thread * 0xC2B2AE3D27D4EB4Full)) >>
                        (64 - kCacheBits)];
    if (slot.used && slot.at == at && slot.thread == thread) return slot.id;
    const uint32_t t = Task(appl, task);
    const uint64_t key = (uint64_t{t} << 32) | thread;
    auto [it, added] = threads_.try_emplace(key, thread_task_.size());
    if (added) thread_task_.push_back(t);
    slot = {at, thread, it->second, true};
    return it->second;
  }
  size_t tasks() const { return task_keys_.size(); }
  size_t threads() const { return thread_task_.size(); }
  uint64_t task_key(uint32_t t) const { return task_keys_[t]; }
  uint32_t task_of(uint32_t thread) const { return thread_task_[thread]; }

 private:
  std::unordered_map<uint64_t, uint32_t> tasks_, threads_;
  std::vector<uint64_t> task_keys_;
  std::vector<uint32_t> thread_task_;
  struct Slot {
    uint64_t at = 0;  // TaskKey
    uint32_t thread = 0, id = 0;
    bool used = false;
  };
  static constexpr int kCacheBits = 10;
  std::array<Slot, size_t{1} << kCacheBits> cache_{};
};

struct Message {
  uint32_t sender, receiver;  // threads
  uint64_t send, recv;        // physical times
};

class CollectEngine {
 public:
  static constexpr tools::Pairs kPairs = tools::Pairs::kCheck;  // the rewrite copies them
  void Process(const tools::PrvRecord& r) {
    if (r.kind == '1' || r.kind == '2') {
      ids.Thread(r.appl, r.task, r.thread);
    } else if (r.kind == '3') {
      const uint32_t s = ids.Thread(r.appl, r.task, r.thread);
      const uint32_t d = ids.Thread(r.appl2, r.task2, r.thread2);
      messages.push_back({s, d, r.t2, r.t4});
      tally.Add(r.appl, r.task, r.t1, r.t2, r.appl2, r.task2, r.t3, r.t4);
    }
  }
  Ids ids;
  std::vector<Message> messages;
  ClockTally tally;
};

using Real = long double;

struct Point {
  Real x, y;
};

// The part of the convex hull of `pts` (sorted by x) seen from above (upper) or below.
std::vector<Point> Hull(std::vector<Point> pts, bool upper) {
  std::sort(pts.begin(), pts.end(),
            [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  std::vector<Point> h;
  for (const Point& p : pts) {
    while (h.size() >= 2) {
      const Point& a = h[h.size() - 2];
      const Point& b = h.back();
      const Real cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
      if (upper ? cross >= 0 : cross <= 0) {
        h.pop_back();
      } else {
        break;
      }
    }
    h.push_back(p);
  }
  return h;
}

struct Line {
  Real offset = 0, drift = 0, margin = 0;
};

// The line offset + drift*x in the middle of the band above every point of `below` and under
// every point of `above` (x centred on `xc` for precision), drift within +-max_drift.
Line FitBand(const std::vector<Point>& below, const std::vector<Point>& above, Real max_drift) {
  Line line;
  if (below.empty() && above.empty()) return line;
  if (above.empty() || below.empty()) {
    // Unbounded on one side: no drift can be told, move as little as possible.
    if (above.empty()) {
      Real hi = 0;
      for (const Point& p : below) hi = std::max(hi, p.y);
      line.offset = hi;
    } else {
      Real lo = 0;
      for (const Point& p : above) lo = std::min(lo, p.y);
      line.offset = lo;
    }
    return line;
  }
  const std::vector<Point> lower = Hull(below, true);  // max of y - b x lies on the upper hull
  const std::vector<Point> upper = Hull(above, false);
  auto floor_at = [&](Real b) {
    Real m = -INFINITY;
    for (const Point& p : lower) m = std::max(m, p.y - b * p.x);
    return m;
  };
  auto ceil_at = [&](Real b) {
    Real m = INFINITY;
    for (const Point& p : upper) m = std::min(m, p.y - b * p.x);
    return m;
  };
  auto width = [&](Real b) { return ceil_at(b) - floor_at(b); };  // concave in b
  Real lo = -max_drift, hi = max_drift;
  const Real g = (std::sqrt(Real{5}) - 1) / 2;
  Real x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  Real f1 = width(x1), f2 = width(x2);
  for (int i = 0; i < 200 && hi - lo > Real{1e-15}; ++i) {
    if (f1 < f2) {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = width(x2);
    } else {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = width(x1);
    }
  }
  Real best = (lo + hi) / 2;
  line.drift = best;
  if (width(best) >= 0) {
    // Feasible: every drift in [left, right] has a line through the band; keep the middle one
    // (with few messages the band's width alone does not tell the drift).
    auto root = [&](Real in, Real out) {  // width(in) >= 0 > width(out), if out is infeasible
      if (width(out) >= 0) return out;
      for (int i = 0; i < 200; ++i) {
        const Real mid = (in + out) / 2;
        (width(mid) >= 0 ? in : out) = mid;
      }
      return in;
    };
    const Real left = root(best, -max_drift), right = root(best, max_drift);
    // Messages that bound the drift on both sides: the middle; a side left open by the data
    // (the search bound is reached): the least drift that fits.
    line.drift = (left > -max_drift && right < max_drift) ? (left + right) / 2
                                                           : std::clamp(Real{0}, left, right);
  }
  const Real f = floor_at(line.drift), c = ceil_at(line.drift);
  line.offset = (f + c) / 2;
  line.margin = (c - f) / 2;
  return line;
}

struct Clock {
  Real offset = 0, drift = 0;
  Real At(uint64_t t) const { return static_cast<Real>(t) + offset + drift * static_cast<Real>(t); }
};

// Step 2: fits the tasks one by one. Returns the clocks by dense task number.
std::vector<Clock> FitTasks(const Ids& ids, const std::vector<Message>& msgs,
                            const ClockCorrectOptions& o, ClockCorrection* out) {
  const size_t n = ids.tasks();
  std::vector<Clock> clocks(n);
  std::vector<TaskClock> info(n);
  for (uint32_t t = 0; t < n; ++t) {
    info[t].appl = static_cast<uint32_t>(ids.task_key(t) >> 32);
    info[t].task = static_cast<uint32_t>(ids.task_key(t));
  }
  // Messages by task (both directions), and counts between tasks.
  std::vector<std::vector<uint32_t>> by_task(n);
  for (uint32_t i = 0; i < msgs.size(); ++i) {
    const uint32_t s = ids.task_of(msgs[i].sender), r = ids.task_of(msgs[i].receiver);
    if (s == r) continue;
    by_task[s].push_back(i);
    by_task[r].push_back(i);
  }
  std::vector<bool> fitted(n, false);
  std::vector<uint64_t> links(n, 0);  // messages with fitted tasks
  auto mark = [&](uint32_t t) {
    fitted[t] = true;
    for (uint32_t i : by_task[t]) {
      const uint32_t s = ids.task_of(msgs[i].sender), r = ids.task_of(msgs[i].receiver);
      ++links[s == t ? r : s];
    }
  };
  // Reference: the smallest (appl, task) with a message; every other component of the
  // communication graph starts again at its smallest task.
  std::vector<uint32_t> order(n);
  for (uint32_t t = 0; t < n; ++t) order[t] = t;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return ids.task_key(a) < ids.task_key(b); });
  const Real lat = static_cast<Real>(o.min_latency);
  bool have_reference = false;
  while (true) {
    uint32_t next = UINT32_MAX;
    for (uint32_t t = 0; t < n; ++t) {
      if (!fitted[t] && links[t] > 0 && (next == UINT32_MAX || links[t] > links[next])) next = t;
    }
    if (next == UINT32_MAX) {
      // A new component (or the first): its smallest task with messages is fixed.
      for (uint32_t t : order) {
        if (!fitted[t] && !by_task[t].empty()) {
          next = t;
          break;
        }
      }
      if (next == UINT32_MAX) break;
      if (!have_reference) {
        out->reference_appl = info[next].appl;
        out->reference_task = info[next].task;
        have_reference = true;
      }
      mark(next);
      continue;
    }
    std::vector<Point> below, above;
    for (uint32_t i : by_task[next]) {
      const Message& m = msgs[i];
      const uint32_t s = ids.task_of(m.sender), r = ids.task_of(m.receiver);
      if (r == next && fitted[s]) {  // to `next`: offset + drift*recv >= send' - recv + lat
        below.push_back({static_cast<Real>(m.recv), clocks[s].At(m.send) - m.recv + lat});
      } else if (s == next && fitted[r]) {  // from `next`: offset + drift*send <= recv' - send - lat
        above.push_back({static_cast<Real>(m.send), clocks[r].At(m.recv) - m.send - lat});
      }
    }
    // Centre x for precision; convert back to an offset at t = 0.
    Real xc = 0;
    for (const Point& p : below) xc += p.x;
    for (const Point& p : above) xc += p.x;
    xc /= static_cast<Real>(below.size() + above.size());
    for (Point& p : below) p.x -= xc;
    for (Point& p : above) p.x -= xc;
    Line line = FitBand(below, above, static_cast<Real>(o.max_drift));
    clocks[next].drift = line.drift;
    clocks[next].offset = line.offset - line.drift * xc;
    info[next].fitted = true;
    info[next].messages = below.size() + above.size();
    info[next].margin = static_cast<double>(line.margin);
    mark(next);
  }
  for (uint32_t t = 0; t < n; ++t) {
    info[t].offset = static_cast<double>(clocks[t].offset);
    info[t].drift = static_cast<double>(clocks[t].drift);
  }
  out->tasks.assign(info.begin(), info.end());
  std::sort(out->tasks.begin(), out->tasks.end(), [](const TaskClock& a, const TaskClock& b) {
    return TaskKey(a.appl, a.task) < TaskKey(b.appl, b.task);
  });
  return clocks;
}

// A thread's logical-clock shift: `shift` from `time` on (non-decreasing steps).
struct Step {
  uint64_t time, shift;
};

// Step 3: the logical clock. `send` and `recv` are the linearly corrected times.
std::vector<std::vector<Step>> LogicalClock(size_t threads, const std::vector<Message>& msgs,
                                            const std::vector<uint64_t>& send,
                                            const std::vector<uint64_t>& recv, uint64_t lat,
                                            ClockCorrection* out) {
  struct Ev {
    uint64_t time;
    uint32_t recv_first;  // 0: receive, 1: send (a receive goes first at the same time)
    uint32_t msg;
  };
  std::vector<std::vector<Ev>> evs(threads);
  for (uint32_t i = 0; i < msgs.size(); ++i) {
    evs[msgs[i].sender].push_back({send[i], 1, i});
    evs[msgs[i].receiver].push_back({recv[i], 0, i});
  }
  for (auto& v : evs) {
    std::sort(v.begin(), v.end(), [](const Ev& a, const Ev& b) {
      return a.time != b.time ? a.time < b.time
                              : (a.recv_first != b.recv_first ? a.recv_first < b.recv_first
                                                              : a.msg < b.msg);
    });
  }
  std::vector<std::vector<Step>> steps(threads);
  std::vector<size_t> pos(threads, 0);
  std::vector<uint64_t> cur(threads, 0);
  std::vector<uint64_t> sent(msgs.size(), 0);
  std::vector<bool> done(msgs.size(), false);
  std::vector<uint32_t> ready;
  for (uint32_t t = 0; t < threads; ++t) ready.push_back(t);
  size_t finished = 0;
  std::vector<bool> is_done(threads, false);
  while (finished < threads) {
    while (!ready.empty()) {
      const uint32_t th = ready.back();
      ready.pop_back();
      if (is_done[th]) continue;
      std::vector<Ev>& v = evs[th];
      while (pos[th] < v.size()) {
        const Ev& e = v[pos[th]];
        if (e.recv_first == 1) {
          sent[e.msg] = e.time + cur[th];
          done[e.msg] = true;
          const uint32_t r = msgs[e.msg].receiver;
          if (r != th && !is_done[r]) ready.push_back(r);
        } else {
          if (!done[e.msg]) break;
          const uint64_t need = sent[e.msg] + lat;
          if (e.time + cur[th] < need) {
            cur[th] = need - e.time;
            steps[th].push_back({e.time, cur[th]});
            ++out->receives_moved;
            out->max_move = std::max(out->max_move, cur[th]);
          }
        }
        ++pos[th];
      }
      if (pos[th] == v.size()) {
        is_done[th] = true;
        ++finished;
      }
    }
    if (finished == threads) break;
    // Every thread left waits for a send that comes after it: a causal cycle. The earliest
    // waiting receive is left where it is.
    uint32_t pick = UINT32_MAX;
    for (uint32_t t = 0; t < threads; ++t) {
      if (is_done[t]) continue;
      if (pick == UINT32_MAX || evs[t][pos[t]].time < evs[pick][pos[pick]].time) pick = t;
    }
    ++out->unresolved;
    ++pos[pick];
    ready.push_back(pick);
  }
  return steps;
}

uint64_t ShiftAt(const std::vector<Step>& steps, uint64_t t) {
  if (steps.empty() || t < steps.front().time) return 0;
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](uint64_t x, const Step& s) { return x < s.time; });
  return std::prev(it)->shift;
}

// The second pass: rewrites every time.
class RewriteEngine {
 public:
  RewriteEngine(Ids& ids, const std::vector<Clock>& clocks,
                const std::vector<std::vector<Step>>& steps, Real shift, tools::OutputFile* out)
      : ids_(ids), clocks_(clocks), steps_(steps), shift_(shift), out_(out) {}
  // The pairs are copied as text, and the first pass (CollectEngine) checked them.
  static constexpr tools::Pairs kPairs = tools::Pairs::kSkip;

  void Process(const tools::PrvRecord& r) {
    switch (r.kind) {
      case '1': {
        const uint32_t th = ids_.Thread(r.appl, r.task, r.thread);
        out_->Text(r.line.substr(0, r.times_at));
        out_->Num(Map(th, r.t1));
        out_->Char(':');
        out_->Num(Map(th, r.t2));
        out_->Char(':');
        out_->Num(r.state);
        break;
      }
      case '2': {
        const uint32_t th = ids_.Thread(r.appl, r.task, r.thread);
        out_->Text(r.line.substr(0, r.times_at));
        out_->Num(Map(th, r.t1));
        out_->Char(':');
        out_->Text(r.line.substr(r.pairs_at));
        break;
      }
      case '3': {
        const uint32_t s = ids_.Thread(r.appl, r.task, r.thread);
        const uint32_t d = ids_.Thread(r.appl2, r.task2, r.thread2);
        const uint64_t ls = Map(s, r.t1), ps = Map(s, r.t2), lr = Map(d, r.t3), pr = Map(d, r.t4);
        out_->Text(r.line.substr(0, r.times_at));
        out_->Num(ls);
        out_->Char(':');
        out_->Num(ps);
        for (uint32_t v : {r.cpu2, r.appl2, r.task2, r.thread2}) {
          out_->Char(':');
          out_->Num(v);
        }
        out_->Char(':');
        out_->Num(lr);
        out_->Char(':');
        out_->Num(pr);
        out_->Char(':');
        out_->Text(r.size_text);
        out_->Char(':');
        out_->Text(r.tag_text);
        tally.Add(r.appl, r.task, ls, ps, r.appl2, r.task2, lr, pr);
        break;
      }
      default:
        if (r.kind == 'o' && !r.line.empty()) ++others;
        out_->Text(r.line);
        break;
    }
    out_->Char('\n');
    ++written;
  }

  uint64_t Map(uint32_t thread, uint64_t t) const {
    // A thread the first pass did not see (the file changed in between) keeps its clock.
    const uint32_t task = ids_.task_of(thread);
    const Real v = (task < clocks_.size() ? clocks_[task].At(t) : static_cast<Real>(t)) + shift_;
    const uint64_t lin = v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v));
    return thread < steps_.size() ? lin + ShiftAt(steps_[thread], lin) : lin;
  }

  ClockTally tally;
  uint64_t written = 0, others = 0;

 private:
  Ids& ids_;
  const std::vector<Clock>& clocks_;
  const std::vector<std::vector<Step>>& steps_;
  Real shift_;
  tools::OutputFile* out_;
};

}  // namespace

Result<ClockReport> CheckClocks(const std::string& trace,
                                std::function<void(uint64_t, uint64_t)> progress) {
  auto opened = tools::OpenInputTrace(trace);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  ToolRun run;
  run.input = trace;
  run.progress = std::move(progress);
  TallyEngine engine;
  ToolReport io;
  Status s = tools::ProcessRecords(run, in, engine, io);
  if (!s.ok()) return s;
  return engine.tally.Take();
}

Result<ClockCorrection> CorrectClocks(const ToolRun& run, const ClockCorrectOptions& options) {
  if (!(options.max_drift >= 0 && options.max_drift < 0.5)) {
    return Status::Error("the drift bound must be at least 0 and below 0.5", {},
                         "give a bound like 1e-3 (1000 parts per million)");
  }
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  ClockCorrection result;
  // Pass 1: the message pairs.
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  CollectEngine collect;
  ToolRun first = run;
  if (run.progress) first.progress = [&](uint64_t d, uint64_t t) { run.progress(d / 2, t); };
  s = tools::ProcessRecords(first, in, collect, result.io);
  if (!s.ok()) return s;
  result.before = collect.tally.Take();
  std::vector<Clock> clocks = FitTasks(collect.ids, collect.messages, options, &result);
  // Shift everything so that no corrected time is negative (the earliest is at t = 0).
  Real lowest = 0;
  for (const Clock& c : clocks) lowest = std::min(lowest, c.offset);
  const Real shift = std::ceil(-lowest);
  result.shift = static_cast<uint64_t>(shift);
  const size_t threads = collect.ids.threads();
  std::vector<std::vector<Step>> steps(threads);
  auto linear = [&](uint32_t thread, uint64_t t) {
    const Real v = clocks[collect.ids.task_of(thread)].At(t) + shift;
    return v <= 0 ? uint64_t{0} : static_cast<uint64_t>(std::llround(v));
  };
  if (options.logical_clock) {
    std::vector<uint64_t> send(collect.messages.size()), recv(collect.messages.size());
    for (size_t i = 0; i < collect.messages.size(); ++i) {
      send[i] = linear(collect.messages[i].sender, collect.messages[i].send);
      recv[i] = linear(collect.messages[i].receiver, collect.messages[i].recv);
    }
    steps = LogicalClock(threads, collect.messages, send, recv, options.min_latency, &result);
  }
  std::vector<Message>().swap(collect.messages);
  // Pass 2: the rewrite.
  opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  in = std::move(opened).value();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  model::TraceHeader header = in.header;
  header.resources_bare = false;
  // The header end time: the latest the end can move to.
  uint64_t end = header.end_time;
  for (uint32_t th = 0; th < threads; ++th) {
    const uint64_t lin = linear(th, header.end_time);
    const uint64_t last = steps[th].empty() ? 0 : steps[th].back().shift;
    end = std::max(end, lin + last);
  }
  header.end_time = end;
  out.value()->Text(io::FormatPrvHeader(header));
  RewriteEngine rewrite(collect.ids, clocks, steps, shift, out.value().get());
  ToolRun second = run;
  if (run.progress) {
    second.progress = [&](uint64_t d, uint64_t t) { run.progress(t / 2 + d / 2, t); };
  }
  ToolReport io2;
  s = tools::ProcessRecords(second, in, rewrite, io2);
  if (!s.ok()) return s;
  result.after = rewrite.tally.Take();
  result.io.output_records = rewrite.written;
  result.io.output_bytes = out.value()->bytes_written();
  if (rewrite.others > 0) {
    result.io.notes.push_back(std::to_string(rewrite.others) +
                              " lines that are neither states, events, communications nor "
                              "comments (e.g. global communications) were copied unchanged");
  }
  if (result.unresolved > 0) {
    result.io.notes.push_back(std::to_string(result.unresolved) +
                              " receives are in a causal cycle (each waits for a send that "
                              "the trace puts after it) and were left as they are");
  }
  s = tools::CommitTrace(run, *out.value());
  if (!s.ok()) return s;
  return result;
}

}  // namespace parallax
