// `parallax check TRACE (--assert FILE_OR_EXPR)... [--baseline B] [--junit OUT.xml] [--format
// text|json] [--list]`: performance assertions over a trace (docs/check.md). Exit status 0 when
// every assertion holds, 1 when one fails or cannot be evaluated, 2 when the assertions or the
// traces cannot be read.

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/check.h"
#include "include/parallax/output.h"

namespace parallax::cli {

namespace {

struct CheckArgs {
  std::string trace, baseline, junit, format = "text";
  std::vector<std::string> asserts;
  bool list = false, force = false;
};

// An --assert is a file when one exists by that name, else an assertion.
Result<std::vector<CheckSource>> Sources(const std::vector<std::string>& asserts) {
  std::vector<CheckSource> out;
  for (const std::string& a : asserts) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(a, ec)) {
      auto file = ReadCheckFile(a);
      if (!file.ok()) return file.status();
      out.push_back(std::move(file.value()));
    } else if (a.find_first_of("<>=!") == std::string::npos) {
      return Status::Error(fmt::format("'{}' is neither a file nor an assertion", a), {},
                           "give a file of assertions, or one like 'pop.parallel_efficiency >= 0.85'");
    } else {
      out.push_back({a, ""});
    }
  }
  return out;
}

int Run(const CheckArgs& a, const Distribution* dist) {
  const bool quiet = dist != nullptr && dist->rank != 0;  // process 0 reports
  if (a.list) {
    for (const CheckMetric& m : CheckMetrics())
      std::printf("%-36s %-9s %s\n", m.name.c_str(), m.unit.c_str(), m.description.c_str());
    std::printf("%-36s %-9s %s\n", "hist(\"CFG\", \"COLUMN\", \"STAT\")", "", "a histogram's totals line (Total, Average, "
                "Maximum, Minimum, StDev, Avg/Max) in a column; CFG#NAME for one of several histograms");
    std::printf("%-36s %-9s %s\n", "cell(\"CFG\", \"ROW\", \"COLUMN\")", "", "a histogram's cell");
    std::printf("%-36s %-9s %s\n", "baseline(EXPR)", "", "EXPR on the --baseline trace");
    return 0;
  }
  if (a.trace.empty() || a.asserts.empty()) {
    std::fprintf(stderr, "error: give the trace and at least one --assert\nhint: parallax check --list names the metrics\n");
    return 2;
  }
  if (!a.junit.empty() && !a.force && std::filesystem::exists(a.junit)) {
    std::fprintf(stderr, "error: %s exists (use --force to replace it)\n", a.junit.c_str());
    return 2;
  }
  auto sources = Sources(a.asserts);
  if (!sources.ok()) {
    std::fprintf(stderr, "%s\n", sources.status().ToString().c_str());
    return 2;
  }
  // The assertions are checked before any trace is loaded.
  if (auto valid = ValidateChecks(sources.value()); !valid.ok()) {
    std::fprintf(stderr, "%s\n", valid.status().ToString().c_str());
    return 2;
  }
  const unsigned threads = dist != nullptr ? dist->threads : 0;
  auto trace = LoadTraceOrReport(a.trace, false, threads, dist);
  if (!AllOk(dist, trace != nullptr)) return 2;
  std::unique_ptr<Trace> baseline;
  if (!a.baseline.empty()) {
    baseline = LoadTraceOrReport(a.baseline, false, threads, dist);
    if (!AllOk(dist, baseline != nullptr)) return 2;
  }
  auto r = RunChecks(*trace, baseline.get(), sources.value(), dist);
  if (!r.ok()) {
    if (quiet) std::fprintf(stderr, "[rank %u] ", dist->rank);
    std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
    return 2;
  }
  if (quiet) return 0;
  if (!a.junit.empty()) {
    if (Status s = WriteOutputFile(a.junit, FormatCheckJunit(r.value()), true); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 2;
    }
  }
  const std::string out = a.format == "json" ? FormatCheckJson(r.value()) : FormatCheckText(r.value());
  std::fputs(out.c_str(), stdout);
  return r.value().failed + r.value().errors == 0 ? 0 : 1;
}

}  // namespace

Command AddCheckCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* sub = app.add_subcommand(
      "check", "performance assertions over a trace (POP factors, histograms, wait states, iterations), for CI: "
               "exit 1 when one fails");
  sub->add_option("trace", args->trace, "the trace to check");
  sub->add_option("--assert", args->asserts,
                  "a file of assertions (one per line), or one assertion: 'pop.parallel_efficiency >= 0.85' "
                  "(repeatable)");
  sub->add_option("--baseline", args->baseline, "a baseline trace, read by baseline(EXPR)");
  sub->add_option("--junit", args->junit, "write the results as JUnit XML");
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_flag("--list", args->list, "list the metrics and functions, and exit");
  sub->add_flag("--force", args->force, "replace an existing JUnit file");
  return {sub, [args, dist] { return Run(*args, dist); }};
}

}  // namespace parallax::cli
