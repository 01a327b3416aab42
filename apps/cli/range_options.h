#pragma once
// The portion options shared by the commands that compute on a part of a trace (analyze,
// paramedir, timeline, text, ...): --from/--to (a time with an optional unit, or a percentage
// of the trace's end time) and --records A..B (Pablo's record range). Parsed once here and
// resolved against the loaded trace into the core's TimeSpan (include/parallax/trace.h).

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

struct RangeArgs {
  std::string from, to, records;
  bool given() const { return !from.empty() || !to.empty() || !records.empty(); }
};

// Adds --from, --to and --records to `sub`.
void AddRangeOptions(CLI::App* sub, RangeArgs* args);

// One limit: "1500" (trace units), "1.5ms" / "200us" / "3s" / "10ns" (converted to the trace
// unit `unit`, "ns", "us" or "ms"), or "40%" of `end_time`. `option` names it in messages.
Result<uint64_t> ParseTimeLimit(const std::string& text, const std::string& option,
                                const std::string& unit, uint64_t end_time);

// The portion the options give on `trace` (loaded from `path`), checked by the core's
// TraceRange; std::nullopt when no option was given.
Result<std::optional<TimeSpan>> ResolveRange(const RangeArgs& args, const Trace& trace,
                                             const std::string& path);

// ResolveRange into a request's optional from/to; prints the error and returns false on bad
// options.
bool ApplyRange(const RangeArgs& args, const Trace& trace, const std::string& path,
                std::optional<uint64_t>* from, std::optional<uint64_t>* to);

}  // namespace parallax::cli
