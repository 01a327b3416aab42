// Frame benchmark: every timeline window of every cfg under a folder, drawn over the whole range
// of every trace under another folder (what the browser UI asks for when a cfg is opened), and
// the process CPU time of each frame (all threads: fold, draw list, encoding). Prints the
// slowest frames, then a count of frames over the limit. Windows that do not apply to a trace
// (missing resources, unsupported functions) are counted and skipped.
//
//   parallax-frame-bench [--cfgs DIR] [--traces DIR] [--width PX] [--format json|png]
//                        [--top N] [--limit MS] [--repeat N]
//
// --repeat N draws each frame N times and also prints the fastest of the draws after the first:
// what a viewer pays again for the same view (a viewer keeps the trace open, with what its
// first frames built, such as the state summaries of store/state_blocks.h).
//
// Defaults: tests/data/cfg, tests/data (the oracles folder is left out), 2000 px, json (the
// draw list the server sends), top 20, limit 200 ms. Exit status 0 even over the limit: this
// prints numbers, it does not judge a loaded machine.

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "include/parallax/cfg.h"
#include "include/parallax/render.h"
#include "include/parallax/trace.h"

namespace {

namespace fs = std::filesystem;
using namespace parallax;

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

bool IsTrace(const fs::path& p) {
  std::string n = p.filename().string();
  auto ends = [&](const std::string& s) {
    return n.size() >= s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".prv") || ends(".prv.gz");
}

std::vector<fs::path> Collect(const fs::path& dir, bool traces) {
  std::vector<fs::path> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    if (traces && it->is_directory() && it->path().filename() == "oracles") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    if (traces ? IsTrace(it->path()) : it->path().extension() == ".cfg")
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Frame {
  double cpu_ms = 0, wall_ms = 0;
  std::string trace, cfg, window;
  double again_cpu_ms = 0, again_wall_ms = 0;  // the fastest later draw (--repeat)
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"CPU time of every timeline frame of every cfg on every trace"};
  std::string cfg_dir = "tests/data/cfg", trace_dir = "tests/data", format = "json";
  uint32_t width = 2000;
  size_t top = 20;
  double limit_ms = 200;
  unsigned repeat = 1;
  app.add_option("--cfgs", cfg_dir, "folder of .cfg files (recursive)");
  app.add_option("--traces", trace_dir, "folder of .prv/.prv.gz traces (recursive, no oracles/)");
  app.add_option("--width", width, "frame width in pixels");
  app.add_option("--format", format, "json (the browser's draw list) or png");
  app.add_option("--top", top, "how many of the slowest frames to print");
  app.add_option("--limit", limit_ms, "count the frames above this many CPU ms");
  app.add_option("--repeat", repeat, "draw each frame this many times (the later draws' best is printed too)")
      ->check(CLI::Range(1u, 1000u));
  CLI11_PARSE(app, argc, argv);

  std::vector<fs::path> cfgs, traces;
  try {
    cfgs = Collect(cfg_dir, false);
    traces = Collect(trace_dir, true);
  } catch (const fs::filesystem_error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  std::vector<std::pair<fs::path, CfgSummary>> summaries;
  for (const auto& c : cfgs) {
    auto s = SummarizeCfg(c.string());
    if (s.ok() && !s.value().windows.empty()) summaries.emplace_back(c, std::move(s).value());
  }
  fmt::print("{} cfgs with timeline windows, {} traces, {} px, {}\n", summaries.size(),
             traces.size(), width, format);

  std::vector<Frame> frames;
  size_t skipped = 0;
  for (const auto& tp : traces) {
    auto trace = Trace::Open(tp.string());
    if (!trace.ok()) {
      fmt::print("skip {}: {}\n", tp.string(), trace.status().ToString());
      continue;
    }
    const size_t first = frames.size();
    for (const auto& [cp, summary] : summaries) {
      for (const auto& window : summary.windows) {
        TimelineRequest r;
        r.cfg_path = cp.string();
        r.window = window;
        r.width = width;
        r.format = format;
        Frame f{0, 0, tp.string(), cp.string(), window};
        bool ok = true;
        for (unsigned k = 0; k < repeat && ok; ++k) {
          double c0 = CpuSeconds();
          auto w0 = std::chrono::steady_clock::now();
          auto images = RenderTimeline(*trace.value(), r);
          double cpu = (CpuSeconds() - c0) * 1e3;
          double wall =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() * 1e3;
          ok = images.ok();
          if (k == 0) {
            f.cpu_ms = cpu;
            f.wall_ms = wall;
          } else if (k == 1 || cpu < f.again_cpu_ms) {
            f.again_cpu_ms = cpu;
            f.again_wall_ms = wall;
          }
        }
        if (!ok) {
          ++skipped;
          continue;
        }
        frames.push_back(std::move(f));
      }
    }
    // Progress: the slowest frame of this trace.
    auto slowest = std::max_element(
        frames.begin() + static_cast<std::ptrdiff_t>(first), frames.end(),
        [](const Frame& a, const Frame& b) { return a.cpu_ms < b.cpu_ms; });
    if (slowest != frames.end())
      fmt::print("{}: {} frames, slowest {:.1f} ms CPU ({} [{}])\n", tp.string(),
                 frames.size() - first, slowest->cpu_ms, slowest->cfg, slowest->window);
    std::fflush(stdout);
  }
  std::sort(frames.begin(), frames.end(),
            [](const Frame& a, const Frame& b) { return a.cpu_ms > b.cpu_ms; });
  size_t over = static_cast<size_t>(std::count_if(
      frames.begin(), frames.end(), [&](const Frame& f) { return f.cpu_ms > limit_ms; }));
  fmt::print("{} frames drawn, {} windows not applicable; slowest (CPU ms, wall ms{}):\n",
             frames.size(), skipped, repeat > 1 ? "; then the best later draw's" : "");
  for (size_t i = 0; i < std::min(top, frames.size()); ++i) {
    const Frame& f = frames[i];
    if (repeat > 1)
      fmt::print("{:9.1f} {:9.1f} {:9.1f} {:9.1f}  {}  {}  [{}]\n", f.cpu_ms, f.wall_ms, f.again_cpu_ms,
                 f.again_wall_ms, f.trace, f.cfg, f.window);
    else
      fmt::print("{:9.1f} {:9.1f}  {}  {}  [{}]\n", f.cpu_ms, f.wall_ms, f.trace, f.cfg, f.window);
  }
  fmt::print("{} frames above {} ms of CPU\n", over, limit_ms);
  return 0;
}
