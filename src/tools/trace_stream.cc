#include "src/tools/trace_stream.h"

#include <sys/stat.h>

#include "src/base/input_buffer.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/prv/prv_header_parser.h"
#include "src/io/prv/prv_writer.h"

namespace parallax {

std::string TraceCompanion(const std::string& trace, const std::string& ext) {
  std::string base = trace;
  if (base::EndsWith(base, ".gz")) base.resize(base.size() - 3);
  if (base::EndsWith(base, ".prv")) base.resize(base.size() - 4);
  return base + ext;
}

}  // namespace parallax

namespace parallax::tools {

Result<InputTrace> OpenInputTrace(const std::string& path, size_t block_bytes) {
  auto src = LineSource::Open(path, block_bytes);
  if (!src.ok()) return src.status();
  InputTrace in;
  in.lines = std::move(src).value();
  std::string_view line;
  if (!in.lines->Next(&line)) {
    if (!in.lines->status().ok()) return in.lines->status();
    return Status::Error(path + " is empty", {path, 1, 1},
                         "a .prv starts with a #Paraver header line");
  }
  auto header = io::ParsePrvHeader(line, path);
  if (!header.ok()) return header.status();
  in.header = std::move(header).value();
  for (size_t i = 0; i < in.header.communicators.size(); ++i) {
    if (!in.lines->Next(&line)) {
      if (!in.lines->status().ok()) return in.lines->status();
      return Status::Error("the header announces " +
                               std::to_string(in.header.communicators.size()) +
                               " communicator lines but the file ends after " + std::to_string(i),
                           {path, i + 2, 1}, "fix the count after the last ',' of the header");
    }
    Status s = io::CheckCommunicatorLine(line, path, i + 2);
    if (!s.ok()) return s;
    in.header.communicators[i] = std::string(line);
  }
  return in;
}

std::vector<PcfType> PcfEventTypesWithValues(const std::string& trace) {
  auto pcf = io::ReadPcf(TraceCompanion(trace, ".pcf"), nullptr);
  if (!pcf.ok()) return {};
  std::vector<PcfType> types;
  for (uint32_t type : pcf.value().EventTypes()) types.push_back({type, pcf.value().HasValueLabels(type)});
  return types;
}

std::string ParaverToolHeader(model::TraceHeader header) {
  header.space_before_date = true;
  header.resources_bare = false;
  header.has_comm_count = !header.communicators.empty();
  switch (header.unit) {
    case model::TimeUnit::kNs:
      header.unit_suffix = "_ns";
      break;
    case model::TimeUnit::kMs:
      header.unit_suffix = "_ms";
      break;
    default:
      header.unit_suffix.clear();
  }
  return io::FormatPrvHeader(header);
}

Result<std::unique_ptr<OutputFile>> CreateTraceOutput(const ToolRun& run) {
  return OutputFile::Create(run.output, run.force,
                            !run.paramedir_output && base::EndsWith(run.output, ".gz"));
}

Status CheckOutputs(const ToolRun& run) {
  if (!run.paramedir_output && !base::EndsWith(run.output, ".prv") &&
      !base::EndsWith(run.output, ".prv.gz")) {
    return Status::Error("output name " + run.output + " does not end in .prv or .prv.gz",
                         {run.output},
                         "name the output trace NAME.prv (or NAME.prv.gz to compress it)");
  }
  for (const char* ext : {"", ".pcf", ".row"}) {
    std::string in = *ext ? TraceCompanion(run.input, ext) : run.input;
    std::string out = *ext ? TraceCompanion(run.output, ext) : run.output;
    if (base::SameFile(in, out)) {
      return Status::Error("the output " + out + " is the input itself", {out},
                           "choose another output name");
    }
    if (!run.force && PathExists(out) && (*ext == '\0' || PathExists(in))) {
      return Status::Error(out + " exists", {out},
                           "use --force to replace it, or choose another name");
    }
  }
  return Status::Ok();
}

std::string SkippedLinesNote(uint64_t n) {
  return std::to_string(n) +
         " lines that are not state, event, communication or comment records (global "
         "communications, empty lines) were dropped";
}

Status CopyPcfAndRow(const ToolRun& run) {
  for (const char* ext : {".pcf", ".row"}) {
    bool copied = false;
    Status s = CopyCompanion(TraceCompanion(run.input, ext), TraceCompanion(run.output, ext),
                             run.force, &copied);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status CommitTrace(const ToolRun& run, OutputFile& out) {
  Status s = out.Commit();
  if (!s.ok()) return s;
  return CopyPcfAndRow(run);
}

}  // namespace parallax::tools
