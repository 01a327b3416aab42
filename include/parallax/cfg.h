#pragma once
// Reading and editing a cfg's windows and histograms from a front end (the browser UI's window
// properties). A cfg travels as its text: DescribeCfg turns it into plain values a front end can
// show and change, and EditCfg applies changed values back, giving the new cfg text (as Paraver
// writes it). Everything the values below do not cover (geometry, colours, object selections,
// the event lists as written, histogram layout keys) is kept as it was.

#include <cstdint>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// The function of one slot. Slot names: thread, compose_thread, task, compose_task, appl,
// compose_appl, workload, compose_workload, cpu, compose_cpu, node, compose_node, system,
// compose_system, top_compose1, top_compose2, derived.
struct CfgFunction {
  std::string slot;
  std::string name;                         // as Paraver spells it (ListFunctions())
  std::vector<std::vector<double>> params;  // one list per parameter; missing: the defaults
};

// A filter criterion: op is one of "All", "None", "=", "!=", ">", "<", "[x,y]".
struct CfgCriterion {
  std::string op = "All";
  std::vector<double> values;
};

struct CfgFilter {
  bool logical = true, physical = false;
  bool from_to_and = true, tag_size_and = true, type_value_and = true;
  CfgCriterion from, to, tag, size, bandwidth;  // communications
  CfgCriterion event_type, event_value;         // events
};

struct CfgWindowSettings {
  std::string name;
  std::string level;  // workload, appl, task, thread, system, node, cpu
  std::string unit;   // time unit of the window's values: ns, us, ms, s, min, h, day (empty: keep,
                      // or the trace's unit for a new window)
  // DescribeCfg lists every slot that takes part at `level` (thread up to the level, then the
  // compose slots; the derived slot for derived windows), each with its effective function.
  // EditCfg sets the slots listed and leaves the others.
  std::vector<CfgFunction> functions;
  CfgFilter filter;
  // Derived windows (two parents, 0-based indices into the document's windows).
  bool derived = false;
  int parent0 = -1, parent1 = -1;
  double factor0 = 1, factor1 = 1;
  // Display settings (render.h names).
  std::string color_mode;        // code, gradient, null-gradient, alt-gradient, line, fused, punctual
  std::string draw_mode;         // time draw mode: last, maximum, minimum-not-zero, random, ...
  std::string object_draw_mode;  // the same names, for objects sharing a pixel row
  bool flags = false, comm_lines = true;
  double min_y = 0, max_y = 1;   // semantic scale
  uint32_t pixel_size = 1;
  bool open = true;              // shown when the cfg is loaded (Paraver's window_open)
  uint32_t synchronize = 0;      // synchronisation group (window_synchronize); 0: none
  // The window's time range: fractions of the trace's end when relative (Paraver's
  // window_begin_time_relative / window_end_time_relative), else trace units
  // (window_begin_time / window_stop_time). A front end saving a zoomed window sets
  // range_relative = false and the range it shows.
  bool range_relative = true;
  double range_begin = 0, range_end = 1;
};

struct CfgHistogramSettings {
  std::string name;
  std::string statistic;                // the statistic shown
  std::vector<std::string> statistics;  // the statistics this histogram can show (for a menu)
  int control = -1, data = -1, extra = -1;  // 0-based window indices; extra -1: a 2D histogram
  bool communications = false;              // a communication histogram
  bool hide_empty_columns = false;
  bool horizontal = true;
  // Columns of a semantic histogram: the control window's value range [minimum, maximum] in bins
  // of `delta`, or computed from the values (compute_scale; Paraver's "Autofit control scale").
  bool compute_scale = true;
  double minimum = 0, maximum = 1, delta = 1;
  // Column order: by a total row (sort_criteria: Total, Average, Maximum, Minimum, Stdev,
  // Avg/Max), largest first unless sort_reverse; else by value (reversed with sort_reverse).
  bool sort_columns = false;
  bool sort_reverse = false;
  std::string sort_criteria = "Average";
};

struct CfgDocument {
  std::vector<std::string> description;  // the cfg's description lines
  std::vector<CfgWindowSettings> windows;
  std::vector<CfgHistogramSettings> histograms;
  std::vector<std::string> notices;  // what the reader noticed ("line N: ..."); ignored by EditCfg
};

// The cfg `cfg_text`, read for `trace` (symbol picking, object checks). `name` names the text in
// messages (its file name, or any label).
Result<CfgDocument> DescribeCfg(const Trace& trace, const std::string& cfg_text, const std::string& name);

// Applies the editable values of `doc` to `cfg_text` and returns the new text. Windows past the
// end of the text's windows are added (a new derived window, for instance); windows are never
// removed. Histograms are matched by position. Unknown functions, levels, slots, criteria,
// colour or draw modes, and parents that are not earlier windows, are errors.
Result<std::string> EditCfg(const Trace& trace, const std::string& cfg_text, const std::string& name,
                            const CfgDocument& doc);

// A cfg with one thread-level window of `function` (and its first parameter), Paraver's default
// display settings and the whole trace as range: what a front end starts from without a cfg.
Result<std::string> FunctionCfg(const Trace& trace, const std::string& function,
                                const std::vector<double>& params);

// What a cfg browser shows without a trace: the description and the window and histogram names.
struct CfgSummary {
  std::vector<std::string> description;
  std::vector<std::string> windows;
  std::vector<std::string> histograms;
  // The cfg reads no event and no communication: each window is a window of threads, tasks,
  // applications or the workload (not derived) whose thread function starts its intervals at
  // state records only (the state group: State As Is, Useful, In State, ...), and names no
  // event type in its filter; each histogram has a semantic statistic. Such a cfg can be
  // analysed on a trace loaded with LoadOptions::states_only.
  bool reads_states_only = false;
};
Result<CfgSummary> SummarizeCfg(const std::string& cfg_path);

}  // namespace parallax
