// `parallax diagnose TRACE [--from T --to T] [--format text|csv|json]`: the wait states of the
// trace's MPI calls (Scalasca's patterns), the critical path and its profile (docs/diagnose.md).

#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "include/parallax/diagnose.h"

namespace parallax::cli {

namespace {

struct DiagnoseArgs {
  std::string trace;
  std::string format = "text";
  RangeArgs range;
  bool strict_sizes = false;
  size_t worst = 5;
};

int Run(const DiagnoseArgs& a) {
  auto trace = LoadTraceOrReport(a.trace);
  if (!trace) return 1;
  DiagnoseOptions options;
  auto range = ResolveRange(a.range, *trace, a.trace);
  if (!range.ok()) {
    std::fprintf(stderr, "%s\n", range.status().ToString().c_str());
    return 1;
  }
  options.range = range.value();
  options.strict_sizes = a.strict_sizes;
  options.worst = a.worst;
  options.instances = false;
  auto d = Diagnose(*trace, options);
  if (!d.ok()) {
    std::fprintf(stderr, "%s\n", d.status().ToString().c_str());
    return 1;
  }
  const std::string out = a.format == "json"  ? FormatDiagnosisJson(d.value())
                          : a.format == "csv" ? FormatDiagnosisCsv(d.value())
                                              : FormatDiagnosisText(d.value());
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddDiagnoseCommand(CLI::App& app) {
  auto args = std::make_shared<DiagnoseArgs>();
  CLI::App* sub = app.add_subcommand(
      "diagnose",
      "wait states of the MPI calls (Late Sender, Wait at Barrier, ...), who caused them, and the "
      "critical path");
  sub->add_option("trace", args->trace, "trace with MPI call events (Extrae's 50000001-5)")->required();
  sub->add_option("--format", args->format, "text, csv or json")
      ->check(CLI::IsMember({"text", "csv", "json"}));
  sub->add_flag("--strict-sizes", args->strict_sizes,
                "collectives whose sizes are not recorded carry no data (no wait state); by "
                "default they are analysed");
  sub->add_option("--worst", args->worst, "longest waits listed per pattern (default 5)");
  AddRangeOptions(sub, &args->range);
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
