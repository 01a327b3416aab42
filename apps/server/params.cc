#include "apps/server/params.h"

#include <algorithm>
#include <cctype>

namespace parallax::server {

using nlohmann::json;

size_t FirstTooDeep(std::string_view text, int max) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n = 0;
    uint32_t cp = 0, min = 0;
    if ((c & 0xE0) == 0xC0)
      n = 1, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
      n = 2, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
      n = 3, cp = c & 0x07, min = 0x10000;
    else
      return false;
    if (s.size() - i <= n) return false;  // the sequence is cut short
    for (size_t k = 1; k <= n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = cp << 6 | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

Params Params::Body(std::string_view body) {
  const char* hint = "send a JSON object, e.g. {\"trace\": \"traces/a.prv\", ...}";
  if (size_t at = FirstTooDeep(body, kMaxJsonDepth); at != std::string_view::npos)
    throw ApiError{400,
                   "the JSON body nests more than " + std::to_string(kMaxJsonDepth) +
                       " arrays or objects in one another (at byte " + std::to_string(at) +
                       "); expected at most " + std::to_string(kMaxJsonDepth) + " levels",
                   hint};
  json j;
  try {
    j = json::parse(body);
  } catch (const json::exception& e) {
    // The parser's message quotes the input near the error, which may not be UTF-8.
    std::string what = e.what();
    if (!ValidUtf8(what)) what = "the body is not valid UTF-8";
    if (what.size() > 300) what = what.substr(0, what.find("; last read")).substr(0, 300);
    throw ApiError{400, "malformed JSON body: " + what, hint};
  }
  if (!j.is_object())
    throw ApiError{400, std::string("the body must be a JSON object, not ") + j.type_name(), hint};
  return Params(nullptr, std::move(j));
}

const json* Params::JsonField(const char* name) const {
  if (req_ != nullptr) return nullptr;
  auto it = body_.find(name);
  return it == body_.end() || it->is_null() ? nullptr : &*it;
}

std::string Params::String(const char* name, size_t max_len) const {
  std::string v;
  if (req_ != nullptr) {
    if (req_->has_param(name)) v = req_->get_param_value(name);
  } else if (const json* j = JsonField(name)) {
    if (!j->is_string()) throw Wrong(name, "a string", *j);
    v = j->get<std::string>();
  }
  if (v.size() > max_len) throw ApiError{400, Kind() + " '" + name + "' is too long"};
  if (!ValidUtf8(v)) throw ApiError{400, Kind() + " '" + name + "' is not valid UTF-8"};
  return v;
}

std::optional<bool> Params::Bool(const char* name) const {
  if (req_ == nullptr) {
    const json* j = JsonField(name);
    if (j == nullptr) return std::nullopt;
    if (!j->is_boolean()) throw Wrong(name, "true or false", *j);
    return j->get<bool>();
  }
  std::string v = String(name, 8);
  if (v.empty()) return std::nullopt;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  throw ApiError{400,
                 std::string("parameter '") + name + "' must be true or false, not '" + v + "'"};
}

std::vector<double> Params::Parameters() const {
  constexpr size_t kMax = 64;
  std::vector<double> out;
  if (req_ != nullptr) {
    size_t n = req_->get_param_value_count("param");
    if (n > kMax) throw ApiError{400, "too many 'param' values"};
    for (size_t i = 0; i < n; ++i) {
      std::string v = req_->get_param_value("param", i);
      double d = 0;
      if (v.size() > 64 || !ValidUtf8(v)) throw ApiError{400, "parameter 'param' is not a number"};
      if (!FromChars(v, &d)) throw ApiError{400, "parameter 'param' is not a number: '" + v + "'"};
      out.push_back(d);
    }
    return out;
  }
  const json* j = JsonField("params");
  if (j == nullptr) return out;
  if (!j->is_array()) throw Wrong("params", "an array of numbers", *j);
  if (j->size() > kMax) throw ApiError{400, "too many 'params' values"};
  for (size_t i = 0; i < j->size(); ++i) {
    if (!(*j)[i].is_number())
      throw Wrong(("params[" + std::to_string(i) + "]").c_str(), "a number", (*j)[i]);
    out.push_back((*j)[i].get<double>());
  }
  return out;
}

ApiError Params::Wrong(const std::string& name, const char* expected, const json& j) {
  return {400, "field '" + name + "' must be " + expected + ", not " + j.type_name()};
}

namespace {

bool EqualNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool IsIpv4Literal(std::string_view h) {
  int parts = 0;
  size_t i = 0;
  while (i <= h.size()) {
    size_t dot = h.find('.', i);
    std::string_view part =
        h.substr(i, dot == std::string_view::npos ? std::string_view::npos : dot - i);
    unsigned v = 0;
    auto r = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || part.size() > 3 || r.ec != std::errc() ||
        r.ptr != part.data() + part.size() || v > 255)
      return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    i = dot + 1;
  }
  return parts == 4;
}

bool IsIpv6Literal(std::string_view h) {  // bracketed, as in a Host header
  if (h.size() < 4 || h.front() != '[' || h.back() != ']') return false;
  return std::all_of(h.begin() + 1, h.end() - 1, [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
  });
}

}  // namespace

bool HostAllowed(std::string_view host_header, std::string_view bound_host, int port) {
  // host[:port]; a bracketed IPv6 address holds colons of its own.
  size_t colon = host_header.rfind(':');
  if (colon != std::string_view::npos && host_header.find(']', colon) != std::string_view::npos)
    colon = std::string_view::npos;
  std::string_view name = host_header.substr(0, colon);
  // The port as a browser writes it (no leading zeros); none means 80.
  std::string_view given_port = colon == std::string_view::npos ? "80" : host_header.substr(colon + 1);
  if (given_port != std::to_string(port) || name.empty()) return false;
  if (EqualNoCase(name, "localhost") || name == "127.0.0.1" || name == "[::1]") return true;
  if (bound_host == "0.0.0.0" || bound_host == "::")
    return IsIpv4Literal(name) || IsIpv6Literal(name);
  std::string bracketed = bound_host.find(':') != std::string_view::npos
                              ? "[" + std::string(bound_host) + "]"
                              : std::string(bound_host);
  return EqualNoCase(name, bracketed);
}

bool SameOrigin(std::string_view origin, std::string_view host_header) {
  constexpr std::string_view kScheme = "http://";
  return origin.size() == kScheme.size() + host_header.size() &&
         EqualNoCase(origin.substr(0, kScheme.size()), kScheme) &&
         EqualNoCase(origin.substr(kScheme.size()), host_header);
}

bool IsJsonContentType(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  return EqualNoCase(type, "application/json");
}

std::string FileNameProblem(std::string_view name) {
  if (name.empty()) return "the file name is empty";
  if (name.size() > 255) return "the file name is longer than 255 bytes";
  if (!ValidUtf8(name)) return "the file name is not valid UTF-8";
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) return "the file name holds a control character";
    if (c == '/') return "the file name holds '/'";
  }
  return {};
}

}  // namespace parallax::server
