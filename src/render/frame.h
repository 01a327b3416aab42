#pragma once
// Internal to the renderer: the state shared by the steps that build a timeline draw list
// (timeline.cc draws the bands, decorations.cc the text, overlays.cc flags and lines).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/wire.h"

#include "src/render/draw_list.h"
#include "src/render/fold.h"
#include "src/render/timeline.h"

namespace parallax::render {

// Objects drawn on one pixel row.
struct RowGroup {
  std::vector<uint32_t> members;  // indices into Frame::objects
  int32_t y = 0;                  // band top
  int32_t h = 1;                  // band height
  int32_t summary = -1;           // the summary row it is (TimelineOptions::summaries), or -1
};

// The rows of a frame before they get pixels: each one object, or a summary's objects.
struct PlannedRow {
  std::vector<uint32_t> members;  // indices into Frame::objects
  int32_t summary = -1;
};

// What the flags and communication lines of a frame are, before they are drawn: per row group,
// the columns with a flag; the lines of the logical pass, then of the physical one, each in
// communication order (overlays.cc).
struct Overlays {
  std::vector<std::vector<uint32_t>> marks;  // per group, unsorted
  std::vector<Line> lines[2];
};

struct LegendEntry {
  Rgb color;
  std::string text;
};

struct Frame {
  // Null for rows that are not a window of the trace (RenderRows): no flags or lines then.
  const semantic::WindowEvaluator* window = nullptr;
  model::TimeUnit unit = model::TimeUnit::kNs;  // of the time axis labels (the window's)
  const TimelineContext* ctx = nullptr;
  const TimelineOptions* options = nullptr;
  model::Level level = model::Level::kThread;
  std::vector<uint32_t> objects;  // window-level objects drawn, in order
  std::vector<std::string> labels;
  Columns columns;
  std::vector<FoldedRow> folded;  // parallel to objects
  std::vector<PlannedRow> planned;  // the rows, in order (PlanSummaries)
  std::vector<RowGroup> groups;
  ColorScheme scheme;
  double lower_y = 0;  // lower bound of line and punctual modes
  std::vector<LegendEntry> legend;
  int32_t legend_h = 0;
  DrawList list;
  std::optional<Overlays> overlays;  // computed ahead (a distributed run); else while drawing
};

// decorations.cc
void PlanLegend(Frame& f);
void AddRowLabels(Frame& f);
void AddTimeAxis(Frame& f);
void AddTitle(Frame& f);
void AddLegend(Frame& f);
int32_t LabelAreaWidth(const Frame& f);

// overlays.cc
// `share`: only this process' part (threads round-robin, communications in contiguous blocks of
// ids, so that the parts of processes 0, 1, ... joined give one process' order); null: all.
Overlays ComputeOverlays(const Frame& f, const base::WorkShare* share);
// Every process' part of the overlays joined on each process (in process order), or why not.
Result<Overlays> ShareOverlays(const Frame& f, const base::WorkShare& share);
void AddFlags(Frame& f, std::vector<std::vector<uint32_t>> marks);
void AddCommLines(Frame& f, const Overlays& o);
// Clips a line to the timeline area; false when nothing of it is inside.
bool ClipToArea(const DrawList& list, double x0, double y0, double x1, double y1, Line* out);

}  // namespace parallax::render
