// `parallax sort TRACE -o OUT [--memory MB] [--force]`: the trace's records in the canonical
// writer's order (time, thread, kind), in bounded memory (docs/tools.md).

#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/tools.h"

namespace parallax::cli {

namespace {

struct SortArgs {
  std::string trace, output;
  uint64_t memory_mb = 64;
  bool force = false;
};

int Run(const SortArgs& a) {
  if (a.memory_mb == 0) {
    std::fprintf(stderr, "parallax sort: --memory must be at least 1 (MB)\n");
    return 2;
  }
  ToolRun run;
  run.input = a.trace;
  run.output = a.output;
  run.force = a.force;
  ProgressBar bar("sorting");
  run.progress = [&bar](uint64_t d, uint64_t t) { bar.Update(d, t); };
  SortOptions o;
  o.memory_bytes = a.memory_mb << 20;
  Result<ToolReport> report = SortTrace(run, o);
  if (!report.ok()) {
    std::fprintf(stderr, "parallax sort: %s\n", report.status().ToString().c_str());
    return 1;
  }
  for (const std::string& note : report.value().notes)
    std::fprintf(stderr, "parallax sort: note: %s\n", note.c_str());
  return 0;
}

}  // namespace

Command AddSortCommand(CLI::App& app) {
  auto args = std::make_shared<SortArgs>();
  CLI::App* sub = app.add_subcommand(
      "sort", "Put a trace's records in time order (the canonical writer's order), bounded memory");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_option("-o,--output", args->output, "output trace (.prv or .prv.gz)")->required();
  sub->add_option("--memory", args->memory_mb,
                  "MB of records sorted in memory at once; bigger traces are merged from sorted "
                  "runs written beside the output (default 64)");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
