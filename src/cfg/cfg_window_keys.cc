// Handlers of the window keys (cfg-format.md §3); see CfgParser in cfg_parser.h.

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <fmt/format.h>

#include "src/cfg/cfg_names.h"
#include "src/cfg/cfg_parser.h"
#include "src/filter/filter_spec.h"
#include "src/semantic/function_table.h"

namespace parallax::cfg {

namespace {

using model::Level;
using semantic::Slot;

// The blank-separated words of a field, with their columns.
std::vector<Field> Words(Field f) {
  std::vector<Field> out;
  size_t i = 0;
  std::string_view t = f.text;
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    size_t b = i;
    while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
    if (i > b) out.push_back(Field{t.substr(b, i - b), f.column + b});
  }
  return out;
}

Field Trimmed(Field f) { return Field{TrimRightBlanks(f.text), f.column}; }

size_t GroupSize(Level level) {
  switch (level) {
    case Level::kTask:
      return 1;
    case Level::kThread:
      return 2;
    case Level::kCpu:
      return 1;
    default:
      return 0;
  }
}

bool SameModel(Level a, Level b) { return IsResourceLevel(a) == IsResourceLevel(b); }

}  // namespace

// --- Creation and identity ---------------------------------------------------------------------

Status CfgParser::OnIgnored(Field) { return Status::Ok(); }

Status CfgParser::OnName(Field v) {
  pending_name_ = std::string(v.text);
  return Status::Ok();
}

Status CfgParser::OnType(Field v) {
  std::string_view t = TrimRightBlanks(v.text);
  if (t != "single" && t != "composed")
    return Expected(v, "'single' or 'composed'",
                    "window_type creates a window: single or composed");
  if (Status s = FinishWindow(); !s.ok()) return s;
  if (out_.windows.size() >= semantic::kMaxWindows)
    return Status::Error(
        fmt::format("window_type: more than {} windows in one cfg", semantic::kMaxWindows),
        Location{file_, line_no_, 1},
        "split the cfg; derived windows can only use windows of their own cfg");
  semantic::WindowSpec w;
  w.name = pending_name_;
  w.derived = t == "composed";
  out_.windows.push_back(std::move(w));
  out_.window_info.emplace_back();
  have_window_ = true;
  begin_ = end_ = Bound::kDefault;
  type_label_line_ = value_label_line_ = 0;
  return Status::Ok();
}

Status CfgParser::OnIdentifiers(Field v) {
  if (!W().derived) return Status::Ok();  // Paraver ignores it on single windows
  std::vector<Field> words = Words(v);
  if (words.size() != 2) return Expected(v, "two window numbers", "write 'window_identifiers 1 2'");
  uint64_t before = out_.windows.size() - 1;
  int parents[2];
  for (size_t i = 0; i < 2; ++i) {
    uint64_t n = 0;
    if (ParseUint(words[i].text, UINT32_MAX, &n) && n > before) {
      return Status::Error(
          fmt::format("window_identifiers: derived window {} ('{}') cannot use window {}: a window "
                      "can only "
                      "use windows defined before it, so that no cycle is possible",
                      before + 1, W().name, n),
          Location{file_, line_no_, words[i].column}, fmt::format("use windows 1..{}", before));
    }
    if (!ParseUint(words[i].text, UINT32_MAX, &n) || n == 0 || n > before) {
      return Expected(words[i], fmt::format("a window number in 1..{}", before),
                      "a derived window refers to windows defined before it, numbered from 1");
    }
    parents[i] = static_cast<int>(n - 1);
  }
  W().parent0 = parents[0];
  W().parent1 = parents[1];
  if (std::optional<Level> l = ParentLevel()) W().level = *l;
  return Status::Ok();
}

Status CfgParser::OnFactors(Field v) {
  if (!W().derived) return Status::Ok();
  std::vector<Field> words = Words(v);
  if (words.size() != 2) return Expected(v, "two factors", "write 'window_factors 1.0 1.0'");
  if (Status s = Double(words[0], &W().factor0); !s.ok()) return s;
  return Double(words[1], &W().factor1);
}

Status CfgParser::OnShifts(Field v) {
  if (!W().derived) return Status::Ok();
  std::vector<Field> words = Words(v);
  if (words.size() != 2) return Expected(v, "two shifts", "write 'window_shifts 0 0'");
  int* dst[2] = {&W().shift0, &W().shift1};
  for (size_t i = 0; i < 2; ++i) {
    int64_t s = 0;
    if (!ParseInt(words[i].text, INT16_MIN, INT16_MAX, &s))
      return Expected(words[i], "a 16-bit integer", "shifts are small signed integers");
    *dst[i] = static_cast<int>(s);
  }
  return Status::Ok();
}

Status CfgParser::OnOperation(Field v) {
  if (!W().derived) return Status::Ok();
  std::string_view name = TrimRightBlanks(v.text);
  if (!semantic::RegistryOr(ctx_.functions).Find(name, Slot::kDerived)) return Unsupported(name, v.column);
  W().functions[static_cast<size_t>(Slot::kDerived)] =
      semantic::FunctionSpec{std::string(name), {}};
  return Status::Ok();
}

std::optional<Level> CfgParser::ParentLevel() {
  const semantic::WindowSpec& w = W();
  if (w.parent0 < 0 || w.parent1 < 0) return std::nullopt;
  Level a = out_.windows[static_cast<size_t>(w.parent0)].level;
  Level b = out_.windows[static_cast<size_t>(w.parent1)].level;
  if (!SameModel(a, b)) return std::nullopt;
  // The finest parent level: oracle qsort_beo3, OpenMP/views/states_only_useful_openmp.cfg
  // (parents at thread and task level, derived window at thread level, rows are threads).
  return std::max(a, b);
}

// --- Level, time, objects ----------------------------------------------------------------------

Status CfgParser::OnLevel(Field v) {
  std::optional<Level> level = ParseLevelName(TrimRightBlanks(v.text));
  if (!level) {
    return Expected(v, "a level name", "levels: workload, appl, task, thread, system, node, cpu");
  }
  if (IsResourceLevel(*level) && (!ctx_.resources || ctx_.resources->empty())) {
    return Status::Error(
        fmt::format("window_level: level '{}' needs a resource model and the trace has none",
                    TrimRightBlanks(v.text)),
        Location{file_, line_no_, v.column},
        "use a process level (workload, appl, task, thread) with this trace");
  }
  if (W().derived) {
    std::optional<Level> parents = ParentLevel();
    if (parents && (!SameModel(*level, *parents) || *level > *parents)) {
      Notice(fmt::format("window '{}': level {} is finer than its finest parent; kept at {}",
                         W().name, CfgLevelName(*level), CfgLevelName(W().level)));
      return Status::Ok();
    }
  }
  W().level = *level;
  return Status::Ok();
}

Status CfgParser::OnUnits(Field v) {
  std::optional<model::TimeUnit> unit = ParseUnitName(TrimRightBlanks(v.text));
  if (!unit) {
    Notice(fmt::format("ignored: unknown window_units '{}' (unit stays {})", v.text,
                       CfgUnitName(W().unit)));
    return Status::Ok();
  }
  W().unit = *unit;
  return Status::Ok();
}

Status CfgParser::SetBound(bool begin, bool absolute, Field v) {
  double value = 0;
  if (Status s = Double(v, &value); !s.ok()) return s;
  Bound want = absolute ? Bound::kAbsolute : Bound::kRelative;
  Bound& mine = begin ? begin_ : end_;
  Bound& other = begin ? end_ : begin_;
  // TimeRange is either relative or absolute: a mix of both kinds is not represented.
  if (other != Bound::kDefault && other != want) return Unsupported(key_);
  semantic::TimeRange& r = W().range;
  mine = want;
  r.relative = !absolute;
  (begin ? r.begin : r.end) = value;
  if (other == Bound::kDefault) {
    if (begin)
      r.end = absolute ? DBL_MAX : 1.0;
    else
      r.begin = 0;
  }
  return Status::Ok();
}

Status CfgParser::OnBeginTime(Field v) { return SetBound(true, true, v); }
Status CfgParser::OnStopTime(Field v) { return SetBound(false, true, v); }
Status CfgParser::OnBeginRelative(Field v) { return SetBound(true, false, v); }
Status CfgParser::OnEndRelative(Field v) { return SetBound(false, false, v); }

Status CfgParser::OnEndTime(Field v) {
  double ignored = 0;
  return Double(v, &ignored);  // parsed, then ignored by Paraver
}

Status CfgParser::OnZoomObjects(Field v) {
  std::vector<Field> words = Words(v);
  if (words.size() != 2) return Expected(v, "'first last'", "two 0-based object indices");
  uint64_t a = 0, b = 0;
  if (Status s = Uint(words[0], UINT32_MAX, &a); !s.ok()) return s;
  if (Status s = Uint(words[1], UINT32_MAX, &b); !s.ok()) return s;
  if (uint32_t n = ObjectCount(W().level); n > 0) {
    a = std::min<uint64_t>(a, n - 1);
    b = std::min<uint64_t>(b, n - 1);
  }
  Info().display.zoom_objects =
      std::pair<uint32_t, uint32_t>(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  return Status::Ok();
}

Status CfgParser::OnObject(Field v) {
  ObjectLineText text;
  TokenError err;
  if (!TokenizeObjectLine(Trimmed(v), &text, &err))
    return TokenFailure(err, "write e.g. 'window_object appl { 1, { All } }'");
  std::optional<Level> level = ParseLevelName(text.level.text);
  if (!level || *level == Level::kWorkload || *level == Level::kSystem) {
    return Expected(text.level, "appl, task, thread, node or cpu",
                    "window_object names the level whose objects it selects");
  }
  size_t groups = GroupSize(*level);
  if (text.header.size() != groups + 1) {
    return Expected(v, fmt::format("{} number(s) before the entries", groups + 1),
                    "appl { n, {...} }, task { appl, n, {...} }, thread { appl, task, n, {...} }, "
                    "node { n, {...} }, cpu { node, n, {...} }");
  }
  ObjectLine line;
  line.level = *level;
  line.group.assign(text.header.begin(), text.header.end() - 1);
  uint32_t n = text.header.back();
  if (text.entries.size() != n)
    return Expected(v, fmt::format("{} entries", n), "the count must match the entries listed");
  line.numeric = *level == W().level;
  for (const Field& e : text.entries) {
    if (!line.numeric) {
      line.selected.push_back(e.text != "None");
    } else if (e.text == "0" || e.text == "1") {
      line.selected.push_back(e.text == "1");
    } else {
      return Expected(e, "1 or 0", "at the window's own level entries are 1 (selected) or 0");
    }
  }
  Info().objects.push_back(line);
  return ApplyObjectLine(line);
}

Status CfgParser::ApplyObjectLine(const ObjectLine& line) {
  const model::ProcessModel* p = ctx_.process;
  const model::ResourceModel* r = ctx_.resources;
  uint32_t first = 0, size = 0;
  bool ok = true;
  switch (line.level) {
    case Level::kAppl:
      size = p ? p->appls() : 0;
      break;
    case Level::kTask:
      ok = p && line.group[0] < p->appls();
      if (ok) {
        const model::ApplInfo& a = p->appl(model::ApplIndex(line.group[0]));
        first = a.first_task.value;
        size = a.tasks;
      }
      break;
    case Level::kThread:
      ok = p && line.group[0] < p->appls() &&
           line.group[1] < p->appl(model::ApplIndex(line.group[0])).tasks;
      if (ok) {
        const model::ApplInfo& a = p->appl(model::ApplIndex(line.group[0]));
        const model::TaskInfo& t = p->task(model::TaskIndex(a.first_task.value + line.group[1]));
        first = t.first_thread.value;
        size = t.threads;
      }
      break;
    case Level::kNode:
      size = r ? r->nodes() : 0;
      break;
    case Level::kCpu:
      ok = r && line.group[0] < r->nodes();
      if (ok) {
        first = r->FirstCpuOfNode(model::NodeIndex(line.group[0])).value - 1;
        size = r->cpus_per_node()[line.group[0]];
      }
      break;
    default:
      ok = false;
  }
  if (!ok || line.selected.size() > size) {
    Notice("ignored: window_object names objects the trace does not have");
    return Status::Ok();
  }
  std::vector<bool>& sel = W().selected[static_cast<size_t>(line.level)];
  if (sel.empty()) sel.assign(ObjectCount(line.level), true);
  for (size_t i = 0; i < line.selected.size(); ++i) sel[first + i] = line.selected[i];
  return Status::Ok();
}

// --- Functions and filter ----------------------------------------------------------------------

Status CfgParser::SetSlotFunction(Field level, Field fn, bool compose) {
  std::optional<SlotRef> ref = ParseSlotName(level.text);
  if (!ref || (!compose && ref->extra_compose)) {
    return Expected(level, compose ? "a compose level name" : "a level or filter name",
                    "see the level names of cfg-format.md §4.1");
  }
  Slot slot = ref->slot;
  if (compose && !ref->extra_compose) slot = *ComposeSlotOf(slot);
  const semantic::FunctionRegistry& reg = semantic::RegistryOr(ctx_.functions);
  if (!reg.Find(fn.text, slot)) {
    if (!reg.FindAnyGroup(fn.text)) return Unsupported(fn.text, fn.column);
    return Status::Error(
        fmt::format("{}: function '{}' cannot be used at level {}", key_, fn.text, level.text),
        Location{file_, line_no_, fn.column},
        "each level accepts one group of functions (semantics.md §1.2)");
  }
  semantic::FunctionSpec spec{std::string(fn.text), {}};
  if (ref->extra_compose)
    W().extra_composes.push_back(std::move(spec));
  else
    W().functions[static_cast<size_t>(slot)] = std::move(spec);
  return Status::Ok();
}

Status CfgParser::SetCriterion(std::string_view kind, Field fn) {
  filter::FilterSpec& f = W().filter;
  filter::Criterion* c = kind == "from_obj"    ? &f.from
                         : kind == "to_obj"    ? &f.to
                         : kind == "tag_msg"   ? &f.tag
                         : kind == "size_msg"  ? &f.size
                         : kind == "bw_msg"    ? &f.bandwidth
                         : kind == "evt_type"  ? &f.event_type
                         : kind == "evt_value" ? &f.event_value
                                               : nullptr;
  if (!c) return Status::Error("internal: unknown filter kind");
  if (!filter::ParseCriterionName(fn.text, &c->op)) return Unsupported(fn.text, fn.column);
  return Status::Ok();
}

Status CfgParser::OnSelectedFunctions(Field v) {
  std::vector<FunctionEntryText> entries;
  TokenError err;
  if (!TokenizeFunctionList(v, &entries, &err))
    return TokenFailure(err, "entries are written '{level, Function Name}'");
  for (const FunctionEntryText& e : entries) {
    std::string_view l = e.level.text;
    bool filter_entry = l == "from_obj" || l == "to_obj" || l == "tag_msg" || l == "size_msg" ||
                        l == "bw_msg" || l == "evt_type" || l == "evt_value";
    if (filter_entry && W().derived) {
      return Expected(e.level, "a level name",
                      "a derived window has no filter: it uses its parents' records");
    }
    Status s =
        filter_entry ? SetCriterion(l, e.function) : SetSlotFunction(e.level, e.function, false);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status CfgParser::OnComposeFunctions(Field v) {
  std::vector<FunctionEntryText> entries;
  TokenError err;
  if (!TokenizeFunctionList(v, &entries, &err))
    return TokenFailure(err, "entries are written '{compose_level, Function Name}'");
  for (const FunctionEntryText& e : entries) {
    if (Status s = SetSlotFunction(e.level, e.function, true); !s.ok()) return s;
  }
  return Status::Ok();
}

Status CfgParser::OnSemanticModule(Field v) {
  SemanticModuleText m;
  TokenError err;
  if (!TokenizeSemanticModule(v, &m, &err))
    return TokenFailure(err, "write 'LEVEL Function { P, { k v1 ... vk, ... } }'");
  std::optional<SlotRef> ref = ParseSlotName(m.level.text);
  if (!ref) {
    Notice(fmt::format("ignored: window_semantic_module for unknown level '{}'", m.level.text));
    return Status::Ok();
  }
  if (ref->extra_compose) {
    for (semantic::FunctionSpec& f : W().extra_composes)
      if (f.name == m.function.text) f.params = m.params;
    return Status::Ok();
  }
  const semantic::FunctionSpec& current = semantic::SlotFunction(W(), ref->slot);
  if (current.name != m.function.text) {
    Notice(fmt::format("ignored: parameters of '{}' for level {}, which holds '{}'",
                       m.function.text, m.level.text, current.name));
    return Status::Ok();
  }
  W().functions[static_cast<size_t>(ref->slot)] = semantic::FunctionSpec{current.name, m.params};
  return Status::Ok();
}

Status CfgParser::OnFilterModule(Field v) {
  if (W().derived) {
    Notice("ignored: window_filter_module on a derived window");
    return Status::Ok();
  }
  std::vector<Field> words = Words(v);
  if (words.size() < 2) return Expected(v, "'KIND n values...'", "e.g. 'evt_type 1 50000001'");
  std::string_view kind = words[0].text;
  uint64_t n = 0;
  if (Status s = Uint(words[1], 1u << 24, &n); !s.ok()) return s;
  size_t rest_at = words[1].column + words[1].text.size() - v.column;
  Field rest{v.text.substr(std::min(rest_at, v.text.size())), v.column + rest_at};
  if (kind == "evt_type_label" || kind == "evt_value_label") return FilterLabels(kind, rest, n);
  static constexpr std::string_view kKinds[] = {"from_obj", "to_obj",   "tag_msg",  "size_msg",
                                                "bw_msg",   "evt_type", "evt_value"};
  if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds)) {
    return Expected(words[0], "a filter kind",
                    "kinds: from_obj to_obj tag_msg size_msg bw_msg evt_type evt_value "
                    "evt_type_label evt_value_label");
  }
  return FilterNumbers(kind, rest, n);
}

Status CfgParser::FilterNumbers(std::string_view kind, Field rest, uint64_t n) {
  std::vector<Field> words = Words(rest);
  if (words.size() != n)
    return Expected(rest, fmt::format("{} values", n), "the count must match the values listed");
  bool integral = kind != "bw_msg" && kind != "evt_value";
  filter::FilterSpec& f = W().filter;
  for (const Field& word : words) {
    double d = 0;
    if (!ParseDouble(word.text, &d) || (integral && !(std::isfinite(d) && std::trunc(d) == d)))
      return Expected(word, integral ? "an integer" : "a number", "values are separated by spaces");
    if (kind == "from_obj")
      f.from.values.push_back(d - 1);
    else if (kind == "to_obj")
      f.to.values.push_back(d - 1);
    else if (kind == "tag_msg")
      f.tag.values.push_back(d);
    else if (kind == "size_msg")
      f.size.values.push_back(d);
    else if (kind == "bw_msg")
      f.bandwidth.values.push_back(d);
    else if (kind == "evt_type")
      Info().events.types.push_back(d);
    else
      Info().events.values.push_back(d);
  }
  return Status::Ok();
}

Status CfgParser::FilterLabels(std::string_view kind, Field rest, uint64_t n) {
  std::vector<std::string> labels;
  std::string_view t = rest.text;
  size_t i = 0;
  while (true) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    if (i >= t.size()) break;
    size_t close = t[i] == '"' ? t.find('"', i + 1) : std::string_view::npos;
    if (close == std::string_view::npos) {
      return Expected(Field{t.substr(i), rest.column + i}, "a label in double quotes",
                      "labels are written \"MPI Point-to-point\"");
    }
    labels.emplace_back(t.substr(i + 1, close - i - 1));
    i = close + 1;
  }
  if (labels.size() != n)
    return Expected(rest, fmt::format("{} labels", n), "the count must match the labels listed");
  if (kind == "evt_type_label") {
    Info().events.type_labels = std::move(labels);
    type_label_line_ = line_no_;
  } else {
    Info().events.value_labels = std::move(labels);
    value_label_line_ = line_no_;
  }
  return Status::Ok();
}

Status CfgParser::OnFilterFlag(Field v) {
  filter::FilterSpec& f = W().filter;
  bool* dst = key_ == "window_logical_filtered"     ? &f.logical
              : key_ == "window_physical_filtered"  ? &f.physical
              : key_ == "window_intracomms_enabled" ? &f.intra_node
              : key_ == "window_intercomms_enabled" ? &f.inter_node
              : key_ == "window_comm_fromto"        ? &f.from_to_and
              : key_ == "window_comm_tagsize"       ? &f.tag_size_and
                                                    : &f.type_value_and;
  return Bool(v, dst);
}

// --- Display keys ------------------------------------------------------------------------------

Status CfgParser::OnGeometry(Field v) {
  WindowDisplay& d = Info().display;
  uint16_t* dst = key_ == "window_position_x"   ? &d.x
                  : key_ == "window_position_y" ? &d.y
                  : key_ == "window_width"      ? &d.width
                                                : &d.height;
  uint64_t n = 0;
  if (Status s = Uint(v, UINT16_MAX, &n); !s.ok()) return s;
  *dst = static_cast<uint16_t>(n);
  return Status::Ok();
}

Status CfgParser::OnDisplayFlag(Field v) {
  WindowDisplay& d = Info().display;
  bool* dst = key_ == "window_comm_lines_enabled"     ? &d.comm_lines
              : key_ == "window_flags_enabled"        ? &d.flags
              : key_ == "window_custom_color_enabled" ? &d.custom_color
              : key_ == "window_open"                 ? &d.open
                                                      : &d.scale_min_at_zero;
  return Bool(v, dst);
}

Status CfgParser::OnNonColorMode(Field v) {
  bool noncolor = true;
  if (Status s = Bool(v, &noncolor); !s.ok()) return s;
  if (!noncolor) Info().display.color = ColorMode::kFunctionLine;
  return Status::Ok();
}

Status CfgParser::OnColorMode(Field v) {
  WindowDisplay& d = Info().display;
  if (d.color == ColorMode::kFunctionLine) {
    Notice("ignored: window_color_mode after window_noncolor_mode false");
    return Status::Ok();
  }
  std::optional<ColorMode> mode = ParseColorMode(TrimRightBlanks(v.text));
  if (!mode) {
    Notice(fmt::format("ignored: unknown window_color_mode '{}'", v.text));
    return Status::Ok();
  }
  d.color = *mode;
  return Status::Ok();
}

Status CfgParser::OnGradientFunction(Field v) {
  std::optional<GradientFunction> g = ParseGradientFunction(TrimRightBlanks(v.text));
  if (!g) {
    return Expected(v, "a gradient function", "gradient_function_linear, _steps, _log or _exp");
  }
  Info().display.gradient = *g;
  return Status::Ok();
}

Status CfgParser::OnCustomPalette(Field v) {
  std::string_view t = TrimRightBlanks(v.text);
  if (!t.empty() && (t.front() != '{' || t.back() != '}'))
    return Expected(v, "'{value:r,g,b},...'", "one {value:r,g,b} per coloured value");
  Info().display.custom_palette = std::string(t);
  return Status::Ok();
}

Status CfgParser::OnScale(Field v) {
  WindowDisplay& d = Info().display;
  return Double(v, key_ == "window_maximum_y" ? &d.maximum_y : &d.minimum_y);
}

Status CfgParser::OnComputeYMax(Field v) {
  std::string_view t = TrimRightBlanks(v.text);
  if (t.empty()) {
    Info().display.compute_y_max = std::nullopt;
    return Status::Ok();
  }
  bool b = false;
  if (Status s = Bool(v, &b); !s.ok()) return s;
  Info().display.compute_y_max = b;
  return Status::Ok();
}

Status CfgParser::OnDrawMode(Field v) {
  std::optional<DrawMode> mode = ParseDrawMode(TrimRightBlanks(v.text));
  if (!mode) {
    Notice(fmt::format("ignored: unknown draw mode '{}' in {}", v.text, key_));
    return Status::Ok();
  }
  (key_ == "window_drawmode" ? Info().display.draw_time : Info().display.draw_rows) = *mode;
  return Status::Ok();
}

Status CfgParser::OnDisplayNumber(Field v) {
  uint64_t n = 0;
  if (Status s = Uint(v, UINT32_MAX, &n); !s.ok()) return s;
  WindowDisplay& d = Info().display;
  uint32_t value = static_cast<uint32_t>(n);
  if (key_ == "window_pixel_size")
    d.pixel_size = value;
  else if (key_ == "window_labels_to_draw")
    d.labels_to_draw = value;
  else if (key_ == "window_object_axis_position")
    d.object_axis_position = value;
  else if (key_ == "window_punctual_color_window")
    d.punctual_color_window = value;
  else
    d.synchronize = value;
  return Status::Ok();
}

}  // namespace parallax::cfg
