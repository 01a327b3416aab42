// `parallax cut TRACE -o OUT [--from T] [--to T] [--iterations A..B | --representative N]
// [--tasks LIST] [--original-time]
// [--records A..B] [--no-break-states] [--remove-first-states] [--remove-last-states]
// [--keep-events] [--between TYPE[:VALUE] [--occurrences A..B]]
// [--force]`:
// Paraver's by-time cutter, streamed (docs/tools.md). Times are in trace units, or percentages
// of the trace's end time when written with '%'.

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/cli/trace_tools.h"
#include "include/parallax/structure.h"

namespace parallax::cli {

namespace {

struct CutArgs {
  std::string trace, output, from, to, tasks, records, between, occurrences, iterations;
  uint64_t representative = 0;
  bool original_time = false, no_break_states = false, remove_first = false, remove_last = false;
  bool keep_events = false, force = false;
};

// "123" (trace units) or "12.5%"; false when malformed.
bool ParseLimit(const std::string& s, bool* percent, double* pct, uint64_t* abs) {
  *percent = !s.empty() && s.back() == '%';
  std::string num = *percent ? s.substr(0, s.size() - 1) : s;
  if (num.empty()) return false;
  if (*percent) {
    auto r = std::from_chars(num.data(), num.data() + num.size(), *pct);
    return r.ec == std::errc() && r.ptr == num.data() + num.size() && *pct >= 0 && *pct <= 100;
  }
  auto r = std::from_chars(num.data(), num.data() + num.size(), *abs);
  return r.ec == std::errc() && r.ptr == num.data() + num.size();
}

uint64_t FileBytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

int Run(const CutArgs& a);

// "A..B" with two unsigned numbers; false when malformed.
bool ParseRange(const std::string& s, uint64_t* a, uint64_t* b) {
  size_t dots = s.find("..");
  if (dots == std::string::npos) return false;
  std::string first = s.substr(0, dots), last = s.substr(dots + 2);
  auto r1 = std::from_chars(first.data(), first.data() + first.size(), *a);
  auto r2 = std::from_chars(last.data(), last.data() + last.size(), *b);
  return !first.empty() && !last.empty() && r1.ec == std::errc() && r2.ec == std::errc() &&
         r1.ptr == first.data() + first.size() && r2.ptr == last.data() + last.size();
}

// "TYPE" or "TYPE:VALUE".
bool ParseEvent(const std::string& s, CutOptions* o) {
  size_t colon = s.find(':');
  std::string type = s.substr(0, colon);
  auto r = std::from_chars(type.data(), type.data() + type.size(), o->event_type);
  if (type.empty() || r.ec != std::errc() || r.ptr != type.data() + type.size()) return false;
  if (colon == std::string::npos) return true;
  std::string value = s.substr(colon + 1);
  auto v = std::from_chars(value.data(), value.data() + value.size(), o->event_value);
  o->has_event_value = true;
  return !value.empty() && v.ec == std::errc() && v.ptr == value.data() + value.size();
}

bool ParseTasks(const std::string& s, std::vector<TaskRange>* out) {
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    size_t dash = item.find('-');
    uint32_t a = 0, b = 0;
    std::string first = item.substr(0, dash),
                second = dash == std::string::npos ? first : item.substr(dash + 1);
    auto r1 = std::from_chars(first.data(), first.data() + first.size(), a);
    auto r2 = std::from_chars(second.data(), second.data() + second.size(), b);
    if (first.empty() || second.empty() || r1.ec != std::errc() || r2.ec != std::errc() ||
        r1.ptr != first.data() + first.size() || r2.ptr != second.data() + second.size() ||
        a == 0 || b < a) {
      return false;
    }
    out->push_back({a, b});
    pos = end + 1;
  }
  return !out->empty();
}

// --iterations A..B / --representative N: the time span of those iterations (parallax structure),
// said with the share of the run it keeps before anything is written. Returns 0, or the exit
// status after an error (2: a bad option).
int IterationLimits(const CutArgs& a, uint64_t* from, uint64_t* to) {
  uint64_t first = 0, last = 0;
  if (!a.iterations.empty() && (!ParseRange(a.iterations, &first, &last) || first == 0 || last < first)) {
    std::fprintf(stderr, "parallax cut: bad --iterations \"%s\"\n  hint: --iterations A..B, 1-based, e.g. 10..20\n",
                 a.iterations.c_str());
    return 2;
  }
  auto trace = LoadTraceOrReport(a.trace);
  if (!trace) return 1;
  auto s = AnalyzeStructure(*trace);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.status().ToString().c_str());
    return 1;
  }
  auto span = a.iterations.empty() ? RepresentativeSpan(s.value(), a.representative)
                                   : IterationSpan(s.value(), first, last);
  if (!span.ok()) {
    std::fprintf(stderr, "parallax cut: %s\n", span.status().ToString().c_str());
    return 1;
  }
  *from = span.value().from;
  *to = span.value().to;
  const uint64_t end = std::max<uint64_t>(trace->Info().trace_end, 1);
  const double share = double(*to - *from) / double(end);
  const IterationsInfo& it = s.value().iterations;
  size_t a_index = 0, b_index = 0;
  for (size_t i = 0; i < it.items.size(); ++i) {
    if (it.items[i].begin == *from) a_index = i + 1;
    if (it.items[i].end == *to) b_index = i + 1;
  }
  std::fprintf(stderr,
               "parallax cut: iterations %zu..%zu of %llu (found by %s), times %llu..%llu: %.1f%% of the run, "
               "about %.1f MB of the input's %.1f MB\n",
               a_index, b_index, static_cast<unsigned long long>(it.count), it.anchor.c_str(),
               static_cast<unsigned long long>(*from), static_cast<unsigned long long>(*to), 100 * share,
               share * double(FileBytes(a.trace)) / 1e6, double(FileBytes(a.trace)) / 1e6);
  return 0;
}

int Run(const CutArgs& a) {
  CutOptions o;
  if (!a.iterations.empty() || a.representative > 0) {
    if ((!a.iterations.empty() && a.representative > 0) || !a.from.empty() || !a.to.empty() || !a.records.empty() ||
        !a.between.empty()) {
      std::fprintf(stderr,
                   "parallax cut: --iterations and --representative go alone\n  hint: one of them, without "
                   "--from/--to/--records/--between\n");
      return 2;
    }
    uint64_t from = 0, to = 0;
    if (const int rc = IterationLimits(a, &from, &to); rc != 0) return rc;
    CutArgs by_time = a;
    by_time.iterations.clear();
    by_time.representative = 0;
    by_time.from = std::to_string(from);
    by_time.to = std::to_string(to);
    return Run(by_time);
  }
  bool from_pct = false, to_pct = false;
  double from_p = 0, to_p = 100;
  uint64_t from_t = 0, to_t = UINT64_MAX;
  if (!a.from.empty() && !ParseLimit(a.from, &from_pct, &from_p, &from_t)) {
    std::fprintf(stderr,
                 "parallax cut: bad --from \"%s\"\n  hint: give a time in trace units or a "
                 "percentage like 40%%\n",
                 a.from.c_str());
    return 2;
  }
  if (!a.to.empty() && !ParseLimit(a.to, &to_pct, &to_p, &to_t)) {
    std::fprintf(stderr,
                 "parallax cut: bad --to \"%s\"\n  hint: give a time in trace units or a "
                 "percentage like 60%%\n",
                 a.to.c_str());
    return 2;
  }
  if ((!a.from.empty() && !a.to.empty() && from_pct != to_pct)) {
    std::fprintf(stderr,
                 "parallax cut: --from and --to must both be times or both be percentages\n");
    return 2;
  }
  if (!a.records.empty() && (!ParseRange(a.records, &o.first_record, &o.last_record) ||
                             !a.from.empty() || !a.to.empty() || !a.between.empty())) {
    std::fprintf(stderr,
                 "parallax cut: bad --records \"%s\"\n  hint: --records A..B (1-based body "
                 "records), without --from/--to/--between\n",
                 a.records.c_str());
    return 2;
  }
  if (!a.occurrences.empty() && a.between.empty()) {
    std::fprintf(stderr, "parallax cut: --occurrences needs --between TYPE[:VALUE]\n");
    return 2;
  }
  if (!a.between.empty()) {
    o.by_event = true;
    if (!ParseEvent(a.between, &o) || !a.from.empty() || !a.to.empty()) {
      std::fprintf(stderr,
                   "parallax cut: bad --between \"%s\"\n  hint: --between TYPE or TYPE:VALUE "
                   "(an event type and value of the .pcf), without --from/--to\n",
                   a.between.c_str());
      return 2;
    }
    if (!a.occurrences.empty() &&
        !ParseRange(a.occurrences, &o.first_occurrence, &o.last_occurrence)) {
      std::fprintf(stderr,
                   "parallax cut: bad --occurrences \"%s\"\n  hint: --occurrences A..B, e.g. "
                   "10..20 (1-based, per thread)\n",
                   a.occurrences.c_str());
      return 2;
    }
  }
  o.by_time = !(from_pct || to_pct);
  o.begin = from_t;
  o.end = to_t;
  o.begin_percent = from_p;
  o.end_percent = to_p;
  if (!a.tasks.empty() && !ParseTasks(a.tasks, &o.tasks)) {
    std::fprintf(stderr,
                 "parallax cut: bad --tasks \"%s\"\n  hint: task numbers and ranges, e.g. 1,3-5\n",
                 a.tasks.c_str());
    return 2;
  }
  o.original_time = a.original_time;
  o.break_states = !a.no_break_states;
  o.remove_first_states = a.remove_first;
  o.remove_last_states = a.remove_last;
  o.keep_events = a.keep_events;
  ToolStep step;
  step.kind = ToolStep::Kind::kCut;
  step.cut = o;
  std::string written;
  return RunToolChain("parallax cut", a.trace, {step}, a.output, a.force, &written);
}

}  // namespace

Command AddCutCommand(CLI::App& app) {
  auto args = std::make_shared<CutArgs>();
  CLI::App* sub = app.add_subcommand("cut",
                                     "Cut a time range, record range or event-driven range out of "
                                     "a trace (Paraver's cutter), streamed");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_option("-o,--output", args->output,
                  "output trace (.prv or .prv.gz); default NAME.chop1.prv");
  sub->add_option("--from", args->from,
                  "begin: time in trace units, or N% of the end time (default 0)");
  sub->add_option("--to", args->to,
                  "end: time in trace units, or N% of the end time (default: the end)");
  sub->add_option("--tasks", args->tasks, "keep only these tasks, e.g. 1,3-5");
  sub->add_option("--records", args->records,
                  "cut from the time of body record A to that of record B: A..B");
  sub->add_option("--between", args->between,
                  "event-driven cut: between occurrences of event TYPE (any value but 0) or "
                  "TYPE:VALUE");
  sub->add_option("--occurrences", args->occurrences,
                  "with --between: from occurrence A to occurrence B on each thread (1-based), "
                  "A..B; default: first to last");
  sub->add_option("--iterations", args->iterations,
                  "cut iterations A..B of the main loop (1-based; parallax structure finds them)");
  sub->add_option("--representative", args->representative,
                  "cut N consecutive typical iterations (durations closest to the median)");
  sub->add_flag("--original-time", args->original_time,
                "keep absolute times (states are then never broken)");
  sub->add_flag("--no-break-states", args->no_break_states,
                "keep states crossing the limits whole");
  sub->add_flag("--remove-first-states", args->remove_first,
                "drop states that begin before the cut");
  sub->add_flag("--remove-last-states", args->remove_last, "drop states that end after the cut");
  sub->add_flag("--keep-events", args->keep_events,
                "keep the events at the boundaries of kept states");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
