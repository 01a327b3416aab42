#include "src/semantic/function_table.h"

#include <array>

#include "src/semantic/kernels.h"

namespace parallax::semantic {

namespace {

using G = FunctionGroup;
using I = InfoType;

constexpr uint32_t kCommSend = kValidLogSend | kValidPhySend;
constexpr uint32_t kCommRecv = kValidLogRecv | kValidPhyRecv;
constexpr uint32_t kCommAll = kCommSend | kCommRecv;
constexpr uint32_t kRRecv = kValidRRecvLog | kValidRRecvPhy;
constexpr uint32_t kRSend = kValidRSendLog | kValidRSendPhy;
constexpr uint32_t kObjectRecords = kValidStates | kValidStateEnds | kValidEvents;

const std::vector<ParamDesc> kNoParams;
std::vector<ParamDesc> P(std::string_view name, std::vector<double> defaults) {
  return {ParamDesc{name, std::move(defaults)}};
}

FunctionDesc Thread(std::string_view name, G group, std::vector<ParamDesc> params, I info,
                    uint32_t valid, ThreadKernel k, std::string_view doc, bool stateful = false) {
  FunctionDesc d{name, group, std::move(params), info, stateful, valid};
  d.thread = k;
  d.doc = doc;
  return d;
}

FunctionDesc Compose(std::string_view name, std::vector<ParamDesc> params, I info, ComposeKernel k,
                     std::string_view doc, bool stateful = false) {
  FunctionDesc d{name, G::kCompose, std::move(params), info, stateful, 0};
  d.compose = k;
  d.doc = doc;
  return d;
}

FunctionDesc Aggregate(std::string_view name, G group, std::vector<ParamDesc> params, I info,
                       AggregateKernel k, std::string_view doc, bool stateful = false) {
  FunctionDesc d{name, group, std::move(params), info, stateful, 0};
  d.aggregate = k;
  d.doc = doc;
  return d;
}

FunctionDesc Derived(std::string_view name, I info, DerivedKernel k, std::string_view doc,
                     bool stateful = false) {
  FunctionDesc d{name, G::kDerived, {}, info, stateful, 0};
  d.derived = k;
  d.doc = doc;
  return d;
}

std::vector<FunctionDesc> BuildTable() {
  const double e = 2.718281828459045;
  std::vector<FunctionDesc> t;
  // State group (semantics.md §4.1).
  t.push_back(Thread("State As Is", G::kState, {}, I::kState, kValidStates, kernels::StateAsIs, "the state value"));
  t.push_back(Thread("Useful", G::kState, {}, I::kState, kValidStates, kernels::Useful, "1 while Running (state 1)"));
  t.push_back(Thread("State Sign", G::kState, {}, I::kNone, kValidStates, kernels::StateSign, "1 in any state other than 0"));
  t.push_back(Thread("Given State", G::kState, P("State values", {1}), I::kState, kValidStates, kernels::GivenState, "the state if it is in the list, else 0"));
  t.push_back(Thread("In State", G::kState, P("State values", {1}), I::kNone, kValidStates, kernels::InState, "1 if the state is in the list"));
  t.push_back(Thread("Not In State", G::kState, P("State values", {1}), I::kNone, kValidStates, kernels::NotInState, "1 if the state is not in the list"));
  t.push_back(Thread("State Record Dur.", G::kState, P("State values", {1}), I::kTime, kValidStates, kernels::StateRecordDur, "duration of the state record, for states in the list"));
  // Event group (§4.2).
  t.push_back(Thread("Last Evt Type", G::kEvent, {}, I::kEventType, kValidEvents, kernels::LastEvtType, "type of the last event"));
  t.push_back(Thread("Last Evt Val", G::kEvent, {}, I::kEventValue, kValidEvents, kernels::LastEvtVal, "value of the last event"));
  // Diagnosis (docs/diagnose.md): at any event, from the MPI call (or burst) running there.
  t.push_back(Thread("MPI Wait Time", G::kEvent, {}, I::kTime, kValidEvents, kernels::MpiWaitTime, "waiting time of the MPI call running (Late Sender, Wait at Barrier, ...), 0 outside waits"));
  t.push_back(Thread("MPI Wait Pattern", G::kEvent, {}, I::kNone, kValidEvents, kernels::MpiWaitPattern, "pattern of that waiting: 1 Late Sender, 2 Late Receiver, 3 Wait at Barrier, 4 Wait at NxN, 5 Late Broadcast, 6 Early Reduce, 7 Wait at Finalize; 0 none"));
  t.push_back(Thread("On Critical Path", G::kEvent, {}, I::kNone, kValidEvents, kernels::OnCriticalPath, "share (0..1) of the MPI call or computation burst running that is on the critical path"));
  t.push_back(Thread("Last Evt Val w/o Bursts", G::kEvent, {}, I::kEventValue, kValidEvents, kernels::LastEvtValNoBursts, "value of the last non-zero event"));
  t.push_back(Thread("Next Evt Type", G::kEvent, {}, I::kEventType, kValidEvents, kernels::NextEvtType, "type of the next event"));
  t.push_back(Thread("Next Evt Val", G::kEvent, {}, I::kEventValue, kValidEvents, kernels::NextEvtVal, "value of the next event"));
  t.push_back(Thread("Avg Next Evt Val", G::kEvent, P("Factor", {1}), I::kNone, kValidEvents, kernels::AvgNextEvtVal, "next event value × factor / time to it"));
  t.push_back(Thread("Avg Last Evt Val", G::kEvent, P("Factor", {1}), I::kNone, kValidEvents, kernels::AvgLastEvtVal, "last event value × factor / time to the next"));
  t.push_back(Thread("Given Evt Val", G::kEvent, P("Event values", {1}), I::kEventValue, kValidEvents, kernels::GivenEvtVal, "the value if it is in the list"));
  t.push_back(Thread("In Evt Val", G::kEvent, P("Event values", {1}), I::kNone, kValidEvents, kernels::InEvtVal, "1 if the value is in the list"));
  t.push_back(Thread("Not In Evt Val", G::kEvent, P("Event values", {1}), I::kNone, kValidEvents, kernels::NotInEvtVal, "1 if the value is not in the list"));
  {
    std::vector<ParamDesc> range = {{"Min value", {0}}, {"Max value", {1}}};
    t.push_back(Thread("In Evt Range", G::kEvent, range, I::kNone, kValidEvents, kernels::InEvtRange, "1 if min <= value <= max"));
  }
  t.push_back(Thread("Int. Between Evt", G::kEvent, {}, I::kTime, kValidEvents, kernels::IntBetweenEvt, "time to the next event"));
  t.push_back(Thread("Event Bytes", G::kEvent, {}, I::kCommSize, kValidEvents, kernels::EventBytes, "bytes communicated until the next event"));
  t.push_back(Thread("Event Sent Bytes", G::kEvent, {}, I::kCommSize, kValidEvents, kernels::EventSentBytes, "bytes sent until the next event"));
  // Communication group (§4.3).
  t.push_back(Thread("Last Tag", G::kComm, {}, I::kCommTag, kValidPhyRecv, kernels::LastTag, "tag of the last receive"));
  t.push_back(Thread("Comm Size", G::kComm, {}, I::kCommSize, kCommAll, kernels::CommSize, "size of the last communication"));
  t.push_back(Thread("Comm Recv. Partner", G::kComm, {}, I::kObject, kCommRecv, kernels::CommRecvPartner, "sender of the next receive"));
  t.push_back(Thread("Comm Partner", G::kComm, {}, I::kObject, kCommSend, kernels::CommPartner, "receiver of the last send"));
  t.push_back(Thread("Last Send Dur.", G::kComm, {}, I::kTime, kValidLogSend, kernels::LastSendDur, "duration of the last send"));
  t.push_back(Thread("Next Recv Dur.", G::kComm, {}, I::kTime, kValidLogRecv, kernels::NextRecvDur, "time from the next receive's send"));
  t.push_back(Thread("Last Send Size", G::kComm, {}, I::kCommSize, kValidLogSend, kernels::LastSendSize, "size of the last send"));
  t.push_back(Thread("Send Bytes in Transit", G::kComm, {}, I::kCommSize, kCommSend | kRRecv, kernels::SendBytesInTransit, "bytes sent and not yet received", true));
  t.push_back(Thread("Send Messages in Transit", G::kComm, {}, I::kNone, kCommSend | kRRecv, kernels::SendMessagesInTransit, "messages sent and not yet received", true));
  t.push_back(Thread("Send BandWidth", G::kComm, P("Byte Factor", {1}), I::kBandwidth, kCommSend | kRRecv, kernels::SendBandWidth, "bandwidth of the messages in transit", true));
  t.push_back(Thread("Recv Bytes in Transit", G::kComm, {}, I::kCommSize, kCommRecv | kRSend, kernels::RecvBytesInTransit, "bytes being received", true));
  t.push_back(Thread("Recv Messages in Transit", G::kComm, {}, I::kNone, kCommRecv | kRSend, kernels::RecvMessagesInTransit, "messages being received", true));
  t.push_back(Thread("Recv BandWidth", G::kComm, P("Byte factor", {1}), I::kBandwidth, kCommRecv | kRSend, kernels::RecvBandWidth, "bandwidth of the messages being received", true));
  t.push_back(Thread("Recv Negative Messages", G::kComm, {}, I::kNone, kCommRecv | kRSend, kernels::RecvNegativeMessages, "messages received before sent", true));
  t.push_back(Thread("Recv Negative Bytes", G::kComm, {}, I::kCommSize, kCommRecv | kRSend, kernels::RecvNegativeBytes, "bytes received before sent", true));
  t.push_back(Thread("Number Of Sends", G::kComm, {}, I::kNone, kCommSend, kernels::NumberOfSends, "count of sends", true));
  t.push_back(Thread("Number Of Send Bytes", G::kComm, {}, I::kCommSize, kCommSend, kernels::NumberOfSendBytes, "bytes sent so far", true));
  t.push_back(Thread("Number Of Receives", G::kComm, {}, I::kNone, kCommRecv, kernels::NumberOfReceives, "count of receives", true));
  t.push_back(Thread("Number Of Receive Bytes", G::kComm, {}, I::kCommSize, kCommRecv, kernels::NumberOfReceiveBytes, "bytes received so far", true));
  // Object group (§4.4).
  t.push_back(Thread("Application ID", G::kObject, {}, I::kAppl, kObjectRecords, kernels::ApplicationId, "application of the thread"));
  t.push_back(Thread("TaskID", G::kObject, {}, I::kTask, kObjectRecords, kernels::TaskId, "task of the thread"));
  t.push_back(Thread("Thread ID", G::kObject, {}, I::kThread, kObjectRecords, kernels::ThreadId, "the thread"));
  t.push_back(Thread("Node ID", G::kObject, {}, I::kNode, kObjectRecords, kernels::NodeId, "node of the record's cpu"));
  t.push_back(Thread("Cpu ID", G::kObject, {}, I::kCpu, kObjectRecords, kernels::CpuId, "cpu of the record"));
  t.push_back(Thread("In Appl ID", G::kObject, P("Appl ID", {1}), I::kNone, kObjectRecords, kernels::InApplId, "application if in the list"));
  t.push_back(Thread("In Task ID", G::kObject, P("Task ID", {1}), I::kNone, kObjectRecords, kernels::InTaskId, "task if in the list"));
  t.push_back(Thread("In Thread ID", G::kObject, P("Thread ID", {1}), I::kNone, kObjectRecords, kernels::InThreadId, "thread if in the list"));
  t.push_back(Thread("In Node ID", G::kObject, P("Node ID", {1}), I::kNone, kObjectRecords, kernels::InNodeId, "0-based node if in the list"));
  t.push_back(Thread("In Cpu ID", G::kObject, P("CPU ID", {1}), I::kNone, kObjectRecords, kernels::InCpuId, "cpu if in the list"));
  // Compose functions (§5).
  std::vector<ParamDesc> ranges = {{"Max value", {1}}, {"Min value", {0}}};
  t.push_back(Compose("As Is", {}, I::kSameAsBelow, kernels::AsIs, "the input"));
  t.push_back(Compose("Sign", {}, I::kNone, kernels::Sign, "1 if the input is not 0"));
  t.push_back(Compose("1-Sign", {}, I::kNone, kernels::OneMinusSign, "1 if the input is 0"));
  t.push_back(Compose("Mod", P("Divider", {1}), I::kNone, kernels::Mod, "input modulo divider"));
  t.push_back(Compose("Mod+1", P("Divider", {1}), I::kNone, kernels::ModPlus1, "input modulo divider, plus 1"));
  t.push_back(Compose("Div", P("Divider", {1}), I::kNone, kernels::Div, "input / divider"));
  t.push_back(Compose("Prod", P("Factor", {0}), I::kNone, kernels::Prod, "input × factor"));
  t.push_back(Compose("Add", P("Value", {0}), I::kNone, kernels::Add, "input + value"));
  t.push_back(Compose("Subs", P("Value", {0}), I::kNone, kernels::Subs, "input − value"));
  t.push_back(Compose("Complement", P("Minuend", {0}), I::kNone, kernels::Complement, "minuend − input"));
  t.push_back(Compose("Inverse Div", P("Factor", {1}), I::kNone, kernels::InverseDiv, "factor / input"));
  t.push_back(Compose("Select Range", ranges, I::kSameAsBelow, kernels::SelectRange, "input if in [min, max]"));
  t.push_back(Compose("Select Range [)", ranges, I::kSameAsBelow, kernels::SelectRangeOpen, "input if in [min, max)"));
  t.push_back(Compose("Is In Range", ranges, I::kNone, kernels::IsInRange, "1 if in [min, max]"));
  t.push_back(Compose("Is In Range [)", ranges, I::kNone, kernels::IsInRangeOpen, "1 if in [min, max)"));
  t.push_back(Compose("Is Equal", P("Values", {1}), I::kSameAsBelow, kernels::IsEqual, "input if equal to a value"));
  t.push_back(Compose("Is Equal (Sign)", P("Values", {1}), I::kNone, kernels::IsEqualSign, "1 if equal to a value"));
  t.push_back(Compose("Floor", {}, I::kSameAsBelow, kernels::Floor, "floor"));
  t.push_back(Compose("Ceil", {}, I::kSameAsBelow, kernels::Ceil, "ceiling"));
  t.push_back(Compose("Round", {}, I::kSameAsBelow, kernels::Round, "round to nearest, ties to even"));
  t.push_back(Compose("Abs", {}, I::kSameAsBelow, kernels::Abs, "absolute value"));
  t.push_back(Compose("Stacked Val", {}, I::kSameAsBelow, kernels::StackedVal, "top of a stack pushed by non-zero values", true));
  t.push_back(Compose("In Stacked Val", P("Value", {1}), I::kNone, kernels::InStackedVal, "top of the stack if equal to value", true));
  t.push_back(Compose("Nesting level", {}, I::kNone, kernels::NestingLevel, "depth of nested non-zero values", true));
  t.push_back(Compose("LRU Depth", P("Stack size", {256}), I::kNone, kernels::LruDepth, "position in a most-recently-used list", true));
  t.push_back(Compose("Enumerate", {}, I::kNone, kernels::Enumerate, "count of non-zero inputs", true));
  t.push_back(Compose("Accumulate", {}, I::kNone, kernels::Accumulate, "running sum", true));
  t.push_back(Compose("Delta", {}, I::kNone, kernels::Delta, "change of the input", true));
  t.push_back(Compose("Burst Time", {}, I::kTime, kernels::BurstTime, "duration of the interval"));
  t.push_back(Compose("Divide by Burst Time", {}, I::kNone, kernels::DivideByBurstTime, "input / duration"));
  t.push_back(Compose("Begin Time", {}, I::kTime, kernels::BeginTime, "begin of the interval"));
  t.push_back(Compose("End Time", {}, I::kTime, kernels::EndTime, "end of the interval"));
  t.push_back(Compose("Join Bursts", {}, I::kSameAsBelow, kernels::AsIs, "merges consecutive equal values", true));
  t.push_back(Compose("Timer", P("Delta time", {1}), I::kSameAsBelow, kernels::AsIs, "shows each non-zero run for its first delta", true));
  t.push_back(Compose("Translate", P("Translation List", {}), I::kSameAsBelow, kernels::Translate, "maps values through a list of pairs"));
  t.push_back(Compose("sin", {}, I::kNone, kernels::Sin, "sine"));
  t.push_back(Compose("cos", {}, I::kNone, kernels::Cos, "cosine"));
  t.push_back(Compose("arc tan", {}, I::kNone, kernels::ArcTan, "arc tangent"));
  t.push_back(Compose("sqrt (abs)", {}, I::kNone, kernels::SqrtAbs, "square root of |x|"));
  t.push_back(Compose("log N", P("Base", {e}), I::kNone, kernels::LogN, "logarithm in a base"));
  t.push_back(Compose("exp", P("Base", {e}), I::kNone, kernels::Exp, "base to the power of x"));
  // Aggregations (§6).
  t.push_back(Aggregate("Adding", G::kAggregation, {}, I::kNone, kernels::Adding, "sum of the children"));
  t.push_back(Aggregate("AddingSign", G::kAggregation, {}, I::kNone, kernels::AddingSign, "1 if the sum is > 0"));
  t.push_back(Aggregate("Average", G::kAggregation, {}, I::kNone, kernels::Average, "average of the children"));
  t.push_back(Aggregate("Maximum", G::kAggregation, {}, I::kSameAsBelow, kernels::Maximum, "maximum, never below 0"));
  t.push_back(Aggregate("Minimum", G::kAggregation, {}, I::kSameAsBelow, kernels::Minimum, "minimum, skipping leading zeros"));
  t.push_back(Aggregate("Activity", G::kAggregation, P("Values", {1}), I::kNone, kernels::Activity, "the value if all children share it and it is listed"));
  t.push_back(Aggregate("In Activity", G::kAggregation, P("Values", {1}), I::kNone, kernels::InActivity, "1 under the Activity condition"));
  t.push_back(Aggregate("Mode", G::kAggregation, {}, I::kSameAsBelow, kernels::Mode, "most frequent value"));
  t.push_back(Aggregate("Thread i", G::kAggregation, P("Object", {1}), I::kSameAsBelow, kernels::ThreadI, "value of the i-th child (1-based)"));
  t.push_back(Aggregate("Add Tasks", G::kAggregation, P("Objects", {0}), I::kNone, kernels::AddTasks, "sum of the listed children (0-based)"));
  t.push_back(Aggregate("Changed value", G::kAggregation, {}, I::kSameAsBelow, kernels::ChangedValue, "value of the child that changed last", true));
  // CPU functions (§7).
  t.push_back(Aggregate("Active Thd", G::kCpu, {}, I::kSameAsBelow, kernels::ActiveThd, "value of the thread on the cpu"));
  t.push_back(Aggregate("Active Thd Sign", G::kCpu, {}, I::kNone, kernels::ActiveThdSign, "1 if that value is not 0"));
  t.push_back(Aggregate("Active Thd Val", G::kCpu, P("Values", {1}), I::kSameAsBelow, kernels::ActiveThdVal, "that value if listed"));
  t.push_back(Aggregate("Active Thd Val Sign", G::kCpu, P("Values", {1}), I::kNone, kernels::ActiveThdValSign, "1 if that value is listed"));
  // Derived functions (§8).
  t.push_back(Derived("add", I::kSameAsBelow, kernels::DerivedAdd, "a + b"));
  t.push_back(Derived("product", I::kSameAsBelow, kernels::DerivedProduct, "a × b"));
  t.push_back(Derived("substract", I::kSameAsBelow, kernels::DerivedSubstract, "a − b"));
  t.push_back(Derived("divide", I::kSameAsBelow, kernels::DerivedDivide, "a / b, 0 if b is 0"));
  t.push_back(Derived("maximum", I::kSameAsBelow, kernels::DerivedMaximum, "max(a, b)"));
  t.push_back(Derived("minimum", I::kSameAsBelow, kernels::DerivedMinimum, "min(a, b)"));
  t.push_back(Derived("different", I::kSameAsBelow, kernels::DerivedDifferent, "1 if a differs from b"));
  t.push_back(Derived("controlled: clear by", I::kSameAsBelow, kernels::ControlledClearBy, "a, cleared when b decreases", true));
  t.push_back(Derived("controlled: maximum", I::kSameAsBelow, nullptr, "maximum of the data inside each control interval"));
  t.push_back(Derived("controlled: add", I::kSameAsBelow, nullptr, "sum of the data inside each control interval"));
  t.push_back(Derived("controlled: enumerate", I::kNone, kernels::ControlledEnumerate, "count of data changes, reset when b decreases", true));
  t.push_back(Derived("controlled: average", I::kNone, nullptr, "time-weighted average of the data inside each control interval"));
  return t;
}

}  // namespace

std::span<const FunctionDesc> FunctionTable() {
  static const std::vector<FunctionDesc> kTable = BuildTable();
  return kTable;
}

bool SlotAccepts(Slot slot, FunctionGroup group) {
  switch (slot) {
    case Slot::kThread:
      return group == G::kState || group == G::kEvent || group == G::kComm || group == G::kObject;
    case Slot::kTask:
    case Slot::kAppl:
    case Slot::kWorkload:
    case Slot::kNode:
    case Slot::kSystem:
      return group == G::kAggregation;
    case Slot::kCpu:
      return group == G::kCpu;
    case Slot::kDerived:
      return group == G::kDerived;
    default:
      return group == G::kCompose;
  }
}

const FunctionDesc* FindFunction(std::string_view name, Slot slot) {
  for (const FunctionDesc& d : FunctionTable())
    if (d.name == name && SlotAccepts(slot, d.group)) return &d;
  return nullptr;
}

const FunctionDesc* FindFunctionAnyGroup(std::string_view name) {
  for (const FunctionDesc& d : FunctionTable())
    if (d.name == name) return &d;
  return nullptr;
}

std::string_view FunctionGroupName(FunctionGroup g) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "state", "event", "communication", "object", "compose", "aggregation", "cpu", "derived"};
  return kNames[static_cast<size_t>(g)];
}

std::string_view InfoTypeName(InfoType t) {
  static constexpr std::array<std::string_view, 15> kNames = {
      "same as below", "none", "object", "appl", "task", "thread", "node", "cpu",
      "time", "state", "event type", "event value", "comm size", "comm tag", "bandwidth"};
  return kNames[static_cast<size_t>(t)];
}

std::string_view SlotName(Slot slot) {
  static constexpr std::array<std::string_view, kSlotCount> kNames = {
      "thread", "compose_thread", "task", "compose_task", "appl", "compose_appl",
      "workload", "compose_workload", "cpu", "compose_cpu", "node", "compose_node",
      "system", "compose_system", "topcompose1", "topcompose2", "derived"};
  return kNames[static_cast<size_t>(slot)];
}

const char* DefaultFunction(Slot slot) {
  switch (slot) {
    case Slot::kThread: return "State As Is";
    case Slot::kTask:
    case Slot::kAppl:
    case Slot::kWorkload:
    case Slot::kNode:
    case Slot::kSystem: return "Adding";
    case Slot::kCpu: return "Active Thd";
    case Slot::kDerived: return "";
    default: return "As Is";
  }
}

const FunctionSpec& SlotFunction(const WindowSpec& w, Slot slot) {
  static const std::array<FunctionSpec, kSlotCount> kDefaults = [] {
    std::array<FunctionSpec, kSlotCount> d;
    for (size_t i = 0; i < kSlotCount; ++i) d[i].name = DefaultFunction(static_cast<Slot>(i));
    return d;
  }();
  const FunctionSpec& f = w.functions[static_cast<size_t>(slot)];
  return f.name.empty() ? kDefaults[static_cast<size_t>(slot)] : f;
}

}  // namespace parallax::semantic
