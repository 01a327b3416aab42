#pragma once
// How the server reads a request: its parameters (query string or JSON body), the errors a route
// throws, and the checks on headers and names that run before any route (Host, Origin, content
// type, file names). Nothing here touches a socket or the core, so the fuzz target
// (tests/fuzz/server_request_fuzz.cc) drives it directly.

#include <httplib.h>

#include <charconv>
#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

namespace parallax::server {

// A request that cannot be served: thrown by the parameter helpers and the routes, and turned
// into a JSON error by the server's route wrapper, so each route reads as the happy path.
struct ApiError {
  int status = 400;
  std::string message;
  std::string hint = {};
};

constexpr int kMaxJsonDepth = 64;  // nesting of a JSON body

// The byte offset of the first array or object of `text` nested deeper than `max` (strings
// skipped), without parsing it; npos when there is none.
size_t FirstTooDeep(std::string_view text, int max);

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool ValidUtf8(std::string_view s);

template <typename T>
bool FromChars(const std::string& v, T* out) {
  auto r = std::from_chars(v.data(), v.data() + v.size(), *out);
  return r.ec == std::errc() && r.ptr == v.data() + v.size();
}

// Where a route reads its parameters: the query string (GET) or the fields of a JSON object sent
// as the body (POST). The routes read both the same way; only the types differ: query values are
// text ("1", "true", "on"), JSON fields have their natural types (numbers, true/false, strings),
// and a JSON null counts as absent. Query parameters a route does not know are ignored, and so are
// unknown JSON fields. Every string read must be valid UTF-8 (400 otherwise).
class Params {
 public:
  static Params Query(const httplib::Request& req) { return Params(&req, nlohmann::json()); }

  // The JSON object `body` (400 when it is not one).
  static Params Body(std::string_view body);

  // POST: the JSON body; otherwise the query string.
  static Params Of(const httplib::Request& req) {
    return req.method == "POST" ? Body(req.body) : Query(req);
  }

  // The raw JSON field (null when absent or from a query).
  const nlohmann::json* JsonField(const char* name) const;

  std::string String(const char* name, size_t max_len = 4096) const;

  template <typename T>
  std::optional<T> Number(const char* name) const {
    T out{};
    if (req_ != nullptr) {
      std::string v = String(name, 64);
      if (v.empty()) return std::nullopt;
      if (!FromChars(v, &out))
        throw ApiError{400,
                       "parameter '" + std::string(name) + "' is not a valid number: '" + v + "'"};
      return out;
    }
    const nlohmann::json* j = JsonField(name);
    if (j == nullptr) return std::nullopt;
    if constexpr (std::is_floating_point_v<T>) {
      if (!j->is_number()) throw Wrong(name, "a number", *j);
    } else {
      if (!j->is_number_integer()) throw Wrong(name, "an integer", *j);
      bool fits =
          j->is_number_unsigned()
              ? j->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max())
              : std::is_signed_v<T> &&
                    j->get<int64_t>() >= static_cast<int64_t>(std::numeric_limits<T>::min());
      if (!fits)
        throw ApiError{400, "field '" + std::string(name) + "' is out of range: " + j->dump()};
    }
    return j->get<T>();
  }

  std::optional<bool> Bool(const char* name) const;

  // A function's parameter values: the repeated query parameter `param`, or the JSON array
  // `params` of numbers.
  std::vector<double> Parameters() const;

 private:
  Params(const httplib::Request* req, nlohmann::json body) : req_(req), body_(std::move(body)) {}

  std::string Kind() const { return req_ != nullptr ? "parameter" : "field"; }
  static ApiError Wrong(const std::string& name, const char* expected, const nlohmann::json& j);

  const httplib::Request* req_;  // query parameters, or null for a JSON body
  nlohmann::json body_;
};

// The header checks every request passes before its route (docs/security.md).

// `host_header` (the Host header as sent) names this server: 127.0.0.1, localhost or [::1], or the
// address it listens on (`bound_host`; any IP literal when that is 0.0.0.0 or ::), always with
// the served `port`. Other names are refused against DNS rebinding.
bool HostAllowed(std::string_view host_header, std::string_view bound_host, int port);

// `origin` is this server's own origin: "http://" followed by the (already checked) Host header.
bool SameOrigin(std::string_view origin, std::string_view host_header);

// `content_type` is application/json, with optional parameters (e.g. "; charset=utf-8").
bool IsJsonContentType(std::string_view content_type);

// Why `name` cannot be a file name the server creates ("" when it can): empty, longer than 255
// bytes, not UTF-8, or holding a control character or '/'.
std::string FileNameProblem(std::string_view name);

}  // namespace parallax::server
