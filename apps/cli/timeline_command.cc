// `parallax timeline TRACE (--cfg W.cfg [--window NAME] | --thread-function F [--param V...])
//  -o out.png|out.svg|out.json [--width --height --from --to --objects --draw-mode
//  --object-draw-mode --color-mode --min --max --fit --flags/--no-flags --comms/--no-comms
//  --background --force]`: timeline images. With several windows and no --window, one image
//  per window: out.png becomes out_<window>.png.

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "apps/cli/commands.h"
#include "include/parallax/views.h"
#include "apps/cli/range_options.h"
#include "apps/cli/progress.h"
#include "include/parallax/output.h"
#include "include/parallax/render.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct TimelineArgs {
  std::string trace;
  std::string output;
  bool force = false;
  bool flags = false, no_flags = false, comms = false, no_comms = false;
  bool no_labels = false, no_axis = false, no_legend = false, no_title = false;
  TimelineRequest req;
  std::string view;  // a standard view instead of --cfg
  RangeArgs range;
};

std::string FormatOf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".svg") return "svg";
  if (ext == ".json") return "json";
  return "png";
}

// out.png + "MPI call" -> out_MPI_call.png
std::string PerWindowPath(const std::string& output, const std::string& window) {
  std::filesystem::path p(output);
  std::string name;
  for (char c : window) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return (p.parent_path() / (p.stem().string() + "_" + name + p.extension().string())).string();
}

bool WriteFile(const std::string& path, const std::string& data) {
  Status s = WriteOutputFile(path, data, true);
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return s.ok();
}

void FinishRequest(TimelineArgs& a) {
  TimelineRequest& r = a.req;
  r.format = FormatOf(a.output);
  if (a.flags) r.flags = true;
  if (a.no_flags) r.flags = false;
  if (a.comms) r.comms = true;
  if (a.no_comms) r.comms = false;
  r.labels = !a.no_labels;
  r.axis = !a.no_axis;
  r.legend = !a.no_legend;
  r.title = !a.no_title;
}

int Run(TimelineArgs& a, const Distribution* dist) {
  FinishRequest(a);
  if (!a.view.empty()) {
    auto text = ViewCfg(a.view);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n", text.status().ToString().c_str());
      return 1;
    }
    a.req.cfg_text = std::move(text.value());
  }
  auto trace = LoadTraceOrReport(a.trace, false, dist != nullptr ? dist->threads : 0, dist);
  if (!AllOk(dist, trace && ApplyRange(a.range, *trace, a.trace, &a.req.from, &a.req.to))) return 1;
  a.req.distribution = dist;
  auto images = RenderTimeline(*trace, a.req);
  const bool quiet = dist != nullptr && dist->rank != 0;  // rank 0 writes the images
  if (!images.ok()) {
    if (quiet) std::fprintf(stderr, "[rank %u] ", dist->rank);
    std::fprintf(stderr, "%s\n", images.status().ToString().c_str());
    return 1;
  }
  if (quiet) return 0;
  std::vector<std::string> paths;
  for (const auto& img : images.value())
    paths.push_back(images->size() == 1 ? a.output : PerWindowPath(a.output, img.window));
  for (const auto& p : paths) {
    if (!a.force && std::filesystem::exists(p)) {
      std::fprintf(stderr, "error: %s exists (use --force to replace it)\n", p.c_str());
      return 1;
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!WriteFile(paths[i], images.value()[i].data)) return 1;
    std::printf("%s: %s\n", paths[i].c_str(), images.value()[i].window.c_str());
  }
  return 0;
}

void AddDisplayOptions(CLI::App* sub, const std::shared_ptr<TimelineArgs>& args) {
  TimelineRequest& r = args->req;
  sub->add_option("--width", r.width, "image width in pixels")->default_val(1000);
  sub->add_option("--height", r.height, "image height in pixels (default: from the rows)");
  AddRangeOptions(sub, &args->range);
  sub->add_option("--objects", r.objects, "1-based objects of the window level, e.g. 1-4,7");
  sub->add_option(
      "--draw-mode", r.draw_mode,
      "time draw mode: last, maximum, minimum-not-zero, random, random-not-zero, average, "
      "average-not-zero, mode, abs-maximum, abs-minimum");
  sub->add_option("--object-draw-mode", r.object_draw_mode,
                  "draw mode for objects sharing a pixel row");
  sub->add_option("--color-mode", r.color_mode,
                  "code, gradient, null-gradient, alt-gradient, line, fused, punctual");
  sub->add_option_function<double>(
      "--min", [args](double v) { args->req.min_y = v; }, "semantic minimum");
  sub->add_option_function<double>(
      "--max", [args](double v) { args->req.max_y = v; }, "semantic maximum");
  sub->add_flag("--fit", r.fit_scale, "fit the semantic scale to the values drawn");
  sub->add_option("--pixel-size", r.pixel_size, "column width: 1, 2, 4 or 8 pixels");
  sub->add_option("--background", r.background, "black (default), white or #rrggbb");
  sub->add_option("--palette", r.palette,
                  "paraver (Paraver's colours with the .pcf's) or colorblind (told apart with any colour vision: "
                  "Okabe-Ito codes, a viridis gradient); default: the cfg's '# parallax: palette' line, else paraver")
      ->check(CLI::IsMember({"paraver", "colorblind"}));
  sub->add_flag("--pcf-gradient", r.pcf_gradient,
                "gradient through the .pcf GRADIENT_COLOR colours");
  sub->add_flag("--flags", args->flags, "draw event flags");
  sub->add_flag("--no-flags", args->no_flags, "no event flags");
  sub->add_flag("--comms", args->comms, "draw communication lines");
  sub->add_flag("--no-comms", args->no_comms, "no communication lines");
  sub->add_flag("--no-labels", args->no_labels, "no row labels");
  sub->add_flag("--no-axis", args->no_axis, "no time axis");
  sub->add_flag("--no-legend", args->no_legend, "no legend");
  sub->add_flag("--no-title", args->no_title, "no title");
}

}  // namespace

Command AddTimelineCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<TimelineArgs>();
  CLI::App* sub = app.add_subcommand("timeline", "Timeline image (PNG, SVG or JSON) of a window");
  sub->add_option("trace", args->trace, "trace file (.prv or .prv.gz)")->required();
  auto* cfg = sub->add_option("--cfg", args->req.cfg_path, "a Paraver .cfg (one image per window)");
  auto* view = sub->add_option("--view", args->view, "a standard view (parallax views), e.g. mpi-call")->excludes(cfg);
  sub->add_option("--window", args->req.window, "name of the window inside the cfg or view");
  auto* fn = sub->add_option("--thread-function", args->req.thread_function,
                             "a thread function, e.g. \"State As Is\" (the default)")
                 ->excludes(cfg)
                 ->excludes(view);
  sub->add_option("--param", args->req.parameters, "values of the function's first parameter")
      ->needs(fn);
  sub->add_option("-o,--output", args->output, "output file: .png, .svg or .json")->required();
  sub->add_flag("--force", args->force, "replace existing output files");
  AddDisplayOptions(sub, args);
  return {sub, [args, dist] { return Run(*args, dist); }};
}

}  // namespace parallax::cli
