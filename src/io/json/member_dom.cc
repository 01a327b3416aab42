#include "src/io/json/member_dom.h"

namespace parallax::io {

namespace {

using nlohmann::json;

// What nlohmann's DOM takes, about (libstdc++, 64 bits): a value in its parent (a 16-byte json,
// doubled for a vector's growth), an array's or object's own container and heap block, a
// member's tree node with its key, a string's heap block.
constexpr uint64_t kValueBytes = 32;
constexpr uint64_t kContainerBytes = 64;
constexpr uint64_t kMemberBytes = 96;
constexpr uint64_t kHeapBlockBytes = 16;

// SAX events of the whole object in; those of the wanted member's value go on to nlohmann's DOM
// builder, the others are dropped. Stops (returns false) when the DOM would exceed the budget.
class MemberSax {
 public:
  MemberSax(json& out, std::string_view key, uint64_t budget)
      : dom_(out, false), key_(key), budget_(budget) {}

  bool null() {
    return Scalar(0, [&] { return dom_.null(); });
  }
  bool boolean(bool v) {
    return Scalar(0, [&] { return dom_.boolean(v); });
  }
  bool number_integer(json::number_integer_t v) {
    return Scalar(0, [&] { return dom_.number_integer(v); });
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return Scalar(0, [&] { return dom_.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const std::string& s) {
    return Scalar(0, [&] { return dom_.number_float(v, s); });
  }
  bool string(std::string& s) {
    return Scalar(s.size() + kHeapBlockBytes, [&] { return dom_.string(s); });
  }
  bool binary(json::binary_t& b) {
    return Scalar(b.size() + kHeapBlockBytes, [&] { return dom_.binary(b); });
  }
  bool start_object(size_t n) {
    return Open([&] { return dom_.start_object(n); });
  }
  bool start_array(size_t n) {
    return Open([&] { return dom_.start_array(n); });
  }
  bool end_object() {
    return Close([&] { return dom_.end_object(); });
  }
  bool end_array() {
    return Close([&] { return dom_.end_array(); });
  }
  bool key(std::string& k) {
    if (capturing_) return Charge(kMemberBytes + k.size()) && dom_.key(k);
    if (depth_ == 1 && !found_ && k == key_) found_ = capturing_ = true;
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
    error_ = e.what();
    return false;
  }

  bool found() const { return found_; }
  bool over_budget() const { return over_budget_; }
  uint64_t bytes() const { return bytes_; }
  const std::string& error() const { return error_; }

 private:
  bool Charge(uint64_t n) {
    bytes_ += n;
    over_budget_ = bytes_ > budget_;
    return !over_budget_;
  }
  template <typename F>
  bool Scalar(uint64_t extra, F&& build) {
    if (!capturing_) return true;
    if (!Charge(kValueBytes + extra) || !build()) return false;
    if (depth_ == 1) capturing_ = false;  // the member was a scalar
    return true;
  }
  template <typename F>
  bool Open(F&& build) {
    ++depth_;
    return !capturing_ || (Charge(kValueBytes + kContainerBytes) && build());
  }
  template <typename F>
  bool Close(F&& build) {
    --depth_;
    if (!capturing_) return true;
    if (depth_ == 1) capturing_ = false;  // the member's value is complete
    return build();
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string_view key_;
  uint64_t budget_;
  int depth_ = 0;
  bool found_ = false, capturing_ = false, over_budget_ = false;
  uint64_t bytes_ = 0;
  std::string error_;
};

}  // namespace

MemberDom BuildMemberDom(std::string_view object_text, std::string_view key,
                         uint64_t budget_bytes) {
  MemberDom out;
  MemberSax sax(out.value, key, budget_bytes);
  const bool ok = json::sax_parse(object_text.begin(), object_text.end(), &sax);
  out.bytes = sax.bytes();
  if (sax.over_budget()) {
    out.outcome = MemberDom::Outcome::kOverBudget;
  } else if (!ok) {
    out.outcome = MemberDom::Outcome::kMalformed;
    out.error = sax.error();
  } else {
    out.outcome = sax.found() ? MemberDom::Outcome::kBuilt : MemberDom::Outcome::kAbsent;
  }
  if (out.outcome != MemberDom::Outcome::kBuilt) out.value = nullptr;
  return out;
}

}  // namespace parallax::io
