#include "src/semantic/cpu_row.h"

#include <algorithm>

namespace parallax::semantic {

CpuRow::CpuRow(const WindowEnv& env, const BoundFunction& thread_fn, const BoundFunction& cpu_fn, uint16_t cpu,
               const std::vector<uint32_t>& threads, ChainFactory chain)
    : env_(env), thread_fn_(thread_fn), cpu_fn_(cpu_fn), cpu_(cpu), threads_(threads),
      chain_factory_(std::move(chain)) {
  for (uint32_t t : threads_) records_.push_back(std::make_unique<ThreadRecords>(*env.store, t));
}

void CpuRow::Advance(RecordCursor& c) const {
  while (c.Next() && !c.at_end() && c.current().cpu != cpu_) {
  }
}

bool CpuRow::Step(Stream& s) const {
  if (s.at_end) return false;
  if (s.current >= 0) Advance(s.cursors[static_cast<size_t>(s.current)]);
  int best = -1;
  for (size_t i = 0; i < s.cursors.size(); ++i) {
    const RecordCursor& c = s.cursors[i];
    if (c.at_end()) continue;
    if (best < 0 || c.current().time < s.cursors[static_cast<size_t>(best)].current().time) best = static_cast<int>(i);
  }
  s.current = best;
  if (best < 0) {
    s.at_end = true;
    s.rec = RecordRef{env_.store->end_time(), RecKind::kEmpty, cpu_, 0};
    return true;
  }
  s.rec = s.cursors[static_cast<size_t>(best)].current();
  s.thread = threads_[static_cast<size_t>(best)];
  return true;
}

// A stream record ends an interval of `interval_thread` when it is a boundary of the thread
// function, or a non-communication record of another thread.
bool CpuRow::Boundary(const Stream& s, uint32_t interval_thread) const {
  if (s.at_end) return true;
  const RecordRef& r = s.rec;
  if (!IsComm(r.kind) && s.thread != interval_thread) return true;
  bool begin_follows = false;
  if (NeedsBeginAtSameTime(env_, *thread_fn_.desc, r)) {
    for (const auto& tr : records_) {  // a state of this cpu begins at the same time
      const auto& b = tr->states().begin;
      auto [lo, hi] = std::equal_range(b.begin(), b.end(), r.time);
      for (auto it = lo; it != hi && !begin_follows; ++it)
        begin_follows = tr->states().cpu[static_cast<size_t>(it - b.begin())] == cpu_;
    }
  }
  const ThreadRecords& tr = *records_[static_cast<size_t>(s.current)];
  return IsBoundary(env_, *thread_fn_.desc, tr, r, begin_follows);
}

double CpuRow::Input(uint32_t thread, model::Time t) {
  auto& chain = chains_[thread];
  if (!chain) {
    chain = chain_factory_(thread);
    chain->Init(t);  // Input is asked for nondecreasing times after each Init
  }
  while (chain->current().end <= t && chain->current().end < env_.store->end_time()) chain->Next();
  return chain->current().cpu == cpu_ ? chain->current().value : 0;
}

void CpuRow::Compute() {
  next_ = at_;
  uint32_t thread = at_.thread;
  while (Step(next_) && !Boundary(next_, thread)) {
  }
  model::Time begin = at_.current < 0 && !at_.at_end ? 0 : at_.rec.time;
  model::Time end = next_.at_end ? env_.store->end_time() : next_.rec.time;
  if (at_.at_end) begin = end = env_.store->end_time();
  double input = at_.at_end || threads_.empty() ? 0 : Input(thread, begin);
  std::vector<double> v = {input};
  AggregateCall call{cpu_fn_.params, v, 0};
  cur_ = Interval{begin, end, cpu_fn_.desc->aggregate(call), cpu_};
}

void CpuRow::Init(model::Time t) {
  chains_.clear();
  // Walking the cpu stream from time 0 costs as much as every record before t: first look for
  // an interval start shortly before t, further back each time there is none.
  const model::Time trace_end = env_.store->end_time();
  for (model::Time span = std::max<model::Time>(1, trace_end / 4096); span < t; span *= 8)
    if (InitFrom(t - span, t)) return;
  at_ = Stream{};
  for (const auto& tr : records_) {
    RecordCursor c(*tr);
    Advance(c);
    at_.cursors.push_back(c);
  }
  // The leading EMPTY belongs to the thread of the first real record.
  Stream first = at_;
  if (Step(first) && !first.at_end) at_.thread = first.thread;
  Compute();
  while (cur_.end <= t && !at_.at_end) Next();
}

// An interval holds, after its first record, only communication records (of any thread) and
// records of its own thread that are no boundary. So after a non-communication record Q the
// interval's thread is Q's, and whether the next record R starts an interval can be decided
// from Q alone: the first such R in [t0, t] is a safe place to start walking.
bool CpuRow::InitFrom(model::Time t0, model::Time t) {
  Stream s;
  for (const auto& tr : records_) {
    RecordCursor c(*tr);
    if (t0 > 0) c.SeekAfter(t0 - 1);
    Advance(c);  // the first record of this cpu at or after t0
    s.cursors.push_back(c);
  }
  bool have_previous = false;
  uint32_t previous_thread = 0;
  while (Step(s) && !s.at_end && s.rec.time <= t) {
    if (have_previous && Boundary(s, previous_thread)) {
      at_ = s;
      Compute();
      while (cur_.end <= t && !at_.at_end) Next();
      return true;
    }
    // After a communication record the interval's thread is unknown: wait for another record.
    have_previous = !IsComm(s.rec.kind);
    previous_thread = s.thread;
  }
  return false;
}

void CpuRow::Next() {
  if (!at_.at_end) at_ = next_;
  Compute();
}

}  // namespace parallax::semantic
