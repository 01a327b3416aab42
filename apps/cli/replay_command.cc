// `parallax replay TRACE [--config dimemas.cfg | --latency S --bandwidth MB/s ...] [-o out.prv]`:
// replays an MPI trace on a modelled machine (docs/replay.md), prints the predicted runtime and
// the ideal-network figures, and writes the predicted trace.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/replay.h"

namespace parallax::cli {

namespace {

struct ReplayArgs {
  std::string trace;
  std::string output;
  std::string format = "text";
  bool force = false;
  bool no_init_barrier = false;
  ReplayOptions options;
  double latency = -1, bandwidth = -1, cpu_ratio = -1;
  int64_t eager = -1;
  int64_t tasks_per_node = -1, links = -1;
  bool strict = false;
  unsigned threads = 0;
};

int Run(ReplayArgs& a) {
  ReplayOptions& o = a.options;
  if (a.latency != -1) o.latency_s = a.latency;
  if (a.bandwidth != -1) o.bandwidth_MBps = a.bandwidth;
  if (a.cpu_ratio != -1) o.cpu_ratio = a.cpu_ratio;
  if (a.eager != -1) o.eager_bytes = a.eager;
  if (a.tasks_per_node != -1) o.tasks_per_node = static_cast<uint32_t>(a.tasks_per_node);
  if (a.links != -1) o.links = static_cast<uint32_t>(a.links);
  o.init_barrier = !a.no_init_barrier;
  o.load.strict = a.strict;
  o.load.threads = a.threads;
  ApplyCacheEnvironment(o.load);
  ProgressBar bar("loading");
  o.load.progress = [&](uint64_t d, uint64_t t) { bar.Update(d, t); };
  auto report = ReplayTrace(a.trace, o, a.output, a.force);
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n", report.status().ToString().c_str());
    return 1;
  }
  std::fputs(
      (a.format == "json" ? FormatReplayJson(report.value()) : FormatReplayText(report.value()))
          .c_str(),
      stdout);
  return 0;
}

}  // namespace

Command AddReplayCommand(CLI::App& app) {
  auto args = std::make_shared<ReplayArgs>();
  CLI::App* sub = app.add_subcommand("replay",
                                     "replay an MPI trace on an ideal or modelled network (as "
                                     "Dimemas) and write the predicted trace");
  sub->add_option("trace", args->trace, "trace (.prv or .prv.gz) with Extrae's MPI events")
      ->required();
  sub->add_option("-o,--output", args->output,
                  "predicted trace to write (.prv or .prv.gz, with .pcf and .row)");
  sub->add_flag("--force", args->force, "replace existing output files");
  sub->add_option("--config", args->options.config_path,
                  "Dimemas configuration file (its collectives file is read from beside it); "
                  "default: the ideal "
                  "machine");
  sub->add_option("--latency", args->latency, "network latency in seconds (e.g. 5e-6)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--bandwidth", args->bandwidth,
                  "network bandwidth in MB/s (MB = 2^20 bytes); 0 = infinite")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--eager", args->eager,
                  "eager limit in bytes: larger messages use rendezvous (default 32768)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--cpu-ratio", args->cpu_ratio,
                  "CPU speed ratio: bursts are divided by it (default 1)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--tasks-per-node", args->tasks_per_node,
                  "consecutive tasks per node (default 1)")
      ->check(CLI::Range(int64_t{1}, int64_t{UINT32_MAX}));
  sub->add_option("--links", args->links, "input and output links per node; 0 = no contention")
      ->check(CLI::Range(int64_t{0}, int64_t{4096}));
  sub->add_flag("--no-init-barrier", args->no_init_barrier,
                "do not synchronise the tasks at MPI_Init");
  sub->add_option("--format", args->format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  sub->add_flag("--strict", args->strict, "fail on any malformed or out-of-order record");
  sub->add_option("--threads", args->threads, "worker threads for loading (default: all cores)");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
