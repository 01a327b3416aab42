#include "apps/server/server.h"

#include <fcntl.h>
#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <atomic>
#include <chrono>
#include <climits>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "apps/server/assets.h"
#include "apps/server/cells.h"
#include "apps/server/connection.h"
#include "apps/server/json_convert.h"
#include "apps/server/params.h"
#include "apps/server/root_dir.h"
#include "apps/server/source_files.h"
#include "apps/server/trace_cache.h"
#include "include/parallax/cfg.h"
#include "include/parallax/diagnose.h"
#include "include/parallax/structure.h"
#include "include/parallax/compare.h"
#include "include/parallax/output.h"
#include "include/parallax/functions.h"
#include "include/parallax/render.h"
#include "include/parallax/trace.h"
#include "include/parallax/views.h"
#include "include/parallax/window.h"

namespace parallax::server {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A JSON error. Never throws: messages may quote user input that is not UTF-8 (replaced here), and
// when even this fails (no memory) a fixed body is sent.
void SendError(httplib::Response& res, int status, const std::string& message,
               const std::string& hint = {}) noexcept {
  res.status = status;
  try {
    json j = {{"error", message}, {"status", status}};
    if (!hint.empty()) j["hint"] = hint;
    res.set_content(j.dump(-1, ' ', true, json::error_handler_t::replace), "application/json");
  } catch (...) {
    res.status = 500;
    try {
      res.set_content("{\"error\":\"internal error\",\"status\":500}", "application/json");
    } catch (...) {  // nothing more can be done; httplib sends the status alone
    }
  }
}

void SendJson(httplib::Response& res, const json& j) {
  res.set_content(j.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

constexpr size_t kMaxCfgBytes = size_t{1} << 20;    // a cfg file, or a cfg's text in a request
constexpr size_t kMaxDescription = 4000;            // characters of a cfg's description in listings
constexpr size_t kMaxHeaderBytes = 64 << 10;        // a request's line and headers, as read
constexpr uint32_t kMaxCellObjects = 4096;  // objects of one /api/cells request
constexpr size_t kMaxMarks = 20000;         // event times of one /api/source/events answer
constexpr uint64_t kMaxPixels = uint64_t{1} << 25;  // width x height of one image (128 MiB as RGBA)

// The core's message, with the line it points at (the file's base name only: absolute paths say
// nothing the client needs).
std::string StatusText(const Status& s) {
  const Location& w = s.where();
  if (w.line == 0) return s.message();
  std::string where = fs::path(w.file).filename().string() + ":" + std::to_string(w.line);
  if (w.column != 0) where += ":" + std::to_string(w.column);
  return where + ": " + s.message();
}

// 503 for a resource limit (memory, the request's time limit): the request itself may be fine.
ApiError CoreError(const Status& s) { return {s.limit() ? 503 : 422, StatusText(s), s.hint()}; }

// The window(s) a timeline, text or analyzer request works on: a cfg under the root, a cfg's text
// sent with the request, or (timeline and text) one thread function.
struct WindowSource {
  std::string cfg_path;  // the resolved cfg, or only a name for cfg_text in messages
  std::string cfg_text;
  std::string window;
  std::string function;
  std::vector<double> params;

  template <typename Request>
  void To(Request* r) const {
    r->cfg_path = cfg_path;
    r->cfg_text = cfg_text;
    r->window = window;
    r->thread_function = function;
    r->parameters = params;
  }
};

// Cuts `s` to at most `max` bytes without splitting a UTF-8 sequence.
std::string Truncate(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
  return s;
}

// Closes a file descriptor and removes a temporary file (relative to a directory descriptor)
// when a save does not complete.
class SaveCleanup {
 public:
  explicit SaveCleanup(int dir_fd) : dir_fd_(dir_fd) {}
  ~SaveCleanup() {
    if (!temp_.empty()) ::unlinkat(dir_fd_, temp_.c_str(), 0);
    if (dir_fd_ >= 0) ::close(dir_fd_);
  }
  SaveCleanup(const SaveCleanup&) = delete;
  SaveCleanup& operator=(const SaveCleanup&) = delete;
  void set_temp(std::string name) { temp_ = std::move(name); }
  void keep() { temp_.clear(); }

 private:
  int dir_fd_;
  std::string temp_;
};

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string CookieValue(const std::string& header, const std::string& name) {
  std::string_view s = header;
  while (!s.empty()) {
    size_t semi = s.find(';');
    std::string_view part = s.substr(0, semi);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.size() > name.size() && part.compare(0, name.size(), name) == 0 && part[name.size()] == '=')
      return std::string(part.substr(name.size() + 1));
    if (semi == std::string_view::npos) break;
    s.remove_prefix(semi + 1);
  }
  return {};
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Names of the trace files the file browser lists and the server opens: Paraver traces and the
// formats the core imports (docs/formats.md); the core decides the format by content.
bool IsTraceName(std::string_view name) {
  for (std::string_view ext : {".prv", ".prv.gz", ".json", ".json.gz", ".trace", ".paje", ".trf",
                               ".picl", ".otf2", ".sddf", ".gist", ".brief"})
    if (EndsWith(name, ext)) return true;
  return false;
}

const char* ContentType(std::string_view path) {
  if (EndsWith(path, ".html")) return "text/html; charset=utf-8";
  if (EndsWith(path, ".js") || EndsWith(path, ".mjs")) return "text/javascript; charset=utf-8";
  if (EndsWith(path, ".css")) return "text/css; charset=utf-8";
  if (EndsWith(path, ".svg")) return "image/svg+xml";
  if (EndsWith(path, ".png")) return "image/png";
  if (EndsWith(path, ".json")) return "application/json";
  return "application/octet-stream";
}

class ServerImpl final : public Server {
 public:
  ServerImpl(ServerOptions options, RootDir root)
      : options_(std::move(options)), root_(std::move(root)), cache_(options_.functions, options_.load),
        http_(Limits(options_)) {}

  bool Bind(std::string* error) {
    Routes();
    http_.set_payload_max_length(options_.max_payload);
    port_ = options_.port == 0
                ? http_.bind_to_any_port(options_.host)
                : (http_.bind_to_port(options_.host, options_.port) ? options_.port : -1);
    if (port_ <= 0) {
      *error = "cannot listen on " + options_.host + ":" + std::to_string(options_.port);
      return false;
    }
    cookie_name_ = "parallax_token_" + std::to_string(port_);
    return true;
  }

  bool Preload(const std::string& path, std::string* error) override {
    try {
      OpenTrace(path);
      std::string relative = root_.Relative(ResolvePath(path));
      std::lock_guard<std::mutex> lock(preloaded_mutex_);
      if (std::find(preloaded_.begin(), preloaded_.end(), relative) == preloaded_.end())
        preloaded_.push_back(std::move(relative));
      return true;
    } catch (const ApiError& e) {
      *error = e.message + (e.hint.empty() ? "" : "\n  hint: " + e.hint);
    } catch (const std::exception& e) {
      *error = std::string("internal error: ") + e.what();
    } catch (...) {
      *error = "internal error";
    }
    return false;
  }

  // Stop may come before Run's thread has started listening: cpp-httplib's stop() does nothing
  // then, and the listen that follows would wait for ever. So Run does not start after a Stop,
  // and Stop waits (briefly) for a Run that has begun to be listening before stopping it.
  void Run() override {
    running_.store(true);
    if (!stop_requested_.load()) http_.listen_after_bind();
    running_.store(false);
  }
  void Stop() override {
    stop_requested_.store(true);
    while (running_.load() && !http_.is_running())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    http_.stop();
  }
  int port() const override { return port_; }
  const std::string& token() const override { return options_.token; }
  const std::string& root() const override { return root_.path(); }
  std::string Url() const override {
    std::string host = options_.host == "0.0.0.0" ? "127.0.0.1" : options_.host;
    return "http://" + host + ":" + std::to_string(port_) + "/?token=" + options_.token;
  }

 private:
  using Handler = void (ServerImpl::*)(const httplib::Request&, httplib::Response&);

  static ConnectionLimits Limits(const ServerOptions& o) {
    ConnectionLimits l;
    l.workers = std::max<size_t>(1, o.workers);
    l.queue = o.queue;
    l.idle_timeout_ms = o.idle_timeout_ms;
    l.header_timeout_ms = o.header_timeout_ms;
    l.body_timeout_ms = o.body_timeout_ms;
    l.write_timeout_ms = o.write_timeout_ms;
    l.max_request_bytes = o.max_payload + kMaxHeaderBytes;
    return l;
  }

  // Runs `f`, turning ApiError and anything else thrown into a JSON error response.
  template <typename F>
  void Catching(httplib::Response& res, F&& f) noexcept {
    try {
      f();
    } catch (const ApiError& e) {
      SendError(res, e.status, e.message, e.hint);
    } catch (const std::bad_alloc&) {
      SendError(res, 503, "out of memory for this request",
                "ask for a smaller view or a smaller range");
    } catch (const std::exception& e) {
      SendError(res, 500, std::string("internal error: ") + e.what());
    } catch (...) {
      SendError(res, 500, "internal error");
    }
  }

  // A route: GET handlers read the query string.
  httplib::Server::Handler Guarded(Handler h) {
    return [this, h](const httplib::Request& req, httplib::Response& res) {
      Catching(res, [&] {
        if (options_.test_hook) options_.test_hook(req.path);
        (this->*h)(req, res);
      });
    };
  }

  // A POST route: the body is read here, at most max_payload bytes whatever its framing
  // (Content-Length, chunked or none); beyond, 413 and the connection closes.
  httplib::Server::HandlerWithContentReader GuardedPost(Handler h) {
    return [this, h](const httplib::Request& req, httplib::Response& res,
                     const httplib::ContentReader& reader) {
      Catching(res, [&] {
        httplib::Request with_body = req;
        bool too_large = false;
        bool read = reader([&](const char* data, size_t n) {
          if (with_body.body.size() + n > options_.max_payload) {
            too_large = true;
            return false;
          }
          with_body.body.append(data, n);
          return true;
        });
        if (!read) {
          GuardedHttpServer::CloseAfterResponse();
          res.set_header("Connection", "close");
          if (too_large)
            throw ApiError{413, "request body too large",
                           "bodies are at most " + Bytes(options_.max_payload)};
          throw ApiError{400, "the request body could not be read",
                         "send a complete body within the time allowed"};
        }
        if (options_.test_hook) options_.test_hook(req.path);
        (this->*h)(with_body, res);
      });
    };
  }

  static std::string Bytes(size_t n) {
    return n % (1 << 20) == 0 ? std::to_string(n >> 20) + " MiB" : std::to_string(n) + " bytes";
  }

  void Routes() {
    http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      bool pass = false;
      Catching(res, [&] { pass = Admit(req, res); });
      return pass ? httplib::Server::HandlerResponse::Unhandled
                  : httplib::Server::HandlerResponse::Handled;
    });
    http_.set_post_routing_handler([this](const httplib::Request&, httplib::Response& res) {
      Catching(res, [&] {
        res.set_header("X-Content-Type-Options", "nosniff");
        res.set_header("Cache-Control", "no-store");
        res.set_header("Cross-Origin-Resource-Policy", "same-origin");
        res.set_header("Content-Security-Policy",
                       "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
                       "frame-ancestors 'none'");
      });
    });
    http_.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      int status = res.status;
      Catching(res, [&] {
        if (status == 404) throw ApiError{404, "no route " + req.method + " " + req.path};
        if (status == 413)
          throw ApiError{413, "request too large",
                         "bodies are at most " + Bytes(options_.max_payload)};
        if (status == 400) throw ApiError{400, "malformed request"};
        throw ApiError{status, "request failed"};
      });
    });
    http_.set_exception_handler(
        [this](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
          Catching(res, [&] { std::rethrow_exception(e); });
        });
    http_.Get("/api/files", Guarded(&ServerImpl::Files));
    http_.Get("/api/open", Guarded(&ServerImpl::Open));
    http_.Post("/api/open", GuardedPost(&ServerImpl::Open));
    http_.Get("/api/info", Guarded(&ServerImpl::Info));
    http_.Get("/api/progress", Guarded(&ServerImpl::Progress));
    http_.Get("/api/traces", Guarded(&ServerImpl::Traces));
    // GET with query parameters, or POST with the same parameters as a JSON object.
    const std::pair<const char*, Handler> either[] = {
        {"/api/timeline", &ServerImpl::Timeline}, {"/api/text", &ServerImpl::Text},
        {"/api/analyze", &ServerImpl::AnalyzeRoute}, {"/api/at", &ServerImpl::At},
        {"/api/cells", &ServerImpl::CellsRoute}, {"/api/find", &ServerImpl::Find},
        {"/api/source/events", &ServerImpl::SourceEventsRoute},
        {"/api/objects", &ServerImpl::Objects}, {"/api/traffic", &ServerImpl::TrafficRoute},
        {"/api/utilisation", &ServerImpl::UtilisationRoute},
        {"/api/diagnose", &ServerImpl::DiagnoseRoute}, {"/api/structure", &ServerImpl::StructureRoute},
        {"/api/compare", &ServerImpl::CompareRoute},
        {"/api/compare/window", &ServerImpl::CompareWindowRoute}};
    for (const auto& [path, handler] : either) {
      http_.Get(path, Guarded(handler));
      http_.Post(path, GuardedPost(handler));
    }
    http_.Get("/api/functions", Guarded(&ServerImpl::Functions));
    http_.Get("/api/source", Guarded(&ServerImpl::Source));
    http_.Get("/api/cfg", Guarded(&ServerImpl::Cfg));
    http_.Post("/api/cfg/function", GuardedPost(&ServerImpl::CfgFunction));
    http_.Get("/api/views", Guarded(&ServerImpl::Views));
    http_.Get("/api/view", Guarded(&ServerImpl::View));
    http_.Post("/api/cfg/edit", GuardedPost(&ServerImpl::CfgEdit));
    http_.Post("/api/cfg/save", GuardedPost(&ServerImpl::CfgSave));
    http_.Get("/api/.*", Guarded(&ServerImpl::NoRoute));
    // Every other POST reads (and caps) its body too before its 404.
    http_.Post(".*", GuardedPost(&ServerImpl::NoRoute));
    http_.Get("/(.*)", Guarded(&ServerImpl::Asset));
  }

  // Whether a request may reach its route: checked before its body is read. Answers the request
  // itself (and returns false) when not.
  bool Admit(const httplib::Request& req, httplib::Response& res) {
    auto refuse = [&](int status, const std::string& message, const std::string& hint = {}) {
      // The body, if any, is left unread: this connection cannot carry another request.
      GuardedHttpServer::CloseAfterResponse();
      res.set_header("Connection", "close");
      SendError(res, status, message, hint);
      return false;
    };
    if (req.method != "GET" && req.method != "HEAD" && req.method != "POST") {
      res.set_header("Allow", "GET, HEAD, POST");
      return refuse(405, "method " + req.method + " is not allowed", "use GET or POST");
    }
    // Two Host headers make the request ambiguous (RFC 9112, section 3.2): whichever one a check
    // read, a proxy or the browser may have meant the other.
    if (req.get_header_value_count("Host") > 1) return refuse(400, "more than one Host header");
    // DNS rebinding: a page of another site resolving its name to this machine sends its own Host.
    std::string host = req.get_header_value("Host");
    if (!HostAllowed(host, options_.host, port_))
      return refuse(403, "this server is not reached by the name '" + host + "'",
                    "use the URL `parallax serve` printed (127.0.0.1, localhost or [::1], port " +
                        std::to_string(port_) + ")");
    if (!CheckToken(req, res)) {
      GuardedHttpServer::CloseAfterResponse();
      res.set_header("Connection", "close");
      return false;
    }
    GuardedHttpServer::GrantBodyTime();
    // Another page on this machine (any port shares the cookie) must not be able to write, nor
    // make the server load or compute anything: every POST and every API route, GET included
    // (a GET of /api/open, /api/info or /api/timeline loads a trace that stays in memory). Only
    // the UI's own pages and scripts may be reached from elsewhere (a link, a bookmark).
    if (req.method == "POST" || req.path.rfind("/api/", 0) == 0 || req.path == "/api") {
      std::string origin = req.get_header_value("Origin");
      if (!origin.empty() && !SameOrigin(origin, host))
        return refuse(403, "cross-origin request refused (Origin '" + origin + "')");
      std::string site = req.get_header_value("Sec-Fetch-Site");
      if (!site.empty() && site != "same-origin" && site != "none")
        return refuse(403, "cross-site request refused (Sec-Fetch-Site '" + site + "')");
    }
    if (req.method == "POST") {
      uint64_t length = 0;
      if (req.has_header("Content-Length") &&
          !FromChars(req.get_header_value("Content-Length"), &length))
        return refuse(400, "malformed Content-Length");
      bool has_body = req.has_header("Transfer-Encoding") || length > 0;
      if (length > options_.max_payload)
        return refuse(413, "request body too large",
                      "bodies are at most " + Bytes(options_.max_payload));
      if (has_body) {
        if (!IsJsonContentType(req.get_header_value("Content-Type")))
          return refuse(415, "request bodies must be JSON, sent as Content-Type: application/json",
                        "the body was sent as '" + req.get_header_value("Content-Type") + "'");
        std::string encoding = req.get_header_value("Content-Encoding");
        if (!encoding.empty() && encoding != "identity")
          return refuse(415, "compressed request bodies are not accepted (Content-Encoding '" +
                                 encoding + "')");
      }
    }
    return true;
  }

  bool CheckToken(const httplib::Request& req, httplib::Response& res) {
    std::string query = req.has_param("token") ? req.get_param_value("token") : "";
    std::string given = !query.empty() ? query : req.get_header_value("X-Parallax-Token");
    if (given.empty()) given = CookieValue(req.get_header_value("Cookie"), cookie_name_);
    if (!ConstantTimeEqual(given, options_.token)) {
      SendError(res, 403, given.empty() ? "missing token" : "wrong token",
                "open the URL `parallax serve` printed (it ends in ?token=...)");
      return false;
    }
    if (!query.empty())  // later requests of this browser carry the cookie instead (for this
                         // session)
      res.set_header("Set-Cookie",
                     cookie_name_ + "=" + options_.token + "; Path=/; HttpOnly; SameSite=Strict");
    return true;
  }
  std::string ResolvePath(const std::string& user_path) const {
    PathError e;
    std::string p = root_.Resolve(user_path, &e);
    if (e.status != 0) throw ApiError{e.status, e.message};
    return p;
  }

  std::string RequiredPath(const Params& p, const char* name) const {
    std::string v = p.String(name);
    if (v.empty()) throw ApiError{400, std::string("missing parameter '") + name + "'"};
    return ResolvePath(v);
  }

  // A cfg file under the root (resolved).
  std::string CfgPath(const std::string& user_path) const {
    std::string path = ResolvePath(user_path);
    if (!EndsWith(path, ".cfg")) throw ApiError{400, "'" + user_path + "' is not a .cfg file"};
    return path;
  }

  // The text of a resolved cfg, at most kMaxCfgBytes.
  static std::string ReadCfgFile(const std::string& path, const std::string& user_path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw ApiError{400, "'" + user_path + "' is not a file"};
    PathError opened;
    std::FILE* f = OpenRegularForReading(path, user_path, &opened);
    if (f == nullptr) throw ApiError{opened.status, opened.message};
    std::string text(kMaxCfgBytes + 1, '\0');
    size_t got = std::fread(text.data(), 1, text.size(), f);
    bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) throw ApiError{500, "cannot read '" + user_path + "'"};
    if (got > kMaxCfgBytes) throw ApiError{413, "'" + user_path + "' is larger than 1 MiB", "cfg files are small text files"};
    text.resize(got);
    return text;
  }

  std::shared_ptr<const Trace> OpenTrace(const std::string& user_path) {
    std::string path = ResolvePath(user_path);
    if (!IsTraceName(path))
      throw ApiError{400, "'" + user_path + "' is not a trace",
                     "traces end in .prv, .prv.gz, .json, .trace or .paje (Pajé), .trf or .picl (PICL), "
                     ".otf2, .sddf, or .gist/.brief (KSR event logs)"};
    // The loader also opens the files that go with the trace (its .pcf and .row, every part of
    // an OTF2 archive): none may lead out of the root either (a symlinked .pcf or event file
    // could otherwise expose a file outside it).
    // A part through a link that cannot be followed is refused as well, as Resolve does.
    for (const std::string& part : TraceInputFiles(path)) {
      PathError e;
      root_.Resolve(part, &e);
      if (e.status == 403)
        throw ApiError{403, "'" + root_.Relative(part) + "', read with '" + user_path + "', leads outside the root"};
    }
    auto t = cache_.Get(path);
    if (!t.ok()) throw CoreError(t.status());
    return t.value();
  }

  std::shared_ptr<const Trace> RequiredTrace(const Params& p) {
    std::string v = p.String("trace");
    if (v.empty()) throw ApiError{400, "missing parameter 'trace'"};
    return OpenTrace(v);
  }

  // `cfg`, `cfg_text` (with `name` naming it in messages) or, when allowed, `function` with its
  // `param`s; `window` names one window of the cfg.
  WindowSource ReadWindowSource(const Params& p, bool function_allowed) const {
    WindowSource w;
    std::string cfg = p.String("cfg");
    w.cfg_text = p.String("cfg_text", kMaxCfgBytes);
    w.function = function_allowed ? p.String("function", 256) : "";
    if (!cfg.empty() + !w.cfg_text.empty() + !w.function.empty() != 1)
      throw ApiError{400, function_allowed ? "give exactly one of 'cfg' (a .cfg under the root), 'cfg_text' (a cfg's "
                                             "content) or 'function' (a thread function)"
                                           : "give exactly one of 'cfg' (a .cfg under the root) or 'cfg_text' (a "
                                             "cfg's content)"};
    if (!cfg.empty()) w.cfg_path = CfgPath(cfg);
    if (!w.cfg_text.empty()) {
      // Only a label: a base name, so it can never be taken for a file to open.
      w.cfg_path = fs::path(p.String("name", 256)).filename().string();
      if (w.cfg_path.empty()) w.cfg_path = "cfg_text";
    }
    w.window = p.String("window", 1024);
    w.params = p.Parameters();
    return w;
  }

  static void TimeRange(const Params& p, std::optional<uint64_t>* from, std::optional<uint64_t>* to) {
    *from = p.Number<uint64_t>("from");
    *to = p.Number<uint64_t>("to");
    if (*from && *to && **from >= **to) throw ApiError{400, "'from' must be less than 'to'"};
  }

  // What a cfg browser shows of a cfg: its description and its window and histogram names, or why
  // it cannot be read.
  static json CfgListing(const fs::path& canonical) {
    std::error_code ec;
    uintmax_t size = fs::file_size(canonical, ec);
    if (ec) return {{"error", "cannot read the file"}};
    if (size > kMaxCfgBytes) return {{"error", "larger than 1 MiB"}};
    auto summary = SummarizeCfg(canonical.string());
    // Another program's .cfg (Score-P's scorep.cfg, a Dimemas configuration): not listed.
    if (!summary.ok() && summary.status().message() == "not a Paraver cfg file") return {{"not_paraver", true}};
    if (!summary.ok()) return {{"error", StatusText(summary.status())}};
    std::vector<std::string> lines = summary->description;
    while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
    std::string description;
    for (const auto& line : lines) {
      if (!description.empty()) description += '\n';
      description += line;
      if (description.size() > kMaxDescription) break;
    }
    return {{"description", Truncate(std::move(description), kMaxDescription)},
            {"windows", summary->windows},
            {"histograms", summary->histograms}};
  }

  void Files(const httplib::Request& req, httplib::Response& res) {
    std::string dir_param = Params::Query(req).String("dir");
    std::string dir = dir_param.empty() ? root_.path() : ResolvePath(dir_param);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw ApiError{400, "'" + dir_param + "' is not a directory"};
    json entries = json::array();
    for (const auto& entry : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec)) {
      std::string name = entry.path().filename().string();
      if (name.empty() || name[0] == '.') continue;
      fs::path canonical = fs::canonical(entry.path(), ec);
      if (ec || !root_.Contains(canonical.string())) continue;  // symlinks out of the root are not listed
      bool is_dir = fs::is_directory(canonical, ec);
      if (!is_dir && !fs::is_regular_file(canonical, ec)) continue;  // no devices or pipes
      std::string kind = is_dir                                                ? "dir"
                         : IsTraceName(name)                                  ? "trace"
                         : EndsWith(name, ".cfg")                              ? "cfg"
                                                                               : "";
      if (kind.empty()) continue;
      json e = {{"name", name}, {"path", root_.Relative(entry.path().lexically_normal().string())}, {"kind", kind}};
      if (kind != "dir") e["size"] = fs::file_size(canonical, ec);
      if (kind == "cfg") {
        json listing = CfgListing(canonical);
        if (listing.contains("not_paraver")) continue;
        e.update(listing);
      }
      entries.push_back(std::move(e));
      if (entries.size() >= 10000) break;
    }
    std::sort(entries.begin(), entries.end(), [](const json& a, const json& b) {
      bool ad = a["kind"] == "dir", bd = b["kind"] == "dir";
      if (ad != bd) return ad;
      return a["name"].get<std::string>() < b["name"].get<std::string>();
    });
    SendJson(res, {{"dir", root_.Relative(dir)}, {"entries", std::move(entries)}});
  }

  // `scan`: the whole info (GET /api/info), else the summary that needs no pass over the
  // records (the open: a trace of billions of records opens in the time of its cache's reopen).
  json InfoJson(const std::string& user_path, const Trace& t, bool scan) const {
    TraceInfo info = scan ? t.Info() : t.Summary();
    json j = ToJson(info);
    j["trace"] = root_.Relative(ResolvePath(user_path));
    info.path = j["trace"].get<std::string>();
    j["warnings"] = LoadWarnings(info);  // shown as a banner: what the load could not take
    j.erase("path");  // the absolute paths say nothing the client needs
    j.erase("cache_path");
    return j;
  }

  void Open(const httplib::Request& req, httplib::Response& res) {
    // POST /api/open takes {path} as JSON, or the path as a query parameter with an empty body.
    std::string p =
        (req.method == "POST" && !req.body.empty() ? Params::Body(req.body) : Params::Query(req))
            .String("path");
    if (p.empty()) throw ApiError{400, "missing parameter 'path'"};
    SendJson(res, InfoJson(p, *OpenTrace(p), false));
  }

  void Info(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Query(req);
    SendJson(res, InfoJson(p.String("trace"), *RequiredTrace(p), true));
  }

  // GET /api/source?path=P&line=N[&context=K], or ?label=L[&context=K] with the label of a caller
  // line event ("LINE (FILE[, MODULE])") in place of path and line: lines of a source file
  // under the root around one line (click-back).
  void Source(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Query(req);
    std::string label = p.String("label");
    std::string shown = p.String("path");
    std::optional<uint64_t> line = p.Number<uint64_t>("line");
    const uint64_t context = p.Number<uint64_t>("context").value_or(20);
    std::string path;
    PathError e;
    if (!label.empty()) {
      std::optional<SourceLocation> loc = ParseSourceLabel(label);
      if (!loc)
        throw ApiError{400, "'" + label + "' is not a source location",
                       "labels of caller line events read 'LINE (FILE[, MODULE])'"};
      path = FindSourceFile(root_, loc->file, &e);
      if (e.status != 0)
        throw ApiError{e.status, e.message, "serve with --root over the program's sources"};
      shown = loc->file;
      line = loc->line;
    } else {
      if (shown.empty()) throw ApiError{400, "missing parameter 'path' (or 'label')"};
      if (!line) throw ApiError{400, "missing parameter 'line'"};
      path = ResolvePath(shown);
    }
    SourceLines s = ReadSourceLines(path, shown, *line, context, &e);
    if (e.status != 0) throw ApiError{e.status, e.message};
    SendJson(res, {{"path", root_.Relative(path)}, {"line", *line}, {"first", s.first},
                   {"total", s.total}, {"lines", s.lines}});
  }

  void Progress(const httplib::Request& req, httplib::Response& res) {
    LoadProgress p = cache_.Progress(RequiredPath(Params::Query(req), "trace"));
    json j = {{"loaded", p.loaded}, {"loading", p.loading}, {"done", p.done}, {"total", p.total}};
    if (!p.error.ok()) j["error"] = StatusText(p.error);
    SendJson(res, j);
  }

  void Traces(const httplib::Request&, httplib::Response& res) {
    json a = json::array();
    for (const auto& p : cache_.Loaded()) a.push_back(root_.Relative(p));
    json preloaded = json::array();
    {
      std::lock_guard<std::mutex> lock(preloaded_mutex_);
      for (const auto& p : preloaded_) preloaded.push_back(p);
    }
    SendJson(res, {{"traces", std::move(a)}, {"preloaded", std::move(preloaded)}});
  }

  // `summaries` of a timeline (a JSON body only): [{objects: "5-8", label: "TASK 1.2 (4)"}...].
  static std::vector<RowSummary> Summaries(const Params& p) {
    constexpr size_t kMaxSummaries = 4096;
    std::vector<RowSummary> out;
    const json* j = p.JsonField("summaries");
    if (j == nullptr) return out;
    if (!j->is_array() || j->size() > kMaxSummaries)
      throw ApiError{400, "field 'summaries' must be a list of at most " + std::to_string(kMaxSummaries) +
                              " {objects, label}"};
    for (const json& s : *j) {
      const auto objects = s.is_object() ? s.find("objects") : s.end();
      const auto label = s.is_object() ? s.find("label") : s.end();
      const bool ok = s.is_object() && s.size() <= 2 && objects != s.end() && objects->is_string() &&
                      objects->get_ref<const std::string&>().size() <= 1024 &&
                      (label == s.end() || (label->is_string() && label->get_ref<const std::string&>().size() <= 256));
      if (!ok)
        throw ApiError{400, "each of 'summaries' must be {objects: \"5-8\", label: \"...\"} (objects up to 1024 "
                            "characters, label up to 256)"};
      out.push_back({objects->get<std::string>(), label == s.end() ? "" : label->get<std::string>()});
    }
    return out;
  }

  // GET (query) or POST (JSON body), the same parameters.
  void Timeline(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    TimelineRequest r;
    ReadWindowSource(p, true).To(&r);
    r.format = p.String("format", 8);
    if (r.format.empty()) r.format = "png";
    if (r.format != "png" && r.format != "svg" && r.format != "json" && r.format != "frame")
      throw ApiError{400, "format must be png, svg, json or frame, not '" + r.format + "'"};
    // frame: the PNG (base64) and its layout in one JSON answer, what the UI paints.
    const bool frame = r.format == "frame";
    if (frame) r.format = "png";
    r.width = p.Number<uint32_t>("width").value_or(1000);
    r.height = p.Number<uint32_t>("height").value_or(0);
    if (r.width < 16 || r.width > options_.max_width || r.height > options_.max_height)
      throw ApiError{400, "image size out of range",
                     "width 16.." + std::to_string(options_.max_width) + ", height 0.." +
                         std::to_string(options_.max_height)};
    if (uint64_t{r.width} * r.height > kMaxPixels)
      throw ApiError{400,
                     "image too large: " + std::to_string(r.width) + " x " +
                         std::to_string(r.height) + " pixels",
                     "at most " + std::to_string(kMaxPixels) + " pixels (width x height)"};
    TimeRange(p, &r.from, &r.to);
    r.objects = p.String("objects", 1024);
    r.summaries = Summaries(p);
    r.draw_mode = p.String("draw_mode", 64);
    r.object_draw_mode = p.String("object_draw_mode", 64);
    r.color_mode = p.String("color_mode", 64);
    r.background = p.String("background", 16);
    r.palette = p.String("palette", 16);
    r.min_y = p.Number<double>("min");
    r.max_y = p.Number<double>("max");
    r.fit_scale = p.Bool("fit").value_or(false);
    r.flags = p.Bool("flags");
    r.comms = p.Bool("comms");
    r.max_comm_lines = p.Number<uint64_t>("max_lines");
    r.pixel_size = p.Number<uint32_t>("pixel_size").value_or(0);
    r.labels = p.Bool("labels").value_or(true);
    r.axis = p.Bool("axis").value_or(true);
    r.legend = p.Bool("legend").value_or(true);
    r.title = p.Bool("title").value_or(true);
    r.highlight_min = p.Number<double>("highlight_min");
    r.highlight_max = p.Number<double>("highlight_max");
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    auto images = RenderTimeline(*trace, r);
    if (!images.ok()) throw CoreError(images.status());
    if (images->empty()) throw ApiError{422, "the cfg has no timeline window"};
    json names = json::array();
    for (const auto& img : images.value()) names.push_back(img.window);
    // One image per response: the named window, else the cfg's last one (as paramedir).
    const TimelineImage* chosen = &images->back();
    res.set_header("X-Parallax-Windows", names.dump(-1, ' ', true));
    res.set_header("X-Parallax-Window", json(chosen->window).dump(-1, ' ', true));
    if (frame) {
      // With the charset, cpp-httplib leaves the frame uncompressed: it compresses exactly
      // "application/json", with brotli at quality 11 for a browser, which cost 100-300 ms on
      // the 80 KB frames of a 100 MB trace (more than the render) to save the ~20 % that base64
      // adds to a PNG.
      res.set_content("{\"window\":" + json(chosen->window).dump(-1, ' ', true) + ",\"layout\":" + chosen->layout +
                          ",\"png\":\"" + EncodeBase64(chosen->data) + "\"}",
                      "application/json; charset=utf-8");
      return;
    }
    const char* type = r.format == "png" ? "image/png" : r.format == "svg" ? "image/svg+xml" : "application/json";
    res.set_content(chosen->data, type);
  }

  void Text(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    TextRequest r;
    ReadWindowSource(p, true).To(&r);
    r.object = p.String("object", 256);
    r.object_index = p.Number<uint32_t>("object_index");
    TimeRange(p, &r.from, &r.to);
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    auto view = trace->Text(r);
    if (!view.ok()) throw CoreError(view.status());
    SendJson(res, ToJson(view.value()));
  }

  // The objects object_first..object_last of an area, find or click-forward request (both
  // required): in order, and few enough.
  static std::pair<uint32_t, uint32_t> RequiredObjectRange(const Params& p) {
    auto first = p.Number<uint32_t>("object_first");
    auto last = p.Number<uint32_t>("object_last");
    if (!first || !last) throw ApiError{400, "missing parameter 'object_first' or 'object_last'"};
    if (*last < *first) throw ApiError{400, "'object_last' must not be less than 'object_first'"};
    if (*last - *first >= kMaxCellObjects)
      throw ApiError{400, "too many objects: " + std::to_string(*last - *first + 1),
                     "at most " + std::to_string(kMaxCellObjects) + " objects at once"};
    return {*first, *last};
  }

  // The window a point, area or find request reads, with the server's per-request limits.
  TextRequest LimitedTextRequest(const Params& p) const {
    TextRequest r;
    ReadWindowSource(p, true).To(&r);
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    return r;
  }

  // The cells of objects first..last (checked by the caller) over [from, to) (both required),
  // summed per value.
  json Cells(const Params& p, uint32_t first, uint32_t last, std::optional<uint64_t> at) {
    auto trace = RequiredTrace(p);
    TextRequest r = LimitedTextRequest(p);
    std::optional<uint64_t> from, to;
    TimeRange(p, &from, &to);
    if (!from || !to) throw ApiError{400, "missing parameter 'from' or 'to' (the time range, trace units)"};
    if (at && (*at < *from || *at >= *to)) throw ApiError{400, "'time' must be inside [from, to)"};
    auto s = SummarizeCells(*trace, r, first, last, *from, *to, at);
    if (!s.ok()) throw CoreError(s.status());
    const double cells = static_cast<double>(*to - *from) * s->objects.size();
    json values = json::array();
    for (const auto& v : s->values)
      values.push_back({{"value", std::isfinite(v.value) ? json(v.value) : json(nullptr)}, {"label", v.label},
                        {"time", v.time}, {"fraction", static_cast<double>(v.time) / cells},
                        {"intervals", v.intervals}});
    json interval = nullptr;
    if (s->at)
      interval = {{"begin", s->at->begin}, {"end", s->at->end},
                  {"value", std::isfinite(s->at->value) ? json(s->at->value) : json(nullptr)}, {"label", s->at->label}};
    json j = {{"window", s->window}, {"time_unit", s->time_unit}, {"from", s->from}, {"to", s->to},
              {"duration", s->to - s->from}, {"objects", s->objects}, {"values", std::move(values)},
              {"intervals", s->intervals}, {"at", std::move(interval)}};
    if (at) {  // a pixel's provenance: its records too (an area reads the intervals only)
      j["events"] = s->events;
      j["comms"] = s->comms;
    }
    return j;
  }

  // A point of a timeline (the UI's hover): object_index, time, and the pixel's [from, to).
  void At(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto object = p.Number<uint32_t>("object_index");
    auto time = p.Number<uint64_t>("time");
    if (!object || !time) throw ApiError{400, "missing parameter 'object_index' or 'time'"};
    SendJson(res, Cells(p, *object, *object, time));
  }

  // An area of a timeline (the UI's selection): object_first..object_last over [from, to).
  void CellsRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto [first, last] = RequiredObjectRange(p);
    SendJson(res, Cells(p, first, last, std::nullopt));
  }

  // The objects of a window's level, by their canonical names (THREAD 1.2.1, CPU 2.3, ...,
  // whatever the .row says), in object order: what the UI groups rows by.
  void Objects(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    WindowSource source = ReadWindowSource(p, true);
    WindowRequest r;
    r.cfg_path = source.cfg_path;
    r.cfg_text = source.cfg_text;
    r.window = source.window;
    r.thread_function = source.function;
    r.parameters = source.params;
    r.from = 0;
    r.to = 1;  // only the names are wanted: the shortest range
    r.threads = 1;
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    auto w = EvaluateWindow(*trace, r);
    if (!w.ok()) throw CoreError(w.status());
    SendJson(res, {{"window", w->window}, {"level", w->level}, {"objects", w->object_names}});
  }

  // Bytes sent over a range: per time column and task, and the node x node (and task x task)
  // matrix (PROVE's communication views; docs/serve.md).
  void TrafficRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    TrafficRequest r;
    TimeRange(p, &r.from, &r.to);
    if (auto buckets = p.Number<uint32_t>("buckets")) r.buckets = *buckets;
    auto t = CommTraffic(*trace, r);
    if (!t.ok()) throw CoreError(t.status());
    SendJson(res, {{"from", t->from}, {"to", t->to}, {"messages", t->messages}, {"tasks", t->tasks},
                   {"bytes", t->bytes}, {"total", t->total}, {"nodes", t->nodes},
                   {"node_bytes", t->node_bytes}, {"node_messages", t->node_messages},
                   {"task_bytes", t->task_bytes}, {"task_messages", t->task_messages}});
  }

  // Per cpu, the Running time of the threads that ran on it over a range (the processor
  // utilisation under a cpu-level timeline, whatever its window shows).
  void UtilisationRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    std::optional<uint64_t> from, to;
    TimeRange(p, &from, &to);
    auto u = UtilisationOfCpus(*trace, from, to);
    if (!u.ok()) throw CoreError(u.status());
    SendJson(res, {{"from", u->from}, {"to", u->to}, {"cpus", u->cpus}, {"running", u->running},
                   {"threads", u->threads}});
  }

  // The diagnosis of the range in view (docs/diagnose.md): the patterns' totals, the longest
  // wait states (`limit`, default 5000) and the critical path's segments, in trace units, for
  // the timeline overlay and the diagnosis table.
  void DiagnoseRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    std::optional<uint64_t> from, to;
    TimeRange(p, &from, &to);
    DiagnoseOptions o;
    if (from || to) {
      auto span = TraceRange(*trace, from, to);
      if (!span.ok()) throw CoreError(span.status());
      o.range = span.value();
    }
    o.max_instances = p.Number<uint32_t>("limit").value_or(5000);
    if (o.max_instances == 0 || o.max_instances > 100000)
      throw ApiError{400, "'limit' must be 1 to 100000"};
    o.worst = 0;
    auto d = Diagnose(*trace, o);
    if (!d.ok()) throw CoreError(d.status());
    json ranks = json::array();
    for (size_t r = 0; r < d->ranks.size(); ++r)
      ranks.push_back(json{{"label", d->ranks[r]}, {"task", d->rank_tasks[r]}, {"thread", d->rank_threads[r]}});
    json patterns = json::array();
    const double rank_time = (d->end_s - d->begin_s) * static_cast<double>(d->ranks.size());
    for (const PatternSummary& s : d->patterns)
      patterns.push_back(json{{"key", s.key}, {"name", s.name}, {"time_s", s.time_s}, {"count", s.count},
                              {"percent", rank_time > 0 ? 100 * s.time_s / rank_time : 0.0}});
    json waits = {{"rank", json::array()}, {"begin", json::array()}, {"wait", json::array()},
                  {"pattern", json::array()}, {"call", json::array()}, {"culprit_rank", json::array()},
                  {"culprit", json::array()}, {"culprit_call", json::array()}, {"cause", json::array()},
                  {"cause_delay_s", json::array()}};
    for (const WaitStateInstance& i : d->instances) {
      waits["rank"].push_back(i.rank);
      waits["begin"].push_back(i.begin);
      waits["wait"].push_back(i.wait);
      waits["pattern"].push_back(i.pattern);
      waits["call"].push_back(i.call);
      waits["culprit_rank"].push_back(i.culprit_rank);
      waits["culprit"].push_back(i.culprit);
      waits["culprit_call"].push_back(i.culprit_call);
      waits["cause"].push_back(i.culprit_rank >= 0 && i.cause_delay_s > 0 ? i.cause : std::string());
      waits["cause_delay_s"].push_back(i.cause_delay_s);
    }
    json path = {{"rank", json::array()}, {"begin", json::array()}, {"end", json::array()}};
    for (const CriticalPathSegmentInfo& s : d->critical_path.segments) {
      path["rank"].push_back(s.rank);
      path["begin"].push_back(s.begin);
      path["end"].push_back(s.end);
    }
    json roots = json::array();
    for (size_t k = 0; k < d->root_causes.size() && k < 5; ++k)
      roots.push_back(json{{"rank", d->ranks[d->root_causes[k].rank]},
                           {"activity", d->root_causes[k].activity},
                           {"phase", d->root_causes[k].phase},
                           {"long_term_s", d->root_causes[k].long_term_s}});
    SendJson(res, {{"begin_s", d->begin_s}, {"end_s", d->end_s}, {"ranks", ranks}, {"patterns", patterns},
                   {"waits", waits}, {"limited", d->instances_limited},
                   {"path", path}, {"path_length_s", d->critical_path.length_s},
                   {"path_by_rank_s", d->critical_path.by_rank_s}, {"root_causes", roots},
                   {"notes", d->notes}});
  }

  // The structure of a trace with the default options (docs/structure.md), computed by the
  // first request for a loaded trace (a reloaded trace is another; two first requests at once
  // may both compute it) and kept while the trace is, with where each thread's bursts begin.
  struct StructureEntry {
    ProgramStructure s;
    std::vector<size_t> thread_first;  // bursts of thread t: [thread_first[t], thread_first[t + 1])
  };
  std::shared_ptr<const StructureEntry> StructureOf(const std::shared_ptr<const Trace>& trace) {
    {
      std::lock_guard<std::mutex> lock(structures_mutex_);
      std::erase_if(structures_, [](const auto& e) { return e.first.expired(); });
      for (const auto& [t, s] : structures_)
        if (t.lock() == trace) return s;
    }
    StructureOptions o;
    o.bursts = true;
    auto s = AnalyzeStructure(*trace, o);
    if (!s.ok()) throw CoreError(s.status());
    auto entry = std::make_shared<StructureEntry>();
    entry->s = std::move(s).value();
    const std::vector<uint32_t>& thread = entry->s.bursts.thread;  // by thread, then time
    const uint32_t threads = thread.empty() ? 0 : thread.back() + 1;
    for (uint32_t t = 0; t <= threads; ++t)
      entry->thread_first.push_back(static_cast<size_t>(std::lower_bound(thread.begin(), thread.end(), t) - thread.begin()));
    std::lock_guard<std::mutex> lock(structures_mutex_);
    structures_.emplace_back(trace, entry);
    return entry;
  }

  // The structure for the timeline: every iteration (begin and end over all ranks, trace units),
  // the clusters, and the bursts that overlap the range in view with their cluster (the longest
  // `limit`, default 20000, when there are more).
  void StructureRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    std::optional<uint64_t> from, to;
    TimeRange(p, &from, &to);
    auto span = TraceRange(*trace, from, to);
    if (!span.ok()) throw CoreError(span.status());
    const uint32_t limit = p.Number<uint32_t>("limit").value_or(20000);
    if (limit == 0 || limit > 200000) throw ApiError{400, "'limit' must be 1 to 200000"};
    const std::shared_ptr<const StructureEntry> entry = StructureOf(trace);
    const ProgramStructure* s = &entry->s;
    const IterationsInfo& it = s->iterations;
    json iterations = {{"found", it.found}, {"count", it.count}, {"anchor", it.anchor},
                       {"period_s", it.period_s}, {"why_none", it.why_none},
                       {"begin", json::array()}, {"end", json::array()}};
    for (const IterationItem& x : it.items) {
      iterations["begin"].push_back(x.begin);
      iterations["end"].push_back(x.end);
    }
    json clusters = json::array();
    for (const BurstCluster& c : s->clusters)
      clusters.push_back(json{{"id", c.id}, {"bursts", c.bursts}, {"time_s", c.time_s},
                              {"mean_ipc", c.mean_ipc >= 0 ? json(c.mean_ipc) : json()}});
    const ProgramStructure::Bursts& b = s->bursts;
    // Each thread's bursts in view: they do not overlap, so their begins and ends are both in
    // order and two binary searches find them.
    std::vector<size_t> in_view;
    for (size_t t = 0; t + 1 < entry->thread_first.size(); ++t) {
      const auto first = b.end.begin() + static_cast<std::ptrdiff_t>(entry->thread_first[t]);
      const auto last = b.end.begin() + static_cast<std::ptrdiff_t>(entry->thread_first[t + 1]);
      size_t i = static_cast<size_t>(std::upper_bound(first, last, span->from) - b.end.begin());
      for (; i < entry->thread_first[t + 1] && b.begin[i] < span->to; ++i) in_view.push_back(i);
    }
    const bool limited = in_view.size() > limit;
    if (limited) {
      std::nth_element(in_view.begin(), in_view.begin() + limit, in_view.end(),
                       [&](size_t x, size_t y) { return b.end[x] - b.begin[x] > b.end[y] - b.begin[y]; });
      in_view.resize(limit);
      std::sort(in_view.begin(), in_view.end());
    }
    json bursts = {{"thread", json::array()}, {"begin", json::array()}, {"end", json::array()},
                   {"cluster", json::array()}};
    for (size_t i : in_view) {
      bursts["thread"].push_back(b.thread[i]);
      bursts["begin"].push_back(b.begin[i]);
      bursts["end"].push_back(b.end[i]);
      bursts["cluster"].push_back(b.cluster[i]);
    }
    SendJson(res, {{"ranks", s->ranks}, {"rank_threads", s->rank_threads}, {"iterations", iterations},
                   {"clusters", clusters}, {"features", s->features}, {"bursts", bursts},
                   {"limited", limited}, {"notes", s->notes}});
  }

  // Two open traces compared (docs/compare.md): `a`, `b`, `by` (auto, iteration, phase, call,
  // rank), the report's rows (the `limit` largest, default 50) and each run's iterations (begin
  // and end over all ranks, trace units) for aligning iteration k of A with iteration k of B.
  void CompareRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    const std::string pa = p.String("a"), pb = p.String("b");
    if (pa.empty() || pb.empty()) throw ApiError{400, "give both traces: 'a' and 'b'"};
    auto a = OpenTrace(pa), b = OpenTrace(pb);
    CompareOptions o;
    const std::string by = p.String("by", 16);
    if (!by.empty()) {
      const std::optional<CompareBy> parsed = ParseCompareBy(by);
      if (!parsed) throw ApiError{400, "'by' must be auto, iteration, phase, call or rank, not '" + by + "'"};
      o.by = *parsed;
    }
    o.pop = false;
    const uint32_t limit = p.Number<uint32_t>("limit").value_or(50);
    if (limit == 0 || limit > 100000) throw ApiError{400, "'limit' must be 1 to 100000"};
    auto r = CompareRuns(*a, *b, o);
    if (!r.ok()) throw CoreError(r.status());
    json report = json::parse(FormatCompareJson(r.value()));
    if (report["rows"].size() > limit) report["rows"].erase(report["rows"].begin() + limit, report["rows"].end());
    report["rows_total"] = r.value().rows.size();
    auto iterations = [&](const std::shared_ptr<const Trace>& t) {
      const IterationsInfo& it = StructureOf(t)->s.iterations;
      json x = {{"found", it.found}, {"begin", json::array()}, {"end", json::array()}};
      for (const IterationItem& i : it.items) {
        x["begin"].push_back(i.begin);
        x["end"].push_back(i.end);
      }
      return x;
    };
    report["a_iterations"] = iterations(a);
    report["b_iterations"] = iterations(b);
    SendJson(res, report);
  }

  // A cfg window of both runs over aligned time (docs/compare.md, difference windows): the
  // objects' means and the histograms' totals as JSON, with the A - B and A / B timelines as
  // base64 PNGs (`diff_png`, `ratio_png`) of `width` pixels.
  void CompareWindowRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    const std::string pa = p.String("a"), pb = p.String("b");
    if (pa.empty() || pb.empty()) throw ApiError{400, "give both traces: 'a' and 'b'"};
    auto a = OpenTrace(pa), b = OpenTrace(pb);
    const WindowSource w = ReadWindowSource(p, false);
    DifferenceRequest r;
    r.cfg_path = w.cfg_path;
    r.cfg_text = w.cfg_text;
    r.window = w.window;
    r.iteration = p.Number<uint64_t>("iteration");
    TimeRange(p, &r.from, &r.to);
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    const uint32_t width = p.Number<uint32_t>("width").value_or(1000);
    if (width < 16 || width > options_.max_width)
      throw ApiError{400, "image size out of range", "width 16.." + std::to_string(options_.max_width)};
    auto d = CompareWindow(*a, *b, r);
    if (!d.ok()) throw CoreError(d.status());
    json out = json::parse(FormatDifferenceJson(d.value()));
    // The cells stay out (a histogram of thousands of rows); the totals tell the story here.
    for (json& h : out["histograms"]) {
      h.erase("a");
      h.erase("b");
    }
    for (const char* op : {"diff", "ratio"}) {
      DifferenceImageRequest ir;
      ir.op = op;
      ir.width = width;
      auto image = RenderDifference(*a, d.value(), ir);
      if (!image.ok()) throw CoreError(image.status());
      out[std::string(op) + "_png"] = EncodeBase64(image.value().data);
    }
    SendJson(res, out);
  }

  // The next (or previous) event or window value matching a query, over a run of objects.
  void Find(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    TextRequest r = LimitedTextRequest(p);
    auto [first, last] = RequiredObjectRange(p);
    auto time = p.Number<uint64_t>("time");
    if (!time) throw ApiError{400, "missing parameter 'time'"};
    FindQuery q;
    const std::string kind = p.String("kind", 16), direction = p.String("direction", 16);
    if (kind != "event" && kind != "value") throw ApiError{400, "'kind' must be event or value, not '" + kind + "'"};
    if (direction != "next" && direction != "previous")
      throw ApiError{400, "'direction' must be next or previous, not '" + direction + "'"};
    q.events = kind == "event";
    q.forward = direction == "next";
    q.text = p.String("text", 256);
    for (char& c : q.text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (q.events) {
      q.type = p.Number<uint32_t>("type");
      q.event_value = p.Number<int64_t>("event_value");
      if (q.event_value && !q.type) throw ApiError{400, "'event_value' needs 'type'"};
    } else {
      q.value = p.Number<double>("value");
    }
    if (!q.type && !q.value && q.text.empty())
      throw ApiError{400, "nothing to find",
                     kind == "event" ? "give 'type' (and 'event_value') or 'text' (part of a label)"
                                     : "give 'value' or 'text' (part of a label, e.g. a state name)"};
    auto whole = TraceRange(*trace, std::nullopt, std::nullopt);
    if (!whole.ok()) throw CoreError(whole.status());
    const uint64_t span = p.Number<uint64_t>("span").value_or(std::max<uint64_t>(1, whole->to / 100));
    auto found = FindNext(*trace, r, first, last, *time, span, q, options_.request_time_limit);
    if (!found.ok()) throw CoreError(found.status());
    if (!found.value()) {
      SendJson(res, {{"found", false}});
      return;
    }
    const FindMatch& m = **found;
    SendJson(res, {{"found", true}, {"time", m.time}, {"end", m.end}, {"object_index", m.object},
                   {"object", m.object_name}, {"what", m.what}});
  }

  // Click-forward: the times of the events of `type` generated at `label`'s source location
  // (file and line) in [from, to) over objects object_first..object_last, at most kMaxMarks.
  void SourceEventsRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    TextRequest r = LimitedTextRequest(p);
    auto [first, last] = RequiredObjectRange(p);
    auto type = p.Number<uint32_t>("type");
    if (!type) throw ApiError{400, "missing parameter 'type'"};
    const std::string label = p.String("label");
    std::optional<SourceLocation> at = ParseSourceLabel(label);
    if (!at)
      throw ApiError{400, "'" + label + "' is not a source location",
                     "labels of caller line events read 'LINE (FILE[, MODULE])'"};
    std::optional<uint64_t> from, to;
    TimeRange(p, &from, &to);
    auto whole = TraceRange(*trace, from, to);
    if (!whole.ok()) throw CoreError(whole.status());
    auto found = FindSourceEvents(*trace, r, first, last, whole->from, whole->to, *type, *at, kMaxMarks);
    if (!found.ok()) throw CoreError(found.status());
    json marks = json::array();
    for (const FindMatch& m : found->marks) marks.push_back({{"time", m.time}, {"object_index", m.object}});
    SendJson(res, {{"count", found->count}, {"marks", std::move(marks)},
                   {"truncated", found->count > found->marks.size()}});
  }

  void AnalyzeRoute(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Of(req);
    auto trace = RequiredTrace(p);
    AnalyzeRequest r;
    WindowSource w = ReadWindowSource(p, false);
    r.cfg_path = w.cfg_path;
    r.cfg_text = w.cfg_text;
    r.all_histograms = p.Bool("all").value_or(true);
    r.hide_empty_columns = p.Bool("hide_empty").value_or(false);
    TimeRange(p, &r.from, &r.to);  // in place of the cfg's AnalysisLimits (the UI's zoom)
    r.time_limit = options_.request_time_limit;
    r.memory_limit = options_.request_memory_limit;
    auto tables = Analyze(*trace, r);
    if (!tables.ok()) throw CoreError(tables.status());
    SendJson(res, {{"tables", ToJson(tables.value())}});
  }

  // {text, document}: a cfg's text and its editable settings for `trace`.
  static json CfgJson(const Trace& trace, std::string text, const std::string& name) {
    auto doc = DescribeCfg(trace, text, name);
    if (!doc.ok()) throw CoreError(doc.status());
    return {{"text", std::move(text)}, {"document", ToJson(doc.value())}};
  }

  void Cfg(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Query(req);
    auto trace = RequiredTrace(p);
    std::string user = p.String("path");
    if (user.empty()) throw ApiError{400, "missing parameter 'path'"};
    std::string path = CfgPath(user);
    std::string relative = root_.Relative(path);
    json j = CfgJson(*trace, ReadCfgFile(path, user), relative);
    j["path"] = relative;
    SendJson(res, j);
  }

  // The standard views (docs/views.md): their list, and one as a cfg for a trace.
  void Views(const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const ViewInfo& v : ListViews())
      list.push_back({{"name", v.name}, {"title", v.title}, {"description", v.description}, {"windows", v.windows},
                      {"histograms", v.histograms}, {"needs", v.needs}});
    SendJson(res, {{"views", std::move(list)}});
  }

  void View(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Query(req);
    auto trace = RequiredTrace(p);
    const std::string name = p.String("name", 256);
    if (name.empty()) throw ApiError{400, "missing parameter 'name' (a view: GET /api/views lists them)"};
    auto text = ViewCfg(name);
    if (!text.ok()) throw ApiError{404, text.status().message(), text.status().hint()};
    json j = CfgJson(*trace, std::move(text.value()), name + ".cfg");
    j["view"] = name;
    SendJson(res, j);
  }

  void CfgFunction(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Body(req.body);
    auto trace = RequiredTrace(p);
    std::string function = p.String("function", 256);
    if (function.empty()) throw ApiError{400, "missing field 'function'"};
    auto text = FunctionCfg(*trace, function, p.Parameters());
    if (!text.ok()) throw CoreError(text.status());
    SendJson(res, CfgJson(*trace, std::move(text.value()), function));
  }

  void CfgEdit(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Body(req.body);
    auto trace = RequiredTrace(p);
    std::string text = p.String("text", kMaxCfgBytes);
    if (text.empty()) throw ApiError{400, "missing field 'text' (the cfg to edit)"};
    std::string name = p.String("name", 256);
    if (name.empty()) name = "cfg";
    const json* d = p.JsonField("document");
    if (d == nullptr) throw ApiError{400, "missing field 'document' (the settings to apply)"};
    CfgDocument doc;
    std::string error;
    if (!FromJson(*d, "document", &doc, &error)) throw ApiError{400, error};
    auto edited = EditCfg(*trace, text, name, doc);
    if (!edited.ok()) throw CoreError(edited.status());
    SendJson(res, CfgJson(*trace, std::move(edited.value()), name));
  }

  // Writes a cfg under the root. The directory must exist inside the root; the file is written
  // through a descriptor of that directory, as a temporary file that the core must read as a cfg,
  // then renamed into place (never through a symlink, never replacing a file unless `overwrite`).
  void CfgSave(const httplib::Request& req, httplib::Response& res) {
    Params p = Params::Body(req.body);
    std::string user = p.String("path");
    if (user.empty()) throw ApiError{400, "missing field 'path'"};
    std::string text = p.String("text", kMaxCfgBytes);
    if (text.empty()) throw ApiError{400, "missing field 'text' (the cfg to save)"};
    bool overwrite = p.Bool("overwrite").value_or(false);

    fs::path user_path(user);
    for (const auto& part : user_path)
      if (part == "..") throw ApiError{403, "path '" + user + "' escapes the served root (no '..' allowed)"};
    std::string name = user_path.filename().string();
    if (std::string problem = FileNameProblem(name); !problem.empty())
      throw ApiError{400, "cannot save as '" + user + "': " + problem,
                     "choose a short plain name ending in .cfg"};
    for (const auto& part : user_path.parent_path())
      if (std::string problem = FileNameProblem(part.string()); !problem.empty() && part != "/")
        throw ApiError{400,
                       "cannot save as '" + user + "': a directory name is not valid: " + problem};
    if (!EndsWith(name, ".cfg") || name.size() <= 4)
      throw ApiError{400, "'" + user + "' is not a .cfg name", "cfg files end in .cfg"};
    if (name[0] == '.') throw ApiError{400, "'" + name + "' is a hidden name", "choose a name not starting with '.'"};
    std::string parent = user_path.parent_path().string();
    std::string dir = parent.empty() ? root_.path() : ResolvePath(parent);

    int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir_fd < 0) throw ApiError{400, "'" + parent + "' is not a directory"};
    SaveCleanup cleanup(dir_fd);
    // The descriptor must be the directory checked: the same inode as the canonical path inside the
    // root now (a directory has one parent, so it is inside the root).
    struct stat opened {}, resolved {};
    char real[PATH_MAX];
    if (::fstat(dir_fd, &opened) != 0 || ::realpath(dir.c_str(), real) == nullptr || !root_.Contains(real) ||
        ::stat(real, &resolved) != 0 || opened.st_dev != resolved.st_dev || opened.st_ino != resolved.st_ino)
      throw ApiError{403, "path '" + user + "' is outside the served root"};
    std::string target = (fs::path(real) / name).string();
    std::string relative = root_.Relative(target);

    struct stat existing {};
    if (::fstatat(dir_fd, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISLNK(existing.st_mode)) throw ApiError{403, "'" + relative + "' is a symbolic link: not replaced"};
      if (!S_ISREG(existing.st_mode)) throw ApiError{409, "'" + relative + "' exists and is not a file"};
      if (!overwrite)
        throw ApiError{409, "'" + relative + "' already exists", "send \"overwrite\": true to replace it"};
    }

    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
      temp = "." + name + "." + RandomToken().substr(0, 12) + std::to_string(attempt) + ".tmp";
      fd = ::openat(dir_fd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) throw ApiError{500, "cannot create a file in '" + root_.Relative(real) + "'"};
    cleanup.set_temp(temp);
    size_t written = 0;
    while (written < text.size()) {
      ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    bool ok = written == text.size() && ::fsync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    if (!ok) throw ApiError{500, "cannot write '" + relative + "'"};

    auto summary = SummarizeCfg((fs::path(real) / temp).string());
    if (!summary.ok()) {
      // The temporary name means nothing to the client: only the line.
      const Status& s = summary.status();
      std::string line = s.where().line != 0 ? "line " + std::to_string(s.where().line) + ": " : "";
      throw ApiError{422, "the text is not a cfg: " + line + s.message(), s.hint()};
    }
    int moved = overwrite ? ::renameat(dir_fd, temp.c_str(), dir_fd, name.c_str())
                          : ::renameat2(dir_fd, temp.c_str(), dir_fd, name.c_str(), RENAME_NOREPLACE);
    if (moved != 0 && errno == EEXIST)
      throw ApiError{409, "'" + relative + "' already exists", "send \"overwrite\": true to replace it"};
    if (moved != 0) throw ApiError{500, "cannot write '" + relative + "'"};
    cleanup.keep();
    SendJson(res, {{"path", relative}});
  }

  void Functions(const httplib::Request&, httplib::Response& res) {
    SendJson(res, {{"functions", ToJson(ListFunctions(options_.functions.get()))}});
  }

  void NoRoute(const httplib::Request& req, httplib::Response&) {
    throw ApiError{404, "no route " + req.method + " " + req.path};
  }

  void Asset(const httplib::Request& req, httplib::Response& res) {
    std::string path = req.matches.size() > 1 ? req.matches[1].str() : "";
    if (path.empty()) path = "index.html";
    for (size_t i = 0; i < kEmbeddedAssetCount; ++i) {
      if (path == kEmbeddedAssets[i].path) {
        res.set_content(reinterpret_cast<const char*>(kEmbeddedAssets[i].data), kEmbeddedAssets[i].size,
                        ContentType(path));
        return;
      }
    }
    throw ApiError{404, "no such page: /" + path};
  }

  ServerOptions options_;
  RootDir root_;
  TraceCache cache_;
  std::mutex structures_mutex_;  // guards structures_
  std::vector<std::pair<std::weak_ptr<const Trace>, std::shared_ptr<const StructureEntry>>> structures_;
  mutable std::mutex preloaded_mutex_;  // guards preloaded_ (Preload may follow Run)
  std::vector<std::string> preloaded_;  // the traces given on the command line, in order
  GuardedHttpServer http_;
  int port_ = -1;
  std::atomic<bool> running_{false}, stop_requested_{false};
  std::string cookie_name_;
};

}  // namespace

std::string RandomToken() {
  unsigned char bytes[16] = {};
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  size_t got = f != nullptr ? std::fread(bytes, 1, sizeof bytes, f) : 0;
  if (f != nullptr) std::fclose(f);
  if (got != sizeof bytes) return {};  // the caller refuses to start without a token
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::unique_ptr<Server> Server::Create(const ServerOptions& options, std::string* error) {
  RootDir root;
  if (!RootDir::Open(options.root, &root, error)) return nullptr;
  ServerOptions o = options;
  if (o.token.empty()) o.token = RandomToken();
  if (o.token.empty()) {
    *error = "cannot read /dev/urandom for the access token";
    return nullptr;
  }
  auto s = std::make_unique<ServerImpl>(std::move(o), std::move(root));
  if (!s->Bind(error)) return nullptr;
  return s;
}

}  // namespace parallax::server
