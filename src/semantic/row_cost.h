#pragma once
// What a row of a window costs to evaluate, for dealing rows out among the processes of a
// distributed run (base::BalanceByCost): the records of the threads under it. A thread row costs
// its states and events, a task or application row those of its threads, the workload row all
// of them. Resource rows (cpus, nodes, the system) cost 1 each: which threads' records they
// read depends on where the threads ran, so they stay round-robin.

#include <cstdint>
#include <vector>

#include "src/model/objects.h"
#include "src/model/trace_header.h"
#include "src/store/trace_store.h"

namespace parallax::semantic {

// A thread's cost: its states and events (0 for a thread the store does not have).
uint64_t ThreadCost(const store::TraceStore& store, uint32_t thread);

// The cost of each object of `objects` (indices at `level`); objects outside the trace cost 0.
std::vector<uint64_t> RowCosts(const model::TraceHeader& header, const store::TraceStore& store,
                               model::Level level, const std::vector<uint32_t>& objects);

}  // namespace parallax::semantic
