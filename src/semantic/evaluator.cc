#include "src/semantic/evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "src/filter/filter.h"
#include "src/semantic/cpu_row.h"
#include "src/semantic/rows.h"
#include "src/semantic/shared_row.h"

namespace parallax::semantic {

using model::Level;
using model::Time;

uint32_t ObjectCount(const model::TraceHeader& h, Level level) {
  switch (level) {
    case Level::kWorkload:
    case Level::kSystem: return 1;
    case Level::kAppl: return h.processes.appls();
    case Level::kTask: return h.processes.tasks();
    case Level::kThread: return h.processes.threads();
    case Level::kNode: return h.resources.nodes();
    case Level::kCpu: return h.resources.cpus();
  }
  return 0;
}

std::string ObjectName(const model::TraceHeader& h, Level level, uint32_t object) {
  if (object >= ObjectCount(h, level)) return fmt::format("{} {}", model::LevelName(level), object + 1);
  switch (level) {
    case Level::kWorkload: return "WORKLOAD";
    case Level::kAppl: return fmt::format("APPL {}", object + 1);
    case Level::kTask: return model::TaskName(h.processes, model::TaskIndex(object));
    case Level::kThread: return model::ThreadName(h.processes, model::ThreadIndex(object));
    case Level::kSystem: return "SYSTEM";
    case Level::kNode: return fmt::format("NODE {}", object + 1);
    case Level::kCpu: return model::CpuName(h.resources, model::CpuId(object + 1));
  }
  return {};
}

namespace {

bool IsResource(Level l) { return l == Level::kSystem || l == Level::kNode || l == Level::kCpu; }

// Process levels from finest to coarsest, and the slots of each.
Slot AggregateSlot(Level l) {
  switch (l) {
    case Level::kTask: return Slot::kTask;
    case Level::kAppl: return Slot::kAppl;
    case Level::kWorkload: return Slot::kWorkload;
    case Level::kNode: return Slot::kNode;
    case Level::kSystem: return Slot::kSystem;
    case Level::kCpu: return Slot::kCpu;
    default: return Slot::kThread;
  }
}
Slot ComposeSlot(Level l) {
  switch (l) {
    case Level::kTask: return Slot::kComposeTask;
    case Level::kAppl: return Slot::kComposeAppl;
    case Level::kWorkload: return Slot::kComposeWorkload;
    case Level::kNode: return Slot::kComposeNode;
    case Level::kSystem: return Slot::kComposeSystem;
    case Level::kCpu: return Slot::kComposeCpu;
    default: return Slot::kComposeThread;
  }
}
// Fineness of a process level (THREAD finest).
int Depth(Level l) {
  switch (l) {
    case Level::kThread:
    case Level::kCpu: return 3;
    case Level::kTask:
    case Level::kNode: return 2;
    case Level::kAppl: return 1;
    default: return 0;
  }
}
Level Finer(Level l) {
  switch (l) {
    case Level::kWorkload: return Level::kAppl;
    case Level::kAppl: return Level::kTask;
    default: return Level::kThread;
  }
}

// The children (objects of the next finer level) of an object.
std::vector<uint32_t> Children(const model::ProcessModel& p, Level l, uint32_t o) {
  std::vector<uint32_t> out;
  if (l == Level::kTask) {
    const auto& t = p.task(model::TaskIndex(o));
    for (uint32_t i = 0; i < t.threads; ++i) out.push_back(t.first_thread.value + i);
  } else if (l == Level::kAppl) {
    const auto& a = p.appl(model::ApplIndex(o));
    for (uint32_t i = 0; i < a.tasks; ++i) out.push_back(a.first_task.value + i);
  } else if (l == Level::kWorkload) {
    for (uint32_t i = 0; i < p.appls(); ++i) out.push_back(i);
  }
  return out;
}

// The object of level `coarse` that contains object o of level `fine`.
uint32_t Container(const model::TraceHeader& h, Level fine, uint32_t o, Level coarse) {
  const model::ProcessModel& p = h.processes;
  if (fine == coarse) return o;
  if (coarse == Level::kWorkload || coarse == Level::kSystem) return 0;
  if (fine == Level::kCpu) return h.resources.NodeOfCpu(model::CpuId(o + 1)).value;
  if (fine == Level::kThread) {
    const auto& t = p.thread(model::ThreadIndex(o));
    return coarse == Level::kTask ? t.task.value : t.appl.value;
  }
  if (fine == Level::kTask) return p.task(model::TaskIndex(o)).appl.value;
  return o;
}

Status Unsupported(const std::string& what) { return Status::Error("unsupported: " + what); }

}  // namespace

// One prepared window of the set.
struct PreparedWindow {
  WindowSpec spec;
  std::unique_ptr<filter::Filter> filter;
  WindowEnv env;
  std::array<BoundFunction, kSlotCount> slots;
  std::vector<BoundFunction> extras;
  Level derived_level = Level::kThread;  // derived windows: finer of the parents' levels
};

// The shared rows of one row tree, by (window, object): a window used by several derived windows
// (or twice by one) is computed once per object (shared_row.h).
using SharedRows = std::map<std::pair<size_t, uint32_t>, std::shared_ptr<SharedSource>>;

struct WindowEvaluator::Impl {
  TraceView trace;
  std::vector<PreparedWindow> windows;  // only the ones used are prepared
  size_t index = 0;

  Status Bind(BoundFunction& out, const FunctionSpec& f, Slot slot) const {
    const FunctionRegistry& reg = RegistryOr(trace.functions);
    const FunctionDesc* d = reg.Find(f.name, slot);
    if (d == nullptr) {
      if (reg.FindAnyGroup(f.name) != nullptr)
        return Status::Error(fmt::format("function '{}' cannot be used in slot {}", f.name, SlotName(slot)));
      return Unsupported(f.name);
    }
    bool implemented = d->thread || d->compose || d->aggregate || d->derived ||
                       d->name.substr(0, 11) == "controlled:";
    if (!implemented) return Unsupported(std::string(d->name));
    out.desc = d;
    out.params.clear();
    for (size_t i = 0; i < d->params.size(); ++i)
      out.params.push_back(i < f.params.size() ? f.params[i] : d->params[i].defaults);
    return Status::Ok();
  }

  // Prepares window i and, first, the windows it derives from. `state` per window: 0 not
  // visited, 1 on the current path, 2 prepared; `path` is the current path, to name a cycle.
  Status Prepare(size_t i, std::vector<uint8_t>& state, std::vector<size_t>& path) {
    if (state[i] == 2) return Status::Ok();
    if (state[i] == 1) {
      std::string names;
      auto it = std::find(path.begin(), path.end(), i);
      for (; it != path.end(); ++it)
        names += fmt::format("{} ({}) -> ", windows[*it].spec.name, *it + 1);
      names += fmt::format("{} ({})", windows[i].spec.name, i + 1);
      return Status::Error(fmt::format("derived windows refer to each other in a cycle: {}", names),
                           {}, "a derived window can only use windows defined before it");
    }
    state[i] = 1;
    path.push_back(i);
    Status st = PrepareOne(i, state, path);
    path.pop_back();
    if (st.ok()) state[i] = 2;
    return st;
  }

  Status PrepareOne(size_t i, std::vector<uint8_t>& state, std::vector<size_t>& path) {
    PreparedWindow& w = windows[i];
    if (IsResource(w.spec.level) && trace.header->resources.empty())
      return Status::Error(fmt::format("level {} needs a resource model, and this trace has none",
                                       model::LevelName(w.spec.level)));
    for (size_t s = 0; s < kSlotCount; ++s) {
      auto slot = static_cast<Slot>(s);
      if (slot == Slot::kDerived && !w.spec.derived) continue;
      bool resource_slot = slot == Slot::kCpu || slot == Slot::kComposeCpu || slot == Slot::kNode ||
                           slot == Slot::kComposeNode || slot == Slot::kSystem || slot == Slot::kComposeSystem;
      if (resource_slot != IsResource(w.spec.level) && slot != Slot::kThread && slot != Slot::kComposeThread &&
          slot != Slot::kTopCompose1 && slot != Slot::kTopCompose2 && slot != Slot::kDerived)
        continue;  // only the slots of the window's own model are used
      if (w.spec.derived && slot == Slot::kThread) continue;
      Status st = Bind(w.slots[s], SlotFunction(w.spec, slot), slot);
      if (!st.ok()) return st;
    }
    w.extras.resize(w.spec.extra_composes.size());
    for (size_t k = 0; k < w.extras.size(); ++k) {
      Status st = Bind(w.extras[k], w.spec.extra_composes[k], Slot::kTopCompose1);
      if (!st.ok()) return st;
    }
    w.filter = std::make_unique<filter::Filter>(w.spec.filter, *trace.header, *trace.store, trace.pcf,
                                                w.spec.level, w.spec.unit);
    w.env = WindowEnv{trace.header, trace.store, w.filter.get(), w.spec.unit, w.spec.fill_state_gaps,
                      trace.diagnosis};
    if (w.spec.derived) {
      auto bad = [](int s) { return s < -kMaxShift || s > kMaxShift; };
      if (bad(w.spec.shift0) || bad(w.spec.shift1))
        return Status::Error(fmt::format("derived window '{}': shifts are limited to -{}..{}",
                                         w.spec.name, kMaxShift, kMaxShift));
      for (int p : {w.spec.parent0, w.spec.parent1}) {
        if (p < 0 || static_cast<size_t>(p) >= windows.size())
          return Status::Error(fmt::format("derived window '{}' has an invalid parent", w.spec.name));
        Status st = Prepare(static_cast<size_t>(p), state, path);
        if (!st.ok()) return st;
      }
      Level l0 = windows[w.spec.parent0].spec.level, l1 = windows[w.spec.parent1].spec.level;
      w.derived_level = Depth(l0) >= Depth(l1) ? l0 : l1;
    }
    return Status::Ok();
  }

  const BoundFunction& SlotOf(const PreparedWindow& w, Slot s) const { return w.slots[static_cast<size_t>(s)]; }

  // Thread chain of the cpu level: thread function and compose_thread.
  std::unique_ptr<Row> ThreadChain(size_t wi, uint32_t thread) const {
    const PreparedWindow& w = windows[wi];
    auto t = std::make_unique<ThreadRow>(w.env, SlotOf(w, Slot::kThread), thread);
    return std::make_unique<ComposeRow>(w.env, SlotOf(w, Slot::kComposeThread), std::move(t));
  }

  // Threads that have records on a cpu (1-based), in increasing order.
  std::vector<uint32_t> ThreadsOnCpu(uint32_t cpu) const {
    const auto& view = trace.store->cpu_view();
    std::vector<uint32_t> out;
    if (cpu == 0 || cpu > view.state_runs.size()) return out;
    for (const auto* runs : {&view.state_runs[cpu - 1], &view.event_runs[cpu - 1]})
      for (const auto& r : *runs) out.push_back(r.thread);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  std::unique_ptr<Row> ResourceBase(size_t wi, Level l, uint32_t o, SharedRows& shared) const {
    const PreparedWindow& w = windows[wi];
    const auto& r = trace.header->resources;
    if (l == Level::kCpu) {
      auto cpu = static_cast<uint16_t>(o + 1);
      return std::make_unique<CpuRow>(w.env, SlotOf(w, Slot::kThread), SlotOf(w, Slot::kCpu), cpu, ThreadsOnCpu(cpu),
                                      [this, wi](uint32_t t) { return ThreadChain(wi, t); });
    }
    std::vector<std::unique_ptr<Row>> kids;
    if (l == Level::kNode) {
      uint32_t first = r.FirstCpuOfNode(model::NodeIndex(o)).value;
      for (uint32_t k = 0; k < r.cpus_per_node()[o]; ++k)
        kids.push_back(Chain(wi, Level::kCpu, first - 1 + k, shared));
    } else {
      for (uint32_t n = 0; n < r.nodes(); ++n) kids.push_back(Chain(wi, Level::kNode, n, shared));
    }
    return std::make_unique<AggregateRow>(SlotOf(w, AggregateSlot(l)), std::move(kids), trace.store->end_time());
  }

  // The row of window w at level l for object o, including the compose slot of l.
  std::unique_ptr<Row> Chain(size_t wi, Level l, uint32_t o, SharedRows& shared) const {
    const PreparedWindow& w = windows[wi];
    std::unique_ptr<Row> base;
    if (w.spec.derived && l == w.derived_level) {
      base = DerivedBase(wi, o, shared);
    } else if (IsResource(l)) {
      base = ResourceBase(wi, l, o, shared);
    } else if (l == Level::kThread) {
      base = std::make_unique<ThreadRow>(w.env, w.slots[static_cast<size_t>(Slot::kThread)], o);
    } else {
      std::vector<std::unique_ptr<Row>> kids;
      for (uint32_t c : Children(trace.header->processes, l, o))
        kids.push_back(Chain(wi, Finer(l), c, shared));
      base = std::make_unique<AggregateRow>(w.slots[static_cast<size_t>(AggregateSlot(l))], std::move(kids),
                                            trace.store->end_time());
    }
    return std::make_unique<ComposeRow>(w.env, w.slots[static_cast<size_t>(ComposeSlot(l))], std::move(base));
  }

  // The full row of a window at its own level: chain, TOPCOMPOSE2, TOPCOMPOSE1, extras.
  std::unique_ptr<Row> Top(size_t wi, uint32_t o, SharedRows& shared) const {
    const PreparedWindow& w = windows[wi];
    std::unique_ptr<Row> r = Chain(wi, w.spec.level, o, shared);
    r = std::make_unique<ComposeRow>(w.env, w.slots[static_cast<size_t>(Slot::kTopCompose2)], std::move(r));
    r = std::make_unique<ComposeRow>(w.env, w.slots[static_cast<size_t>(Slot::kTopCompose1)], std::move(r));
    for (const BoundFunction& e : w.extras) r = std::make_unique<ComposeRow>(w.env, e, std::move(r));
    return r;
  }

  // A parent's full row as used by a derived window: one consumer of the row shared by every
  // use of (window, object) in this tree.
  std::unique_ptr<Row> Parent(size_t wi, uint32_t o, SharedRows& shared) const {
    auto key = std::make_pair(wi, o);
    auto it = shared.find(key);
    if (it == shared.end()) {
      std::unique_ptr<Row> row = Top(wi, o, shared);
      auto rebuild = [this, wi, o] {
        SharedRows own;
        return Top(wi, o, own);
      };
      it = shared.emplace(key, std::make_shared<SharedSource>(std::move(row), rebuild)).first;
    }
    return std::make_unique<SharedRow>(it->second);
  }

  // A parent's full row, shifted by s intervals when s != 0 (§8.4: s0 applies to child A).
  std::unique_ptr<Row> Shifted(size_t wi, uint32_t o, int s, SharedRows& shared) const {
    if (s == 0) return Parent(wi, o, shared);
    return std::make_unique<ShiftRow>(
        Parent(wi, o, shared), s > 0 ? Parent(wi, o, shared) : nullptr, s, trace.store->end_time());
  }

  std::unique_ptr<Row> DerivedBase(size_t wi, uint32_t o, SharedRows& shared) const {
    const PreparedWindow& w = windows[wi];
    size_t p0 = static_cast<size_t>(w.spec.parent0), p1 = static_cast<size_t>(w.spec.parent1);
    const BoundFunction& f = w.slots[static_cast<size_t>(Slot::kDerived)];
    std::string_view name = f.desc->name;
    if (name.substr(0, 11) == "controlled:" && f.desc->derived == nullptr) {
      Level l0 = windows[p0].spec.level, l1 = windows[p1].spec.level;
      auto data = Parent(p0, o, shared);
      auto control = Parent(p1, Container(*trace.header, l0, o, l1), shared);
      auto mode = name == "controlled: maximum" ? ControlledRow::Mode::kMaximum
                  : name == "controlled: add"   ? ControlledRow::Mode::kAdd
                                                : ControlledRow::Mode::kAverage;
      return std::make_unique<ControlledRow>(mode, std::move(data), std::move(control), w.spec.factor0,
                                             trace.store->end_time());
    }
    size_t fine = Depth(windows[p0].spec.level) >= Depth(windows[p1].spec.level) ? p0 : p1;
    size_t other = fine == p0 ? p1 : p0;
    uint32_t ob = Container(*trace.header, windows[fine].spec.level, o, windows[other].spec.level);
    auto a = Shifted(fine, o, w.spec.shift0, shared);
    auto b = Shifted(other, ob, w.spec.shift1, shared);
    return std::make_unique<DerivedRow>(f, std::move(a), std::move(b), w.spec.factor0, w.spec.factor1,
                                        trace.store->end_time());
  }
};

namespace {

// The top row of a window evaluated under a time limit: checks the clock when positioned and
// every 256 moves (a clock read costs about as much as a few moves).
class DeadlineRow : public Row {
 public:
  DeadlineRow(std::unique_ptr<Row> row, const base::Deadline& deadline)
      : row_(std::move(row)), deadline_(deadline) {}
  void Init(Time t) override {
    deadline_.Check();
    row_->Init(t);
    cur_ = row_->current();
  }
  void Next() override {
    if ((++moves_ & 255u) == 0) deadline_.Check();
    row_->Next();
    cur_ = row_->current();
  }

 private:
  std::unique_ptr<Row> row_;
  const base::Deadline& deadline_;
  uint32_t moves_ = 0;
};

}  // namespace

WindowEvaluator::WindowEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WindowEvaluator::~WindowEvaluator() = default;

Result<std::unique_ptr<WindowEvaluator>> WindowEvaluator::Create(const TraceView& trace,
                                                                 std::vector<WindowSpec> windows, size_t index) {
  if (index >= windows.size()) return Status::Error("no such window");
  if (windows.size() > kMaxWindows)
    return Status::Error(fmt::format("{} windows: at most {} windows can be evaluated together",
                                     windows.size(), kMaxWindows),
                         {}, "split the cfg");
  auto impl = std::make_unique<Impl>();
  impl->trace = trace;
  impl->index = index;
  impl->windows.resize(windows.size());
  for (size_t i = 0; i < windows.size(); ++i) impl->windows[i].spec = std::move(windows[i]);
  std::vector<uint8_t> state(windows.size(), 0);
  std::vector<size_t> path;
  Status s = impl->Prepare(index, state, path);
  if (!s.ok()) return s;
  return std::unique_ptr<WindowEvaluator>(new WindowEvaluator(std::move(impl)));
}

const WindowSpec& WindowEvaluator::spec() const { return impl_->windows[impl_->index].spec; }
model::Level WindowEvaluator::level() const { return spec().level; }
uint32_t WindowEvaluator::rows() const { return ObjectCount(*impl_->trace.header, level()); }
Time WindowEvaluator::trace_end() const { return impl_->trace.store->end_time(); }
const filter::Filter& WindowEvaluator::filter() const { return *impl_->windows[impl_->index].filter; }

std::unique_ptr<Row> WindowEvaluator::MakeRow(uint32_t object) const {
  SharedRows shared;
  auto row = impl_->Top(impl_->index, object, shared);
  const base::Deadline* d = impl_->trace.deadline;
  if (d != nullptr && d->limited()) return std::make_unique<DeadlineRow>(std::move(row), *d);
  return row;
}

void WindowEvaluator::CheckDeadline() const {
  if (impl_->trace.deadline != nullptr) impl_->trace.deadline->Check();
}

Time WindowEvaluator::begin_time() const {
  const TimeRange& r = spec().range;
  double end = static_cast<double>(trace_end());
  double b = r.relative ? end * r.begin : r.begin;
  if (!(b >= 0 && b < end)) return 0;  // NaN included
  return static_cast<Time>(b);
}

Time WindowEvaluator::end_time() const {
  const TimeRange& r = spec().range;
  double end = static_cast<double>(trace_end());
  double e = r.relative ? end * r.end : r.end;
  if (!(e >= 0)) return 0;  // NaN included
  return e >= end ? trace_end() : static_cast<Time>(e);
}

}  // namespace parallax::semantic
