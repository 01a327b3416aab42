// `parallax filter TRACE -o OUT [--states LIST | --no-states] [--min-state-time T]
// [--types LIST | --discard-types LIST | --no-events] [--no-comms] [--min-comm-size N]
// [--max-comm-size N] [--comm-tags LIST] [--comm-partners LIST] [--force]`:
// Paraver's trace filter, streamed (docs/tools.md).

#include <charconv>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/trace_tools.h"

namespace parallax::cli {

namespace {

struct FilterArgs {
  std::string trace, output, states, types, discard_types, comm_tags, comm_partners;
  uint64_t min_state_time = 0;
  int64_t min_comm_size = 0, max_comm_size = -1;
  bool no_states = false, no_events = false, no_comms = false, force = false;
};

// "T", "T1-T2" or "T:V,V" items separated by ';' or ',' (values only after ':').
bool ParseTypes(const std::string& s, std::vector<EventTypeSelector>* out) {
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find_first_of(";", pos);
    if (end == std::string::npos) end = s.size();
    std::string group = s.substr(pos, end - pos);
    pos = end + 1;
    size_t colon = group.find(':');
    std::string types = group.substr(0, colon);
    std::vector<int64_t> values;
    if (colon != std::string::npos) {
      std::string vs = group.substr(colon + 1);
      size_t vp = 0;
      while (vp <= vs.size()) {
        size_t ve = vs.find(',', vp);
        if (ve == std::string::npos) ve = vs.size();
        int64_t v = 0;
        auto r = std::from_chars(vs.data() + vp, vs.data() + ve, v);
        if (ve == vp || r.ec != std::errc() || r.ptr != vs.data() + ve) return false;
        values.push_back(v);
        vp = ve + 1;
      }
    }
    size_t tp = 0;
    while (tp < types.size()) {
      size_t te = types.find(',', tp);
      if (te == std::string::npos) te = types.size();
      std::string item = types.substr(tp, te - tp);
      tp = te + 1;
      EventTypeSelector sel;
      size_t dash = item.find('-');
      std::string a = item.substr(0, dash),
                  b = dash == std::string::npos ? "" : item.substr(dash + 1);
      auto r1 = std::from_chars(a.data(), a.data() + a.size(), sel.type);
      if (a.empty() || r1.ec != std::errc() || r1.ptr != a.data() + a.size()) return false;
      if (dash != std::string::npos) {
        auto r2 = std::from_chars(b.data(), b.data() + b.size(), sel.last_type);
        if (b.empty() || r2.ec != std::errc() || r2.ptr != b.data() + b.size() ||
            sel.last_type < sel.type)
          return false;
      }
      sel.values = values;
      out->push_back(sel);
    }
  }
  return !out->empty();
}

// "5,7" -> tags; false when malformed.
bool ParseTags(const std::string& s, std::vector<int64_t>* out) {
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    int64_t v = 0;
    auto r = std::from_chars(s.data() + pos, s.data() + end, v);
    if (end == pos || r.ec != std::errc() || r.ptr != s.data() + end) return false;
    out->push_back(v);
    pos = end + 1;
  }
  return true;
}

// "1,3.2" -> task 1 (any thread), thread 2 of task 3; false when malformed.
bool ParsePartners(const std::string& s, std::vector<CommPartner>* out) {
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    size_t dot = item.find('.');
    std::string task = item.substr(0, dot),
                thread = dot == std::string::npos ? "" : item.substr(dot + 1);
    CommPartner p;
    auto r1 = std::from_chars(task.data(), task.data() + task.size(), p.task);
    if (task.empty() || r1.ec != std::errc() || r1.ptr != task.data() + task.size() || p.task == 0)
      return false;
    if (dot != std::string::npos) {
      auto r2 = std::from_chars(thread.data(), thread.data() + thread.size(), p.thread);
      if (thread.empty() || r2.ec != std::errc() || r2.ptr != thread.data() + thread.size() ||
          p.thread == 0)
        return false;
    }
    out->push_back(p);
    pos = end + 1;
  }
  return true;
}

int Run(const FilterArgs& a) {
  FilterOptions o;
  o.keep_states = !a.no_states;
  if (!a.states.empty()) {
    o.all_states = false;
    size_t pos = 0;
    while (pos <= a.states.size()) {
      size_t end = a.states.find(',', pos);
      if (end == std::string::npos) end = a.states.size();
      if (end > pos) o.state_names.push_back(a.states.substr(pos, end - pos));
      pos = end + 1;
    }
  }
  o.min_state_time = a.min_state_time;
  o.keep_events = !a.no_events;
  if (!a.types.empty() && !a.discard_types.empty()) {
    std::fprintf(stderr, "parallax filter: give --types or --discard-types, not both\n");
    return 2;
  }
  const std::string& list = a.types.empty() ? a.discard_types : a.types;
  if (!list.empty() && !ParseTypes(list, &o.types)) {
    std::fprintf(stderr,
                 "parallax filter: bad event types \"%s\"\n  hint: types and ranges separated by "
                 "',', values after "
                 "':' (50000001,50000002-50000003;40000001:1,2)\n",
                 list.c_str());
    return 2;
  }
  o.discard_given_types = !a.discard_types.empty();
  o.keep_comms = !a.no_comms;
  o.min_comm_size = a.min_comm_size;
  o.max_comm_size = a.max_comm_size;
  if (a.max_comm_size >= 0 && a.max_comm_size < a.min_comm_size) {
    std::fprintf(stderr, "parallax filter: --max-comm-size is smaller than --min-comm-size\n");
    return 2;
  }
  if (!a.comm_tags.empty() && !ParseTags(a.comm_tags, &o.comm_tags)) {
    std::fprintf(stderr,
                 "parallax filter: bad --comm-tags \"%s\"\n  hint: tags separated by ',', "
                 "e.g. 5,7\n",
                 a.comm_tags.c_str());
    return 2;
  }
  if (!a.comm_partners.empty() && !ParsePartners(a.comm_partners, &o.comm_partners)) {
    std::fprintf(stderr,
                 "parallax filter: bad --comm-partners \"%s\"\n  hint: tasks or TASK.THREAD "
                 "(1-based) separated by ',', e.g. 1,3.2\n",
                 a.comm_partners.c_str());
    return 2;
  }
  ToolStep step;
  step.kind = ToolStep::Kind::kFilter;
  step.filter = o;
  std::string written;
  return RunToolChain("parallax filter", a.trace, {step}, a.output, a.force, &written);
}

}  // namespace

Command AddFilterCommand(CLI::App& app) {
  auto args = std::make_shared<FilterArgs>();
  CLI::App* sub = app.add_subcommand(
      "filter", "Keep or drop states, events and communications (Paraver's filter), streamed");
  sub->add_option("trace", args->trace, "input trace (.prv or .prv.gz)")->required();
  sub->add_option("-o,--output", args->output,
                  "output trace (.prv or .prv.gz); default NAME.filter1.prv");
  sub->add_option("--states", args->states,
                  "keep only these states: .pcf names or numbers, e.g. Running,3");
  sub->add_flag("--no-states", args->no_states, "drop every state record");
  sub->add_option("--min-state-time", args->min_state_time,
                  "drop states shorter than this (trace units)");
  sub->add_option("--types", args->types,
                  "keep only these event types, e.g. 50000001,50000002-50000003;40000001:1,2");
  sub->add_option("--discard-types", args->discard_types,
                  "drop these event types (same syntax), keep the others");
  sub->add_flag("--no-events", args->no_events, "drop every event");
  sub->add_flag("--no-comms", args->no_comms, "drop every communication");
  sub->add_option("--min-comm-size", args->min_comm_size,
                  "drop communications smaller than this (bytes)");
  sub->add_option("--max-comm-size", args->max_comm_size,
                  "drop communications larger than this (bytes)");
  sub->add_option("--comm-tags", args->comm_tags,
                  "keep only communications with these tags, e.g. 5,7");
  sub->add_option("--comm-partners", args->comm_partners,
                  "keep only communications sent or received by these tasks or TASK.THREAD, "
                  "e.g. 1,3.2");
  sub->add_flag("--force", args->force, "replace existing output files");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
