#pragma once
// The one descriptor table of semantic functions: every function Paraver offers, with its name
// as Paraver spells it, its group, its parameters with defaults, its info type (for labels and
// colours), whether it is stateful, and its kernel. The cfg reader, the command line, the server
// and the generated reference (docs/functions.md) all read this table.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "src/semantic/window_spec.h"

namespace parallax {
struct CustomFunction;  // include/parallax/functions.h
}

namespace parallax::semantic {

enum class FunctionGroup : uint8_t {
  kState,        // thread functions over state records
  kEvent,        // thread functions over events
  kComm,         // thread functions over communications
  kObject,       // thread functions returning object ids
  kCompose,      // one input
  kAggregation,  // n inputs (task, appl, workload, node, system)
  kCpu,          // cpu functions
  kDerived,      // two windows
};

// What a window's values mean, for labels and colours (semantics.md §10).
enum class InfoType : uint8_t {
  kSameAsBelow,
  kNone,
  kObject,
  kAppl,
  kTask,
  kThread,
  kNode,
  kCpu,
  kTime,
  kState,
  kEventType,
  kEventValue,
  kCommSize,
  kCommTag,
  kBandwidth,
};

struct ParamDesc {
  std::string_view name;
  std::vector<double> defaults;
};

// Kernels. Their argument types are defined by the evaluator (src/semantic/kernels.h).
struct ThreadCall;
struct ComposeCall;
struct AggregateCall;
struct DerivedCall;
using ThreadKernel = double (*)(const ThreadCall&);
using ComposeKernel = double (*)(ComposeCall&);
using AggregateKernel = double (*)(AggregateCall&);
using DerivedKernel = double (*)(DerivedCall&);

// Which records can start an interval of a thread function (semantics.md §2.1, §4).
enum RecordMask : uint32_t {
  kValidStates = 1u << 0,       // STATE BEGIN (+ END per the fill-gap rule)
  kValidEvents = 1u << 1,       // EVENT records passing the filter
  kValidLogSend = 1u << 2,      // COMM LOG SEND
  kValidPhySend = 1u << 3,      // COMM PHY SEND
  kValidLogRecv = 1u << 4,      // COMM LOG RECV
  kValidPhyRecv = 1u << 5,      // COMM PHY RECV
  kValidRSendLog = 1u << 6,     // RSEND + LOG (receiver side view of the send)
  kValidRSendPhy = 1u << 7,
  kValidRRecvLog = 1u << 8,     // RRECV + LOG (sender side view of the receive)
  kValidRRecvPhy = 1u << 9,
  kValidStateEnds = 1u << 10,   // every STATE END (object functions)
};

struct FunctionDesc {
  std::string_view name;
  FunctionGroup group;
  std::vector<ParamDesc> params;
  InfoType info = InfoType::kNone;
  bool stateful = false;  // needs iteration from time 0 ("init from begin")
  uint32_t valid = 0;     // RecordMask, thread functions only
  ThreadKernel thread = nullptr;
  ComposeKernel compose = nullptr;
  AggregateKernel aggregate = nullptr;
  DerivedKernel derived = nullptr;
  std::string_view doc;  // one line for the generated reference
  // Functions added to a FunctionRegistry (plug-ins, Python): the kernels above are the generic
  // Custom* kernels, which call this; `origin` names the library or front end.
  const CustomFunction* custom = nullptr;
  std::string_view origin;
};

// Every function, in a stable order.
std::span<const FunctionDesc> FunctionTable();

// Looks a function up by exact Paraver name among the groups a slot accepts; null if none.
const FunctionDesc* FindFunction(std::string_view name, Slot slot);
// Looks a function up by name in any group.
const FunctionDesc* FindFunctionAnyGroup(std::string_view name);
// Whether a slot accepts functions of a group (THREAD: state/event/comm/object; CPU: cpu;
// compose slots: compose; aggregation slots: aggregation; DERIVED: derived).
bool SlotAccepts(Slot slot, FunctionGroup group);

std::string_view FunctionGroupName(FunctionGroup g);
std::string_view InfoTypeName(InfoType t);
// The cfg level name of a slot ("thread", "compose_thread", "topcompose1", ...).
std::string_view SlotName(Slot slot);

}  // namespace parallax::semantic
