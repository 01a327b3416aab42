// The text and json renderings of a ProgramStructure.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "include/parallax/structure.h"

namespace parallax {

namespace {

std::string Seconds(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.1f} us", s * 1e6);
}

std::string Ipc(double v) { return v >= 0 ? fmt::format("{:.2f}", v) : "-"; }

std::string Instructions(double v) {
  if (v < 0) return "-";
  if (v >= 1e9) return fmt::format("{:.2f} G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f} M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.1f} k", v / 1e3);
  return fmt::format("{:.0f}", v);
}

}  // namespace

std::string FormatStructureText(const ProgramStructure& s) {
  std::string o = fmt::format("Structure of {}\n\n", s.trace);
  const IterationsInfo& it = s.iterations;
  o += "Iterations\n";
  if (!it.found) {
    o += fmt::format("  no iterations found: {}\n", it.why_none);
    if (!it.tried.empty()) o += "  tried:\n";
    size_t shown = 0;
    for (const IterationCandidate& c : it.tried) {
      if (shown++ == 8) break;
      o += fmt::format("    {:<32} {:>7} times  {}\n", c.name, c.occurrences,
                       c.rejected.empty() ? "qualifies" : c.rejected);
    }
  } else {
    o += fmt::format("  {} iterations, period {} (min {}, median {}, max {}), confidence {:.2f}\n", it.count,
                     Seconds(it.period_s), Seconds(it.min_s), Seconds(it.median_s), Seconds(it.max_s),
                     it.confidence);
    o += fmt::format("  found by: {} {}{}\n", it.marker ? "marker" : "MPI call", it.anchor,
                     it.group > 1 ? fmt::format(" (every {} occurrences)", it.group) : "");
    if (!it.tried.empty() && !it.tried.front().nested_in.empty())
      o += fmt::format("  (durations too irregular alone, but a strict part of each iteration of {})\n",
                       it.tried.front().nested_in);
    o += fmt::format("  loop {} .. {}; start-up {}{}, tear-down {}{}\n", Seconds(it.loop_begin_s),
                     Seconds(it.loop_end_s), Seconds(it.startup_s),
                     it.startup_iterations > 0 ? fmt::format(" (with {} irregular iterations)", it.startup_iterations) : "",
                     Seconds(it.teardown_s),
                     it.teardown_iterations > 0 ? fmt::format(" (with {} irregular iterations)", it.teardown_iterations) : "");
    o += "  variability per rank (coefficient of variation of the iteration durations):\n   ";
    for (size_t r = 0; r < s.ranks.size() && r < it.variability_by_rank.size(); ++r) {
      if (r > 0 && r % 8 == 0) o += "\n   ";
      o += fmt::format(" {}:{:.1f}%", s.ranks[r], 100 * it.variability_by_rank[r]);
    }
    o += "\n";
  }
  if (!s.phases.empty()) {
    o += fmt::format("\nPhases ({} MPI calls per iteration; computation of at least 2% of an iteration)\n",
                     s.calls_per_iteration);
    o += fmt::format("  {:>4}  {:<22} {:<22} {:>10} {:>7} {:>10} {:>8}\n", "pos", "after", "before", "mean",
                     "share", "imbalance", "cluster");
    for (const StructurePhase& p : s.phases)
      o += fmt::format("  {:>4}  {:<22} {:<22} {:>10} {:>6.1f}% {:>9.1f}% {:>8}\n", p.position, p.after_call,
                       p.before_call.empty() ? "(next iteration)" : p.before_call, Seconds(p.mean_s), 100 * p.share,
                       100 * p.imbalance, p.cluster > 0 ? std::to_string(p.cluster) : "-");
  }
  o += fmt::format("\nBurst clusters (DBSCAN on {}; eps {:.4f}, min points {}; {} bursts, those under {} filtered)\n",
                   s.features, s.eps, s.min_points, s.bursts_total, Seconds(s.min_duration_s));
  o += fmt::format("  {:>7}  {:>9} {:>12} {:>12} {:>6} {:>13} {:>10}\n", "cluster", "bursts", "time",
                   "mean", "IPC", "instructions", "imbalance");
  auto row = [&](const std::string& name, const BurstCluster& c) {
    o += fmt::format("  {:>7}  {:>9} {:>12} {:>12} {:>6} {:>13} {:>9.1f}%\n", name, c.bursts, Seconds(c.time_s),
                     Seconds(c.mean_duration_s), Ipc(c.mean_ipc), Instructions(c.mean_instructions),
                     100 * c.imbalance);
  };
  for (const BurstCluster& c : s.clusters) row(std::to_string(c.id), c);
  if (s.noise.bursts > 0) row("noise", s.noise);
  if (s.filtered.bursts > 0) row("filtered", s.filtered);
  if (s.missing.bursts > 0) row("missing", s.missing);
  for (const std::string& n : s.notes) o += "\nnote: " + n + "\n";
  return o;
}

std::string FormatStructureJson(const ProgramStructure& s) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["trace"] = s.trace;
  j["ranks"] = s.ranks;
  const IterationsInfo& it = s.iterations;
  ordered_json its;
  its["found"] = it.found;
  its["count"] = it.count;
  its["period_s"] = it.period_s;
  its["min_s"] = it.min_s;
  its["median_s"] = it.median_s;
  its["max_s"] = it.max_s;
  its["mean_s"] = it.mean_s;
  its["confidence"] = it.confidence;
  its["anchor"] = it.anchor;
  its["method"] = !it.found ? "none" : it.marker ? "marker" : "mpi";
  its["group"] = it.group;
  its["loop_begin_s"] = it.loop_begin_s;
  its["loop_end_s"] = it.loop_end_s;
  its["startup_s"] = it.startup_s;
  its["teardown_s"] = it.teardown_s;
  its["startup_iterations"] = it.startup_iterations;
  its["teardown_iterations"] = it.teardown_iterations;
  its["variability_by_rank"] = it.variability_by_rank;
  ordered_json items = ordered_json::array();
  for (const IterationItem& x : it.items) {
    ordered_json i;
    i["begin_s"] = x.begin_s;
    i["end_s"] = x.end_s;
    i["begin"] = x.begin;
    i["end"] = x.end;
    i["begin_by_rank"] = x.begin_by_rank;
    i["end_by_rank"] = x.end_by_rank;
    items.push_back(std::move(i));
  }
  its["items"] = std::move(items);
  if (!it.found) its["why_none"] = it.why_none;
  ordered_json tried = ordered_json::array();
  for (const IterationCandidate& c : it.tried) {
    ordered_json t;
    t["name"] = c.name;
    t["marker"] = c.marker;
    t["occurrences"] = c.occurrences;
    t["group"] = c.group;
    t["iterations"] = c.iterations;
    t["steady"] = c.steady;
    t["spread"] = c.spread;
    t["coverage"] = c.coverage;
    t["consistency"] = c.consistency;
    t["rejected"] = c.rejected;
    if (!c.nested_in.empty()) t["nested_in"] = c.nested_in;
    tried.push_back(std::move(t));
  }
  its["tried"] = std::move(tried);
  j["iterations"] = std::move(its);
  ordered_json phases = ordered_json::array();
  for (const StructurePhase& p : s.phases) {
    ordered_json x;
    x["position"] = p.position;
    x["after_call"] = p.after_call;
    x["before_call"] = p.before_call;
    x["mean_s"] = p.mean_s;
    x["share"] = p.share;
    x["imbalance"] = p.imbalance;
    x["cluster"] = p.cluster;
    phases.push_back(std::move(x));
  }
  j["calls_per_iteration"] = s.calls_per_iteration;
  j["phases"] = std::move(phases);
  auto cluster = [&](const BurstCluster& c) {
    ordered_json x;
    x["id"] = c.id;
    x["bursts"] = c.bursts;
    x["time_s"] = c.time_s;
    x["mean_duration_s"] = c.mean_duration_s;
    x["mean_ipc"] = c.mean_ipc >= 0 ? ordered_json(c.mean_ipc) : ordered_json();
    x["mean_instructions"] = c.mean_instructions >= 0 ? ordered_json(c.mean_instructions) : ordered_json();
    x["imbalance"] = c.imbalance;
    ordered_json by = ordered_json::object();
    for (size_t r = 0; r < s.ranks.size() && r < c.time_by_rank_s.size(); ++r) by[s.ranks[r]] = c.time_by_rank_s[r];
    x["time_by_rank_s"] = std::move(by);
    return x;
  };
  ordered_json clusters = ordered_json::array();
  for (const BurstCluster& c : s.clusters) clusters.push_back(cluster(c));
  j["clusters"] = std::move(clusters);
  j["noise"] = cluster(s.noise);
  j["filtered"] = cluster(s.filtered);
  j["missing"] = cluster(s.missing);
  ordered_json params;
  params["features"] = s.features;
  params["counters"] = s.counters;
  params["eps"] = s.eps;
  params["min_points"] = s.min_points;
  params["min_duration_s"] = s.min_duration_s;
  params["bursts"] = s.bursts_total;
  j["clustering"] = std::move(params);
  j["notes"] = s.notes;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace parallax
