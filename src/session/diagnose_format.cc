// The text, csv and json renderings of a Diagnosis.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "include/parallax/diagnose.h"

namespace parallax {

namespace {

std::string RankName(const Diagnosis& d, int64_t rank) {
  return rank >= 0 && static_cast<size_t>(rank) < d.ranks.size() ? d.ranks[rank] : "?";
}

// Total rank time in the range: what a pattern's share is a share of.
double RankSeconds(const Diagnosis& d) {
  return (d.end_s - d.begin_s) * static_cast<double>(d.ranks.size());
}

double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

}  // namespace

std::string FormatDiagnosisText(const Diagnosis& d) {
  std::string out;
  double mpi = 0;
  for (double v : d.mpi_s) mpi += v;
  const double all = RankSeconds(d);
  out += fmt::format("diagnosis of {}\n", d.trace);
  out += fmt::format("{} ranks, {:.6f}-{:.6f} s; time in MPI {:.6f} s ({:.1f} % of the ranks' time)\n",
                     d.ranks.size(), d.begin_s, d.end_s, mpi, Percent(mpi, all));
  for (const std::string& n : d.notes) out += "note: " + n + "\n";
  if (!d.omp_patterns.empty()) {
    const double omp_time = (d.end_s - d.begin_s) * static_cast<double>(d.omp_threads.size());
    out += fmt::format("\nOpenMP ({} threads, {} barriers analysed)  time (s)  % time  instances\n",
                       d.omp_threads.size(), d.omp_barriers_analysed);
    for (const PatternSummary& p : d.omp_patterns)
      out += fmt::format("  {:<22} {:>10.6f} {:>6.2f} % {:>10}\n", p.name, p.time_s,
                         Percent(p.time_s, omp_time), p.count);
    for (const WaitStateInstance& i : d.omp_patterns[0].worst)
      out += fmt::format("  longest: thread {} waited {:.6f} s in a barrier at {:.6f} s for thread {} "
                         "(arrived at {:.6f} s)\n",
                         d.omp_threads[i.rank], i.wait_s, i.begin_s, d.omp_threads[i.culprit_rank],
                         i.culprit_s);
  }
  if (d.ranks.empty()) return out;

  out += "\nwait states                time (s)  % time  instances  operations\n";
  for (const PatternSummary& p : d.patterns) {
    out += fmt::format("  {:<22} {:>10.6f} {:>6.2f} % {:>10} {:>11}\n", p.name, p.time_s,
                       Percent(p.time_s, all), p.count, p.operations);
    if (p.wrong_order_count > 0)
      out += fmt::format("    of which wrong order {:>10.6f} {:>6.2f} % {:>10}\n", p.wrong_order_s,
                         Percent(p.wrong_order_s, all), p.wrong_order_count);
    if (p.completion_s > 0)
      out += fmt::format("    completion (after the first exit) {:.6f} s\n", p.completion_s);
  }
  bool any = false;
  for (const PatternSummary& p : d.patterns) {
    for (const WaitStateInstance& i : p.worst) {
      if (!any) out += "\nlongest waits\n";
      any = true;
      out += fmt::format("  {:<16} rank {:<6} {} at {:.6f} s waited {:.6f} s", p.name,
                         d.ranks[i.rank], i.call, i.begin_s, i.wait_s);
      if (i.culprit_rank >= 0)
        out += fmt::format(" for rank {}{}{} at {:.6f} s", RankName(d, i.culprit_rank),
                           i.culprit_call.empty() ? "" : " in ", i.culprit_call, i.culprit_s);
      if (i.culprit_rank >= 0 && i.cause_delay_s > 0)
        out += fmt::format(", {:.6f} s more {}{}{} there since they last synchronised",
                           i.cause_delay_s, i.cause == "MPI" ? "time in MPI" : "computation",
                           i.cause_phase.empty() ? "" : " in ", i.cause_phase);
      out += i.wrong_order ? " (wrong order)\n" : "\n";
    }
  }

  if (!d.root_causes.empty()) {
    out += "\nroot causes: the waiting each rank's excess time caused\n"
           "  rank     activity      short-term (s)  long-term (s)  phase\n";
    for (size_t k = 0; k < d.root_causes.size() && k < 10; ++k) {
      const RootCause& c = d.root_causes[k];
      out += fmt::format("  {:<8} {:<12} {:>15.6f} {:>14.6f}  {}\n", d.ranks[c.rank], c.activity,
                         c.short_term_s, c.long_term_s, c.phase.empty() ? "-" : c.phase);
    }
    if (d.unexplained_s > 0)
      out += fmt::format("  waiting without a measurable excess of its culprit: {:.6f} s\n", d.unexplained_s);
  }

  const CriticalPathInfo& cp = d.critical_path;
  out += fmt::format("\ncritical path {:.6f} s ({:.6f}-{:.6f} s), {}", cp.length_s, cp.begin_s,
                     cp.end_s, cp.ends_at_finalize ? "to the last MPI_Finalize" : "to the last record");
  uint64_t jumps = 0;
  std::string by;
  for (const auto& [k, n] : cp.jumps) {
    jumps += n;
    by += fmt::format("{}{} {}", by.empty() ? "" : ", ", k, n);
  }
  out += fmt::format("; {} jumps{}{}{}\n", jumps, by.empty() ? "" : " (", by, by.empty() ? "" : ")");
  out += "  rank      on path (s)   share\n";
  for (size_t r = 0; r < d.ranks.size(); ++r)
    if (cp.by_rank_s[r] > 0)
      out += fmt::format("  {:<8} {:>12.6f} {:>6.1f} %\n", d.ranks[r], cp.by_rank_s[r],
                         Percent(cp.by_rank_s[r], cp.length_s));
  out += "  activity                on path (s)  mean per rank (s)  imbalance (s)\n";
  for (const ActivityOnPath& a : cp.activities)
    out += fmt::format("  {:<22} {:>12.6f} {:>18.6f} {:>14.6f}\n", a.name, a.path_s, a.mean_s,
                       a.imbalance_s);
  const PerformanceImpact& pi = cp.impact;
  if (pi.total_s > 0) {
    out += fmt::format(
        "\nPerformance impact ({:.6f} rank-s: {} ranks x the path's span; waiting {:.6f} rank-s)\n",
        pi.total_s, d.ranks.size(), pi.waiting_s);
    out += fmt::format("  critical-path activities     {:>14.6f} {:>6.1f} %\n", pi.critical_path_activities_s,
                       Percent(pi.critical_path_activities_s, pi.total_s));
    out += fmt::format("    their own time             {:>14.6f} {:>6.1f} %\n", pi.activity_impact_s,
                       Percent(pi.activity_impact_s, pi.total_s));
    out += fmt::format("    imbalance                  {:>14.6f} {:>6.1f} %\n", pi.imbalance_impact_s,
                       Percent(pi.imbalance_impact_s, pi.total_s));
    out += fmt::format("      intra-partition          {:>14.6f} {:>6.1f} %\n", pi.intra_partition_s,
                       Percent(pi.intra_partition_s, pi.total_s));
    out += fmt::format("      inter-partition          {:>14.6f} {:>6.1f} %\n", pi.inter_partition_s,
                       Percent(pi.inter_partition_s, pi.total_s));
    out += fmt::format("  non-critical-path activities {:>14.6f} {:>6.1f} %\n", pi.non_critical_path_activities_s,
                       Percent(pi.non_critical_path_activities_s, pi.total_s));
    if (pi.unattributed_s > 0)
      out += fmt::format("  waiting not attributed       {:>14.6f} {:>6.1f} % (no activity on the path is imbalanced)\n",
                         pi.unattributed_s, Percent(pi.unattributed_s, pi.total_s));
    out += "  activity               on path  ranks   own (rank-s)  imbalance (rank-s)       intra       inter\n";
    for (size_t k = 0; k < pi.activities.size() && k < 12; ++k) {
      const ActivityImpact& a = pi.activities[k];
      out += fmt::format("  {:<22} {:>7} {:>6} {:>14.6f} {:>19.6f} {:>11.6f} {:>11.6f}\n", a.name,
                         a.on_path ? "yes" : "no", a.ranks, a.busy_s, a.imbalance_impact_s, a.intra_impact_s,
                         a.inter_impact_s);
    }
  }

  out += fmt::format("\nanalysed: {} MPI events, {} messages, {} collective operations\n",
                     d.mpi_events, d.messages, d.collectives_analysed);
  for (const Diagnosis::Skipped& k : d.skipped)
    out += fmt::format("skipped: {} collective operations: {}{}{}\n", k.count, k.reason,
                       k.first.empty() ? "" : "; the first: ", k.first);
  if (d.clock_violations > 0)
    out += fmt::format("clock-condition violations: {} (a partner entered after the waiting call "
                       "ended; the waits were clipped to the call)\n",
                       d.clock_violations);
  if (d.truncated_calls > 0)
    out += fmt::format("truncated calls: {} (never closed: counted as MPI time, no wait state)\n",
                       d.truncated_calls);
  if (d.stray_closes > 0)
    out += fmt::format("MPI call ends without a call: {} (ignored)\n", d.stray_closes);
  if (d.nested_opens > 0)
    out += fmt::format("MPI calls begun inside another: {} (the earlier one ends there)\n",
                       d.nested_opens);
  if (d.other_thread_calls > 0)
    out += fmt::format("MPI calls on a rank's other threads: {} (only each rank's first MPI "
                       "thread is analysed)\n",
                       d.other_thread_calls);
  return out;
}

std::string FormatDiagnosisCsv(const Diagnosis& d) {
  std::string out = "pattern,rank,time_s,instances_of_pattern,mpi_s\n";
  for (const PatternSummary& p : d.patterns)
    for (size_t r = 0; r < d.ranks.size(); ++r)
      out += fmt::format("{},{},{:.9f},{},{:.9f}\n", p.key, d.ranks[r], p.by_rank_s[r], p.count,
                         d.mpi_s[r]);
  return out;
}

std::string FormatDiagnosisJson(const Diagnosis& d) {
  using nlohmann::ordered_json;
  auto by_rank = [&](const std::vector<double>& v) {
    ordered_json o = ordered_json::object();
    for (size_t r = 0; r < d.ranks.size() && r < v.size(); ++r) o[d.ranks[r]] = v[r];
    return o;
  };
  auto instance = [&](const WaitStateInstance& i) {
    ordered_json o;
    o["pattern"] = i.pattern;
    o["rank"] = d.ranks[i.rank];
    o["call"] = i.call;
    o["begin_s"] = i.begin_s;
    o["wait_s"] = i.wait_s;
    o["call_s"] = i.call_s;
    o["culprit_rank"] = i.culprit_rank >= 0 ? ordered_json(RankName(d, i.culprit_rank)) : ordered_json();
    o["culprit_call"] = i.culprit_call;
    o["culprit_s"] = i.culprit_s;
    o["wrong_order"] = i.wrong_order;
    o["cause"] = i.cause;
    o["cause_delay_s"] = i.cause_delay_s;
    o["cause_phase"] = i.cause_phase.empty() ? ordered_json(nullptr) : ordered_json(i.cause_phase);
    return o;
  };
  ordered_json j;
  j["trace"] = d.trace;
  j["ranks"] = d.ranks;
  j["begin_s"] = d.begin_s;
  j["end_s"] = d.end_s;
  j["mpi_s"] = by_rank(d.mpi_s);
  ordered_json patterns = ordered_json::object();
  for (const PatternSummary& p : d.patterns) {
    ordered_json o;
    o["name"] = p.name;
    o["group"] = p.group;
    o["time_s"] = p.time_s;
    o["count"] = p.count;
    o["operations"] = p.operations;
    o["by_rank"] = by_rank(p.by_rank_s);
    if (p.key == "late_sender") {
      o["wrong_order_s"] = p.wrong_order_s;
      o["wrong_order_count"] = p.wrong_order_count;
    }
    if (p.key == "wait_at_barrier" || p.key == "wait_at_nxn") o["completion_s"] = p.completion_s;
    ordered_json worst = ordered_json::array();
    for (const WaitStateInstance& i : p.worst) worst.push_back(instance(i));
    o["worst"] = std::move(worst);
    patterns[p.key] = std::move(o);
  }
  j["patterns"] = std::move(patterns);
  const CriticalPathInfo& cp = d.critical_path;
  ordered_json c;
  c["length_s"] = cp.length_s;
  c["begin_s"] = cp.begin_s;
  c["end_s"] = cp.end_s;
  c["ends_at_finalize"] = cp.ends_at_finalize;
  c["by_rank_s"] = by_rank(cp.by_rank_s);
  ordered_json act = ordered_json::object(), imb = ordered_json::object();
  for (const ActivityOnPath& a : cp.activities) {
    act[a.name] = a.path_s;
    imb[a.name] = a.imbalance_s;
  }
  c["by_activity_s"] = std::move(act);
  c["imbalance_s"] = std::move(imb);
  ordered_json jumps = ordered_json::object();
  for (const auto& [k, n] : cp.jumps) jumps[k] = n;
  c["jumps"] = std::move(jumps);
  c["clamped_jumps"] = cp.clamped_jumps;
  ordered_json segs = ordered_json::array();
  for (const CriticalPathSegmentInfo& s : cp.segments)
    segs.push_back({{"rank", d.ranks[s.rank]}, {"begin_s", s.begin_s}, {"end_s", s.end_s}});
  c["segments"] = std::move(segs);
  const PerformanceImpact& pi = cp.impact;
  ordered_json imp;
  imp["total_s"] = pi.total_s;
  imp["waiting_s"] = pi.waiting_s;
  imp["critical_path_activities_s"] = pi.critical_path_activities_s;
  imp["activity_impact_s"] = pi.activity_impact_s;
  imp["imbalance_impact_s"] = pi.imbalance_impact_s;
  imp["intra_partition_s"] = pi.intra_partition_s;
  imp["inter_partition_s"] = pi.inter_partition_s;
  imp["non_critical_path_activities_s"] = pi.non_critical_path_activities_s;
  imp["unattributed_s"] = pi.unattributed_s;
  ordered_json per = ordered_json::object();
  for (const ActivityImpact& a : pi.activities)
    per[a.name] = {{"on_path", a.on_path},           {"ranks", a.ranks},
                   {"busy_s", a.busy_s},             {"intra_s", a.intra_s},
                   {"inter_s", a.inter_s},           {"imbalance_impact_s", a.imbalance_impact_s},
                   {"intra_impact_s", a.intra_impact_s}, {"inter_impact_s", a.inter_impact_s},
                   {"impact_s", a.impact_s}};
  imp["by_activity"] = std::move(per);
  c["performance_impact"] = std::move(imp);
  j["critical_path"] = std::move(c);
  ordered_json roots = ordered_json::array();
  for (const RootCause& r : d.root_causes)
    roots.push_back({{"rank", d.ranks[r.rank]}, {"activity", r.activity},
                     {"phase", r.phase.empty() ? ordered_json(nullptr) : ordered_json(r.phase)},
                     {"short_term_s", r.short_term_s}, {"long_term_s", r.long_term_s}});
  j["root_causes"] = std::move(roots);
  j["phases"] = d.phases;
  j["unexplained_s"] = d.unexplained_s;
  ordered_json counts;
  counts["mpi_events"] = d.mpi_events;
  counts["messages"] = d.messages;
  counts["unbound_messages"] = d.unbound_messages;
  counts["backward_messages"] = d.backward_messages;
  counts["clock_violations"] = d.clock_violations;
  counts["collectives_analysed"] = d.collectives_analysed;
  ordered_json skipped = ordered_json::object();
  for (const Diagnosis::Skipped& k : d.skipped) skipped[k.reason] = {{"count", k.count}, {"first", k.first}};
  counts["collectives_skipped"] = std::move(skipped);
  counts["truncated_calls"] = d.truncated_calls;
  counts["stray_closes"] = d.stray_closes;
  counts["nested_opens"] = d.nested_opens;
  counts["other_thread_calls"] = d.other_thread_calls;
  j["counts"] = std::move(counts);
  ordered_json omp;
  omp["threads"] = d.omp_threads;
  omp["barriers_analysed"] = d.omp_barriers_analysed;
  ordered_json omp_patterns = ordered_json::object();
  for (const PatternSummary& p : d.omp_patterns) {
    ordered_json by_thread = ordered_json::object();
    for (size_t k = 0; k < d.omp_threads.size(); ++k) by_thread[d.omp_threads[k]] = p.by_rank_s[k];
    omp_patterns[p.key] = {{"name", p.name}, {"time_s", p.time_s}, {"count", p.count},
                           {"operations", p.operations}, {"by_thread", std::move(by_thread)}};
  }
  omp["patterns"] = std::move(omp_patterns);
  j["openmp"] = std::move(omp);
  j["notes"] = d.notes;
  return j.dump(2) + "\n";
}

}  // namespace parallax
