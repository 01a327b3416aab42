// Fuzz target of the diagnosis (src/calls, src/diagnose) over any .prv the reader accepts: the
// call table, the wait states in both readings of collective sizes, the critical path, the delay
// costs and the OpenMP waits must never crash, and their sums must hold
// (../shared/spec/waitstates.md §4): no rank waits longer than it is in MPI, the path's segments
// tile its span, no wait state is charged more than its waiting.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/calls/call_table.h"
#include "src/diagnose/critical_path.h"
#include "src/diagnose/delay_costs.h"
#include "src/diagnose/omp_waits.h"
#include "src/diagnose/wait_states.h"
#include "src/io/prv/prv_reader.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"

namespace {

using namespace parallax;

void Check(bool ok) {
  if (!ok) std::abort();
}

void Analyse(const io::PrvTrace& t, bool strict) {
  calls::CallTable table = calls::BuildCallTable(t.header, t.store, nullptr, {1});
  diagnose::WaitStates waits = diagnose::FindWaitStates(table, t.store.comms(), {strict});
  std::vector<model::Time> waited(table.ranks.size(), 0), mpi(table.ranks.size(), 0);
  for (const diagnose::WaitInstance& w : waits.instances) {
    Check(w.rank < table.ranks.size() && w.call < table.ranks[w.rank].calls.size() && w.wait > 0);
    const calls::Call& c = table.ranks[w.rank].calls[w.call];
    Check(w.wait <= c.exit - c.entry);
    waited[w.rank] += w.wait;
  }
  for (size_t r = 0; r < table.ranks.size(); ++r) {
    for (const calls::Call& c : table.ranks[r].calls) {
      Check(c.exit >= c.entry);
      mpi[r] += c.exit - c.entry;
    }
    Check(waited[r] <= mpi[r]);
  }
  diagnose::CriticalPath path = diagnose::FindCriticalPath(table, waits);
  if (!table.ranks.empty()) {
    Check(!path.segments.empty() && path.segments.front().begin == path.begin &&
          path.segments.back().end == path.end);
    for (size_t i = 0; i < path.segments.size(); ++i) {
      Check(path.segments[i].begin <= path.segments[i].end);
      if (i > 0) Check(path.segments[i].begin == path.segments[i - 1].end);
    }
    diagnose::PathProfile p = diagnose::ProfilePath(table, path, waits, 0, UINT64_MAX);
    model::Time by_rank = 0, by_activity = 0;
    for (model::Time v : p.by_rank) by_rank += v;
    for (const auto& [k, v] : p.by_activity) by_activity += v;
    Check(by_rank == p.length && by_activity == p.length);
  }
  // Root causes split by the phases of the main loop, when the input has one.
  const structure::Iterations its = structure::FindIterations(t.header, t.store, nullptr, table);
  const structure::Phases phases = structure::FindPhases(table, its, {}, {}, nullptr);
  const auto phase_of_call = structure::PhaseOfCalls(table, its, phases);
  diagnose::DelayCosts costs = diagnose::FindDelayCosts(table, waits, &phase_of_call);
  Check(costs.cause.size() == waits.instances.size());
  Check(costs.phase_offsets.size() == waits.instances.size() + 1);
  for (size_t i = 0; i < waits.instances.size(); ++i) {
    double sum = 0;
    for (uint32_t k = costs.phase_offsets[i]; k < costs.phase_offsets[i + 1]; ++k) {
      Check(costs.phase_shares[k].phase <= phases.phases.size());
      sum += costs.phase_shares[k].fraction;
    }
    Check(sum <= 1.001);
  }
  for (size_t i = 0; i < costs.cause.size(); ++i) {
    const diagnose::InstanceCause& c = costs.cause[i];
    const double own = static_cast<double>(waits.instances[i].wait);
    Check(c.computation_short >= 0 && c.mpi_short >= 0 && c.propagated >= 0);
    Check(c.computation_short + c.mpi_short + c.propagated <= own * (1 + 1e-9) + 1e-6);
  }
  diagnose::OmpWaits omp = diagnose::FindOmpWaits(t.header, t.store);
  for (const diagnose::OmpBarrierWait& w : omp.barrier_waits) Check(w.wait > 0 && w.wait <= w.exit - w.entry);
  for (const diagnose::OmpIdle& s : omp.idle) Check(s.begin < s.end);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  io::PrvReadOptions options;
  options.threads = 1;
  // As the prv target: the reader's own cost of huge declared models is not this target's.
  options.memory_budget = 64 << 20;
  auto t = io::ParsePrv(bytes, "fuzz.prv", options);
  if (!t.ok()) return 0;
  Analyse(t.value(), false);
  Analyse(t.value(), true);
  return 0;
}
