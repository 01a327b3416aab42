// UtilisationOfCpus (include/parallax/window.h): per cpu, the Running time of the threads that
// ran on it over a range, from every thread's state records and the cpu each names.
#include <fmt/format.h>

#include <algorithm>

#include "include/parallax/window.h"
#include "src/semantic/evaluator.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"
#include "src/store/block_reader.h"

namespace parallax {
namespace {

constexpr uint32_t kRunning = 1;  // Paraver's state 1

Result<CpuUtilisation> UtilisationUnguarded(const Trace& trace, std::optional<uint64_t> from,
                                            std::optional<uint64_t> to) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const model::TraceHeader& h = impl.header();
  const store::TraceStore& st = impl.store();
  auto span = TraceRange(trace, from, to);
  if (!span.ok()) return span.status();
  CpuUtilisation out;
  out.from = span->from;
  out.to = span->to;
  const uint32_t cpus = h.resources.cpus();
  for (uint32_t c = 0; c < cpus; ++c) out.cpus.push_back(semantic::ObjectName(h, model::Level::kCpu, c));
  out.running.assign(cpus, 0);
  out.threads.assign(cpus, 0);
  if (cpus == 0) return out;
  std::vector<uint32_t> seen_by(cpus, UINT32_MAX);  // the last thread counted on each cpu
  const model::Time end_of_trace = st.end_time();
  for (uint32_t t = 0; t < st.threads(); ++t) {
    store::StateReader states(st, model::ThreadIndex(t));
    while (states.Next()) {
      const store::StateColumns& s = states.columns();
      for (size_t i = states.begin(); i < states.end(); ++i) {
        const model::Time b = s.begin[i];
        const model::Time e = s.end[i] == model::kNoEnd ? end_of_trace : s.end[i];
        const uint16_t cpu = s.cpu[i];
        if (cpu == 0 || cpu > cpus || e <= out.from || b >= out.to) continue;
        if (seen_by[cpu - 1] != t) {
          seen_by[cpu - 1] = t;
          ++out.threads[cpu - 1];
        }
        if (s.state[i] == kRunning) out.running[cpu - 1] += std::min(e, out.to) - std::max(b, out.from);
      }
    }
  }
  return out;
}

}  // namespace

Result<CpuUtilisation> UtilisationOfCpus(const Trace& trace, std::optional<uint64_t> from,
                                         std::optional<uint64_t> to) {
  return session::GuardedOn(trace, session::PathOf(trace),
                            [&]() -> Result<CpuUtilisation> { return UtilisationUnguarded(trace, from, to); });
}

}  // namespace parallax
