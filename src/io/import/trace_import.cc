#include "src/io/import/trace_import.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdio>

#include "src/base/input_buffer.h"
#include "src/base/regular_file.h"
#include "src/io/otf2/otf2_trace.h"
#include "src/io/ksr/ksr_reader.h"
#include "src/io/paje/paje_reader.h"
#include "src/io/picl/picl_reader.h"
#include "src/io/sddf/sddf_trace.h"

namespace parallax::io {

std::string_view TraceFormatName(TraceFormat f) {
  switch (f) {
    case TraceFormat::kPrv: return "prv";
    case TraceFormat::kJson: return "json";
    case TraceFormat::kPaje: return "paje";
    case TraceFormat::kPicl: return "picl";
    case TraceFormat::kOtf2: return "otf2";
    case TraceFormat::kSddf: return "sddf";
    case TraceFormat::kKsr: return "ksr";
    case TraceFormat::kUnknown: break;
  }
  return "unknown";
}

TraceFormat DetectTraceFormat(std::string_view head) {
  // OTF2 anchor file: a binary header with the magic "OTF2" after a chunk byte and the byte
  // order ('B' or 'L').
  if (head.size() >= 6 && (head[1] == 'B' || head[1] == 'L') && head.substr(2, 4) == "OTF2") return TraceFormat::kOtf2;
  if (head.substr(0, 4) == "SDDF" && head.size() > 4 && (head[4] == 'A' || head[4] == 'B' || head[4] == 'b'))
    return TraceFormat::kSddf;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  if (LooksLikeKsrLog(head)) return TraceFormat::kKsr;
  for (;;) {
    size_t p = head.find_first_not_of(" \t\r\n");
    if (p == std::string_view::npos) return TraceFormat::kUnknown;
    head.remove_prefix(p);
    if (head.substr(0, 8) == "#Paraver") return TraceFormat::kPrv;
    if (head[0] == '[' || head[0] == '{') return TraceFormat::kJson;
    if (head[0] == '%') return TraceFormat::kPaje;
    if (head[0] == '-' && head.size() > 1 && head[1] >= '0' && head[1] <= '9') return TraceFormat::kPicl;
    if (head[0] != '#') return TraceFormat::kUnknown;
    // Other comment lines (Pajé writers put some before the %EventDef header).
    size_t nl = head.find('\n');
    if (nl == std::string_view::npos) return TraceFormat::kUnknown;
    head.remove_prefix(nl + 1);
  }
}

TraceFormat DetectTraceFormatOfFile(const std::string& path) {
  // An OTF2 archive may be named by its folder.
  if (std::string anchor = Otf2AnchorOf(path); anchor != path) return DetectTraceFormatOfFile(anchor);
  char head[4096];
  int n = 0;
  // Only a regular file is looked at (the reader then says why another is not read); gzread
  // reads plain files unchanged, so one call covers both cases.
  auto fd = base::OpenRegularFile(path);
  if (!fd.ok()) return TraceFormat::kUnknown;
  gzFile f = gzdopen(fd.value(), "rb");
  if (!f) {
    ::close(fd.value());
    return TraceFormat::kUnknown;
  }
  n = gzread(f, head, sizeof head);
  gzclose(f);
  if (n <= 0) return TraceFormat::kUnknown;
  return DetectTraceFormat(std::string_view(head, static_cast<size_t>(n)));
}

Result<ImportedTrace> ImportTrace(const std::string& path, TraceFormat format, uint64_t memory_budget) {
  switch (format) {
    case TraceFormat::kJson: return ReadJsonTrace(path, memory_budget);
    case TraceFormat::kPaje: return ReadPajeTrace(path);
    case TraceFormat::kPicl: return ReadPiclTrace(path);
    case TraceFormat::kOtf2: return ReadOtf2Trace(path);
    case TraceFormat::kSddf: return ReadSddfTrace(path);
    case TraceFormat::kKsr: return ReadKsrTrace(path);
    default: break;
  }
  return Status::Error("no reader for this trace format", Location{path, 0, 0},
                       "Parallax reads .prv, Chrome/Perfetto trace-event JSON, Pajé, PICL, OTF2, SDDF and KSR gist/brief traces");
}

TraceFormat OutputFormatOf(std::string_view path) {
  if (base::EndsWith(path, ".prv") || base::EndsWith(path, ".prv.gz")) return TraceFormat::kPrv;
  if (base::EndsWith(path, ".json")) return TraceFormat::kJson;
  if (base::EndsWith(path, ".otf2")) return TraceFormat::kOtf2;
  if (base::EndsWith(path, ".sddf")) return TraceFormat::kSddf;
  if (base::EndsWith(path, ".trf")) return TraceFormat::kPicl;
  return TraceFormat::kUnknown;
}

Status ExportTrace(const TraceView& trace, const std::string& path, bool overwrite) {
  switch (OutputFormatOf(path)) {
    case TraceFormat::kJson: return WriteJsonTrace(trace, path, overwrite);
    case TraceFormat::kOtf2: return WriteOtf2Trace(trace, path, overwrite);
    case TraceFormat::kSddf: return WriteSddfTrace(trace, path, false, overwrite);
    case TraceFormat::kPicl: return WritePiclTrace(trace, path, overwrite);
    default: break;
  }
  return Status::Error("unknown output format", Location{path, 0, 0},
                       "name the output .prv, .prv.gz (Paraver), .json (Chrome/Perfetto trace events), .otf2 (OTF2 anchor), .sddf (Pablo SDDF) or .trf (PICL)");
}

}  // namespace parallax::io
