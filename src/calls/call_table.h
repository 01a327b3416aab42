#pragma once
// The MPI calls of a trace and the messages between them, read once from the store: the layer
// the diagnosis (wait states, critical path), the program structure and the comparison of runs
// share (../shared/spec/waitstates.md §1 states the rules).
//
// A rank is a task with MPI call events, in header order; its calls are those of its first
// thread with MPI call events (calls on its other threads are counted, not analysed). A call
// opens at an event of types 50000001-50000005 with a non-zero value and closes at the next one
// with value 0; events of one timestamp are taken in file order. A close without an open call is
// counted and ignored; an open while a call is open closes the earlier one there; a call still
// open at the end is truncated. The collective attributes (50100001-50100004) written at a call's
// entry belong to it. Each communication record is bound to the calls that sent it, posted its
// receive and completed it.
//
// Memory: 56 bytes per call and 12 per communication; the events are read a block at a time,
// passing over compact blocks without MPI events, and no state record is decoded.

#include <cstdint>
#include <string>
#include <vector>

#include "src/calls/mpi_names.h"
#include "src/model/pcf_catalog.h"
#include "src/model/time.h"
#include "src/model/trace_header.h"
#include "src/store/trace_store.h"

namespace parallax::calls {

using model::Time;

inline constexpr uint32_t kNoCall = UINT32_MAX;
inline constexpr uint32_t kNoRank = UINT32_MAX;
// A collective whose entry names no communicator belongs to its application's world.
inline constexpr int64_t kWorldCommunicator = INT64_MIN;

struct Call {
  Time entry = 0;
  Time exit = 0;
  int64_t value = 0;         // the event value (Extrae's call number)
  int64_t send_bytes = -1;   // collectives: 50100001, -1 when not recorded
  int64_t recv_bytes = -1;   // 50100002
  int64_t communicator = kWorldCommunicator;  // 50100004
  uint32_t type = 0;         // 50000001..50000005
  Op op = Op::kOther;
  bool root = false;         // 50100003 = 1
  bool truncated = false;    // never closed: ends at the thread's last record
};

// An event of another type the call table's pass kept (CallTableOptions::also_read).
struct OtherEvent {
  Time time = 0;
  uint32_t type = 0;
  int64_t value = 0;
};

struct Rank {
  uint32_t thread = 0;  // global thread index whose calls these are
  uint32_t task = 0;    // global task index
  uint32_t appl = 0;
  std::vector<Call> calls;  // in entry order
  Time first_record = 0;    // the thread's first and last record times
  Time last_record = 0;
  std::vector<OtherEvent> other;  // its events of CallTableOptions::also_read types, in order
};

// A communication record bound to calls: ranks index CallTable::ranks, calls index the rank's
// calls (kNoCall: the time falls in no call of that rank; kNoRank: the thread is not a rank).
struct MessageCalls {
  uint32_t sender = kNoRank, receiver = kNoRank;
  uint32_t send_call = kNoCall;  // the sender's call holding the logical send
  uint32_t post_call = kNoCall;  // the receiver's call holding the logical receive
  uint32_t done_call = kNoCall;  // the receiver's call holding the physical receive
};

struct CallCounts {
  uint64_t mpi_events = 0;          // call entries and exits read
  uint64_t stray_closes = 0;        // a close with no open call (ignored)
  uint64_t nested_opens = 0;        // an open while a call was open (the earlier one closed)
  uint64_t truncated_calls = 0;     // never closed
  uint64_t other_thread_calls = 0;  // calls on a rank's threads after its first MPI thread
  uint64_t unbound_messages = 0;    // communications whose send or completion is in no call
  uint64_t first_unbound = UINT64_MAX;  // the first of them (a communication row)
};

struct CallTable {
  std::vector<Rank> ranks;
  std::vector<uint32_t> rank_of_thread;  // per global thread; kNoRank when not a rank's thread
  std::vector<MessageCalls> messages;    // per communication record (the store's comm rows)
  CallCounts counts;
  // The header's communicator lines: (application index, communicator id) -> member ranks.
  struct Communicator {
    uint32_t appl = 0;
    int64_t id = 0;
    std::vector<uint32_t> ranks;  // indices into `ranks`
  };
  std::vector<Communicator> communicators;
  // The event types (inclusive ranges) whose events Rank::other holds.
  std::vector<std::pair<uint32_t, uint32_t>> also_read;

  const Call& call(uint32_t rank, uint32_t index) const { return ranks[rank].calls[index]; }
};

struct CallTableOptions {
  unsigned worker_threads = 1;  // 0: all cores
  // Also keep each rank's events of these types (inclusive ranges, none of them MPI types) in
  // Rank::other, read in the same pass (the structure's markers: one pass instead of two).
  std::vector<std::pair<uint32_t, uint32_t>> also_read;
};

// Reads the calls of every thread of `store` (pcf names them; may be null). Throws
// store::DamagedRecords when the records come from a damaged cache.
CallTable BuildCallTable(const model::TraceHeader& header, const store::TraceStore& store,
                         const model::PcfCatalog* pcf, const CallTableOptions& options = {});

// The first call of `calls` (in entry order) entered at or after t: calls.size() when none.
uint32_t FirstCallFrom(const std::vector<Call>& calls, Time t);
// The last call entered at or before t, or kNoCall.
uint32_t LastCallEnteredBy(const std::vector<Call>& calls, Time t);

// The name of a call: its .pcf label, else Extrae's name, else "MPI call <value>".
std::string CallName(const model::PcfCatalog* pcf, const Call& call);

}  // namespace parallax::calls
