#pragma once
// Shared plumbing of the streaming tools: opening an input trace (header and communicator
// lines parsed by src/io/prv, body left to the caller line by line), naming companion files,
// and writing the header of an output trace.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/tools.h"
#include "src/model/trace_header.h"
#include "src/tools/line_source.h"
#include "src/tools/output_file.h"
#include "src/tools/prv_record.h"
#include "src/tools/record_stream.h"

namespace parallax::tools {

struct InputTrace {
  std::unique_ptr<LineSource> lines;  // positioned after the communicator lines
  model::TraceHeader header;
};

// Opens `path` and parses its header and communicator lines (errors are fatal and located).
// `block_bytes`: the read size. What the header's read leaves unread becomes the first block of
// the record stream that reads the body (128 KB blocks), so a small read keeps that block small.
Result<InputTrace> OpenInputTrace(const std::string& path, size_t block_bytes = 128u << 10);

// Event types of the input's .pcf (sorted); empty when there is no .pcf.
struct PcfType {
  uint32_t type = 0;
  bool has_values = false;  // some value of the type has a label
};
std::vector<PcfType> PcfEventTypesWithValues(const std::string& trace);

// The header line (and communicator lines) of a trace written by paramedir's tools (cut, filter,
// software counters): Paraver's own spelling whatever the input's: "#Paraver (" with a space,
// the resource model in full, ",N" only when there are communicator lines, and no unit suffix
// for microseconds. A time unit of ms keeps "_ms" (Paraver writes "_ns" there, which changes
// the trace's times; docs/compatibility.md).
std::string ParaverToolHeader(model::TraceHeader header);

// Creates the output trace of `run` (its name, `force`, and compression by its rule).
Result<std::unique_ptr<OutputFile>> CreateTraceOutput(const ToolRun& run);

// Fails when the output is the input itself, or when an output exists and `force` is false
// (checked for the .prv, .pcf and .row before anything is written).
Status CheckOutputs(const ToolRun& run);

// Calls `progress` at most every 16 MB of input.
class ProgressTicker {
 public:
  explicit ProgressTicker(const std::function<void(uint64_t, uint64_t)>& fn) : fn_(fn) {}
  template <typename Source>  // a LineSource or a RecordStream
  void Tick(const Source& src) {
    if (!fn_ || src.bytes_done() < next_) return;
    next_ = src.bytes_done() + (16u << 20);
    fn_(src.bytes_done(), src.bytes_total());
  }
  template <typename Source>
  void Done(const Source& src) {
    if (fn_) fn_(src.bytes_total(), src.bytes_total());
  }

 private:
  const std::function<void(uint64_t, uint64_t)>& fn_;
  uint64_t next_ = 0;
};

// Feeds every body record of `in` to engine.Process(record), in file order, reporting
// progress; counts them and the input bytes in `report`. A malformed record is a located error.
// Type-4 lines come as kind 'o', or parsed as kind '4' when the engine declares
// `static constexpr bool kGlobalOps = true`. An engine that does not look at the event pairs
// declares `static constexpr Pairs kPairs = Pairs::kCheck` (checked, not kept) or
// `Pairs::kSkip` (not even checked: another pass over the same input checks them). Records are
// read and parsed ahead on other threads (RecordStream).
template <typename Engine>
Status ProcessRecords(const ToolRun& run, InputTrace& in, Engine& engine, ToolReport& report) {
  RecordParse parse;
  if constexpr (requires { Engine::kGlobalOps; }) parse.global_ops = true;
  if constexpr (requires { Engine::kPairs; }) parse.pairs = Engine::kPairs;
  RecordStream stream(*in.lines, parse);
  const PrvRecord* rec = nullptr;
  ProgressTicker ticker(run.progress);
  report.input_bytes = in.lines->bytes_total();
  while (stream.Next(&rec)) {
    ++report.input_records;
    engine.Process(*rec);
    ticker.Tick(stream);
  }
  if (!stream.status().ok()) return stream.status();
  ticker.Done(stream);
  return Status::Ok();
}

// The note of a tool that dropped `n` lines that are not records it copies (type-4 global
// communications, empty lines).
std::string SkippedLinesNote(uint64_t n);

// Copies the input's .pcf and .row beside the output (when the input has them).
Status CopyPcfAndRow(const ToolRun& run);

// Commits the output trace (renamed into place), then copies its companions beside it.
Status CommitTrace(const ToolRun& run, OutputFile& out);

}  // namespace parallax::tools
