#pragma once
// SDDF traces in Paraver's model (docs/formats.md, "SDDF"):
// - files written by Parallax (a first descriptor named "Parallax trace") hold the .prv header,
//   .pcf and .row text and one record per state, event and communication: read back losslessly;
// - any other SDDF file is mapped by convention: the first integer field whose name contains
//   "thread" (else "node", "processor", "process", "task" or "rank") picks the thread; a field
//   named "time stamp", "timestamp", "time" or "seconds" (or else containing "time" but not
//   "delta") gives the time (integers as ns, floating point as seconds); every record with a
//   time becomes an event of type kSddfRecordType whose value is the descriptor's tag, and
//   records named "Begin X" / "End X" open and close state X on their thread (innermost open
//   state shown; X compared without case and without a plural "s" at the end of words);
// - when no descriptor has a time field, the trace has one empty thread and one event type per
//   descriptor whose label summarises it (tag, name, fields, record count), so `info` lists them.

#include <cstdint>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"
#include "src/io/json/json_trace.h"
#include "src/io/sddf/sddf.h"
#include "src/io/text_file.h"

namespace parallax::io {

inline constexpr uint32_t kSddfRecordType = 60005000;        // value = descriptor tag
inline constexpr uint32_t kSddfSummaryTypeBase = 60005100;   // + descriptor index (summary only)

Result<ImportedTrace> ParseSddfTrace(std::string_view bytes, const std::string& file);
Result<ImportedTrace> ReadSddfTrace(const std::string& path);

// Maps the packets given to it by the convention above; used by the SDDF and the KSR readers.
class SddfMapper : public SddfHandler {
 public:
  SddfMapper();
  ~SddfMapper() override;
  Status OnDescriptor(const SddfDescriptor& d, uint64_t where) override;
  Status OnRecord(const SddfDescriptor& d, std::span<const SddfValue> values, uint64_t where) override;
  // Packet positions are byte offsets (binary SDDF), not lines.
  void SetPositionsAreOffsets(bool offsets);
  // Builds the trace; `diags` holds what the parser counted.
  Result<ImportedTrace> Finish(Diagnostics diags, const std::string& file, uint64_t bytes, uint64_t lines);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Writes any trace as SDDF that ParseSddfTrace reads back without loss.
Status WriteSddfTrace(const TraceView& trace, const std::string& path, bool binary, bool overwrite);
std::string WriteSddfTraceToString(const TraceView& trace, bool binary);


}  // namespace parallax::io
