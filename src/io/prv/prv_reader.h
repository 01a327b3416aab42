#pragma once
// Reader of Paraver .prv and .prv.gz traces into the columnar store.
//
// Body lines accepted (trace-format.md §3), fields are decimal integers separated by ':':
//   1:cpu:appl:task:thread:begin:end:state                  state (end -1 = open-ended)
//   2:cpu:appl:task:thread:time:type:value[:type:value...]  events, one record per pair
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
//   4:...          global communication, skipped and counted
//   #...           comment, counted;   empty line, counted
// A trailing '\r' or blanks are accepted. A malformed record is counted by kind, located and
// skipped (strict mode makes it fatal); a malformed header is fatal.
//
// Large inputs are split at line boundaries and parsed on all cores; each chunk appends to
// its own buffers, which are then scattered into per-thread columns in file order. A .prv.gz
// is inflated twice (once per pass), a batch of chunks at a time, never as a whole.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/input_buffer.h"
#include "src/io/diagnostics.h"
#include "src/model/trace_header.h"
#include "src/store/state_blocks.h"
#include "src/store/trace_store.h"

namespace parallax::io {

struct PrvReadOptions {
  bool strict = false;        // any warning or error in the body is fatal
  unsigned threads = 0;       // 0: all cores
  size_t chunk_bytes = 0;     // 0: automatic; tests use tiny values to exercise boundaries
  // Bytes the load may use for records and inflated text (0: base::DefaultMemoryBudget()); a
  // trace that needs more is refused with an error naming the budget.
  uint64_t memory_budget = 0;
  base::ProgressFn progress;  // (bytes parsed, bytes total)
  // Called with byte ranges of the input that will not be read again (ReadPrv uses it to let
  // the kernel drop mapped pages, so a large file does not stay resident).
  std::function<void(size_t, size_t)> release_input;
  // When set, places every thread's columns once the first pass has counted its records
  // (`states[t]`, `events[t]`, upper bounds: a record the second pass rejects leaves them
  // shorter): it sets each column of `store` to exactly that length, typically as writable
  // views of a file (the trace cache parses straight into its file). The column bytes are then
  // not counted against the memory budget. When it fails, the columns are allocated as usual.
  std::function<Status(const std::vector<uint64_t>& states, const std::vector<uint64_t>& events,
                       store::TraceStore& store)>
      place_columns;
  // When set, the body is parsed in one pass, a segment of a few chunks at a time, and each
  // segment's records (every thread's sorted by time) are handed to it in file order instead
  // of being kept: the store ends with the communications only. The one-pass parse into a
  // cache of compact records uses it (store/compact_builder.h). An error stops the load.
  std::function<Status(const model::TraceHeader& header, store::TraceStore& segment)> segments;
  // Keep the states alone: event lines give only their time (to the trace end, when a full
  // parse would keep the line), communication lines nothing. Neither kind is reported, so
  // their problems give no diagnostics; PrvTrace::passed_over_lines counts them. For a load
  // that serves only analyses reading states (paramedir of states cfgs without a cache).
  bool states_only = false;
};

struct PrvTrace {
  model::TraceHeader header;
  store::TraceStore store;
  Diagnostics diagnostics;
  uint64_t body_lines = 0;
  uint64_t file_bytes = 0;        // uncompressed size
  uint64_t event_lines = 0;       // event records as lines (each holds one or more pairs)
  uint64_t global_comm_lines = 0;
  // Event and communication lines passed over by a states-only load (PrvReadOptions).
  uint64_t passed_over_lines = 0;
  // Event types with values written above INT64_MAX; the writer prints them unsigned.
  std::vector<uint32_t> unsigned_value_types;
  // Open-ended states were all spelled 18446744073709551615 rather than -1 (same value); the
  // writer spells them the same way. A file mixing both spellings is written with -1.
  bool open_end_as_number = false;
  // Most inflated text held in memory at once (a .prv.gz is streamed); 0 for mapped input.
  uint64_t text_buffer_bytes = 0;
  // Chunks the body was parsed in (each keeps a few counters per thread while loading).
  uint64_t chunks = 0;
  // State and event records handed to PrvReadOptions::segments.
  uint64_t segment_records = 0;
  // The distinct event types of the store, sorted, when known without a scan (a trace cache
  // records them); otherwise whoever needs them scans the store (store::ScanEventTypes).
  std::vector<uint32_t> event_types;
  bool event_types_known = false;
  // Every thread's state summaries (store/state_blocks.h) when known without a pass over the
  // states (a trace cache stores them); otherwise empty, and they are built when needed.
  std::vector<store::StateBlocks> state_blocks;
};

Result<PrvTrace> ParsePrv(std::string_view text, const std::string& file,
                          const PrvReadOptions& options);

// Parses gzip-compressed bytes, inflating them piece by piece as they are parsed (the path of
// every .prv.gz). Input that is not gzip is refused; a truncated stream loads what is there and
// adds a truncated_input diagnostic (fatal with strict).
Result<PrvTrace> ParsePrvGzip(std::string_view compressed, const std::string& file,
                              const PrvReadOptions& options);

// Reads a file (streaming the decompression of names ending in .gz).
Result<PrvTrace> ReadPrv(const std::string& path, const PrvReadOptions& options);

// The error --strict gives for a trace with problems: the first one in file order, located in
// `file` (Ok when `d` holds no warning or error). Every reader's diagnostics may go through it.
Status StrictCheck(const Diagnostics& d, const std::string& file);
// The error for a body without any record kept: names the first rejected record and why.
Status EmptyBodyError(const Diagnostics& d, const std::string& file);

}  // namespace parallax::io
