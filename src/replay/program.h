#pragma once
// The MPI structure of a trace, as the replay engine executes it: per MPI thread a list of
// operations (CPU bursts between MPI calls, message posts and waits, collectives) and the
// point-to-point messages that link them. Built in one pass over each thread's events and one
// pass over the communication table (docs/replay.md "What is replayed").
//
// An MPI call is the interval between an event of types 50000001-50000005 with a non-zero
// value (the call) and the next event of those types with value 0 (Extrae's .pcf). A message
// is a communication record: its send belongs to the sender's call that contains the logical
// send time, its receive is posted by the receiver's call that contains the logical receive
// time and completed by the call that contains the physical receive time.

#include <cstdint>
#include <string>
#include <vector>

#include "src/model/pcf_catalog.h"
#include "src/model/time.h"
#include "src/model/trace_header.h"
#include "src/replay/replay_diagnostics.h"
#include "src/store/trace_store.h"

namespace parallax::replay {

using model::Time;

inline constexpr uint32_t kMpiFirstType = 50000001;  // point-to-point
inline constexpr uint32_t kMpiLastType = 50000005;
inline constexpr uint32_t kCollectiveSendSizeType = 50100001;
inline constexpr uint32_t kCollectiveRecvSizeType = 50100002;
inline constexpr uint32_t kCollectiveCommunicatorType = 50100004;
// The communicator of MPI_Init's barrier and of collectives whose trace names none.
inline constexpr int64_t kWorld = INT64_MIN;

// What an MPI call does, as far as the replay is concerned.
enum class CallKind : uint8_t {
  kLocal,       // no communication (MPI_Comm_rank, ...): takes no time
  kSend,        // blocking send: MPI_Send, Ssend, Bsend, Rsend
  kIsend,       // non-blocking send: completed by the next wait call
  kRecv,        // blocking receive
  kIrecv,       // non-blocking receive: completed where its data arrives
  kSendRecv,    // MPI_Sendrecv(_replace): Irecv + blocking Send + Wait
  kWait,        // MPI_Wait*, completes pending non-blocking sends
  kCollective,  // synchronises every task, with a modelled cost
  kInit,        // MPI_Init(_thread): a barrier of every task when the model asks for one
};

// How a call of event type `type` and value `value` is replayed; `label` is its .pcf label
// (may be null): a label names the call, else Extrae's numbering is assumed. For collectives
// `collective_id` receives the id its cost model is looked up by.
CallKind ClassifyCall(uint32_t type, int64_t value, const std::string* label,
                      uint32_t* collective_id);

enum class OpKind : uint8_t {
  kBurst,       // arg unused, duration: original length in trace units
  kMark,        // record the clock in anchor `arg`
  kSendPost,    // message `arg` leaves (after the sender's latency)
  kSendWait,    // wait until message `arg` no longer needs the sender
  kRecvPost,    // the receive of message `arg` is posted
  kRecvWait,    // wait until message `arg` has arrived
  kCollective,  // the process's collective number `arg`
};

struct Op {
  OpKind kind = OpKind::kBurst;
  uint32_t arg = 0;
  Time duration = 0;
};
static_assert(sizeof(Op) == 16);

struct Message {
  uint32_t sender = 0;    // process index
  uint32_t receiver = 0;  // process index
  int64_t size = 0;       // bytes
  uint32_t comm = 0;      // row in the trace's communication table
};

struct CollectiveCall {
  uint32_t model_id = 0;
  int64_t send_bytes = 0;
  int64_t recv_bytes = 0;
  Time original_time = 0;  // call entry in the original trace, for messages
  // Collectives are matched by communicator (event 50100004, kWorld when absent) and by their
  // order on it: the n-th collective of a process on communicator C meets the n-th of the
  // others on C.
  int64_t communicator = kWorld;
};

// A point where the original time of a thread and its replayed time are known; the predicted
// trace maps every time linearly between consecutive anchors.
struct Anchor {
  Time original = 0;
  double replayed = 0;  // trace units, filled by the engine
};

// One replayed thread (normally the single thread of an MPI task).
struct Process {
  uint32_t thread = 0;  // global thread index
  std::vector<Op> ops;
  std::vector<CollectiveCall> collectives;
  std::vector<Anchor> anchors;  // original times non-decreasing
  Time compute = 0;             // total burst time, original units
  uint64_t mpi_calls = 0;
};

struct Program {
  std::vector<Process> processes;
  std::vector<Message> messages;
  std::vector<int32_t> process_of_thread;  // -1: the thread has no MPI calls
  uint64_t mpi_events = 0;                 // MPI call events read (entries and exits)
  Diagnostics diagnostics;
};

struct ProgramOptions {
  bool init_barrier = true;     // MPI_Init becomes a collective of every process
  unsigned worker_threads = 1;  // threads are read in parallel; 0 = all cores
};

// Builds the program of a loaded trace; `pcf` (may be null) names the MPI calls.
Program BuildProgram(const model::TraceHeader& header, const store::TraceStore& store,
                     const model::PcfCatalog* pcf, const ProgramOptions& options);

}  // namespace parallax::replay
