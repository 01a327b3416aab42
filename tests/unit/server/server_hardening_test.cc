// Hostile input to `parallax serve`: requests that make a route throw, idle and slow clients,
// oversized and chunked bodies, foreign Host and Origin headers, bodies that are not JSON,
// invalid UTF-8, bad file names, and symlinks out of the root. Each case was found failing
// (a crash, a stall, a 500 or an unbounded buffer) before the server was hardened.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <new>
#include <stdexcept>

#include "tests/unit/server/raw_client.h"
#include "tests/unit/fifo_guard.h"
#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

constexpr const char* kBadPcfTrace = "traces/badpcf.prv.gz";

class ServerHardeningTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("hardening", [](ServerOptions& o) {
      o.workers = 4;
      o.queue = 4;
      o.idle_timeout_ms = 1000;
      // Long enough that the slow-client test opens all its connections before the first is
      // dropped, even on a busy machine (otherwise none needs to be refused).
      o.header_timeout_ms = 3000;
      // Requests to these paths throw from inside the route, as a core function might.
      o.test_hook = [](const std::string& path) {
        if (path == "/api/throw/out_of_range") throw std::out_of_range("index 7 out of range");
        if (path == "/api/throw/bad_alloc") throw std::bad_alloc();
        if (path == "/api/throw/int") throw 42;
      };
    });
    // A trace whose .pcf has a colour line the .pcf reader once threw on (std::out_of_range).
    fs::path data = PARALLAX_TEST_DATA;
    fs::copy_file(data / "omp/omp2.prv.gz", Root() / kBadPcfTrace);
    std::ifstream in(data / "omp/omp2.pcf");
    std::ofstream out(Root() / "traces/badpcf.pcf");
    std::string line;
    while (std::getline(in, line))
      out << (line.rfind("0    {", 0) == 0 ? "0 { ,0,0}" : line) << '\n';
  }
  static void TearDownTestSuite() { StopServer(); }

  static RawClient Raw() { return RawClient(server_->port()); }
  static std::string HostHeader() { return "127.0.0.1:" + std::to_string(server_->port()); }

  // A raw request with the token header and a correct Host; `extra` are more header lines.
  static std::string Request(const std::string& method, const std::string& target,
                             const std::string& extra = "", const std::string& body = "") {
    std::string r = method + " " + target + " HTTP/1.1\r\nHost: " + HostHeader() +
                    "\r\nX-Parallax-Token: " + kToken + "\r\n" + extra;
    if (!body.empty()) r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return r + "\r\n" + body;
  }

  // The status of a raw exchange, with a JSON error body.
  static json ExpectRawError(const RawResponse& r, int status, const std::string& what) {
    EXPECT_EQ(r.status, status) << what << ": " << r.head << r.body;
    json j = json::parse(r.body, nullptr, false);
    EXPECT_TRUE(j.is_object() && j.contains("error")) << what << ": " << r.body;
    return j;
  }

  static void ExpectStillServing() {
    auto r = Get("/api/functions");
    ASSERT_TRUE(r) << "the server stopped answering";
    EXPECT_EQ(r->status, 200);
  }
};

TEST_F(ServerHardeningTest, AnExceptionInARouteBecomesAJsonErrorAndTheServerGoesOn) {
  ExpectErrorResponse(Get("/api/throw/out_of_range"), 500, "std::out_of_range");
  ExpectErrorResponse(Get("/api/throw/bad_alloc"), 503, "std::bad_alloc");
  ExpectErrorResponse(Get("/api/throw/int"), 500, "a non-std exception");
  ExpectErrorResponse(Post("/api/throw/int", json::object()), 500, "a non-std exception (POST)");
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, InvalidUtf8InAPathOrParameterIsA400Or404NotACrash) {
  // POST /x%FF once killed the server: the 404 message quoted the path, which is not UTF-8, and
  // the JSON encoder threw inside the error handler.
  auto post = Client()->Post("/x%FF", {{"X-Parallax-Token", kToken}}, "{}", "application/json");
  ExpectErrorResponse(post, 404, "POST /x%FF");
  ExpectError("/api/no%FFroute", 404);
  ExpectError("/api/open?path=traces/%FF.prv", 400);
  ExpectError(
      std::string("/api/timeline?trace=") + kTrace + "&function=State%20As%20Is&format=%C3%28",
      400);
  // Not UTF-8 inside a JSON string (the parser's message quoted the bytes: 500 before).
  ExpectErrorResponse(Post("/api/timeline", std::string("{\"trace\": \"\xff\"}")), 400,
                      "0xFF in JSON");
  ExpectErrorResponse(Post("/api/timeline", std::string("{\"trace\": \"a\xc0\xaf\"}")), 400,
                      "an overlong form");
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, ATraceThatFailsToLoadIsReportedByProgress) {
  auto r = Get(std::string("/api/open?path=") + kBadPcfTrace);
  ASSERT_TRUE(r);
  json progress = Json(Get(std::string("/api/progress?trace=") + kBadPcfTrace));
  EXPECT_FALSE(progress["loading"].get<bool>()) << progress;
  if (r->status == 200) {  // the .pcf reader accepts the line now
    EXPECT_TRUE(progress["loaded"].get<bool>()) << progress;
  } else {
    ExpectErrorResponse(r, r->status, "a trace that fails to load");
    EXPECT_TRUE(r->status == 422 || r->status == 500) << r->status;
    EXPECT_FALSE(progress["loaded"].get<bool>()) << progress;
    ASSERT_TRUE(progress.contains("error")) << progress;
    EXPECT_EQ(progress["error"], Json(r)["error"]);
  }
  // Preloading it (as `parallax serve TRACE` does) fails or succeeds but never throws.
  std::string error;
  bool loaded = false;
  EXPECT_NO_THROW(loaded = server_->Preload((Root() / kBadPcfTrace).string(), &error));
  EXPECT_EQ(loaded, r->status == 200) << error;
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, IdleAndSlowClientsCannotStallTheServer) {
  // More connections than workers + queue (4 + 4): some are refused with 429 at once, the others
  // send their header one byte at a time and are dropped at the header deadline (3 s), however
  // often they send.
  std::vector<RawClient> slow;
  for (int i = 0; i < 12; ++i) {
    slow.push_back(Raw());
    ASSERT_TRUE(slow.back().Send("GET /api/functions HTTP/1.1\r\nHo"));
  }
  std::atomic<bool> stop{false};
  std::vector<int> outcome(slow.size(), 0);  // the status received, or -1 when closed silently
  std::thread dribble([&] {
    for (int round = 0; round < 300 && !stop; ++round) {  // at most 60 s
      for (size_t i = 0; i < slow.size(); ++i) {
        if (outcome[i] != 0) continue;
        if (!slow[i].Send("s")) outcome[i] = -1;
        RawResponse r;
        if (slow[i].Poll(&r)) outcome[i] = r.status != 0 ? r.status : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  // A valid request is answered (after 429s while the queue is full) well before the 60 s the
  // slow clients would otherwise hold the workers.
  int status = 0;
  for (int attempt = 0; attempt < 300 && status != 200; ++attempt) {
    auto r = Get("/api/functions");
    status = r ? r->status : -1;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(status, 200);
  // Every slow client ends: refused (429), timed out (408 or a closed connection).
  for (int wait = 0; wait < 300; ++wait) {
    if (std::all_of(outcome.begin(), outcome.end(), [](int o) { return o != 0; })) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop = true;
  dribble.join();
  int refused = 0;
  for (size_t i = 0; i < outcome.size(); ++i) {
    EXPECT_NE(outcome[i], 0) << "slow client " << i << " was never dropped";
    EXPECT_NE(outcome[i], 200) << "slow client " << i;
    refused += outcome[i] == 429;
  }
  EXPECT_GT(refused, 0) << "12 connections for 4 workers and a queue of 4: some must be refused";
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, ChunkedAndUnframedBodiesAreCappedLikeOthers) {
  // 3 MiB in 64 KiB chunks: refused with 413 once past 1 MiB, not buffered whole.
  RawClient c = Raw();
  ASSERT_TRUE(c.Send(Request("POST", "/api/timeline",
                             "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n")));
  std::string chunk(64 << 10, ' ');
  char size_line[32];
  std::snprintf(size_line, sizeof size_line, "%zx\r\n", chunk.size());
  const std::string open = "{\"padding\": \"";
  c.Send(std::string(size_line) + open + chunk.substr(open.size()) + "\r\n");
  for (int i = 1; i < 48; ++i)
    if (!c.Send(std::string(size_line) + chunk + "\r\n")) break;  // the server may close early
  c.Send("0\r\n\r\n");
  ExpectRawError(c.Receive(), 413, "a chunked body of 3 MiB");

  // No Content-Length and no chunking: the body runs to the end of the connection.
  RawClient u = Raw();
  ASSERT_TRUE(u.Send(
      Request("POST", "/api/timeline", "Content-Type: application/json\r\nConnection: close\r\n")));
  for (int i = 0; i < 48; ++i)
    if (!u.Send(chunk)) break;
  u.ShutdownWrite();
  RawResponse r = u.Receive();
  EXPECT_TRUE(r.status == 413 || r.status == 400) << r.head;  // capped either way, never buffered
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, OversizedOrUnusualRequestsAreRefusedBeforeTheirBody) {
  auto refused = [](const std::string& request, int status, const std::string& what) {
    RawClient c = Raw();
    ASSERT_TRUE(c.Send(request));
    ExpectRawError(c.Receive(), status, what);
  };
  refused(Request("POST", "/api/timeline",
                  "Content-Type: application/json\r\nContent-Length: 300000000\r\n"),
          413, "a declared 300 MB body");
  refused(Request("POST", "/api/timeline",
                  "Content-Type: application/json\r\nContent-Length: 12abc\r\n"),
          400, "a malformed Content-Length");
  refused(Request("PUT", "/api/cfg/save", "Transfer-Encoding: chunked\r\n"), 405, "PUT");
  refused(Request("DELETE", "/api/cfg/save", "Content-Length: 5\r\n"), 405, "DELETE");
  refused(Request("POST", "/api/timeline",
                  "Content-Type: application/json\r\nContent-Encoding: gzip\r\n", "xxxxx"),
          415, "a gzip body");
  refused(Request("POST", "/api/timeline", "Content-Type: text/plain\r\n", "{\"trace\": \"x\"}"),
          415, "a JSON body sent as text/plain");
  refused(Request("POST", "/api/cfg/save", "Content-Type: application/x-www-form-urlencoded\r\n",
                  "path=a.cfg"),
          415, "a form");
  // application/json with parameters is JSON.
  auto ok = Client()->Post("/api/cfg/function", {{"X-Parallax-Token", kToken}},
                           json{{"trace", kTrace}, {"function", "State As Is"}}.dump(),
                           "application/json; charset=utf-8");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200) << ok->body;
  // An image of 16384 x 16384 pixels would need 1 GiB: refused before rendering.
  ExpectError(std::string("/api/timeline?trace=") + kTrace +
                  "&function=State%20As%20Is&width=16384&height=16384",
              400);
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, OnlyTheServedHostAndOriginAreAccepted) {
  std::string port = std::to_string(server_->port());
  std::string other = std::to_string(server_->port() == 65535 ? 1 : server_->port() + 1);
  auto with_host = [](const std::string& host) {
    RawClient c = Raw();
    c.Send("GET /api/functions HTTP/1.1\r\nHost: " + host + "\r\nX-Parallax-Token: " + kToken +
           "\r\n\r\n");
    return c.Receive();
  };
  for (const std::string& h :
       {"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "[::1]:" + port})
    EXPECT_EQ(with_host(h).status, 200) << h;
  for (const std::string& h :
       {"evil.example:" + port, "127.0.0.1:" + other, std::string("localhost"),
        "127.0.0.1.evil.example:" + port, "192.168.1.10:" + port, std::string()})
    ExpectRawError(with_host(h), 403, "Host: " + h);

  // A page of another port of this machine has the cookie (cookies ignore ports) but not the
  // origin: it cannot save.
  std::string cookie = "parallax_token_" + port + "=" + kToken;
  std::string body = json{{"path", "cross.cfg"}, {"text", "#ParaverCFG\n"}}.dump();
  auto save = [&](const std::string& headers) {
    RawClient c = Raw();
    c.Send("POST /api/cfg/save HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nCookie: " + cookie +
           "\r\nContent-Type: application/json\r\n" + headers +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    return c.Receive();
  };
  ExpectRawError(save("Origin: http://127.0.0.1:" + other + "\r\n"), 403, "another port's origin");
  ExpectRawError(save("Origin: http://localhost:" + port + "\r\n"), 403,
                 "localhost is another origin than 127.0.0.1");
  ExpectRawError(save("Origin: null\r\n"), 403, "an opaque origin");
  ExpectRawError(save("Sec-Fetch-Site: same-site\r\n"), 403, "a same-site fetch");
  EXPECT_FALSE(fs::exists(Root() / "cross.cfg"));
  // The same origin passes the check (and then the cfg reader refuses this text: 422, not 403).
  RawResponse same =
      save("Origin: http://127.0.0.1:" + port + "\r\nSec-Fetch-Site: same-origin\r\n");
  EXPECT_NE(same.status, 403) << same.body;
  ExpectStillServing();
}

TEST_F(ServerHardeningTest, TheCookieStaysWithThisServerAndSession) {
  auto r = Client()->Get((std::string("/?token=") + kToken).c_str());
  ASSERT_TRUE(r);
  std::string cookie = r->get_header_value("Set-Cookie");
  EXPECT_EQ(
      cookie.rfind("parallax_token_" + std::to_string(server_->port()) + "=" + kToken + ";", 0), 0u)
      << cookie;
  for (const char* attribute : {"; Path=/", "; HttpOnly", "; SameSite=Strict"})
    EXPECT_NE(cookie.find(attribute), std::string::npos) << attribute << " in " << cookie;
  for (const char* attribute : {"Max-Age", "Expires", "Domain"})
    EXPECT_EQ(cookie.find(attribute), std::string::npos) << attribute << " in " << cookie;
  EXPECT_EQ(r->get_header_value("Cross-Origin-Resource-Policy"), "same-origin");
}

TEST_F(ServerHardeningTest, SavedNamesAreShortPlainNames) {
  const std::string text = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 0\n";
  ExpectPostError("/api/cfg/save", json{{"path", std::string(300, 'a') + ".cfg"}, {"text", text}},
                  400);
  ExpectPostError("/api/cfg/save", json{{"path", "two\nlines.cfg"}, {"text", text}}, 400);
  ExpectPostError("/api/cfg/save", json{{"path", "tab\tname.cfg"}, {"text", text}}, 400);
  ExpectPostError("/api/cfg/save", json{{"path", "bell\x07/x.cfg"}, {"text", text}}, 400);
  for (const auto& entry : fs::directory_iterator(Root()))
    EXPECT_EQ(entry.path().filename().string().find_first_of("\n\t\x07"), std::string::npos)
        << entry.path();
  // A directory name over 255 bytes is refused the same way.
  ExpectPostError("/api/cfg/save", json{{"path", std::string(300, 'd') + "/x.cfg"}, {"text", text}},
                  400);
}

TEST_F(ServerHardeningTest, SymlinksOutOfTheRootGetOneAnswerWhetherOrNotTheirTargetExists) {
  fs::create_symlink(base_ / "outside/secret.prv.gz", Root() / "traces/to_existing.prv.gz");
  fs::create_symlink(base_ / "outside/missing.prv.gz", Root() / "traces/to_missing.prv.gz");
  fs::create_symlink(base_ / "outside/missing_dir", Root() / "missing_dir");
  json existing = ExpectErrorResponse(Get("/api/open?path=traces/to_existing.prv.gz"), 403,
                                      "to an existing file");
  json missing =
      ExpectErrorResponse(Get("/api/open?path=traces/to_missing.prv.gz"), 403, "to a missing file");
  EXPECT_EQ(
      existing["error"].get<std::string>().substr(
          existing["error"].get<std::string>().find(" is ")),
      missing["error"].get<std::string>().substr(missing["error"].get<std::string>().find(" is ")));
  ExpectError("/api/open?path=missing_dir/a.prv", 403);
  ExpectError("/api/open?path=outdir/no_such.prv", 403);  // a link to an existing directory outside
  ExpectError("/api/open?path=traces/no_such.prv", 404);  // inside, no link: simply missing
}

// A named pipe as a trace or beside one (its .pcf) held the request's worker in open(2) until
// some process wrote to the pipe: the request never got an answer.
TEST_F(ServerHardeningTest, NamedPipesAsTracesOrCompanionsAreAnsweredAtOnce) {
  const fs::path pipe = Root() / "traces/pipe.prv", pcf = Root() / "traces/piped.pcf";
  ASSERT_TRUE(test::MakeFifo(pipe.string()) && test::MakeFifo(pcf.string()));
  fs::copy_file(fs::path(PARALLAX_TEST_DATA) / "omp/omp2.prv.gz", Root() / "traces/piped.prv.gz");
  test::FinishesWithin(30, {pipe.string(), pcf.string()}, [&] {
    json e = ExpectErrorResponse(Get("/api/open?path=traces/pipe.prv"), 422, "a FIFO as the trace");
    EXPECT_NE(e["error"].get<std::string>().find("is a named pipe (FIFO), not a regular file"), std::string::npos) << e;
    auto r = Get("/api/open?path=traces/piped.prv.gz");
    EXPECT_EQ(r->status, 200) << r->body;
  }, "opening traces with named pipes");
  ExpectStillServing();
}

// Every part of an OTF2 archive is read by libotf2 from names derived from the anchor's: a part
// that is a symlink out of the root (the anchor found in a folder, NAME.def, the folder NAME/,
// an event file) exposed that file as a trace, where a symlinked .pcf was refused.
TEST_F(ServerHardeningTest, OtherPartsOfAnOtf2ArchiveMustNotLeadOutOfTheRoot) {
  const fs::path data = fs::path(PARALLAX_TEST_DATA) / "otf2/ping-pong-otf2";
  const fs::path outside = base_ / "outside/otf2";
  fs::create_directories(outside);
  fs::copy(data, outside / "pp", fs::copy_options::recursive);
  // Copies of the archive in the root, each with one part replaced by a link to `outside`.
  auto archive = [&](const std::string& name, const std::string& linked) {
    fs::path dir = Root() / "otf2" / name;
    fs::create_directories(dir);
    for (const char* part : {"traces.otf2", "traces.def", "traces"}) {
      if (linked == part)
        fs::create_symlink(outside / "pp" / part, dir / part);
      else
        fs::copy(data / part, dir / part, fs::copy_options::recursive);
    }
    if (!linked.empty() && linked.rfind("traces/", 0) == 0) {
      fs::remove(dir / linked);
      fs::create_symlink(outside / "pp" / linked, dir / linked);
    }
    return "otf2/" + name;
  };
  auto ok = Get("/api/open?path=" + archive("intact", "") + "/traces.otf2");
  EXPECT_EQ(ok->status, 200) << ok->body;
  for (const char* linked : {"traces.def", "traces", "traces/0.evt", "traces/0.def"}) {
    std::string dir = archive(std::string("link_") + (linked[6] == '/' ? linked + 7 : linked), linked);
    json e = ExpectErrorResponse(Get("/api/open?path=" + dir + "/traces.otf2"), 403, linked);
    EXPECT_NE(e["error"].get<std::string>().find("leads outside the root"), std::string::npos) << e;
  }
  // An archive named by its folder (a folder named like a trace), whose anchor links out.
  std::string dir = archive("link_anchor.otf2", "traces.otf2");
  ExpectErrorResponse(Get("/api/open?path=" + dir), 403, "the anchor of a folder");
  // A link that cannot be followed gets the same answer as one that can.
  fs::path dangling = Root() / "otf2" / "link_missing";
  fs::copy(data, dangling, fs::copy_options::recursive);
  fs::remove(dangling / "traces.def");
  fs::create_symlink(outside / "missing.def", dangling / "traces.def");
  ExpectErrorResponse(Get("/api/open?path=otf2/link_missing/traces.otf2"), 403, "a dangling link");
  json loaded = Json(Get("/api/traces"))["traces"];
  for (const auto& t : loaded) EXPECT_EQ(t.get<std::string>().find("link_"), std::string::npos) << loaded;
}

// A page of another site (or of another port of this machine: cookies ignore ports) could make
// the server load any trace under the root through a GET (an <img> or a plain link), and keep it
// in memory: only POST was checked. Every API route is now; the UI's own page is not, so that a
// link or a bookmark still opens it.
TEST_F(ServerHardeningTest, ApiRoutesReachedFromAnotherSiteAreRefusedWhateverTheMethod) {
  const std::string port = std::to_string(server_->port());
  const std::string cookie = "parallax_token_" + port + "=" + kToken;
  fs::copy_file(fs::path(PARALLAX_TEST_DATA) / "omp/omp2.prv.gz", Root() / "traces/lured.prv.gz");
  auto get = [&](const std::string& target, const std::string& headers) {
    RawClient c = Raw();
    c.Send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nCookie: " + cookie +
           "\r\n" + headers + "\r\n");
    return c.Receive();
  };
  const std::string foreign[] = {"Sec-Fetch-Site: same-site\r\n", "Sec-Fetch-Site: cross-site\r\n",
                                 "Origin: http://127.0.0.1:1\r\n", "Origin: null\r\n"};
  for (const char* route : {"/api/open?path=traces/lured.prv.gz", "/api/info?trace=traces/lured.prv.gz",
                            "/api/timeline?trace=traces/lured.prv.gz&function=State%20As%20Is",
                            "/api/files?dir=traces", "/api/functions"})
    for (const std::string& h : foreign) ExpectRawError(get(route, h), 403, route + (" with " + h));
  json loaded = Json(Get("/api/traces"))["traces"];
  for (const auto& t : loaded) EXPECT_NE(t, "traces/lured.prv.gz") << loaded;
  // The UI's page may be reached from anywhere (it loads nothing by itself) ...
  EXPECT_EQ(get("/", "Sec-Fetch-Site: cross-site\r\n").status, 200);
  // ... and the UI's own requests, or a URL typed by the user, pass.
  EXPECT_EQ(get("/api/functions", "Sec-Fetch-Site: none\r\n").status, 200);
  RawResponse same = get("/api/open?path=traces/lured.prv.gz",
                         "Origin: http://127.0.0.1:" + port + "\r\nSec-Fetch-Site: same-origin\r\n");
  EXPECT_EQ(same.status, 200) << same.body;
}

// Two Host headers were accepted when the first one was allowed, whatever the second said.
TEST_F(ServerHardeningTest, TwoHostHeadersAreABadRequestInEitherOrder) {
  const std::string good = HostHeader();
  for (const auto& [first, second] : {std::pair{good, std::string("evil.example")},
                                      std::pair{std::string("evil.example"), good}, std::pair{good, good}}) {
    RawClient c = Raw();
    c.Send("GET /api/functions HTTP/1.1\r\nHost: " + first + "\r\nHost: " + second +
           "\r\nX-Parallax-Token: " + std::string(kToken) + "\r\n\r\n");
    ExpectRawError(c.Receive(), 400, "Host: " + first + ", then Host: " + second);
  }
  ExpectStillServing();
}

}  // namespace
}  // namespace parallax::server
