// Fuzz target of the program structure (src/structure) over any .prv the reader accepts: the
// iterations, the bursts, their clusters (chosen parameters and a tiny and a huge epsilon) and
// the phases must never crash, and what they say must hold together: iterations in time order
// on every rank, every burst labelled once, the clusters' counts adding up to the bursts.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/calls/call_table.h"
#include "src/io/prv/prv_reader.h"
#include "src/structure/bursts.h"
#include "src/structure/clusters.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"

namespace {

using namespace parallax;

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckClustering(const structure::BurstTable& bursts, const structure::Clustering& cl) {
  Check(cl.label.size() == bursts.bursts.size());
  uint64_t total = cl.noise.bursts + cl.filtered.bursts + cl.missing.bursts;
  for (const structure::ClusterSummary& c : cl.clusters) {
    Check(c.bursts > 0);
    total += c.bursts;
  }
  Check(total == bursts.bursts.size());
  for (int32_t l : cl.label) Check(l >= structure::kLabelMissing && l < static_cast<int32_t>(cl.clusters.size()));
  for (size_t c = 1; c < cl.clusters.size(); ++c) Check(cl.clusters[c - 1].total >= cl.clusters[c].total);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  io::PrvReadOptions options;
  options.threads = 1;
  options.memory_budget = 64 << 20;  // as the prv target
  auto read = io::ParsePrv(bytes, "fuzz.prv", options);
  if (!read.ok()) return 0;
  const io::PrvTrace& t = read.value();
  calls::CallTable table = calls::BuildCallTable(t.header, t.store, nullptr, {1});
  structure::Iterations its = structure::FindIterations(t.header, t.store, nullptr, table);
  if (its.found) {
    Check(its.count() >= 3 && its.last_end.size() == its.unit_threads.size());
    for (size_t u = 0; u < its.unit_threads.size(); ++u)
      for (size_t i = 0; i < its.count(); ++i) Check(its.Begin(i, u) <= its.End(i, u));
  }
  structure::BurstTable bursts = structure::ReadBursts(t.store, nullptr);
  for (const structure::Burst& b : bursts.bursts) Check(b.begin < b.end && b.thread < t.store.threads());
  const auto threads = static_cast<uint32_t>(t.store.threads());
  structure::Clustering cl = structure::ClusterBursts(bursts, threads);
  CheckClustering(bursts, cl);
  structure::ClusterOptions tiny, huge;
  tiny.eps = 1e-9;
  tiny.min_points = 2;
  huge.eps = 10;
  CheckClustering(bursts, structure::ClusterBursts(bursts, threads, tiny));
  CheckClustering(bursts, structure::ClusterBursts(bursts, threads, huge));
  structure::Phases phases = structure::FindPhases(table, its, bursts, cl, nullptr);
  for (const structure::Phase& p : phases.phases) Check(p.position < phases.calls_per_iteration && p.mean >= 0);
  return 0;
}
