#include "src/cfg/cfg_tokens.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>

namespace parallax::cfg {

namespace {

// Reads a value like std::getline on a string stream: up to a delimiter, which is consumed.
class Scanner {
 public:
  explicit Scanner(Field f) : text_(f.text), base_(f.column) {}

  // The text up to `delim` (not included); nullopt when the delimiter does not occur.
  std::optional<Field> Until(char delim) {
    size_t p = text_.find(delim, pos_);
    if (p == std::string_view::npos) return std::nullopt;
    Field f{text_.substr(pos_, p - pos_), base_ + pos_};
    pos_ = p + 1;
    return f;
  }
  bool Skip() {
    if (pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }
  size_t column() const { return base_ + pos_; }
  std::string_view rest() const { return text_.substr(pos_); }

 private:
  std::string_view text_;
  size_t base_;
  size_t pos_ = 0;
};

bool Fail(TokenError* err, size_t column, std::string expected, std::string_view found) {
  err->column = column;
  err->expected = std::move(expected);
  err->found = std::string(found);
  return false;
}

bool Count(std::optional<Field> f, Scanner& s, const char* what, uint64_t* n, TokenError* err) {
  if (!f) return Fail(err, s.column(), what, s.rest());
  if (!ParseUint(f->text, 1u << 20, n)) return Fail(err, f->column, "a count", f->text);
  return true;
}

bool ReadValue(Scanner& s, char delim, std::vector<double>* out, TokenError* err) {
  std::optional<Field> v = s.Until(delim);
  if (!v)
    return Fail(err, s.column(), std::string("a number followed by '") + delim + "'", s.rest());
  double d = 0;
  if (!ParseDouble(v->text, &d)) return Fail(err, v->column, "a number", v->text);
  out->push_back(d);
  return true;
}

bool ReadParameter(Scanner& s, bool last, bool* skip_next, std::vector<double>* out,
                   TokenError* err) {
  if (*skip_next && !s.Skip()) return Fail(err, s.column(), "a parameter", "");
  *skip_next = true;
  std::optional<Field> k_text = s.Until(' ');
  if (!k_text) return Fail(err, s.column(), "a value count followed by ' '", s.rest());
  std::string_view k_str = k_text->text;
  if (!last && k_str.size() > 1 && k_str.back() == ',') {
    // An empty non-final parameter ("0, "): the space after the comma is already consumed.
    k_str.remove_suffix(1);
    *skip_next = false;
  }
  uint64_t k = 0;
  if (!ParseUint(k_str, 1u << 24, &k)) return Fail(err, k_text->column, "a value count", k_str);
  if (!*skip_next && k != 0) return Fail(err, k_text->column, "a value count", k_text->text);
  for (uint64_t j = 0; j < k; ++j) {
    char delim = (j + 1 < k || last) ? ' ' : ',';
    if (!ReadValue(s, delim, out, err)) return false;
  }
  return true;
}

std::vector<Field> SplitCommas(std::string_view text, size_t column) {
  std::vector<Field> out;
  size_t start = 0;
  while (true) {
    size_t p = text.find(',', start);
    std::string_view piece = text.substr(start, p == std::string_view::npos ? p : p - start);
    size_t lead = piece.find_first_not_of(" \t");
    std::string_view trimmed = TrimBlanks(piece);
    out.push_back(Field{trimmed, column + start + (lead == std::string_view::npos ? 0 : lead)});
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return out;
}

}  // namespace

std::string_view TrimRightBlanks(std::string_view s) {
  size_t e = s.find_last_not_of(" \t");
  return e == std::string_view::npos ? std::string_view() : s.substr(0, e + 1);
}

std::string_view TrimBlanks(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return TrimRightBlanks(s.substr(b));
}

namespace {

// The decimal order of magnitude of a number std::from_chars found out of range: > 0 means it
// overflows, otherwise it underflows. `text` is a complete decimal number (sign, digits, an
// optional point and exponent).
int64_t DecimalOrder(std::string_view text) {
  size_t i = text[0] == '-' ? 1 : 0;
  int64_t before_point = 0, leading_zeros_after = 0;
  bool nonzero = false, after_point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    char c = text[i];
    if (c == '.') {
      after_point = true;
    } else if (!after_point) {
      nonzero |= c != '0';
      if (nonzero) ++before_point;
    } else if (!nonzero) {
      if (c != '0') nonzero = true;
      else ++leading_zeros_after;
    }
  }
  int64_t exponent = 0;
  if (i < text.size()) {
    std::string_view e = text.substr(i + 1);
    if (!e.empty() && e[0] == '+') e.remove_prefix(1);
    auto [p, ec] = std::from_chars(e.data(), e.data() + e.size(), exponent);
    if (ec == std::errc::result_out_of_range) exponent = e[0] == '-' ? INT32_MIN : INT32_MAX;
    exponent = std::clamp<int64_t>(exponent, INT32_MIN, INT32_MAX);
  }
  return (before_point > 0 ? before_point : -leading_zeros_after) + exponent;
}

}  // namespace

// Any decimal number Paraver can print reads: ±DBL_MAX written with "%f" is 309 digits
// before the point, and runs of digits beyond the double range saturate to ±DBL_MAX (or
// underflow to ±0) instead of being refused.
bool ParseDouble(std::string_view text, double* out) {
  text = TrimBlanks(text);
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (p != text.data() + text.size()) return false;
  if (ec == std::errc()) return true;
  if (ec != std::errc::result_out_of_range) return false;
  bool negative = text[0] == '-';
  if (DecimalOrder(text) > 0)
    *out = negative ? -std::numeric_limits<double>::max() : std::numeric_limits<double>::max();
  else
    *out = negative ? -0.0 : 0.0;
  return true;
}

bool ParseUint(std::string_view text, uint64_t max, uint64_t* out) {
  text = TrimBlanks(text);
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size() && *out <= max;
}

bool ParseInt(std::string_view text, int64_t min, int64_t max, int64_t* out) {
  text = TrimBlanks(text);
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size() && *out >= min && *out <= max;
}

bool TokenizeFunctionList(Field value, std::vector<FunctionEntryText>* out, TokenError* err) {
  Scanner s(value);
  if (!s.Until(' ')) return Fail(err, s.column(), "'{ N, { {level, function}, ... } }'", s.rest());
  uint64_t n = 0;
  if (!Count(s.Until(','), s, "the number of entries followed by ','", &n, err)) return false;
  if (!s.Until('{')) return Fail(err, s.column(), "'{' before the entries", s.rest());
  for (uint64_t i = 0; i < n; ++i) {
    if (!s.Until('{'))
      return Fail(err, s.column(), "entry " + std::to_string(i + 1) + " of " + std::to_string(n),
                  s.rest());
    std::optional<Field> level = s.Until(',');
    if (!level) return Fail(err, s.column(), "'level, function}'", s.rest());
    if (!s.Skip()) return Fail(err, s.column(), "' function}'", s.rest());
    std::optional<Field> fn = s.Until('}');
    if (!fn) return Fail(err, s.column(), "a function name followed by '}'", s.rest());
    out->push_back(FunctionEntryText{*level, *fn});
  }
  return true;
}

bool TokenizeSemanticModule(Field value, SemanticModuleText* out, TokenError* err) {
  Scanner s(value);
  std::optional<Field> level = s.Until(' ');
  if (!level) return Fail(err, s.column(), "'level function { P, { ... } }'", s.rest());
  std::optional<Field> fn = s.Until('{');
  if (!fn || fn->text.empty())
    return Fail(err, s.column(), "a function name followed by ' {'", s.rest());
  out->level = *level;
  out->function = Field{fn->text.substr(0, fn->text.size() - 1), fn->column};
  if (!s.Skip()) return Fail(err, s.column(), "the number of parameters", s.rest());
  uint64_t p = 0;
  if (!Count(s.Until(','), s, "the number of parameters followed by ','", &p, err)) return false;
  if (!s.Until('{')) return Fail(err, s.column(), "'{' before the parameters", s.rest());
  bool skip_next = true;
  for (uint64_t i = 0; i < p; ++i) {
    out->params.emplace_back();
    if (!ReadParameter(s, i + 1 == p, &skip_next, &out->params.back(), err)) return false;
  }
  return true;
}

bool TokenizeObjectLine(Field value, ObjectLineText* out, TokenError* err) {
  std::string_view t = value.text;
  size_t sp = t.find(' ');
  size_t b1 = t.find('{');
  size_t b2 = b1 == std::string_view::npos ? b1 : t.find('{', b1 + 1);
  size_t close = b2 == std::string_view::npos ? b2 : t.find('}', b2);
  if (sp == std::string_view::npos || b1 == std::string_view::npos || b1 < sp)
    return Fail(err, value.column, "'level { ..., n, { s1, ..., sn } }'", t);
  if (b2 == std::string_view::npos || close == std::string_view::npos)
    return Fail(err, value.column + b1, "'{ ..., n, { s1, ..., sn } }'", t.substr(b1));
  std::string_view tail = TrimBlanks(t.substr(close + 1));
  if (tail != "}")
    return Fail(err, value.column + close + 1, "' }' at the end", t.substr(close + 1));
  out->level = Field{t.substr(0, sp), value.column};
  std::vector<Field> header = SplitCommas(t.substr(b1 + 1, b2 - b1 - 1), value.column + b1 + 1);
  if (!header.empty() && header.back().text.empty()) header.pop_back();
  for (const Field& h : header) {
    uint64_t v = 0;
    if (!ParseUint(h.text, UINT32_MAX, &v)) return Fail(err, h.column, "an index or count", h.text);
    out->header.push_back(static_cast<uint32_t>(v));
  }
  std::string_view inner = t.substr(b2 + 1, close - b2 - 1);
  if (!TrimBlanks(inner).empty()) out->entries = SplitCommas(inner, value.column + b2 + 1);
  return true;
}

}  // namespace parallax::cfg
