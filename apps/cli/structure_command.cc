// `parallax structure TRACE [--format text|json] [-o OUT.prv] [--marker TYPE[:VALUE]]
// [--eps E] [--min-points N] [--min-duration T] [--duration-only]`: the main iterative loop,
// the phases inside an iteration and the clusters of computation bursts (docs/structure.md);
// with -o, the trace written again with them as events (iteration 90000101, cluster 90000001).

#include <charconv>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/structure.h"

namespace parallax::cli {

namespace {

struct StructureArgs {
  std::string trace, format = "text", output, marker;
  double eps = 0;
  uint32_t min_points = 0;
  int64_t min_duration = -1;
  bool duration_only = false, force = false;
};

// "TYPE" or "TYPE:VALUE".
bool ParseMarker(const std::string& s, StructureOptions* o) {
  const size_t colon = s.find(':');
  const std::string type = s.substr(0, colon);
  uint32_t t = 0;
  auto r = std::from_chars(type.data(), type.data() + type.size(), t);
  if (type.empty() || r.ec != std::errc() || r.ptr != type.data() + type.size() || t == 0) return false;
  o->marker_type = t;
  if (colon == std::string::npos) return true;
  const std::string value = s.substr(colon + 1);
  int64_t v = 0;
  auto rv = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || rv.ec != std::errc() || rv.ptr != value.data() + value.size() || v == 0) return false;
  o->marker_value = v;
  return true;
}

int Run(const StructureArgs& a) {
  StructureOptions options;
  if (!a.marker.empty() && !ParseMarker(a.marker, &options)) {
    std::fprintf(stderr,
                 "parallax structure: bad --marker \"%s\"\n  hint: --marker TYPE or TYPE:VALUE (an event type "
                 "and a non-zero value, e.g. 60000019:3)\n",
                 a.marker.c_str());
    return 2;
  }
  if (a.eps < 0 || a.eps > 10) {
    std::fprintf(stderr, "parallax structure: --eps %g is outside 0..10 (normalised units; 0 chooses it)\n", a.eps);
    return 2;
  }
  auto trace = LoadTraceOrReport(a.trace);
  if (!trace) return 1;
  options.eps = a.eps;
  options.min_points = a.min_points;
  options.min_duration = a.min_duration;
  options.duration_only = a.duration_only;
  options.bursts = !a.output.empty();
  auto s = AnalyzeStructure(*trace, options);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.status().ToString().c_str());
    return 1;
  }
  if (!a.output.empty()) {
    ToolRun run;
    run.input = a.trace;
    run.output = a.output;
    run.force = a.force;
    auto written = WriteStructureTrace(*trace, s.value(), run);
    if (!written.ok()) {
      std::fprintf(stderr, "%s\n", written.status().ToString().c_str());
      return 1;
    }
    std::fprintf(stderr, "parallax structure: wrote %s (", a.output.c_str());
    for (size_t i = 0; i < written.value().notes.size(); ++i)
      std::fprintf(stderr, "%s%s", i > 0 ? "; " : "", written.value().notes[i].c_str());
    std::fprintf(stderr, ")\n");
  }
  const std::string out = a.format == "json" ? FormatStructureJson(s.value()) : FormatStructureText(s.value());
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddStructureCommand(CLI::App& app) {
  auto args = std::make_shared<StructureArgs>();
  CLI::App* sub = app.add_subcommand(
      "structure", "the main iterative loop, the phases of an iteration and clusters of computation bursts");
  sub->add_option("trace", args->trace, "trace (.prv, .prv.gz, OTF2, ...)")->required();
  sub->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("-o,--output", args->output,
                  "also write the trace with the iterations (event 90000101) and clusters (90000001) as events");
  sub->add_flag("--force", args->force, "replace existing output files");
  sub->add_option("--marker", args->marker, "find iterations from this event only: TYPE or TYPE:VALUE");
  sub->add_option("--eps", args->eps, "DBSCAN's epsilon in normalised units (default: from the data)");
  sub->add_option("--min-points", args->min_points, "DBSCAN's minimum points (default: from the data)");
  sub->add_option("--min-duration", args->min_duration,
                  "bursts shorter than this (trace units) are not clustered (default: the shortest, "
                  "together under 1% of the computing time)");
  sub->add_flag("--duration-only", args->duration_only, "cluster by duration even when counters are present");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
