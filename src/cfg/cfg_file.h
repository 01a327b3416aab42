#pragma once
// The content of a Paraver .cfg file (cfg-format.md) as plain values: the windows as
// semantic::WindowSpec (what computes) plus, in parallel, what only the GUI uses and what the
// writer needs to reproduce the file (geometry, colours, draw modes, the filter and object lines
// as written). Read by src/cfg/cfg_reader.h, written by src/cfg/cfg_writer.h.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/status.h"
#include "src/model/objects.h"
#include "src/cfg/histogram_spec.h"
#include "src/model/pcf_catalog.h"
#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"

namespace parallax::cfg {

// What the trace a cfg is applied to provides. Every pointer may be null: without a process
// model `window_object` lines are kept but not applied; without a resource model resource
// levels are refused (as on a trace without one); without a .pcf no symbol picking is done;
// without the event types of the trace the "no event of the filter in the trace" check is
// skipped.
struct CfgContext {
  const model::ProcessModel* process = nullptr;
  const model::ResourceModel* resources = nullptr;
  const model::PcfCatalog* pcf = nullptr;
  const std::vector<uint32_t>* trace_event_types = nullptr;  // sorted types found in the trace
  const semantic::FunctionRegistry* functions = nullptr;     // null: the built-in functions
};

// `window_color_mode` (cfg-format.md §3.6); kFunctionLine is `window_noncolor_mode false`.
enum class ColorMode : uint8_t {
  kCode,
  kGradient,
  kNullGradient,
  kAlternativeGradient,
  kPunctual,
  kFusedLines,
  kFunctionLine,
};

// Draw modes (cfg-format.md §4.2), in the order of the old numeric codes.
enum class DrawMode : uint8_t {
  kLast,
  kMaximum,
  kMinNotZero,
  kRandom,
  kRandNotZero,
  kAverage,
  kAverageNotZero,
  kMode,
  kAbsoluteMaximum,
  kAbsoluteMinimum,
};

enum class GradientFunction : uint8_t { kLinear, kSteps, kLog, kExp };

// One `window_object` line as written (cfg-format.md §3.5). `group` holds the indices before
// the count: appl for task lines, appl and task for thread lines, node for cpu lines.
struct ObjectLine {
  model::Level level = model::Level::kAppl;
  std::vector<uint32_t> group;
  std::vector<bool> selected;
  bool numeric = false;  // entries written as 1/0 (line at the window's level) or as words

  bool operator==(const ObjectLine&) const = default;
};

// The event filter lists as written (`window_filter_module evt_type/evt_value` and their
// labels), before symbol picking resolved them into WindowSpec::filter.
struct EventFilterText {
  std::vector<double> types;
  std::vector<std::string> type_labels;
  std::vector<double> values;
  std::vector<std::string> value_labels;

  bool operator==(const EventFilterText&) const = default;
};

// Display settings of a window: no effect on computed values (cfg-format.md §3.6).
struct WindowDisplay {
  uint16_t x = 100;
  uint16_t y = 100;
  uint16_t width = 600;
  uint16_t height = 115;
  bool comm_lines = true;
  bool flags = false;
  ColorMode color = ColorMode::kCode;
  std::optional<GradientFunction> gradient;
  bool custom_color = false;
  std::optional<std::string> custom_palette;  // "{v:r,g,b},..." as written
  bool scale_min_at_zero = false;
  double maximum_y = 18;
  double minimum_y = 0;
  std::optional<bool> compute_y_max = false;  // nullopt: the key with an empty value
  bool open = true;
  DrawMode draw_time = DrawMode::kMaximum;
  DrawMode draw_rows = DrawMode::kMaximum;
  uint32_t pixel_size = 1;
  uint32_t labels_to_draw = 1;
  std::optional<uint32_t> object_axis_position;
  std::optional<uint32_t> punctual_color_window;  // 1-based window number
  std::optional<uint32_t> synchronize;
  std::optional<std::pair<uint32_t, uint32_t>> zoom_objects;  // clamped to the objects
  std::vector<std::string> cfg4d;                             // `cfg4d*` GUI alias lines, verbatim

  bool operator==(const WindowDisplay&) const = default;
};

// Everything the file says about one window besides its WindowSpec.
struct CfgWindow {
  WindowDisplay display;
  std::vector<ObjectLine> objects;
  EventFilterText events;

  bool operator==(const CfgWindow&) const = default;
};

// Something the reader did not turn into an error but a user may want to know (Paraver prints
// these as notices): ignored keys, labels matching several values, missing event types.
struct CfgNotice {
  uint64_t line = 0;  // 0: about the whole file
  std::string text;

  bool operator==(const CfgNotice&) const = default;
};

// A histogram (`< NEW ANALYZER2D >`): what computes, plus the GUI-only lines as read (validated,
// then kept verbatim for the writer).
struct CfgHistogram {
  HistogramSpec spec;
  std::vector<std::string> gui_lines;
  uint64_t line = 0;  // of its '< NEW ANALYZER2D >', for messages; no part in equality

  friend bool operator==(const CfgHistogram& a, const CfgHistogram& b) {
    return a.spec == b.spec && a.gui_lines == b.gui_lines;
  }
};

struct CfgFile {
  bool has_description = false;
  std::vector<std::string> description;       // lines between Begin/EndDescription, verbatim
  bool cfg4d_enabled = false;                 // a CFG4D_ENABLED line
  std::vector<semantic::WindowSpec> windows;  // file window k+1 is windows[k]
  std::vector<CfgWindow> window_info;         // parallel to `windows`
  std::vector<CfgHistogram> histograms;       // in file order
  // Parallax's palette for the windows, from a comment line Paraver ignores:
  // "# parallax: palette colorblind" (render.h TimelineRequest::palette). Empty: Paraver's.
  std::string palette;

  std::vector<CfgNotice> notices;
  // cfg-format.md §6: the windows filter on event types and none of them occurs in the trace
  // (and no window uses All/None as event-type criterion). Paramedir writes nothing then.
  bool no_filtered_event_in_trace = false;
  // Some window has no selected object at its own level (paramedir writes nothing for it).
  bool window_without_objects = false;
  // A histogram key could not be read: that histogram was dropped and reading stopped there
  // (cfg-format.md §2 rule 6); the windows read so far remain. Empty when none.
  std::string histogram_error;
  // The same failure with its location (file, line, column of the key's value); ok when none.
  Status histogram_failure;

  // Notices and flags depend on the trace, not on the file: they take no part in equality.
  friend bool operator==(const CfgFile& a, const CfgFile& b) {
    return a.has_description == b.has_description && a.description == b.description &&
           a.cfg4d_enabled == b.cfg4d_enabled && a.windows == b.windows &&
           a.window_info == b.window_info && a.histograms == b.histograms && a.palette == b.palette;
  }
};

}  // namespace parallax::cfg
