#pragma once
// One column of the trace store: a contiguous array of plain values that either owns its
// memory (a std::vector, filled by the readers) or views memory that something else keeps alive
// (a mapped trace cache, docs/formats.md "Trace cache"), so reopening a cached trace costs no
// copy. Reads are the same either way (a pointer and a size). Every mutating call first turns
// a view into an owned copy, so code that edits a store never writes into a mapped file.
//
// The one exception is a writable view (WritableView): the reader parsing a trace straight into
// the file of its new cache writes the values in place through it. Writing a value or shrinking
// it stays in place; growing it copies. The loader freezes it (Freeze) into a plain view before
// anyone else sees the store, and a copy of a writable view is a plain view.

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace parallax::store {

template <typename T>
class Column {
  static_assert(std::is_trivially_copyable_v<T>, "columns hold plain values");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;

  Column() = default;
  Column(std::initializer_list<T> values) : own_(values) { Sync(); }
  explicit Column(std::vector<T> values) : own_(std::move(values)) { Sync(); }
  Column(const Column& o) { *this = o; }
  Column(Column&& o) noexcept { *this = std::move(o); }
  Column& operator=(const Column& o) {
    if (this == &o) return *this;
    keep_ = o.keep_;
    writable_ = false;
    if (o.keep_) {
      own_.clear();
      data_ = o.data_;
      size_ = o.size_;
    } else {
      own_ = o.own_;
      Sync();
    }
    return *this;
  }
  Column& operator=(Column&& o) noexcept {
    if (this == &o) return *this;
    keep_ = std::move(o.keep_);
    writable_ = o.writable_;
    own_ = std::move(o.own_);
    data_ = keep_ ? o.data_ : own_.data();
    size_ = o.size_;
    o.keep_.reset();
    o.writable_ = false;
    o.own_.clear();
    o.Sync();
    return *this;
  }
  Column& operator=(std::vector<T> values) {
    keep_.reset();
    writable_ = false;
    own_ = std::move(values);
    Sync();
    return *this;
  }

  // A column over `n` values at `data`, valid while `keep` is alive.
  static Column View(const T* data, size_t n, std::shared_ptr<const void> keep) {
    Column c;
    c.keep_ = std::move(keep);
    c.data_ = const_cast<T*>(data);  // never written through: mutations copy first
    c.size_ = n;
    return c;
  }
  // A view whose values may be written in place (see the top of this file).
  static Column WritableView(T* data, size_t n, std::shared_ptr<const void> keep) {
    Column c = View(data, n, std::move(keep));
    c.writable_ = true;
    return c;
  }
  bool is_view() const { return static_cast<bool>(keep_); }
  bool is_writable_view() const { return writable_; }
  // A writable view becomes a plain (read-only) view.
  void Freeze() { writable_ = false; }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* data() const { return data_; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* cbegin() const { return data_; }
  const T* cend() const { return data_ + size_; }

  // Mutable access (owned columns; a view is copied first).
  T* data() { return Own(); }
  T& operator[](size_t i) { return Own()[i]; }
  T& front() { return Own()[0]; }
  T& back() { return Own()[size_ - 1]; }
  T* begin() { return Own(); }
  T* end() { return Own() + size_; }

  // Heap bytes held (capacity of the owned vector; a view holds none).
  size_t capacity() const { return keep_ ? 0 : own_.capacity(); }
  void reserve(size_t n) {
    if (writable_ && n <= size_) return;
    Detach();
    own_.reserve(n);
    Sync();
  }
  void resize(size_t n) {
    if (writable_ && n <= size_) {
      size_ = n;
      return;
    }
    Detach();
    own_.resize(n);
    Sync();
  }
  void resize(size_t n, const T& v) {
    if (writable_ && n <= size_) {
      size_ = n;
      return;
    }
    Detach();
    own_.resize(n, v);
    Sync();
  }
  void assign(size_t n, const T& v) {
    keep_.reset();
    writable_ = false;
    own_.assign(n, v);
    Sync();
  }
  template <typename It>
  void assign(It first, It last) {
    std::vector<T> v(first, last);  // `first` may point into this column
    keep_.reset();
    writable_ = false;
    own_ = std::move(v);
    Sync();
  }
  void clear() {
    keep_.reset();
    writable_ = false;
    own_.clear();
    Sync();
  }
  void shrink_to_fit() {
    if (keep_) return;
    own_.shrink_to_fit();
    Sync();
  }
  void push_back(const T& v) {
    if (keep_) Detach();
    own_.push_back(v);
    data_ = own_.data();
    ++size_;
  }
  template <typename... A>
  T& emplace_back(A&&... a) {
    if (keep_) Detach();
    T& r = own_.emplace_back(std::forward<A>(a)...);
    data_ = own_.data();
    ++size_;
    return r;
  }
  void pop_back() {
    Detach();
    own_.pop_back();
    Sync();
  }
  template <typename It>
  void insert(const T* pos, It first, It last) {
    size_t at = static_cast<size_t>(pos - data_);
    Detach();
    std::vector<T> v(first, last);
    own_.insert(own_.begin() + static_cast<std::ptrdiff_t>(at), v.begin(), v.end());
    Sync();
  }
  void erase(const T* first, const T* last) {
    size_t a = static_cast<size_t>(first - data_), b = static_cast<size_t>(last - data_);
    Detach();
    own_.erase(own_.begin() + static_cast<std::ptrdiff_t>(a), own_.begin() + static_cast<std::ptrdiff_t>(b));
    Sync();
  }
  void swap(Column& o) noexcept {
    Column t = std::move(o);
    o = std::move(*this);
    *this = std::move(t);
  }
  // The values as a vector (a copy).
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const Column& a, const std::vector<T>& b) {
    return a.size_ == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator==(const Column& a, const Column& b) {
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i)
      if (!(a.data_[i] == b.data_[i])) return false;
    return true;
  }

 private:
  void Sync() {
    data_ = own_.data();
    size_ = own_.size();
  }
  // The data, for writing in place: a (read-only) view is turned into an owned copy first.
  T* Own() {
    if (keep_ && !writable_) Detach();
    return data_;
  }
  // Turns any view into an owned copy (before the size changes).
  void Detach() {
    if (!keep_) return;
    own_.assign(data_, data_ + size_);
    keep_.reset();
    writable_ = false;
    Sync();
  }

  std::vector<T> own_;
  T* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> keep_;  // set for views
  bool writable_ = false;             // a writable view
};

}  // namespace parallax::store
