// `parallax paramedir [-m] [-tu] [-npr] TRACE CFG [OUT] [CFG [OUT] ...]`: paramedir's batch mode.
// With -c/-f/-s (XML parameter file), -g TYPE (event-driven cut) and -t/-tt/-ta/-tw FILE (time
// shifts per thread, task, application, whole trace), the trace is first
// processed by those tools, chained in command-line order.
// Each cfg (in command-line order) gives one output file in the current directory, named as
// paramedir names it. Exit status 1 when any cfg is rejected.

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "apps/cli/trace_tools.h"
#include "include/parallax/output.h"
#include "include/parallax/cfg.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct ParamedirArgs {
  std::vector<std::string> args;  // TRACE CFG [OUT] ...
  bool trace_units = false;
  bool one_file_per_object = false;
  bool no_precision = false;
  bool empty_columns = false;
  bool plane = false;
  bool force = false;
  std::string output_name;               // -o/--output-name: the processed trace
  std::vector<ToolStep> tools;           // -c/-f/-s/-g/-t/-tt/-ta/-tw in command-line order
  std::string shift_tasks, shift_threads, shift_apps, shift_all;  // offsets files of -tt/-t/-ta/-tw
  std::string event_cutter;                                       // -g TYPE
  std::string event_translator;                                   // -et REFERENCE
  RangeArgs range;                       // --from/--to/--records (a Parallax extension)
};

bool IsCfg(const std::string& s) { return s.size() > 4 && s.compare(s.size() - 4, 4, ".cfg") == 0; }

bool WriteFile(const std::string& name, const std::string& content, bool force) {
  Status s = WriteOutputFile(name, content, force);
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return s.ok();
}

int Run(const ParamedirArgs& given, const Distribution* dist) {
  ParamedirArgs a = given;
  bool any_xml = false;
  for (const auto& s : a.args) any_xml = any_xml || (s.size() > 4 && s.compare(s.size() - 4, 4, ".xml") == 0);
  const bool quiet = dist != nullptr && dist->rank != 0;  // notices and usage from rank 0 only
  if (dist != nullptr && (!a.tools.empty() || any_xml)) {
    if (!quiet)
      std::fprintf(stderr, "paramedir: the trace tools (-c/-f/-s/-g/-et/-t...) do not run distributed\n"
                           "  hint: run them with `parallax paramedir` first, then analyse their output here\n");
    return 2;
  }
  if (!a.tools.empty() || any_xml) {
    int status = RunParamedirTools(given.args, a.tools, a.output_name, a.force, &a.args);
    if (status != 0 || a.args.empty()) return status;
  }
  if (a.args.size() < 2 || !IsCfg(a.args[1])) {
    if (quiet) return 2;
    std::fprintf(stderr, "usage: parallax paramedir [-m] [-tu] [-npr] [-e] [-p] TRACE CFG [OUT] [CFG [OUT] ...]\n"
                 "       parallax paramedir [-c] [-f] [-s] [-g TYPE] [-et REF] [-t|-tt|-ta|-tw FILE] TRACE [XML] [-o OUT] [CFG [OUT] ...]\n"
                 "       parallax paramedir -v|--version\n");
    return 2;
  }
  // Distributed: the processes open the trace together (rank 0 writes the cache when there is
  // none; each checks its share of it). Without the cache, cfgs that read states alone need
  // only the state lines parsed.
  bool states_only = true;
  for (size_t i = 1; i < a.args.size(); ++i) {
    if (!IsCfg(a.args[i])) continue;
    auto summary = SummarizeCfg(a.args[i]);
    states_only = states_only && summary.ok() && summary->reads_states_only;
  }
  // PARALLAX_TIMINGS set: the open and the analyses' wall time on stderr (bench/mpi_bench.sh).
  const bool timings = std::getenv("PARALLAX_TIMINGS") != nullptr && !quiet;
  const auto started = std::chrono::steady_clock::now();
  auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  auto trace = LoadTraceOrReport(a.args[0], false, dist != nullptr ? dist->threads : 0, dist, states_only);
  ParamedirOptions po{a.trace_units, a.no_precision, a.one_file_per_object};
  po.hide_empty_columns = a.empty_columns;
  po.selected_plane_only = a.plane;
  po.distribution = dist;
  if (!AllOk(dist, trace && ApplyRange(a.range, *trace, a.args[0], &po.from, &po.to))) return 1;
  const double open_seconds = seconds_since(started);
  const auto analysis_started = std::chrono::steady_clock::now();
  int status = 0;
  for (size_t i = 1; i < a.args.size(); ++i) {
    if (!IsCfg(a.args[i])) {
      if (!quiet) std::fprintf(stderr, "%s: error: expected a .cfg file here\n", a.args[i].c_str());
      status = 1;
      continue;
    }
    const std::string cfg = a.args[i];
    std::string out_name = i + 1 < a.args.size() && !IsCfg(a.args[i + 1]) ? a.args[++i] : "";
    auto outs = trace->Paramedir(cfg, out_name, po);
    if (!outs.ok()) {
      if (quiet)
        std::fprintf(stderr, "[rank %u] %s\n", dist->rank, outs.status().ToString().c_str());
      else
        std::fprintf(stderr, "%s\n", outs.status().ToString().c_str());
      status = 1;
      continue;
    }
    if (quiet) continue;
    for (const auto& o : outs.value()) {
      for (const auto& n : o.notices) std::fprintf(stderr, "%s: %s\n", cfg.c_str(), n.c_str());
      if (o.write && !WriteFile(o.file_name, o.content, a.force)) status = 1;
    }
  }
  if (timings)
    std::fprintf(stderr, "parallax: timings: open %.3f s, analysis %.3f s\n", open_seconds,
                 seconds_since(analysis_started));
  return status;
}

}  // namespace

Command AddParamedirCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<ParamedirArgs>();
  CLI::App* sub = app.add_subcommand("paramedir", "paramedir-compatible batch mode: one output per cfg");
  sub->add_option("args", args->args, "TRACE [XML] CFG [OUT] [CFG [OUT] ...]")->required();
  sub->add_flag("--tu,-u", args->trace_units, "times in trace units (paramedir -tu)");
  sub->add_flag("-m", args->one_file_per_object, "one file per object");
  sub->add_flag("--npr", args->no_precision, "10 decimals in tables (paramedir -npr)");
  sub->add_flag("-e", args->empty_columns, "hide empty columns (histograms)");
  sub->add_flag("-p", args->plane, "print only the selected plane (3D histograms)");
  sub->add_flag("--force", args->force, "replace existing output files");
  AddRangeOptions(sub, &args->range);
  CLI::Option* cut = sub->add_flag("-c,--cutter")->description("apply the cutter of the .xml parameter file");
  CLI::Option* filter = sub->add_flag("-f,--filter")->description("apply the filter of the .xml parameter file");
  CLI::Option* sc = sub->add_flag("-s,--software-counters")->description("apply the software counters of the .xml file");
  sub->add_option("-o,--output-name", args->output_name, "name of the processed trace (default NAME.chop1.prv ...)");
  CLI::Option* sth = sub->add_option("--thread-shifter,--shift-threads", args->shift_threads,
                                     "-t FILE: shift each thread's times by the offsets in FILE (one per line)");
  CLI::Option* st = sub->add_option("--task-shifter,--shift-tasks", args->shift_tasks,
                                    "-tt FILE: shift each task's times (one offset per line)");
  CLI::Option* sa = sub->add_option("--app-shifter,--shift-apps", args->shift_apps,
                                    "-ta FILE: shift each application's times (one offset per line)");
  CLI::Option* sw = sub->add_option("--workload-shifter", args->shift_all,
                                    "-tw FILE: shift the whole trace by the one offset in FILE");
  CLI::Option* ev = sub->add_option("--event-cutter", args->event_cutter,
                                    "-g TYPE: event-driven cut from the first to the last occurrence "
                                    "of event TYPE (any value but 0)");
  CLI::Option* et = sub->add_option("--event-translator", args->event_translator,
                                    "-et REFERENCE: renumber event values to what REFERENCE's .pcf "
                                    "calls them");
  return {sub, [args, sub, cut, filter, sc, st, sth, sa, sw, ev, et, dist] {
            args->tools.clear();
            for (const CLI::Option* o : sub->parse_order()) {
              ToolStep step;
              if (o == cut) step.kind = ToolStep::Kind::kCut;
              if (o == filter) step.kind = ToolStep::Kind::kFilter;
              if (o == sc) step.kind = ToolStep::Kind::kSoftCounters;
              if (o == et) {
                step.kind = ToolStep::Kind::kTranslate;
                step.from_command_line = true;
                step.translate.reference = args->event_translator;
              } else if (o == ev) {
                step.kind = ToolStep::Kind::kCut;
                step.from_command_line = true;
                step.cut.by_event = true;
                const std::string& t = args->event_cutter;
                auto r = std::from_chars(t.data(), t.data() + t.size(), step.cut.event_type);
                if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) {
                  std::fprintf(stderr,
                               "paramedir: bad -g \"%s\"\n  hint: -g TYPE: an event type number "
                               "(the mark of the event-driven cut), e.g. -g 90000001\n",
                               t.c_str());
                  return 2;
                }
              } else if (o == st || o == sth || o == sa || o == sw) {
                step.kind = ToolStep::Kind::kShift;
                step.from_command_line = true;
                step.shift.level = o == st    ? ShiftOptions::Level::kTask
                                   : o == sth ? ShiftOptions::Level::kThread
                                   : o == sa  ? ShiftOptions::Level::kApplication
                                              : ShiftOptions::Level::kWorkload;
                step.shift.offsets_file = o == st    ? args->shift_tasks
                                          : o == sth ? args->shift_threads
                                          : o == sa  ? args->shift_apps
                                                     : args->shift_all;
                auto offsets = ReadShiftOffsets(step.shift.offsets_file);
                if (!offsets.ok()) {
                  std::fprintf(stderr, "paramedir: %s\n", offsets.status().ToString().c_str());
                  return 1;
                }
                step.shift.offsets = std::move(offsets).value();
              } else if (o != cut && o != filter && o != sc) {
                continue;
              }
              args->tools.push_back(step);
            }
            return Run(*args, dist);
          }};
}

}  // namespace parallax::cli
