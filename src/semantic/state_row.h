#pragma once
// A fast row for the plainest window, State As Is at thread level with no compose: it walks the
// thread's state columns directly, where the generic ThreadRow merges the event and
// communication records too (ten times more records on Extrae traces). It yields the same
// intervals as the generic row (tests/unit/render/state_row_test.cc compares them) and is used
// only when the window is that plain and the thread's states are well formed (none overlaps
// the next, none is open-ended).

#include <memory>

#include "src/semantic/evaluator.h"
#include "src/store/trace_store.h"

namespace parallax::semantic {

class StateRow final : public Row {
 public:
  StateRow(const store::StateColumns& states, model::Time trace_end);
  void Init(model::Time t) override;
  void Next() override;

  // Whether the states that can be visited between `from` and `to` are closed and do not
  // overlap the next one.
  static bool WellFormed(const store::StateColumns& states, model::Time from, model::Time to);

 private:
  // Positions: 0 = before the first state, 2k + 1 = state k, 2k + 2 = the gap after state k.
  void Load();
  bool Empty(size_t pos) const;
  model::Time NextBegin(size_t k) const;  // begin of state k + 1, or the trace end

  const store::StateColumns& s_;
  model::Time trace_end_;
  size_t pos_ = 0;
};

// Whether a window is State As Is at thread level with every compose As Is.
bool IsPlainStateWindow(const WindowSpec& w);

// The fast row when it applies, else the window's own row.
std::unique_ptr<Row> MakeFastRow(const WindowEvaluator& window,
                                           const store::TraceStore* store, uint32_t object,
                                           model::Time from, model::Time to);

}  // namespace parallax::semantic
