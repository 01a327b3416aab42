#pragma once
// The main iterative loop of a run (docs/structure.md). Each rank's run is read as a sequence of
// symbols: its MPI call entries (call and, for collectives, communicator) and its marker events
// (Extrae's user functions, user events below type 40000000 keyed by type, a --marker type),
// plus OpenMP parallel regions when the trace has no MPI. A symbol that occurs equally often
// (at least 4 times) on every rank is a candidate anchor: its occurrences cut the run into
// intervals; when their durations are irregular but the calls between them repeat with a
// period of q intervals whose durations are regular (a call made twice per iteration), q
// intervals make one iteration. The steady loop runs from the first to the last iteration whose
// duration is not far out (what comes before is start-up, after is tear-down); a candidate is
// kept when it has at least 3 iterations, their spread is moderate and they cover a good part
// of the run. Markers are preferred to MPI calls; then the candidate whose
// iterations hold the same set of frequent calls most often, then the one with more iterations.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/calls/call_table.h"
#include "src/model/pcf_catalog.h"
#include "src/store/trace_store.h"

namespace parallax::structure {

using model::Time;

struct MarkerSpec {
  uint32_t type = 0;
  std::optional<int64_t> value;  // none: every non-zero value of the type
};

struct IterationOptions {
  std::optional<MarkerSpec> marker;  // only this marker (an error when it does not qualify)
  unsigned worker_threads = 1;
};

struct Candidate {
  std::string name;     // "MPI_Allreduce", "User function timestep", "event 1000"
  bool marker = false;
  uint64_t occurrences = 0;  // per unit
  uint32_t group = 1;        // occurrences per iteration
  uint64_t iterations = 0, steady = 0;
  double spread = 0;       // median absolute deviation / median of the steady durations
  double coverage = 0;     // of the run, by the steady iterations
  double consistency = 0;  // iterations holding the commonest set of frequent calls
  std::string rejected;    // why it was not kept ("" when it qualifies)
  // When its durations alone would reject it: the qualifying candidate each of whose
  // iterations holds the same number (≥ 2) of its occurrences on every rank.
  std::string nested_in;
};

// Iterations' times: per iteration, per unit, the begin (the anchor's entry), iteration by
// iteration (count() x units, one array: no allocation per iteration); the end of iteration i
// on a unit is the begin of i + 1, and `last_end` the end of the last one.
struct IterationTimes {
  std::vector<Time> begins;
  std::vector<Time> last_end;

  size_t count() const { return last_end.empty() ? 0 : begins.size() / last_end.size(); }
  Time Begin(size_t i, size_t unit) const { return begins[i * last_end.size() + unit]; }
  Time End(size_t i, size_t unit) const {
    const size_t next = (i + 1) * last_end.size() + unit;
    return next < begins.size() ? begins[next] : last_end[unit];
  }
};

// The steady iterations (IterationTimes), and how they were found.
struct Iterations : IterationTimes {
  bool found = false;
  Candidate anchor;
  std::vector<uint32_t> unit_threads;  // the global thread of each unit (rank)
  Time startup_end = 0, teardown_begin = 0;  // the loop's span over all units
  Time run_begin = 0, run_end = 0;           // the first and last symbol of any unit
  uint64_t startup_iterations = 0, teardown_iterations = 0;  // irregular ones left out
  double confidence = 0;
  std::vector<Candidate> tried;  // every candidate, the best first
  std::string why_none;          // when none was found

  Time SpanBegin(size_t i) const;  // min over units
  Time SpanEnd(size_t i) const;    // max over units
};

// The event types read as markers in an MPI trace (inclusive ranges): a call table built with
// them in CallTableOptions::also_read lets FindIterations take the markers from it instead of
// reading every rank's events a second time.
std::vector<std::pair<uint32_t, uint32_t>> MarkerTypes();

// `table` may have no ranks (a trace without MPI): the units are then each task's first thread.
Iterations FindIterations(const model::TraceHeader& header, const store::TraceStore& store,
                          const model::PcfCatalog* pcf, const calls::CallTable& table,
                          const IterationOptions& options = {});

}  // namespace parallax::structure
