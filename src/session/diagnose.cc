// parallax::Diagnose: the call table, wait states and critical path of a loaded trace, turned
// into the public plain values (seconds, task labels, call names).

#include "include/parallax/diagnose.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "src/calls/call_table.h"
#include "src/diagnose/critical_path.h"
#include "src/diagnose/delay_costs.h"
#include "src/diagnose/wait_states.h"
#include "src/session/trace_impl.h"
#include "src/structure/phases.h"

namespace parallax {

namespace {

// The part of [b, e) inside [from, to).
model::Time Overlap(model::Time b, model::Time e, model::Time from, model::Time to) {
  const model::Time lo = std::max(b, from), hi = std::min(e, to);
  return hi > lo ? hi - lo : 0;
}

Diagnosis Build(const session::TraceImpl& t, const diagnose::TraceDiagnosis& computed,
                const DiagnoseOptions& options) {
  using diagnose::Pattern;
  Diagnosis d;
  d.trace = t.path();
  const model::TraceHeader& h = t.header();
  const model::PcfCatalog* pcf = t.pcf();
  const double unit = model::ConvertTime(1, h.unit, model::TimeUnit::kS);  // seconds per unit
  auto sec = [unit](model::Time v) { return static_cast<double>(v) * unit; };

  const calls::CallTable& table = computed.table();
  const diagnose::WaitStates& waits = computed.waits();
  const diagnose::CriticalPath& path = computed.path();
  const diagnose::DelayCosts& costs = computed.costs();

  const model::Time from = options.range ? options.range->from : 0;
  const model::Time to = options.range ? options.range->to : std::max(t.store().end_time(), path.end);
  d.begin_s = sec(from);
  d.end_s = sec(to);
  const size_t nranks = table.ranks.size();
  for (const calls::Rank& r : table.ranks) {
    d.ranks.push_back(model::DefaultTaskLabel(h.processes, model::TaskIndex(r.task)));
    d.rank_tasks.push_back(r.task);
    d.rank_threads.push_back(r.thread);
    model::Time mpi = 0;
    for (const calls::Call& c : r.calls) mpi += Overlap(c.entry, c.exit, from, to);
    d.mpi_s.push_back(sec(mpi));
  }

  // Patterns, instances and their worst.
  for (int p = 0; p < diagnose::kPatternCount; ++p) {
    const diagnose::PatternInfo& info = diagnose::Info(static_cast<Pattern>(p));
    PatternSummary s;
    s.key = info.key;
    s.name = info.name;
    s.group = info.parent;
    s.description = info.description;
    s.by_rank_s.assign(nranks, 0);
    s.operations = waits.operations[p];
    model::Time completion = 0;
    for (size_t r = 0; r < nranks; ++r) completion += waits.completion[p][r];
    s.completion_s = sec(completion);
    d.patterns.push_back(std::move(s));
  }
  auto name_of = [&](uint32_t rank, uint32_t call) {
    return calls::CallName(pcf, table.ranks[rank].calls[call]);
  };
  // Root causes: each instance's costs, scaled by the part of its waiting in the range, the
  // computation's split over the phases of the main loop.
  for (const structure::Phase& ph : computed.phases().phases)
    d.phases.push_back(fmt::format("phase {} ({} .. {})", ph.position, ph.after_call,
                                   ph.before_call.empty() ? "next iteration" : ph.before_call));
  auto phase_name = [&](uint16_t p) { return p == 0 || p > d.phases.size() ? std::string() : d.phases[p - 1]; };
  // (rank, 0 MPI / 1 + phase computation) -> (short, long)
  std::map<std::pair<uint32_t, int>, std::pair<double, double>> root;
  const bool by_phase = !costs.phase_offsets.empty();
  double unexplained = 0;
  for (size_t k = 0; k < waits.instances.size(); ++k) {
    const diagnose::WaitInstance& w = waits.instances[k];
    const calls::Call& c = table.ranks[w.rank].calls[w.call];
    const model::Time in_range = Overlap(c.entry, c.entry + w.wait, from, to);
    if (in_range == 0) continue;
    const diagnose::InstanceCause& why = costs.cause[k];
    const double share = static_cast<double>(in_range) / static_cast<double>(w.wait);
    if (w.culprit_rank != calls::kNoRank) {
      // The shares of the phases, normalised (they are floats); without any, outside them.
      const uint32_t s0 = by_phase ? costs.phase_offsets[k] : 0, s1 = by_phase ? costs.phase_offsets[k + 1] : 0;
      double shares = 0;
      for (uint32_t s = s0; s < s1; ++s) shares += costs.phase_shares[s].fraction;
      auto charge = [&](int phase, double part) {
        auto& comp = root[{w.culprit_rank, 1 + phase}];
        comp.first += why.computation_short * share * part;
        comp.second += why.computation_long * share * part;
      };
      if (shares > 0)
        for (uint32_t s = s0; s < s1; ++s) charge(costs.phase_shares[s].phase, costs.phase_shares[s].fraction / shares);
      else
        charge(0, 1);
      auto& mpi = root[{w.culprit_rank, 0}];
      mpi.first += why.mpi_short * share;
      mpi.second += why.mpi_long * share;
      const double explained = why.computation_short + why.mpi_short + why.propagated;
      if (explained < static_cast<double>(w.wait))
        unexplained += (static_cast<double>(w.wait) - explained) * share;
    }
    PatternSummary& s = d.patterns[static_cast<int>(w.pattern)];
    WaitStateInstance i;
    i.pattern = s.key;
    i.rank = w.rank;
    i.call = name_of(w.rank, w.call);
    i.begin_s = sec(c.entry);
    i.wait_s = sec(in_range);
    i.begin = c.entry;
    i.wait = w.wait;
    i.culprit = w.culprit_time;
    i.call_s = sec(c.exit - c.entry);
    i.culprit_rank = w.culprit_rank == calls::kNoRank ? -1 : static_cast<int64_t>(w.culprit_rank);
    if (w.culprit_rank != calls::kNoRank && w.culprit_call != calls::kNoCall)
      i.culprit_call = name_of(w.culprit_rank, w.culprit_call);
    i.culprit_s = sec(w.culprit_time);
    i.wrong_order = w.wrong_order;
    i.cause = why.activity == diagnose::kComputation ? "computation" : "MPI";
    i.cause_delay_s = sec(why.delay);
    if (why.activity == diagnose::kComputation) i.cause_phase = phase_name(why.phase);
    s.time_s += i.wait_s;
    s.by_rank_s[w.rank] += i.wait_s;
    ++s.count;
    if (w.wrong_order) s.wrong_order_s += i.wait_s, ++s.wrong_order_count;
    d.instances.push_back(std::move(i));
  }
  for (PatternSummary& s : d.patterns) {
    for (const WaitStateInstance& i : d.instances)
      if (i.pattern == s.key) s.worst.push_back(i);
    std::stable_sort(s.worst.begin(), s.worst.end(),
                     [](const WaitStateInstance& a, const WaitStateInstance& b) {
                       return a.wait_s > b.wait_s;
                     });
    if (s.worst.size() > options.worst) s.worst.resize(options.worst);
  }
  if (!options.instances) {
    std::vector<WaitStateInstance>().swap(d.instances);
  } else if (options.max_instances > 0 && d.instances.size() > options.max_instances) {
    // The longest ones, back in rank and time order.
    std::nth_element(d.instances.begin(), d.instances.begin() + static_cast<std::ptrdiff_t>(options.max_instances),
                     d.instances.end(), [](const WaitStateInstance& a, const WaitStateInstance& b) {
                       return a.wait_s > b.wait_s;
                     });
    d.instances.resize(options.max_instances);
    std::sort(d.instances.begin(), d.instances.end(), [](const WaitStateInstance& a, const WaitStateInstance& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.begin < b.begin;
    });
    d.instances_limited = true;
  }

  for (const auto& [key, v] : root) {
    if (v.first <= 0 && v.second <= 0) continue;
    d.root_causes.push_back({key.first, key.second == 0 ? "MPI" : "computation",
                             key.second == 0 ? std::string() : phase_name(static_cast<uint16_t>(key.second - 1)),
                             v.first * unit, v.second * unit});
  }
  std::stable_sort(d.root_causes.begin(), d.root_causes.end(),
                   [](const RootCause& a, const RootCause& b) { return a.long_term_s > b.long_term_s; });
  d.unexplained_s = unexplained * unit;

  // OpenMP.
  const diagnose::OmpWaits& omp = computed.omp();
  if (!omp.threads.empty()) {
    std::map<uint32_t, size_t> slot;  // thread -> index in omp_threads
    for (uint32_t th : omp.threads) {
      slot[th] = d.omp_threads.size();
      d.omp_threads.push_back(model::DefaultThreadLabel(h.processes, model::ThreadIndex(th)));
    }
    auto pattern = [&](const char* key, const char* name, const char* description) {
      PatternSummary s;
      s.key = key;
      s.name = name;
      s.group = "OpenMP";
      s.description = description;
      s.by_rank_s.assign(d.omp_threads.size(), 0);
      return s;
    };
    PatternSummary barrier = pattern("wait_at_omp_barrier", "Wait at OpenMP Barrier",
                                     "a thread waited in a barrier for the last thread of its team");
    PatternSummary idle = pattern("omp_idle_threads", "Idle Threads",
                                  "the worker threads of a task while its master ran outside parallel regions");
    for (const diagnose::OmpBarrierWait& w : omp.barrier_waits) {
      const model::Time in_range = Overlap(w.entry, w.entry + w.wait, from, to);
      if (in_range == 0) continue;
      barrier.time_s += sec(in_range);
      barrier.by_rank_s[slot[w.thread]] += sec(in_range);
      ++barrier.count;
      WaitStateInstance i;
      i.pattern = barrier.key;
      i.rank = static_cast<uint32_t>(slot[w.thread]);
      i.call = "OpenMP barrier";
      i.begin_s = sec(w.entry);
      i.wait_s = sec(in_range);
      i.call_s = sec(w.exit - w.entry);
      i.culprit_s = sec(w.last_entry);
      i.culprit_rank = static_cast<int64_t>(slot[w.last_thread]);
      i.begin = w.entry;
      i.wait = w.wait;
      i.culprit = w.last_entry;
      barrier.worst.push_back(std::move(i));
    }
    std::stable_sort(barrier.worst.begin(), barrier.worst.end(),
                     [](const WaitStateInstance& a, const WaitStateInstance& b) { return a.wait_s > b.wait_s; });
    if (barrier.worst.size() > options.worst) barrier.worst.resize(options.worst);
    barrier.operations = omp.barriers_analysed;
    for (const diagnose::OmpIdle& s : omp.idle) {
      const model::Time in_range = Overlap(s.begin, s.end, from, to);
      if (in_range == 0) continue;
      const model::ProcessModel& pm = h.processes;
      const model::TaskInfo& task = pm.task(model::TaskIndex(s.task));
      for (uint32_t k = 1; k < task.threads; ++k) {
        auto it = slot.find(task.first_thread.value + k);
        if (it == slot.end()) continue;
        idle.by_rank_s[it->second] += sec(in_range);
        idle.time_s += sec(in_range);
      }
      ++idle.count;
    }
    d.omp_patterns.push_back(std::move(barrier));
    d.omp_patterns.push_back(std::move(idle));
    d.omp_barriers_analysed = omp.barriers_analysed;
  }

  // The critical path within the range.
  CriticalPathInfo& cp = d.critical_path;
  diagnose::PathProfile prof = diagnose::ProfilePath(table, path, waits, from, to);
  cp.begin_s = sec(prof.from);
  cp.end_s = sec(prof.to);
  cp.length_s = sec(prof.length);
  cp.ends_at_finalize = path.ends_at_finalize;
  for (model::Time v : prof.by_rank) cp.by_rank_s.push_back(sec(v));
  auto activity_name = [&](const diagnose::ActivityKey& key) {
    if (key == diagnose::kComputation) return std::string("computation");
    calls::Call c;
    c.type = key.first;
    c.value = key.second;
    return calls::CallName(pcf, c);
  };
  auto busy_of = [&](const diagnose::ActivityKey& key) {
    auto all = prof.all_ranks.find(key);
    auto wait = prof.waiting.find(key);
    const model::Time a = all == prof.all_ranks.end() ? 0 : all->second;
    const model::Time w = wait == prof.waiting.end() ? 0 : wait->second;
    return a > w ? sec(a - w) : 0.0;
  };
  PerformanceImpact& impact = cp.impact;
  for (const auto& [key, v] : prof.by_activity) {
    ActivityOnPath a;
    a.name = activity_name(key);
    a.path_s = sec(v);
    a.mean_s = nranks == 0 ? 0 : busy_of(key) / static_cast<double>(nranks);
    a.imbalance_s = std::max(0.0, a.path_s - a.mean_s);
    cp.activities.push_back(a);
  }
  // Performance impact: every rank-second of the span is an activity's own time or waiting; the
  // waiting is charged to the activities on the path in proportion to their imbalance.
  const double ranks_d = static_cast<double>(nranks);
  impact.total_s = ranks_d * sec(prof.to - prof.from);
  double indicators = 0;
  for (const auto& [key, v] : prof.all_ranks) {
    ActivityImpact a;
    a.name = activity_name(key);
    a.busy_s = busy_of(key);
    auto n = prof.ranks_in.find(key);
    a.ranks = n == prof.ranks_in.end() ? 0 : n->second;
    auto on = prof.by_activity.find(key);
    a.on_path = on != prof.by_activity.end() && on->second > 0;
    if (a.on_path) {
      const double path_s = sec(on->second);
      const double imbalance = std::max(0.0, path_s - a.busy_s / ranks_d);
      a.intra_s = a.ranks > 0 ? std::min(imbalance, std::max(0.0, path_s - a.busy_s / a.ranks)) : 0;
      a.inter_s = imbalance - a.intra_s;
      indicators += imbalance;
    }
    impact.waiting_s += sec(prof.waiting.count(key) ? prof.waiting.at(key) : 0);
    impact.activities.push_back(std::move(a));
  }
  for (ActivityImpact& a : impact.activities) {
    const double imbalance = a.intra_s + a.inter_s;
    if (indicators > 0 && imbalance > 0) {
      a.imbalance_impact_s = impact.waiting_s * imbalance / indicators;
      a.intra_impact_s = a.imbalance_impact_s * a.intra_s / imbalance;
      a.inter_impact_s = a.imbalance_impact_s - a.intra_impact_s;
    }
    a.impact_s = a.busy_s + a.imbalance_impact_s;
    if (a.on_path) {
      impact.critical_path_activities_s += a.impact_s;
      impact.activity_impact_s += a.busy_s;
      impact.imbalance_impact_s += a.imbalance_impact_s;
      impact.intra_partition_s += a.intra_impact_s;
      impact.inter_partition_s += a.inter_impact_s;
    } else {
      impact.non_critical_path_activities_s += a.impact_s;
    }
  }
  if (indicators <= 0) impact.unattributed_s = impact.waiting_s;
  std::stable_sort(impact.activities.begin(), impact.activities.end(),
                   [](const ActivityImpact& a, const ActivityImpact& b) { return a.impact_s > b.impact_s; });
  std::stable_sort(cp.activities.begin(), cp.activities.end(),
                   [](const ActivityOnPath& a, const ActivityOnPath& b) { return a.path_s > b.path_s; });
  for (int p = 0; p < diagnose::kPatternCount; ++p)
    if (path.jumps[p] > 0) cp.jumps.emplace_back(diagnose::Info(static_cast<Pattern>(p)).key, path.jumps[p]);
  cp.clamped_jumps = path.clamped;
  for (const diagnose::PathSegment& s : path.segments) {
    const model::Time b = std::max(s.begin, from), e = std::min(s.end, to);
    if (e > b) cp.segments.push_back({s.rank, sec(b), sec(e), b, e});
  }

  d.mpi_events = table.counts.mpi_events;
  d.messages = waits.messages;
  d.unbound_messages = table.counts.unbound_messages;
  d.backward_messages = waits.backward_messages;
  d.clock_violations = waits.clock_violations;
  d.collectives_analysed = waits.collectives_analysed;
  for (const auto& [why, n] : waits.skipped) {
    Diagnosis::Skipped k{why, n, {}};
    if (auto e = waits.skipped_example.find(why); e != waits.skipped_example.end()) {
      const auto& [rank, call] = e->second;
      k.first = "rank " + d.ranks[rank];
      if (call != calls::kNoCall)
        k.first += fmt::format(", {} at {:.9f} s", name_of(rank, call),
                               sec(table.ranks[rank].calls[call].entry));
    }
    d.skipped.push_back(std::move(k));
  }
  if (table.counts.first_unbound != UINT64_MAX) {
    const store::CommTable& comms = t.store().comms();
    const size_t i = table.counts.first_unbound;
    d.first_unbound = fmt::format(
        "communication {}: sent by thread {} at {:.9f} s, received by thread {} at {:.9f} s", i + 1,
        model::DefaultThreadLabel(h.processes, model::ThreadIndex(comms.sender[i])),
        sec(comms.log_send[i]),
        model::DefaultThreadLabel(h.processes, model::ThreadIndex(comms.receiver[i])),
        sec(comms.phy_recv[i]));
  }
  d.stray_closes = table.counts.stray_closes;
  d.nested_opens = table.counts.nested_opens;
  d.truncated_calls = table.counts.truncated_calls;
  d.other_thread_calls = table.counts.other_thread_calls;

  if (table.ranks.empty())
    d.notes.push_back(d.omp_threads.empty()
                          ? "the trace has no MPI call events (types 50000001-50000005) and no OpenMP "
                            "events (60000001, 60000005): there is nothing to diagnose (trace an MPI "
                            "or OpenMP run with Extrae or parallax-trace)"
                          : "the trace has no MPI call events (types 50000001-50000005): only its "
                            "OpenMP waits are diagnosed");
  if (d.backward_messages > 0)
    d.notes.push_back(fmt::format(
        "{} messages are received before they are sent: the clocks of the ranks disagree, and "
        "the waiting times near them are wrong. Correct them first: parallax clocks --correct",
        d.backward_messages));
  if (d.unbound_messages > 0)
    d.notes.push_back(fmt::format(
        "{} communications have their send or receive outside every MPI call (the first: {}); "
        "they take no part in the diagnosis",
        d.unbound_messages, d.first_unbound));
  return d;
}

}  // namespace

Result<Diagnosis> Diagnose(const Trace& trace, const DiagnoseOptions& options) {
  const auto* impl = dynamic_cast<const session::TraceImpl*>(&trace);
  if (impl == nullptr) return Status::Error("diagnose: the trace was not opened by parallax::Trace::Open");
  if (options.range && options.range->to <= options.range->from)
    return Status::Error("diagnose: the range is empty (its end is not after its begin)");
  return session::GuardedOn(trace, impl->path(), [&]() -> Result<Diagnosis> {
    // The default reading is computed once per trace and kept (the semantic functions and the
    // server's requests share it); the strict one is computed for this call.
    if (!options.strict_sizes) return Build(*impl, impl->diagnosis().Get(), options);
    diagnose::TraceDiagnosis strict(impl->header(), impl->store(), impl->pcf(), {true});
    return Build(*impl, strict, options);
  });
}

}  // namespace parallax
