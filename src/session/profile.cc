// ProfileRegions and PointToPointMessages (include/parallax/profile.h): per thread, one pass
// over the events of the region families and one over the state records.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "include/parallax/profile.h"
#include "src/semantic/evaluator.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"
#include "src/store/block_reader.h"

namespace parallax {
namespace {

constexpr uint32_t kMaxBins = 100000;
constexpr uint64_t kMaxBinnedCells = uint64_t{1} << 27;  // regions x bins x tasks
constexpr uint32_t kRunning = 1;
constexpr uint32_t kIdle = 0;  // Paraver's state 0, "Idle"

struct Family {
  const char* kind;
  uint32_t first, last;  // event types, inclusive
};
// Outermost first: a deeper family's region is inside the regions of the ones before.
constexpr std::array<Family, 4> kFamilies{{{"user function", 60000019, 60000019},
                                           {"OpenMP", 60000018, 60000018},
                                           {"OpenMP", 60000023, 60000023},
                                           {"MPI", 50000001, 50000005}}};

int FamilyOf(uint32_t type) {
  for (size_t f = 0; f < kFamilies.size(); ++f)
    if (type >= kFamilies[f].first && type <= kFamilies[f].last) return static_cast<int>(f);
  return -1;
}

class Builder {
 public:
  Builder(const session::TraceImpl& impl, RegionProfile& out, uint32_t tasks)
      : impl_(impl), out_(out), tasks_(tasks), bins_(out.edges.empty() ? 0 : out.edges.size() - 1) {}

  int32_t EventRegion(uint32_t type, int64_t value) {
    auto [it, added] = event_ids_.try_emplace({type, value}, 0);
    if (added) {
      const model::PcfCatalog* pcf = impl_.pcf();
      const std::string* label = pcf != nullptr ? pcf->EventValueLabel(type, value) : nullptr;
      it->second = Add({label != nullptr ? *label : fmt::format("{}:{}", type, value),
                        kFamilies[FamilyOf(type)].kind, type, value});
    }
    return it->second;
  }

  int32_t StateRegion(uint32_t state) {
    auto [it, added] = state_ids_.try_emplace(state, 0);
    if (added) {
      const model::PcfCatalog* pcf = impl_.pcf();
      const std::string* label = pcf != nullptr ? pcf->StateLabel(state) : nullptr;
      std::string name = state == kRunning ? "Computation"
                         : label != nullptr ? *label
                         : state == kIdle  ? "Idle"
                                           : fmt::format("State {}", state);
      it->second = Add({std::move(name), "state", 0, static_cast<int64_t>(state)});
    }
    return it->second;
  }

  // [a, b) of region r on `task`, clipped to the range.
  void Inclusive(int32_t r, uint32_t task, uint64_t a, uint64_t b) {
    a = std::max(a, out_.from);
    b = std::min(b, out_.to);
    if (a < b) out_.inclusive[r][task] += b - a;
  }
  void Exclusive(int32_t r, uint32_t task, uint64_t a, uint64_t b) {
    a = std::max(a, out_.from);
    b = std::min(b, out_.to);
    if (a >= b) return;
    out_.exclusive[r][task] += b - a;
    if (bins_ == 0) return;
    const std::vector<uint64_t>& e = out_.edges;
    size_t k = static_cast<size_t>(std::upper_bound(e.begin(), e.end(), a) - e.begin()) - 1;
    std::vector<uint64_t>& cells = out_.binned[r];
    while (a < b && k < bins_) {
      const uint64_t c = std::min(b, e[k + 1]);
      cells[k * tasks_ + task] += c - a;
      a = c;
      ++k;
    }
  }

  Status Check() const {
    if (bins_ > 0 && uint64_t{out_.regions.size()} * bins_ * tasks_ > kMaxBinnedCells)
      return Status::Error(fmt::format("a time profile of {} regions x {} bins x {} tasks is too large",
                                       out_.regions.size(), bins_, tasks_),
                           {session::PathOf(impl_), 0, 0}, "ask for fewer bins, or a shorter range");
    return Status::Ok();
  }

 private:
  int32_t Add(RegionProfile::Region region) {
    out_.regions.push_back(std::move(region));
    out_.inclusive.emplace_back(tasks_, 0);
    out_.exclusive.emplace_back(tasks_, 0);
    out_.calls.emplace_back(tasks_, 0);
    if (bins_ > 0 && uint64_t{out_.regions.size()} * bins_ * tasks_ <= kMaxBinnedCells)
      out_.binned.emplace_back(bins_ * tasks_, 0);
    else if (bins_ > 0)
      out_.binned.emplace_back();  // refused by Check before it is read
    return static_cast<int32_t>(out_.regions.size() - 1);
  }

  const session::TraceImpl& impl_;
  RegionProfile& out_;
  uint32_t tasks_;
  size_t bins_;
  std::map<std::pair<uint32_t, int64_t>, int32_t> event_ids_;
  std::map<uint32_t, int32_t> state_ids_;
};

Result<RegionProfile> ProfileUnguarded(const Trace& trace, const RegionProfileRequest& req) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const model::TraceHeader& h = impl.header();
  const store::TraceStore& st = impl.store();
  if (req.bins > kMaxBins)
    return Status::Error(fmt::format("{} time bins asked for", req.bins), {session::PathOf(trace), 0, 0},
                         fmt::format("ask for 0 to {}", kMaxBins));
  auto span = TraceRange(trace, req.from, req.to);
  if (!span.ok()) return span.status();
  RegionProfile out;
  out.from = span->from;
  out.to = span->to;
  out.time_unit = trace.Summary().time_unit;
  const uint32_t tasks = h.processes.tasks();
  for (uint32_t t = 0; t < tasks; ++t) out.tasks.push_back(semantic::ObjectName(h, model::Level::kTask, t));
  out.threads.assign(tasks, 0);
  for (uint32_t th = 0; th < st.threads(); ++th) ++out.threads[h.processes.thread(model::ThreadIndex(th)).task.value];
  if (req.bins > 0) {
    // floor(width * k / bins) without overflow: q * k + r * k / bins, r * k < bins^2.
    const uint64_t width = out.to - out.from, q = width / req.bins, r = width % req.bins;
    for (uint64_t k = 0; k <= req.bins; ++k) out.edges.push_back(out.from + q * k + r * k / req.bins);
  }
  Builder b(impl, out, tasks);
  const model::Time end_of_trace = st.end_time();
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  for (const Family& f : kFamilies) ranges.emplace_back(f.first, f.last);
  // Per thread: the innermost region from each change on (-1: none), then the states.
  std::vector<std::pair<uint64_t, int32_t>> changes;
  for (uint32_t th = 0; th < st.threads(); ++th) {
    const uint32_t task = h.processes.thread(model::ThreadIndex(th)).task.value;
    // A thread without records (a task a cut left out) has no time at all.
    if (st.StateCount(model::ThreadIndex(th)) == 0 && st.EventCount(model::ThreadIndex(th)) == 0) continue;
    std::array<int32_t, kFamilies.size()> active;
    active.fill(-1);
    std::array<uint64_t, kFamilies.size()> since{};
    changes.assign(1, {0, -1});
    store::EventReader events(st, model::ThreadIndex(th));
    events.OnlyBlocksWith(ranges);
    while (events.Next()) {
      const store::EventColumns& e = events.columns();
      for (size_t i = events.begin(); i < events.end(); ++i) {
        const int f = FamilyOf(e.type[i]);
        if (f < 0) continue;
        const uint64_t t = e.time[i];
        const int64_t value = e.value[i];
        const int32_t region = value == 0 ? -1 : b.EventRegion(e.type[i], value);
        if (active[f] >= 0) b.Inclusive(active[f], task, since[f], t);
        active[f] = region;
        since[f] = t;
        if (region >= 0 && t >= out.from && t < out.to) ++out.calls[region][task];
        int32_t innermost = -1;
        for (size_t g = kFamilies.size(); g-- > 0;)
          if (active[g] >= 0) {
            innermost = active[g];
            break;
          }
        if (innermost == changes.back().second) continue;
        if (changes.back().first == t)
          changes.back().second = innermost;
        else
          changes.emplace_back(t, innermost);
      }
    }
    for (size_t f = 0; f < kFamilies.size(); ++f)
      if (active[f] >= 0) b.Inclusive(active[f], task, since[f], out.to);
    for (size_t k = 0; k < changes.size(); ++k)
      if (changes[k].second >= 0)
        b.Exclusive(changes[k].second, task, changes[k].first, k + 1 < changes.size() ? changes[k + 1].first : out.to);
    // Outside every region: the state of each moment, state 0 (Idle, as Paraver's State As Is
    // shows it) where the thread has no state record.
    auto outside = [&](uint64_t a, uint64_t e, uint32_t state) {
      a = std::max(a, out.from);
      e = std::min(e, out.to);
      if (a >= e) return;
      // The change in force at a, then each later one up to e.
      size_t k = static_cast<size_t>(std::upper_bound(changes.begin(), changes.end(), a,
                                                      [](uint64_t t, const auto& c) { return t < c.first; }) -
                                     changes.begin()) - 1;
      int32_t row = -1;
      while (a < e) {
        const uint64_t next = k + 1 < changes.size() ? std::min<uint64_t>(changes[k + 1].first, e) : e;
        if (changes[k].second < 0 && a < next) {
          if (row < 0) row = b.StateRegion(state);
          b.Exclusive(row, task, a, next);
        }
        a = next;
        ++k;
      }
    };
    uint64_t covered = out.from;  // the states cover [.., covered)
    store::ForEachRecord<store::StateColumns>(st, model::ThreadIndex(th), [&](const store::StateColumns& s, size_t i) {
      const uint64_t sb = s.begin[i];
      const uint64_t se = s.end[i] == model::kNoEnd ? end_of_trace : s.end[i];
      if (sb >= out.to) return false;
      if (sb > covered) outside(covered, sb, kIdle);
      outside(sb, se, s.state[i]);
      covered = std::max(covered, se);
      return true;
    });
    outside(covered, out.to, kIdle);
    if (Status s = b.Check(); !s.ok()) return s;
  }
  for (size_t r = 0; r < out.regions.size(); ++r)
    if (out.regions[r].kind == "state") out.inclusive[r] = out.exclusive[r];
  return out;
}

Result<MessageColumns> MessagesUnguarded(const Trace& trace, std::optional<uint64_t> from, std::optional<uint64_t> to) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const model::TraceHeader& h = impl.header();
  const store::TraceStore& st = impl.store();
  auto span = TraceRange(trace, from, to);
  if (!span.ok()) return span.status();
  const store::CommTable& c = st.comms();
  MessageColumns out;
  for (uint32_t th = 0; th < st.threads(); ++th) {
    const auto& sent = st.Sent(model::ThreadIndex(th));
    auto first = std::partition_point(sent.begin(), sent.end(), [&](uint32_t id) { return c.log_send[id] < span->from; });
    const uint32_t task = h.processes.thread(model::ThreadIndex(th)).task.value;
    for (auto it = first; it != sent.end() && c.log_send[*it] < span->to; ++it) {
      const uint32_t id = *it;
      out.sender_task.push_back(task);
      out.receiver_task.push_back(h.processes.thread(model::ThreadIndex(c.receiver[id])).task.value);
      out.send.push_back(c.log_send[id]);
      out.recv.push_back(c.log_recv[id]);
      out.size.push_back(c.size[id]);
    }
  }
  return out;
}

}  // namespace

Result<RegionProfile> ProfileRegions(const Trace& trace, const RegionProfileRequest& request) {
  return session::GuardedOn(trace, session::PathOf(trace),
                            [&]() -> Result<RegionProfile> { return ProfileUnguarded(trace, request); });
}

Result<MessageColumns> PointToPointMessages(const Trace& trace, std::optional<uint64_t> from,
                                            std::optional<uint64_t> to) {
  return session::GuardedOn(trace, session::PathOf(trace),
                            [&]() -> Result<MessageColumns> { return MessagesUnguarded(trace, from, to); });
}

}  // namespace parallax
