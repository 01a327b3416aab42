// `parallax convert TRACE -o OUT [--force]`: load a trace of any readable format and write it
// in the format the output name gives: .prv/.prv.gz (canonical Paraver, with its .pcf and .row)
// or .json (Chrome/Perfetto trace events) or .otf2 (an OTF2 archive: NAME.otf2, NAME.def, NAME/)
// or .sddf (Pablo SDDF, ASCII or --binary) or .trf (PICL); a KSR event log converted to .sddf is
// written as Pablo's ksr2sddf did (its own records, not Paraver's).

#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct ConvertArgs {
  std::string trace;
  std::string output;
  bool force = false;
  bool strict = false;
  bool binary = false;
};

bool IsSddf(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".sddf") == 0; }

int Run(const ConvertArgs& a) {
  if (a.binary && !IsSddf(a.output)) {
    std::fprintf(stderr, "%s: --binary applies to SDDF output only; name the output .sddf\n", a.output.c_str());
    return 1;
  }
  Status s = Status::Ok();
  if (IsSddf(a.output) && IsKsrLog(a.trace)) {
    s = ConvertKsrLogToSddf(a.trace, a.output, a.binary, a.force);
  } else {
    auto trace = LoadTraceOrReport(a.trace, a.strict);
    if (!trace) return 1;
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
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
