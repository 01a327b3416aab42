#pragma once
// The records of one thread in Paraver's list order (trace-format.md §4.1), merged on the fly
// from the store's columns: state begins, state ends, events, and the thread's communication
// records. At equal times records go by rank: state end, physical receive, logical send,
// physical send (and remote physical records), events and logical receives (and remote logical
// records), state begin; equal rank keeps creation order, events before communications.
// A cursor moves forwards and backwards; seeking to a time costs a binary search per column.

#include <cstdint>
#include <vector>

#include "src/model/time.h"
#include "src/store/trace_store.h"

namespace parallax::semantic {

using model::Time;

enum class RecKind : uint8_t {
  kEmpty,       // the sentinels at time 0 and at the trace end
  kStateBegin,
  kStateEnd,
  kEvent,
  kLogSend,     // COMM LOG SEND (sender side)
  kPhySend,     // COMM PHY SEND
  kRRecvLog,    // RRECV + LOG: the sender's view of the logical receive
  kRRecvPhy,    // RRECV + PHY
  kLogRecv,     // COMM LOG RECV (receiver side)
  kPhyRecv,     // COMM PHY RECV
  kRSendLog,    // RSEND + LOG: the receiver's view of the logical send
  kRSendPhy,    // RSEND + PHY
};

inline bool IsComm(RecKind k) { return k >= RecKind::kLogSend; }
inline bool IsLogical(RecKind k) {
  return k == RecKind::kLogSend || k == RecKind::kRRecvLog || k == RecKind::kLogRecv || k == RecKind::kRSendLog;
}
inline bool IsRecvSide(RecKind k) {  // a record describing a receive (COMM RECV or RRECV)
  return k == RecKind::kLogRecv || k == RecKind::kPhyRecv || k == RecKind::kRRecvLog || k == RecKind::kRRecvPhy;
}

// One record of the merged list. `index` is the row in the state or event columns, or the
// communication id; `stream` and `pos` locate it in the cursor's streams.
struct RecordRef {
  Time time = 0;
  RecKind kind = RecKind::kEmpty;
  uint16_t cpu = 0;
  uint32_t index = 0;
  bool operator==(const RecordRef&) const = default;
};

// Per-thread helper data built once (communication records of the thread, state ends order).
class ThreadRecords {
 public:
  // `with_comms`: build the thread's communication records (not needed by state or event
  // functions, and the only part of this object that costs more than O(1)).
  ThreadRecords(const store::TraceStore& store, uint32_t thread, bool with_comms = true);

  const store::TraceStore& store() const { return *store_; }
  uint32_t thread() const { return thread_; }
  const store::StateColumns& states() const { return *states_; }
  const store::EventColumns& events() const { return *events_; }
  Time end_time() const { return store_->end_time(); }

  // State ends in list order: indices into the state columns sorted by (end time, index),
  // skipping open-ended states. Identity order when ends are already sorted.
  uint32_t end_count() const { return static_cast<uint32_t>(end_order_.empty() ? plain_ends_ : end_order_.size()); }
  uint32_t EndState(uint32_t k) const { return end_order_.empty() ? k + first_plain_end_ : end_order_[k]; }
  Time EndTime(uint32_t k) const { return states_->end[EndState(k)]; }

  struct CommRecord {
    Time time;
    uint32_t comm;
    RecKind kind;
  };
  const std::vector<CommRecord>& comms() const { return comms_; }

  // True when a state of this thread begins exactly at `t` (fill-state-gaps rule). `state` is a
  // state whose begin is known to be near t (the one ending at t): it usually answers without a
  // search.
  bool StateBeginsAt(Time t, uint32_t state) const;

 private:
  const store::TraceStore* store_;
  uint32_t thread_;
  std::shared_ptr<const store::ThreadRecords> pin_;  // the thread's records, held
  const store::StateColumns* states_;
  const store::EventColumns* events_;
  std::vector<uint32_t> end_order_;  // empty when ends are sorted and none is open
  uint32_t plain_ends_ = 0;
  uint32_t first_plain_end_ = 0;
  std::vector<CommRecord> comms_;
};

// A position in the merged list: the records before it are the prefixes [0, b) of begins,
// [0, e) of ends, [0, v) of events, [0, c) of communication records. `at_start` is the leading
// EMPTY, `at_end` the trailing EMPTY.
class RecordCursor {
 public:
  // Which record streams the cursor merges; records of other streams are invisible to it.
  enum StreamMask : uint8_t { kStateStreams = 1, kEventStream = 2, kCommStream = 4, kAllStreams = 7 };

  explicit RecordCursor(const ThreadRecords& tr, uint8_t streams = kAllStreams) : tr_(&tr), streams_(streams) {}

  // Positions at the leading EMPTY.
  void Reset();
  // Positions right after every record with time <= t (the next record has time > t).
  void SeekAfter(Time t);
  // The current record (EMPTY at either end).
  const RecordRef& current() const { return current_; }
  // Moves to the next record; returns false when it was already at the trailing EMPTY.
  bool Next();
  // Moves to the previous record; returns false when it was already at the leading EMPTY.
  bool Prev();
  bool at_start() const { return at_start_; }
  bool at_end() const { return at_end_; }
  const ThreadRecords& records() const { return *tr_; }

 private:
  enum Stream : uint8_t { kBegins, kEnds, kEvents, kComms, kNone };
  RecordRef Head(Stream s, uint32_t pos) const;
  bool Before(const RecordRef& a, Stream sa, uint32_t pa, const RecordRef& b, Stream sb, uint32_t pb) const;
  uint32_t Size(Stream s) const;
  // Makes the latest consumed record current (the leading EMPTY when none is).
  void SetCurrentToLatest();

  const ThreadRecords* tr_;
  uint8_t streams_ = kAllStreams;
  uint32_t pos_[4] = {0, 0, 0, 0};  // records of each stream strictly before the cursor
  RecordRef current_;
  Stream current_stream_ = kNone;
  bool at_start_ = true;
  bool at_end_ = false;
};

int Rank(RecKind k);

}  // namespace parallax::semantic
