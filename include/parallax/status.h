#pragma once
// Status and Result<T>: the channel for expected failures (bad input, missing file, unsupported
// format). Bugs use PARALLAX_CHECK instead; the library never exits and never prints.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace parallax {

// Where in an input file a problem was found. Line and column are 1-based; 0 means unknown.
struct Location {
  std::string file;
  uint64_t line = 0;
  uint64_t column = 0;
};

// An error a user can act on: what went wrong, where, and how to fix it.
class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message, Location where = {}, std::string hint = {}) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    s.where_ = std::move(where);
    s.hint_ = std::move(hint);
    return s;
  }

  // An error caused by a resource limit (out of memory, a request's time limit) rather than by
  // the input: the same request may succeed with a smaller range or a higher limit.
  static Status Limit(std::string message, Location where = {}, std::string hint = {}) {
    Status s = Error(std::move(message), std::move(where), std::move(hint));
    s.limit_ = true;
    return s;
  }

  bool ok() const { return !failed_; }
  bool limit() const { return limit_; }
  const std::string& message() const { return message_; }
  const Location& where() const { return where_; }
  const std::string& hint() const { return hint_; }

  // "file:line:col: error: message" followed by "  hint: ..." when there is a hint.
  std::string ToString() const;

 private:
  bool failed_ = false;
  bool limit_ = false;
  std::string message_;
  Location where_;
  std::string hint_;
};

// A value or the Status explaining why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace parallax
