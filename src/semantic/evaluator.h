#pragma once
// Evaluation of windows: for a window, an object and a time, a lazy sequence of semantic
// intervals [begin, end) with a value (semantics.md §1). Rows are cursors: Init(t) positions on
// the interval containing t, Next() moves to the following one; cost is proportional to the
// records visited, not to the trace.

#include <memory>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/deadline.h"
#include "src/base/request_memory.h"
#include "src/model/pcf_catalog.h"
#include "src/model/trace_header.h"
#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"
#include "src/store/trace_store.h"

namespace parallax::filter {
class Filter;
}  // namespace parallax::filter

namespace parallax::diagnose {
class LazyDiagnosis;
}

namespace parallax::semantic {

struct Interval {
  model::Time begin = 0;
  model::Time end = 0;
  double value = 0;
  // Cpu of the record that started a thread-level interval (kept through composes); the cpu
  // level uses it (semantics.md §7). 0 for other rows.
  uint16_t cpu = 0;
  bool operator==(const Interval&) const = default;
};

// A row of a window: the value of one object as a function of time.
class Row {
 public:
  virtual ~Row() = default;
  // Positions on the interval containing t (aggregated and derived rows may stop on one that
  // ends exactly at t, as Paraver's do).
  virtual void Init(model::Time t) = 0;
  virtual void Next() = 0;
  const Interval& current() const { return cur_; }
  // Holds what the row reads (a compact store's pinned thread) as long as the row lives.
  void Keep(std::shared_ptr<const void> held) { held_ = std::move(held); }

 protected:
  Interval cur_;

 private:
  std::shared_ptr<const void> held_;
};

// The trace a window is evaluated on.
struct TraceView {
  const model::TraceHeader* header = nullptr;
  const store::TraceStore* store = nullptr;
  const model::PcfCatalog* pcf = nullptr;  // may be null
  const FunctionRegistry* functions = nullptr;  // null: the built-in functions
  // When set, rows made by MakeRow check it as they move and throw base::DeadlineExceeded
  // once it has passed (the request's time limit).
  const base::Deadline* deadline = nullptr;
  // When set, code that builds up a result over the trace (a histogram's cells) charges what
  // it holds to it, and fails with base::RequestMemoryExceeded beyond its limit.
  const base::RequestMemory* memory = nullptr;
  // The trace's diagnosis, computed when a diagnosis function first needs it (null: those
  // functions give 0).
  const diagnose::LazyDiagnosis* diagnosis = nullptr;
};

class WindowEvaluator {
 public:
  // Prepares window `index` of `windows` (derived windows refer to others by index). Fails
  // with "unsupported: ..." for functions or features not implemented yet, and for invalid
  // specs (unknown function, resource level without resources).
  static Result<std::unique_ptr<WindowEvaluator>> Create(const TraceView& trace,
                                                         std::vector<WindowSpec> windows, size_t index);
  ~WindowEvaluator();

  const WindowSpec& spec() const;
  model::Level level() const;
  uint32_t rows() const;  // objects at the window level
  // A row of the window; under a deadline (TraceView::deadline) the row throws
  // base::DeadlineExceeded once it has passed.
  std::unique_ptr<Row> MakeRow(uint32_t object) const;
  // Throws base::DeadlineExceeded when the trace view's deadline has passed.
  void CheckDeadline() const;
  // The window's time range in trace units, resolved against the trace end (cfg-format §3.2).
  model::Time begin_time() const;
  model::Time end_time() const;
  model::Time trace_end() const;
  // The window's filter (its own, not a parent's: derived windows have theirs).
  const filter::Filter& filter() const;

  struct Impl;

 private:
  explicit WindowEvaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Number of objects of a level in a trace.
uint32_t ObjectCount(const model::TraceHeader& h, model::Level level);
// Paraver's name of an object: "WORKLOAD", "APPL 1", "TASK 1.2", "THREAD 1.2.1", "SYSTEM",
// "NODE 1", "CPU 1.2"; "<LEVEL> n" past the object count.
std::string ObjectName(const model::TraceHeader& h, model::Level level, uint32_t object);

}  // namespace parallax::semantic
