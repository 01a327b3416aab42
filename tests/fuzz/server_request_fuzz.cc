// The request reader of `parallax serve` (apps/server/params.h): a query string as httplib parses
// it, a JSON body, and the header and name checks. Input: the query string, a newline, the JSON
// body, a newline, then one line each for a Host header, an Origin, a Content-Type and a file
// name. Every field is read as each route reads it; a refusal must be an ApiError with a message
// that encodes as JSON, and anything else thrown is a bug (libFuzzer reports it). The UTF-8
// check is compared with nlohmann-json's encoder, which refuses exactly what it should.

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "apps/server/params.h"

namespace {

using parallax::server::ApiError;
using parallax::server::Params;

std::string_view NextLine(std::string_view* rest) {
  size_t nl = rest->find('\n');
  std::string_view line = rest->substr(0, nl);
  rest->remove_prefix(nl == std::string_view::npos ? rest->size() : nl + 1);
  return line;
}

template <typename F>
void Refusable(F&& f) {
  try {
    f();
  } catch (const ApiError& e) {
    if (e.status < 400 || e.status > 499) std::abort();
    // What the server sends back must always encode.
    (void)nlohmann::json{{"error", e.message}, {"hint", e.hint}}.dump(-1, ' ', true,
                                                                     nlohmann::json::error_handler_t::replace);
  }
}

void ReadEverything(const Params& p) {
  for (const char* name : {"trace", "cfg", "cfg_text", "function", "window", "objects", "format", "path", "name"})
    Refusable([&] { (void)p.String(name, 64); });
  Refusable([&] { (void)p.Number<uint32_t>("width"); });
  Refusable([&] { (void)p.Number<uint64_t>("from"); });
  Refusable([&] { (void)p.Number<double>("min"); });
  Refusable([&] { (void)p.Bool("flags"); });
  Refusable([&] { (void)p.Parameters(); });
  Refusable([&] { (void)p.JsonField("document"); });
}

void CheckUtf8(std::string_view s) {
  bool ours = parallax::server::ValidUtf8(s);
  bool theirs = true;
  try {
    (void)nlohmann::json(std::string(s)).dump();
  } catch (const nlohmann::json::type_error&) {
    theirs = false;
  }
  if (ours != theirs) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string_view query = NextLine(&rest), body = NextLine(&rest);
  std::string_view host = NextLine(&rest), origin = NextLine(&rest), type = NextLine(&rest),
                   file = NextLine(&rest);

  httplib::Request req;
  req.method = "GET";
  httplib::detail::parse_query_text(std::string(query), req.params);
  ReadEverything(Params::Query(req));
  Refusable([&] { ReadEverything(Params::Body(body)); });

  for (std::string_view bound : {"127.0.0.1", "0.0.0.0", "::", "example.org"}) {
    bool allowed = parallax::server::HostAllowed(host, bound, 8080);
    // Only names of this machine or literal addresses, always with the port.
    if (allowed && host.find(":8080") == std::string_view::npos) std::abort();
    if (allowed) (void)parallax::server::SameOrigin(origin, host);
  }
  (void)parallax::server::IsJsonContentType(type);
  std::string problem = parallax::server::FileNameProblem(file);
  if (problem.empty() && (file.empty() || file.size() > 255 || file.find('/') != std::string_view::npos))
    std::abort();
  CheckUtf8(query);
  CheckUtf8(body);
  CheckUtf8(file);
  return 0;
}
