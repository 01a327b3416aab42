#pragma once
// Sharing one row between several consumers of a row tree. Derived windows form a DAG: a window
// may be a parent of several derived windows, or both parents of one. Building a private row
// for every use would copy the shared part once per path through the DAG (2^n rows for a
// "diamond" of n windows), so the evaluator builds the row of a window for an object once and
// hands each consumer a SharedRow over it. Internal to src/semantic.
//
// A row is a pure function of its last Init(t) and the number of Next() calls since, so the
// source keeps the intervals it produced since its last Init(t) that some consumer has not
// passed yet, and a consumer is a position in that sequence. A consumer that cannot be served
// from the buffer (it initialises at another time while others are walking, or it lags more
// than kMaxBuffered intervals behind the fastest one) gets a private copy of the row, rebuilt
// from the same window and replayed to its position: results never depend on sharing, memory
// stays bounded by kMaxBuffered intervals per source.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "src/semantic/evaluator.h"

namespace parallax::semantic {

class SharedSource {
 public:
  // Intervals buffered at most; a consumer further behind falls back to a private row.
  static constexpr size_t kMaxBuffered = 1 << 16;

  using Factory = std::function<std::unique_ptr<Row>()>;
  // `row` is the shared row; `rebuild` makes a fresh copy of it for a consumer that falls back.
  SharedSource(std::unique_ptr<Row> row, Factory rebuild);

  size_t AddConsumer();
  size_t consumers() const { return consumers_.size(); }
  const Factory& rebuild() const { return rebuild_; }

  // The first interval after Init(t) for consumer c.
  Interval Init(size_t c, model::Time t);
  // The next interval of consumer c; false when c lost its place (it must fall back).
  bool Next(size_t c, Interval* out);

 private:
  enum class State : uint8_t { kIdle, kActive, kLost };
  struct Consumer {
    State state = State::kIdle;
    uint64_t pos = 0;  // sequence number of the consumer's current interval
  };
  void Trim();

  std::unique_ptr<Row> row_;
  Factory rebuild_;
  bool initialised_ = false;
  model::Time init_time_ = 0;
  uint64_t base_ = 0;  // sequence number of buffer_.front()
  std::deque<Interval> buffer_;
  std::vector<Consumer> consumers_;
};

// One consumer of a SharedSource.
class SharedRow : public Row {
 public:
  explicit SharedRow(std::shared_ptr<SharedSource> source);
  void Init(model::Time t) override;
  void Next() override;

 private:
  std::shared_ptr<SharedSource> source_;
  size_t id_ = 0;
  std::unique_ptr<Row> own_;  // the private copy after a fall back
  model::Time init_time_ = 0;
  uint64_t steps_ = 0;  // Next() calls since Init
};

}  // namespace parallax::semantic
