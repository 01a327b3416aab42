#pragma once
// A limit on the memory one request builds up (the intervals of a textual view, the columns of
// a window's intervals, a histogram's cells, an image): the code that grows a result calls
// Charge() with the bytes it adds, which throws RequestMemoryExceeded once the total passes
// the limit. The exception is turned into an error Status (Status::limit()) at the public
// entry points (session::Guarded), so a request that would need too much memory fails cleanly
// before it takes the machine's memory, whatever the trace or the cfg. Thread-safe: the rows
// of a window are evaluated in parallel and charge the same budget.

#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace parallax::base {

class RequestMemoryExceeded : public std::runtime_error {
 public:
  explicit RequestMemoryExceeded(uint64_t limit_bytes);
  uint64_t limit_bytes() const { return limit_; }

 private:
  uint64_t limit_;
};

class RequestMemory {
 public:
  RequestMemory() = default;  // no limit
  explicit RequestMemory(uint64_t limit_bytes) : limit_(limit_bytes) {}
  RequestMemory(const RequestMemory&) = delete;
  RequestMemory& operator=(const RequestMemory&) = delete;

  bool limited() const { return limit_ != 0; }
  uint64_t limit() const { return limit_; }
  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  // Adds `bytes` to what the request holds; throws RequestMemoryExceeded beyond the limit.
  void Charge(uint64_t bytes) const {
    if (limit_ == 0) return;
    uint64_t total = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (total > limit_ || total < bytes) throw RequestMemoryExceeded(limit_);
  }

 private:
  uint64_t limit_ = 0;
  mutable std::atomic<uint64_t> used_{0};
};

// Charges a budget in steps instead of per element: Add() counts bytes locally and charges
// the budget every `step` bytes (and the rest at Flush), so hot loops pay one add and one
// compare per element. One per thread.
class ChargeBatch {
 public:
  explicit ChargeBatch(const RequestMemory* budget, uint64_t step = 64 << 10)
      : budget_(budget != nullptr && budget->limited() ? budget : nullptr), step_(step) {}
  ~ChargeBatch() = default;
  void Add(uint64_t bytes) {
    if (budget_ == nullptr) return;
    pending_ += bytes;
    if (pending_ >= step_) Flush();
  }
  void Flush() {
    if (budget_ == nullptr || pending_ == 0) return;
    uint64_t b = pending_;
    pending_ = 0;
    budget_->Charge(b);
  }

 private:
  const RequestMemory* budget_;
  uint64_t step_;
  uint64_t pending_ = 0;
};

}  // namespace parallax::base
