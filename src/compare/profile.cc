#include "src/compare/profile.h"

#include <algorithm>

namespace parallax::compare {

CallProfile ProfileCalls(const calls::CallTable& table, const model::PcfCatalog* pcf) {
  CallProfile p;
  const size_t ranks = table.ranks.size();
  p.computation.assign(ranks, 0);
  p.mpi.assign(ranks, 0);
  for (size_t r = 0; r < ranks; ++r) {
    const std::vector<calls::Call>& calls = table.ranks[r].calls;
    if (calls.empty()) continue;
    model::Time begin = calls.front().entry, end = calls.back().exit;
    for (const calls::Call& c : calls) {
      if (c.op == calls::Op::kInit) begin = std::max(begin, c.exit);
      if (c.op == calls::Op::kFinalize) end = std::min(end, c.entry);
    }
    model::Time in_calls = 0;
    for (const calls::Call& c : calls) {
      if (c.op == calls::Op::kInit || c.op == calls::Op::kFinalize) continue;
      std::vector<model::Time>& v = p.by_call[calls::CallName(pcf, c)];
      if (v.empty()) v.assign(ranks, 0);
      const model::Time d = c.exit - c.entry;
      v[r] += d;
      // The part of the call within [begin, end) is not computation.
      const model::Time lo = std::max(c.entry, begin), hi = std::min(c.exit, end);
      if (hi > lo) in_calls += hi - lo;
    }
    p.mpi[r] = in_calls;
    p.computation[r] = end > begin ? end - begin - std::min(end - begin, in_calls) : 0;
  }
  return p;
}

}  // namespace parallax::compare
