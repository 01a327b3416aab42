// `parallax convert TRACE -o OUT [--force]`: load a trace of any readable format and write it
// in the format the output name gives: .prv/.prv.gz (canonical Paraver, with its .pcf and .row)
// or .json (Chrome/Perfetto trace events) or .otf2 (an OTF2 archive: NAME.otf2, NAME.def, NAME/).

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
};

int Run(const ConvertArgs& a) {
  auto trace = LoadTraceOrReport(a.trace, a.strict);
  if (!trace) return 1;
  Status s = trace->Write(a.output, a.force);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace

Command AddConvertCommand(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* sub = app.add_subcommand("convert", "Convert a trace: .prv/.prv.gz (Paraver, canonical) or .json (Chrome/Perfetto)");
  sub->add_option("trace", args->trace, "input trace (.prv[.gz], trace-event .json, Pajé, PICL, OTF2 anchor or its folder; detected by content)")->required();
  sub->add_option("-o,--output", args->output, "output name; its extension chooses the format (.prv, .prv.gz, .json, .otf2)")->required();
  sub->add_flag("--force", args->force, "replace existing output files");
  sub->add_flag("--strict", args->strict, "fail on any malformed or out-of-order record");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
