#include "apps/server/json_convert.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

namespace parallax::server {

using nlohmann::json;

namespace {

json Labels(const std::vector<LabelCount>& v) {
  json a = json::array();
  for (const auto& l : v) a.push_back({{"id", l.id}, {"label", l.label}, {"count", l.count}});
  return a;
}

// NaN and infinities are not JSON: they become null.
json Number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json Matrix(const std::vector<std::vector<double>>& m) {
  json rows = json::array();
  for (const auto& r : m) {
    json row = json::array();
    for (double v : r) row.push_back(Number(v));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

json ToJson(const TraceInfo& i) {
  json j = {{"path", i.path}, {"date", i.date}, {"end_time", i.end_time}, {"trace_end", i.trace_end},
            {"time_unit", i.time_unit}, {"nodes", i.nodes}, {"cpus", i.cpus}, {"appls", i.appls}, {"tasks", i.tasks},
            {"threads", i.threads}, {"communicators", i.communicators}, {"states", i.states},
            {"events", i.events}, {"event_pairs", i.event_pairs}, {"comms", i.comms},
            {"backward_physical", i.backward_physical}, {"backward_logical", i.backward_logical},
            {"global_comms", i.global_comms}, {"records", i.records}, {"file_bytes", i.file_bytes},
            {"store_bytes", i.store_bytes}, {"load_seconds", i.load_seconds}, {"has_pcf", i.has_pcf},
            {"has_row", i.has_row}, {"scanned", i.scanned}, {"cache_path", i.cache_path},
            {"cache_use", i.cache_use}};
  if (i.scanned) {  // a summary leaves them out rather than give zeros
    j["first_time"] = i.first_time;
    j["last_time"] = i.last_time;
    j["state_values"] = Labels(i.state_values);
    j["event_types"] = Labels(i.event_types);
  }
  j["diagnostics"] = json::array();
  for (const auto& d : i.diagnostics)
    j["diagnostics"].push_back({{"kind", d.kind}, {"severity", d.severity}, {"description", d.description},
                                {"count", d.count}, {"examples", d.examples}});
  return j;
}

json ToJson(const TextView& v) {
  json j = {{"window", v.window}, {"object", v.object}, {"function", v.function},
            {"time_unit", v.time_unit}, {"from", v.from}, {"to", v.to}};
  j["intervals"] = json::array();
  for (const auto& i : v.intervals)
    j["intervals"].push_back({{"begin", i.begin}, {"end", i.end}, {"value", Number(i.value)}, {"label", i.label}});
  j["events"] = json::array();
  for (const auto& e : v.events)
    j["events"].push_back({{"time", e.time}, {"thread", e.thread}, {"type", e.type}, {"value", e.value},
                           {"type_label", e.type_label}, {"value_label", e.value_label}});
  j["comms"] = json::array();
  for (const auto& c : v.comms)
    j["comms"].push_back({{"direction", c.send ? "send" : "recv"}, {"thread", c.thread}, {"partner", c.partner},
                          {"logical_send", c.log_send}, {"physical_send", c.phy_send},
                          {"logical_recv", c.log_recv}, {"physical_recv", c.phy_recv},
                          {"size", c.size}, {"tag", c.tag}});
  return j;
}

json ToJson(const std::vector<AnalyzeTable>& tables) {
  json out = json::array();
  for (const auto& t : tables) {
    json planes = json::array();
    for (const auto& p : t.planes) {
      json ranges = json::array();
      for (const auto& [lo, hi] : p.column_ranges) ranges.push_back({Number(lo), Number(hi)});
      planes.push_back({{"label", p.label}, {"columns", p.columns}, {"rows", p.rows},
                        {"row_objects", p.row_objects}, {"column_ranges", std::move(ranges)},
                        {"values", Matrix(p.values)}, {"total_names", p.total_names},
                        {"totals", Matrix(p.totals)}});
    }
    out.push_back({{"name", t.name}, {"statistic", t.statistic}, {"control_window", t.control_window},
                   {"data_window", t.data_window}, {"extra_window", t.extra_window},
                   {"planes", std::move(planes)}});
  }
  return out;
}

json ToJson(const std::vector<FunctionInfo>& functions) {
  json out = json::array();
  for (const auto& f : functions) {
    json params = json::array();
    for (const auto& p : f.params) params.push_back({{"name", p.name}, {"defaults", p.defaults}});
    json j = {{"name", f.name}, {"group", f.group}, {"params", std::move(params)}, {"info", f.info},
              {"stateful", f.stateful}, {"implemented", f.implemented}, {"doc", f.doc}};
    if (!f.origin.empty()) j["origin"] = f.origin;  // the plug-in library, or "python"
    out.push_back(std::move(j));
  }
  return out;
}

namespace {

json Numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(Number(x));
  return a;
}

json ToJson(const CfgCriterion& c) { return {{"op", c.op}, {"values", Numbers(c.values)}}; }

json ToJson(const CfgWindowSettings& w) {
  json functions = json::array();
  for (const auto& f : w.functions) functions.push_back({{"slot", f.slot}, {"name", f.name}, {"params", Matrix(f.params)}});
  const CfgFilter& f = w.filter;
  json filter = {{"logical", f.logical}, {"physical", f.physical}, {"from_to_and", f.from_to_and},
                 {"tag_size_and", f.tag_size_and}, {"type_value_and", f.type_value_and},
                 {"from", ToJson(f.from)}, {"to", ToJson(f.to)}, {"tag", ToJson(f.tag)},
                 {"size", ToJson(f.size)}, {"bandwidth", ToJson(f.bandwidth)},
                 {"event_type", ToJson(f.event_type)}, {"event_value", ToJson(f.event_value)}};
  return {{"name", w.name}, {"level", w.level}, {"unit", w.unit}, {"functions", std::move(functions)}, {"filter", std::move(filter)},
          {"derived", w.derived}, {"parent0", w.parent0}, {"parent1", w.parent1}, {"factor0", Number(w.factor0)},
          {"factor1", Number(w.factor1)}, {"color_mode", w.color_mode}, {"draw_mode", w.draw_mode},
          {"object_draw_mode", w.object_draw_mode}, {"flags", w.flags}, {"comm_lines", w.comm_lines},
          {"min_y", Number(w.min_y)}, {"max_y", Number(w.max_y)}, {"pixel_size", w.pixel_size}, {"open", w.open},
          {"synchronize", w.synchronize}, {"range_relative", w.range_relative},
          {"range_begin", Number(w.range_begin)}, {"range_end", Number(w.range_end)}};
}

json ToJson(const CfgHistogramSettings& h) {
  return {{"name", h.name}, {"statistic", h.statistic}, {"statistics", h.statistics}, {"control", h.control},
          {"data", h.data}, {"extra", h.extra}, {"communications", h.communications},
          {"hide_empty_columns", h.hide_empty_columns}, {"horizontal", h.horizontal},
          {"compute_scale", h.compute_scale}, {"minimum", Number(h.minimum)}, {"maximum", Number(h.maximum)},
          {"delta", Number(h.delta)}, {"sort_columns", h.sort_columns}, {"sort_reverse", h.sort_reverse},
          {"sort_criteria", h.sort_criteria}};
}

// Reading a CfgDocument: every Read names the field it reads in the error it throws.
struct FieldError {
  std::string message;
};

[[noreturn]] void Wrong(const std::string& path, const char* expected, const json& j) {
  throw FieldError{path + ": expected " + expected + ", got " + j.type_name()};
}

void Read(const json& j, const std::string& path, std::string* out) {
  if (!j.is_string()) Wrong(path, "a string", j);
  *out = j.get<std::string>();
}

void Read(const json& j, const std::string& path, bool* out) {
  if (!j.is_boolean()) Wrong(path, "true or false", j);
  *out = j.get<bool>();
}

void Read(const json& j, const std::string& path, double* out) {
  if (j.is_null()) {  // how ToJson writes NaN
    *out = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  if (!j.is_number()) Wrong(path, "a number", j);
  *out = j.get<double>();
}

// The object readers, declared before the templates that call them.
void Read(const json& j, const std::string& path, CfgFunction* f);
void Read(const json& j, const std::string& path, CfgCriterion* c);
void Read(const json& j, const std::string& path, CfgFilter* f);
void Read(const json& j, const std::string& path, CfgWindowSettings* w);
void Read(const json& j, const std::string& path, CfgHistogramSettings* h);

template <typename Int>
void ReadInteger(const json& j, const std::string& path, Int* out) {
  bool fits = false;
  if (j.is_number_unsigned()) {
    fits = j.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<Int>::max());
  } else if (j.is_number_integer()) {
    int64_t v = j.get<int64_t>();
    fits = v >= static_cast<int64_t>(std::numeric_limits<Int>::min()) &&
           v <= static_cast<int64_t>(std::numeric_limits<Int>::max());
  } else {
    Wrong(path, "an integer", j);
  }
  if (!fits) throw FieldError{path + ": " + j.dump() + " is out of range"};
  *out = j.get<Int>();
}

void Read(const json& j, const std::string& path, int* out) { ReadInteger(j, path, out); }
void Read(const json& j, const std::string& path, uint32_t* out) { ReadInteger(j, path, out); }

template <typename T>
void Read(const json& j, const std::string& path, std::vector<T>* out) {
  if (!j.is_array()) Wrong(path, "an array", j);
  out->assign(j.size(), T{});
  for (size_t i = 0; i < j.size(); ++i) Read(j[i], path + "[" + std::to_string(i) + "]", &(*out)[i]);
}

// The fields of one JSON object: Field() reads the ones present (null counts as absent) and
// Done() refuses the others, so a misspelt field is an error rather than silently ignored.
class ObjectReader {
 public:
  ObjectReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j.is_object()) Wrong(path_, "an object", j);
  }

  template <typename T>
  void Field(const char* key, T* out) {
    known_.insert(key);
    auto it = j_.find(key);
    if (it != j_.end() && !it->is_null()) Read(*it, path_ + "." + key, out);
  }

  void Done() const {
    for (const auto& [key, value] : j_.items())
      if (known_.count(key) == 0) throw FieldError{path_ + "." + key + ": unknown field"};
  }

 private:
  const json& j_;
  std::string path_;
  std::set<std::string> known_;
};

void Read(const json& j, const std::string& path, CfgFunction* f) {
  ObjectReader r(j, path);
  r.Field("slot", &f->slot);
  r.Field("name", &f->name);
  r.Field("params", &f->params);
  r.Done();
}

void Read(const json& j, const std::string& path, CfgCriterion* c) {
  ObjectReader r(j, path);
  r.Field("op", &c->op);
  r.Field("values", &c->values);
  r.Done();
}

void Read(const json& j, const std::string& path, CfgFilter* f) {
  ObjectReader r(j, path);
  r.Field("logical", &f->logical);
  r.Field("physical", &f->physical);
  r.Field("from_to_and", &f->from_to_and);
  r.Field("tag_size_and", &f->tag_size_and);
  r.Field("type_value_and", &f->type_value_and);
  r.Field("from", &f->from);
  r.Field("to", &f->to);
  r.Field("tag", &f->tag);
  r.Field("size", &f->size);
  r.Field("bandwidth", &f->bandwidth);
  r.Field("event_type", &f->event_type);
  r.Field("event_value", &f->event_value);
  r.Done();
}

void Read(const json& j, const std::string& path, CfgWindowSettings* w) {
  ObjectReader r(j, path);
  r.Field("name", &w->name);
  r.Field("level", &w->level);
  r.Field("functions", &w->functions);
  r.Field("filter", &w->filter);
  r.Field("derived", &w->derived);
  r.Field("unit", &w->unit);
  r.Field("parent0", &w->parent0);
  r.Field("parent1", &w->parent1);
  r.Field("factor0", &w->factor0);
  r.Field("factor1", &w->factor1);
  r.Field("color_mode", &w->color_mode);
  r.Field("draw_mode", &w->draw_mode);
  r.Field("object_draw_mode", &w->object_draw_mode);
  r.Field("flags", &w->flags);
  r.Field("comm_lines", &w->comm_lines);
  r.Field("min_y", &w->min_y);
  r.Field("max_y", &w->max_y);
  r.Field("pixel_size", &w->pixel_size);
  r.Field("open", &w->open);
  r.Field("synchronize", &w->synchronize);
  r.Field("range_relative", &w->range_relative);
  r.Field("range_begin", &w->range_begin);
  r.Field("range_end", &w->range_end);
  r.Done();
}

void Read(const json& j, const std::string& path, CfgHistogramSettings* h) {
  ObjectReader r(j, path);
  r.Field("name", &h->name);
  r.Field("statistic", &h->statistic);
  r.Field("statistics", &h->statistics);
  r.Field("control", &h->control);
  r.Field("data", &h->data);
  r.Field("extra", &h->extra);
  r.Field("communications", &h->communications);
  r.Field("hide_empty_columns", &h->hide_empty_columns);
  r.Field("horizontal", &h->horizontal);
  r.Field("compute_scale", &h->compute_scale);
  r.Field("minimum", &h->minimum);
  r.Field("maximum", &h->maximum);
  r.Field("delta", &h->delta);
  r.Field("sort_columns", &h->sort_columns);
  r.Field("sort_reverse", &h->sort_reverse);
  r.Field("sort_criteria", &h->sort_criteria);
  r.Done();
}

}  // namespace

json ToJson(const CfgDocument& doc) {
  json windows = json::array(), histograms = json::array();
  for (const auto& w : doc.windows) windows.push_back(ToJson(w));
  for (const auto& h : doc.histograms) histograms.push_back(ToJson(h));
  return {{"description", doc.description}, {"windows", std::move(windows)},
          {"histograms", std::move(histograms)}, {"notices", doc.notices}};
}

bool FromJson(const json& j, const std::string& path, CfgDocument* doc, std::string* error) {
  try {
    CfgDocument d;
    ObjectReader r(j, path);
    r.Field("description", &d.description);
    r.Field("windows", &d.windows);
    r.Field("histograms", &d.histograms);
    r.Field("notices", &d.notices);  // the reader's output, sent back unchanged; EditCfg ignores it
    r.Done();
    *doc = std::move(d);
    return true;
  } catch (const FieldError& e) {
    *error = e.message;
    return false;
  }
}

}  // namespace parallax::server
