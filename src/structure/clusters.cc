#include "src/structure/clusters.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/structure/dbscan.h"
#include "src/structure/stats.h"

namespace parallax::structure {

namespace {

// Scales one coordinate: the 1st..99th percentile range maps to [0, 1], but a range narrower
// than `least` (a decade of instructions, one IPC unit) is widened to it, so that noise within
// one behaviour is not stretched into separate clusters.
void Scale(std::vector<double>& v, double least) {
  if (v.empty()) return;
  const double lo = Quantile(v, 0.01), hi = Quantile(v, 0.99);
  const double mid = (lo + hi) / 2, range = std::max(hi - lo, least);
  for (double& x : v) x = (x - mid) / range + 0.5;
}

void Add(ClusterSummary& s, const Burst& b, uint32_t threads) {
  ++s.bursts;
  s.total += b.duration();
  if (s.time_by_thread.empty()) s.time_by_thread.assign(threads, 0);
  if (b.thread < threads) s.time_by_thread[b.thread] += b.duration();
}

}  // namespace

Clustering ClusterBursts(const BurstTable& table, uint32_t threads, const ClusterOptions& options) {
  Clustering out;
  const std::vector<Burst>& bursts = table.bursts;
  out.label.assign(bursts.size(), kLabelFiltered);
  if (bursts.empty()) return out;
  // The duration filter.
  if (options.min_duration >= 0) {
    out.min_duration = static_cast<Time>(options.min_duration);
  } else {
    std::vector<Time> d(bursts.size());
    for (size_t i = 0; i < bursts.size(); ++i) d[i] = bursts[i].duration();
    std::sort(d.begin(), d.end());
    const double total = std::accumulate(d.begin(), d.end(), 0.0);
    double sum = 0;
    Time cut = 0;
    for (Time x : d) {
      if (sum + double(x) > 0.01 * total) break;
      sum += double(x);
      cut = x + 1;
    }
    out.min_duration = cut;
  }
  out.counters = options.use_counters && table.instructions_type != 0 && table.cycles_type != 0;
  std::vector<uint32_t> kept;
  for (uint32_t i = 0; i < bursts.size(); ++i) {
    const Burst& b = bursts[i];
    if (b.duration() < out.min_duration) continue;
    if (out.counters && (b.instructions <= 0 || b.cycles <= 0)) {
      out.label[i] = kLabelMissing;  // cannot be placed
      continue;
    }
    kept.push_back(i);
  }
  out.features = out.counters ? "log10(instructions), IPC" : "log10(duration)";
  std::vector<double> xs(kept.size()), ys(kept.size(), 0.0);
  for (size_t k = 0; k < kept.size(); ++k) {
    const Burst& b = bursts[kept[k]];
    xs[k] = std::log10(out.counters ? double(b.instructions) : double(std::max<Time>(b.duration(), 1)));
    if (out.counters) ys[k] = b.ipc();
  }
  Scale(xs, 1.0);
  if (out.counters) Scale(ys, 1.0);
  std::vector<Point2> points(kept.size());
  for (size_t k = 0; k < kept.size(); ++k) points[k] = {xs[k], out.counters ? ys[k] : 0.0};
  out.min_points = options.min_points != 0
                       ? options.min_points
                       : static_cast<uint32_t>(std::clamp<size_t>(kept.size() / 200, 4, 50));
  out.eps = options.eps > 0 ? options.eps : std::clamp(KneeEpsilon(points, out.min_points), 0.005, 0.2);
  const std::vector<int32_t> labels = Dbscan(points, out.eps, out.min_points);
  // Clusters renumbered by total time, the longest first (ties: first found first).
  int32_t found = 0;
  for (int32_t l : labels) found = std::max(found, l + 1);
  std::vector<double> total(static_cast<size_t>(found), 0.0);
  for (size_t k = 0; k < kept.size(); ++k)
    if (labels[k] >= 0) total[static_cast<size_t>(labels[k])] += double(bursts[kept[k]].duration());
  std::vector<int32_t> rank(static_cast<size_t>(found));
  std::iota(rank.begin(), rank.end(), 0);
  std::stable_sort(rank.begin(), rank.end(), [&](int32_t a, int32_t b) { return total[a] > total[b]; });
  std::vector<int32_t> renumber(static_cast<size_t>(found));
  for (int32_t r = 0; r < found; ++r) renumber[static_cast<size_t>(rank[r])] = r;
  for (size_t k = 0; k < kept.size(); ++k)
    out.label[kept[k]] = labels[k] >= 0 ? renumber[static_cast<size_t>(labels[k])] : kLabelNoise;
  // Summaries.
  out.clusters.resize(static_cast<size_t>(found));
  std::vector<double> ins(static_cast<size_t>(found), 0), cyc(static_cast<size_t>(found), 0);
  std::vector<uint64_t> counted(static_cast<size_t>(found), 0);
  for (size_t i = 0; i < bursts.size(); ++i) {
    const int32_t l = out.label[i];
    const Burst& b = bursts[i];
    if (l == kLabelFiltered) {
      Add(out.filtered, b, threads);
    } else if (l == kLabelMissing) {
      Add(out.missing, b, threads);
    } else if (l == kLabelNoise) {
      Add(out.noise, b, threads);
    } else {
      Add(out.clusters[static_cast<size_t>(l)], b, threads);
      if (b.instructions >= 0 && b.cycles > 0) {
        ins[static_cast<size_t>(l)] += double(b.instructions);
        cyc[static_cast<size_t>(l)] += double(b.cycles);
        ++counted[static_cast<size_t>(l)];
      }
    }
  }
  auto finish = [](ClusterSummary& s) {
    if (s.bursts > 0) s.mean_duration = double(s.total) / double(s.bursts);
  };
  for (size_t c = 0; c < out.clusters.size(); ++c) {
    ClusterSummary& s = out.clusters[c];
    finish(s);
    if (counted[c] > 0) {
      s.mean_instructions = ins[c] / double(counted[c]);
      s.mean_ipc = cyc[c] > 0 ? ins[c] / cyc[c] : -1;
    }
  }
  finish(out.noise);
  finish(out.filtered);
  finish(out.missing);
  return out;
}

}  // namespace parallax::structure
