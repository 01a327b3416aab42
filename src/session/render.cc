// parallax::RenderTimeline over TraceImpl: resolves the windows (a cfg or one thread function),
// merges the cfg's display settings with the request, and encodes the draw lists.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "include/parallax/render.h"
#include "src/filter/filter.h"
#include "src/render/encoders.h"
#include "src/render/timeline.h"
#include "src/semantic/info_type.h"
#include "src/session/distributed.h"
#include "src/session/guard.h"
#include "src/session/names.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

using render::ColorMode;

// The windows to draw: every window of a cfg that is open (or the named one), or one thread
// function window.
struct WindowSet {
  std::vector<semantic::WindowSpec> specs;
  std::vector<cfg::CfgWindow> info;  // empty for a thread-function window
  std::vector<size_t> draw;
  std::string palette;  // the cfg's ("# parallax: palette ..."), empty: none
};

Result<WindowSet> ResolveWindows(const session::TraceImpl& t, const TimelineRequest& req) {
  WindowSet set;
  if (req.cfg_path.empty() && req.cfg_text.empty()) {
    semantic::WindowSpec w;
    w.name = req.thread_function.empty() ? "State As Is" : req.thread_function;
    w.unit = t.header().unit;
    semantic::FunctionSpec f{w.name, {}};
    if (!req.parameters.empty()) f.params.push_back(req.parameters);
    if (t.functions().Find(f.name, semantic::Slot::kThread) == nullptr)
      return Status::Error(fmt::format("unknown thread function '{}'", f.name), {},
                           session::ThreadFunctionHint(t.functions(), f.name));
    w.functions[static_cast<size_t>(semantic::Slot::kThread)] = std::move(f);
    set.specs.push_back(std::move(w));
    set.draw.push_back(0);
    return set;
  }
  auto file = t.LoadRequestCfg(req.cfg_path, req.cfg_text);
  if (!file.ok()) return file.status();
  const std::string name = req.cfg_path.empty() ? "cfg" : req.cfg_path;
  set.specs = std::move(file->windows);
  set.info = std::move(file->window_info);
  set.palette = file->palette;
  for (size_t i = 0; i < set.specs.size(); ++i) {
    bool named = !req.window.empty() && set.specs[i].name == req.window;
    if (named || (req.window.empty() && set.info[i].display.open)) set.draw.push_back(i);
  }
  if (!req.window.empty() && set.draw.empty())
    return Status::Error(fmt::format("no window named '{}' in the cfg", req.window),
                         Location{name, 0, 0}, session::WindowNamesHint(set.specs, req.window));
  if (set.draw.empty() && !set.specs.empty()) set.draw.push_back(set.specs.size() - 1);
  if (set.draw.empty()) return Status::Error("the cfg defines no window", Location{name, 0, 0});
  return set;
}

// "1-4,7" → {0, 1, 2, 3, 6}, for a level of `count` objects.
Result<std::vector<uint32_t>> ParseObjects(const std::string& text, uint32_t count,
                                           model::Level level) {
  std::vector<uint32_t> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = std::min(text.find(',', pos), text.size());
    std::string_view part(text.data() + pos, comma - pos);
    uint32_t a = 0, b = 0;
    size_t dash = part.find('-');
    const char* a_end = part.data() + std::min(dash, part.size());
    auto ra = std::from_chars(part.data(), a_end, a);
    b = a;
    bool ok = ra.ec == std::errc() && ra.ptr == a_end && a > 0;
    if (ok && dash != std::string_view::npos) {
      auto rb = std::from_chars(part.data() + dash + 1, part.data() + part.size(), b);
      ok = rb.ec == std::errc() && rb.ptr == part.data() + part.size() && b >= a;
    }
    if (!ok)
      return Status::Error(fmt::format("bad object list '{}' at '{}'", text, part), {},
                           "write 1-based objects: 1-4,7");
    if (b > count)
      return Status::Error(
          fmt::format("object list '{}': object {} does not exist, the window's level {} has {} "
                      "objects",
                      text, b, model::LevelName(level), count),
          {}, fmt::format("write objects between 1 and {}", count));
    for (uint64_t o = a; o <= b; ++o) out.push_back(static_cast<uint32_t>(o - 1));
    pos = comma + 1;
  }
  return out;
}

Result<model::Rgb> ParseColor(const std::string& text) {
  if (text.empty() || text == "black") return model::Rgb{0, 0, 0};
  if (text == "white") return model::Rgb{255, 255, 255};
  unsigned v = 0;
  if (text.size() == 7 && text[0] == '#' &&
      std::from_chars(text.data() + 1, text.data() + 7, v, 16).ec == std::errc())
    return model::Rgb{static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 8),
                      static_cast<uint8_t>(v)};
  return Status::Error(fmt::format("bad colour '{}'", text), {}, "use black, white or #rrggbb");
}

Result<ColorMode> ParseColorMode(const std::string& text) {
  if (auto mode = render::ParseColorModeName(text)) return *mode;
  return Status::Error(fmt::format("unknown colour mode '{}'", text), {},
                       "use code, gradient, null-gradient, alt-gradient, line, fused or punctual");
}

Status ApplyDrawModes(const TimelineRequest& req, render::TimelineOptions& o) {
  for (auto [name, mode] : {std::pair{&req.draw_mode, &o.time_mode},
                            std::pair{&req.object_draw_mode, &o.object_mode}}) {
    if (name->empty()) continue;
    auto m = render::ParseDrawMode(*name);
    if (!m)
      return Status::Error(fmt::format("unknown draw mode '{}'", *name), {},
                           "use last, maximum, minimum-not-zero, random, random-not-zero, average, "
                           "average-not-zero, mode, abs-maximum or abs-minimum");
    *mode = *m;
  }
  return Status::Ok();
}

// White-background images (for papers) draw text and axes in black.
Status ApplyColors(const session::TraceImpl& t, const TimelineRequest& req,
                   render::TimelineOptions& o) {
  auto bg = ParseColor(req.background);
  if (!bg.ok()) return bg.status();
  o.prefs.background = bg.value();
  if (req.zero_as_background) o.prefs.color_zero = bg.value();
  if (render::Luminance(bg.value()) > 128) {
    o.prefs.foreground = {0, 0, 0};
    o.prefs.logical_comm = {200, 150, 0};
    o.prefs.flag = {0, 160, 0};
  }
  if (req.pcf_gradient && t.pcf() != nullptr)
    for (const auto& c : t.pcf()->gradient_color) o.prefs.gradient_stops.push_back(c.rgb);
  if (req.palette != "" && req.palette != "paraver" && req.palette != "colorblind")
    return Status::Error(fmt::format("unknown palette '{}'", req.palette), {}, "palettes: paraver, colorblind");
  if (!req.color_mode.empty()) {
    auto m = ParseColorMode(req.color_mode);
    if (!m.ok()) return m.status();
    o.color = m.value();
  }
  return ApplyDrawModes(req, o);
}

Result<render::TimelineOptions> Options(const session::TraceImpl& t, const TimelineRequest& req,
                                        const WindowSet& set, size_t index) {
  render::TimelineOptions o;
  if (!set.info.empty()) {
    o = render::OptionsFromCfg(set.info[index].display);
  } else {
    o.fit_scale = true;  // a new window fits its scale, as Paraver's do
  }
  if (Status s = ApplyColors(t, req, o); !s.ok()) return s;
  model::Level level = set.specs[index].level;
  auto objects = ParseObjects(req.objects, semantic::ObjectCount(t.header(), level), level);
  if (!objects.ok()) return objects.status();
  o.objects = std::move(objects.value());
  for (const RowSummary& summary : req.summaries) {
    auto members = ParseObjects(summary.objects, semantic::ObjectCount(t.header(), level), level);
    if (!members.ok()) return members.status();
    if (members->empty()) return Status::Error("a summary row has no object", {}, "write its objects: 5-8");
    o.summaries.push_back({std::move(members.value()), summary.label});
  }
  o.width = req.width;
  o.height = req.height;
  o.from = req.from;
  o.to = req.to;
  if (req.min_y || req.max_y) o.fit_scale = false;
  o.min_y = req.min_y.value_or(o.min_y);
  o.max_y = req.max_y.value_or(o.max_y);
  o.fit_scale = o.fit_scale || req.fit_scale;
  o.flags = req.flags.value_or(o.flags);
  o.comms = req.comms.value_or(o.comms);
  o.max_comm_lines = req.max_comm_lines;
  if (req.pixel_size != 0) o.pixel_size = req.pixel_size;
  if (req.highlight_min || req.highlight_max) {
    render::Highlight h;
    h.low = req.highlight_min.value_or(h.low);
    h.high = req.highlight_max.value_or(h.high);
    o.highlight = h;
  }
  o.labels = req.labels;
  o.axis = req.axis;
  o.legend = req.legend;
  if (req.title) o.title = set.specs[index].name;
  return o;
}

render::TimelineContext Context(const session::TraceImpl& t, const WindowSet& set, size_t index) {
  render::TimelineContext ctx;
  ctx.header = &t.header();
  ctx.store = &t.store();
  ctx.state_blocks = &t.state_blocks();
  ctx.pcf = t.pcf();
  ctx.row = t.row();
  semantic::ValueLabels labels = semantic::WindowValueLabels(set.specs, index, t.pcf(), &t.functions());
  ctx.info = labels.info;
  ctx.label_types = std::move(labels.event_types);
  ctx.unit = set.specs[index].unit;
  return ctx;
}

}  // namespace

std::vector<model::Rgb> session::TraceImpl::Palette(model::Rgb background) const {
  constexpr size_t kKept = 4;  // backgrounds come from requests: keep memory bounded
  {
    std::lock_guard<std::mutex> lock(palettes_mutex_);
    for (const auto& [bg, palette] : palettes_)
      if (bg == background) return palette;
  }
  std::vector<model::Rgb> palette = render::TracePalette(background, pcf());
  std::lock_guard<std::mutex> lock(palettes_mutex_);
  if (palettes_.size() < kKept) palettes_.emplace_back(background, palette);
  return palette;
}

namespace {

Result<std::string> Encode(const render::DrawList& list, const std::string& format) {
  if (format == "svg") return render::EncodeSvg(list);
  if (format == "json") return render::EncodeJson(list);
  return render::EncodePng(list);
}

}  // namespace

// `share`: this process' part of a distributed run (req.distribution), or null.
static Result<std::vector<TimelineImage>> RenderTimelineUnguarded(const Trace& trace,
                                                                  const TimelineRequest& req,
                                                                  const base::WorkShare* share) {
  const auto& t = dynamic_cast<const session::TraceImpl&>(trace);
  if (req.format != "png" && req.format != "svg" && req.format != "json")
    return Status::Error(fmt::format("unknown image format '{}'", req.format), {},
                         "use png, svg or json");
  auto set = ResolveWindows(t, req);
  if (!set.ok()) return set.status();
  const base::Deadline deadline(req.time_limit);
  const base::RequestMemory memory(req.memory_limit);
  semantic::TraceView view = t.View();
  view.deadline = &deadline;
  view.memory = &memory;
  std::vector<TimelineImage> images;
  for (size_t index : set->draw) {
    auto options = Options(t, req, set.value(), index);
    if (!options.ok()) return options.status();
    options->share = share;
    if (share != nullptr) options->threads = req.distribution->threads;
    auto window = semantic::WindowEvaluator::Create(view, set->specs, index);
    if (!window.ok()) return window.status();
    render::TimelineContext ctx = Context(t, set.value(), index);
    ctx.memory = &memory;
    // The palette: the request's, else the cfg's, else Paraver's (with the .pcf's colours).
    const std::string& choice = req.palette.empty() ? set->palette : req.palette;
    const bool colourblind = choice == "colorblind";
    if (colourblind) {
      const std::vector<model::Rgb> stops = render::ColourBlindGradient();
      options->prefs.gradient_begin = stops.front();
      options->prefs.gradient_end = stops.back();
      options->prefs.gradient_stops = stops;
    }
    const std::vector<model::Rgb> palette = colourblind ? render::ColourBlindPalette(options.value().prefs.background)
                                                        : t.Palette(options.value().prefs.background);
    ctx.palette = &palette;
    auto list = render::RenderWindow(*window.value(), ctx, options.value());
    if (!list.ok()) return list.status();
    if (share != nullptr && share->index != 0) {  // process 0 draws and encodes
      images.push_back(TimelineImage{set->specs[index].name, req.format, {}, {}});
      continue;
    }
    // The drawing (its lines are charged as they are added) and the pixels it is encoded from.
    const render::DrawList& l = list.value();
    memory.Charge(uint64_t(std::max(l.width, 0)) * uint64_t(std::max(l.height, 0)) * 4 +
                  l.rects.size() * sizeof(render::Rect) + l.texts.size() * sizeof(render::Text));
    auto bytes = Encode(list.value(), req.format);
    if (!bytes.ok()) return bytes.status();
    images.push_back(TimelineImage{set->specs[index].name, req.format, std::move(bytes.value()),
                                   render::EncodeLayoutJson(list.value())});
  }
  return images;
}

Result<std::vector<TimelineImage>> RenderTimeline(const Trace& trace, const TimelineRequest& req) {
  if (req.distribution == nullptr)
    return session::GuardedOn(trace, session::PathOf(trace),
                            [&] { return RenderTimelineUnguarded(trace, req, nullptr); });
  // Every window's rows are dealt out; the call ends once, after the last window (with the
  // failure mark when this process failed).
  session::DistributedCall call(*req.distribution);
  base::WorkShare share{call.rank(), call.ranks(),
                        [&call](const std::string& mine) { return call.Share(mine); }, {}};
  auto images = session::GuardedOn(trace, session::PathOf(trace),
                                 [&] { return RenderTimelineUnguarded(trace, req, &share); });
  call.Finish(!images.ok());
  return images;
}

}  // namespace parallax
