#include "src/diagnose/critical_path.h"

#include <algorithm>

namespace parallax::diagnose {

namespace {

using calls::Call;
using calls::FirstCallFrom;
using calls::kNoCall;
using calls::kNoRank;
using calls::Op;

// Adds the time each call of `calls` spends in [b, e) to `by` (by (type, value)), and returns
// the total.
Time AddCallTime(const std::vector<Call>& calls, Time b, Time e,
                 std::map<ActivityKey, Time>& by) {
  Time total = 0;
  // Calls do not overlap: the one entered before b may still run at b.
  uint32_t i = FirstCallFrom(calls, b);
  if (i > 0) --i;
  for (; i < calls.size() && calls[i].entry < e; ++i) {
    const Time lo = std::max(calls[i].entry, b), hi = std::min(calls[i].exit, e);
    if (hi <= lo) continue;
    by[{calls[i].type, calls[i].value}] += hi - lo;
    total += hi - lo;
  }
  return total;
}

}  // namespace

CriticalPath FindCriticalPath(const calls::CallTable& table, const WaitStates& waits) {
  CriticalPath path;
  const auto& ranks = table.ranks;
  if (ranks.empty()) return path;
  // The end: the last entry into MPI_Finalize when every rank completed one, else the latest
  // last record.
  std::vector<uint32_t> finalize(ranks.size(), kNoCall);
  bool all_finalized = true;
  for (uint32_t r = 0; r < ranks.size(); ++r) {
    const auto& c = ranks[r].calls;
    for (uint32_t i = static_cast<uint32_t>(c.size()); i-- > 0;)
      if (c[i].op == Op::kFinalize) {
        if (!c[i].truncated) finalize[r] = i;
        break;
      }
    all_finalized = all_finalized && finalize[r] != kNoCall;
  }
  uint32_t rank = 0;
  Time t = 0;
  uint32_t limit = 0;
  if (all_finalized) {
    for (uint32_t r = 0; r < ranks.size(); ++r)
      if (r == 0 || ranks[r].calls[finalize[r]].entry > t) rank = r, t = ranks[r].calls[finalize[r]].entry;
    limit = finalize[rank];
    path.ends_at_finalize = true;
  } else {
    for (uint32_t r = 0; r < ranks.size(); ++r)
      if (r == 0 || ranks[r].last_record > t) rank = r, t = ranks[r].last_record;
    limit = static_cast<uint32_t>(ranks[rank].calls.size());
  }
  path.end = t;

  // Each rank's instances are a contiguous run of waits.instances (sorted by rank, call).
  std::vector<size_t> first_instance(ranks.size() + 1, waits.instances.size());
  for (size_t i = waits.instances.size(); i-- > 0;) first_instance[waits.instances[i].rank] = i;
  for (size_t r = ranks.size(); r-- > 0;)
    first_instance[r] = std::min(first_instance[r], first_instance[r + 1]);
  std::vector<bool> used(waits.instances.size(), false);

  for (;;) {
    // The latest unused wait state of this rank in a call before `limit`.
    const size_t lo = first_instance[rank], hi = first_instance[rank + 1];
    size_t k = static_cast<size_t>(
        std::lower_bound(waits.instances.begin() + static_cast<std::ptrdiff_t>(lo),
                         waits.instances.begin() + static_cast<std::ptrdiff_t>(hi), limit,
                         [](const WaitInstance& w, uint32_t l) { return w.call < l; }) -
        waits.instances.begin());
    bool found = false;
    while (k > lo) {
      --k;
      const WaitInstance& w = waits.instances[k];
      if (!used[k] && w.culprit_rank != kNoRank && ranks[rank].calls[w.call].entry <= t) {
        found = true;
        break;
      }
    }
    if (!found) {
      // The start: this rank's MPI_Init entry, else its first record.
      Time start = ranks[rank].first_record;
      for (const Call& c : ranks[rank].calls)
        if (c.op == Op::kInit) {
          start = c.entry;
          break;
        }
      path.segments.push_back({rank, std::min(start, t), t});
      break;
    }
    used[k] = true;
    const WaitInstance& w = waits.instances[k];
    Time from = ranks[rank].calls[w.call].entry + w.wait;
    if (from > t) {
      from = t;
      ++path.clamped;
    }
    path.segments.push_back({rank, from, t});
    ++path.jumps[static_cast<int>(w.pattern)];
    rank = w.culprit_rank;
    t = from;
    limit = w.culprit_call != kNoCall ? w.culprit_call : FirstCallFrom(ranks[rank].calls, t);
  }
  std::reverse(path.segments.begin(), path.segments.end());
  path.begin = path.segments.front().begin;
  return path;
}

PathProfile ProfilePath(const calls::CallTable& table, const CriticalPath& path, const WaitStates& waits,
                        Time from, Time to) {
  PathProfile p;
  p.by_rank.assign(table.ranks.size(), 0);
  p.from = std::max(from, path.begin);
  p.to = std::min(to, path.end);
  if (path.segments.empty() || p.to <= p.from) {
    p.to = p.from;
    return p;
  }
  for (const PathSegment& s : path.segments) {
    const Time b = std::max(s.begin, p.from), e = std::min(s.end, p.to);
    if (e <= b) continue;
    p.by_rank[s.rank] += e - b;
    p.length += e - b;
    const Time in_mpi = AddCallTime(table.ranks[s.rank].calls, b, e, p.by_activity);
    p.by_activity[kComputation] += e - b - in_mpi;
  }
  std::map<ActivityKey, Time> mine;
  for (const calls::Rank& r : table.ranks) {
    mine.clear();
    const Time in_mpi = AddCallTime(r.calls, p.from, p.to, mine);
    if (p.to - p.from > in_mpi) mine[kComputation] = p.to - p.from - in_mpi;
    for (const auto& [key, v] : mine) {
      p.all_ranks[key] += v;
      ++p.ranks_in[key];
    }
  }
  for (const WaitInstance& w : waits.instances) {
    const Call& c = table.ranks[w.rank].calls[w.call];
    const Time lo = std::max(c.entry, p.from), hi = std::min(c.entry + w.wait, p.to);
    if (hi > lo) p.waiting[{c.type, c.value}] += hi - lo;
  }
  return p;
}

}  // namespace parallax::diagnose
