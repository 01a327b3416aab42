#include "src/semantic/shared_row.h"

#include <algorithm>

namespace parallax::semantic {

SharedSource::SharedSource(std::unique_ptr<Row> row, Factory rebuild)
    : row_(std::move(row)), rebuild_(std::move(rebuild)) {}

size_t SharedSource::AddConsumer() {
  consumers_.emplace_back();
  return consumers_.size() - 1;
}

Interval SharedSource::Init(size_t c, model::Time t) {
  bool reusable = initialised_ && init_time_ == t && base_ == 0 && !buffer_.empty();
  if (!reusable) {
    // Everyone walking the old sequence loses its place; idle consumers keep nothing.
    for (size_t k = 0; k < consumers_.size(); ++k)
      if (k != c && consumers_[k].state == State::kActive) consumers_[k].state = State::kLost;
    row_->Init(t);
    buffer_.clear();
    buffer_.push_back(row_->current());
    base_ = 0;
    init_time_ = t;
    initialised_ = true;
  }
  consumers_[c] = Consumer{State::kActive, 0};
  Trim();
  return buffer_.front();
}

bool SharedSource::Next(size_t c, Interval* out) {
  Consumer& me = consumers_[c];
  if (me.state != State::kActive) return false;
  uint64_t next = me.pos + 1;
  if (next - base_ == buffer_.size()) {
    row_->Next();
    buffer_.push_back(row_->current());
  }
  *out = buffer_[static_cast<size_t>(next - base_)];
  bool was_slowest = me.pos == base_;
  me.pos = next;
  if (was_slowest || buffer_.size() > kMaxBuffered) Trim();
  return true;
}

// Drops the intervals every active consumer has passed; consumers more than kMaxBuffered
// intervals behind the newest one lose their place first.
void SharedSource::Trim() {
  uint64_t newest = base_ + buffer_.size() - 1;
  uint64_t floor = newest + 1 > kMaxBuffered ? newest + 1 - kMaxBuffered : 0;
  uint64_t slowest = newest;
  for (Consumer& k : consumers_) {
    if (k.state != State::kActive) continue;
    if (k.pos < floor) {
      k.state = State::kLost;
      continue;
    }
    slowest = std::min(slowest, k.pos);
  }
  while (base_ < slowest) {
    buffer_.pop_front();
    ++base_;
  }
}

SharedRow::SharedRow(std::shared_ptr<SharedSource> source) : source_(std::move(source)) {
  id_ = source_->AddConsumer();
}

void SharedRow::Init(model::Time t) {
  init_time_ = t;
  steps_ = 0;
  if (own_) {
    own_->Init(t);
    cur_ = own_->current();
    return;
  }
  cur_ = source_->Init(id_, t);
}

void SharedRow::Next() {
  ++steps_;
  if (own_) {
    own_->Next();
    cur_ = own_->current();
    return;
  }
  if (source_->Next(id_, &cur_)) return;
  // Lost its place in the shared sequence: replay the same Init and steps on a private copy.
  own_ = source_->rebuild()();
  own_->Init(init_time_);
  for (uint64_t k = 0; k < steps_; ++k) own_->Next();
  cur_ = own_->current();
}

}  // namespace parallax::semantic
