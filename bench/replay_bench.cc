// parallax-replay-bench: MPI call events replayed per second on one core.
//
//   parallax-replay-bench TRACE [--repeat N]
//
// Loads the trace once, builds the replay program (timed separately), then replays it N times on
// the ideal machine and on a 5 us / 1000 MB/s network with one link per node, and prints the
// best wall and thread-cpu time of each (the cpu time is what one core does when the machine is
// shared). The replay is single-threaded; the figure is MPI call events (entries and
// exits of events 50000001-50000005) per second of simulation. Messages are sent eagerly (see
// below).

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "src/replay/engine.h"
#include "src/replay/machine_model.h"
#include "src/replay/program.h"
#include "src/session/trace_impl.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// CPU time of this thread: on a loaded machine the wall time says more about the neighbours.
double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parallax-replay-bench TRACE [--repeat N]\n");
    return 2;
  }
  int repeat = 5;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
  auto trace = parallax::session::OpenTrace(argv[1], {});
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.status().ToString().c_str());
    return 1;
  }
  const auto& t = *trace.value();
  namespace r = parallax::replay;
  auto start = std::chrono::steady_clock::now();
  r::Program program = r::BuildProgram(t.header(), t.store(), t.pcf(), {true, 1, false});
  const double build = Seconds(start);
  fmt::print("trace {}: {} MPI processes, {} MPI call events, {} messages\n", argv[1],
             program.processes.size(), program.mpi_events, program.messages);
  fmt::print("build program (1 thread): {:.3f} s ({:.1f} M MPI events/s)\n", build,
             program.mpi_events / build / 1e6);
  const double ups =
      parallax::model::ConvertTime(1, parallax::model::TimeUnit::kS, t.header().unit);
  // The generator's blocking halo exchange only completes when its messages go eagerly (under
  // a 32 KiB limit it is a rendezvous cycle, a deadlock): every model sends eagerly.
  r::MachineModel ideal = r::IdealMachine();
  ideal.eager_limit = INT64_MAX;
  r::MachineModel network = ideal;
  network.inter_node.latency_s = network.intra_node.latency_s = 5e-6;
  network.inter_node.bandwidth_Bps = network.intra_node.bandwidth_Bps = 1000 * r::kBytesPerMB;
  network.inter_node.links = 1;
  for (const auto& [name, model] :
       {std::pair<const char*, r::MachineModel>{"ideal", ideal},
        std::pair<const char*, r::MachineModel>{"5us/1000MB/s", network}}) {
    double best = 1e300, best_cpu = 1e300, runtime = 0, ops = 0;
    for (int i = 0; i < repeat; ++i) {
      start = std::chrono::steady_clock::now();
      const double cpu = ThreadCpuSeconds();
      auto sim = r::Simulate(program, model, ups, t.header());
      best_cpu = std::min(best_cpu, ThreadCpuSeconds() - cpu);
      best = std::min(best, Seconds(start));
      if (!sim.ok()) {
        std::fprintf(stderr, "%s\n", sim.status().ToString().c_str());
        return 1;
      }
      runtime = sim->runtime;
      ops = static_cast<double>(sim->operations);
    }
    fmt::print(
        "replay {:<13} wall {:.3f} s, cpu {:.3f} s: {:.1f} M MPI events/s of cpu ({:.1f} of wall), "
        "{:.1f} M "
        "operations/s  (predicted runtime {:.0f})\n",
        name, best, best_cpu, program.mpi_events / best_cpu / 1e6, program.mpi_events / best / 1e6,
        ops / best_cpu / 1e6, runtime);
  }
  return 0;
}
