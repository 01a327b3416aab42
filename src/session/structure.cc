// parallax::AnalyzeStructure: bursts, clusters, iterations and phases of a loaded trace
// (src/structure), turned into the public plain values, and the trace written back with them.

#include "include/parallax/structure.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "src/calls/call_table.h"
#include "src/session/trace_impl.h"
#include "src/structure/bursts.h"
#include "src/structure/clusters.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"
#include "src/structure/stats.h"

namespace parallax {

namespace {

// rank_of_thread: per global thread, the unit (rank) whose task it belongs to, or UINT32_MAX.
BurstCluster Summary(const structure::ClusterSummary& c, int32_t id, double unit,
                     const std::vector<uint32_t>& rank_of_thread, size_t ranks) {
  BurstCluster b;
  b.id = id;
  b.bursts = c.bursts;
  b.time_s = double(c.total) * unit;
  b.mean_duration_s = c.mean_duration * unit;
  b.mean_ipc = c.mean_ipc;
  b.mean_instructions = c.mean_instructions;
  // Time per rank: the threads of each rank's task.
  b.time_by_rank_s.assign(ranks, 0);
  for (size_t t = 0; t < c.time_by_thread.size() && t < rank_of_thread.size(); ++t)
    if (rank_of_thread[t] != UINT32_MAX) b.time_by_rank_s[rank_of_thread[t]] += double(c.time_by_thread[t]) * unit;
  double sum = 0, max = 0;
  size_t with = 0;
  for (double v : b.time_by_rank_s)
    if (v > 0) {
      sum += v;
      max = std::max(max, v);
      ++with;
    }
  b.imbalance = with > 0 && sum > 0 ? max / (sum / double(with)) - 1 : 0;
  return b;
}

}  // namespace

Result<ProgramStructure> AnalyzeStructure(const Trace& trace, const StructureOptions& options) {
  const auto* impl = dynamic_cast<const session::TraceImpl*>(&trace);
  if (impl == nullptr) return Status::Error("structure: the trace was not opened by parallax::Trace::Open");
  return session::GuardedOn(trace, impl->path(), [&]() -> Result<ProgramStructure> {
    ProgramStructure out;
    out.trace = impl->path();
    const model::TraceHeader& h = impl->header();
    const store::TraceStore& store = impl->store();
    const model::PcfCatalog* pcf = impl->pcf();
    const model::ProcessModel& p = h.processes;
    const double unit = model::ConvertTime(1, h.unit, model::TimeUnit::kS);
    calls::CallTable own;
    const calls::CallTable* table = &impl->CallTable(&own);
    structure::IterationOptions io;
    io.worker_threads = 0;
    if (options.marker_type) io.marker = structure::MarkerSpec{*options.marker_type, options.marker_value};
    const structure::Iterations its = structure::FindIterations(h, store, pcf, *table, io);
    structure::BurstOptions bo;
    bo.worker_threads = 0;
    const structure::BurstTable bursts = structure::ReadBursts(store, pcf, bo);
    structure::ClusterOptions co;
    co.eps = options.eps;
    co.min_points = options.min_points;
    co.min_duration = options.min_duration;
    co.use_counters = !options.duration_only;
    const structure::Clustering cl = structure::ClusterBursts(bursts, static_cast<uint32_t>(store.threads()), co);
    const structure::Phases phases = structure::FindPhases(*table, its, bursts, cl, pcf);

    out.rank_threads = its.unit_threads;
    for (uint32_t t : its.unit_threads)
      out.ranks.push_back(model::DefaultTaskLabel(p, p.thread(model::ThreadIndex(t)).task));
    // Iterations.
    IterationsInfo& ii = out.iterations;
    ii.found = its.found;
    ii.why_none = its.why_none;
    for (const structure::Candidate& c : its.tried) {
      IterationCandidate ic{c.name, c.marker, c.occurrences, c.iterations, c.steady, c.group,
                            c.spread, c.coverage, c.consistency, c.rejected, c.nested_in};
      ii.tried.push_back(std::move(ic));
    }
    if (its.found) {
      ii.anchor = its.anchor.name;
      ii.marker = its.anchor.marker;
      ii.group = its.anchor.group;
      ii.count = its.count();
      ii.confidence = its.confidence;
      ii.startup_iterations = its.startup_iterations;
      ii.teardown_iterations = its.teardown_iterations;
      std::vector<double> d;
      for (size_t i = 0; i < its.count(); ++i) {
        IterationItem item;
        item.begin = its.SpanBegin(i);
        item.end = its.SpanEnd(i);
        item.begin_s = double(item.begin) * unit;
        item.end_s = double(item.end) * unit;
        for (size_t u = 0; u < its.unit_threads.size(); ++u) {
          item.begin_by_rank.push_back(its.Begin(i, u));
          item.end_by_rank.push_back(its.End(i, u));
        }
        d.push_back(item.end_s - item.begin_s);
        ii.items.push_back(std::move(item));
      }
      std::vector<double> sorted = d;
      std::sort(sorted.begin(), sorted.end());
      ii.min_s = sorted.front();
      ii.max_s = sorted.back();
      ii.median_s = sorted[sorted.size() / 2];
      ii.period_s = ii.median_s;
      double sum = 0;
      for (double v : d) sum += v;
      ii.mean_s = sum / double(d.size());
      ii.loop_begin_s = double(its.startup_end) * unit;
      ii.loop_end_s = double(its.teardown_begin) * unit;
      ii.startup_s = double(its.startup_end - std::min(its.startup_end, its.run_begin)) * unit;
      ii.teardown_s = double(std::max(its.run_end, its.teardown_begin) - its.teardown_begin) * unit;
      std::vector<double> rank_d(its.count());
      for (size_t u = 0; u < its.unit_threads.size(); ++u) {
        for (size_t i = 0; i < its.count(); ++i) rank_d[i] = double(its.End(i, u) - its.Begin(i, u));
        ii.variability_by_rank.push_back(structure::Variation(rank_d));
      }
    }
    // Phases.
    out.calls_per_iteration = phases.calls_per_iteration;
    for (const structure::Phase& ph : phases.phases) {
      StructurePhase x{ph.position, ph.after_call, ph.before_call, ph.mean * unit, ph.share, ph.imbalance,
                       ph.cluster >= 0 ? ph.cluster + 1 : 0, {}};
      for (double v : ph.mean_by_unit) x.mean_by_rank_s.push_back(v * unit);
      out.phases.push_back(std::move(x));
    }
    // Clusters.
    out.features = cl.features;
    out.counters = cl.counters;
    out.eps = cl.eps;
    out.min_points = cl.min_points;
    out.min_duration_s = double(cl.min_duration) * unit;
    out.bursts_total = bursts.bursts.size();
    std::vector<uint32_t> rank_of_task(p.tasks(), UINT32_MAX), rank_of_thread(p.threads(), UINT32_MAX);
    for (size_t r = 0; r < out.rank_threads.size(); ++r)
      rank_of_task[p.thread(model::ThreadIndex(out.rank_threads[r])).task.value] = static_cast<uint32_t>(r);
    for (uint32_t t = 0; t < p.threads(); ++t) rank_of_thread[t] = rank_of_task[p.thread(model::ThreadIndex(t)).task.value];
    const size_t nranks = out.rank_threads.size();
    for (size_t c = 0; c < cl.clusters.size(); ++c)
      out.clusters.push_back(Summary(cl.clusters[c], static_cast<int32_t>(c + 1), unit, rank_of_thread, nranks));
    out.noise = Summary(cl.noise, 0, unit, rank_of_thread, nranks);
    out.filtered = Summary(cl.filtered, 0, unit, rank_of_thread, nranks);
    out.missing = Summary(cl.missing, 0, unit, rank_of_thread, nranks);
    const bool has_counters = bursts.instructions_type != 0 && bursts.cycles_type != 0;
    if (!cl.counters)
      out.notes.push_back(has_counters ? "bursts clustered by duration only, as asked"
                                       : "bursts clustered by duration only (the trace has no instructions and cycles counters)");
    if (bursts.bursts.empty()) out.notes.push_back("the trace has no Running state: no burst to cluster");
    if (options.bursts) {
      auto& b = out.bursts;
      for (size_t i = 0; i < bursts.bursts.size(); ++i) {
        const structure::Burst& x = bursts.bursts[i];
        b.thread.push_back(x.thread);
        b.cpu.push_back(x.cpu);
        b.begin.push_back(x.begin);
        b.end.push_back(x.end);
        const int32_t l = cl.label[i];
        b.cluster.push_back(l >= 0                            ? l + 1
                            : l == structure::kLabelNoise    ? 0
                            : l == structure::kLabelFiltered ? -1
                                                             : -2);
        b.instructions.push_back(x.instructions);
        b.ipc.push_back(x.ipc());
      }
    }
    return out;
  });
}

Result<TimeSpan> IterationSpan(const ProgramStructure& s, uint64_t first, uint64_t last) {
  const IterationsInfo& it = s.iterations;
  if (!it.found) return Status::Error("no iterations found in " + s.trace, {s.trace}, it.why_none);
  if (first < 1 || last < first || last > it.count)
    return Status::Error(fmt::format("iterations {}..{} are not within 1..{}", first, last, it.count), {s.trace},
                         "parallax structure lists them");
  return TimeSpan{it.items[first - 1].begin, it.items[last - 1].end};
}

Result<TimeSpan> RepresentativeSpan(const ProgramStructure& s, uint64_t count) {
  const IterationsInfo& it = s.iterations;
  if (!it.found) return Status::Error("no iterations found in " + s.trace, {s.trace}, it.why_none);
  if (count < 1 || count > it.count)
    return Status::Error(fmt::format("{} representative iterations asked, the run has {}", count, it.count),
                         {s.trace}, "ask for fewer");
  std::vector<double> d;
  for (const IterationItem& x : it.items) d.push_back(x.end_s - x.begin_s);
  std::vector<double> sorted = d;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  double best = -1;
  size_t at = 0;
  double window = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    window += std::fabs(d[i] - median);
    if (i >= count) window -= std::fabs(d[i - count] - median);
    if (i + 1 >= count && (best < 0 || window < best - 1e-12)) {
      best = window;
      at = i + 1 - count;
    }
  }
  return TimeSpan{it.items[at].begin, it.items[at + count - 1].end};
}

Result<ToolReport> WriteStructureTrace(const Trace& trace, const ProgramStructure& s, const ToolRun& run) {
  const auto* impl = dynamic_cast<const session::TraceImpl*>(&trace);
  if (impl == nullptr) return Status::Error("structure: the trace was not opened by parallax::Trace::Open");
  const model::ProcessModel& p = impl->header().processes;
  if (s.bursts.begin.size() != s.bursts_total)
    return Status::Error("structure: the bursts were not kept (StructureOptions::bursts)");
  AnnotateOptions a;
  auto ids = [&](uint32_t thread, AddedEvent& e) {
    const model::ThreadInfo& info = p.thread(model::ThreadIndex(thread));
    e.appl = info.appl.value + 1;
    e.task = info.task.value - p.appl(info.appl).first_task.value + 1;
    e.thread = info.number_in_task + 1;
  };
  std::vector<uint32_t> cpu_of_thread(p.threads(), 0);  // the first burst's, for the iterations
  for (size_t i = s.bursts.begin.size(); i-- > 0;)
    if (s.bursts.thread[i] < cpu_of_thread.size()) cpu_of_thread[s.bursts.thread[i]] = s.bursts.cpu[i];
  for (size_t i = 0; i < s.bursts.begin.size(); ++i) {
    AddedEvent begin, end;
    ids(s.bursts.thread[i], begin);
    begin.cpu = s.bursts.cpu[i];
    end = begin;
    begin.time = s.bursts.begin[i];
    end.time = s.bursts.end[i];
    begin.type = end.type = kClusterIdEventType;
    const int32_t c = s.bursts.cluster[i];
    begin.value = c > 0 ? c + 5 : c == 0 ? 5 : c == -1 ? 2 : 1;
    end.value = 0;
    a.events.push_back(begin);
    a.events.push_back(end);
  }
  const IterationsInfo& it = s.iterations;
  for (size_t i = 0; i < it.items.size(); ++i)
    for (size_t u = 0; u < s.rank_threads.size(); ++u) {
      AddedEvent e;
      ids(s.rank_threads[u], e);
      e.cpu = cpu_of_thread[s.rank_threads[u]];
      e.type = kIterationEventType;
      e.time = it.items[i].begin_by_rank[u];
      e.value = static_cast<int64_t>(i + 1);
      a.events.push_back(e);
      if (i + 1 == it.items.size()) {
        e.time = it.items[i].end_by_rank[u];
        e.value = 0;
        a.events.push_back(e);
      }
    }
  std::stable_sort(a.events.begin(), a.events.end(), [](const AddedEvent& x, const AddedEvent& y) { return x.time < y.time; });
  std::string clusters = fmt::format("EVENT_TYPE\n0    {}    Cluster ID\nVALUES\n0      End\n1      Missing Data\n"
                                     "2      Duration Filtered\n3      Range Filtered\n4      Threshold Filtered\n5      Noise\n",
                                     kClusterIdEventType);
  for (const BurstCluster& c : s.clusters) clusters += fmt::format("{}      Cluster {}\n", c.id + 5, c.id);
  a.pcf_sections.push_back({kClusterIdEventType, clusters});
  std::string iterations = fmt::format("EVENT_TYPE\n0    {}    Iteration\nVALUES\n0      End\n", kIterationEventType);
  for (size_t i = 0; i < it.items.size(); ++i) iterations += fmt::format("{}      Iteration {}\n", i + 1, i + 1);
  a.pcf_sections.push_back({kIterationEventType, iterations});
  return AnnotateTrace(run, a);
}

}  // namespace parallax
