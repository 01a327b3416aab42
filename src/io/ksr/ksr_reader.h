#pragma once
// KSR-1 event logs as the gist program prints them (docs/formats.md, "KSR"):
//   gist text:  E TRACE_ID TIME DELTA EVENT NAME... DATA   (TRACE_ID in hex, 0x..., or decimal)
//   brief:      TRACE_ID TIME EVENT DATA
// Converted to SDDF as Pablo's ksr2sddf does (one record descriptor per event name, tag = event
// code, five int fields "thread id", "time stamp", "delta time", "event id", "data"; one data
// record per event) and to Paraver's model through the SDDF convention (sddf_trace.h): one
// thread per trace id, Begin X / End X pairs as states, every event as an event whose value is
// its code. Brief logs carry no names and no delta: names come from the KSR event codes of the
// Pablo report (others are "event N") and the delta is the time since the previous event.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"

namespace parallax::io {

struct KsrEvent {
  int64_t thread = 0, time = 0, delta = 0, code = 0, data = 0;
  std::string_view name;
  uint64_t line = 0;
};

// True when the first non-blank line looks like a gist (`E 0x...`) or brief (four integers) log.
bool LooksLikeKsrLog(std::string_view head);

// Calls `fn` for every well-formed event; malformed lines are counted and located in `diags`.
// Returns the number of lines, or an error when the file holds no event at all.
Result<uint64_t> ParseKsrLog(std::string_view text, const std::string& file, Diagnostics& diags,
                             const std::function<Status(const KsrEvent&)>& fn);

Result<ImportedTrace> ParseKsrTrace(std::string_view text, const std::string& file);
Result<ImportedTrace> ReadKsrTrace(const std::string& path);

// ksr2sddf: writes the log as SDDF (ASCII, or binary in this machine's byte order). `diags`
// receives the malformed lines (may be null).
Result<std::string> KsrToSddf(std::string_view text, const std::string& file, bool binary, Diagnostics* diags);
Status ConvertKsrToSddf(const std::string& in, const std::string& out, bool binary, bool overwrite);

}  // namespace parallax::io
