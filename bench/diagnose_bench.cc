// parallax-diagnose-bench: MPI call events diagnosed per second on one core.
//
//   parallax-diagnose-bench TRACE [--repeat N] [--compact]
//
// Loads the trace once (with --compact: compact records, so the call table decodes only the
// event blocks that hold MPI events), then runs the diagnosis N times on one thread: the call
// table (reading every thread's MPI events and binding the messages), the wait states, the
// critical path and the delay costs, each timed. Prints the best thread-cpu and wall time of each part, MPI call
// events (entries and exits of 50000001-50000005) per cpu second, the bytes the call table
// and the wait states hold, and the process's peak memory (with the loaded trace's).

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_timing.h"
#include "src/calls/call_table.h"
#include "src/diagnose/critical_path.h"
#include "src/diagnose/delay_costs.h"
#include "src/diagnose/wait_states.h"
#include "src/session/trace_impl.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"

using parallax::bench::Best;
using parallax::bench::Timed;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parallax-diagnose-bench TRACE [--repeat N] [--compact]\n");
    return 2;
  }
  int repeat = 3;
  parallax::LoadOptions load;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    if (a == "--compact") load.compact = true;
  }
  auto trace = parallax::session::OpenTrace(argv[1], load);
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.status().ToString().c_str());
    return 1;
  }
  const auto& t = *trace.value();
  const double loaded_peak = parallax::bench::PeakRssMiB();
  namespace c = parallax::calls;
  namespace d = parallax::diagnose;
  Best table_time, waits_time, path_time, phases_time, costs_time;
  uint64_t events = 0, calls = 0, messages = 0, instances = 0, segments = 0, phase_count = 0;
  for (int i = 0; i < repeat; ++i) {
    c::CallTable table =
        Timed(table_time, [&] { return c::BuildCallTable(t.header(), t.store(), t.pcf(), {1, parallax::structure::MarkerTypes()}); });
    d::WaitStates waits =
        Timed(waits_time, [&] { return d::FindWaitStates(table, t.store().comms()); });
    d::CriticalPath path = Timed(path_time, [&] { return d::FindCriticalPath(table, waits); });
    // The phases the root causes are named by: iterations, phases, each call's phase.
    const auto phase_of_call = Timed(phases_time, [&] {
      const auto its = parallax::structure::FindIterations(t.header(), t.store(), t.pcf(), table);
      const auto ph = parallax::structure::FindPhases(table, its, {}, {}, t.pcf());
      phase_count = ph.phases.size();
      return parallax::structure::PhaseOfCalls(table, its, ph);
    });
    Timed(costs_time, [&] { return d::FindDelayCosts(table, waits, &phase_of_call); });
    events = table.counts.mpi_events;
    calls = 0;
    for (const c::Rank& r : table.ranks) calls += r.calls.size();
    messages = table.messages.size();
    instances = waits.instances.size();
    segments = path.segments.size();
  }
  const double cpu = table_time.cpu + waits_time.cpu + path_time.cpu + phases_time.cpu + costs_time.cpu;
  const double wall = table_time.wall + waits_time.wall + path_time.wall + phases_time.wall + costs_time.wall;
  fmt::print("trace {}{}: {} MPI call events, {} calls, {} messages\n", argv[1],
             load.compact ? " (compact records)" : "", events, calls, messages);
  fmt::print("call table    cpu {:.3f} s  wall {:.3f} s\n", table_time.cpu, table_time.wall);
  fmt::print("wait states   cpu {:.3f} s  wall {:.3f} s  ({} instances)\n", waits_time.cpu,
             waits_time.wall, instances);
  fmt::print("critical path cpu {:.3f} s  wall {:.3f} s  ({} segments)\n", path_time.cpu,
             path_time.wall, segments);
  fmt::print("loop phases   cpu {:.3f} s  wall {:.3f} s  ({} phases)\n", phases_time.cpu, phases_time.wall,
             phase_count);
  fmt::print("delay costs   cpu {:.3f} s  wall {:.3f} s\n", costs_time.cpu, costs_time.wall);
  fmt::print("total         cpu {:.3f} s  wall {:.3f} s: {:.1f} M MPI events/s of cpu ({:.1f} of wall)\n",
             cpu, wall, static_cast<double>(events) / cpu / 1e6,
             static_cast<double>(events) / wall / 1e6);
  fmt::print("memory: call table {:.1f} MiB ({} B per call + {} B per message), wait states {:.1f} MiB\n",
             (static_cast<double>(calls) * sizeof(c::Call) +
              static_cast<double>(messages) * sizeof(c::MessageCalls)) / 1048576.0,
             sizeof(c::Call), sizeof(c::MessageCalls),
             static_cast<double>(instances) * sizeof(d::WaitInstance) / 1048576.0);
  fmt::print("peak memory: {:.0f} MiB ({:.0f} MiB once the trace was loaded)\n", parallax::bench::PeakRssMiB(),
             loaded_peak);
  return 0;
}
