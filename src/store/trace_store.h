#pragma once
// The columnar in-memory store of a loaded trace: per thread, the state intervals and events in
// time order, one table of communications indexed by sender and by receiver, and the per-cpu
// view. Built once by a reader, then frozen (read-only) for the analysis modules.
//
// Ordering guarantees (trace-format.md §4.1, plain stable sort): states by begin time, events by
// time; records with equal keys keep file order (event pairs keep their order in the line).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/base/mapping_guard.h"
#include "src/model/ids.h"
#include "src/store/column.h"
#include "src/model/time.h"

namespace parallax::store {

using model::Time;

// State intervals of one thread, as parallel columns (22 bytes per record).
struct StateColumns {
  Column<Time> begin;
  Column<Time> end;  // model::kNoEnd when the record was open-ended (-1)
  Column<uint32_t> state;
  Column<uint16_t> cpu;  // 1-based cpu, 0 = none

  size_t size() const { return begin.size(); }
  size_t MemoryBytes() const;
  void Resize(size_t n);
  void Reserve(size_t n);
  // Moves rows [first, last) down to start at `to` (to <= first); used to close gaps.
  void MoveRange(size_t first, size_t last, size_t to);
  // Keeps the first n rows and releases the rest of the memory.
  void Truncate(size_t n);
};

// Events of one thread, one row per type:value pair (22 bytes per record).
struct EventColumns {
  Column<Time> time;
  Column<uint32_t> type;
  Column<int64_t> value;  // raw value; values written above INT64_MAX wrap (see writer)
  Column<uint16_t> cpu;

  size_t size() const { return time.size(); }
  size_t MemoryBytes() const;
  void Resize(size_t n);
  void Reserve(size_t n);
  void MoveRange(size_t first, size_t last, size_t to);
  void Truncate(size_t n);
};

// All point-to-point communications of the trace; the row number is the communication id
// (order of appearance in the file).
struct CommTable {
  Column<uint32_t> sender;  // global thread
  Column<uint32_t> receiver;
  Column<uint16_t> sender_cpu;
  Column<uint16_t> receiver_cpu;
  Column<Time> log_send;
  Column<Time> phy_send;
  Column<Time> log_recv;
  Column<Time> phy_recv;
  Column<int64_t> size;
  Column<int64_t> tag;

  size_t rows() const { return sender.size(); }
  size_t MemoryBytes() const;
  void Resize(size_t n);
};

// Records of one thread plus its views into the communication table.
struct ThreadRecords {
  StateColumns states;
  EventColumns events;
  Column<uint32_t> sent;      // comm ids with this sender, by logical send time
  Column<uint32_t> received;  // comm ids with this receiver, by logical receive time
};

// A run of consecutive records of one thread that all ran on the same cpu: records
// [first, last) of that thread's state (or event) columns.
struct CpuRun {
  uint32_t thread = 0;
  uint32_t first = 0;
  uint32_t last = 0;
};

// The per-cpu view (trace-format.md §4.2): for every cpu, the runs of thread records whose cpu
// field is that cpu, ordered by the time of their first record, then by thread. Consumers merge
// the runs by time to get Paraver's cpu record stream.
struct CpuView {
  std::vector<std::vector<CpuRun>> state_runs;  // index cpu-1
  std::vector<std::vector<CpuRun>> event_runs;
  size_t MemoryBytes() const;
};

class CompactThreads;
struct CodedThread;

// Which parts of a thread's records a reader needs (TraceStore::Pin).
enum class RecordParts : uint8_t { kStates = 1, kEvents = 2, kAll = 3 };

class TraceStore {
 public:
  TraceStore() = default;
  explicit TraceStore(size_t threads) : threads_(threads) {}

  size_t threads() const { return threads_.size(); }
  // A thread's records. In a compact store (Compact, below) the const one decodes the thread
  // for good the first time (prefer Pin), and the mutable one turns the whole store back into
  // plain columns first.
  ThreadRecords& thread(model::ThreadIndex t) {
    if (compact_) Decompact();
    return threads_[t.value];
  }
  const ThreadRecords& thread(model::ThreadIndex t) const;
  // A thread's records, held while the pointer is: in a compact store, the parts asked for are
  // decoded (the others are empty) and kept within the resident budget; otherwise the store's
  // own records (the pointer owns nothing). Must not outlive the store.
  std::shared_ptr<const ThreadRecords> Pin(model::ThreadIndex t, RecordParts parts = RecordParts::kAll) const;
  // Record counts of a thread, without decoding it.
  uint64_t StateCount(model::ThreadIndex t) const;
  uint64_t EventCount(model::ThreadIndex t) const;
  // The communication indices of a thread, without decoding it.
  const Column<uint32_t>& Sent(model::ThreadIndex t) const;
  const Column<uint32_t>& Received(model::ThreadIndex t) const;

  // Codes every thread's states and events in blocks (store/compact_records.h) and releases the
  // plain columns; up to `resident_budget` bytes of decoded threads are kept for later pins.
  void Compact(uint64_t resident_budget, unsigned worker_threads);
  // Takes threads already coded (a trace cache's), with one entry per thread; the store's
  // communication indices move into them. `cpus`: the largest cpu a record may name.
  void AdoptCompact(std::vector<CodedThread> coded, uint64_t resident_budget, uint32_t cpus);
  bool compact() const { return static_cast<bool>(compact_); }
  // The compact threads (null for a plain store).
  const CompactThreads* compact_threads() const { return compact_.get(); }
  CommTable& comms() { return comms_; }
  const CommTable& comms() const { return comms_; }
  CpuView& cpu_view() { return cpu_view_; }
  const CpuView& cpu_view() const { return cpu_view_; }

  // max(header end, every state begin/end and event time), trace-format.md §5.
  Time end_time() const { return end_time_; }
  void set_end_time(Time t) { end_time_ = t; }

  uint64_t state_records() const;
  uint64_t event_records() const;
  // Bytes held by every column and index (capacity, not size).
  size_t MemoryBytes() const;
  // Bytes of the records as the store has them, on the heap or mapped from a trace cache: plain
  // columns at their size, a compact store's blocks at their coded size (with their index),
  // the communication table and indices.
  uint64_t RecordBytes() const;

  // The files whose mappings the columns view (a trace cache): when one of them is truncated
  // while in use, its pages read as zeros (mapping_guard.h) and every result is suspect.
  void AddMappedFile(std::shared_ptr<const base::MappingStatus> file) {
    if (file) mapped_files_.push_back(std::move(file));
  }
  // The first of them that was truncated, or null.
  const base::MappingStatus* TruncatedFile() const {
    for (const auto& f : mapped_files_)
      if (f->truncated()) return f.get();
    return nullptr;
  }

 private:
  // Back to plain columns: every thread decoded into threads_.
  void Decompact();

  std::vector<ThreadRecords> threads_;
  std::shared_ptr<const CompactThreads> compact_;  // set for a compact store
  CommTable comms_;
  CpuView cpu_view_;
  Time end_time_ = 0;
  std::vector<std::shared_ptr<const base::MappingStatus>> mapped_files_;
};

// Fills the sent/received indices of every thread from the communication table.
void BuildCommIndices(TraceStore& store, unsigned worker_threads);
// Builds the per-cpu view for a trace with `cpus` cpus.
void BuildCpuView(TraceStore& store, uint32_t cpus, unsigned worker_threads);

// The distinct event types of threads first, first + step, ... (all of them with 0, 1), sorted.
std::vector<uint32_t> ScanEventTypes(const TraceStore& store, size_t first = 0, size_t step = 1);

}  // namespace parallax::store
