#pragma once
// Fast rows for the two plainest windows, at thread level with every compose As Is: State As Is
// walks the thread's state columns directly, where the generic ThreadRow merges the event and
// communication records too (ten times more records on Extrae traces); Last Evt Val walks the
// event columns with the window's filter, without the generic cursor and function call per
// record. They yield the same intervals as the generic row (tests/unit/render/fast_rows_test.cc
// compares them on real traces, hand-made edge cases and filters); StateRow is used only when
// the thread's states are well formed (none overlaps the next, none is open-ended).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "src/filter/filter.h"
#include "src/semantic/evaluator.h"
#include "src/store/state_blocks.h"
#include "src/store/trace_store.h"

namespace parallax::semantic {

class StateRow final : public Row {
 public:
  // `blocks` (may be null): the summaries of these states, which let a fold consume runs of
  // states whole (render/fold.cc).
  StateRow(const store::StateColumns& states, model::Time trace_end,
           const store::StateBlocks* blocks = nullptr);
  void Init(model::Time t) override;
  void Next() override;

  // Whether the states that can be visited between `from` and `to` are closed and do not
  // overlap the next one (answered from `blocks`, when given, where the states are dense).
  static bool WellFormed(const store::StateColumns& states, model::Time from, model::Time to,
                         const store::StateBlocks* blocks = nullptr);

  const store::StateColumns& states() const { return s_; }
  const store::StateBlocks* blocks() const { return blocks_; }
  // Whether the current interval is a state (not a gap), and which.
  bool AtState() const { return pos_ % 2 == 1; }
  size_t StateIndex() const { return pos_ / 2; }
  // Makes state k the current interval, as if the row had walked to it. Only for a state the
  // walk reaches one state at a time: the states before it, from the current one, are dense.
  void JumpToState(size_t k) {
    pos_ = 2 * k + 1;
    Load();
  }

 private:
  // Positions: 0 = before the first state, 2k + 1 = state k, 2k + 2 = the gap after state k.
  void Load();
  bool Empty(size_t pos) const;
  model::Time NextBegin(size_t k) const;  // begin of state k + 1, or the trace end

  const store::StateColumns& s_;
  model::Time trace_end_;
  const store::StateBlocks* blocks_;
  size_t pos_ = 0;
};

// Last Evt Val over the events that pass `filter`: from each such event to the next one (or the
// trace end), valued as the filter scales it; before the first, 0 from time 0.
class EventRow final : public Row {
 public:
  EventRow(const store::EventColumns& events, const filter::Filter& filter, model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

 private:
  // What the filter says of a type, kept in a small open-addressed table (a trace has few types):
  // whether it passes (when the value does not matter) and its value factor, so that
  // f.ScaledValue(type, v) == v * factor exactly (the factor is ScaledValue(type, 1)).
  struct TypeMemo {
    uint32_t type = 0;
    bool known = false;
    bool pass = false;
    double factor = 1;
  };
  const TypeMemo& Memo(uint32_t type) const;
  bool Pass(size_t i) const;
  size_t ScanFew(size_t from) const;     // Accepted() when few_ types pass
  size_t ScanFewBack(size_t to) const;   // the last passing event before `to`, or kBefore
  size_t Accepted(size_t from) const;  // the first event at or after `from` that passes, or n
  void Load();

  const store::EventColumns& e_;
  const filter::Filter& f_;
  const bool value_matters_;
  mutable std::array<TypeMemo, 64> memo_{};
  mutable TypeMemo overflow_;
  // When the filter passes the events of at most kFew types whatever their values: those
  // types (padded with the first), so the scan compares 8 types with them at once.
  static constexpr size_t kFew = 8;
  bool few_ = false;
  size_t few_count_ = 0;
  std::array<uint32_t, kFew> few_types_{};
  model::Time trace_end_;
  static constexpr size_t kBefore = SIZE_MAX;  // the interval before the first event
  size_t pos_ = kBefore;                       // the event starting the interval, or n (the end)
  size_t next_ = 0;                            // the next event that passes, or n
};

// Whether a window is State As Is (Last Evt Val) at thread level with every compose As Is.
bool IsPlainStateWindow(const WindowSpec& w);
bool IsPlainEventWindow(const WindowSpec& w);

// The fast row when it applies, else the window's own row. `blocks` (may be null): the store's
// state summaries, handed to a StateRow (built for its thread if not yet).
std::unique_ptr<Row> MakeFastRow(const WindowEvaluator& window, const store::TraceStore* store,
                                 uint32_t object, model::Time from, model::Time to,
                                 const store::StateBlockCache* blocks = nullptr);

}  // namespace parallax::semantic
