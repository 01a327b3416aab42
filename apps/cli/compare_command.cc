// `parallax compare A B [--by auto|iteration|phase|call|rank] [--format text|csv|json] [--no-pop]`:
// two runs of a program aligned by their structure or their MPI calls, each unit's time in both,
// the difference and the ratio ranked by impact, and the POP factors side by side
// (docs/compare.md).

#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/compare.h"

namespace parallax::cli {

namespace {

struct CompareArgs {
  std::string a, b, by = "auto", format = "text";
  bool no_pop = false;
};

int Run(const CompareArgs& args) {
  CompareOptions options;
  options.by = *ParseCompareBy(args.by);
  options.pop = !args.no_pop;
  auto a = LoadTraceOrReport(args.a);
  if (!a) return 1;
  auto b = LoadTraceOrReport(args.b);
  if (!b) return 1;
  auto r = CompareRuns(*a, *b, options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
    return 1;
  }
  const std::string out = args.format == "json"  ? FormatCompareJson(r.value())
                          : args.format == "csv" ? FormatCompareCsv(r.value())
                                                 : FormatCompareText(r.value());
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddCompareCommand(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "compare", "two runs aligned by iteration, phase, MPI call or rank: where B differs from A, ranked by impact");
  sub->add_option("a", args->a, "the first run's trace (A)")->required();
  sub->add_option("b", args->b, "the second run's trace (B)")->required();
  sub->add_option("--by", args->by,
                  "iteration, phase, call or rank; default: by iteration when both runs have the same loop, "
                  "else by call")
      ->check(CLI::IsMember({"auto", "iteration", "phase", "call", "rank"}));
  sub->add_option("--format", args->format, "text, csv or json")->check(CLI::IsMember({"text", "csv", "json"}));
  sub->add_flag("--no-pop", args->no_pop, "leave out the POP factors (they replay both runs)");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
