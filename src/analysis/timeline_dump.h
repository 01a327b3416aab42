#pragma once
// The textual dump of a timeline window that paramedir writes for a cfg without histograms
// (analysis.md §8.3): one line per interval, `label \t begin \t duration \t value`, for every
// object of the window level, from the interval containing the window begin up to the first
// interval reaching the window end; zero-length intervals included.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/semantic/evaluator.h"

namespace parallax::analysis {

struct TimelineDumpOptions {
  bool trace_units = false;  // -tu: times as raw trace-unit integers
  int precision = 2;         // decimals of times (window units) and values
  unsigned threads = 0;      // rows evaluated in parallel; 0 = all cores
  bool label_column = true;  // false for paramedir -m (one file per object)
  // [from, to] in trace units instead of the window's begin and end time (a portion).
  std::optional<std::pair<model::Time, model::Time>> range;
};

// Calls f(interval) for every interval the dump lists for `object` over [from, to]: from the
// interval the row is positioned on by Init(from) up to and including the first one whose end
// is >= to (analysis.md §8.3).
template <typename F>
void ForEachDumpedInterval(const semantic::WindowEvaluator& window, uint32_t object,
                           model::Time from, model::Time to, F&& f) {
  auto row = window.MakeRow(object);
  row->Init(from);
  for (;;) {
    const semantic::Interval& i = row->current();
    f(i);
    if (i.end >= to) break;
    row->Next();
  }
}

// Appends the dump of every row to `out`.
void DumpTimeline(const semantic::WindowEvaluator& window, const model::TraceHeader& header,
                  const TimelineDumpOptions& options, std::string& out);

// The dump of each row separately (index = object).
std::vector<std::string> DumpTimelineRows(const semantic::WindowEvaluator& window, const model::TraceHeader& header,
                                          const TimelineDumpOptions& options);

// The label paramedir prints for an object of a level ("1.1.1", "1.2", "1", "" ...).
std::string DumpLabel(const model::TraceHeader& header, model::Level level, uint32_t object);

}  // namespace parallax::analysis
