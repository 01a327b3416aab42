#pragma once
// Compact copies of a thread's records (the compact columns of the scale issue, docs/scale.md
// "Compact records"): a thread's states, or its events, cut into blocks of up to kBlockRecords
// records, each block coded on its own, with the time span of every block in an index, so that
// reading a time range decodes only the blocks that overlap it.
//
// A block codes each column as a stream of LEB128 varints:
//   states  begin    zigzag of the difference to the previous begin (the first: to 0)
//           end      zigzag of end - next begin (0 for every state of a dense row), the
//                    last one: of end - its own begin
//           state    index into the block's dictionary of values (in order of appearance)
//           cpu      zigzag of the difference to the previous cpu
//   events  time     zigzag of the difference to the previous time
//           type     index into the block's dictionary of types
//           value    zigzag of the value
//           cpu      as for states
// Differences are taken modulo 2^64, so every value (open ends, negative values, the extremes)
// comes back exactly. The streams may then be compressed with zstd (EncodeOptions::zstd).
//
// Block bytes: records u32, stream bytes u32, coding u8 (0: the streams as they are; 1: one
// zstd frame of them), dictionary size u32 (varint), the dictionary (varints), the streams.
// Decoding checks every length and count and never reads past the block: a damaged block is
// an error, never a crash (tests/fuzz/compact_fuzz.cc).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "include/parallax/status.h"
#include "src/model/time.h"
#include "src/store/column.h"
#include "src/store/trace_store.h"

namespace parallax::store::compact {

inline constexpr uint32_t kBlockRecords = 16384;
inline constexpr uint32_t kMaxBlockRecords = 32768;

// Where a block is and which times it covers (32 bytes, no padding).
struct BlockEntry {
  // States: the first begin and the latest end of the block (model::kNoEnd when a state is
  // open-ended). Events: the first and the last time.
  model::Time first = 0;
  model::Time last = 0;
  uint64_t offset = 0;  // of the block's bytes
  uint32_t bytes = 0;
  uint32_t records = 0;
};

// The coded records of one thread's states or events.
struct CompactColumns {
  Column<BlockEntry> blocks;
  Column<uint8_t> bytes;

  uint64_t records() const;
  // Whether block entry `b` lies within the bytes.
  bool Holds(const BlockEntry& b) const;
  // Heap bytes of the index and of the blocks: none for a view of blocks held elsewhere (a
  // mapped trace cache, or the array every thread's blocks share in a one-pass load).
  size_t MemoryBytes() const;
  // The blocks [first, last) holding the records that can matter for times [from, to): for
  // states, those that overlap it; for events, those with a time in it.
  std::pair<size_t, size_t> BlocksFor(model::Time from, model::Time to, bool states) const;
};

struct EncodeOptions {
  uint32_t block_records = kBlockRecords;  // taken between 1 and kMaxBlockRecords
  // Compress a block's streams with zstd when that saves bytes: about 2 bytes per record
  // instead of 5 on the generated traces, but coding is half as fast and decoding 15% slower.
  bool zstd = false;
  int zstd_level = 1;
};

CompactColumns EncodeStates(const StateColumns& states, const EncodeOptions& options = {});
CompactColumns EncodeEvents(const EventColumns& events, const EncodeOptions& options = {});
// The first `count` records only (the blocks do not depend on the records after them).
CompactColumns EncodeStates(const StateColumns& states, size_t count, const EncodeOptions& options);
CompactColumns EncodeEvents(const EventColumns& events, size_t count, const EncodeOptions& options);

// Appends the records of block `block` to `out`; an error when its bytes are not a valid block
// of `records` records (then `out` keeps what it had).
Status DecodeStates(std::span<const uint8_t> block, uint32_t records, StateColumns* out);
Status DecodeEvents(std::span<const uint8_t> block, uint32_t records, EventColumns* out);
// The dictionary of a block (its distinct state values or event types), without decoding it.
Status BlockDictionary(std::span<const uint8_t> block, uint32_t records, std::vector<uint32_t>* out);
// Every block in turn.
Status DecodeAllStates(const CompactColumns& c, StateColumns* out);
Status DecodeAllEvents(const CompactColumns& c, EventColumns* out);

}  // namespace parallax::store::compact
