#pragma once
// `parallax serve`: the HTTP transport of the browser UI. Every route calls the same public
// API as the command line (include/parallax); the server holds no analysis logic. Requests
// need the server's token (query `token=`, header `X-Parallax-Token` or the cookie the first
// valid request sets) and may name only files under the served root.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "include/parallax/functions.h"
#include "include/parallax/trace.h"

namespace parallax::server {

struct ServerOptions {
  std::string root = ".";          // files outside it are never opened
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 0;                    // 0: any free port
  std::string token;               // empty: a random one
  size_t max_payload = 1 << 20;    // request bodies (a cfg's text and its settings): 413 beyond
  uint32_t max_width = 16384, max_height = 16384;  // image size limits
  // Connections (docs/security.md): served at once, waiting (429 beyond), and the deadlines.
  size_t workers = 16, queue = 64;
  int idle_timeout_ms = 5000;    // for the next request on a connection
  int header_timeout_ms = 5000;  // request line and headers, before the token is checked
  int body_timeout_ms = 60000;   // the body, after the token is checked
  int write_timeout_ms = 60000;  // one response
  // Seconds of computing one timeline, text or analyzer request may take (503 beyond, and its
  // worker is free again); 0 = no limit.
  double request_time_limit = 60;
  // Bytes one timeline, text or analyzer request may hold while it is computed (its intervals,
  // histogram cells, image, communication lines): 503 beyond; 0 = no limit.
  uint64_t request_memory_limit = uint64_t{2} << 30;
  // Tests only: called with the path of every request that reaches a route, before the route
  // runs (a test throws from it to check that no exception escapes). Empty in `parallax serve`.
  std::function<void(const std::string& path)> test_hook;
  // The semantic functions of the loaded plug-ins (null: the built-in ones): traces are opened
  // with them and /api/functions lists them.
  std::shared_ptr<const FunctionRegistry> functions;
  // How traces are opened: the trace cache, compact records, the memory limit (`parallax
  // serve` takes them from the global options); its functions and progress are set per load.
  LoadOptions load;
};

// 32 hex digits from /dev/urandom.
std::string RandomToken();

class Server {
 public:
  virtual ~Server() = default;

  // Checks the root and binds the port; on failure returns null and sets `error`.
  static std::unique_ptr<Server> Create(const ServerOptions& options, std::string* error);

  // Loads a trace (a path under the root) before serving; false with `error` when it fails.
  virtual bool Preload(const std::string& path, std::string* error) = 0;

  // Serves until Stop() (from another thread or a signal handler's thread).
  virtual void Run() = 0;
  virtual void Stop() = 0;

  virtual int port() const = 0;
  virtual const std::string& token() const = 0;
  virtual const std::string& root() const = 0;
  // http://host:port/?token=...
  virtual std::string Url() const = 0;
};

}  // namespace parallax::server
