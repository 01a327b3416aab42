#pragma once
// Timeline images (Paraver's graphic view): one line per object, the value as a colour or as a
// function of time, flags for events, lines for communications, as PNG, SVG or JSON bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// Objects drawn as one row that summarises them (a collapsed group of rows): at each pixel
// column the most frequent of their values (the dominant state, in code colours), or their mean
// (gradients and function lines).
struct RowSummary {
  std::string objects;  // 1-based window-level objects, "5-8"
  std::string label;    // the row's label; empty: its first object's
};

// Which window to draw and how. Unset fields take the cfg's display settings (or Paraver's
// defaults for a --thread-function window).
struct TimelineRequest {
  std::string cfg_path;                // a cfg: one image per timeline window, or the one named
  std::string cfg_text;                // the cfg's content instead of reading cfg_path
  std::string window;                  // window name inside the cfg
  std::string thread_function;         // instead of a cfg: a thread-level window with this function
  std::vector<double> parameters;      // its first parameter
  std::string format = "png";          // png, svg or json (the draw list, for the browser)
  uint32_t width = 1000;               // whole image, pixels
  uint32_t height = 0;                 // whole image; 0: from the number of rows
  std::optional<uint64_t> from, to;    // trace units; default: the window's range
  std::string objects;                 // 1-based window-level objects, "1-4,7"; empty: the cfg's
                                       // (drawn in this order)
  // Each drawn as one row, where its first object is met in `objects` (its objects missing there
  // are added); an object belongs to one summary at most.
  std::vector<RowSummary> summaries;
  std::string draw_mode;               // time draw mode: last, maximum, minimum-not-zero, random,
                                       // random-not-zero, average, average-not-zero, mode,
                                       // abs-maximum, abs-minimum
  std::string object_draw_mode;        // the same names, for objects sharing a pixel row
  std::string color_mode;              // code, gradient, null-gradient, alt-gradient, line, fused,
                                       // punctual
  std::optional<double> min_y, max_y;  // semantic scale
  bool fit_scale = false;              // compute the scale from the values drawn
  std::optional<bool> flags, comms;    // event flags, communication lines
  // Set: communication lines are drawn only when at most this many fall in the image (more
  // cannot be read); otherwise none, and the layout says how many were left out.
  std::optional<uint64_t> max_comm_lines;
  std::string background;              // black (default), white or #rrggbb
  bool zero_as_background = false;     // values of 0 drawn as the background (a light page)
  bool pcf_gradient = false;           // gradient through the .pcf GRADIENT_COLOR stops
  // "paraver" (Paraver's palette with the .pcf's colours), "colorblind" (colours told apart with
  // any colour vision: Okabe-Ito codes, a viridis gradient); empty: the cfg's choice (a
  // "# parallax: palette colorblind" comment line), else Paraver's.
  std::string palette;
  uint32_t pixel_size = 0;             // 1, 2, 4 or 8; 0: the cfg's
  double time_limit = 0;               // seconds of computing allowed; 0 = no limit
  uint64_t memory_limit = 0;           // bytes the frame may hold; 0 = no limit
  bool labels = true, axis = true, legend = true, title = true;
  // Only values v with highlight_min <= v < highlight_max (v == highlight_min when both are
  // equal) are drawn; others are drawn as the background. For "where does this histogram cell
  // occur": the cell's column range on its control window.
  std::optional<double> highlight_min, highlight_max;
  // Set: one process' part of a distributed run (Distribution, trace.h): every process folds
  // its share of each window's rows, and only process 0's images have their bytes (the
  // single-process ones); the others' `data` and `layout` are empty.
  const Distribution* distribution = nullptr;
};

struct TimelineImage {
  std::string window;  // window name
  std::string format;  // png, svg, json
  std::string data;    // the encoded bytes
  // Where things are in the image, as JSON: {"width","height","background","area":[x,y,w,h],
  // "any_non_zero" (some value in the range is not 0), "lines_hidden" (communication lines left
  // out by max_comm_lines), "rows":[[label,y,h,object]...]} (object: 0-based, at the window's level;
  // a summary row has a fifth element, how many objects it summarises).
  std::string layout;
};

// Draws the requested window(s) of a trace opened with Trace::Open.
Result<std::vector<TimelineImage>> RenderTimeline(const Trace& trace,
                                                  const TimelineRequest& request);

}  // namespace parallax
