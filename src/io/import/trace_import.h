#pragma once
// The one place where the format of a trace file is decided, by content (the first bytes after
// any gzip layer), and where importers and exporters of formats other than .prv are chosen.

#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"
#include "src/io/json/json_trace.h"

namespace parallax::io {

enum class TraceFormat { kPrv, kJson, kPaje, kPicl, kOtf2, kSddf, kKsr, kUnknown };

std::string_view TraceFormatName(TraceFormat f);  // "prv", "json", "paje", "unknown"

// Decides from the start of a file's content (first 4 KB): "#Paraver" -> prv, '[' or '{' ->
// json, the binary OTF2 anchor header -> otf2, a '%' header line (%EventDef) after any '#'
// comment lines -> paje, a line starting with a negative integer (a PICL record type) -> picl,
// "SDDFA"/"SDDFB"/"SDDFb" -> sddf, a first line `E 0x...` (gist) or of four integers (brief) ->
// ksr. Unreadable or unrecognised files give kUnknown; the .prv
// reader then reports the precise problem.
TraceFormat DetectTraceFormat(std::string_view head);
TraceFormat DetectTraceFormatOfFile(const std::string& path);

// Reads a trace of a non-.prv format into the Paraver model.
// `memory_budget`: bytes the import may take (LoadOptions::memory_limit; 0: the default), so
// far enforced by the trace-event JSON reader.
Result<ImportedTrace> ImportTrace(const std::string& path, TraceFormat format, uint64_t memory_budget = 0);

// Output format from the file name: ".prv"/".prv.gz" -> prv, ".json" -> json, ".otf2" -> otf2
// (the anchor file of an archive), ".sddf" -> sddf (ASCII; WriteSddfTrace writes the binary
// form), ".trf" -> picl.
TraceFormat OutputFormatOf(std::string_view path);
// Writes a trace in a non-.prv format chosen by OutputFormatOf.
Status ExportTrace(const TraceView& trace, const std::string& path, bool overwrite);

}  // namespace parallax::io
