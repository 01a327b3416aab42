// `parallax convert TRACE -o OUT [--force]`: load a trace of any readable format and write it
// in the format the output name gives: .prv/.prv.gz (canonical Paraver, with its .pcf and .row)
// or .json (Chrome/Perfetto trace events) or .otf2 (an OTF2 archive: NAME.otf2, NAME.def, NAME/)
// or .sddf (Pablo SDDF, ASCII or --binary) or .trf (PICL); a KSR event log converted to .sddf is
// written as Pablo's ksr2sddf did (its own records, not Paraver's). With --from/--to or
// --records only that portion is converted: it is cut first, as `parallax cut` cuts it (states
// clipped at the limits, times from the cut's start, the provenance line), then written.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "include/parallax/output.h"
#include "include/parallax/tools.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct ConvertArgs {
  std::string trace;
  std::string output;
  bool force = false;
  bool strict = false;
  bool binary = false;
  RangeArgs range;
};

bool IsSddf(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".sddf") == 0; }

bool EndsWith(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// The portion of `trace` (loaded from a.trace) that the range options give, cut into a .prv in
// `dir` and loaded; null after printing why when it cannot be made.
std::unique_ptr<Trace> CutPortion(const ConvertArgs& a, const Trace& trace, const ScratchFolder& dir) {
  const bool prv = EndsWith(a.trace, ".prv") || EndsWith(a.trace, ".prv.gz");
  if (!a.range.records.empty() && !prv) {
    std::fprintf(stderr,
                 "%s: error: --records counts the body records of a .prv, and this trace is in "
                 "another format\n  hint: convert it to .prv first, or give --from/--to\n",
                 a.trace.c_str());
    return nullptr;
  }
  auto span = ResolveRange(a.range, trace, a.trace);
  if (!span.ok()) {
    std::fprintf(stderr, "%s\n", span.status().ToString().c_str());
    return nullptr;
  }
  if (dir.path().empty()) {
    std::fprintf(stderr, "%s: error: cannot create a temporary folder for the cut\n", a.trace.c_str());
    return nullptr;
  }
  std::string input = a.trace;
  if (!prv) {  // another format: through a .prv
    input = dir.path() + "/whole.prv";
    Status w = trace.Write(input, true);
    if (!w.ok()) {
      std::fprintf(stderr, "%s\n", w.ToString().c_str());
      return nullptr;
    }
  }
  ToolRun run;
  run.input = input;
  run.output = dir.path() + "/portion.prv";
  CutOptions cut;
  cut.by_time = true;
  cut.begin = span.value()->from;
  cut.end = span.value()->to;
  auto report = CutTrace(run, cut);
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n", report.status().ToString().c_str());
    return nullptr;
  }
  return LoadTraceOrReport(run.output, a.strict);
}

int Run(const ConvertArgs& a) {
  if (a.binary && !IsSddf(a.output)) {
    std::fprintf(stderr, "%s: --binary applies to SDDF output only; name the output .sddf\n", a.output.c_str());
    return 1;
  }
  Status s = Status::Ok();
  if (IsSddf(a.output) && IsKsrLog(a.trace) && !a.range.given()) {
    s = ConvertKsrLogToSddf(a.trace, a.output, a.binary, a.force);
  } else {
    auto trace = LoadTraceOrReport(a.trace, a.strict);
    if (!trace) return 1;
    // Only a cut needs a folder (removed at the end, or by a signal): a plain conversion makes none.
    std::optional<ScratchFolder> dir;
    if (a.range.given()) {
      trace = CutPortion(a, *trace, dir.emplace("parallax-convert"));
      if (!trace) return 1;
    }
    s = IsSddf(a.output) ? WriteSddf(*trace, a.output, a.binary, a.force) : trace->Write(a.output, a.force);
  }
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

Command AddConvertCommand(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* sub = app.add_subcommand("convert", "Convert a trace: .prv/.prv.gz (Paraver, canonical), .json (Chrome/Perfetto), .otf2 (OTF2), .sddf (Pablo) or .trf (PICL)");
  sub->add_option("trace", args->trace, "input trace (.prv[.gz], trace-event .json, Pajé, PICL, OTF2 anchor or its folder, SDDF, KSR gist/brief; detected by content)")->required();
  sub->add_option("-o,--output", args->output, "output name; its extension chooses the format (.prv, .prv.gz, .json, .otf2, .sddf, .trf)")->required();
  sub->add_flag("--binary", args->binary, "write SDDF in its binary form (SDDFB/SDDFb, this machine's byte order)");
  sub->add_flag("--force", args->force, "replace existing output files");
  sub->add_flag("--strict", args->strict, "fail on any malformed or out-of-order record");
  AddRangeOptions(sub, &args->range);
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
