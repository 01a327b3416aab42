#pragma once
// Parsing of .prv body lines (see prv_reader.h for the accepted syntax), in two passes over a
// chunk of lines:
//   1. CountChunk: the number of state and event records each thread may receive (an upper
//      bound: records rejected later leave holes that the reader closes);
//   2. ParseChunk: full parsing and validation, writing every record straight into its final
//      slot of the store columns through per-thread cursors, so loading needs no intermediate
//      buffers and no reallocation.
// Internal to src/io/prv.

#include <cstdint>
#include <string_view>
#include <vector>

#include "src/io/diagnostics.h"
#include "src/model/trace_header.h"
#include "src/store/trace_store.h"

namespace parallax::io::prv_internal {

struct ChunkComm {
  model::Time log_send, phy_send, log_recv, phy_recv;
  int64_t size, tag;
  uint32_t sender, receiver;
  uint16_t sender_cpu, receiver_cpu;
};

// Per chunk: where each thread's records go and what the chunk found.
struct ChunkResult {
  // Per thread: first slot of this chunk in the thread's columns (set before pass 2) and the
  // next free slot (advanced by pass 2). Pass 1 fills the counts.
  std::vector<uint64_t> state_count, event_count;
  uint64_t comm_count = 0;  // pass 1: communication lines (for the memory estimate)
  std::vector<uint64_t> state_begin, event_begin;
  std::vector<uint64_t> state_cursor, event_cursor;
  // Chunk-local line of the first state and event record of each thread (0: none).
  std::vector<uint64_t> first_state_line, first_event_line;
  std::vector<ChunkComm> comms;
  std::vector<uint32_t> unsigned_types;  // event types with values above INT64_MAX
  Diagnostics diags;                     // chunk-local line numbers
  uint64_t lines = 0;
  uint64_t event_lines = 0;
  uint64_t global_comms = 0;
  model::Time max_time = 0;
  // State ends spelled -1 and spelled 18446744073709551615 (both mean "no end").
  uint64_t open_end_dash = 0, open_end_number = 0;
  bool any_out_of_order = false;
  // States only (below): event and communication lines passed over.
  uint64_t passed_over = 0;
};

// What a chunk's passes keep. `states_only`: event lines give only their time (to the trace
// end, when a full parse would keep the line), communication lines nothing; neither is
// reported nor counted (a load for analyses that read states alone, PrvReadOptions).
struct ChunkOptions {
  bool states_only = false;
};

// Pass 1: fills result.state_count / event_count (sized to the thread count).
void CountChunk(const model::TraceHeader& h, std::string_view text, ChunkResult& result,
                const ChunkOptions& options = {});

// Pass 2: parses every line; `last_chunk` says whether the text ends the file (a last line
// without newline is then reported as truncated when it does not parse).
void ParseChunk(const model::TraceHeader& h, std::string_view text, bool last_chunk,
                store::TraceStore& store, ChunkResult& result, const ChunkOptions& options = {});

}  // namespace parallax::io::prv_internal
