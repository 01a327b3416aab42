// `parallax softcounters TRACE -o OUT (--interval T | --bursts T) [--count LIST] [--accumulate
// LIST] [--global] [--only-in-bursts] [--remove-states] [--summarize-states] [--keep LIST]
// [--force]`: Paraver's software counters, streamed (docs/tools.md).

#include <charconv>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/trace_tools.h"

namespace parallax::cli {

namespace {

struct ScArgs {
  std::string trace, output, count, accumulate, keep;
  uint64_t interval = 0, bursts = 0;
  bool global = false, only_in_bursts = false, remove_states = false, summarize = false,
       force = false;
};

// "T[:V,V]" items separated by ';', or plain types separated by ','.
bool ParseCounted(const std::string& s, std::vector<EventTypeSelector>* out) {
  bool has_values = s.find(':') != std::string::npos;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(has_values ? ';' : ',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    pos = end + 1;
    EventTypeSelector sel;
    size_t colon = item.find(':');
    std::string t = item.substr(0, colon);
    auto r = std::from_chars(t.data(), t.data() + t.size(), sel.type);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size()) return false;
    if (colon != std::string::npos) {
      std::string vs = item.substr(colon + 1);
      size_t vp = 0;
      while (vp <= vs.size()) {
        size_t ve = vs.find(',', vp);
        if (ve == std::string::npos) ve = vs.size();
        int64_t v = 0;
        auto rv = std::from_chars(vs.data() + vp, vs.data() + ve, v);
        if (ve == vp || rv.ec != std::errc() || rv.ptr != vs.data() + ve) return false;
        sel.values.push_back(v);
        vp = ve + 1;
      }
    }
    out->push_back(sel);
  }
  return !out->empty();
}

int Run(const ScArgs& a) {
  if ((a.interval == 0) == (a.bursts == 0)) {
    std::fprintf(stderr,
                 "parallax softcounters: give one of --interval T (counters per interval) or "
                 "--bursts T (per "
                 "running burst of at least T)\n");
    return 2;
  }
  SoftCountersOptions o;
  o.by_intervals = a.interval != 0;
  o.sampling_interval = a.interval;
  o.minimum_burst_time = a.bursts;
  if (!a.count.empty() && !ParseCounted(a.count, &o.count_types)) {
    std::fprintf(stderr,
                 "parallax softcounters: bad --count \"%s\"\n  hint: 50000001,50000002 or "
                 "50000001:1,2;50000002\n",
                 a.count.c_str());
    return 2;
  }
  if (!a.accumulate.empty() && !ParseCounted(a.accumulate, &o.accum_types)) {
    std::fprintf(stderr, "parallax softcounters: bad --accumulate \"%s\"\n", a.accumulate.c_str());
    return 2;
  }
  std::vector<EventTypeSelector> kept;
  if (!a.keep.empty() && !ParseCounted(a.keep, &kept)) {
    std::fprintf(stderr, "parallax softcounters: bad --keep \"%s\"\n", a.keep.c_str());
    return 2;
  }
  for (const auto& k : kept) o.keep_types.push_back(k.type);
  o.global_counters = a.global;
  o.only_in_burst_counting = a.only_in_bursts;
  o.remove_states = a.remove_states;
  o.summarize_useful_states = a.summarize;
  ToolStep step;
  step.kind = ToolStep::Kind::kSoftCounters;
  step.softcounters = o;
  std::string written;
  return RunToolChain("parallax softcounters", a.trace, {step}, a.output, a.force, &written);
}

}  // namespace

Command AddSoftCountersCommand(CLI::App& app) {
  auto args = std::make_shared<ScArgs>();
  CLI::App* sub = app.add_subcommand(
      "softcounters", "Summarise events as counters (Paraver's software counters), streamed");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_option("-o,--output", args->output,
                  "output trace (.prv or .prv.gz); default NAME.sc1.prv");
  sub->add_option("--interval", args->interval,
                  "write the counters every T of running time (trace units)");
  sub->add_option("--bursts", args->bursts,
                  "write the counters per running burst of at least T (trace units)");
  sub->add_option("--count", args->count,
                  "count occurrences of these event types, e.g. 50000001,50000002");
  sub->add_option("--accumulate", args->accumulate, "sum the values of these event types");
  sub->add_flag("--global", args->global, "one counter per type (all values), never reset");
  sub->add_flag("--only-in-bursts", args->only_in_bursts,
                "count only events inside running bursts");
  sub->add_flag("--remove-states", args->remove_states, "do not copy the running states");
  sub->add_flag("--summarize-states", args->summarize,
                "write the running time as event type 1 (removes states)");
  sub->add_option("--keep", args->keep,
                  "copy events of these types unchanged, e.g. 40000001,40000002");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
