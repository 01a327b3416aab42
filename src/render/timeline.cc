#include "src/render/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "src/render/frame.h"

namespace parallax::render {

namespace {

constexpr int32_t kMargin = 6;
constexpr int32_t kTitleHeight = 16;
constexpr int32_t kAxisHeight = 24;

// The objects asked for (else the window's selection), then the summaries' objects missing
// from them.
std::vector<uint32_t> SelectObjects(const semantic::WindowEvaluator& w, const TimelineOptions& o) {
  std::vector<uint32_t> out;
  if (!o.objects.empty()) {
    for (uint32_t obj : o.objects)
      if (obj < w.rows()) out.push_back(obj);
  } else {
    const auto& sel = w.spec().selected[static_cast<size_t>(w.level())];
    for (uint32_t i = 0; i < w.rows(); ++i)
      if (sel.empty() || (i < sel.size() && sel[i])) out.push_back(i);
  }
  if (o.summaries.empty()) return out;
  std::vector<bool> in(w.rows(), false);  // a look-up per object, not a search of `out`
  for (uint32_t obj : out) in[obj] = true;
  for (const auto& s : o.summaries)
    for (uint32_t obj : s.objects)
      if (obj < w.rows() && !in[obj]) {
        in[obj] = true;
        out.push_back(obj);
      }
  return out;
}

// The rows in order: an object each, but a summary's objects together, where the first of them
// is met.
void PlanSummaries(Frame& f) {
  const auto& summaries = f.options->summaries;
  // Per window-level object, the first summary holding it (an object belongs to one at most).
  uint32_t rows = 0;
  for (uint32_t obj : f.objects) rows = std::max(rows, obj + 1);
  std::vector<int32_t> summary_of_object(rows, -1);
  for (size_t s = summaries.size(); s-- > 0;)
    for (uint32_t obj : summaries[s].objects)
      if (obj < rows) summary_of_object[obj] = static_cast<int32_t>(s);
  std::vector<int32_t> planned_at(summaries.size(), -1);
  for (size_t k = 0; k < f.objects.size(); ++k) {
    const int32_t s = summary_of_object[f.objects[k]];
    if (s >= 0 && planned_at[static_cast<size_t>(s)] >= 0) {
      f.planned[static_cast<size_t>(planned_at[static_cast<size_t>(s)])].members.push_back(static_cast<uint32_t>(k));
      continue;
    }
    if (s >= 0) planned_at[static_cast<size_t>(s)] = static_cast<int32_t>(f.planned.size());
    f.planned.push_back(PlannedRow{{static_cast<uint32_t>(k)}, s});
  }
}

// Semantic scale (§3): fixed, or fitted to the values of every row drawn.
void PlanScale(Frame& f) {
  const TimelineOptions& o = *f.options;
  f.scheme.prefs = o.prefs;
  f.scheme.palette =
      f.ctx->palette ? *f.ctx->palette : TracePalette(o.prefs.background, f.ctx->pcf);
  f.scheme.gradient = o.gradient;
  f.scheme.min_y = o.min_y;
  f.scheme.max_y = o.max_y;
  bool exist_zero = false;
  if (o.fit_scale) {
    double largest = 0, smallest = 0;
    bool any = false;
    for (const FoldedRow& r : f.folded) {
      largest = std::max(largest, r.largest);
      exist_zero = exist_zero || r.exist_zero;
      if (r.any_non_zero && (!any || r.smallest_non_zero < smallest))
        smallest = r.smallest_non_zero;
      any = any || r.any_non_zero;
    }
    f.scheme.max_y = std::max(0.0, largest);
    f.scheme.min_y = any ? smallest : 0;
  } else {
    for (const FoldedRow& r : f.folded) exist_zero = exist_zero || r.exist_zero;
  }
  f.lower_y = o.min_at_zero && exist_zero && f.scheme.min_y > 0 ? 0 : f.scheme.min_y;
}

// Spreads the rows over the area height; rows on the same pixel row form one group (§1).
void PlanRows(Frame& f) {
  const DrawList& l = f.list;
  const auto n = static_cast<double>(f.planned.size());
  const double row_h = l.area_h / n;
  const auto gap = static_cast<int32_t>(row_h >= 4 ? std::floor(row_h / 4) : 0);
  for (size_t k = 0; k < f.planned.size(); ++k) {
    const PlannedRow& p = f.planned[k];
    auto y = static_cast<int32_t>(l.area_y + std::floor(static_cast<double>(k) * row_h));
    if (!f.groups.empty() && f.groups.back().y == y) {
      RowGroup& g = f.groups.back();
      g.members.insert(g.members.end(), p.members.begin(), p.members.end());
      g.summary = -1;  // rows sharing a pixel row: the object draw mode
      continue;
    }
    auto next = static_cast<int32_t>(l.area_y + std::floor(static_cast<double>(k + 1) * row_h));
    f.groups.push_back(RowGroup{p.members, y, std::max(1, next - y - gap), p.summary});
  }
  for (const RowGroup& g : f.groups) {
    RowBox box{f.labels[g.members[0]], g.y, g.h, f.objects[g.members[0]]};
    if (g.summary >= 0) {
      const std::string& label = f.options->summaries[static_cast<size_t>(g.summary)].label;
      if (!label.empty()) box.label = label;
      box.summarised = static_cast<uint32_t>(g.members.size());
    }
    f.list.rows.push_back(std::move(box));
  }
}

Rgb ColorOf(const Frame& f, double v) {
  if (std::isnan(v)) return f.scheme.prefs.background;  // kNoValue (highlight)
  switch (f.options->color) {
    case ColorMode::kGradient:
      return GradientColor(f.scheme, v, false);
    case ColorMode::kNullGradient:
      return GradientColor(f.scheme, v, true);
    case ColorMode::kAlternativeGradient:
      return AlternativeGradientColor(f.scheme, v);
    default:
      return CodeColor(f.scheme, v);
  }
}

// The value of a group at column j: of its objects, by the object draw mode; of a summary row,
// the most frequent (code colours: the dominant state) or the mean (gradients, lines).
double GroupValue(const Frame& f, const RowGroup& g, uint32_t j, std::vector<double>& buf) {
  if (g.members.size() == 1) return f.folded[g.members[0]].values[j];
  buf.clear();
  for (uint32_t m : g.members) {
    double v = f.folded[m].values[j];
    if (!std::isnan(v)) buf.push_back(v);  // kNoValue takes no part (highlight)
  }
  DrawMode mode = f.options->object_mode;
  if (g.summary >= 0) mode = f.options->color == ColorMode::kCode ? DrawMode::kMode : DrawMode::kAverage;
  return buf.empty() ? kNoValue : Reduce(mode, buf, PixelRandom(g.y, j));
}

// Colour bands: one rectangle per run of columns of the same colour.
void AddBands(Frame& f) {
  std::vector<double> buf;
  const int32_t ps = static_cast<int32_t>(f.columns.pixel_size);
  for (const RowGroup& g : f.groups) {
    Rect run{0, g.y, 0, g.h, {}};
    for (uint32_t j = 0; j < f.columns.count(); ++j) {
      Rgb c = ColorOf(f, GroupValue(f, g, j, buf));
      int32_t x = f.list.area_x + static_cast<int32_t>(j) * ps;
      if (run.w > 0 && c == run.color && run.x + run.w == x) {
        run.w += ps;
        continue;
      }
      if (run.w > 0) f.list.rects.push_back(run);
      run = Rect{x, g.y, ps, g.h, c};
    }
    if (run.w > 0) f.list.rects.push_back(run);
  }
}

// Height of a value in a band of height h, bottom = 0 (function line, §4.5).
int32_t LineOffset(const Frame& f, double v, int32_t h) {
  double lo = f.lower_y, hi = f.scheme.max_y;
  v = std::clamp(v, lo, hi);
  double n = hi > lo ? ApplyGradientFn(f.scheme.gradient, (v - lo) / (hi - lo)) : 0;
  return static_cast<int32_t>(std::lround(n * (h - 1)));
}

void AddLine(Frame& f, int32_t top, int32_t h, const std::vector<double>& values, Rgb color) {
  const int32_t ps = static_cast<int32_t>(f.columns.pixel_size);
  int32_t prev = -1;
  for (uint32_t j = 0; j < values.size(); ++j) {
    if (std::isnan(values[j])) {  // kNoValue (highlight): a gap in the line
      prev = -1;
      continue;
    }
    int32_t x = f.list.area_x + static_cast<int32_t>(j) * ps;
    int32_t y = top + h - 1 - LineOffset(f, values[j], h);
    if (prev >= 0 && prev != y) f.list.lines.push_back(Line{x, prev, x, y, color});
    f.list.lines.push_back(Line{x, y, x + ps - 1, y, color});
    prev = y;
  }
}

void AddFunctionLines(Frame& f) {
  std::vector<double> buf, values;
  for (const RowGroup& g : f.groups) {
    values.clear();
    for (uint32_t j = 0; j < f.columns.count(); ++j) values.push_back(GroupValue(f, g, j, buf));
    AddLine(f, g.y, g.h, values, f.scheme.prefs.foreground);
  }
}

// Fused lines: every object in one common area, object k in code colour k + 1.
void AddFusedLines(Frame& f) {
  for (size_t k = 0; k < f.objects.size(); ++k) {
    Rgb c = f.scheme.palette[(k + 1) % f.scheme.palette.size()];
    AddLine(f, f.list.area_y, f.list.area_h, f.folded[k].values, c);
  }
}

// Punctual: a dot at the value height of every column where an interval starts.
void AddPunctual(Frame& f) {
  const int32_t ps = static_cast<int32_t>(f.columns.pixel_size);
  for (const RowGroup& g : f.groups) {
    const FoldedRow& r = f.folded[g.members[0]];
    for (uint32_t j = 0; j < f.columns.count(); ++j) {
      if (!r.has_start[j]) continue;
      int32_t y = g.y + g.h - 1 - LineOffset(f, r.start_values[j], g.h);
      f.list.rects.push_back(Rect{f.list.area_x + static_cast<int32_t>(j) * ps, y - 1,
                                  std::max(ps, 2), 2, f.scheme.prefs.punctual});
    }
  }
}

void Draw(Frame& f) {
  switch (f.options->color) {
    case ColorMode::kFunctionLine:
      AddFunctionLines(f);
      break;
    case ColorMode::kFusedLines:
      AddFusedLines(f);
      break;
    case ColorMode::kPunctual:
      AddPunctual(f);
      break;
    default:
      AddBands(f);
  }
  if (f.window != nullptr && (f.options->flags || f.options->comms)) {
    Overlays o = f.overlays ? std::move(*f.overlays) : ComputeOverlays(f, nullptr);
    if (f.options->flags) AddFlags(f, std::move(o.marks));
    if (f.options->comms) AddCommLines(f, o);
  }
  if (f.options->labels) AddRowLabels(f);
  if (f.options->axis) AddTimeAxis(f);
  if (!f.options->title.empty()) AddTitle(f);
  if (f.options->legend) AddLegend(f);
}

// Vertical layout: title, rows, axis, legend.
Status PlaceArea(Frame& f) {
  const TimelineOptions& o = *f.options;
  DrawList& l = f.list;
  l.area_y = kMargin + (o.title.empty() ? 0 : kTitleHeight);
  int32_t below = (o.axis ? kAxisHeight : kMargin) + (o.legend ? f.legend_h : 0);
  if (o.height == 0) {
    auto rows = static_cast<int32_t>(f.planned.size());
    l.area_h = std::clamp(rows * 16, 48, 800);
  } else {
    l.area_h = static_cast<int32_t>(o.height) - l.area_y - below;
  }
  if (l.area_h < 1)
    return Status::Error(fmt::format("image height {} leaves no room for the rows", o.height));
  l.height = l.area_y + l.area_h + below;
  return Status::Ok();
}

Status SizeError(const std::string& what) {
  return Status::Error(what, {},
                       fmt::format("ask for a smaller image: width and height up to {} pixels (a height of 0 "
                                   "fits the rows), width x height up to {} pixels, columns of 1 to {} pixels",
                                   kMaxImageSide, kMaxImagePixels, kMaxPixelSize));
}

// The sizes asked for, before anything is computed from them.
Status CheckSizes(const TimelineOptions& o) {
  if (o.width > kMaxImageSide)
    return SizeError(fmt::format("image width {} is beyond the maximum of {} pixels", o.width, kMaxImageSide));
  if (o.height > kMaxImageSide)
    return SizeError(fmt::format("image height {} is beyond the maximum of {} pixels", o.height, kMaxImageSide));
  if (o.pixel_size < 1 || o.pixel_size > kMaxPixelSize)
    return SizeError(fmt::format("column width (pixel size) {} is not between 1 and {} pixels", o.pixel_size,
                                 kMaxPixelSize));
  return Status::Ok();
}

}  // namespace

TimelineOptions OptionsFromCfg(const cfg::WindowDisplay& d) {
  TimelineOptions o;
  o.time_mode = d.draw_time;
  o.object_mode = d.draw_rows;
  o.color = d.color;
  o.gradient = static_cast<GradientFn>(d.gradient.value_or(cfg::GradientFunction::kLinear));
  o.min_y = d.minimum_y;
  o.max_y = d.maximum_y;
  o.fit_scale = d.compute_y_max.value_or(false);
  o.min_at_zero = d.scale_min_at_zero;
  o.flags = d.flags;
  o.comms = d.comm_lines;
  o.pixel_size = d.pixel_size == 0 ? 1 : d.pixel_size;
  return o;
}

namespace {

// The frame's layout across: labels, then the area its columns cover.
Status PlaceColumns(Frame& f, model::Time begin, model::Time end, model::Time trace_end) {
  const TimelineOptions& o = *f.options;
  if (Status s = CheckSizes(o); !s.ok()) return s;
  if (f.objects.empty()) return Status::Error("no object of the window is selected");
  if (end <= begin) return Status::Error(fmt::format("empty time range {} .. {}", begin, end));
  for (uint32_t obj : f.objects) f.labels.push_back(ObjectLabel(*f.ctx, f.level, obj));
  DrawList& l = f.list;
  l.background = o.prefs.background;
  l.width = static_cast<int32_t>(o.width);
  l.area_x = kMargin + (o.labels ? LabelAreaWidth(f) : 0);
  l.area_w = l.width - l.area_x - 2 * kMargin;
  if (l.area_w < 2)
    return Status::Error(fmt::format("image width {} leaves no room for the time axis", o.width));
  f.columns = MakeColumns(begin, end, trace_end, static_cast<uint32_t>(l.area_w), o.pixel_size);
  return Status::Ok();
}

// Everything after the fold: scale, legend, rows, and (unless this process only folds) the
// drawing.
Status PlanFolded(Frame& f) {
  DrawList& l = f.list;
  for (const FoldedRow& r : f.folded) l.any_non_zero = l.any_non_zero || r.any_non_zero;
  PlanScale(f);
  if (f.options->legend) PlanLegend(f);
  PlanSummaries(f);
  if (Status s = PlaceArea(f); !s.ok()) return s;
  if (const uint64_t pixels = uint64_t(l.width) * uint64_t(l.height); pixels > kMaxImagePixels)
    return SizeError(fmt::format("an image of {} x {} pixels is beyond the maximum of {} pixels", l.width, l.height,
                                 kMaxImagePixels));
  PlanRows(f);
  return Status::Ok();
}

}  // namespace

Result<DrawList> RenderWindow(const semantic::WindowEvaluator& window, const TimelineContext& ctx,
                              const TimelineOptions& o) {
  Frame f;
  f.window = &window;
  f.ctx = &ctx;
  f.options = &o;
  f.level = window.level();
  f.unit = window.spec().unit;
  f.objects = SelectObjects(window, o);
  if (Status s = PlaceColumns(f, o.from.value_or(window.begin_time()), o.to.value_or(window.end_time()),
                              window.trace_end());
      !s.ok())
    return s;
  FoldOptions fo{o.time_mode, o.color == ColorMode::kPunctual, o.threads, ctx.store, ctx.state_blocks,
                 o.highlight};
  if (o.share != nullptr) {
    auto folded = FoldRowsShared(window, f.objects, f.columns, fo, *o.share);
    if (!folded.ok()) return folded.status();
    f.folded = std::move(folded.value());
  } else {
    f.folded = FoldRows(window, f.objects, f.columns, fo);
  }
  if (Status s = PlanFolded(f); !s.ok()) return s;
  if (o.share != nullptr) {
    // Every process has every folded row, so all plan the same rows: each then finds the flags
    // and lines of its share of the threads and communications, and process 0 draws them all.
    if (o.flags || o.comms) {
      auto overlays = ShareOverlays(f, *o.share);
      if (!overlays.ok()) return overlays.status();
      f.overlays = std::move(overlays.value());
    }
    if (o.share->index != 0) return DrawList{};  // process 0 draws
  }
  Draw(f);
  return std::move(f.list);
}

Result<DrawList> RenderRows(const RowsToDraw& rows, const TimelineContext& ctx, const TimelineOptions& o) {
  Frame f;
  f.ctx = &ctx;
  f.options = &o;
  f.level = rows.level;
  f.unit = rows.unit;
  f.objects = rows.objects;
  if (rows.rows.size() != rows.objects.size())
    return Status::Error(fmt::format("{} rows for {} objects", rows.rows.size(), rows.objects.size()));
  if (Status s = PlaceColumns(f, rows.begin, rows.end, rows.trace_end); !s.ok()) return s;
  FoldOptions fo{o.time_mode, o.color == ColorMode::kPunctual, 1, nullptr, nullptr, o.highlight};
  for (size_t i = 0; i < rows.rows.size(); ++i)
    f.folded.push_back(FoldRow(*rows.rows[i], f.columns, fo, rows.objects[i], rows.trace_end));
  if (Status s = PlanFolded(f); !s.ok()) return s;
  Draw(f);
  return std::move(f.list);
}

}  // namespace parallax::render
