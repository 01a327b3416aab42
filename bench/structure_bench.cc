// parallax-structure-bench: the steps of `parallax structure` timed on a loaded trace.
//
//   parallax-structure-bench TRACE [--repeat N] [--compact] [--threads N]
//
// Loads the trace once (from its cache when there is one; with --compact, compact records),
// then runs each step N times with N worker threads (default: all cores): the call table, the
// iterations (markers and MPI anchors), the bursts (Running states and their counters), the
// clustering and the phases. Prints the best wall and calling-thread cpu time of each, bursts
// per second and the bytes per burst.

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_timing.h"
#include "src/base/parallel.h"
#include "src/calls/call_table.h"
#include "src/session/trace_impl.h"
#include "src/structure/bursts.h"
#include "src/structure/clusters.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"

using parallax::bench::Best;
using parallax::bench::Timed;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parallax-structure-bench TRACE [--repeat N] [--compact] [--threads N]\n");
    return 2;
  }
  int repeat = 3;
  unsigned threads = 0;
  parallax::LoadOptions load;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    if (a == "--threads" && i + 1 < argc) threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    if (a == "--compact") load.compact = true;
  }
  if (threads == 0) threads = parallax::base::DefaultThreads();
  const auto load_start = std::chrono::steady_clock::now();
  auto trace = parallax::session::OpenTrace(argv[1], load);
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.status().ToString().c_str());
    return 1;
  }
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  const auto& t = *trace.value();
  namespace c = parallax::calls;
  namespace s = parallax::structure;
  Best table_time, iter_time, burst_time, cluster_time, phase_time;
  size_t bursts = 0, clusters = 0, iterations = 0, phases = 0;
  for (int i = 0; i < repeat; ++i) {
    c::CallTable table = Timed(table_time, [&] { return c::BuildCallTable(t.header(), t.store(), t.pcf(), {threads, parallax::structure::MarkerTypes()}); });
    s::IterationOptions io;
    io.worker_threads = threads;
    s::Iterations its = Timed(iter_time, [&] { return s::FindIterations(t.header(), t.store(), t.pcf(), table, io); });
    s::BurstOptions bo;
    bo.worker_threads = threads;
    s::BurstTable table_b = Timed(burst_time, [&] { return s::ReadBursts(t.store(), t.pcf(), bo); });
    s::Clustering cl = Timed(cluster_time, [&] {
      return s::ClusterBursts(table_b, static_cast<uint32_t>(t.store().threads()));
    });
    s::Phases ph = Timed(phase_time, [&] { return s::FindPhases(table, its, table_b, cl, t.pcf()); });
    bursts = table_b.bursts.size();
    clusters = cl.clusters.size();
    iterations = its.count();
    phases = ph.phases.size();
  }
  const double wall = table_time.wall + iter_time.wall + burst_time.wall + cluster_time.wall + phase_time.wall;
  fmt::print("trace {}{}: loaded in {:.2f} s; {} threads\n", argv[1], load.compact ? " (compact records)" : "",
             load_s, threads);
  fmt::print("call table   wall {:.3f} s  cpu {:.3f} s\n", table_time.wall, table_time.cpu);
  fmt::print("iterations   wall {:.3f} s  cpu {:.3f} s  ({} iterations)\n", iter_time.wall, iter_time.cpu, iterations);
  fmt::print("bursts       wall {:.3f} s  cpu {:.3f} s  ({} bursts, {:.1f} M/s)\n", burst_time.wall, burst_time.cpu,
             bursts, static_cast<double>(bursts) / burst_time.wall / 1e6);
  fmt::print("clustering   wall {:.3f} s  cpu {:.3f} s  ({} clusters)\n", cluster_time.wall, cluster_time.cpu, clusters);
  fmt::print("phases       wall {:.3f} s  cpu {:.3f} s  ({} phases)\n", phase_time.wall, phase_time.cpu, phases);
  fmt::print("total        wall {:.3f} s; {} B per burst\n", wall, sizeof(s::Burst));
  return 0;
}
