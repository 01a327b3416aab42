// `parallax compare A B [--by auto|iteration|phase|call|rank] [--format text|csv|json] [--no-pop]
// [--cfg C ... [--window W] [--iteration K | --from T --to T] [--diff-image F] [--ratio-image F]]`:
// two runs of a program aligned by their structure or their MPI calls, each unit's time in both,
// the difference and the ratio ranked by impact, and the POP factors side by side; with cfgs,
// their windows on both runs over aligned time, A - B and A / B (docs/compare.md).

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "include/parallax/compare.h"
#include "include/parallax/output.h"

namespace parallax::cli {

namespace {

struct CompareArgs {
  std::string a, b, by = "auto", format = "text";
  bool no_pop = false;
  std::vector<std::string> cfgs;
  std::string window, diff_image, ratio_image;
  uint64_t iteration = 0;
  RangeArgs range;
  uint32_t width = 1000;
  bool force = false;
};

// The difference windows of the cfgs, and their images when asked for; false after an error.
bool CompareWindows(const CompareArgs& args, const Trace& a, const Trace& b, std::vector<DifferenceWindow>& out) {
  DifferenceRequest req;
  req.window = args.window;
  if (args.iteration != 0) req.iteration = args.iteration;
  if (!ApplyRange(args.range, a, args.a, &req.from, &req.to)) return false;
  for (const std::string& cfg : args.cfgs) {
    req.cfg_path = cfg;
    auto d = CompareWindow(a, b, req);
    if (!d.ok()) {
      std::fprintf(stderr, "%s\n", d.status().ToString().c_str());
      return false;
    }
    out.push_back(std::move(d.value()));
  }
  for (const auto& [path, op] : {std::pair{args.diff_image, "diff"}, std::pair{args.ratio_image, "ratio"}}) {
    if (path.empty()) continue;
    if (!args.force && std::filesystem::exists(path)) {
      std::fprintf(stderr, "error: %s exists (use --force to replace it)\n", path.c_str());
      return false;
    }
    DifferenceImageRequest ir;
    ir.op = op;
    ir.width = args.width;
    const std::string ext = std::filesystem::path(path).extension().string();
    ir.format = ext == ".svg" ? "svg" : ext == ".json" ? "json" : "png";
    auto image = RenderDifference(a, out.front(), ir);
    Status s = image.ok() ? WriteOutputFile(path, image.value().data, true) : image.status();
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return false;
    }
  }
  return true;
}

int Run(const CompareArgs& args) {
  if (args.cfgs.empty() && (!args.window.empty() || args.iteration != 0 || args.range.given() ||
                            !args.diff_image.empty() || !args.ratio_image.empty())) {
    std::fprintf(stderr,
                 "error: --window, --iteration, --from, --to and the images are about difference windows\n"
                 "hint: give the cfg whose window to compare with --cfg\n");
    return 1;
  }
  if (args.cfgs.size() > 1 && (!args.diff_image.empty() || !args.ratio_image.empty())) {
    std::fprintf(stderr, "error: an image draws one window: give one --cfg with --diff-image or --ratio-image\n");
    return 1;
  }
  if (args.format == "csv" && !args.cfgs.empty()) {
    std::fprintf(stderr, "error: csv has the rows only\nhint: use --format text or json with --cfg\n");
    return 1;
  }
  CompareOptions options;
  options.by = *ParseCompareBy(args.by);
  options.pop = !args.no_pop;
  auto a = LoadTraceOrReport(args.a);
  if (!a) return 1;
  auto b = LoadTraceOrReport(args.b);
  if (!b) return 1;
  auto r = CompareRuns(*a, *b, options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
    return 1;
  }
  std::vector<DifferenceWindow> windows;
  if (!args.cfgs.empty() && !CompareWindows(args, *a, *b, windows)) return 1;
  std::string out = args.format == "json"  ? FormatCompareJson(r.value(), windows)
                    : args.format == "csv" ? FormatCompareCsv(r.value())
                                           : FormatCompareText(r.value());
  if (args.format == "text")
    for (const DifferenceWindow& d : windows) out += "\n" + FormatDifferenceText(d);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddCompareCommand(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "compare", "two runs aligned by iteration, phase, MPI call or rank: where B differs from A, ranked by impact");
  sub->add_option("a", args->a, "the first run's trace (A)")->required();
  sub->add_option("b", args->b, "the second run's trace (B)")->required();
  sub->add_option("--by", args->by,
                  "iteration, phase, call or rank; default: by iteration when both runs have the same loop, "
                  "else by call")
      ->check(CLI::IsMember({"auto", "iteration", "phase", "call", "rank"}));
  sub->add_option("--format", args->format, "text, csv or json")->check(CLI::IsMember({"text", "csv", "json"}));
  sub->add_flag("--no-pop", args->no_pop, "leave out the POP factors (they replay both runs)");
  sub->add_option("--cfg", args->cfgs,
                  "a cfg whose window is evaluated on both runs over aligned time: A - B and A / B per object, "
                  "and its histograms cell by cell (repeatable)");
  sub->add_option("--window", args->window, "the cfg's window to compare (default: its last)");
  sub->add_option("--iteration", args->iteration, "compare iteration K of both runs (1-based)")
      ->check(CLI::PositiveNumber);
  AddRangeOptions(sub, &args->range);
  sub->add_option("--diff-image", args->diff_image, "write the window's A - B as a timeline (.png, .svg or .json)");
  sub->add_option("--ratio-image", args->ratio_image, "write the window's A / B as a timeline");
  sub->add_option("--width", args->width, "image width in pixels")->default_val(1000);
  sub->add_flag("--force", args->force, "replace existing image files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
