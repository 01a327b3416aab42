#pragma once
// WindowSpec: everything that defines a timeline window, as a plain value (level, the function
// and parameters of every slot, filter, time unit and range, selected objects, derived-window
// parents). The cfg reader produces it, the evaluator consumes it, the server edits it.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "src/filter/filter_spec.h"
#include "src/model/objects.h"
#include "src/model/time.h"

namespace parallax::semantic {

// The function slots of a window (semantics.md §1.2), in cfg naming order.
enum class Slot : uint8_t {
  kThread,
  kComposeThread,
  kTask,
  kComposeTask,
  kAppl,
  kComposeAppl,
  kWorkload,
  kComposeWorkload,
  kCpu,
  kComposeCpu,
  kNode,
  kComposeNode,
  kSystem,
  kComposeSystem,
  kTopCompose1,
  kTopCompose2,
  kDerived,
  kCount
};
inline constexpr size_t kSlotCount = static_cast<size_t>(Slot::kCount);

// A function chosen for a slot, by its Paraver name, with its parameters. Each parameter is a
// list of doubles; a missing parameter takes the descriptor table's default.
struct FunctionSpec {
  std::string name;
  std::vector<std::vector<double>> params;

  bool operator==(const FunctionSpec&) const = default;
};

// Time range of a window: absolute trace units, or fractions of the trace end.
struct TimeRange {
  bool relative = true;
  double begin = 0;  // trace units, or fraction when relative
  double end = 1;

  bool operator==(const TimeRange&) const = default;
};

struct WindowSpec {
  std::string name;
  model::Level level = model::Level::kThread;
  // Functions of every slot; empty names mean the default of the slot (semantics.md §1.2).
  std::array<FunctionSpec, kSlotCount> functions;
  std::vector<FunctionSpec> extra_composes;  // above TOPCOMPOSE1, in order
  filter::FilterSpec filter;
  model::TimeUnit unit = model::TimeUnit::kUs;  // windows from cfgs start in microseconds
  TimeRange range;
  // Selected objects per level (index: model::Level); empty = all selected.
  std::array<std::vector<bool>, 7> selected;

  // Paraver's "fill state gaps" preference (semantics.md §2.1): a state end that no state begin
  // follows at the same time starts an interval of value 0. Off: the previous state extends
  // over the gap.
  bool fill_state_gaps = true;

  // Derived windows: two parents (indices into the same WindowSet, 0-based), factors, shifts.
  bool derived = false;
  int parent0 = -1;
  int parent1 = -1;
  double factor0 = 1, factor1 = 1;
  int shift0 = 0, shift1 = 0;

  bool operator==(const WindowSpec&) const = default;
};

// Windows in one set (one cfg) at most. Derived windows are evaluated as a DAG (a window used
// by several others is computed once per object), so the cost is linear in the windows; the
// limit bounds the depth of the row tree (each window adds a few cursor levels and stack
// frames) and the work of a hostile cfg.
inline constexpr size_t kMaxWindows = 512;

// Shifts of a derived window's parents (semantics.md §8.4) are read as 16-bit integers; a
// positive shift buffers that many intervals.
inline constexpr int kMaxShift = 32767;

// The default function name of a slot ("State As Is", "As Is", "Adding", "Active Thd", "").
const char* DefaultFunction(Slot slot);
// The function a slot uses: the spec's name or the slot default.
const FunctionSpec& SlotFunction(const WindowSpec& w, Slot slot);

}  // namespace parallax::semantic
