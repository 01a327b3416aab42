#pragma once
// Row cursors of each kind: thread functions over a thread's records, compose functions over
// one child, aggregations over n children (semantics.md §6.1 queue), derived windows over two
// (§8.2) and controlled derived windows (§8.3). Internal to src/semantic.

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "src/semantic/evaluator.h"
#include "src/semantic/kernels.h"

namespace parallax::semantic {

// A resolved function: descriptor plus parameters with defaults filled in.
struct BoundFunction {
  const FunctionDesc* desc = nullptr;
  Params params;
};

// Added functions (plug-ins, Python callables; include/parallax/functions.h) are called with
// batches of intervals: their row reads ahead up to a batch of intervals, computes their values
// with one call, then serves them. The first batch after Init is small (a consumer may read only
// a few intervals: controlled windows re-initialise their data row for each control interval),
// and each refill doubles it up to kMax, which bounds the memory a row holds. Stateful thread
// functions are the exception: `previous` is the value just computed, so they get one interval
// per call. A batch ends early at the first interval at the trace's end (the trailing empties).
struct BatchSize {
  static constexpr size_t kFirst = 16;
  static constexpr size_t kMax = 1024;
  size_t next = kFirst;
  size_t Take() {
    size_t n = next;
    next = std::min(next * 2, kMax);
    return n;
  }
};

// The intervals of a batch, served one by one by Next().
struct IntervalBatch {
  std::vector<Interval> intervals;
  std::vector<double> out;  // the function's values
  size_t pos = 0;
  BatchSize size;
  // After Init: the next batch is a first one.
  void Restart() { size = BatchSize{}; }
  // Moves to the next interval of the batch; false when the batch is used up.
  bool Advance(Interval* cur) {
    if (++pos >= intervals.size()) return false;
    *cur = intervals[pos];
    return true;
  }
  // Takes the values computed into `out` and positions on the first interval.
  void Serve(Interval* cur) {
    for (size_t i = 0; i < intervals.size(); ++i) intervals[i].value = out[i];
    pos = 0;
    *cur = intervals[0];
  }
};

// Whether record r of a thread starts an interval of thread function f (semantics.md §2.1).
// `begin_at_same_time`: a state begins at r's time later in the list (fill-state-gaps rule).
bool IsBoundary(const WindowEnv& env, const FunctionDesc& f, const ThreadRecords& records, const RecordRef& r,
                bool begin_at_same_time);
// Whether IsBoundary's answer for r depends on `begin_at_same_time` (a search callers skip
// when it does not: most records, most functions).
bool NeedsBeginAtSameTime(const WindowEnv& env, const FunctionDesc& f, const RecordRef& r);

class ThreadRow : public Row {
 public:
  ThreadRow(const WindowEnv& env, const BoundFunction& f, uint32_t thread);
  void Init(model::Time t) override;
  void Next() override;

 private:
  bool Valid(const RecordCursor& c) const;
  void Bounds();   // the interval starting at start_ without its value, and next_
  void Compute();  // interval starting at start_
  void Fill();     // batched: the intervals from start_ on, with their values

  const WindowEnv& env_;
  const BoundFunction& f_;
  ThreadRecords records_;
  RecordCursor start_;
  RecordCursor next_;
  ThreadState state_;
  bool batched_ = false;
  IntervalBatch batch_;
};

class ComposeRow : public Row {
 public:
  ComposeRow(const WindowEnv& env, const BoundFunction& f, std::unique_ptr<Row> child);
  void Init(model::Time t) override;
  void Next() override;

 private:
  void Compute();
  void Fill();  // batched (added functions): the child's intervals from its current one on
  void Join();  // Join Bursts: extend over equal following child intervals

  const WindowEnv& env_;
  const BoundFunction& f_;
  std::unique_ptr<Row> child_;
  void TimerStep();  // Timer (§5.1): cut each non-zero run after its first `Delta time`

  ComposeState state_;
  bool join_ = false;
  bool timer_ = false;
  bool pending_ = false;  // Join Bursts / Timer: the next output is already decided
  Interval pending_interval_;  // Timer: the zero tail after a cut
  bool batched_ = false;
  IntervalBatch batch_;
};

class AggregateRow : public Row {
 public:
  AggregateRow(const BoundFunction& f, std::vector<std::unique_ptr<Row>> children, model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

 private:
  void Evaluate();
  void Requeue(size_t child);

  const BoundFunction& f_;
  std::vector<std::unique_ptr<Row>> children_;
  std::vector<size_t> queue_;  // children ordered by current end
  std::vector<double> values_;
  size_t changed_ = 0;
  model::Time trace_end_;
};

class DerivedRow : public Row {
 public:
  DerivedRow(const BoundFunction& f, std::unique_ptr<Row> a, std::unique_ptr<Row> b, double fa, double fb,
             model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

 private:
  void Evaluate();
  void Step();  // to the next interval's bounds, without its value
  void Fill();  // batched (added functions): the intervals from the current one on

  const BoundFunction& f_;
  std::unique_ptr<Row> a_, b_;
  double fa_, fb_;
  model::Time trace_end_;
  DerivedState state_;
  bool batched_ = false;
  IntervalBatch batch_;
};

// controlled: maximum / add / average (§8.3): output intervals are the control's.
class ControlledRow : public Row {
 public:
  enum class Mode { kMaximum, kAdd, kAverage };
  ControlledRow(Mode mode, std::unique_ptr<Row> data, std::unique_ptr<Row> control, double factor,
                model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

 private:
  void Evaluate();

  Mode mode_;
  std::unique_ptr<Row> data_, control_;
  double factor_;
  model::Time trace_end_;
};

// A parent row of a derived window with a shift s (semantics.md §8.4): interval k keeps its
// times and takes the value of interval k+s (0 before the first; trailing empties after the
// last). `values` is a second instance of the same row, used to read ahead when s > 0.
class ShiftRow : public Row {
 public:
  ShiftRow(std::unique_ptr<Row> times, std::unique_ptr<Row> values, int shift, model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

 private:
  void Compute();

  std::unique_ptr<Row> times_, values_;
  int shift_;
  model::Time trace_end_;
  std::deque<double> history_;  // s < 0: the last |s| values
};

// Multiplies a value by a derived-window factor as the kernel does (§8.1).
double ApplyFactor(double v, double f);

}  // namespace parallax::semantic
