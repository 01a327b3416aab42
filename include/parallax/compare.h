#pragma once
// Comparison of two runs (docs/compare.md): their units aligned — iterations of the main loop,
// phases of an iteration, MPI calls, ranks — with the time of each in both runs, the
// difference and the ratio, ranked by impact; the POP factors of both side by side; and their
// text, csv and json renderings.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// kAuto: by iteration when both runs have iterations found the same way, else by MPI call
// (said in the notes).
enum class CompareBy { kAuto, kIteration, kPhase, kCall, kRank };

struct CompareOptions {
  CompareBy by = CompareBy::kAuto;
  bool pop = true;  // the POP factors of both (loads each trace again and replays it)
};

// Per-rank statistics of a unit in one run: mean and largest time over its ranks, imbalance
// (largest / mean - 1). Runs of different rank counts compare through these.
struct CompareRankStats {
  double mean_s = 0, max_s = 0, imbalance = 0;
  size_t ranks = 0;
};

struct CompareRow {
  std::string by;    // "iteration", "phase", "call", "rank"
  std::string unit;  // "3", "8: MPI_Waitall -> MPI_Irecv", "MPI_Allreduce", "1.2 computation"
  std::optional<double> a_s, b_s;  // none: the unit is in one run only
  double diff_s = 0;               // b - a (a missing side counts as 0)
  std::optional<double> ratio;     // b / a, when both are present and a > 0
  CompareRankStats a_ranks, b_ranks;
};

struct CompareFactor {
  std::string key, name;
  std::optional<double> a, b, diff;  // percentages (factors) or raw values; none: unavailable
};

struct CompareReport {
  std::string a, b;                   // the traces
  std::string by;
  std::string alignment;              // how the units were matched
  std::vector<CompareRow> rows;       // the largest |diff| first
  double a_total_s = 0, b_total_s = 0;  // the units' times summed (matched or not)
  std::vector<CompareFactor> pop;     // empty unless CompareOptions::pop
  std::vector<std::string> notes;
};

// Fails, saying what did not match, when the runs cannot be aligned by the unit asked for.
Result<CompareReport> CompareRuns(const Trace& a, const Trace& b, const CompareOptions& options = {});

std::string FormatCompareText(const CompareReport& r);
std::string FormatCompareCsv(const CompareReport& r);
std::string FormatCompareJson(const CompareReport& r);

const char* CompareByName(CompareBy by);
std::optional<CompareBy> ParseCompareBy(const std::string& name);

}  // namespace parallax
