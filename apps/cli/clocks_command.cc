// `parallax clocks TRACE [--json]`: messages received before they are sent, by pair of tasks;
// `parallax clocks TRACE --correct -o OUT [--min-latency T] [--max-drift D] [--no-logical]
// [--force]`: fits each task's clock offset and drift and writes the corrected trace
// (docs/tools.md).

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/tools.h"

namespace parallax::cli {

namespace {

struct ClocksArgs {
  std::string trace, output;
  bool json = false, correct = false, force = false, no_logical = false;
  uint64_t min_latency = 0;
  double max_drift = 1e-3;
};

nlohmann::json ToJson(const ClockReport& r) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const ClockPair& p : r.pairs) {
    pairs.push_back({{"sender", fmt::format("{}.{}", p.send_appl, p.send_task)},
                     {"receiver", fmt::format("{}.{}", p.recv_appl, p.recv_task)},
                     {"messages", p.messages},
                     {"physical", p.physical},
                     {"physical_max", p.physical_max},
                     {"physical_total", p.physical_total},
                     {"logical", p.logical},
                     {"logical_max", p.logical_max},
                     {"logical_total", p.logical_total}});
  }
  return {{"messages", r.messages},
          {"physical", r.physical},
          {"logical", r.logical},
          {"pairs", pairs}};
}

std::string ReportText(const ClockReport& r) {
  std::string out = fmt::format("messages {}; received before sent: {} physical, {} logical\n",
                                r.messages, r.physical, r.logical);
  if (r.pairs.empty()) return out;
  out += fmt::format("{:>9} {:>9} {:>9} {:>9} {:>12} {:>14} {:>9} {:>12} {:>14}\n", "sender",
                     "receiver", "messages", "physical", "max", "total", "logical", "max",
                     "total");
  for (const ClockPair& p : r.pairs) {
    out += fmt::format("{:>9} {:>9} {:>9} {:>9} {:>12} {:>14} {:>9} {:>12} {:>14}\n",
                       fmt::format("{}.{}", p.send_appl, p.send_task),
                       fmt::format("{}.{}", p.recv_appl, p.recv_task), p.messages, p.physical,
                       p.physical_max, p.physical_total, p.logical, p.logical_max,
                       p.logical_total);
  }
  return out;
}

int Report(const ClocksArgs& a) {
  ProgressBar bar("reading");
  auto r = CheckClocks(a.trace, [&](uint64_t d, uint64_t t) { bar.Update(d, t); });
  if (!r.ok()) {
    std::fprintf(stderr, "parallax clocks: %s\n", r.status().ToString().c_str());
    return 1;
  }
  if (a.json) {
    std::puts(ToJson(r.value()).dump(2).c_str());
  } else {
    std::fputs(fmt::format("trace {} (times in trace units)\n", a.trace).c_str(), stdout);
    std::fputs(ReportText(r.value()).c_str(), stdout);
  }
  return 0;
}

int Correct(const ClocksArgs& a) {
  if (a.output.empty()) {
    std::fprintf(stderr,
                 "parallax clocks: --correct needs -o OUT\n  hint: parallax clocks %s --correct "
                 "-o corrected.prv\n",
                 a.trace.c_str());
    return 2;
  }
  ToolRun run;
  run.input = a.trace;
  run.output = a.output;
  run.force = a.force;
  ProgressBar bar("correcting");
  run.progress = [&](uint64_t d, uint64_t t) { bar.Update(d, t); };
  ClockCorrectOptions o;
  o.min_latency = a.min_latency;
  o.max_drift = a.max_drift;
  o.logical_clock = !a.no_logical;
  auto r = CorrectClocks(run, o);
  if (!r.ok()) {
    std::fprintf(stderr, "parallax clocks: %s\n", r.status().ToString().c_str());
    return 1;
  }
  const ClockCorrection& c = r.value();
  if (a.json) {
    nlohmann::json tasks = nlohmann::json::array();
    for (const TaskClock& t : c.tasks) {
      tasks.push_back({{"task", fmt::format("{}.{}", t.appl, t.task)},
                       {"offset", t.offset},
                       {"drift", t.drift},
                       {"messages", t.messages},
                       {"fitted", t.fitted},
                       {"margin", t.margin}});
    }
    nlohmann::json j = {
        {"output", a.output},
        {"reference", fmt::format("{}.{}", c.reference_appl, c.reference_task)},
        {"shift", c.shift},
        {"tasks", tasks},
        {"before", ToJson(c.before)},
        {"after", ToJson(c.after)},
        {"receives_moved", c.receives_moved},
        {"max_move", c.max_move},
        {"unresolved", c.unresolved},
        {"notes", c.io.notes}};
    std::puts(j.dump(2).c_str());
    return 0;
  }
  std::string out = fmt::format("wrote {} ({} records)\n", a.output, c.io.output_records);
  out += fmt::format("reference task {}.{}; every time shifted by {}\n", c.reference_appl,
                     c.reference_task, c.shift);
  out += fmt::format("{:>9} {:>16} {:>12} {:>9} {:>12}\n", "task", "offset", "drift (ppm)",
                     "messages", "margin");
  for (const TaskClock& t : c.tasks) {
    out += fmt::format("{:>9} {:>16.1f} {:>12.4f} {:>9} {:>12}\n",
                       fmt::format("{}.{}", t.appl, t.task), t.offset, t.drift * 1e6, t.messages,
                       t.fitted ? fmt::format("{:.1f}", t.margin) : std::string("-"));
  }
  out += fmt::format("logical clock: {} receives moved (largest move {}), {} in causal cycles\n",
                     c.receives_moved, c.max_move, c.unresolved);
  out += "before: " + ReportText(c.before);
  out += "after:  " + ReportText(c.after);
  for (const std::string& n : c.io.notes) out += "note: " + n + "\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddClocksCommand(CLI::App& app) {
  auto args = std::make_shared<ClocksArgs>();
  CLI::App* sub = app.add_subcommand(
      "clocks",
      "Find messages received before they are sent; --correct fits each task's clock offset "
      "and drift and writes a causally coherent trace");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_flag("--json", args->json, "print JSON for scripts");
  sub->add_flag("--correct", args->correct, "write a corrected trace (needs -o)");
  sub->add_option("-o,--output", args->output, "corrected trace (.prv or .prv.gz)");
  sub->add_option("--min-latency", args->min_latency,
                  "least time between a send and its receive after correction (trace units; "
                  "default 0)");
  sub->add_option("--max-drift", args->max_drift,
                  "largest clock drift searched (default 1e-3, i.e. 1000 ppm)")
      ->check(CLI::Range(0.0, 0.1));
  sub->add_flag("--no-logical", args->no_logical,
                "apply only the linear model, without the logical clock");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] {
            if (!args->correct && !args->output.empty()) {
              std::fprintf(stderr, "parallax clocks: -o is only used with --correct\n");
              return 2;
            }
            return args->correct ? Correct(*args) : Report(*args);
          }};
}

}  // namespace parallax::cli
