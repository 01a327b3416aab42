#pragma once
// The draw list: what a timeline image contains, in image pixel coordinates, independent of the
// output format. The PNG, SVG and JSON encoders are thin loops over it (style.md, Tracy).

#include <cstdint>
#include <string>
#include <vector>

#include "src/model/pcf_catalog.h"

namespace parallax::render {

using model::Rgb;

// A filled rectangle [x, x + w) × [y, y + h).
struct Rect {
  int32_t x = 0, y = 0, w = 0, h = 0;
  Rgb color;
};

// A one-pixel line between two pixel centres, both ends included.
struct Line {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  Rgb color;
};

enum class Anchor : uint8_t { kLeft, kCenter, kRight };

// A line of text whose top edge is at y (glyphs are kGlyphHeight pixels tall in the PNG).
struct Text {
  int32_t x = 0, y = 0;
  std::string text;
  Rgb color;
  Anchor anchor = Anchor::kLeft;
};

// One object row of the timeline: where it is drawn and what it is called.
struct RowBox {
  std::string label;
  int32_t y = 0;        // band top
  int32_t h = 0;        // band height
  uint32_t object = 0;  // 0-based window-level object of the row (the first, when several share it)
  uint32_t summarised = 0;  // a summary row: how many objects it summarises; else 0
};

struct DrawList {
  int32_t width = 0;
  int32_t height = 0;
  Rgb background;
  // The timeline area (bands, flags and lines are clipped to it).
  int32_t area_x = 0, area_y = 0, area_w = 0, area_h = 0;
  std::vector<RowBox> rows;
  // Some value in the time range is not 0 (a window of zeros only draws its "0" colour: the UI
  // says why).
  bool any_non_zero = false;
  uint64_t lines_hidden = 0;  // communication lines left out: too many to read (max_comm_lines)
  std::vector<Rect> rects;  // in drawing order
  std::vector<Line> lines;  // drawn after the rects
  std::vector<Text> texts;  // drawn last
};

}  // namespace parallax::render
