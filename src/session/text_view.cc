// The textual (what/where) view: semantic intervals of one object of a window, with the events
// and communications of its threads, over a time range.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "src/filter/filter.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/function_table.h"
#include "src/semantic/info_type.h"
#include "src/semantic/saturate.h"
#include "src/session/names.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax::session {

namespace {

using model::Level;

// Parses "THREAD 1.2.1", "TASK 1.2", "APPL 1", "WORKLOAD" or a bare "1.2.1" / "1.2" / "1".
Status ParseObject(const model::TraceHeader& h, const std::string& text, Level* level, uint32_t* index) {
  if (text == "WORKLOAD") {
    *level = Level::kWorkload;
    *index = 0;
    return Status::Ok();
  }
  std::string_view s = text;
  std::string_view word;
  size_t space = s.find(' ');
  if (space != std::string_view::npos) {
    word = s.substr(0, space);
    s = s.substr(space + 1);
  }
  std::vector<uint32_t> parts;
  for (size_t pos = 0; pos <= s.size() && !s.empty();) {
    size_t dot = s.find('.', pos);
    std::string_view p = s.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    uint32_t v = 0;
    auto r = std::from_chars(p.data(), p.data() + p.size(), v);
    if (r.ec != std::errc() || r.ptr != p.data() + p.size() || v == 0)
      return Status::Error(fmt::format("bad object '{}'", text), {},
                           "write objects as Paraver names them: THREAD 1.2.1, TASK 1.2, APPL 1, WORKLOAD");
    parts.push_back(v);
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  static const Level kByParts[] = {Level::kAppl, Level::kTask, Level::kThread};
  if (parts.empty() || parts.size() > 3) return Status::Error(fmt::format("bad object '{}'", text));
  *level = kByParts[parts.size() - 1];
  if (!word.empty() && word != model::LevelName(*level))
    return Status::Error(fmt::format("object '{}': {} needs {} numbers", text, word, parts.size()));
  model::ThreadIndex t;
  const auto& p = h.processes;
  if (!p.FindThread(parts[0], parts.size() > 1 ? parts[1] : 1, parts.size() > 2 ? parts[2] : 1, &t))
    return Status::Error(fmt::format("object '{}' does not exist in this trace", text));
  const auto& th = p.thread(t);
  *index = *level == Level::kThread ? t.value : *level == Level::kTask ? th.task.value : th.appl.value;
  return Status::Ok();
}

std::vector<uint32_t> ThreadsOf(const model::ProcessModel& p, Level level, uint32_t o) {
  std::vector<uint32_t> out;
  for (uint32_t t = 0; t < p.threads(); ++t) {
    const auto& th = p.thread(model::ThreadIndex(t));
    bool in = level == Level::kWorkload || (level == Level::kAppl && th.appl.value == o) ||
              (level == Level::kTask && th.task.value == o) || (level == Level::kThread && t == o);
    if (in) out.push_back(t);
  }
  return out;
}


}  // namespace

Result<TextView> TraceImpl::TextUnguarded(const TextRequest& req) const {
  auto windows = TextWindows(req);
  if (!windows.ok()) return windows.status();
  auto& [specs, index] = windows.value();
  TextView view;
  view.window = specs[index].name;
  Level level = specs[index].level;
  uint32_t object = 0;
  if (req.object_index) {
    object = *req.object_index;
    if (object >= semantic::ObjectCount(header(), level))
      return Status::Error(fmt::format("object index {} is out of range: the window's level {} has {} objects", object,
                                       model::LevelName(level), semantic::ObjectCount(header(), level)));
  } else {
    Status s = ParseObject(header(), req.object.empty() ? "THREAD 1.1.1" : req.object, &level, &object);
    if (!s.ok()) return s;
    if (level != specs[index].level)
      return Status::Error(fmt::format("object '{}' is not at the window's level {}", req.object,
                                       model::LevelName(specs[index].level)));
  }
  semantic::ValueLabels labels = semantic::WindowValueLabels(specs, index, pcf(), &functions());
  const semantic::InfoType info = labels.info;
  const base::Deadline deadline(req.time_limit);
  const base::RequestMemory memory(req.memory_limit);
  base::ChargeBatch charge(&memory);
  semantic::TraceView trace_view = View();
  trace_view.deadline = &deadline;
  trace_view.memory = &memory;
  auto ev = semantic::WindowEvaluator::Create(trace_view, specs, index);
  if (!ev.ok()) return ev.status();
  const auto& w = *ev.value();
  view.from = req.from.value_or(0);
  view.to = std::min<uint64_t>(req.to.value_or(w.trace_end()), w.trace_end());
  view.time_unit = std::string(model::TimeUnitName(header().unit));
  view.object = semantic::ObjectName(header(), level, object);
  view.function = semantic::SlotFunction(specs[index], semantic::Slot::kThread).name;
  auto row = w.MakeRow(object);
  row->Init(view.from);
  constexpr uint64_t kMaxStalled = 10'000'000;
  uint64_t stalled = 0;
  for (;;) {
    const semantic::Interval& i = row->current();
    TextInterval ti{i.begin, i.end, i.value, {}};
    if (pcf() && info == semantic::InfoType::kState) {
      if (const std::string* l = pcf()->StateLabel(semantic::SaturateCast<int64_t>(i.value))) ti.label = *l;
    } else if (pcf() && info == semantic::InfoType::kEventType) {
      if (const std::string* l = pcf()->EventTypeLabel(semantic::SaturateCast<uint32_t>(i.value))) ti.label = *l;
    } else if (pcf() && info == semantic::InfoType::kEventValue) {
      // The value label of the first event type passing the window's filter that has one.
      for (uint32_t type : labels.event_types) {
        if (const std::string* l = pcf()->EventValueLabel(type, semantic::SaturateCast<int64_t>(i.value))) {
          ti.label = *l;
          break;
        }
      }
    }
    charge.Add(sizeof(TextInterval) + ti.label.size());
    view.intervals.push_back(std::move(ti));
    if (i.end >= view.to) break;
    const model::Time end = i.end;
    row->Next();
    // A row moves forward in time: zero-length intervals (events at one time) cannot repeat
    // for ever, so a row stuck at one time is a defect, reported instead of looping.
    stalled = row->current().end > end ? 0 : stalled + 1;
    if (stalled > kMaxStalled)
      return Status::Error(fmt::format("internal error: the window's row does not move past time {}", end), {},
                           "please report this with the cfg and the trace");
  }
  if (req.records) AddRecords(level, object, view, charge);
  charge.Flush();
  return view;
}

Result<TextView> TraceImpl::Text(const TextRequest& req) const {
  return session::GuardedOn(*this, path_, [&] { return TextUnguarded(req); });
}

void TraceImpl::AddRecords(model::Level level, uint32_t object, TextView& view, base::ChargeBatch& charge) const {
  const auto& p = header().processes;
  auto name = [&](uint32_t t) { return model::ThreadName(p, model::ThreadIndex(t)); };
  for (uint32_t t : ThreadsOf(p, level, object)) {
    const auto pin = store().Pin(model::ThreadIndex(t), store::RecordParts::kEvents);
    const auto& tr = *pin;
    const auto& ev = tr.events;
    auto first = std::lower_bound(ev.time.begin(), ev.time.end(), view.from) - ev.time.begin();
    for (size_t i = static_cast<size_t>(first); i < ev.size() && ev.time[i] <= view.to; ++i) {
      TextEvent e{ev.time[i], ev.type[i], ev.value[i], {}, {}, name(t)};
      if (pcf()) {
        if (const std::string* l = pcf()->EventTypeLabel(ev.type[i])) e.type_label = *l;
        if (const std::string* l = pcf()->EventValueLabel(ev.type[i], ev.value[i])) e.value_label = *l;
      }
      charge.Add(sizeof(TextEvent) + e.type_label.size() + e.value_label.size() + e.thread.size());
      view.events.push_back(std::move(e));
    }
    const auto& c = store().comms();
    auto add = [&](uint32_t id, bool send) {
      model::Time t0 = send ? c.log_send[id] : c.log_recv[id];
      if (t0 < view.from || t0 > view.to) return;
      charge.Add(sizeof(TextComm) + 64);
      view.comms.push_back(TextComm{send, name(t), name(send ? c.receiver[id] : c.sender[id]), c.log_send[id],
                                    c.phy_send[id], c.log_recv[id], c.phy_recv[id], c.size[id], c.tag[id]});
    };
    for (uint32_t id : tr.sent) add(id, true);
    for (uint32_t id : tr.received) add(id, false);
  }
  std::stable_sort(view.events.begin(), view.events.end(),
                   [](const TextEvent& a, const TextEvent& b) { return a.time < b.time; });
  std::stable_sort(view.comms.begin(), view.comms.end(), [](const TextComm& a, const TextComm& b) {
    return (a.send ? a.log_send : a.log_recv) < (b.send ? b.log_send : b.log_recv);
  });
}

Result<std::pair<std::vector<semantic::WindowSpec>, size_t>> TraceImpl::TextWindows(const TextRequest& req) const {
  if (!req.cfg_path.empty() || !req.cfg_text.empty()) {
    auto file = LoadRequestCfg(req.cfg_path, req.cfg_text);
    if (!file.ok()) return file.status();
    const std::string name = req.cfg_path.empty() ? "cfg" : req.cfg_path;
    auto& windows = file->windows;
    if (windows.empty()) return Status::Error("the cfg defines no window", Location{name, 0, 0});
    size_t index = windows.size() - 1;
    if (!req.window.empty()) {
      auto it = std::find_if(windows.begin(), windows.end(), [&](const auto& w) { return w.name == req.window; });
      if (it == windows.end())
        return Status::Error(fmt::format("no window named '{}' in the cfg", req.window), Location{name, 0, 0},
                             WindowNamesHint(windows, req.window));
      index = static_cast<size_t>(it - windows.begin());
    }
    return std::make_pair(std::move(windows), index);
  }
  semantic::WindowSpec w;
  w.name = req.thread_function.empty() ? "State As Is" : req.thread_function;
  w.unit = header().unit;
  semantic::FunctionSpec f{w.name, {}};
  if (!req.parameters.empty()) f.params.push_back(req.parameters);
  if (functions().Find(f.name, semantic::Slot::kThread) == nullptr)
    return Status::Error(fmt::format("unknown thread function '{}'", f.name), {},
                         ThreadFunctionHint(functions(), f.name));
  w.functions[static_cast<size_t>(semantic::Slot::kThread)] = std::move(f);
  return std::make_pair(std::vector<semantic::WindowSpec>{std::move(w)}, size_t{0});
}

}  // namespace parallax::session
