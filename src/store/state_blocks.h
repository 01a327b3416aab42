#pragma once
// Summaries of a thread's state records by blocks, so that a timeline column spanning thousands
// of states is reduced from a few block summaries instead of every record (the level of detail
// of the scale issue, docs/scale.md "Timeline frames of long rows").
//
// A state k is *dense* when it is closed, longer than zero, and the next state begins exactly
// where it ends (or it is the thread's last): a run of dense states is a run of semantic
// intervals of State As Is with no gap between them, one interval per record. Blocks of 64
// states (small) and of 64 small blocks (large) keep, for their states: whether all are dense,
// the end of the last one, the sum, maximum, smallest non-zero value and number of non-zero
// values. A query is answered from at most two partial small blocks and whole blocks in between:
// O(64 + blocks) instead of O(states), whatever the trace's size.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "src/model/ids.h"
#include "src/store/column.h"
#include "src/store/trace_store.h"

namespace parallax::store {

// What a run of states holds.
struct StateSummary {
  uint64_t count = 0;
  uint64_t non_zero = 0;
  uint64_t sum = 0;            // of the values
  uint32_t max = 0;            // 0 when empty
  uint64_t min_non_zero = kNone;  // kNone when every value is 0
  static constexpr uint64_t kNone = UINT64_MAX;

  void Add(uint32_t value);
  void Add(const StateSummary& o);
};

class StateBlocks {
 public:
  static constexpr size_t kSmall = 64;
  static constexpr size_t kLarge = kSmall * 64;

  // A block's summary, 32 bytes with no padding (the trace cache stores them as they are):
  // count is the block's size; min_non_zero is valid when non_zero > 0.
  struct Block {
    uint64_t sum = 0;
    model::Time last_end = 0;  // end of the block's last state
    uint32_t max = 0;
    uint32_t min_non_zero = 0;
    uint32_t non_zero = 0;
    uint32_t dense = 0;  // 1: every state of the block is dense
  };

  StateBlocks() = default;
  explicit StateBlocks(const StateColumns& states);
  // Blocks made elsewhere (a trace cache): `small` and `large` must have SmallBlocks(n) and
  // LargeBlocks(n) entries for the n states they summarise (see Fits).
  StateBlocks(Column<Block> small, Column<Block> large) : small_(std::move(small)), large_(std::move(large)) {}
  // Adds the summaries of states [0, count) of `s`, which follow the states summarised so far
  // (a whole number of large blocks of them): a thread's states summarised as they arrive
  // (store/compact_builder.h). Whether the last of them is dense is decided by s.begin[count]
  // when `s` has it, so it must be the next state of the thread.
  void Append(const StateColumns& s, size_t count);

  static size_t SmallBlocks(size_t states) { return (states + kSmall - 1) / kSmall; }
  static size_t LargeBlocks(size_t states) { return (states + kLarge - 1) / kLarge; }
  // Whether these blocks have the counts `states` states need.
  bool Fits(size_t states) const {
    return small_.size() == SmallBlocks(states) && large_.size() == LargeBlocks(states);
  }
  const Column<Block>& small() const { return small_; }
  const Column<Block>& large() const { return large_; }

  // Whether state k (< size) is dense (see above).
  static bool Dense(const StateColumns& s, size_t k);

  // The end of the longest run of states [from, f) that are all dense and end before `limit`:
  // the first state at or after `from` that is not dense or ends at or after `limit`
  // (states.size() when none).
  size_t DenseRunEnd(const StateColumns& s, size_t from, model::Time limit) const;
  // Whether states [a, b) are all dense.
  bool AllDense(const StateColumns& s, size_t a, size_t b) const;
  // The summary of states [a, b).
  StateSummary Summarize(const StateColumns& s, size_t a, size_t b) const;
  // The first state in [a, b) whose value is not zero, or b.
  size_t FirstNonZero(const StateColumns& s, size_t a, size_t b) const;

  size_t MemoryBytes() const;

 private:
  static void AddBlock(StateSummary& to, const Block& b, size_t count);
  static Block MakeBlock(const StateSummary& s, model::Time last_end, bool dense);

  Column<Block> small_;  // states [64 i, 64 i + 64)
  Column<Block> large_;  // states [4096 i, 4096 i + 4096)
};

// Every thread's blocks, built on `threads` workers (0: all cores).
std::vector<StateBlocks> BuildStateBlocks(const TraceStore& store, unsigned threads);

// The blocks of every thread of one store, each built on first use (from any number of threads
// at once). The store must not change once they are asked for.
class StateBlockCache {
 public:
  // `known`: every thread's blocks when they were loaded with the store (a trace cache), else
  // empty; blocks that do not fit their thread's states are built again.
  explicit StateBlockCache(const TraceStore& store, std::vector<StateBlocks> known = {});
  const StateBlocks& Of(model::ThreadIndex t) const;

 private:
  struct Entry {
    std::once_flag once;
    bool known = false;  // set before any call of Of
    StateBlocks blocks;
  };
  const TraceStore& store_;
  std::unique_ptr<Entry[]> entries_;
};

}  // namespace parallax::store
