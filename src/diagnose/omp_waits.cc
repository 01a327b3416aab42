#include "src/diagnose/omp_waits.h"

#include <algorithm>

#include "src/store/block_reader.h"

namespace parallax::diagnose {

namespace {

struct Interval {
  Time begin = 0, end = 0;
};

struct ThreadOmp {
  std::vector<Interval> regions;   // outermost parallel constructs (60000001 depth > 0)
  std::vector<Interval> barriers;  // 60000005 1 .. 0
  bool any = false;
  Time first = 0, last = 0;
};

ThreadOmp ReadThread(const store::TraceStore& store, uint32_t t) {
  ThreadOmp out;
  store::EventReader events(store, model::ThreadIndex(t));
  events.OnlyBlocksWith({{kOmpParallelType, kOmpParallelType}, {kOmpBarrierType, kOmpBarrierType}});
  int depth = 0;
  bool in_barrier = false;
  Time region_begin = 0, barrier_begin = 0;
  while (events.Next()) {
    const store::EventColumns& ev = events.columns();
    for (size_t i = events.begin(); i < events.end(); ++i) {
      const uint32_t type = ev.type[i];
      if (type != kOmpParallelType && type != kOmpBarrierType) continue;
      out.any = true;
      const Time at = ev.time[i];
      if (type == kOmpParallelType) {
        if (ev.value[i] != 0) {
          if (depth++ == 0) region_begin = at;
        } else if (depth > 0 && --depth == 0) {
          out.regions.push_back({region_begin, at});
        }
      } else if (ev.value[i] != 0) {
        if (!in_barrier) barrier_begin = at;
        in_barrier = true;
      } else if (in_barrier) {
        out.barriers.push_back({barrier_begin, at});
        in_barrier = false;
      }
    }
  }
  if (out.any) {
    out.first = store::FirstRecordTime(store, model::ThreadIndex(t));
    out.last = store::LastRecordTime(store, model::ThreadIndex(t));
    if (depth > 0) out.regions.push_back({region_begin, std::max(region_begin, out.last)});
  }
  return out;
}

}  // namespace

OmpWaits FindOmpWaits(const model::TraceHeader& header, const store::TraceStore& store) {
  OmpWaits out;
  const model::ProcessModel& p = header.processes;
  const uint32_t threads = std::min<uint32_t>(p.threads(), static_cast<uint32_t>(store.threads()));
  for (uint32_t task = 0; task < p.tasks(); ++task) {
    const model::TaskInfo& info = p.task(model::TaskIndex(task));
    if (info.first_thread.value >= threads) continue;
    const uint32_t first = info.first_thread.value;
    const uint32_t count = std::min(info.threads, threads - first);
    std::vector<ThreadOmp> team(count);
    bool any = false;
    for (uint32_t k = 0; k < count; ++k) {
      team[k] = ReadThread(store, first + k);
      any = any || team[k].any;
    }
    if (!any) continue;
    for (uint32_t k = 0; k < count; ++k) out.threads.push_back(first + k);
    const ThreadOmp& master = team[0];
    // Idle threads: the master outside its regions, from its first to its last record.
    if (count > 1 && master.any) {
      Time at = master.first;
      for (const Interval& r : master.regions) {
        if (r.begin > at) out.idle.push_back({task, at, r.begin, count - 1});
        at = std::max(at, r.end);
      }
      if (master.last > at) out.idle.push_back({task, at, master.last, count - 1});
    }
    // Barrier instances: in each of the master's regions, the k-th barrier of every thread
    // that has one there.
    std::vector<size_t> next(count, 0);
    std::vector<uint64_t> inside(count, 0);
    for (const Interval& r : master.regions) {
      std::vector<std::vector<Interval>> in(count);
      for (uint32_t k = 0; k < count; ++k) {
        const auto& b = team[k].barriers;
        while (next[k] < b.size() && b[next[k]].begin < r.begin) ++next[k];
        for (; next[k] < b.size() && b[next[k]].begin <= r.end; ++next[k]) in[k].push_back(b[next[k]]);
        inside[k] += in[k].size();
      }
      size_t instances = 0;
      for (const auto& v : in) instances = std::max(instances, v.size());
      for (size_t i = 0; i < instances; ++i) {
        uint32_t last = 0;
        Time latest = 0;
        int members = 0;
        for (uint32_t k = 0; k < count; ++k) {
          if (i >= in[k].size()) continue;
          ++members;
          if (members == 1 || in[k][i].begin > latest) latest = in[k][i].begin, last = first + k;
        }
        if (members < 2) continue;
        ++out.barriers_analysed;
        for (uint32_t k = 0; k < count; ++k) {
          if (i >= in[k].size()) continue;
          const Interval& b = in[k][i];
          const Time until = std::min(latest, b.end);
          if (until > b.begin) out.barrier_waits.push_back({first + k, b.begin, b.end, until - b.begin, last, latest});
        }
      }
    }
    for (uint32_t k = 0; k < count; ++k) out.barriers_outside_regions += team[k].barriers.size() - inside[k];
  }
  return out;
}

}  // namespace parallax::diagnose
