// `parallax pop TRACE... [--format text|csv|json] [--scaling auto|strong|weak] [--from/--to |
// --records A..B]`: the POP model factors of one trace or of a scaling series (or of a portion
// of each), as BSC's modelfactors prints them.

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "include/parallax/pop.h"

namespace parallax::cli {

namespace {

struct PopArgs {
  std::vector<std::string> traces;
  std::string format = "text";
  PopScaling scaling = PopScaling::kAuto;
  bool strict = false;
  bool no_replay = false;
  unsigned threads = 0;
  RangeArgs range;
};

// With csv the table goes to stdout unchanged (scripts parse it); what is missing and why goes
// to stderr.
void PrintCsvNotes(const PopReport& r) {
  for (const PopLine& l : r.factors)
    if (!l.unavailable.empty())
      std::fprintf(stderr, "note: %s is NaN: %s\n", l.name.c_str(), l.unavailable.c_str());
  for (const std::string& w : r.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
}

int Run(const PopArgs& a, const Distribution* dist) {
  PopOptions opts;
  opts.scaling = a.scaling;
  opts.replay = !a.no_replay;
  opts.distribution = dist;
  opts.load.strict = a.strict;
  opts.load.threads = a.threads == 0 && dist != nullptr ? dist->threads : a.threads;
  ApplyCacheEnvironment(opts.load);
  if (a.range.given()) {
    // Resolved per trace: a percentage or a record range means each trace's own.
    opts.portion = [range = a.range](const Trace& trace, const std::string& path) {
      return ResolveRange(range, trace, path);
    };
  }
  const bool quiet = dist != nullptr && dist->rank != 0;  // rank 0 prints the report
  ProgressBar bar("loading");
  if (!quiet) opts.load.progress = [&](uint64_t d, uint64_t t) { bar.Update(d, t); };
  auto report = ComputePop(a.traces, opts);
  if (!report.ok()) {
    if (quiet) std::fprintf(stderr, "[rank %u] ", dist->rank);
    std::fprintf(stderr, "%s\n", report.status().ToString().c_str());
    return 1;
  }
  if (quiet) return 0;
  if (a.format == "csv") {
    std::fputs(FormatPopCsv(report.value()).c_str(), stdout);
    PrintCsvNotes(report.value());
  } else if (a.format == "json") {
    std::fputs(FormatPopJson(report.value()).c_str(), stdout);
  } else {
    std::fputs(FormatPopText(report.value()).c_str(), stdout);
  }
  return 0;
}

}  // namespace

Command AddPopCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<PopArgs>();
  CLI::App* sub = app.add_subcommand("pop",
                                     "POP efficiency metrics (model factors) of a trace or a "
                                     "scaling series, as modelfactors computes them");
  sub->add_option("traces", args->traces,
                  "traces (.prv or .prv.gz): one, or runs of the same code with more processes")
      ->required();
  sub->add_option("--format", args->format, "text (default), csv (modelfactors.csv layout) or json")
      ->check(CLI::IsMember({"text", "csv", "json"}));
  const std::map<std::string, PopScaling> scalings = {
      {"auto", PopScaling::kAuto}, {"strong", PopScaling::kStrong}, {"weak", PopScaling::kWeak}};
  sub->add_option("--scaling", args->scaling,
                  "strong, weak, or auto: guessed from the useful instructions")
      ->transform(CLI::CheckedTransformer(scalings, CLI::ignore_case));
  sub->add_flag("--strict", args->strict, "fail on any malformed or out-of-order record");
  sub->add_flag(
      "--no-replay", args->no_replay,
      "skip the ideal-network replay (serialization and transfer efficiency become unavailable)");
  sub->add_option("--threads", args->threads, "worker threads (default: all cores)");
  AddRangeOptions(sub, &args->range);
  sub->footer(
      "With --from/--to or --records, the metrics are computed on that portion of each trace "
      "(a percentage or a record range resolves against each trace); the ideal-replay lines are "
      "then not available.");
  return {sub, [args, dist] { return Run(*args, dist); }};
}

}  // namespace parallax::cli
