#include "src/io/paje/paje_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "src/base/input_buffer.h"

namespace parallax::io {

namespace {

enum class Kind : uint8_t {
  kDefineContainerType, kDefineStateType, kDefineEventType, kDefineVariableType, kDefineLinkType,
  kDefineEntityValue, kCreateContainer, kDestroyContainer, kSetState, kPushState, kPopState,
  kResetState, kNewEvent, kSetVariable, kAddVariable, kSubVariable, kStartLink, kEndLink, kUnknown
};

Kind KindOf(std::string_view name) {
  static const std::pair<std::string_view, Kind> kNames[] = {
      {"PajeDefineContainerType", Kind::kDefineContainerType}, {"PajeDefineStateType", Kind::kDefineStateType},
      {"PajeDefineEventType", Kind::kDefineEventType},         {"PajeDefineVariableType", Kind::kDefineVariableType},
      {"PajeDefineLinkType", Kind::kDefineLinkType},           {"PajeDefineEntityValue", Kind::kDefineEntityValue},
      {"PajeCreateContainer", Kind::kCreateContainer},         {"PajeDestroyContainer", Kind::kDestroyContainer},
      {"PajeSetState", Kind::kSetState},                       {"PajePushState", Kind::kPushState},
      {"PajePopState", Kind::kPopState},                       {"PajeResetState", Kind::kResetState},
      {"PajeNewEvent", Kind::kNewEvent},                       {"PajeSetVariable", Kind::kSetVariable},
      {"PajeAddVariable", Kind::kAddVariable},                 {"PajeSubVariable", Kind::kSubVariable},
      {"PajeStartLink", Kind::kStartLink},                     {"PajeEndLink", Kind::kEndLink}};
  for (const auto& [n, k] : kNames)
    if (n == name) return k;
  return Kind::kUnknown;
}

// Field positions of one %EventDef (-1 when absent).
struct Def {
  Kind kind = Kind::kUnknown;
  std::string name;
  size_t fields = 0;
  int time = -1, container = -1, type = -1, value = -1, alias = -1, name_field = -1, start = -1, end = -1,
      key = -1, size = -1;
};

// The fields the reader uses, by name. Pajé's first format named some of them otherwise
// (lang-paje's change log, versions 1.2 and 1.2.1); pajeng still reads those names outside its
// strict mode (pj_dump --no-strict), and so does Parallax. (SourceContainerType and
// DestContainerType, the old StartContainerType and EndContainerType, are not used: links need
// only their containers.)
constexpr std::pair<std::string_view, int Def::*> kFieldNames[] = {
    {"Time", &Def::time},   {"Container", &Def::container},  {"Type", &Def::type},
    {"Value", &Def::value}, {"Alias", &Def::alias},          {"Name", &Def::name_field},
    {"Key", &Def::key},     {"StartContainer", &Def::start},  {"EndContainer", &Def::end},
    {"Size", &Def::size},   {"SourceContainer", &Def::start}, {"DestContainer", &Def::end},
    {"ContainerType", &Def::type}, {"EntityType", &Def::type}};

enum class TypeKind : uint8_t { kContainer, kState, kEvent, kVariable, kLink };

struct TypeInfo {
  TypeKind kind;
  std::string name;
  uint32_t index_of_kind = 0;  // n-th state/event/variable type (event type numbers)
};

struct Container {
  std::string name;
  int64_t parent = -1;  // -1: the root "0"
  uint32_t children = 0;
  bool has_data = false;
};

struct Rec {
  int64_t time = 0;
  double number = 0;  // variables
  int64_t value = 0;  // value name id
  uint64_t line = 0;
  uint32_t container = 0;
  uint32_t type = 0;
  uint32_t other = 0;  // link start/end container
  uint32_t key = 0;
  int64_t size = 0;
  Kind kind = Kind::kUnknown;
};

// Rec::container of records of the root container "0".
constexpr uint32_t kRoot = UINT32_MAX;

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

class PajeImporter {
 public:
  PajeImporter(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}
  Result<ImportedTrace> Run();

 private:
  Status Error(uint64_t line, uint64_t column, std::string what, std::string hint = {}) const {
    return Status::Error(std::move(what), Location{file_, line, column}, std::move(hint));
  }
  // Splits an event line into fields; false when a quote is not closed.
  bool Split(std::string_view line);
  void Event(uint64_t line_no);
  int64_t FindContainer(std::string_view name) const;
  int64_t FindType(std::string_view name) const;
  bool ParseTime(std::string_view s, int64_t* out) const;
  Result<ImportedTrace> Build();

  std::string_view text_;
  std::string file_;
  Diagnostics diags_;
  std::unordered_map<std::string, Def> defs_;  // by id
  std::vector<std::string_view> fields_;
  std::vector<TypeInfo> types_;
  // Lookups try aliases first, then names (a name may equal another object's alias).
  std::unordered_map<std::string, uint32_t> type_aliases_, type_names_;
  std::vector<Container> containers_;
  std::unordered_map<std::string, uint32_t> container_aliases_, container_names_;
  std::map<std::pair<uint32_t, std::string>, std::string> value_names_;  // (type, alias) -> name
  NameTable values_{1};
  NameTable keys_{0};
  std::vector<Rec> recs_;
  uint32_t kind_counts_[5] = {};
  int64_t last_time_ = 0;
  uint64_t lines_ = 0;
};

bool PajeImporter::Split(std::string_view line) {
  fields_.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    if (i >= line.size()) break;
    if (line[i] == '"') {
      size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) return false;
      fields_.push_back(line.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      size_t b = i;
      while (i < line.size() && !IsBlank(line[i])) ++i;
      fields_.push_back(line.substr(b, i - b));
    }
  }
  return true;
}

int64_t Find(const std::unordered_map<std::string, uint32_t>& aliases,
             const std::unordered_map<std::string, uint32_t>& names, std::string_view key) {
  std::string k(key);
  auto it = aliases.find(k);
  if (it != aliases.end()) return it->second;
  it = names.find(k);
  return it == names.end() ? -1 : static_cast<int64_t>(it->second);
}

int64_t PajeImporter::FindContainer(std::string_view name) const {
  return Find(container_aliases_, container_names_, name);
}

int64_t PajeImporter::FindType(std::string_view name) const { return Find(type_aliases_, type_names_, name); }

bool PajeImporter::ParseTime(std::string_view s, int64_t* out) const {
  std::string tmp(s);
  char* end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (tmp.empty() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 9.0e9) return false;
  *out = std::llround(v * 1e9);
  return true;
}

void PajeImporter::Event(uint64_t line_no) {
  auto def_it = defs_.find(std::string(fields_[0]));
  if (def_it == defs_.end()) {
    diags_.Add(DiagKind::kUnknownRecordType, line_no, 1, fmt::format("no %EventDef with id {}", fields_[0]));
    return;
  }
  const Def& d = def_it->second;
  size_t n = fields_.size() - 1;
  if (n < d.fields) {
    diags_.Add(DiagKind::kTooFewFields, line_no, 0,
               fmt::format("{} needs {} fields, the line has {}", d.name, d.fields, n));
    return;
  }
  if (n > d.fields) diags_.Add(DiagKind::kExtraFields, line_no, 0, fmt::format("{} has {} fields, the line has {}", d.name, d.fields, n));
  auto f = [&](int i) { return i < 0 ? std::string_view() : fields_[static_cast<size_t>(i) + 1]; };
  auto undefined = [&](std::string_view what, std::string_view name) {
    diags_.Add(DiagKind::kUndefinedName, line_no, 0, fmt::format("{} \"{}\" is not defined", what, name));
  };
  auto add_type = [&](TypeKind k) {
    uint32_t id = static_cast<uint32_t>(types_.size());
    std::string name(d.name_field >= 0 ? f(d.name_field) : f(d.alias));
    types_.push_back(TypeInfo{k, name, kind_counts_[static_cast<int>(k)]++});
    type_names_[name] = id;
    if (d.alias >= 0) type_aliases_[std::string(f(d.alias))] = id;
  };
  switch (d.kind) {
    case Kind::kDefineContainerType: add_type(TypeKind::kContainer); return;
    case Kind::kDefineStateType: add_type(TypeKind::kState); return;
    case Kind::kDefineEventType: add_type(TypeKind::kEvent); return;
    case Kind::kDefineVariableType: add_type(TypeKind::kVariable); return;
    case Kind::kDefineLinkType: add_type(TypeKind::kLink); return;
    case Kind::kDefineEntityValue: {
      int64_t t = FindType(f(d.type));
      if (t < 0) return undefined("type", f(d.type));
      std::string name(d.name_field >= 0 ? f(d.name_field) : f(d.alias));
      if (d.alias >= 0) value_names_[{static_cast<uint32_t>(t), std::string(f(d.alias))}] = name;
      value_names_[{static_cast<uint32_t>(t), name}] = name;
      return;
    }
    case Kind::kUnknown:
      diags_.Add(DiagKind::kUnsupportedRecord, line_no, 1, fmt::format("{} is not mapped", d.name));
      return;
    default: break;
  }
  Rec r;
  r.kind = d.kind;
  r.line = line_no;
  if (d.time < 0 || !ParseTime(f(d.time), &r.time)) {
    diags_.Add(DiagKind::kSyntax, line_no, 0, fmt::format("expected a non-negative time in seconds, got \"{}\"", f(d.time)));
    return;
  }
  last_time_ = std::max(last_time_, r.time);
  if (d.kind == Kind::kCreateContainer) {
    std::string_view parent = f(d.container);
    int64_t p = parent == "0" ? -1 : FindContainer(parent);
    if (p < 0 && parent != "0") return undefined("container", parent);
    uint32_t id = static_cast<uint32_t>(containers_.size());
    std::string name(d.name_field >= 0 ? f(d.name_field) : f(d.alias));
    containers_.push_back(Container{name, p, 0, false});
    if (p >= 0) ++containers_[static_cast<size_t>(p)].children;
    container_names_[name] = id;
    if (d.alias >= 0) container_aliases_[std::string(f(d.alias))] = id;
    return;
  }
  // DestroyContainer names the container in its Name (or Container) field.
  std::string_view cname = d.kind == Kind::kDestroyContainer && d.name_field >= 0 ? f(d.name_field) : f(d.container);
  bool link = d.kind == Kind::kStartLink || d.kind == Kind::kEndLink;
  int64_t c = FindContainer(cname);
  // Links usually live in the root container "0"; only their end points matter. Destroying the
  // root is valid (pajeng destroys every container with it).
  if (c < 0 && !((link || d.kind == Kind::kDestroyContainer) && cname == "0")) return undefined("container", cname);
  r.container = c < 0 ? kRoot : static_cast<uint32_t>(c);
  if (d.kind == Kind::kDestroyContainer) {
    recs_.push_back(r);
    return;
  }
  int64_t t = FindType(f(d.type));
  if (t < 0) return undefined("type", f(d.type));
  r.type = static_cast<uint32_t>(t);
  auto value_id = [&](std::string_view v) {
    auto it = value_names_.find({r.type, std::string(v)});
    return values_.Id(it != value_names_.end() ? it->second : v);
  };
  switch (d.kind) {
    case Kind::kSetState:
    case Kind::kPushState:
    case Kind::kNewEvent:
      r.value = value_id(f(d.value));
      [[fallthrough]];
    case Kind::kPopState:
    case Kind::kResetState:
      containers_[r.container].has_data = true;
      break;
    case Kind::kSetVariable:
    case Kind::kAddVariable:
    case Kind::kSubVariable: {
      std::string v(f(d.value));
      char* end = nullptr;
      r.number = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !std::isfinite(r.number)) {
        diags_.Add(DiagKind::kSyntax, line_no, 0, fmt::format("expected a number as variable value, got \"{}\"", v));
        return;
      }
      containers_[r.container].has_data = true;
      break;
    }
    case Kind::kStartLink:
    case Kind::kEndLink: {
      std::string_view other = d.kind == Kind::kStartLink ? f(d.start) : f(d.end);
      int64_t o = FindContainer(other);
      if (o < 0) return undefined("container", other);
      r.other = static_cast<uint32_t>(o);
      containers_[r.other].has_data = true;
      // pajeng keeps pending links per container (the link's Container field) and link type.
      r.key = static_cast<uint32_t>(keys_.Id(fmt::format("{}\x1f{}\x1f{}", r.container, r.type, f(d.key))));
      if (d.size >= 0) r.size = std::atoll(std::string(f(d.size)).c_str());
      break;
    }
    default: break;
  }
  recs_.push_back(r);
}

Result<ImportedTrace> PajeImporter::Run() {
  size_t pos = 0;
  uint64_t line_no = 0;
  Def* open_def = nullptr;
  uint64_t def_line = 0;
  while (pos < text_.size()) {
    size_t nl = text_.find('\n', pos);
    std::string_view line = text_.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text_.size() : nl + 1;
    ++line_no;
    size_t b = 0;
    while (b < line.size() && IsBlank(line[b])) ++b;
    line.remove_prefix(b);
    while (!line.empty() && IsBlank(line.back())) line.remove_suffix(1);
    if (line.empty()) {
      diags_.Count(DiagKind::kBlankLine);
      continue;
    }
    if (line[0] == '#') {
      diags_.Count(DiagKind::kCommentLine);
      continue;
    }
    if (line[0] == '%') {
      if (!Split(line.substr(1))) return Error(line_no, 1, "unclosed '\"' in a header line");
      if (fields_.empty()) return Error(line_no, 2, "expected EventDef, EndEventDef or a field definition after '%'");
      if (fields_[0] == "EventDef") {
        if (open_def) return Error(line_no, 2, "%EventDef inside another %EventDef", fmt::format("close the one of line {} with %EndEventDef", def_line));
        if (fields_.size() != 3) return Error(line_no, 2, "expected `%EventDef NAME ID`");
        Def& d = defs_[std::string(fields_[2])];
        d = Def{};
        d.kind = KindOf(fields_[1]);
        d.name = std::string(fields_[1]);
        open_def = &d;
        def_line = line_no;
      } else if (fields_[0] == "EndEventDef") {
        if (!open_def) return Error(line_no, 2, "%EndEventDef without %EventDef");
        open_def = nullptr;
      } else {
        if (!open_def) return Error(line_no, 2, "a field definition outside %EventDef ... %EndEventDef");
        if (fields_.size() != 2) return Error(line_no, 2, "expected `% FIELD TYPE` (a field name and its type)");
        int index = static_cast<int>(open_def->fields++);
        for (const auto& [name, member] : kFieldNames)
          if (name == fields_[0]) open_def->*member = index;
      }
      continue;
    }
    if (open_def) return Error(line_no, 1, "an event line inside %EventDef", fmt::format("close the %EventDef of line {} with %EndEventDef", def_line));
    if (!Split(line)) {
      diags_.Add(DiagKind::kSyntax, line_no, 0, "unclosed '\"'");
      continue;
    }
    Event(line_no);
  }
  if (open_def) return Error(def_line, 1, "%EventDef without %EndEventDef");
  lines_ = line_no;
  return Build();
}


// The state stacks of every (container, state type), replayed in time order. The top of the
// stack of a container's main state type (the first one it uses) is its Paraver state; every
// change of any stack is an event of its state type. A state of the main type that ends when it
// begins cannot be a Paraver state: it stays an event, and is counted.
class StateStacks {
 public:
  StateStacks(TraceBuilder& b, const std::vector<int64_t>& thread_of, const std::vector<TypeInfo>& types,
              const NameTable& values, Diagnostics& diags)
      : b_(b), thread_of_(thread_of), types_(types), values_(values), diags_(diags) {}

  // A Set, Push, Pop or Reset of the stack of r.type in r.container.
  void Apply(const Rec& r) {
    Stack& st = stacks_[{r.container, r.type}];
    if (r.kind == Kind::kPopState && st.entries.empty()) {
      diags_.Add(DiagKind::kUnmatchedEnd, r.line, 0, "PopState with no state pushed on the container");
      return;
    }
    size_t keep = r.kind == Kind::kPushState ? st.entries.size() : r.kind == Kind::kPopState ? st.entries.size() - 1 : 0;
    bool push = r.kind == Kind::kSetState || r.kind == Kind::kPushState;
    Entry e{r.value, r.time, r.line};
    Change(r.container, r.type, st, r.time, keep, push ? &e : nullptr);
  }
  // Ends every state of container c at t.
  void End(uint32_t c, int64_t t) {
    for (auto it = stacks_.lower_bound({c, 0}); it != stacks_.end() && it->first.first == c; ++it)
      if (!it->second.entries.empty()) Change(c, it->first.second, it->second, t, 0, nullptr);
  }
  void EndAll(int64_t t) {
    for (auto& [key, st] : stacks_)
      if (!st.entries.empty()) Change(key.first, key.second, st, t, 0, nullptr);
  }

 private:
  struct Entry {
    int64_t value = 0;
    int64_t begin = 0;
    uint64_t line = 0;
  };
  struct Stack {
    std::vector<Entry> entries;
    int64_t since = 0;
  };
  // Ends the states above the first `keep` of the stack at t, pushes `push`, and records the
  // new top as an event.
  void Change(uint32_t c, uint32_t type, Stack& st, int64_t t, size_t keep, const Entry* push) {
    auto th = static_cast<uint32_t>(thread_of_[c]);
    uint32_t event_type = kPajeStateEventBase + types_[type].index_of_kind;
    bool main = main_type_.emplace(c, type).first->second == type;
    if (main && !st.entries.empty() && t > st.since)
      b_.AddState(th, static_cast<model::Time>(st.since), static_cast<model::Time>(t),
                  static_cast<uint32_t>(st.entries.back().value));
    st.since = t;
    for (size_t i = keep; main && i < st.entries.size(); ++i)
      if (st.entries[i].begin == t)
        diags_.Add(DiagKind::kZeroDurationState, st.entries[i].line, 0,
                   fmt::format("state \"{}\" ends when it begins: an event of type {}, not a state",
                               values_.entries()[static_cast<size_t>(st.entries[i].value) - 1].second, event_type));
    st.entries.resize(keep);
    if (push) st.entries.push_back(*push);
    b_.AddEvent(th, static_cast<model::Time>(t), event_type, st.entries.empty() ? 0 : st.entries.back().value);
  }

  TraceBuilder& b_;
  const std::vector<int64_t>& thread_of_;
  const std::vector<TypeInfo>& types_;
  const NameTable& values_;
  Diagnostics& diags_;
  std::map<std::pair<uint32_t, uint32_t>, Stack> stacks_;
  std::unordered_map<uint32_t, uint32_t> main_type_;  // container -> its first state type used
};

Result<ImportedTrace> PajeImporter::Build() {
  // Threads: leaf containers and containers with data, grouped by their parent (the task).
  std::vector<int64_t> task_of(containers_.size(), -1);
  std::vector<uint32_t> task_order;
  std::map<uint32_t, std::vector<uint32_t>> task_threads;
  for (uint32_t c = 0; c < containers_.size(); ++c) {
    const Container& k = containers_[c];
    if (!k.has_data && k.children > 0) continue;
    uint32_t task = k.parent >= 0 ? static_cast<uint32_t>(k.parent) : c;
    if (!task_threads.count(task)) task_order.push_back(task);
    task_threads[task].push_back(c);
  }
  if (task_order.empty())
    return Status::Error("the trace creates no container", Location{file_, 0, 0},
                         "a Pajé trace needs PajeCreateContainer events before its states, events and links");
  model::TraceHeader header;
  header.unit = model::TimeUnit::kNs;
  header.unit_suffix = "_ns";
  header.end_time = static_cast<model::Time>(last_time_);
  std::vector<std::pair<uint32_t, uint32_t>> tasks;
  std::vector<int64_t> thread_of(containers_.size(), -1);
  std::vector<std::string> task_labels, thread_labels;
  uint32_t next = 0;
  for (uint32_t task : task_order) {
    tasks.emplace_back(static_cast<uint32_t>(task_threads[task].size()), 0);
    task_labels.push_back(containers_[task].name);
    for (uint32_t c : task_threads[task]) {
      thread_of[c] = next++;
      thread_labels.push_back(containers_[c].name);
    }
  }
  header.processes.AddAppl(tasks);
  ImportedTrace out;
  out.format = "paje";
  model::RowNames row;
  row.SetLabels(model::Level::kTask, std::move(task_labels));
  row.SetLabels(model::Level::kThread, std::move(thread_labels));
  out.row = std::move(row);

  std::stable_sort(recs_.begin(), recs_.end(), [](const Rec& a, const Rec& b) { return a.time < b.time; });
  TraceBuilder b(header);
  StateStacks states(b, thread_of, types_, values_, diags_);
  std::map<std::pair<uint32_t, uint32_t>, double> variables;
  std::vector<const Rec*> pending_start(keys_.entries().size(), nullptr), pending_end(keys_.entries().size(), nullptr);
  // Containers inside each container; the root's are at index `root`.
  const auto root = static_cast<uint32_t>(containers_.size());
  std::vector<std::vector<uint32_t>> children(containers_.size() + 1);
  for (uint32_t c = 0; c < containers_.size(); ++c)
    children[containers_[c].parent >= 0 ? static_cast<size_t>(containers_[c].parent) : root].push_back(c);
  std::vector<uint32_t> destroyed;

  auto link = [&](const Rec& s, const Rec& e) {
    TraceBuilder::Comm cm;
    cm.sender = static_cast<uint32_t>(thread_of[s.other]);
    cm.receiver = static_cast<uint32_t>(thread_of[e.other]);
    cm.log_send = cm.phy_send = static_cast<model::Time>(s.time);
    cm.log_recv = cm.phy_recv = static_cast<model::Time>(e.time);
    cm.size = s.size;
    b.AddComm(cm);
  };
  for (const Rec& r : recs_) {
    switch (r.kind) {
      case Kind::kSetState:
      case Kind::kPushState:
      case Kind::kPopState:
      case Kind::kResetState:
        states.Apply(r);
        break;
      case Kind::kDestroyContainer:
        // pajeng destroys a container with every container inside it; the root holds them all.
        destroyed.assign(1, r.container == kRoot ? root : r.container);
        while (!destroyed.empty()) {
          uint32_t k = destroyed.back();
          destroyed.pop_back();
          destroyed.insert(destroyed.end(), children[k].begin(), children[k].end());
          if (k != root) states.End(k, r.time);
        }
        break;
      case Kind::kNewEvent:
        b.AddEvent(static_cast<uint32_t>(thread_of[r.container]), static_cast<model::Time>(r.time),
                   kPajeEventTypeBase + types_[r.type].index_of_kind, r.value);
        break;
      case Kind::kSetVariable:
      case Kind::kAddVariable:
      case Kind::kSubVariable: {
        double& v = variables[{r.container, r.type}];
        v = r.kind == Kind::kSetVariable ? r.number : r.kind == Kind::kAddVariable ? v + r.number : v - r.number;
        double clamped = std::clamp(v, -9.2e18, 9.2e18);
        b.AddEvent(static_cast<uint32_t>(thread_of[r.container]), static_cast<model::Time>(r.time),
                   kPajeVariableBase + types_[r.type].index_of_kind, std::llround(clamped));
        break;
      }
      case Kind::kStartLink:
      case Kind::kEndLink: {
        bool start = r.kind == Kind::kStartLink;
        const Rec*& other = start ? pending_end[r.key] : pending_start[r.key];
        if (other) {
          start ? link(r, *other) : link(*other, r);
          other = nullptr;
        } else {
          const Rec*& mine = start ? pending_start[r.key] : pending_end[r.key];
          if (mine) diags_.Add(DiagKind::kUnmatchedFlow, mine->line, 0, "link end point never matched (key reused)");
          mine = &r;
        }
        break;
      }
      default: break;
    }
  }
  states.EndAll(last_time_);
  for (const auto* list : {&pending_start, &pending_end})
    for (const Rec* r : *list)
      if (r) diags_.Add(DiagKind::kUnmatchedFlow, r->line, 0, "link start or end without its other end");

  for (const auto& [id, name] : values_.entries()) out.pcf.states.push_back(model::PcfLabel{static_cast<int32_t>(id), name, {}});
  for (const TypeInfo& t : types_) {
    if (t.kind == TypeKind::kState)
      AddEventTypeLabel(out.pcf, kPajeStateEventBase + t.index_of_kind, "State type " + t.name, values_.entries());
    else if (t.kind == TypeKind::kEvent)
      AddEventTypeLabel(out.pcf, kPajeEventTypeBase + t.index_of_kind, t.name, values_.entries());
    else if (t.kind == TypeKind::kVariable)
      AddEventTypeLabel(out.pcf, kPajeVariableBase + t.index_of_kind, t.name);
  }
  out.pcf.Finalize();
  out.prv = b.Finish(std::move(diags_), text_.size(), lines_);
  return out;
}

}  // namespace

Result<ImportedTrace> ParsePajeTrace(std::string_view text, const std::string& file) {
  PajeImporter importer(text, file);
  return importer.Run();
}

Result<ImportedTrace> ReadPajeTrace(const std::string& path) {
  auto buf = base::InputBuffer::Open(path);
  if (!buf.ok()) return buf.status();
  return buf->Parse([&](std::string_view text) { return ParsePajeTrace(text, path); });
}

}  // namespace parallax::io
