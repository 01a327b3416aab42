#include "src/diagnose/delay_costs.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "src/base/gallop.h"

namespace parallax::diagnose {

namespace {

using calls::Call;
using calls::kNoCall;
using calls::kNoRank;
using calls::Op;

constexpr uint32_t kBeforeFirst = UINT32_MAX;  // "no call": the interval starts at the rank's start

// Per rank, what the delay costs read of each call, side by side: its entry and exit, and the
// prefix sums of the calls' durations and waiting before it, so the time in MPI and in waiting
// between two calls is a subtraction. One cache line holds two calls (a Call is 56 bytes, and
// the sums were two more arrays): the walks over an interval's calls and the reads at its ends
// were bound by cache misses.
class RankTimes {
 public:
  RankTimes(const calls::Rank& rank, const std::vector<Time>& wait_of_call) {
    const std::vector<Call>& calls = rank.calls;
    steps_.resize(calls.size() + 1);
    Time mpi = 0, wait = 0;
    for (size_t i = 0; i < calls.size(); ++i) {
      steps_[i] = {calls[i].entry, calls[i].exit, mpi, wait};
      mpi += calls[i].exit - calls[i].entry;
      wait += wait_of_call[i];
    }
    steps_[calls.size()] = {0, 0, mpi, wait};
  }

  size_t calls() const { return steps_.size() - 1; }
  Time entry(uint32_t call) const { return steps_[call].entry; }
  Time exit(uint32_t call) const { return steps_[call].exit; }

  // The calls strictly between call `after` (kBeforeFirst: none) and call `before`.
  void Between(uint32_t after, uint32_t before, Time* mpi, Time* wait) const {
    const size_t from = after == kBeforeFirst ? 0 : after + 1;
    if (before <= from) {
      *mpi = *wait = 0;
      return;
    }
    *mpi = steps_[before].mpi - steps_[from].mpi;
    *wait = steps_[before].wait - steps_[from].wait;
  }

  // The first call entered at or after t.
  uint32_t FirstFrom(Time t) const {
    return static_cast<uint32_t>(std::lower_bound(steps_.begin(), steps_.end() - 1, t,
                                                  [](const Step& s, Time v) { return s.entry < v; }) -
                                 steps_.begin());
  }

 private:
  struct Step {
    Time entry, exit;
    Time mpi, wait;  // of the calls before this one
  };
  std::vector<Step> steps_;  // one per call, and the sums of all after the last
};

// The synchronisation points of every pair of ranks (their messages and collective operations),
// as the calls of each side.
class SyncPoints {
 public:
  SyncPoints(const calls::CallTable& table, const WaitStates& waits) : waits_(waits) {
    for (const calls::MessageCalls& m : table.messages) {
      if (m.sender == kNoRank || m.receiver == kNoRank || m.sender == m.receiver ||
          m.send_call == kNoCall || m.done_call == kNoCall)
        continue;
      if (m.sender < m.receiver)
        pairs_[Key(m.sender, m.receiver)].points.emplace_back(m.send_call, m.done_call);
      else
        pairs_[Key(m.receiver, m.sender)].points.emplace_back(m.done_call, m.send_call);
    }
    for (auto& [k, v] : pairs_) std::sort(v.points.begin(), v.points.end());
    collectives_of_rank_.resize(table.ranks.size());
    for (size_t i = 0; i + 1 < waits.collective_offsets.size(); ++i)
      for (uint64_t m = waits.collective_offsets[i]; m < waits.collective_offsets[i + 1]; ++m) {
        const auto& [rank, call] = waits.collective_members[m];
        collectives_of_rank_[rank].emplace_back(call, static_cast<uint32_t>(i));
      }
    for (auto& v : collectives_of_rank_) std::sort(v.begin(), v.end());
    collective_hint_.assign(collectives_of_rank_.size(), 0);
  }

  // The last synchronisation of ranks w and c in calls before w's call `before_w` and c's call
  // `before_c`: the calls of each side (the latest on w's side), or false.
  // The searches start where the previous ones on the same lists ended (wait states come latest
  // first: nearly in order).
  bool Previous(uint32_t w, uint32_t c, uint32_t before_w, uint32_t before_c, uint32_t* cw,
                uint32_t* cc) {
    bool found = false;
    auto take = [&](uint32_t x, uint32_t y) {
      if (x < before_w && y < before_c && (!found || x > *cw)) *cw = x, *cc = y, found = true;
    };
    if (auto it = pairs_.find(w < c ? Key(w, c) : Key(c, w)); it != pairs_.end()) {
      // Entries in the lower rank's call order; walk back from its limit.
      const auto& v = it->second.points;
      const uint32_t limit = w < c ? before_w : before_c;
      auto pos = base::PartitionPointFrom(
          v.begin(), v.end(), [limit](const std::pair<uint32_t, uint32_t>& x) { return x.first < limit; },
          &it->second.hint);
      for (int steps = 0; pos != v.begin() && steps < 64 && !found; ++steps) {
        --pos;
        w < c ? take(pos->first, pos->second) : take(pos->second, pos->first);
      }
    }
    // The latest collective of w before its limit that c took part in.
    const auto& mine = collectives_of_rank_[w];
    auto it = base::PartitionPointFrom(
        mine.begin(), mine.end(), [before_w](const std::pair<uint32_t, uint32_t>& x) { return x.first < before_w; },
        &collective_hint_[w]);
    for (int steps = 0; it != mine.begin() && steps < 64; ++steps) {
      --it;
      if (found && it->first <= *cw) break;
      const auto b = waits_.collective_members.begin() + static_cast<std::ptrdiff_t>(waits_.collective_offsets[it->second]);
      const auto e = waits_.collective_members.begin() + static_cast<std::ptrdiff_t>(waits_.collective_offsets[it->second + 1]);
      auto m = std::lower_bound(b, e, std::make_pair(c, 0u));
      if (m != e && m->first == c && m->second < before_c) {
        take(it->first, m->second);
        break;
      }
    }
    return found;
  }

 private:
  static uint64_t Key(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }

  struct Points {
    std::vector<std::pair<uint32_t, uint32_t>> points;  // (lower rank's call, higher rank's call)
    size_t hint = 0;                                     // where the last search ended
  };
  const WaitStates& waits_;
  std::unordered_map<uint64_t, Points> pairs_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> collectives_of_rank_;  // (call, op)
  std::vector<size_t> collective_hint_;
};

// Where a rank's own time starts: MPI_Init's exit (its call), else its first record.
struct Start {
  uint32_t call = kBeforeFirst;
  Time time = 0;
};

Start StartOf(const calls::Rank& r) {
  for (uint32_t i = 0; i < r.calls.size(); ++i)
    if (r.calls[i].op == Op::kInit) return {i, r.calls[i].exit};
  return {kBeforeFirst, r.first_record};
}

// Longer intervals are not split by phase (their computation is charged outside every phase):
// the walk is bounded.
constexpr uint32_t kMaxPhaseWalk = 4096;

// Adds `sign` x a rank's computation in [from, to) — the stretches after its call `after`
// (kBeforeFirst: from its start) and after each later call before call `before` — to `by`
// (phase -> time) by the phase of each stretch; false when the interval holds too many calls.
bool ComputationByPhase(const RankTimes& calls, const std::vector<uint16_t>& phase_of, uint32_t after,
                        uint32_t before, Time from, Time to, std::vector<std::pair<uint16_t, double>>* by, int sign) {
  const uint32_t first = after == kBeforeFirst ? 0 : after;
  if (before > first && before - first > kMaxPhaseWalk) return false;
  // Consecutive stretches mostly share a phase: their time is summed before it is added.
  auto add = [&](uint16_t phase, Time time) {
    if (time == 0) return;
    for (auto& [p, v] : *by)
      if (p == phase) {
        v += sign * static_cast<double>(time);
        return;
      }
    by->emplace_back(phase, sign * static_cast<double>(time));
  };
  auto clipped = [&](Time b, Time e) {
    b = std::max(b, from);
    e = std::min(e, to);
    return e > b ? e - b : 0;
  };
  const size_t n = calls.calls();
  if (after == kBeforeFirst) add(0, clipped(from, n == 0 ? to : calls.entry(0)));
  uint16_t phase = 0;
  Time sum = 0;
  for (uint32_t j = first; j < before && j < n; ++j) {
    const uint16_t p = j < phase_of.size() ? phase_of[j] : 0;
    if (p != phase) {
      add(phase, sum);
      phase = p, sum = 0;
    }
    sum += clipped(calls.exit(j), j + 1 < n ? calls.entry(j + 1) : to);
  }
  add(phase, sum);
  return true;
}

}  // namespace

DelayCosts FindDelayCosts(const calls::CallTable& table, const WaitStates& waits,
                          const std::vector<std::vector<uint16_t>>* phase_of_call) {
  DelayCosts out;
  const auto& inst = waits.instances;
  out.cause.resize(inst.size());
  if (inst.empty()) {
    if (phase_of_call != nullptr) out.phase_offsets.assign(1, 0);  // no instance, no share
    return out;
  }
  // Each call's waiting time, and each rank's first instance (instances are by rank, call).
  const size_t nranks = table.ranks.size();
  std::vector<std::vector<Time>> wait_of_call(nranks);
  for (size_t r = 0; r < nranks; ++r) wait_of_call[r].assign(table.ranks[r].calls.size(), 0);
  for (const WaitInstance& w : inst) wait_of_call[w.rank][w.call] = w.wait;
  std::vector<RankTimes> times;
  std::vector<Start> starts;
  times.reserve(nranks);
  for (size_t r = 0; r < nranks; ++r) {
    times.emplace_back(table.ranks[r], wait_of_call[r]);
    starts.push_back(StartOf(table.ranks[r]));
  }
  wait_of_call.clear();
  std::vector<size_t> first(nranks + 1, inst.size());
  for (size_t i = inst.size(); i-- > 0;) first[inst[i].rank] = i;
  for (size_t r = nranks; r-- > 0;) first[r] = std::min(first[r], first[r + 1]);
  SyncPoints sync(table, waits);

  // Latest wait first: a wait's delay can only propagate into waits that ended before it.
  std::vector<std::pair<Time, uint32_t>> order(inst.size());  // (wait end, instance)
  for (size_t i = 0; i < inst.size(); ++i)
    order[i] = {times[inst[i].rank].entry(inst[i].call) + inst[i].wait,
                static_cast<uint32_t>(i)};
  std::sort(order.begin(), order.end(), std::greater<>());
  std::vector<double> pushed(inst.size(), 0);  // waiting propagated into each instance
  std::vector<bool> done(inst.size(), false);
  std::vector<std::pair<size_t, double>> into;
  // (instance, share) in the order instances are met, when split by phase: one flat list
  // (an instance's shares are consecutive), placed by instance at the end.
  std::vector<std::pair<uint32_t, PhaseShare>> shares;
  std::vector<std::pair<uint16_t, double>> by_phase;

  for (const auto& [end, i] : order) {
    done[i] = true;
    const WaitInstance& w = inst[i];
    if (w.culprit_rank == kNoRank || w.culprit_rank == w.rank) continue;
    const uint32_t c = w.culprit_rank;
    const Time tw = times[w.rank].entry(w.call);
    const Time tc = w.culprit_time;
    // The culprit's calls before its synchronisation: those before its call, or before tc.
    const uint32_t before_c = w.culprit_call != kNoCall ? w.culprit_call : times[c].FirstFrom(tc);
    uint32_t sw = kBeforeFirst, sc = kBeforeFirst;
    Time aw, ac;
    if (sync.Previous(w.rank, c, w.call, before_c, &sw, &sc)) {
      aw = times[w.rank].exit(sw);
      ac = times[c].exit(sc);
    } else {
      sw = starts[w.rank].call, aw = starts[w.rank].time;
      sc = starts[c].call, ac = starts[c].time;
    }
    aw = std::min(aw, tw);
    ac = std::min(ac, tc);
    Time mpi_w, wait_w, mpi_c, wait_c;
    times[w.rank].Between(sw, w.call, &mpi_w, &wait_w);
    times[c].Between(sc, before_c, &mpi_c, &wait_c);
    const Time span_w = tw - aw, span_c = tc - ac;
    auto excess = [](Time x, Time y) { return x > y ? static_cast<double>(x - y) : 0.0; };
    // Calls are within their interval but for clock violations: never below zero.
    const Time comp_w = span_w > mpi_w ? span_w - mpi_w : 0, comp_c = span_c > mpi_c ? span_c - mpi_c : 0;
    const double d_comp = excess(comp_c, comp_w);
    const double d_mpi = excess(mpi_c - wait_c, mpi_w - wait_w);
    const double d_wait = excess(wait_c, wait_w);
    const double total = d_comp + d_mpi + d_wait;
    InstanceCause& cause = out.cause[i];
    cause.activity = d_mpi > d_comp ? kMpiNotWaiting : kComputation;
    cause.delay = static_cast<Time>(std::max(d_comp, d_mpi));
    const double own = static_cast<double>(w.wait), carried = own + pushed[i];
    if (total <= 0) {
      out.unexplained += own;
      continue;
    }
    cause.computation_short = own * d_comp / total;
    cause.mpi_short = own * d_mpi / total;
    cause.computation_long = carried * d_comp / total;
    cause.mpi_long = carried * d_mpi / total;
    cause.propagated = own * d_wait / total;
    if (phase_of_call != nullptr && d_comp > 0) {
      // The computation excess phase by phase: the culprit's time in each minus the waiter's.
      by_phase.clear();
      if (ComputationByPhase(times[c], (*phase_of_call)[c], sc, before_c, ac, tc, &by_phase, 1) &&
          ComputationByPhase(times[w.rank], (*phase_of_call)[w.rank], sw, w.call, aw, tw, &by_phase, -1)) {
        double excess_sum = 0, largest = 0;
        for (const auto& [p, v] : by_phase)
          if (v > 0) excess_sum += v;
        for (const auto& [p, v] : by_phase)
          if (v > 0) {
            shares.push_back({i, PhaseShare{p, static_cast<float>(v / excess_sum)}});
            if (v > largest) largest = v, cause.phase = p;
          }
      }
    }
    if (d_wait <= 0) continue;
    // The culprit's own waiting in its interval passes the rest on to those wait states: its
    // instances in calls after sc and before before_c.
    const double passed = carried * d_wait / total;
    const uint32_t lo_call = sc == kBeforeFirst ? 0 : sc + 1;
    auto k = std::lower_bound(inst.begin() + static_cast<std::ptrdiff_t>(first[c]),
                              inst.begin() + static_cast<std::ptrdiff_t>(first[c + 1]), lo_call,
                              [](const WaitInstance& x, uint32_t v) { return x.call < v; });
    double weight = 0;
    into.clear();
    for (; k != inst.begin() + static_cast<std::ptrdiff_t>(first[c + 1]) && k->call < before_c; ++k) {
      into.emplace_back(static_cast<size_t>(k - inst.begin()), static_cast<double>(k->wait));
      weight += static_cast<double>(k->wait);
    }
    for (const auto& [j, part] : into) {
      if (done[j])
        ++out.lost;
      else
        pushed[j] += passed * part / weight;
    }
  }
  if (phase_of_call != nullptr) {
    // A counting sort by instance, keeping each instance's shares in their order.
    out.phase_offsets.assign(inst.size() + 1, 0);
    for (const auto& [i, share] : shares) ++out.phase_offsets[i + 1];
    for (size_t i = 0; i < inst.size(); ++i) out.phase_offsets[i + 1] += out.phase_offsets[i];
    out.phase_shares.resize(shares.size());
    std::vector<uint32_t> next(out.phase_offsets.begin(), out.phase_offsets.end() - 1);
    for (const auto& [i, share] : shares) out.phase_shares[next[i]++] = share;
  }
  return out;
}

}  // namespace parallax::diagnose
