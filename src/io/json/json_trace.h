#pragma once
// Chrome / Perfetto trace-event JSON (the "JSON Array" and "JSON Object" formats of Google's
// Trace Event Format document), read into Paraver's model and written from any trace.
// The mapping is documented in docs/formats.md; in short:
//   pid -> task, tid -> thread (one application, no resources);
//   B/E and X slices -> states (the innermost open slice of a thread is its state) plus an
//     event of type kSliceEventType whose value names the slice at its begin and is 0 at its end;
//   i/I instants -> events of type kInstantEventType (value = the instant's name);
//   C counters -> one event type per (counter name, series) with the value rounded to an integer;
//   flows -> communications, as Perfetto links them: s/t/f events (same id, cat and name) and
//     B/X slices with a bind_id and flow_out/flow_in; a step ends the flow and starts it again;
//   M process_name/thread_name -> the .row names of tasks and threads.
// Timestamps are microseconds (decimals allowed); Parallax uses nanoseconds.

#include <cstdint>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"

namespace parallax::io {

inline constexpr uint32_t kSliceEventType = 60000100;
inline constexpr uint32_t kInstantEventType = 60000101;
inline constexpr uint32_t kCounterEventTypeBase = 60000200;  // + counter series index

// Reads trace-event JSON held in memory; `file` names it in messages. Tolerates what Perfetto
// tolerates (a missing closing bracket, trailing commas, a truncated last event, unsorted
// events, unbalanced B/E) and counts each case in the diagnostics with its line and column.
// Values nested deeper than kMaxJsonNesting (member_dom.h) are refused: an event is skipped,
// otherData is a fatal error. The records and the otherData.parallax DOM must fit in
// `memory_budget` bytes (0: the default budget, base/memory_budget.h), and with ReadJsonTrace
// so must the inflated text of a .json.gz; beyond it the file is refused with both numbers.
Result<ImportedTrace> ParseJsonTrace(std::string_view text, const std::string& file, uint64_t memory_budget = 0);
Result<ImportedTrace> ReadJsonTrace(const std::string& path, uint64_t memory_budget = 0);

// What a JSON writer needs: the Paraver view of a trace.
struct TraceView {
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  const model::PcfCatalog* pcf = nullptr;  // may be null
  const model::RowNames* row = nullptr;    // may be null
  const std::vector<uint32_t>* unsigned_value_types = nullptr;  // may be null
};

// Writes the JSON Object format: states as X events, events as instant events, communications
// as flow events (s at the logical send, f at the logical receive), and an "otherData.parallax"
// member holding the header, so that Parallax reads the file back without loss.
Status WriteJsonTrace(const TraceView& trace, const std::string& path, bool overwrite);
std::string WriteJsonTraceToString(const TraceView& trace);

}  // namespace parallax::io
