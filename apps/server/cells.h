#pragma once
// What the UI asks about part of a timeline window: the cells of a time range × a run of
// objects (a hover's pixel, an area selection), summed per value from each object's textual
// view (Trace::Text). The work is bounded by the records of those objects in that range.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/server/source_files.h"
#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax::server {

struct CellValue {
  double value = 0;
  std::string label;       // .pcf label, for state, event and object windows
  uint64_t time = 0;       // time spent in the value inside the range, over the objects
  uint64_t intervals = 0;  // intervals of the value meeting the range
};

struct CellSummary {
  std::string window, time_unit;
  uint64_t from = 0, to = 0;
  std::vector<std::string> objects;  // names of the objects summed
  std::vector<CellValue> values;     // most time first
  uint64_t intervals = 0, events = 0, comms = 0;  // records meeting the range (events and
                                                  // comms counted for a pixel, `at`, only)
  std::optional<TextInterval> at;    // the first object's interval holding `at`
};

// `base` names the window (cfg or function) and its limits; objects first..last (0-based at the
// window's level, last >= first), [from, to) in trace units (from < to), and optionally a time
// whose interval to report. Errors are the core's (an object past the last, a bad cfg).
Result<CellSummary> SummarizeCells(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                   uint64_t from, uint64_t to, std::optional<uint64_t> at);

}  // namespace parallax::server

namespace parallax::server {

// What to look for (the UI's find): events (by type, type and value, or text in their type or
// value label) or the window's values (a value, or text in its label, as state names).
struct FindQuery {
  bool events = true;
  std::optional<uint32_t> type;
  std::optional<int64_t> event_value;
  std::optional<double> value;
  std::string text;  // lower case; matched as a substring of the labels, case-insensitively
  bool forward = true;
};

struct FindMatch {
  uint64_t time = 0, end = 0;  // an event: end == time; a value: its interval
  uint32_t object = 0;         // 0-based at the window's level
  std::string object_name;
  std::string what;            // "MPI_Send (50000001:3)", "Running (1)", ...
};

// The first match strictly after (forward) or before `time` over objects first..last, looking
// in spans that start at `span` trace units and double up to the trace's end; nullopt when
// there is none. Stops with a limit error past `seconds` (0: no limit).
Result<std::optional<FindMatch>> FindNext(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                          uint64_t time, uint64_t span, const FindQuery& query, double seconds);

// Click-forward: the events of type `type` over objects first..last within [from, to) whose value
// label is the source location `at` (the same file name and line, as ParseSourceLabel reads
// them). `count` is all of them; `marks` the first `max` of each object in turn.
struct SourceEvents {
  std::vector<FindMatch> marks;
  uint64_t count = 0;
};
Result<SourceEvents> FindSourceEvents(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                      uint64_t from, uint64_t to, uint32_t type, const SourceLocation& at,
                                      size_t max);

}  // namespace parallax::server
