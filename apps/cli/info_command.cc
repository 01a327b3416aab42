// `parallax info TRACE [--json] [--strict]`: what a trace holds and what the reader noticed.

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/server/json_convert.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct InfoArgs {
  std::string trace;
  bool json = false;
  bool strict = false;
  unsigned threads = 0;
};

void PrintLabels(const char* title, const std::vector<LabelCount>& v) {
  std::printf("%s (%zu):\n", title, v.size());
  for (const auto& l : v)
    std::printf("  %12lld  %-40s %llu\n", static_cast<long long>(l.id),
                l.label.empty() ? "(no label)" : l.label.c_str(), static_cast<unsigned long long>(l.count));
}

void PrintText(const TraceInfo& i) {
  std::string out;
  out += fmt::format("trace        {}\n", i.path);
  out += fmt::format("date         {}\n", i.date);
  out += fmt::format("time unit    {}\n", i.time_unit);
  out += fmt::format("end time     {} (header), {} (trace end)\n", i.end_time, i.trace_end);
  out += fmt::format("time span    {} .. {}\n", i.first_time, i.last_time);
  out += fmt::format("resources    {} nodes, {} cpus\n", i.nodes, i.cpus);
  out += fmt::format("processes    {} appls, {} tasks, {} threads; {} communicators\n", i.appls,
                     i.tasks, i.threads, i.communicators);
  out += fmt::format("records      {} states, {} event lines ({} pairs), {} comms; {} type-4 skipped\n",
                     i.states, i.events, i.event_pairs, i.comms, i.global_comms);
  // Physically backward messages (received before sent) are a clock problem; logically backward
  // ones are receives posted before the matching send, which MPI programs do all the time.
  out += fmt::format("clocks       {} messages received before they were sent{}\n", i.backward_physical,
                     i.backward_physical > 0 ? " (clocks out of step: see parallax clocks)" : "");
  out += fmt::format("early recvs  {} receives posted before their send (normal for MPI)\n",
                     i.backward_logical);
  out += fmt::format("labels       .pcf {}, .row {}\n", i.has_pcf ? "yes" : "no", i.has_row ? "yes" : "no");
  if (!i.cache_path.empty()) out += fmt::format("cache        {} ({})\n", i.cache_path, i.cache_use);
  else out += fmt::format("cache        none ({})\n", i.cache_use.empty() ? "not a .prv" : i.cache_use);
  double mb = static_cast<double>(i.file_bytes) / 1e6;
  out += fmt::format("load         {:.1f} MB in {:.3f} s ({:.0f} MB/s); store {:.1f} bytes/record\n", mb,
                     i.load_seconds, i.load_seconds > 0 ? mb / i.load_seconds : 0.0,
                     i.records ? static_cast<double>(i.store_bytes) / static_cast<double>(i.records) : 0.0);
  std::fputs(out.c_str(), stdout);
  PrintLabels("states", i.state_values);
  PrintLabels("event types", i.event_types);
  std::printf("diagnostics (%zu kinds):\n", i.diagnostics.size());
  for (const auto& d : i.diagnostics) {
    std::printf("  %-8s %-24s %llu  %s\n", d.severity.c_str(), d.kind.c_str(),
                static_cast<unsigned long long>(d.count), d.description.c_str());
    for (const auto& e : d.examples) std::printf("           %s\n", e.c_str());
  }
}

int Run(const InfoArgs& a) {
  auto trace = LoadTraceOrReport(a.trace, a.strict, a.threads);
  if (!trace) return 1;
  TraceInfo info = trace->Info();
  if (a.json) {
    std::puts(server::ToJson(info).dump(2).c_str());
  } else {
    PrintText(info);
  }
  return 0;
}

}  // namespace

Command AddInfoCommand(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* sub = app.add_subcommand("info", "Summarise a trace: header, objects, records, labels, diagnostics");
  sub->add_option("trace", args->trace, "trace file (.prv or .prv.gz)")->required();
  sub->add_flag("--json", args->json, "print JSON for scripts");
  sub->add_flag("--strict", args->strict, "fail on any malformed or out-of-order record");
  sub->add_option("--threads", args->threads, "worker threads (default: all cores)");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
