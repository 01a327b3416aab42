// `parallax shift TRACE --offsets FILE [--level task|thread|application] -o OUT [--force]`:
// adds a time offset per task, thread or application (paramedir -t/-tt/-ta), then sorts the
// result, in bounded memory (docs/tools.md).

#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/trace_tools.h"

namespace parallax::cli {

namespace {

struct ShiftArgs {
  std::string trace, output, offsets, level = "task";
  bool force = false;
};

int Run(const ShiftArgs& a) {
  ToolStep step;
  step.kind = ToolStep::Kind::kShift;
  if (a.level == "task") {
    step.shift.level = ShiftOptions::Level::kTask;
  } else if (a.level == "thread") {
    step.shift.level = ShiftOptions::Level::kThread;
  } else if (a.level == "application" || a.level == "appl") {
    step.shift.level = ShiftOptions::Level::kApplication;
  } else if (a.level == "trace") {
    step.shift.level = ShiftOptions::Level::kWorkload;
  } else {
    std::fprintf(stderr,
                 "parallax shift: bad --level \"%s\"\n  hint: task, thread, application or trace\n",
                 a.level.c_str());
    return 2;
  }
  step.shift.offsets_file = a.offsets;
  auto offsets = ReadShiftOffsets(a.offsets);
  if (!offsets.ok()) {
    std::fprintf(stderr, "parallax shift: %s\n", offsets.status().ToString().c_str());
    return 1;
  }
  step.shift.offsets = std::move(offsets).value();
  std::string written;
  return RunToolChain("parallax shift", a.trace, {step}, a.output, a.force, &written);
}

}  // namespace

Command AddShiftCommand(CLI::App& app) {
  auto args = std::make_shared<ShiftArgs>();
  CLI::App* sub = app.add_subcommand(
      "shift", "Add a time offset per task, thread or application (paramedir -t/-tt/-ta)");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_option("-o,--output", args->output,
                  "output trace (.prv or .prv.gz); default NAME.shift1.prv");
  sub->add_option("--offsets", args->offsets,
                  "file of offsets in trace units, one integer per line ('#' comments), the "
                  "i-th for the i-th object of the level")
      ->required();
  sub->add_option("--level", args->level, "task (default), thread, application, or trace (one offset for every record)");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
