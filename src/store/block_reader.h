#pragma once
// Reads one thread's states or events a block at a time, from a plain or a compact store, so a
// pass over a thread holds one block whatever the thread's size (a pin decodes the whole thread
// at once). Compact blocks are decoded into the reader's own columns; plain columns are viewed
// in slices of the same size. Used by the passes that run over every thread while holding
// something per thread, such as the replay's operation streams (docs/scale.md).

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/model/ids.h"
#include "src/store/compact_records.h"
#include "src/store/compact_threads.h"
#include "src/store/trace_store.h"

namespace parallax::store {

template <typename Columns>
class BlockReader {
 public:
  BlockReader(const TraceStore& store, model::ThreadIndex t);
  BlockReader(BlockReader&&) noexcept = default;
  BlockReader& operator=(BlockReader&&) noexcept = default;

  // Moves to the next block; false after the last one. Throws DamagedRecords (compact_threads.h)
  // for a block that does not decode: one read from a damaged trace cache.
  bool Next();
  // The records: rows [begin(), end()) of columns().
  const Columns& columns() const { return plain_ != nullptr ? *plain_ : scratch_; }
  size_t begin() const { return begin_; }
  size_t end() const { return end_; }
  // The thread's records in the blocks Next() has given or passed over so far.
  uint64_t passed() const { return passed_; }

  // Events only: from now on, compact blocks whose dictionary has no type in any of the
  // inclusive `ranges` are passed over without decoding (plain slices are all given). A reader
  // that ignores every other type sees the same.
  void OnlyBlocksWith(std::vector<std::pair<uint32_t, uint32_t>> ranges) { ranges_ = std::move(ranges); }

  // Compact stores: the blocks' index, and block b alone (Next goes on after it).
  const compact::CompactColumns* coded() const { return coded_; }
  void Read(size_t b);

 private:
  [[noreturn]] void Damaged(size_t b, const std::string& what) const;
  bool Wanted(size_t b);

  const Columns* plain_ = nullptr;                  // a plain store's columns
  const compact::CompactColumns* coded_ = nullptr;  // a compact store's blocks
  uint32_t cpus_ = 0;
  size_t thread_ = 0;
  Columns scratch_;  // the decoded block
  size_t next_ = 0;  // the next block (compact) or row (plain)
  size_t begin_ = 0, end_ = 0;
  uint64_t passed_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;
  std::vector<uint32_t> dictionary_;
};

using StateReader = BlockReader<StateColumns>;
using EventReader = BlockReader<EventColumns>;

// Calls fn(columns, i) for each of thread t's states (or events, after Columns) in order, a
// block at a time, until fn returns false; returns false then, else true.
template <typename Columns, typename Fn>
bool ForEachRecord(const TraceStore& store, model::ThreadIndex t, Fn&& fn) {
  BlockReader<Columns> reader(store, t);
  while (reader.Next())
    for (size_t i = reader.begin(); i < reader.end(); ++i)
      if (!fn(reader.columns(), i)) return false;
  return true;
}

// The latest time of a thread's records (state begins and ends, event times). A compact
// thread's index tells it but for its last state block and those with an open-ended state:
// only these are decoded.
model::Time LastRecordTime(const TraceStore& store, model::ThreadIndex t);
// The earliest time of a thread's records (its first state's begin or first event), from the
// blocks' index for a compact thread; 0 for a thread without records.
model::Time FirstRecordTime(const TraceStore& store, model::ThreadIndex t);

}  // namespace parallax::store
