#include "src/base/text_safety.h"

#include <algorithm>
#include <cstring>

namespace parallax::base {

namespace {

bool IsControl(unsigned char c) { return c < 0x20 || c == 0x7f; }

}  // namespace

std::string EscapeControl(std::string_view text) {
  if (std::none_of(text.begin(), text.end(),
                   [](char c) { return IsControl(static_cast<unsigned char>(c)); }))
    return std::string(text);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (IsControl(u)) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<size_t> FindNul(std::string_view text, size_t limit) {
  size_t n = std::min(limit, text.size());
  const void* nul = std::memchr(text.data(), '\0', n);
  if (nul == nullptr) return std::nullopt;
  return static_cast<size_t>(static_cast<const char*>(nul) - text.data());
}

}  // namespace parallax::base
