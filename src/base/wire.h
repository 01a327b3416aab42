#pragma once
// Byte strings exchanged between the processes of a distributed run (session/distributed.h):
// plain values appended in the host's representation (every process runs the same binary on
// the same kind of machine) and strings prefixed by their u32 length. A reader checks every
// length, so a damaged or foreign string is refused, never read past its end.

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "include/parallax/status.h"

namespace parallax::base {

// One process' part of work dealt out among `count` processes: item i is done by process
// owner[i], or round-robin (i % count) when `owner` is empty; `exchange` sends this process'
// results and returns every process' bytes, in rank order (or why it cannot: another process
// failed).
struct WorkShare {
  unsigned index = 0;
  unsigned count = 1;
  std::function<Result<std::vector<std::string>>(const std::string& mine)> exchange;
  std::vector<uint32_t> owner;

  unsigned Owner(size_t i) const {
    return owner.empty() ? static_cast<unsigned>(i % count) : owner[i];
  }
  // This process' items among 0..n-1, in order.
  std::vector<size_t> Mine(size_t n) const {
    std::vector<size_t> out;
    for (size_t i = 0; i < n; ++i)
      if (Owner(i) == index) out.push_back(i);
    return out;
  }
};

// Owners for items of the given costs (records, say), the largest first, each to the process
// with the least cost so far (the lowest index on ties): every process computes the same
// deal. Round-robin would give one process every item of a periodic kind (the MPI thread of
// each task, with 8 threads per task and 2 or 4 processes).
std::vector<uint32_t> BalanceByCost(const std::vector<uint64_t>& cost, unsigned count);

template <typename T>
void WirePut(std::string& out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

inline void WirePutString(std::string& out, const std::string& s) {
  WirePut(out, static_cast<uint32_t>(s.size()));
  out += s;
}

template <typename T>
void WirePutVector(std::string& out, const std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  WirePut(out, static_cast<uint32_t>(v.size()));
  if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// Reads back what the WirePut functions wrote; each Get returns false (and reads nothing) when
// the bytes left are too few.
class WireReader {
 public:
  // `in` must outlive the reader.
  explicit WireReader(const std::string& in, size_t at = 0) : in_(in), at_(at) {}

  template <typename T>
  bool Get(T* v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (left() < sizeof(T)) return false;
    std::memcpy(v, in_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }

  bool GetString(std::string* s) {
    uint32_t n = 0;
    if (!Get(&n) || left() < n) return false;
    s->assign(in_.data() + at_, n);
    at_ += n;
    return true;
  }

  template <typename T>
  bool GetVector(std::vector<T>* v) {
    uint32_t n = 0;
    if (!Get(&n) || left() / sizeof(T) < n) return false;
    v->resize(n);
    if (n > 0) std::memcpy(v->data(), in_.data() + at_, size_t{n} * sizeof(T));
    at_ += size_t{n} * sizeof(T);
    return true;
  }

  size_t left() const { return in_.size() - at_; }
  bool done() const { return at_ == in_.size(); }

 private:
  const std::string& in_;
  size_t at_;
};

// Exchanges the items 0..n-1 dealt out by `share`: this process sends index u32 and
// put(i, out)'s bytes for each of its items, and get(reader, i) reads back each item of the
// others. An error when another process failed or sent something else than its items (`what`
// names them in the message).
template <typename Put, typename Get>
Status ExchangeItems(const WorkShare& share, size_t n, Put put, Get get, const char* what) {
  std::string mine;
  for (size_t i : share.Mine(n)) {
    WirePut(mine, static_cast<uint32_t>(i));
    put(i, mine);
  }
  auto all = share.exchange(mine);
  if (!all.ok()) return all.status();
  for (unsigned p = 0; p < share.count && p < all->size(); ++p) {
    if (p == share.index) continue;
    WireReader in(all.value()[p]);
    while (!in.done()) {
      uint32_t i = 0;
      if (!in.Get(&i) || i >= n || share.Owner(i) != p || !get(in, size_t{i}))
        return Status::Error(
            fmt::format("process {} of {} sent a damaged share of {}", p, share.count, what), {},
            "all processes must run the same Parallax on the same inputs");
    }
  }
  return Status::Ok();
}

}  // namespace parallax::base
