// `parallax text TRACE (--cfg W.cfg [--window NAME] | --thread-function F [--param V...])
//  --object "THREAD 1.2.1" [--from T0] [--to T1] [--json]`: Paraver's what/where view.

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "apps/server/json_convert.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct TextArgs {
  std::string trace;
  TextRequest req;
  RangeArgs range;
  bool json = false;
};

void PrintText(const TextView& v) {
  std::string out = fmt::format("{} — {} ({}), {} .. {} {}\n", v.object, v.window, v.function, v.from, v.to, v.time_unit);
  out += "intervals:\n";
  for (const auto& i : v.intervals)
    out += fmt::format("  {:>14} {:>14}  {:<14g} {}\n", i.begin, i.end, i.value, i.label);
  out += fmt::format("events ({}):\n", v.events.size());
  for (const auto& e : v.events)
    out += fmt::format("  {:>14}  {}  {} {} = {} {}\n", e.time, e.thread, e.type,
                       e.type_label.empty() ? "" : "(" + e.type_label + ")", e.value,
                       e.value_label.empty() ? "" : "(" + e.value_label + ")");
  out += fmt::format("communications ({}):\n", v.comms.size());
  for (const auto& c : v.comms)
    out += fmt::format("  {} {} {} {}  size {} tag {}  logical {}->{}  physical {}->{}\n", c.thread,
                       c.send ? "sends to" : "receives from", c.partner, "", c.size, c.tag, c.log_send, c.log_recv,
                       c.phy_send, c.phy_recv);
  std::fputs(out.c_str(), stdout);
}

int Run(TextArgs& a) {
  auto trace = LoadTraceOrReport(a.trace);
  if (!trace) return 1;
  TextRequest req = a.req;
  if (!ApplyRange(a.range, *trace, a.trace, &req.from, &req.to)) return 1;
  auto view = trace->Text(req);
  if (!view.ok()) {
    std::fprintf(stderr, "%s\n", view.status().ToString().c_str());
    return 1;
  }
  if (a.json) {
    std::puts(server::ToJson(view.value()).dump(2).c_str());
  } else {
    PrintText(view.value());
  }
  return 0;
}

}  // namespace

Command AddTextCommand(CLI::App& app) {
  auto args = std::make_shared<TextArgs>();
  CLI::App* sub = app.add_subcommand("text", "Textual view: values, events and communications of one object");
  sub->add_option("trace", args->trace, "trace file (.prv or .prv.gz)")->required();
  auto* cfg = sub->add_option("--cfg", args->req.cfg_path, "a Paraver .cfg (its last window by default)");
  sub->add_option("--window", args->req.window, "name of the window inside the cfg")->needs(cfg);
  auto* fn = sub->add_option("--thread-function", args->req.thread_function,
                             "a thread function, e.g. \"State As Is\", \"Last Evt Val\"")->excludes(cfg);
  sub->add_option("--param", args->req.parameters, "values of the function's first parameter")->needs(fn);
  sub->add_option("--object", args->req.object, "e.g. \"THREAD 1.2.1\", \"TASK 1.2\"")->default_val("THREAD 1.1.1");
  AddRangeOptions(sub, &args->range);
  sub->add_flag("--json", args->json, "print JSON for scripts");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
