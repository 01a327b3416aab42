// Reader of paramedir's XML parameter files with pugixml. Unlike the reference reader, every
// element is read (the reference skips the first child of some sections), and an unknown
// element or a bad value is an error naming the file, line and key.
//
// Accepted structure:
//   <config>
//     <cutter> tasks max_trace_size by_time minimum_time maximum_time
//              minimum_time_percentage maximum_time_percentage original_time break_states
//              remove_first_states remove_last_states keep_events </cutter>
//     <filter> discard_states discard_events discard_communications
//              <states>All | name,name...<min_state_time>N</min_state_time></states>
//              <types [use="discard"]><type [min_time="N"]>T | T1-T2
//              [<value>V</value>...]</type></types> <comms>min size</comms> </filter>
//     <software_counters>
//       <range> by_intervals_vs_by_states sampling_interval minimum_burst_time events
//               acumm_events count_events (types separated by ';' or ',') </range>
//       <algorithm> count_events_vs_acummulate_values remove_states summarize_useful_states
//                   global_counters only_in_burst_counting keep_events </algorithm>
//     </software_counters>
//   </config>

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "include/parallax/tools.h"
#include "src/base/regular_file.h"

namespace parallax {

namespace {

class XmlContext {
 public:
  XmlContext(const std::string& text, const std::string& file) : text_(text), file_(file) {}

  uint64_t Line(const pugi::xml_node& n) const {
    auto off = static_cast<size_t>(std::max<ptrdiff_t>(0, n.offset_debug()));
    off = std::min(off, text_.size());
    return 1 + static_cast<uint64_t>(
                   std::count(text_.begin(), text_.begin() + static_cast<ptrdiff_t>(off), '\n'));
  }
  Status Error(const pugi::xml_node& n, const std::string& what, const std::string& hint) const {
    return Status::Error(what, {file_, Line(n), 0}, hint);
  }
  // The element's own text (its first text child), trimmed.
  static std::string Text(const pugi::xml_node& n) {
    std::string s;
    for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) s += c.value();
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }
  Status Unsigned(const pugi::xml_node& n, uint64_t* v) const {
    std::string s = Text(n);
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
      return Error(
          n,
          std::string("bad value \"") + s + "\" for <" + n.name() +
              ">: expected a non-negative integer",
          "write a whole number, e.g. <" + std::string(n.name()) + ">0</" + n.name() + ">");
    }
    return Status::Ok();
  }
  Status Bool(const pugi::xml_node& n, bool* v) const {
    std::string s = Text(n);
    if (s != "0" && s != "1") {
      return Error(n,
                   std::string("bad value \"") + s + "\" for <" + n.name() + ">: expected 0 or 1",
                   "write <" + std::string(n.name()) + ">1</" + n.name() + "> or 0");
    }
    *v = s == "1";
    return Status::Ok();
  }
  Status Percent(const pugi::xml_node& n, double* v) const {
    uint64_t x = 0;
    Status s = Unsigned(n, &x);
    if (!s.ok()) return s;
    if (x > 100)
      return Error(n, std::string("bad percentage for <") + n.name() + ">: above 100",
                   "write 0..100");
    *v = static_cast<double>(x);
    return Status::Ok();
  }
  Status Unknown(const pugi::xml_node& n, const char* section, const char* known) const {
    return Error(n, std::string("unknown key <") + n.name() + "> in <" + section + ">",
                 std::string("the keys of <") + section + "> are: " + known);
  }
  // "T;T:V,V;T1-T2" (as the reference: items separated by ';', values after ':') into selectors.
  Status TypeList(const pugi::xml_node& n, std::vector<EventTypeSelector>* out) const {
    std::string s = Text(n);
    size_t pos = 0;
    while (pos <= s.size()) {
      size_t end = s.find(';', pos);
      if (end == std::string::npos) end = s.size();
      std::string item = s.substr(pos, end - pos);
      item.erase(
          std::remove_if(item.begin(), item.end(),
                         [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }),
          item.end());
      if (!item.empty()) {
        EventTypeSelector sel;
        size_t colon = item.find(':');
        bool ok = ParseTypeRange(item.substr(0, colon), &sel);
        if (ok && colon != std::string::npos) {
          std::string values = item.substr(colon + 1);
          size_t vp = 0;
          while (ok && vp <= values.size()) {
            size_t ve = values.find(',', vp);
            if (ve == std::string::npos) ve = values.size();
            int64_t v = 0;
            auto r = std::from_chars(values.data() + vp, values.data() + ve, v);
            ok = ve > vp && r.ec == std::errc() && r.ptr == values.data() + ve;
            sel.values.push_back(v);
            vp = ve + 1;
          }
        }
        if (!ok) {
          return Error(n, "bad event type \"" + item + "\" in <" + n.name() + ">",
                       "write event types separated by ';', each optionally with values: "
                       "50000001;50000002:7,8");
        }
        out->push_back(sel);
      }
      pos = end + 1;
    }
    return Status::Ok();
  }
  static bool ParseTypeRange(const std::string& item, EventTypeSelector* sel) {
    size_t dash = item.find('-');
    auto num = [](const std::string& t, uint64_t* v) {
      auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
      return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size();
    };
    if (dash == std::string::npos) return num(item, &sel->type);
    return num(item.substr(0, dash), &sel->type) && num(item.substr(dash + 1), &sel->last_type) &&
           sel->last_type >= sel->type;
  }

 private:
  const std::string& text_;
  const std::string& file_;
};

#define PX_TRY(expr)         \
  do {                       \
    Status _s = (expr);      \
    if (!_s.ok()) return _s; \
  } while (false)

Status ReadTasks(const XmlContext& x, const pugi::xml_node& n, std::vector<TaskRange>* tasks) {
  std::string s = XmlContext::Text(n);
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    EventTypeSelector sel;
    std::string item = s.substr(pos, end - pos);
    if (!XmlContext::ParseTypeRange(item, &sel) || sel.type == 0) {
      return x.Error(n, "bad task list \"" + s + "\" in <tasks>",
                     "write task numbers or ranges: 1,3-5");
    }
    tasks->push_back({static_cast<uint32_t>(sel.type),
                      static_cast<uint32_t>(sel.last_type ? sel.last_type : sel.type)});
    pos = end + 1;
  }
  return Status::Ok();
}

Status ReadCutter(const XmlContext& x, const pugi::xml_node& sec, CutOptions* o) {
  static const char* kKeys =
      "tasks, max_trace_size, by_time, minimum_time, maximum_time, minimum_time_percentage, "
      "maximum_time_percentage, original_time, break_states, remove_first_states, "
      "remove_last_states, keep_events";
  // As the reference, a cutter section without <original_time> keeps the original times.
  o->original_time = true;
  for (pugi::xml_node n : sec.children()) {
    if (n.type() != pugi::node_element) continue;
    std::string k = n.name();
    if (k == "tasks")
      PX_TRY(ReadTasks(x, n, &o->tasks));
    else if (k == "max_trace_size")
      PX_TRY(x.Unsigned(n, &o->max_trace_size_mb));
    else if (k == "by_time")
      PX_TRY(x.Bool(n, &o->by_time));
    else if (k == "minimum_time")
      PX_TRY(x.Unsigned(n, &o->begin));
    else if (k == "maximum_time")
      PX_TRY(x.Unsigned(n, &o->end));
    else if (k == "minimum_time_percentage")
      PX_TRY(x.Percent(n, &o->begin_percent));
    else if (k == "maximum_time_percentage")
      PX_TRY(x.Percent(n, &o->end_percent));
    else if (k == "original_time")
      PX_TRY(x.Bool(n, &o->original_time));
    else if (k == "break_states")
      PX_TRY(x.Bool(n, &o->break_states));
    else if (k == "remove_first_states")
      PX_TRY(x.Bool(n, &o->remove_first_states));
    else if (k == "remove_last_states")
      PX_TRY(x.Bool(n, &o->remove_last_states));
    else if (k == "keep_events")
      PX_TRY(x.Bool(n, &o->keep_events));
    else
      return x.Unknown(n, "cutter", kKeys);
  }
  return Status::Ok();
}

Status ReadStates(const XmlContext& x, const pugi::xml_node& n, FilterOptions* o) {
  std::string text = XmlContext::Text(n);
  o->all_states = false;
  o->state_names.clear();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string name = text.substr(pos, end - pos);
    size_t b = name.find_first_not_of(" \t\r\n"), e = name.find_last_not_of(" \t\r\n");
    name = b == std::string::npos ? std::string() : name.substr(b, e - b + 1);
    if (name == "All")
      o->all_states = true;
    else if (!name.empty())
      o->state_names.push_back(name);
    pos = end + 1;
  }
  if (!o->all_states && o->state_names.empty()) {
    return x.Error(n, "<states> names no state",
                   "write All, or state names separated by ',' (e.g. Running)");
  }
  for (pugi::xml_node c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    if (std::string(c.name()) != "min_state_time") return x.Unknown(c, "states", "min_state_time");
    PX_TRY(x.Unsigned(c, &o->min_state_time));
  }
  return Status::Ok();
}

Status ReadTypes(const XmlContext& x, const pugi::xml_node& n, FilterOptions* o) {
  std::string use = n.attribute("use").value();
  if (!use.empty() && use != "discard" && use != "keep") {
    return x.Error(n, "bad use=\"" + use + "\" on <types>",
                   "write use=\"discard\" or leave it out");
  }
  o->discard_given_types = use == "discard";
  for (pugi::xml_node t : n.children()) {
    if (t.type() != pugi::node_element) continue;
    if (std::string(t.name()) != "type") return x.Unknown(t, "types", "type");
    EventTypeSelector sel;
    std::string item = XmlContext::Text(t);
    if (!XmlContext::ParseTypeRange(item, &sel)) {
      return x.Error(t, "bad event type \"" + item + "\" in <type>",
                     "write a type number or a range T1-T2");
    }
    for (pugi::xml_node v : t.children()) {
      if (v.type() != pugi::node_element) continue;
      if (std::string(v.name()) != "value") return x.Unknown(v, "type", "value");
      std::string s = XmlContext::Text(v);
      int64_t val = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), val);
      if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
        return x.Error(v, "bad event value \"" + s + "\"", "write an integer");
      }
      sel.values.push_back(val);
    }
    o->types.push_back(sel);
  }
  return Status::Ok();
}

Status ReadFilter(const XmlContext& x, const pugi::xml_node& sec, FilterOptions* o) {
  static const char* kKeys =
      "discard_states, discard_events, discard_communications, states, types, comms";
  for (pugi::xml_node n : sec.children()) {
    if (n.type() != pugi::node_element) continue;
    std::string k = n.name();
    bool b = false;
    if (k == "discard_states") {
      PX_TRY(x.Bool(n, &b));
      o->keep_states = !b;
    } else if (k == "discard_events") {
      PX_TRY(x.Bool(n, &b));
      o->keep_events = !b;
    } else if (k == "discard_communications") {
      PX_TRY(x.Bool(n, &b));
      o->keep_comms = !b;
    } else if (k == "states") {
      PX_TRY(ReadStates(x, n, o));
    } else if (k == "types") {
      PX_TRY(ReadTypes(x, n, o));
    } else if (k == "comms") {
      uint64_t v = 0;
      PX_TRY(x.Unsigned(n, &v));
      o->min_comm_size = static_cast<int64_t>(v);
    } else {
      return x.Unknown(n, "filter", kKeys);
    }
  }
  return Status::Ok();
}

Status ReadSoftCounters(const XmlContext& x, const pugi::xml_node& sec, SoftCountersOptions* o) {
  std::vector<EventTypeSelector> compat;
  bool compat_accum = true;
  for (pugi::xml_node part : sec.children()) {
    if (part.type() != pugi::node_element) continue;
    std::string p = part.name();
    if (p != "range" && p != "algorithm")
      return x.Unknown(part, "software_counters", "range, algorithm");
    for (pugi::xml_node n : part.children()) {
      if (n.type() != pugi::node_element) continue;
      std::string k = n.name();
      if (p == "range") {
        if (k == "by_intervals_vs_by_states")
          PX_TRY(x.Bool(n, &o->by_intervals));
        else if (k == "sampling_interval")
          PX_TRY(x.Unsigned(n, &o->sampling_interval));
        else if (k == "minimum_burst_time")
          PX_TRY(x.Unsigned(n, &o->minimum_burst_time));
        else if (k == "events")
          PX_TRY(x.TypeList(n, &compat));
        else if (k == "acumm_events" || k == "accum_events")
          PX_TRY(x.TypeList(n, &o->accum_types));
        else if (k == "count_events")
          PX_TRY(x.TypeList(n, &o->count_types));
        else
          return x.Unknown(
              n, "range",
              "by_intervals_vs_by_states, sampling_interval, minimum_burst_time, events, "
              "acumm_events, count_events");
      } else {
        if (k == "count_events_vs_acummulate_values")
          PX_TRY(x.Bool(n, &compat_accum));
        else if (k == "remove_states")
          PX_TRY(x.Bool(n, &o->remove_states));
        else if (k == "summarize_useful_states")
          PX_TRY(x.Bool(n, &o->summarize_useful_states));
        else if (k == "global_counters")
          PX_TRY(x.Bool(n, &o->global_counters));
        else if (k == "only_in_burst_counting")
          PX_TRY(x.Bool(n, &o->only_in_burst_counting));
        else if (k == "keep_events") {
          std::vector<EventTypeSelector> kept;
          PX_TRY(x.TypeList(n, &kept));
          for (const auto& s : kept) o->keep_types.push_back(s.type);
        } else {
          return x.Unknown(
              n, "algorithm",
              "count_events_vs_acummulate_values, remove_states, summarize_useful_states, "
              "global_counters, only_in_burst_counting, keep_events");
        }
      }
    }
  }
  auto& target = compat_accum ? o->accum_types : o->count_types;
  target.insert(target.end(), compat.begin(), compat.end());
  return Status::Ok();
}

}  // namespace

Result<std::vector<ToolStep>> ParseToolXml(const std::string& text, const std::string& name) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default);
  XmlContext x(text, name);
  if (!parsed) {
    uint64_t line =
        1 +
        static_cast<uint64_t>(std::count(
            text.begin(),
            text.begin() + std::min<ptrdiff_t>(parsed.offset, static_cast<ptrdiff_t>(text.size())),
            '\n'));
    return Status::Error(std::string("not well-formed XML: ") + parsed.description(),
                         {name, line, 0}, "a paramedir parameter file is XML with a <config> root");
  }
  pugi::xml_node root = doc.document_element();
  if (std::string(root.name()) != "config") {
    return x.Error(root, std::string("the root element is <") + root.name() + ">, not <config>",
                   "a paramedir parameter file has a <config> root");
  }
  std::vector<ToolStep> steps;
  for (pugi::xml_node sec : root.children()) {
    if (sec.type() != pugi::node_element) continue;
    std::string k = sec.name();
    ToolStep step;
    if (k == "cutter") {
      step.kind = ToolStep::Kind::kCut;
      PX_TRY(ReadCutter(x, sec, &step.cut));
    } else if (k == "filter") {
      step.kind = ToolStep::Kind::kFilter;
      PX_TRY(ReadFilter(x, sec, &step.filter));
    } else if (k == "software_counters") {
      step.kind = ToolStep::Kind::kSoftCounters;
      PX_TRY(ReadSoftCounters(x, sec, &step.softcounters));
    } else {
      return x.Unknown(sec, "config", "cutter, filter, software_counters");
    }
    // As the reference: a repeated section replaces the earlier one.
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [&](const ToolStep& s) { return s.kind == step.kind; }),
                steps.end());
    steps.push_back(std::move(step));
  }
  if (steps.empty()) {
    return x.Error(root,
                   "the parameter file has no <cutter>, <filter> or <software_counters> section",
                   "add the section of the tool to run");
  }
  return steps;
}

Result<std::vector<ToolStep>> ReadToolXml(const std::string& path) {
  constexpr size_t kMaxXmlBytes = size_t{64} << 20;  // paramedir's files are a few kilobytes
  auto text = base::ReadRegularFile(path, kMaxXmlBytes);
  if (!text.ok()) return text.status();
  return ParseToolXml(text.value(), path);
}

}  // namespace parallax
