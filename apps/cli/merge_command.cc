// `parallax merge DIR -o NAME.prv [--session ID] [--no-clock-correction] [--force]`: merge the
// per-process files (*.pxt) that the Parallax tracing library wrote into one Paraver trace
// (.prv, .pcf, .row), correcting clocks and checking causality (tracing/README.md).
// `parallax merge A.prv B.prv... -o OUT.prv [--concat] [--force]`: when the inputs are Paraver
// traces (by content), prvmerger's merge (applications side by side) or concatenation.

#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/tools.h"
#include "tracing/src/merge/merger.h"

namespace parallax::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string output;
  std::string session;
  bool no_clock_correction = false;
  bool force = false;
  bool concat = false;
};

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool Exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

// A folder contributes the files of one run (the newest, or --session); files pass through.
bool CollectInputs(const MergeArgs& a, std::vector<std::string>* files) {
  for (const std::string& in : a.inputs) {
    if (!IsDirectory(in)) {
      files->push_back(in);
      continue;
    }
    std::string note, error;
    if (!tracing::ListSessionFiles(in, a.session, files, &note, &error)) {
      std::fprintf(stderr, "parallax merge: %s\n", error.c_str());
      return false;
    }
    if (!note.empty()) std::fprintf(stderr, "parallax merge: note: %s\n", note.c_str());
  }
  return true;
}

// Paraver traces: streamed by src/tools (MergePrvTraces).
int RunPrv(const MergeArgs& a) {
  if (!a.session.empty() || a.no_clock_correction) {
    std::fprintf(stderr,
                 "parallax merge: --session and --no-clock-correction apply to the tracing "
                 "library's .pxt files, not to Paraver traces\n");
    return 2;
  }
  ToolRun run;
  run.output = a.output;
  run.force = a.force;
  MergeOptions options;
  options.inputs = a.inputs;
  options.concat = a.concat;
  auto report = [&] {
    ProgressBar bar("merging");  // cleared when it goes out of scope
    run.progress = [&](uint64_t d, uint64_t t) { bar.Update(d, t); };
    return MergePrvTraces(run, options);
  }();
  if (!report.ok()) {
    std::fprintf(stderr, "parallax merge: %s\n", report.status().ToString().c_str());
    return 1;
  }
  for (const std::string& note : report->notes)
    std::fprintf(stderr, "parallax merge: warning: %s\n", note.c_str());
  std::printf("%s: %llu records from %zu traces\n", a.output.c_str(),
              static_cast<unsigned long long>(report->output_records), a.inputs.size());
  return 0;
}

int Run(const MergeArgs& a) {
  size_t paraver = 0;
  for (const std::string& in : a.inputs)
    if (!IsDirectory(in) && IsParaverTrace(in)) ++paraver;
  if (paraver == a.inputs.size()) return RunPrv(a);
  if (paraver > 0) {
    std::fprintf(stderr,
                 "parallax merge: some inputs are Paraver traces and some are not\n  hint: merge "
                 "either .prv traces or the tracing library's .pxt files\n");
    return 2;
  }
  if (a.concat) {
    std::fprintf(stderr, "parallax merge: --concat applies to Paraver traces only\n");
    return 2;
  }
  if (!a.force && Exists(a.output)) {
    std::fprintf(stderr, "parallax merge: %s exists (use --force to replace it)\n",
                 a.output.c_str());
    return 1;
  }
  tracing::MergeOptions options;
  options.output = a.output;
  options.correct_clocks = !a.no_clock_correction;
  if (!CollectInputs(a, &options.inputs)) return 1;
  tracing::MergeReport report;
  std::string error;
  if (!tracing::MergeTraceFiles(options, &report, &error)) {
    std::fprintf(stderr, "parallax merge: %s\n", error.c_str());
    return 1;
  }
  for (const std::string& line : report.lines) std::printf("%s\n", line.c_str());
  return 0;
}

}  // namespace

Command AddMergeCommand(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand(
      "merge",
      "Merge the per-process files of the Parallax tracing library into one trace, or several "
      "Paraver traces into one (prvmerger)");
  sub->add_option("inputs", args->inputs,
                  "folder of *.pxt files (NAME.pxt.d) or *.pxt files; or Paraver traces "
                  "(.prv/.prv.gz, recognised by their #Paraver first line)")
      ->required();
  sub->add_option("-o,--output", args->output,
                  "merged trace name (NAME.prv; NAME.prv.gz compresses a merge of Paraver "
                  "traces)")
      ->required();
  sub->add_flag("--concat", args->concat,
                "Paraver traces: one after the other in time (each shifted by the end times of "
                "the ones before; same structure needed) instead of their applications side by "
                "side");
  sub->add_option("--session", args->session, "merge this run's files (default: the newest run)");
  sub->add_flag("--no-clock-correction", args->no_clock_correction,
                "keep each process's raw clock (causality is still checked and repaired)");
  sub->add_flag("--force", args->force, "replace existing output files");
  sub->footer(
      "When every input is a Paraver trace the .prv merge runs: the applications of all inputs "
      "side by side on one time base (applications, nodes and cpus renumbered), or with "
      "--concat one after the other; .pcf and .row files are merged. Otherwise the tracing "
      "library's .pxt merge runs (docs/tools.md).");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
