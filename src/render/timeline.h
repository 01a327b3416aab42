#pragma once
// A timeline image of one window as a draw list (rendering.md): fold the selected rows into
// pixel columns, group rows that share a pixel row, colour them, add flags, communication
// lines, labels, the time axis, a title and a legend. Encoders (png_encoder.h, svg_encoder.h,
// json_encoder.h) turn the draw list into bytes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "src/cfg/cfg_file.h"
#include "src/model/row_names.h"
#include "src/render/draw_list.h"
#include "src/render/draw_modes.h"
#include "src/render/fold.h"
#include "src/render/palette.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/function_table.h"

namespace parallax::render {

using cfg::ColorMode;

// The largest image drawn, whatever asks for it (the command line, Python, the server with its
// own lower limits): sides of at most kMaxImageSide pixels, so that every coordinate stays far
// inside int32 whatever margins, labels and legends add (a height of 2^31 wrapped negative),
// at most kMaxImagePixels pixels in all (1 GiB of RGBA), and columns 1 to kMaxPixelSize pixels
// wide. Beyond them RenderWindow fails with the size and the limit.
inline constexpr uint32_t kMaxImageSide = 65535;
inline constexpr uint64_t kMaxImagePixels = uint64_t{1} << 28;
inline constexpr uint32_t kMaxPixelSize = 64;

// Everything that decides how a window is drawn, as a plain value.
struct TimelineOptions {
  uint32_t width = 1000;                // whole image
  uint32_t height = 0;                  // whole image; 0: from the number of rows
  std::optional<model::Time> from, to;  // trace units; default: the window's range
  std::vector<uint32_t> objects;        // window-level objects; empty: the window's selection
  // Objects drawn as one summary row each (RowSummary, include/parallax/render.h): the most
  // frequent value of the members per column in code colours, else their mean.
  struct Summary {
    std::vector<uint32_t> objects;  // window-level
    std::string label;              // empty: the first object's
  };
  std::vector<Summary> summaries;
  DrawMode time_mode = DrawMode::kMaximum;
  DrawMode object_mode = DrawMode::kMaximum;
  ColorMode color = ColorMode::kCode;
  GradientFn gradient = GradientFn::kLinear;
  double min_y = 0;
  double max_y = 18;
  bool fit_scale = false;    // compute min/max from the values drawn (§3)
  bool min_at_zero = false;  // line and punctual modes (§3)
  bool flags = false;
  bool comms = true;
  std::optional<uint64_t> max_comm_lines;  // more lines than this: none drawn (DrawList::lines_hidden)
  uint32_t pixel_size = 1;
  bool labels = true;
  bool axis = true;
  bool legend = true;
  std::string title;  // empty: no title
  ColorPrefs prefs;
  unsigned threads = 0;  // fold workers; 0: all cores
  // Only the values in this range are drawn, the others as the background (the scale is still
  // fitted to every value).
  std::optional<Highlight> highlight;
  // Set: a distributed run (FoldRowsShared): the processes fold their share of the rows, find
  // the flags and communication lines of their share of the threads and communications
  // (ShareOverlays), and process 0 draws the image; the others' draw lists are empty (width 0).
  const base::WorkShare* share = nullptr;
};

// The display settings a cfg window carries (colour mode, draw modes, scale, flags, lines,
// pixel size).
TimelineOptions OptionsFromCfg(const cfg::WindowDisplay& display);

// What the renderer reads about the trace besides the window.
struct TimelineContext {
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  const model::PcfCatalog* pcf = nullptr;  // may be null
  const model::RowNames* row = nullptr;    // may be null
  semantic::InfoType info = semantic::InfoType::kNone;
  model::TimeUnit unit = model::TimeUnit::kNs;  // of the window's time values (kTime labels)
  std::vector<uint32_t> label_types;  // event types whose value labels apply (kEventValue)
  // TracePalette(background, pcf) when the caller keeps it between frames; null: computed.
  const std::vector<Rgb>* palette = nullptr;
  // The request's memory, charged with what grows with the records in range (communication
  // lines, event marks); null: no limit.
  const base::RequestMemory* memory = nullptr;
  // The store's state summaries, kept between frames (fold.h FoldOptions::state_blocks); may be
  // null.
  const store::StateBlockCache* state_blocks = nullptr;
};

// Draws window `window` (already bound to the trace).
Result<DrawList> RenderWindow(const semantic::WindowEvaluator& window, const TimelineContext& ctx,
                              const TimelineOptions& options);

// Rows that are not a window of the trace (the difference of two runs' windows, compare.h),
// drawn as a window of `level` would be, without flags or communication lines.
struct RowsToDraw {
  model::Level level = model::Level::kThread;
  std::vector<uint32_t> objects;                     // level objects, one per row, drawn in order
  std::vector<std::unique_ptr<semantic::Row>> rows;  // parallel to objects
  model::Time begin = 0, end = 0, trace_end = 0;     // trace units
  model::TimeUnit unit = model::TimeUnit::kNs;       // of the axis labels
};
Result<DrawList> RenderRows(const RowsToDraw& rows, const TimelineContext& ctx, const TimelineOptions& options);

// The text of a value (rendering.md §6.1, by the window's info type).
std::string ValueLabel(const TimelineContext& ctx, model::Level level, double v);
// The label of a window-level object: the .row name, else Paraver's default name.
std::string ObjectLabel(const TimelineContext& ctx, model::Level level, uint32_t object);

}  // namespace parallax::render
