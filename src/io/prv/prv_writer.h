#pragma once
// Writer of .prv traces in canonical form: the header as it was read (same spelling), the
// communicator lines, then one line per state record, per group of events of one thread at one
// time and cpu, and per communication, ordered by (time, thread, kind: state < event < comm,
// position in the store). Communications are placed at their logical send time on the sender.
// Each thread is read a block at a time (store::BlockReader), so writing a compact store holds
// one block per thread, whatever the trace's size.
// Loading a written file gives identical records; writing a canonical file again gives the same
// bytes.

#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "src/model/trace_header.h"
#include "src/store/time_mapping.h"
#include "src/store/trace_store.h"

namespace parallax::io {

struct PrvWriteInput {
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  // Event types whose values were written above INT64_MAX: printed as unsigned numbers.
  const std::vector<uint32_t>* unsigned_value_types = nullptr;
  // Open-ended states are written 18446744073709551615 (their value) instead of -1, for a trace
  // that spelled them so (PrvTrace::open_end_as_number).
  bool open_end_as_number = false;
  // Null: the times as stored.
  const store::TimeMapping* times = nullptr;
};

// Serialises to a string (small traces, tests).
std::string WritePrvToString(const PrvWriteInput& in);
// Writes a file; a name ending in .gz is gzip-compressed. Never overwrites an existing file
// unless `overwrite` is set.
Status WritePrvFile(const PrvWriteInput& in, const std::string& path, bool overwrite);

// The header line (without newline) followed by communicator lines, each ending in '\n'.
std::string FormatPrvHeader(const model::TraceHeader& h);

}  // namespace parallax::io
