#pragma once
// The MPI structure of a trace, as the replay engine executes it: per MPI thread a stream of
// operations (CPU bursts between MPI calls, message posts and waits, collectives) and the
// point-to-point messages that link them (docs/replay.md "What is replayed").
//
// An MPI call is the interval between an event of types 50000001-50000005 with a non-zero
// value (the call) and the next event of those types with value 0 (Extrae's .pcf). A message
// is a communication record: its send belongs to the sender's call that contains the logical
// send time, its receive is posted by the receiver's call that contains the logical receive
// time and completed by the call that contains the physical receive time.
//
// The operations are not stored: BuildProgram reads each thread once to find its calls and which
// call each message belongs to, and keeps only that (three entries per message, a few numbers
// per process). The engine then generates each process' operations as it reaches them
// (OpStream), reading the thread's events a block at a time again. So the replay's memory grows
// with the messages and the processes, not with the records (docs/scale.md).

#include <cstdint>
#include <memory>
#include <utility>
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
  // kBurst: the original length in trace units; kMark: the original time it marks.
  Time duration = 0;
};
static_assert(sizeof(Op) == 16);

struct CollectiveCall {
  uint32_t model_id = 0;
  int64_t send_bytes = 0;
  int64_t recv_bytes = 0;
  Time original_time = 0;  // call entry in the original trace, for messages
  // Collectives are matched by communicator (event 50100004, kWorld when absent) and by their
  // order on it: the n-th collective of a process on communicator C meets the n-th of the
  // others on C. `ordinal` is that n (from 0).
  int64_t communicator = kWorld;
  uint32_t ordinal = 0;
  uint64_t number = 0;  // the process' n-th collective, on any communicator (from 0)
};

// A point where the original time of a thread and its replayed time are known; the predicted
// trace maps every time linearly between consecutive anchors.
struct Anchor {
  Time original = 0;
  double replayed = 0;  // trace units, filled by the engine
};

// A message in one of a process' lists: the call (numbered from 0 among the thread's MPI calls)
// and the communication (its row in the trace's communication table: the message's id).
struct MessageRef {
  uint32_t call = 0;
  uint32_t comm = 0;
};

// One replayed thread (normally the single thread of an MPI task).
struct Process {
  uint32_t thread = 0;  // global thread index
  // Its messages by call, in communication order within a call: those it sends, the receives it
  // posts and the receives it completes.
  std::vector<MessageRef> sends, posts, waits;
  // How many collectives it calls on each communicator (MPI_Init's barrier counts on kWorld).
  std::vector<std::pair<int64_t, uint32_t>> collectives;
  Time last_record = 0;  // the thread's last time: its last burst ends there
  Time compute = 0;      // total burst time, original units
  uint64_t mpi_calls = 0;
  // Filled by the engine when ProgramOptions::keep_anchors (original times non-decreasing).
  std::vector<Anchor> anchors;
};

struct ProgramOptions {
  bool init_barrier = true;     // MPI_Init becomes a collective of every process
  unsigned worker_threads = 1;  // threads are read in parallel; 0 = all cores
  // Record the anchors the predicted trace is mapped with (two per MPI call).
  bool keep_anchors = true;
};

struct Program {
  std::vector<Process> processes;
  std::vector<int32_t> process_of_thread;  // -1: the thread has no MPI calls
  uint64_t messages = 0;                   // communications replayed
  uint64_t mpi_events = 0;                 // MPI call events read (entries and exits)
  Diagnostics diagnostics;
  // What the operations are generated from; they must outlive the program.
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  const model::PcfCatalog* pcf = nullptr;
  ProgramOptions options;
};

// Builds the program of a loaded trace; `pcf` (may be null) names the MPI calls. Throws
// store::DamagedRecords when the trace's records are read from a damaged cache.
Program BuildProgram(const model::TraceHeader& header, const store::TraceStore& store,
                     const model::PcfCatalog* pcf, const ProgramOptions& options);

// The operations of one process, generated in order a block of the thread's events at a time:
// the engine holds one block's worth of operations per process.
class OpStream {
 public:
  OpStream(const Program& program, uint32_t process);
  OpStream(OpStream&&) noexcept;
  OpStream& operator=(OpStream&&) noexcept;
  ~OpStream();

  // The current operation, or null after the last one.
  const Op* current() const { return pos_ < ops_.size() ? &ops_[pos_] : nullptr; }
  void Advance() {
    if (++pos_ == ops_.size()) Refill();
  }
  // The collective call of the current kCollective operation (its `arg`).
  const CollectiveCall& collective(uint32_t arg) const { return collectives_[arg]; }

 private:
  struct Reader;
  void Refill();

  std::vector<Op> ops_;
  std::vector<CollectiveCall> collectives_;
  size_t pos_ = 0;
  std::unique_ptr<Reader> reader_;
};

}  // namespace parallax::replay
