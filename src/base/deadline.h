#pragma once
// A limit on the computing time of one request (a frame, a histogram, a textual view): long
// loops call Check(), which throws DeadlineExceeded once the time is over. The exception is
// turned into an error Status at the public entry points (session::Guarded), so a request
// that takes too long fails cleanly and frees its thread.

#include <chrono>
#include <stdexcept>

namespace parallax::base {

class DeadlineExceeded : public std::runtime_error {
 public:
  explicit DeadlineExceeded(double seconds);
  double seconds() const { return seconds_; }

 private:
  double seconds_;
};

class Deadline {
 public:
  Deadline() = default;  // no limit
  // `seconds` from now; 0 (or less, or NaN) means no limit.
  explicit Deadline(double seconds);

  bool limited() const { return limited_; }
  double seconds() const { return seconds_; }
  bool Expired() const { return limited_ && std::chrono::steady_clock::now() >= at_; }
  // Throws DeadlineExceeded when the time is over.
  void Check() const {
    if (Expired()) throw DeadlineExceeded(seconds_);
  }

 private:
  bool limited_ = false;
  double seconds_ = 0;
  std::chrono::steady_clock::time_point at_{};
};

}  // namespace parallax::base
