#include "src/semantic/rows.h"

#include "src/semantic/saturate.h"

#include <algorithm>
#include <cmath>

namespace parallax::semantic {

// --- ThreadRow --------------------------------------------------------------------------------

namespace {

constexpr uint32_t kCommValidBits = kValidLogSend | kValidPhySend | kValidLogRecv | kValidPhyRecv | kValidRSendLog |
                                    kValidRSendPhy | kValidRRecvLog | kValidRRecvPhy;

// The record streams a thread function looks at: its boundary kinds, plus the communications
// that the Event Bytes functions add up.
bool NeedsComms(const FunctionDesc& f) {
  return (f.valid & kCommValidBits) != 0 || f.name == "Event Bytes" || f.name == "Event Sent Bytes";
}
uint8_t StreamsOf(const FunctionDesc& f) {
  uint8_t s = 0;
  if (f.valid & (kValidStates | kValidStateEnds)) s |= RecordCursor::kStateStreams;
  if (f.valid & kValidEvents) s |= RecordCursor::kEventStream;
  if (NeedsComms(f)) s |= RecordCursor::kCommStream;
  return s;
}

}  // namespace

ThreadRow::ThreadRow(const WindowEnv& env, const BoundFunction& f, uint32_t thread)
    : env_(env), f_(f), records_(*env.store, thread, NeedsComms(*f.desc)),
      start_(records_, StreamsOf(*f.desc)), next_(records_, StreamsOf(*f.desc)),
      batched_(f.desc->custom != nullptr && !f.desc->stateful) {}

bool IsBoundary(const WindowEnv& env, const FunctionDesc& f, const ThreadRecords& records, const RecordRef& r,
                bool begin_at_same_time) {
  uint32_t mask = f.valid;
  switch (r.kind) {
    case RecKind::kEmpty: return true;
    case RecKind::kStateBegin: return (mask & kValidStates) != 0;
    case RecKind::kStateEnd:
      if (mask & kValidStateEnds) return true;
      return (mask & kValidStates) && env.fill_state_gaps && !begin_at_same_time;
    case RecKind::kEvent: {
      if (!(mask & kValidEvents)) return false;
      const auto& ev = records.events();
      return env.filter->PassEvent(ev.type[r.index], ev.value[r.index]);
    }
    default: break;
  }
  static constexpr uint32_t kBits[] = {0, 0, 0, 0, kValidLogSend, kValidPhySend, kValidRRecvLog,
                                       kValidRRecvPhy, kValidLogRecv, kValidPhyRecv, kValidRSendLog,
                                       kValidRSendPhy};
  if (!(mask & kBits[static_cast<size_t>(r.kind)])) return false;
  return env.filter->PassComm(r.index, IsLogical(r.kind), IsRecvSide(r.kind));
}

bool NeedsBeginAtSameTime(const WindowEnv& env, const FunctionDesc& f, const RecordRef& r) {
  return r.kind == RecKind::kStateEnd && !(f.valid & kValidStateEnds) && (f.valid & kValidStates) &&
         env.fill_state_gaps;
}

bool ThreadRow::Valid(const RecordCursor& c) const {
  const RecordRef& r = c.current();
  bool begin_follows = NeedsBeginAtSameTime(env_, *f_.desc, r) && records_.StateBeginsAt(r.time, r.index);
  return IsBoundary(env_, *f_.desc, records_, r, begin_follows);
}

void ThreadRow::Bounds() {
  next_ = start_;
  if (!next_.at_end()) {
    while (next_.Next() && !next_.at_end() && !Valid(next_)) {
    }
  }
  Time begin = start_.at_start() ? 0 : start_.current().time;
  Time end = next_.at_end() ? records_.end_time() : next_.current().time;
  if (start_.at_end()) begin = end = records_.end_time();
  cur_ = Interval{begin, end, 0, start_.current().cpu};
}

void ThreadRow::Compute() {
  ThreadCall call{env_, start_, f_.params, state_, f_.desc->custom};
  double value = f_.desc->thread(call);
  Bounds();
  cur_.value = value;
  state_.prev = value;
}

void ThreadRow::Fill() {
  size_t cap = batch_.size.Take();
  batch_.intervals.clear();
  std::vector<FunctionRecord> records;  // the function's input: one allocation per batch
  records.reserve(cap);
  for (;;) {
    records.push_back(kernels::ToFunctionRecord(env_, start_));
    Bounds();
    batch_.intervals.push_back(cur_);
    if (start_.at_end() || records.size() == cap) break;
    start_ = next_;
  }
  size_t n = records.size();
  std::vector<double> previous(n, 0.0);  // not stateful: `previous` is 0
  batch_.out.assign(n, 0.0);
  f_.desc->custom->thread(n, records.data(), previous.data(), f_.params, batch_.out.data());
  batch_.Serve(&cur_);
}

void ThreadRow::Init(Time t) {
  state_ = ThreadState{};
  if (f_.desc->stateful) {
    start_.Reset();
    Compute();
    while (cur_.end <= t && !start_.at_end()) Next();
    return;
  }
  start_.SeekAfter(t);
  while (!start_.at_start() && !Valid(start_)) start_.Prev();
  if (batched_) {
    batch_.Restart();
    Fill();
    return;
  }
  Compute();
}

void ThreadRow::Next() {
  if (batched_) {
    if (batch_.Advance(&cur_)) return;
    if (!start_.at_end()) start_ = next_;  // start_ and next_ are those of the batch's last interval
    Fill();
    return;
  }
  if (start_.at_end()) {
    Compute();
    return;
  }
  start_ = next_;
  Compute();
}

// --- ComposeRow -------------------------------------------------------------------------------

ComposeRow::ComposeRow(const WindowEnv& env, const BoundFunction& f, std::unique_ptr<Row> child)
    : env_(env), f_(f), child_(std::move(child)), join_(f.desc->name == "Join Bursts"), timer_(f.desc->name == "Timer"),
      batched_(f.desc->custom != nullptr) {}

void ComposeRow::TimerStep() {
  ComposeState& s = state_;
  double delta = f_.params.empty() || f_.params[0].empty() ? 1 : f_.params[0][0];
  if (cur_.value == 0) {
    s.run_length = 0;
    s.expired = false;
    return;
  }
  if (s.expired) {
    cur_.value = 0;
    return;
  }
  if (s.run_length == 0) s.run_begin = cur_.begin;
  s.run_length += cur_.end - cur_.begin;
  if (static_cast<double>(s.run_length) < delta) return;
  s.expired = true;
  // delta <= run_length here, or NaN or negative (the run expires at once).
  Time cut = s.run_begin + SaturateCast<Time>(delta);
  if (static_cast<double>(s.run_length) > delta && cut < cur_.end && cut > cur_.begin) {
    pending_ = true;
    pending_interval_ = Interval{cut, cur_.end, 0, cur_.cpu};
    cur_.end = cut;
  }
}

void ComposeRow::Compute() {
  const Interval& c = child_->current();
  ComposeCall call{env_, f_.params, state_, c.value, c.begin, c.end, f_.desc->custom};
  cur_ = Interval{c.begin, c.end, f_.desc->compose(call), c.cpu};
}

void ComposeRow::Fill() {
  size_t cap = batch_.size.Take();
  const Time trace_end = env_.store->end_time();
  batch_.intervals.clear();
  for (;;) {
    const Interval& c = child_->current();
    batch_.intervals.push_back(c);
    if (c.begin >= trace_end || batch_.intervals.size() == cap) break;
    child_->Next();
  }
  size_t n = batch_.intervals.size();
  std::vector<double> values(n);  // the function's input: one allocation per batch
  std::vector<uint64_t> begins(n), ends(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = batch_.intervals[i].value;
    begins[i] = batch_.intervals[i].begin;
    ends[i] = batch_.intervals[i].end;
  }
  batch_.out.assign(n, 0.0);
  f_.desc->custom->compose(n, values.data(), begins.data(), ends.data(), f_.params, batch_.out.data());
  batch_.Serve(&cur_);
}

void ComposeRow::Join() {
  pending_ = false;
  const Time trace_end = env_.store->end_time();
  for (;;) {
    if (cur_.begin >= trace_end && cur_.end == cur_.begin) return;  // trailing empties
    child_->Next();
    const Interval& n = child_->current();
    if (n.value != cur_.value || (n.begin >= trace_end && n.end == n.begin)) {
      pending_ = true;
      return;
    }
    cur_.end = n.end;
  }
}

void ComposeRow::Init(Time t) {
  state_ = ComposeState{};
  pending_ = false;
  if (timer_) {
    child_->Init(0);
    Compute();
    TimerStep();
    while (cur_.end <= t && cur_.begin < env_.store->end_time()) Next();
    return;
  }
  if (f_.desc->stateful && !join_) {
    child_->Init(0);
    Compute();
    while (cur_.end <= t && cur_.begin < env_.store->end_time()) Next();
    return;
  }
  child_->Init(t);
  if (batched_) {
    batch_.Restart();
    Fill();
    return;
  }
  Compute();
  if (join_) Join();
}

void ComposeRow::Next() {
  if (batched_) {
    if (batch_.Advance(&cur_)) return;
    child_->Next();  // the child is on the batch's last interval
    Fill();
    return;
  }
  if (timer_) {
    if (pending_) {
      cur_ = pending_interval_;
      pending_ = false;
      return;
    }
    child_->Next();
    Compute();
    TimerStep();
    return;
  }
  if (!(join_ && pending_)) child_->Next();
  Compute();
  if (join_) Join();
}

// --- AggregateRow -----------------------------------------------------------------------------

AggregateRow::AggregateRow(const BoundFunction& f, std::vector<std::unique_ptr<Row>> children, Time trace_end)
    : f_(f), children_(std::move(children)), values_(children_.size()), trace_end_(trace_end) {}

void AggregateRow::Evaluate() {
  for (size_t i = 0; i < children_.size(); ++i) values_[i] = children_[i]->current().value;
  AggregateCall call{f_.params, values_, changed_};
  cur_.value = f_.desc->aggregate(call);
}

void AggregateRow::Requeue(size_t child) {
  Time end = children_[child]->current().end;
  auto pos = std::upper_bound(queue_.begin(), queue_.end(), end,
                              [&](Time e, size_t c) { return e < children_[c]->current().end; });
  queue_.insert(pos, child);
}

void AggregateRow::Init(Time t) {
  queue_.clear();
  changed_ = 0;
  Time begin = 0;
  for (size_t i = 0; i < children_.size(); ++i) {
    children_[i]->Init(t);
    begin = std::max(begin, children_[i]->current().begin);
    Requeue(i);
  }
  cur_.begin = begin;
  cur_.end = queue_.empty() ? trace_end_ : children_[queue_.front()]->current().end;
  Evaluate();
  while (cur_.end < t && cur_.begin < trace_end_) Next();
}

void AggregateRow::Next() {
  cur_.begin = cur_.end;
  for (size_t advances = 0; advances < children_.size() && !queue_.empty(); ++advances) {
    size_t head = queue_.front();
    if (children_[head]->current().end != cur_.begin) break;
    queue_.erase(queue_.begin());
    children_[head]->Next();
    changed_ = head;
    Requeue(head);
  }
  cur_.end = queue_.empty() ? trace_end_ : children_[queue_.front()]->current().end;
  Evaluate();
}

// --- DerivedRow -------------------------------------------------------------------------------

double ApplyFactor(double v, double f) {
  if (std::fabs(f) < 1 && f != 0) {
    double r = v / (1 / std::fabs(f));
    return f < 0 ? -r : r;
  }
  return v * f;
}

DerivedRow::DerivedRow(const BoundFunction& f, std::unique_ptr<Row> a, std::unique_ptr<Row> b, double fa,
                       double fb, Time trace_end)
    : f_(f), a_(std::move(a)), b_(std::move(b)), fa_(fa), fb_(fb), trace_end_(trace_end),
      batched_(f.desc->custom != nullptr) {}

void DerivedRow::Evaluate() {
  DerivedCall call{state_, ApplyFactor(a_->current().value, fa_), ApplyFactor(b_->current().value, fb_),
                   a_->current().begin, &f_.params, f_.desc->custom};
  cur_.value = f_.desc->derived(call);
}

void DerivedRow::Init(Time t) {
  state_ = DerivedState{};
  Time start = f_.desc->stateful ? 0 : t;
  a_->Init(start);
  b_->Init(start);
  cur_.begin = std::max(a_->current().begin, b_->current().begin);
  cur_.end = std::min(a_->current().end, b_->current().end);
  if (batched_) {  // an added derived function is stateless: only the bounds lead to t
    while (cur_.end < t && cur_.begin < trace_end_) Step();
    batch_.Restart();
    Fill();
    return;
  }
  Evaluate();
  while (cur_.end < t && cur_.begin < trace_end_) Next();
}

void DerivedRow::Fill() {
  size_t cap = batch_.size.Take();
  batch_.intervals.clear();
  std::vector<double> a, b;  // the function's input: one allocation per batch
  a.reserve(cap);
  b.reserve(cap);
  for (;;) {
    a.push_back(ApplyFactor(a_->current().value, fa_));
    b.push_back(ApplyFactor(b_->current().value, fb_));
    batch_.intervals.push_back(cur_);
    if (cur_.begin >= trace_end_ || a.size() == cap) break;
    Step();
  }
  size_t n = a.size();
  batch_.out.assign(n, 0.0);
  f_.desc->custom->derived(n, a.data(), b.data(), f_.params, batch_.out.data());
  batch_.Serve(&cur_);
}

void DerivedRow::Next() {
  if (batched_) {
    if (batch_.Advance(&cur_)) return;
    Step();  // cur_ is the batch's last interval
    Fill();
    return;
  }
  Step();
  Evaluate();
}

void DerivedRow::Step() {
  cur_.begin = cur_.end;
  if (a_->current().end <= cur_.begin) a_->Next();
  if (b_->current().end <= cur_.begin) b_->Next();
  Time end = trace_end_;
  bool any = false;
  for (const Row* r : {a_.get(), b_.get()}) {
    if (r->current().end < trace_end_) {
      end = any ? std::min(end, r->current().end) : r->current().end;
      any = true;
    }
  }
  cur_.end = end;
}

// --- ShiftRow ---------------------------------------------------------------------------------

ShiftRow::ShiftRow(std::unique_ptr<Row> times, std::unique_ptr<Row> values, int shift, Time trace_end)
    : times_(std::move(times)), values_(std::move(values)), shift_(shift), trace_end_(trace_end) {}

void ShiftRow::Compute() {
  cur_ = times_->current();
  if (shift_ > 0) {
    cur_.value = values_->current().value;
  } else {
    cur_.value = history_.size() == static_cast<size_t>(-shift_) ? history_.front() : 0;
    history_.push_back(times_->current().value);
    if (history_.size() > static_cast<size_t>(-shift_)) history_.pop_front();
  }
}

void ShiftRow::Init(Time t) {
  history_.clear();
  times_->Init(0);
  if (shift_ > 0) {
    values_->Init(0);
    for (int k = 0; k < shift_; ++k) values_->Next();
  }
  Compute();
  while (cur_.end < t && cur_.begin < trace_end_) Next();
}

void ShiftRow::Next() {
  times_->Next();
  if (shift_ > 0) values_->Next();
  Compute();
}

// --- ControlledRow ----------------------------------------------------------------------------

ControlledRow::ControlledRow(Mode mode, std::unique_ptr<Row> data, std::unique_ptr<Row> control, double factor,
                             Time trace_end)
    : mode_(mode), data_(std::move(data)), control_(std::move(control)), factor_(factor), trace_end_(trace_end) {}

void ControlledRow::Evaluate() {
  const Interval c = control_->current();
  cur_.begin = c.begin;
  cur_.end = c.end;
  data_->Init(c.begin);
  while (data_->current().end <= c.begin && data_->current().end < trace_end_) data_->Next();
  double acc = 0, weighted = 0, total = 0;
  for (;;) {
    const Interval d = data_->current();
    double v = ApplyFactor(d.value, factor_);
    double dur = static_cast<double>(d.end - d.begin);
    if (mode_ == Mode::kMaximum) acc = std::max(acc, v);
    else if (mode_ == Mode::kAdd) acc += v;
    weighted += v * dur;
    total += dur;
    if (d.end >= c.end || (d.end == d.begin && d.begin >= c.end)) break;
    data_->Next();
  }
  cur_.value = mode_ == Mode::kAverage ? (total == 0 ? 0 : weighted / total) : acc;
}

void ControlledRow::Init(Time t) {
  control_->Init(t);
  Evaluate();
}

void ControlledRow::Next() {
  control_->Next();
  Evaluate();
}

}  // namespace parallax::semantic
