#include "src/pop/pop_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "src/base/parallel.h"
#include "src/model/time.h"
#include "src/semantic/row_cost.h"

namespace parallax::pop {

namespace {

using model::Time;
using semantic::Slot;
using semantic::WindowSpec;

constexpr uint32_t kFirstCodeEventType = 50000000;  // below: tracer internals and counters

// What one row contributes to a histogram whose control and data window are the same window
// (analysis.md §5.2, §6): the leaves whose value falls in the single column.
struct RowSums {
  Time time = 0;        // Time statistic, trace units
  double sum = 0;       // Sum bursts
  uint64_t leaves = 0;  // 0: the row has no cell
};

// The single column of each modelfactors cfg: total_runtime.cfg [0, 1e62]; the counter cfgs
// [0, 1e18]; total_useful_computation.cfg auto-scales to the smallest non-zero value of
// Useful, i.e. the column "1" (Useful is 0 or 1).
bool RuntimeColumn(double v) { return v >= 0 && v <= 1e62; }
bool UsefulColumn(double v) { return v != 0; }
bool CounterColumn(double v) { return v >= 0 && v <= 1e18; }

// analysis.md §5.2 over the analysis range [f, t) for one object, as RowPass::Iterate in
// src/analysis/histogram.cc: every non-zero-length interval, then the one that reaches t,
// each clipped to the range. Sum bursts adds whole values, as Paraver's does.
RowSums ScanRow(const semantic::WindowEvaluator& w, uint32_t object, bool (*in_column)(double),
                Time f, Time t) {
  const Time e = w.trace_end();
  RowSums s;
  if (e == 0 || f >= t) return s;
  auto row = w.MakeRow(object);
  row->Init(f);
  auto leaf = [&](const semantic::Interval& iv) {
    if (!in_column(iv.value)) return;
    s.time += std::min(iv.end, t) - std::max(iv.begin, f);
    s.sum += iv.value;
    ++s.leaves;
  };
  while (row->current().end <= f && row->current().end < e) row->Next();
  for (;;) {
    const semantic::Interval& iv = row->current();
    if (iv.end < t && iv.begin < e) {
      if (iv.begin != iv.end) leaf(iv);
      row->Next();
      continue;
    }
    if (iv.begin < t) leaf(iv);
    return s;
  }
}

WindowSpec ThreadWindow(const char* function) {
  WindowSpec w;
  w.name = function;
  w.level = model::Level::kThread;
  w.unit = model::TimeUnit::kNs;
  w.functions[static_cast<size_t>(Slot::kThread)].name = function;
  return w;
}

WindowSpec CounterWindow(uint32_t type) {
  WindowSpec w = ThreadWindow("Next Evt Val");
  w.filter.event_type = {filter::CriterionOp::kEqual, {static_cast<double>(type)}};
  return w;
}

WindowSpec ProductWindow(int counter, int useful) {
  WindowSpec w;
  w.name = "useful counter";
  w.level = model::Level::kThread;
  w.unit = model::TimeUnit::kNs;
  w.derived = true;
  w.parent0 = counter;
  w.parent1 = useful;
  w.functions[static_cast<size_t>(Slot::kDerived)].name = "product";
  return w;
}

// The windows of the four cfgs in one set: 0 State As Is, 1 Useful, then per counter present
// Next Evt Val and its product with Useful; the product indices (or -1) go to *_product.
std::vector<WindowSpec> Windows(const std::vector<uint32_t>& types, int* ins_product,
                                int* cyc_product) {
  std::vector<WindowSpec> ws = {ThreadWindow("State As Is"), ThreadWindow("Useful")};
  auto add_counter = [&](uint32_t type, int* product) {
    *product = -1;
    if (!std::binary_search(types.begin(), types.end(), type)) return;
    ws.push_back(CounterWindow(type));
    ws.push_back(ProductWindow(static_cast<int>(ws.size()) - 1, 1));
    *product = static_cast<int>(ws.size()) - 1;
  };
  add_counter(kInstructionsType, ins_product);
  add_counter(kCyclesType, cyc_product);
  return ws;
}

struct Evaluators {
  std::unique_ptr<semantic::WindowEvaluator> runtime, useful, instructions, cycles;
};

Result<Evaluators> MakeEvaluators(const semantic::TraceView& trace,
                                  const std::vector<uint32_t>& types) {
  int ins = -1, cyc = -1;
  std::vector<WindowSpec> ws = Windows(types, &ins, &cyc);
  Evaluators ev;
  auto make = [&](int index, std::unique_ptr<semantic::WindowEvaluator>* out) -> Status {
    if (index < 0) return Status::Ok();
    auto w = semantic::WindowEvaluator::Create(trace, ws, static_cast<size_t>(index));
    if (!w.ok()) return w.status();
    *out = std::move(w.value());
    return Status::Ok();
  };
  for (auto [index, out] : {std::pair{0, &ev.runtime}, std::pair{1, &ev.useful},
                            std::pair{ins, &ev.instructions}, std::pair{cyc, &ev.cycles}}) {
    Status s = make(index, out);
    if (!s.ok()) return s;
  }
  return ev;
}

struct ThreadSums {
  RowSums runtime, useful, instructions, cycles;
};

void Aggregate(const std::vector<ThreadSums>& rows, const Evaluators& ev, model::TimeUnit unit,
               RawData& raw) {
  auto us = [&](Time t) {
    return model::ConvertTime(static_cast<double>(t), unit, model::TimeUnit::kUs);
  };
  Time runtime = 0, useful_max = 0, useful_total = 0;
  uint32_t useful_rows = 0;
  double ins = 0, cyc = 0;
  for (const ThreadSums& r : rows) {
    if (r.runtime.leaves > 0) runtime = std::max(runtime, r.runtime.time);
    if (r.useful.leaves > 0) {
      useful_max = std::max(useful_max, r.useful.time);
      useful_total += r.useful.time;
      ++useful_rows;
    }
    ins += r.instructions.sum;
    cyc += r.cycles.sum;
  }
  raw.runtime_us = us(runtime);
  raw.useful_total_us = us(useful_total);
  raw.useful_max_us = us(useful_max);
  raw.useful_avg_us = useful_rows ? raw.useful_total_us / useful_rows : 0;
  raw.useful_instructions = ev.instructions ? ins : kNaN;
  raw.useful_cycles = ev.cycles ? cyc : kNaN;
}

}  // namespace

Result<RawData> ComputeRawData(const semantic::TraceView& trace,
                               const std::vector<uint32_t>& event_types, unsigned threads,
                               std::optional<std::pair<uint64_t, uint64_t>> portion,
                               const base::WorkShare* share) {
  auto ev = MakeEvaluators(trace, event_types);
  if (!ev.ok()) return ev.status();
  const Evaluators& e = ev.value();
  RawData raw;
  raw.processes = trace.header->processes.tasks();
  raw.threads = trace.header->processes.threads();
  std::vector<ThreadSums> rows(raw.threads);
  const Time f = portion ? portion->first : 0;
  const Time t = portion ? std::min<Time>(portion->second, e.runtime->trace_end())
                         : e.runtime->trace_end();
  // Distributed: the threads dealt out by their records (a thread's cost).
  base::WorkShare dealt;
  std::vector<size_t> mine;
  if (share != nullptr) {
    dealt = *share;
    std::vector<uint64_t> cost(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) cost[i] = semantic::ThreadCost(*trace.store, static_cast<uint32_t>(i));
    dealt.owner = base::BalanceByCost(cost, dealt.count);
    mine = dealt.Mine(rows.size());
  } else {
    mine.resize(rows.size());
    for (size_t i = 0; i < mine.size(); ++i) mine[i] = i;
  }
  base::ParallelFor(mine.size(), threads ? threads : base::DefaultThreads(), [&](size_t k) {
    const size_t i = mine[k];
    const auto object = static_cast<uint32_t>(i);
    ThreadSums& r = rows[i];
    r.runtime = ScanRow(*e.runtime, object, RuntimeColumn, f, t);
    r.useful = ScanRow(*e.useful, object, UsefulColumn, f, t);
    if (e.instructions) r.instructions = ScanRow(*e.instructions, object, CounterColumn, f, t);
    if (e.cycles) r.cycles = ScanRow(*e.cycles, object, CounterColumn, f, t);
  });
  if (share != nullptr) {
    Status s = base::ExchangeItems(
        dealt, rows.size(), [&](size_t i, std::string& out) { base::WirePut(out, rows[i]); },
        [&](base::WireReader& in, size_t i) { return in.Get(&rows[i]); }, "the POP metrics");
    if (!s.ok()) return s;
  }
  Aggregate(rows, e, trace.header->unit, raw);
  for (uint32_t type : event_types)
    if (type >= kFirstCodeEventType) raw.code_event_types.push_back(type);
  return raw;
}

}  // namespace parallax::pop

namespace parallax::pop {

void PackRawData(const RawData& raw, std::string& out) {
  for (uint32_t v : {raw.processes, raw.threads}) base::WirePut(out, v);
  for (double v : {raw.runtime_us, raw.useful_avg_us, raw.useful_max_us, raw.useful_total_us,
                   raw.useful_instructions, raw.useful_cycles, raw.runtime_ideal_us,
                   raw.useful_ideal_max_us})
    base::WirePut(out, v);
  base::WirePutString(out, raw.ideal_unavailable);
  base::WirePutVector(out, raw.code_event_types);
  PackWaiting(raw, out);
}

void PackWaiting(const RawData& raw, std::string& out) {
  base::WirePut(out, static_cast<uint32_t>(raw.waiting_us.size()));
  for (const auto& [key, v] : raw.waiting_us) {
    base::WirePutString(out, key);
    base::WirePut(out, v);
  }
  base::WirePutString(out, raw.waiting_unavailable);
}

bool UnpackWaiting(base::WireReader& in, RawData* raw) {
  uint32_t n = 0;
  if (!in.Get(&n) || n > 64) return false;
  raw->waiting_us.resize(n);
  for (auto& [key, v] : raw->waiting_us)
    if (!in.GetString(&key) || !in.Get(&v)) return false;
  return in.GetString(&raw->waiting_unavailable);
}

bool UnpackRawData(base::WireReader& in, RawData* raw) {
  bool ok = in.Get(&raw->processes) && in.Get(&raw->threads);
  for (double* v : {&raw->runtime_us, &raw->useful_avg_us, &raw->useful_max_us,
                    &raw->useful_total_us, &raw->useful_instructions, &raw->useful_cycles,
                    &raw->runtime_ideal_us, &raw->useful_ideal_max_us})
    ok = ok && in.Get(v);
  return ok && in.GetString(&raw->ideal_unavailable) && in.GetVector(&raw->code_event_types) &&
         UnpackWaiting(in, raw);
}

}  // namespace parallax::pop
