#pragma once
// The kernels of the descriptor table and the arguments they receive. A kernel computes one
// interval value; the evaluator (rows.h) decides which records and intervals it is called on.

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "include/parallax/functions.h"
#include "src/filter/filter.h"
#include "src/model/trace_header.h"
#include "src/semantic/function_table.h"
#include "src/semantic/record_stream.h"

namespace parallax::diagnose {
class LazyDiagnosis;
}

namespace parallax::semantic {

using Params = std::vector<std::vector<double>>;

// What every kernel of a window may need to know about the trace and the window.
struct WindowEnv {
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  const filter::Filter* filter = nullptr;
  model::TimeUnit window_unit = model::TimeUnit::kUs;
  bool fill_state_gaps = true;
  const diagnose::LazyDiagnosis* diagnosis = nullptr;  // the diagnosis functions' source
  // A duration (or absolute time) in trace units converted to the window unit.
  double ToWindow(double t) const { return model::ConvertTime(t, header->unit, window_unit); }
};

// Per-row state of stateful thread functions.
struct ThreadState {
  int64_t acc = 0;   // bandwidth accumulator (1e-12 units)
  double prev = 0;   // previous interval value of the row
};

struct ThreadCall {
  const WindowEnv& env;
  const RecordCursor& at;  // positioned on the record that starts the interval
  const Params& params;
  ThreadState& state;
  const CustomFunction* custom = nullptr;  // added functions only (function_registry.h)
  const RecordRef& rec() const { return at.current(); }
};

// Per-row state of stateful compose functions.
struct ComposeState {
  std::vector<double> stack;    // Stacked Val, In Stacked Val
  std::deque<double> lru;       // LRU Depth
  double counter = 0;           // Nesting level, Enumerate, Accumulate
  double last_input = 0;        // Delta
  Time run_begin = 0;           // Timer: begin of the current non-zero run
  Time run_length = 0;          // Timer: accumulated duration of the run
  bool expired = false;         // Timer: the run already used its delta
};

struct ComposeCall {
  const WindowEnv& env;
  const Params& params;
  ComposeState& state;
  double x = 0;
  Time begin = 0, end = 0;
  const CustomFunction* custom = nullptr;
};

struct AggregateCall {
  const Params& params;
  std::span<const double> v;
  size_t changed = 0;  // child advanced most recently (Changed value)
};

struct DerivedState {
  double prev_b = 0;
  Time remembered_begin = 0;  // controlled: clear by
  bool cleared = false;
  double count = 0;           // controlled: enumerate
  Time prev_data_begin = 0;
  bool have_prev = false;
};

struct DerivedCall {
  DerivedState& state;
  double a = 0, b = 0;
  Time a_begin = 0;
  const Params* params = nullptr;          // added functions only
  const CustomFunction* custom = nullptr;
};

namespace kernels {
// Thread functions (thread_kernels.cc).
double StateAsIs(const ThreadCall&);
double Useful(const ThreadCall&);
double StateSign(const ThreadCall&);
double GivenState(const ThreadCall&);
double InState(const ThreadCall&);
double NotInState(const ThreadCall&);
double StateRecordDur(const ThreadCall&);
double LastEvtType(const ThreadCall&);
double LastEvtVal(const ThreadCall&);
double MpiWaitTime(const ThreadCall&);
double MpiWaitPattern(const ThreadCall&);
double OnCriticalPath(const ThreadCall&);
double LastEvtValNoBursts(const ThreadCall&);
double NextEvtType(const ThreadCall&);
double NextEvtVal(const ThreadCall&);
double AvgNextEvtVal(const ThreadCall&);
double AvgLastEvtVal(const ThreadCall&);
double GivenEvtVal(const ThreadCall&);
double InEvtVal(const ThreadCall&);
double NotInEvtVal(const ThreadCall&);
double InEvtRange(const ThreadCall&);
double IntBetweenEvt(const ThreadCall&);
double EventBytes(const ThreadCall&);
double EventSentBytes(const ThreadCall&);
double LastTag(const ThreadCall&);
double CommSize(const ThreadCall&);
double CommRecvPartner(const ThreadCall&);
double CommPartner(const ThreadCall&);
double LastSendDur(const ThreadCall&);
double NextRecvDur(const ThreadCall&);
double LastSendSize(const ThreadCall&);
double SendBytesInTransit(const ThreadCall&);
double SendMessagesInTransit(const ThreadCall&);
double SendBandWidth(const ThreadCall&);
double RecvBytesInTransit(const ThreadCall&);
double RecvMessagesInTransit(const ThreadCall&);
double RecvBandWidth(const ThreadCall&);
double RecvNegativeMessages(const ThreadCall&);
double RecvNegativeBytes(const ThreadCall&);
double NumberOfSends(const ThreadCall&);
double NumberOfSendBytes(const ThreadCall&);
double NumberOfReceives(const ThreadCall&);
double NumberOfReceiveBytes(const ThreadCall&);
double ApplicationId(const ThreadCall&);
double TaskId(const ThreadCall&);
double ThreadId(const ThreadCall&);
double NodeId(const ThreadCall&);
double CpuId(const ThreadCall&);
double InApplId(const ThreadCall&);
double InTaskId(const ThreadCall&);
double InThreadId(const ThreadCall&);
double InNodeId(const ThreadCall&);
double InCpuId(const ThreadCall&);
// Compose functions (compose_kernels.cc).
double AsIs(ComposeCall&);
double Sign(ComposeCall&);
double OneMinusSign(ComposeCall&);
double Mod(ComposeCall&);
double ModPlus1(ComposeCall&);
double Div(ComposeCall&);
double Prod(ComposeCall&);
double Add(ComposeCall&);
double Subs(ComposeCall&);
double Complement(ComposeCall&);
double InverseDiv(ComposeCall&);
double SelectRange(ComposeCall&);
double SelectRangeOpen(ComposeCall&);
double IsInRange(ComposeCall&);
double IsInRangeOpen(ComposeCall&);
double IsEqual(ComposeCall&);
double IsEqualSign(ComposeCall&);
double Floor(ComposeCall&);
double Ceil(ComposeCall&);
double Round(ComposeCall&);
double Abs(ComposeCall&);
double StackedVal(ComposeCall&);
double InStackedVal(ComposeCall&);
double NestingLevel(ComposeCall&);
double LruDepth(ComposeCall&);
double Enumerate(ComposeCall&);
double Accumulate(ComposeCall&);
double Delta(ComposeCall&);
double BurstTime(ComposeCall&);
double DivideByBurstTime(ComposeCall&);
double BeginTime(ComposeCall&);
double EndTime(ComposeCall&);
double Translate(ComposeCall&);
double Sin(ComposeCall&);
double Cos(ComposeCall&);
double ArcTan(ComposeCall&);
double SqrtAbs(ComposeCall&);
double LogN(ComposeCall&);
double Exp(ComposeCall&);
// Aggregations and cpu functions (compose_kernels.cc).
double Adding(AggregateCall&);
double AddingSign(AggregateCall&);
double Average(AggregateCall&);
double Maximum(AggregateCall&);
double Minimum(AggregateCall&);
double Activity(AggregateCall&);
double InActivity(AggregateCall&);
double Mode(AggregateCall&);
double ThreadI(AggregateCall&);
double AddTasks(AggregateCall&);
double ChangedValue(AggregateCall&);
double ActiveThd(AggregateCall&);
double ActiveThdSign(AggregateCall&);
double ActiveThdVal(AggregateCall&);
double ActiveThdValSign(AggregateCall&);
// Derived functions (compose_kernels.cc).
double DerivedAdd(DerivedCall&);
double DerivedProduct(DerivedCall&);
double DerivedSubstract(DerivedCall&);
double DerivedDivide(DerivedCall&);
double DerivedMaximum(DerivedCall&);
double DerivedMinimum(DerivedCall&);
double DerivedDifferent(DerivedCall&);
double ControlledClearBy(DerivedCall&);
double ControlledEnumerate(DerivedCall&);
// Added functions (custom_kernels.cc): call the descriptor's CustomFunction.
FunctionRecord ToFunctionRecord(const WindowEnv& env, const RecordCursor& at);  // what it is given
double CustomThread(const ThreadCall&);
double CustomCompose(ComposeCall&);
double CustomDerived(DerivedCall&);
}  // namespace kernels

}  // namespace parallax::semantic
