#pragma once
// Labels of histogram tables (analysis.md §8.2): row labels (.row names or `THREAD a.t.h`...),
// column and plane labels (bin ranges, or the textual label of a window value by the window's
// semantic info type, rendering.md §6.1), and the info type of any window, derived ones
// included (semantics.md §10).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/pcf_catalog.h"
#include "src/model/row_names.h"
#include "src/model/trace_header.h"
#include "src/semantic/function_table.h"
#include "src/semantic/info_type.h"
#include "src/semantic/window_spec.h"

namespace parallax::analysis {

struct LabelContext {
  const model::TraceHeader* header = nullptr;
  const model::PcfCatalog* pcf = nullptr;                    // may be null
  const model::RowNames* row = nullptr;                      // may be null
  const std::vector<uint32_t>* trace_event_types = nullptr;  // sorted types of the body
  const semantic::FunctionRegistry* functions = nullptr;     // null: the built-in functions
};

using semantic::WindowInfoType;  // semantics.md §10, src/semantic/info_type.h

// The label of object `o` of a level: .row label, else `THREAD 1.2.1`, `TASK 1.2`, `APPL 1`,
// `WORKLOAD`, `SYSTEM`, `NODE n`, `CPU n.c`.
std::string ObjectLabel(const LabelContext& ctx, model::Level level, uint32_t o);

// The textual label of value `v` of window `index` (rendering.md §6.1 with the histogram
// precision: 2 decimals).
std::string ValueLabel(const LabelContext& ctx, const std::vector<semantic::WindowSpec>& windows,
                       size_t index, double v, bool short_labels);

// The unit of window `index`'s values, from its info type (semantics.md §10): its time unit
// for times ("ns", "us", "ms", "s", ...), "bytes" for sizes, the bandwidth unit ("GB/sec" for a
// window in ns), else what the values identify: "state", "event type", "event value", "tag",
// "appl", "task", "thread", "node", "cpu", "object"; "number" when the functions say nothing
// (info type none: flags, counts, ratios, values a compose function changed).
std::string ValueUnit(const std::vector<semantic::WindowSpec>& windows, size_t index,
                      const semantic::FunctionRegistry* functions);

// The unit of a histogram statistic (analysis.md §6.2, §7.2): times in the control window's
// unit, "%" for shares, "count" for bursts and messages, "bytes" for message sizes, the data
// window's value unit for its values, and that unit times the data window's time unit for the
// integral ("bytes*ms"; just the time unit when the values are numbers).
std::string StatisticUnit(std::string_view statistic, const std::vector<semantic::WindowSpec>& windows,
                          int control, int data, const semantic::FunctionRegistry* functions);

// Numbers as Paraver's labels print them: fixed with `precision` decimals when `v` has a
// fractional part (or always when `always_decimals`), 0 otherwise, with `,` grouping.
std::string GroupedNumber(double v, int precision, bool always_decimals);

}  // namespace parallax::analysis
