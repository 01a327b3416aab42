#include "src/structure/bursts.h"

#include <algorithm>
#include <string>

#include "src/base/parallel.h"
#include "src/store/block_reader.h"

namespace parallax::structure {

namespace {

uint32_t TypeLabelled(const model::PcfCatalog* pcf, std::string_view label) {
  if (pcf == nullptr) return 0;
  for (uint32_t type : pcf->EventTypes()) {
    const std::string* l = pcf->EventTypeLabel(type);
    if (l != nullptr && l->find(label) != std::string::npos) return type;
  }
  return 0;
}

struct ThreadBursts {
  std::vector<Burst> bursts;
};

void ReadThread(const store::TraceStore& store, uint32_t t, const BurstTable& types,
                const BurstOptions& options, ThreadBursts& out) {
  store::StateReader states(store, model::ThreadIndex(t));
  while (states.Next()) {
    const store::StateColumns& s = states.columns();
    for (size_t i = states.begin(); i < states.end(); ++i) {
      if (s.state[i] != kRunningState) continue;
      const Time begin = s.begin[i];
      if (begin < options.from || begin >= options.to) continue;
      Time end = s.end[i];
      if (end == model::kNoEnd) end = std::max(begin, store.end_time());
      if (end <= begin) continue;
      // A Running state split in two records (a cut, an event writer) is one burst.
      if (!out.bursts.empty() && out.bursts.back().end == begin) {
        out.bursts.back().end = end;
        continue;
      }
      out.bursts.push_back({begin, end, t, s.cpu[i], -1, -1});
    }
  }
  if (out.bursts.empty() || (types.instructions_type == 0 && types.cycles_type == 0)) return;
  // The counters: each read goes to the burst whose (begin, end] holds its time.
  store::EventReader events(store, model::ThreadIndex(t));
  std::vector<std::pair<uint32_t, uint32_t>> wanted;
  for (uint32_t type : {types.instructions_type, types.cycles_type})
    if (type != 0) wanted.push_back({type, type});
  events.OnlyBlocksWith(wanted);
  size_t b = 0;
  std::vector<Burst>& bursts = out.bursts;
  while (events.Next() && b < bursts.size()) {
    const store::EventColumns& ev = events.columns();
    for (size_t i = events.begin(); i < events.end(); ++i) {
      const uint32_t type = ev.type[i];
      const bool ins = type == types.instructions_type, cyc = type == types.cycles_type;
      if (!ins && !cyc) continue;
      const Time time = ev.time[i];
      while (b < bursts.size() && bursts[b].end < time) ++b;
      if (b == bursts.size()) break;
      if (time <= bursts[b].begin) continue;
      int64_t& slot = ins ? bursts[b].instructions : bursts[b].cycles;
      const int64_t v = std::max<int64_t>(0, ev.value[i]);
      slot = slot < 0 ? v : slot + v;
    }
  }
}

}  // namespace

void FindCounterTypes(const model::PcfCatalog* pcf, uint32_t* instructions, uint32_t* cycles) {
  *instructions = TypeLabelled(pcf, "PAPI_TOT_INS");
  *cycles = TypeLabelled(pcf, "PAPI_TOT_CYC");
}

BurstTable ReadBursts(const store::TraceStore& store, const model::PcfCatalog* pcf,
                      const BurstOptions& options) {
  BurstTable table;
  FindCounterTypes(pcf, &table.instructions_type, &table.cycles_type);
  if (table.instructions_type == 0) table.instructions_type = kPapiInstructions;
  if (table.cycles_type == 0) table.cycles_type = kPapiCycles;
  const uint32_t threads = static_cast<uint32_t>(store.threads());
  std::vector<ThreadBursts> per(threads);
  const unsigned workers = options.worker_threads == 0 ? base::DefaultThreads() : options.worker_threads;
  base::ParallelFor(threads, workers, [&](size_t t) {
    ReadThread(store, static_cast<uint32_t>(t), table, options, per[t]);
  });
  size_t n = 0;
  for (const ThreadBursts& p : per) n += p.bursts.size();
  table.bursts.reserve(n);
  bool any_ins = false, any_cyc = false;
  for (ThreadBursts& p : per) {
    for (const Burst& b : p.bursts) {
      any_ins |= b.instructions >= 0;
      any_cyc |= b.cycles >= 0;
      table.with_counters += b.instructions >= 0 && b.cycles >= 0;
    }
    table.bursts.insert(table.bursts.end(), p.bursts.begin(), p.bursts.end());
    std::vector<Burst>().swap(p.bursts);
  }
  if (!any_ins) table.instructions_type = 0;
  if (!any_cyc) table.cycles_type = 0;
  return table;
}

}  // namespace parallax::structure
