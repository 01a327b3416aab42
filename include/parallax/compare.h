#pragma once
// Comparison of two runs (docs/compare.md): their units aligned — iterations of the main loop,
// phases of an iteration, MPI calls, ranks — with the time of each in both runs, the
// difference and the ratio, ranked by impact; the POP factors of both side by side; and their
// text, csv and json renderings.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/render.h"
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


// Difference windows: one cfg window evaluated on both runs over aligned time, A's time axis
// with B's mapped onto it through the boundaries of the iterations both runs have (linearly
// from start to end without them), so that any window of A − B or A / B can be drawn, and the
// cfg's histograms of both over the aligned ranges, cell by cell.
struct DifferenceRequest {
  std::string cfg_path;
  std::string cfg_text;  // the cfg's content instead of reading cfg_path
  std::string window;    // a window of the cfg; default: its last one
  std::optional<uint64_t> iteration;  // 1-based: iteration k of both runs
  std::optional<uint64_t> from, to;   // A's trace units, instead of an iteration; default: all of A
  bool histograms = true;             // the cfg's histograms on both ranges
  unsigned threads = 0;               // objects merged in parallel; 0: all cores
  double time_limit = 0;              // seconds; 0: none
  uint64_t memory_limit = 0;          // bytes; 0: none
};

// One object of the window: its time-weighted means over the range in both runs.
struct DifferenceObject {
  std::string name;  // "THREAD 1.2.1", "TASK 1.3", ...
  double a_mean = 0, b_mean = 0, diff_mean = 0;  // diff: a - b
  double differs_share = 0;  // of the range, where the values differ
};

// The window over one aligned unit (an iteration): the mean over the objects of each object's
// time-weighted mean, in A and in B.
struct DifferenceUnit {
  std::string unit;                // "3"
  uint64_t from = 0, to = 0;       // A's trace units
  double a_mean = 0, b_mean = 0;
};

struct DifferenceHistogram {
  std::string name, statistic, plane;
  std::vector<std::string> columns, rows;  // the union of both runs' labels, A's order first
  // [row][column]; none: the cell's row or column is not in that run.
  std::vector<std::vector<std::optional<double>>> a, b;
  std::vector<std::optional<double>> a_total, b_total;  // the "Total" line per column
};

struct DifferenceWindow {
  std::string a, b;  // the traces
  std::string window, level, info_type;
  std::string time_unit;  // of the times below: A's trace unit
  std::string alignment;  // how B's time was mapped onto A's
  uint64_t from = 0, to = 0;      // A's range
  uint64_t b_from = 0, b_to = 0;  // B's aligned range (B's trace units)
  std::vector<DifferenceObject> objects;
  // Per iteration both runs have, inside the range (when aligned by iterations).
  std::vector<DifferenceUnit> iterations;
  // The merged intervals of every object on A's axis, in object then time order: each with
  // A's and B's value (intervals of one instant left out).
  std::vector<uint32_t> object;
  std::vector<uint64_t> begin, end;
  std::vector<double> a_value, b_value;
  std::vector<DifferenceHistogram> histograms;
  std::vector<std::string> notes;
};

// Fails when the window has different objects in the two runs (say which, and that a window
// at the application level compares runs of different sizes), or the iteration is missing.
Result<DifferenceWindow> CompareWindow(const Trace& a, const Trace& b, const DifferenceRequest& request);

// The difference as a timeline image on A's axis: op "diff" (A − B, a gradient centred on 0,
// equal values drawn as the background) or "ratio" (A / B, nothing drawn where B is 0).
struct DifferenceImageRequest {
  std::string op = "diff";
  std::string format = "png";  // png, svg or json
  uint32_t width = 1000, height = 0;
  std::string background;      // black (default), white or #rrggbb
};
// `a`: the trace the difference was computed with as A (its names and labels).
Result<TimelineImage> RenderDifference(const Trace& a, const DifferenceWindow& d,
                                       const DifferenceImageRequest& request);

std::string FormatDifferenceText(const DifferenceWindow& d);
std::string FormatDifferenceJson(const DifferenceWindow& d);
// `windows`: difference windows, under the key "windows" (each as FormatDifferenceJson's).
std::string FormatCompareJson(const CompareReport& r, const std::vector<DifferenceWindow>& windows = {});

const char* CompareByName(CompareBy by);
std::optional<CompareBy> ParseCompareBy(const std::string& name);

}  // namespace parallax
