#pragma once
// Performance assertions (docs/check.md): `pop.parallel_efficiency >= 0.85`,
// `hist("mpi_stats.cfg", "MPI_Waitall", "Maximum") / hist("mpi_stats.cfg", "MPI_Waitall",
// "Average") < 1.2`, `structure.iteration_s <= 1.05 * baseline(structure.iteration_s)`,
// checked on a trace (and a baseline trace), with a readable summary, JUnit XML for CI systems
// and JSON.

#include <cstdint>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// Assertions as written: a file's content (`file` names it in errors, and relative cfg paths
// in hist() and cell() are relative to its folder) or one command-line assertion (`file`
// empty: relative to the working directory).
struct CheckSource {
  std::string text;
  std::string file;
};

// A file of assertions read (a regular file of at most 1 MiB).
Result<CheckSource> ReadCheckFile(const std::string& path);

// A metric the assertions can name.
struct CheckMetric {
  std::string name;         // "pop.parallel_efficiency"
  std::string unit;         // "fraction", "s", "count", "us", ...
  std::string description;
};
// Every metric, in documentation order.
const std::vector<CheckMetric>& CheckMetrics();

// Parses every source (without computing anything): the first error with its file, line and
// column. Returns the number of assertions.
Result<size_t> ValidateChecks(const std::vector<CheckSource>& sources);

struct CheckResult {
  std::string assertion;  // as written
  std::string file;       // "" for the command line
  uint32_t line = 0;
  enum class Outcome { kPass, kFail, kError } outcome = Outcome::kError;
  double lhs = 0, rhs = 0;  // the two sides' values (pass and fail)
  std::string message;      // fail: "0.812 >= 0.85 is false"; error: why it could not be evaluated
  std::vector<std::pair<std::string, double>> values;  // every metric read, with its value
  double seconds = 0;       // computing (the first assertion reading a metric pays for it)
};

struct CheckReport {
  std::string trace, baseline;  // baseline: "" when none
  std::vector<CheckResult> results;
  size_t passed = 0, failed = 0, errors = 0;
  double seconds = 0;
};

// Checks `sources` on `trace` (and `baseline`, null when none; assertions using baseline()
// then fail to parse with a hint). Fails only for bad assertions (before computing anything):
// metrics that cannot be computed on this trace are errors of their assertion.
// `distribution` set: one process of a distributed run (parallax-mpi check): the POP factors and
// the histograms every assertion needs are computed first, by all processes together, in one
// order; only process 0's report is complete.
Result<CheckReport> RunChecks(const Trace& trace, const Trace* baseline, const std::vector<CheckSource>& sources,
                              const Distribution* distribution = nullptr);

std::string FormatCheckText(const CheckReport& r);
std::string FormatCheckJson(const CheckReport& r);
// JUnit XML: one <testsuite> with a <testcase> per assertion, <failure> or <error> inside.
std::string FormatCheckJunit(const CheckReport& r);

}  // namespace parallax
