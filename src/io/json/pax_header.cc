#include "src/io/json/pax_header.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include "src/io/prv/prv_checks.h"

namespace parallax::io {

namespace {

using nlohmann::json;

constexpr const char* kHint =
    "the file was written by Parallax and then changed or damaged: convert the trace again "
    "(parallax convert), or remove otherData.parallax to read it as a plain trace-event file";

// What a value is, for "..., not X": numbers, booleans and null as written, others by kind.
std::string Describe(const json& j) {
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  std::string text = j.dump();
  return text.size() > 40 ? text.substr(0, 40) + "..." : text;
}

// Reads members with their path ("appls[0][1]") for messages.
class Members {
 public:
  explicit Members(Location where) : where_(std::move(where)) {}
  const Location& where() const { return where_; }

  // The member `key` of `object`, or null when it is absent or null.
  static const json* Find(const json& object, const char* key) {
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }

  Status Wrong(const std::string& path, std::string_view expected, const json& got) const {
    return Status::Error(fmt::format("otherData.parallax.{} must be {}, not {}", path, expected, Describe(got)),
                         where_, kHint);
  }
  // A header rule broken (prv_checks.h), worded after "expected".
  Status Expected(const std::string& path, const std::string& rule) const {
    return Status::Error(fmt::format("bad header in otherData.parallax.{}: expected {}", path, rule), where_, kHint);
  }
  Status Problem(const std::string& path, const std::string& problem) const {
    return Status::Error(fmt::format("bad header in otherData.parallax.{}: {}", path, problem), where_, kHint);
  }

  Status Unsigned(const json& j, const std::string& path, uint64_t max, uint64_t* out) const {
    if (!j.is_number_unsigned() || j.get<uint64_t>() > max)
      return Wrong(path, fmt::format("an integer from 0 to {}", max), j);
    *out = j.get<uint64_t>();
    return Status::Ok();
  }
  Status String(const json& object, const char* key, std::string* out) const {
    const json* j = Find(object, key);
    if (j == nullptr) return Status::Ok();
    if (!j->is_string()) return Wrong(key, "a string", *j);
    *out = j->get<std::string>();
    return Status::Ok();
  }
  Status Bool(const json& object, const std::string& prefix, const char* key, bool* out) const {
    const json* j = Find(object, key);
    if (j == nullptr) return Status::Ok();
    if (!j->is_boolean()) return Wrong(prefix + key, "true or false", *j);
    *out = j->get<bool>();
    return Status::Ok();
  }

 private:
  Location where_;
};

#define PARALLAX_TRY(expr)   \
  do {                       \
    Status s_ = (expr);      \
    if (!s_.ok()) return s_; \
  } while (0)

Status ReadUnit(const json& pax, const Members& m, PaxHeader* out) {
  static constexpr std::pair<const char*, int64_t> kUnits[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}};
  std::string unit = "ns";
  PARALLAX_TRY(m.String(pax, "unit", &unit));
  bool known = false;
  for (const auto& [name, f] : kUnits)
    if (unit == name) out->ns_per_unit = f, known = true;
  if (!known)
    return Status::Error(fmt::format("otherData.parallax.unit must be \"ns\", \"us\" or \"ms\", not {}",
                                     json(unit.substr(0, 40)).dump()),
                         m.where(), kHint);
  out->header.unit = *model::ParseTimeUnit(unit);
  out->header.unit_suffix = "_" + unit;
  return m.String(pax, "unit_suffix", &out->header.unit_suffix);
}

Status ReadResources(const json& pax, const Members& m, model::TraceHeader* h) {
  const json* cpn = Members::Find(pax, "cpus_per_node");
  if (cpn == nullptr) return Status::Ok();  // no resource model ("0" in a .prv header)
  if (!cpn->is_array()) return m.Wrong("cpus_per_node", "an array of cpu counts, one per node", *cpn);
  if (std::string rule = NodeCountRule(cpn->size()); !rule.empty()) return m.Expected("cpus_per_node", rule);
  std::vector<uint32_t> cpus;
  uint64_t total = 0;
  for (size_t n = 0; n < cpn->size(); ++n) {
    const std::string path = fmt::format("cpus_per_node[{}]", n);
    uint64_t k = 0;
    PARALLAX_TRY(m.Unsigned((*cpn)[n], path, std::numeric_limits<uint64_t>::max(), &k));
    if (std::string rule = NodeCpuCountRule(n + 1, k); !rule.empty()) return m.Expected(path, rule);
    total += k;
    if (std::string rule = CpuTotalRule(total); !rule.empty()) return m.Expected("cpus_per_node", rule);
    cpus.push_back(static_cast<uint32_t>(k));
  }
  h->resources = model::ResourceModel(std::move(cpus));
  return Status::Ok();
}

Status ReadAppls(const json& appls, const Members& m, model::TraceHeader* h) {
  constexpr const char* kTasks = "an array of tasks, each a [threads, node] pair";
  if (!appls.is_array()) return m.Wrong("appls", "an array of applications, each " + std::string(kTasks), appls);
  if (std::string rule = ApplCountRule(appls.size()); !rule.empty()) return m.Expected("appls", rule);
  uint64_t threads = 0;
  for (size_t a = 0; a < appls.size(); ++a) {
    const std::string appl_path = fmt::format("appls[{}]", a);
    const json& appl = appls[a];
    if (!appl.is_array()) return m.Wrong(appl_path, kTasks, appl);
    if (std::string rule = TaskCountRule(a + 1, appl.size()); !rule.empty()) return m.Expected(appl_path, rule);
    std::vector<std::pair<uint32_t, uint32_t>> tasks;
    for (size_t t = 0; t < appl.size(); ++t) {
      const std::string path = fmt::format("{}[{}]", appl_path, t);
      const json& task = appl[t];
      if (!task.is_array() || task.size() != 2) return m.Wrong(path, "a [threads, node] pair", task);
      uint64_t n = 0, node = 0;
      PARALLAX_TRY(m.Unsigned(task[0], path + "[0]", std::numeric_limits<uint64_t>::max(), &n));
      PARALLAX_TRY(m.Unsigned(task[1], path + "[1]", kMaxHeaderObjects, &node));
      if (std::string rule = ThreadCountRule(a + 1, t + 1, n); !rule.empty()) return m.Expected(path + "[0]", rule);
      if (std::string problem = TaskNodeRule(h->resources, a + 1, t + 1, node); !problem.empty())
        return m.Problem(path + "[1]", problem);
      threads += n;
      if (std::string rule = ThreadTotalRule(threads); !rule.empty()) return m.Expected("appls", rule);
      tasks.emplace_back(static_cast<uint32_t>(n), static_cast<uint32_t>(node));
    }
    h->processes.AddAppl(tasks);
  }
  return Status::Ok();
}

Status ReadStrings(const json& pax, const Members& m, const char* key, std::vector<std::string>* out) {
  const json* list = Members::Find(pax, key);
  if (list == nullptr) return Status::Ok();
  if (!list->is_array()) return m.Wrong(key, "an array of strings", *list);
  if (list->size() > kMaxHeaderObjects) return m.Expected(key, fmt::format("at most {} entries", kMaxHeaderObjects));
  for (size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) return m.Wrong(fmt::format("{}[{}]", key, i), "a string", (*list)[i]);
    out->push_back((*list)[i].get<std::string>());
  }
  return Status::Ok();
}

Status ReadSpelling(const json& pax, const Members& m, model::TraceHeader* h) {
  const json* sp = Members::Find(pax, "spelling");
  if (sp == nullptr) return Status::Ok();
  if (!sp->is_object()) return m.Wrong("spelling", "an object", *sp);
  PARALLAX_TRY(m.Bool(*sp, "spelling.", "space_before_date", &h->space_before_date));
  PARALLAX_TRY(m.Bool(*sp, "spelling.", "resources_bare", &h->resources_bare));
  PARALLAX_TRY(m.Bool(*sp, "spelling.", "has_comm_count", &h->has_comm_count));
  if (const json* sep = Members::Find(*sp, "appl_separator")) {
    if (!sep->is_string() || sep->get<std::string>().size() != 1)
      return m.Wrong("spelling.appl_separator", "a string of one character", *sep);
    h->appl_separator = sep->get<std::string>()[0];
  }
  return Status::Ok();
}

Status ReadExtras(const json& pax, const Members& m, PaxHeader* out) {
  for (auto [key, text] : {std::pair{"pcf", &out->pcf}, std::pair{"row", &out->row}}) {
    if (const json* j = Members::Find(pax, key)) {
      if (!j->is_string()) return m.Wrong(key, "a string (the text of the file)", *j);
      *text = j->get<std::string>();
    }
  }
  if (const json* types = Members::Find(pax, "unsigned_value_types")) {
    if (!types->is_array()) return m.Wrong("unsigned_value_types", "an array of event types", *types);
    for (size_t i = 0; i < types->size(); ++i) {
      uint64_t t = 0;
      PARALLAX_TRY(m.Unsigned((*types)[i], fmt::format("unsigned_value_types[{}]", i), UINT32_MAX, &t));
      out->unsigned_value_types.push_back(static_cast<uint32_t>(t));
    }
  }
  return Status::Ok();
}

}  // namespace

bool IsPaxHeader(const json& parallax) { return parallax.is_object() && parallax.contains("appls"); }

Result<PaxHeader> ReadPaxHeader(const json& pax, const Location& where) {
  PaxHeader out;
  const Members m(where);
  model::TraceHeader& h = out.header;
  PARALLAX_TRY(ReadUnit(pax, m, &out));
  PARALLAX_TRY(m.String(pax, "date", &h.date));
  uint64_t end = 0;
  if (const json* j = Members::Find(pax, "end_time"))
    PARALLAX_TRY(m.Unsigned(*j, "end_time", std::numeric_limits<uint64_t>::max(), &end));
  h.end_time = end;
  PARALLAX_TRY(ReadResources(pax, m, &h));
  PARALLAX_TRY(ReadAppls(pax.at("appls"), m, &h));
  PARALLAX_TRY(ReadStrings(pax, m, "communicators", &h.communicators));
  PARALLAX_TRY(ReadSpelling(pax, m, &h));
  PARALLAX_TRY(ReadExtras(pax, m, &out));
  return out;
}

}  // namespace parallax::io
