#include "src/diagnose/delay_costs.h"

#include <algorithm>
#include <unordered_map>

namespace parallax::diagnose {

namespace {

using calls::Call;
using calls::kNoCall;
using calls::kNoRank;
using calls::Op;

// Per rank: prefix sums of its calls' durations and waiting, to measure any interval in
// O(log calls).
class RankTimes {
 public:
  RankTimes(const calls::Rank& rank, const std::vector<Time>& wait_of_call) : calls_(rank.calls) {
    mpi_.assign(calls_.size() + 1, 0);
    wait_.assign(calls_.size() + 1, 0);
    waits_ = &wait_of_call;
    for (size_t i = 0; i < calls_.size(); ++i) {
      mpi_[i + 1] = mpi_[i] + (calls_[i].exit - calls_[i].entry);
      wait_[i + 1] = wait_[i] + wait_of_call[i];
    }
  }

  // Time in MPI calls and in their waiting parts within [a, b).
  void Measure(Time a, Time b, Time* mpi, Time* wait) const {
    *mpi = *wait = 0;
    if (b <= a || calls_.empty()) return;
    // Calls [i, j) begin before b; the first ones may end before a.
    size_t i = First(a), j = First(b);
    if (i > 0 && calls_[i - 1].exit > a) --i;  // the call running at a
    if (j <= i) return;
    *mpi = mpi_[j] - mpi_[i];
    *wait = wait_[j] - wait_[i];
    // Clip the edge calls to [a, b): a call's waiting is its first `w` units.
    auto clip = [&](size_t k) {
      const Call& c = calls_[k];
      const Time w = (*waits_)[k];
      const Time full_mpi = c.exit - c.entry;
      const Time lo = std::max(c.entry, a), hi = std::min(c.exit, b);
      const Time in_mpi = hi > lo ? hi - lo : 0;
      const Time wl = std::max(c.entry, a), wh = std::min(c.entry + w, b);
      const Time in_wait = wh > wl ? wh - wl : 0;
      *mpi -= full_mpi - in_mpi;
      *wait -= w - in_wait;
    };
    clip(i);
    if (j - 1 != i) clip(j - 1);
  }

 private:
  size_t First(Time t) const {  // the first call entered at or after t
    return static_cast<size_t>(std::lower_bound(calls_.begin(), calls_.end(), t,
                                                [](const Call& c, Time v) { return c.entry < v; }) -
                               calls_.begin());
  }

  const std::vector<Call>& calls_;
  const std::vector<Time>* waits_;
  std::vector<Time> mpi_, wait_;
};

// The synchronisation points of every pair of ranks: their messages and collective operations.
class SyncPoints {
 public:
  SyncPoints(const calls::CallTable& table, const WaitStates& waits) : table_(table), waits_(waits) {
    for (const calls::MessageCalls& m : table.messages) {
      if (m.sender == kNoRank || m.receiver == kNoRank || m.sender == m.receiver ||
          m.send_call == kNoCall || m.done_call == kNoCall)
        continue;
      const Time ts = table.ranks[m.sender].calls[m.send_call].exit;
      const Time tr = table.ranks[m.receiver].calls[m.done_call].exit;
      if (m.sender < m.receiver)
        pairs_[Key(m.sender, m.receiver)].emplace_back(ts, tr);
      else
        pairs_[Key(m.receiver, m.sender)].emplace_back(tr, ts);
    }
    for (auto& [k, v] : pairs_) std::sort(v.begin(), v.end());
    collectives_of_rank_.resize(table.ranks.size());
    for (size_t i = 0; i + 1 < waits.collective_offsets.size(); ++i)
      for (uint64_t m = waits.collective_offsets[i]; m < waits.collective_offsets[i + 1]; ++m) {
        const auto& [rank, call] = waits.collective_members[m];
        collectives_of_rank_[rank].emplace_back(call, static_cast<uint32_t>(i));
      }
    for (auto& v : collectives_of_rank_) std::sort(v.begin(), v.end());
  }

  // The previous synchronisation point of ranks w and c before w's time tw and c's time tc:
  // each rank's time there (the exits of the calls that synchronised them); false when none.
  bool Previous(uint32_t w, uint32_t c, Time tw, Time tc, Time* aw, Time* ac) const {
    bool found = false;
    auto take = [&](Time x, Time y) {
      if (x < tw && y <= tc && (!found || x > *aw)) *aw = x, *ac = y, found = true;
    };
    if (auto it = pairs_.find(w < c ? Key(w, c) : Key(c, w)); it != pairs_.end()) {
      const auto& v = it->second;
      // Entries ordered by the lower rank's time; walk back from the last one before its limit.
      const Time limit = w < c ? tw : tc;
      auto pos = std::lower_bound(v.begin(), v.end(), std::make_pair(limit, Time{0}));
      for (int steps = 0; pos != v.begin() && steps < 64; ++steps) {
        --pos;
        w < c ? take(pos->first, pos->second) : take(pos->second, pos->first);
        if (found) break;
      }
    }
    // The latest collective of w before tw that c took part in.
    const auto& mine = collectives_of_rank_[w];
    const auto& calls_w = table_.ranks[w].calls;
    auto it = std::lower_bound(mine.begin(), mine.end(), std::make_pair(FirstCallFrom(calls_w, tw), 0u));
    for (int steps = 0; it != mine.begin() && steps < 64; ++steps) {
      --it;
      const Time x = calls_w[it->first].exit;
      if (found && x <= *aw) break;
      const uint64_t b = waits_.collective_offsets[it->second], e = waits_.collective_offsets[it->second + 1];
      auto m = std::lower_bound(waits_.collective_members.begin() + static_cast<std::ptrdiff_t>(b),
                                waits_.collective_members.begin() + static_cast<std::ptrdiff_t>(e),
                                std::make_pair(c, 0u));
      if (m != waits_.collective_members.begin() + static_cast<std::ptrdiff_t>(e) && m->first == c) {
        take(x, table_.ranks[c].calls[m->second].exit);
        if (found && *aw == x) break;
      }
    }
    return found;
  }

 private:
  static uint64_t Key(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }
  static uint32_t FirstCallFrom(const std::vector<Call>& calls, Time t) {
    return static_cast<uint32_t>(std::lower_bound(calls.begin(), calls.end(), t,
                                                  [](const Call& c, Time v) { return c.entry < v; }) -
                                 calls.begin());
  }

  const calls::CallTable& table_;
  const WaitStates& waits_;
  std::unordered_map<uint64_t, std::vector<std::pair<Time, Time>>> pairs_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> collectives_of_rank_;  // (call, op)
};

Time Start(const calls::Rank& r) {
  for (const Call& c : r.calls)
    if (c.op == Op::kInit) return c.exit;
  return r.first_record;
}

}  // namespace

DelayCosts FindDelayCosts(const calls::CallTable& table, const store::CommTable& comms,
                          const WaitStates& waits) {
  (void)comms;
  DelayCosts out;
  const auto& inst = waits.instances;
  out.cause.resize(inst.size());
  if (inst.empty()) return out;
  // Each call's waiting time, and each rank's first instance (instances are by rank, call).
  std::vector<std::vector<Time>> wait_of_call(table.ranks.size());
  for (size_t r = 0; r < table.ranks.size(); ++r) wait_of_call[r].assign(table.ranks[r].calls.size(), 0);
  for (const WaitInstance& w : inst) wait_of_call[w.rank][w.call] = w.wait;
  std::vector<RankTimes> times;
  times.reserve(table.ranks.size());
  for (size_t r = 0; r < table.ranks.size(); ++r) times.emplace_back(table.ranks[r], wait_of_call[r]);
  std::vector<size_t> first(table.ranks.size() + 1, inst.size());
  for (size_t i = inst.size(); i-- > 0;) first[inst[i].rank] = i;
  for (size_t r = table.ranks.size(); r-- > 0;) first[r] = std::min(first[r], first[r + 1]);
  SyncPoints sync(table, waits);

  // Latest wait first: a wait's delay can only propagate into waits that ended before it.
  std::vector<size_t> order(inst.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto wait_end = [&](size_t i) { return table.ranks[inst[i].rank].calls[inst[i].call].entry + inst[i].wait; };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Time ea = wait_end(a), eb = wait_end(b);
    return ea != eb ? ea > eb : a > b;
  });
  std::vector<double> pushed(inst.size(), 0);  // waiting propagated into each instance
  std::vector<bool> done(inst.size(), false);

  for (size_t i : order) {
    done[i] = true;
    const WaitInstance& w = inst[i];
    if (w.culprit_rank == kNoRank || w.culprit_rank == w.rank) continue;
    const Time tw = table.ranks[w.rank].calls[w.call].entry;
    const Time tc = w.culprit_time;
    Time aw = 0, ac = 0;
    if (!sync.Previous(w.rank, w.culprit_rank, tw, tc, &aw, &ac)) {
      aw = std::min(Start(table.ranks[w.rank]), tw);
      ac = std::min(Start(table.ranks[w.culprit_rank]), tc);
    }
    Time mpi_w, wait_w, mpi_c, wait_c;
    times[w.rank].Measure(aw, tw, &mpi_w, &wait_w);
    times[w.culprit_rank].Measure(ac, tc, &mpi_c, &wait_c);
    const Time span_w = tw - aw, span_c = tc > ac ? tc - ac : 0;
    auto excess = [](Time c, Time ww) { return c > ww ? static_cast<double>(c - ww) : 0.0; };
    const double d_comp = excess(span_c - mpi_c, span_w - mpi_w);
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
    if (d_wait <= 0) continue;
    // The culprit's own waiting in its interval passes the rest on to those wait states.
    const double passed = carried * d_wait / total;
    const uint32_t c = w.culprit_rank;
    double weight = 0;
    std::vector<std::pair<size_t, double>> into;
    // The culprit's waits from the one running at ac (its instances are in call order).
    size_t k0 = static_cast<size_t>(
        std::lower_bound(inst.begin() + static_cast<std::ptrdiff_t>(first[c]),
                         inst.begin() + static_cast<std::ptrdiff_t>(first[c + 1]), ac,
                         [&](const WaitInstance& x, Time t) { return table.ranks[c].calls[x.call].entry < t; }) -
        inst.begin());
    if (k0 > first[c]) --k0;
    for (size_t k = k0; k < first[c + 1]; ++k) {
      const Call& call = table.ranks[c].calls[inst[k].call];
      const Time lo = std::max(call.entry, ac), hi = std::min(call.entry + inst[k].wait, tc);
      if (call.entry >= tc) break;
      if (hi <= lo) continue;
      into.emplace_back(k, static_cast<double>(hi - lo));
      weight += static_cast<double>(hi - lo);
    }
    for (const auto& [k, part] : into) {
      if (done[k])
        ++out.lost;
      else
        pushed[k] += passed * part / weight;
    }
  }
  return out;
}

}  // namespace parallax::diagnose
