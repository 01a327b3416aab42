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

// One process' part of work dealt out round-robin among `count` processes: it does items
// index, index + count, ...; `exchange` sends its results and returns every process' bytes, in
// rank order (or why it cannot: another process failed).
struct WorkShare {
  unsigned index = 0;
  unsigned count = 1;
  std::function<Result<std::vector<std::string>>(const std::string& mine)> exchange;
};

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
  for (size_t i = share.index; i < n; i += share.count) {
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
      if (!in.Get(&i) || i >= n || i % share.count != p || !get(in, size_t{i}))
        return Status::Error(
            fmt::format("process {} of {} sent a damaged share of {}", p, share.count, what), {},
            "all processes must run the same Parallax on the same inputs");
    }
  }
  return Status::Ok();
}

}  // namespace parallax::base
