#include "src/structure/phases.h"

#include <algorithm>
#include <map>

namespace parallax::structure {

namespace {

using CallSpans = std::vector<std::vector<std::pair<uint32_t, uint32_t>>>;

// The calls of each (iteration, unit): [first, last) indices into the rank's calls; and the
// commonest count of calls per iteration (0: none).
uint32_t SpanIterations(const calls::CallTable& table, const Iterations& its, CallSpans* span) {
  const size_t units = its.unit_threads.size();
  span->assign(its.count(), std::vector<std::pair<uint32_t, uint32_t>>(units));
  std::map<uint32_t, uint64_t> counts;
  // A unit's iterations follow each other in time: one forward walk over its calls finds the
  // first call from each begin and end (a search per iteration would miss the cache each time).
  for (size_t u = 0; u < units && u < table.ranks.size(); ++u) {
    const auto& calls = table.ranks[u].calls;
    uint32_t at = 0;
    auto first_from = [&](Time t) {
      if (at > 0 && calls[at - 1].entry >= t) at = calls::FirstCallFrom(calls, t);  // not in order
      while (at < calls.size() && calls[at].entry < t) ++at;
      return at;
    };
    for (size_t i = 0; i < its.count(); ++i) {
      const uint32_t a = first_from(its.Begin(i, u));
      const uint32_t b = first_from(its.End(i, u));
      (*span)[i][u] = {a, b};
      ++counts[b - a];
    }
  }
  uint32_t k = 0;
  uint64_t most = 0;
  for (const auto& [c, n] : counts)
    if (n > most) {
      most = n;
      k = c;
    }
  return k;
}

}  // namespace

std::vector<std::vector<uint16_t>> PhaseOfCalls(const calls::CallTable& table, const Iterations& its,
                                                const Phases& phases) {
  std::vector<std::vector<uint16_t>> out(table.ranks.size());
  for (size_t r = 0; r < table.ranks.size(); ++r) out[r].assign(table.ranks[r].calls.size(), 0);
  if (!its.found || phases.phases.empty() || phases.calls_per_iteration == 0) return out;
  CallSpans span;
  const uint32_t k = SpanIterations(table, its, &span);
  if (k != phases.calls_per_iteration) return out;
  std::vector<uint16_t> of_position(k, 0);
  for (size_t i = 0; i < phases.phases.size() && i < UINT16_MAX; ++i)
    if (phases.phases[i].position < k) of_position[phases.phases[i].position] = static_cast<uint16_t>(i + 1);
  for (size_t i = 0; i < span.size(); ++i)
    for (size_t u = 0; u < span[i].size() && u < out.size(); ++u) {
      const auto [a, b] = span[i][u];
      if (b - a != k) continue;
      for (uint32_t p = 0; p < k; ++p) out[u][a + p] = of_position[p];
    }
  return out;
}

Phases FindPhases(const calls::CallTable& table, const Iterations& its, const BurstTable& bursts,
                  const Clustering& clustering, const model::PcfCatalog* pcf) {
  Phases out;
  if (!its.found || table.ranks.empty() || its.count() == 0) return out;
  const size_t units = its.unit_threads.size();
  CallSpans span;
  const uint32_t k = SpanIterations(table, its, &span);
  if (k == 0) return out;
  out.calls_per_iteration = k;
  // Bursts per thread, for the clusters.
  std::vector<std::vector<uint32_t>> by_thread;
  for (uint32_t b = 0; b < bursts.bursts.size(); ++b) {
    const uint32_t t = bursts.bursts[b].thread;
    if (t >= by_thread.size()) by_thread.resize(t + 1);
    by_thread[t].push_back(b);
  }
  std::vector<double> total(k, 0), iteration_total;
  std::vector<std::vector<double>> by_unit(k, std::vector<double>(units, 0));
  std::vector<std::vector<uint64_t>> n_by_unit(k, std::vector<uint64_t>(units, 0));
  std::vector<std::map<int32_t, double>> cluster_time(k);
  double iterations_time = 0;
  for (size_t i = 0; i < its.count(); ++i)
    for (size_t u = 0; u < units; ++u) {
      const auto [a, b] = span[i][u];
      if (b - a != k) continue;
      ++out.iterations_used;
      const auto& calls = table.ranks[u].calls;
      const Time end = its.End(i, u);
      iterations_time += double(end - its.Begin(i, u));
      for (uint32_t p = 0; p < k; ++p) {
        const Time from = calls[a + p].exit;
        const Time to = p + 1 < k ? calls[a + p + 1].entry : end;
        const double d = to > from ? double(to - from) : 0;
        total[p] += d;
        by_unit[p][u] += d;
        ++n_by_unit[p][u];
        // The clusters of the bursts that begin within it.
        const uint32_t thread = its.unit_threads[u];
        if (thread >= by_thread.size()) continue;
        const auto& list = by_thread[thread];
        auto it = std::lower_bound(list.begin(), list.end(), from,
                                   [&](uint32_t x, Time t) { return bursts.bursts[x].begin < t; });
        for (; it != list.end() && bursts.bursts[*it].begin < to; ++it)
          cluster_time[p][clustering.label[*it]] += double(bursts.bursts[*it].duration());
      }
    }
  if (out.iterations_used == 0) return out;
  const double mean_iteration = iterations_time / double(out.iterations_used);
  for (uint32_t p = 0; p < k; ++p) {
    Phase ph;
    ph.position = p;
    ph.samples = out.iterations_used;
    ph.mean = total[p] / double(out.iterations_used);
    ph.share = mean_iteration > 0 ? ph.mean / mean_iteration : 0;
    if (ph.share < 0.02) continue;
    // The calls around it, from the first rank's first iteration of the commonest shape.
    for (size_t i = 0; i < its.count() && ph.after_call.empty(); ++i)
      for (size_t u = 0; u < units && ph.after_call.empty(); ++u) {
        const auto [a, b] = span[i][u];
        if (b - a != k) continue;
        ph.after_call = calls::CallName(pcf, table.ranks[u].calls[a + p]);
        ph.before_call = p + 1 < k ? calls::CallName(pcf, table.ranks[u].calls[a + p + 1]) : "";
      }
    ph.mean_by_unit.resize(units, 0);
    double max_unit = 0, sum_unit = 0;
    size_t with = 0;
    for (size_t u = 0; u < units; ++u) {
      if (n_by_unit[p][u] == 0) continue;
      ph.mean_by_unit[u] = by_unit[p][u] / double(n_by_unit[p][u]);
      max_unit = std::max(max_unit, ph.mean_by_unit[u]);
      sum_unit += ph.mean_by_unit[u];
      ++with;
    }
    ph.imbalance = with > 0 && sum_unit > 0 ? max_unit / (sum_unit / double(with)) - 1 : 0;
    double best = -1;
    for (const auto& [label, t] : cluster_time[p])
      if (t > best) {
        best = t;
        ph.cluster = label;
      }
    out.phases.push_back(std::move(ph));
  }
  return out;
}

}  // namespace parallax::structure
