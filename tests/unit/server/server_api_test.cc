// The HTTP API of `parallax serve`, in process: every route, the token rule, path escapes and
// bad requests. The served root is a temporary directory holding a copy of tests/data/omp and
// two cfgs, next to an "outside" directory the server must never open.

#include <gtest/gtest-spi.h>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerApiTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() { StartServer("api"); }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerApiTest, TokenIsRequiredEverywhere) {
  for (const char* p : {"/", "/api/functions", "/api/files", "/api/info?trace=traces/omp2.prv.gz", "/app.js"}) {
    auto r = Checked(Client()->Get(p), "direct request");
    ASSERT_TRUE(r) << p;
    EXPECT_EQ(r->status, 403) << p;
    EXPECT_TRUE(json::parse(r->body).contains("error"));
    auto wrong = Checked(Client()->Get(p, {{"X-Parallax-Token", "nope"}}), "direct request");
    EXPECT_EQ(wrong->status, 403) << p;
  }
  EXPECT_EQ(Checked(Client()->Get("/api/functions?token=0123456789abcdef0123456789abcdee"), "direct request")->status, 403);
}

TEST_F(ServerApiTest, QueryTokenSetsACookieThatAuthenticates) {
  auto r = Checked(Client()->Get((std::string("/?token=") + kToken).c_str()), "direct request");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  std::string cookie = r->get_header_value("Set-Cookie");
  ASSERT_NE(cookie.find(kToken), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  std::string pair = cookie.substr(0, cookie.find(';'));
  auto again = Checked(Client()->Get("/api/functions", {{"Cookie", "other=1; " + pair}}), "direct request");
  EXPECT_EQ(again->status, 200);
}

TEST_F(ServerApiTest, ServesTheEmbeddedUi) {
  auto r = Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("<title>Parallax</title>"), std::string::npos);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  for (const char* js : {"/app.js", "/api.js", "/timeline.js", "/tables.js"}) {
    auto a = Get(js);
    EXPECT_EQ(a->status, 200) << js;
    EXPECT_EQ(a->get_header_value("Content-Type"), "text/javascript; charset=utf-8") << js;
  }
  EXPECT_EQ(Get("/style.css")->status, 200);
  ExpectError("/no-such-page.html", 404);
  ExpectError("/api/no-such-route", 404);
}

TEST_F(ServerApiTest, ListsTracesCfgsAndDirectoriesButNotEscapes) {
  auto r = Get("/api/files");
  ASSERT_EQ(r->status, 200);
  json j = Json(r);
  std::vector<std::string> names;
  for (const auto& e : j["entries"]) names.push_back(e["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"cfgs", "traces"}));  // outdir points outside
  json traces = Json(Get("/api/files?dir=traces"))["entries"];
  // escape.prv.gz points outside and is not listed; leaky.prv.gz is a file of the root (only
  // opening it is refused, for its .pcf).
  ASSERT_EQ(traces.size(), 2u) << traces;
  EXPECT_EQ(traces[0]["path"], "traces/leaky.prv.gz");
  EXPECT_EQ(traces[1]["path"], kTrace);
  EXPECT_EQ(traces[1]["kind"], "trace");
  json cfgs = Json(Get("/api/files?dir=cfgs"))["entries"];
  ASSERT_EQ(cfgs.size(), 2u);
  EXPECT_EQ(cfgs[0]["kind"], "cfg");
  ExpectError("/api/files?dir=..", 403);
  ExpectError("/api/files?dir=outdir", 403);
  ExpectError("/api/files?dir=" + (base_ / "outside").string(), 403);
  ExpectError("/api/files?dir=traces/omp2.pcf", 400);
}

TEST_F(ServerApiTest, OpensATraceAndReportsItsInfo) {
  auto r = Checked(Client()->Post((std::string("/api/open?path=") + kTrace).c_str(), {{"X-Parallax-Token", kToken}}, "",
                          "text/plain"), "direct request");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  json info = Json(r);
  EXPECT_EQ(info["trace"], kTrace);
  EXPECT_FALSE(info.contains("path"));
  EXPECT_GT(info["threads"].get<int>(), 0);
  EXPECT_GT(info["trace_end"].get<uint64_t>(), 0u);
  EXPECT_EQ(Json(Get(std::string("/api/open?path=") + kTrace)), info);
  // The open's info is the summary: no per-value counts, which would need a pass over every
  // record; /api/info has them, and the rest is the same.
  EXPECT_FALSE(info["scanned"].get<bool>());
  for (const char* key : {"state_values", "event_types", "first_time", "last_time"})
    EXPECT_FALSE(info.contains(key)) << key;
  json full = Json(Get(std::string("/api/info?trace=") + kTrace));
  EXPECT_TRUE(full["scanned"].get<bool>());
  EXPECT_FALSE(full["state_values"].empty());
  EXPECT_FALSE(full["event_types"].empty());
  EXPECT_GT(full["last_time"].get<uint64_t>(), 0u);
  for (auto& [key, value] : info.items())
    if (key != "scanned") EXPECT_EQ(full[key], value) << key;
  json progress = Json(Get(std::string("/api/progress?trace=") + kTrace));
  EXPECT_TRUE(progress["loaded"].get<bool>());
  EXPECT_EQ(Json(Get("/api/traces"))["traces"], json::array({kTrace}));
  EXPECT_EQ(info["warnings"], json::array());  // a clean trace: no banner
}

// A trace cut short loads what it can, and the open says so (the page shows it as a banner),
// naming the trace by its path under the root.
TEST_F(ServerApiTest, ATraceCutShortOpensWithWarnings) {
  std::ifstream in((Root() / kTrace).string(), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream((Root() / "cut.prv.gz").string(), std::ios::binary) << bytes.substr(0, 20000);
  json info = Json(Get("/api/open?path=cut.prv.gz"));
  ASSERT_FALSE(info["warnings"].empty()) << info.dump();
  bool said = false;
  for (const auto& w : info["warnings"])
    said = said || w.get<std::string>().rfind("cut.prv.gz: compressed input cut short", 0) == 0;
  EXPECT_TRUE(said) << info["warnings"].dump();
}

// /api/traces tells the traces given on the command line (Preload) from those some page opened:
// a new page opens only the former.
TEST_F(ServerApiTest, ListsPreloadedTracesApart) {
  ASSERT_EQ(Json(Get(std::string("/api/open?path=") + kTrace))["trace"], kTrace);
  json before = Json(Get("/api/traces"));
  EXPECT_EQ(before["preloaded"], json::array());
  std::string error;
  ASSERT_TRUE(server_->Preload((Root() / kTrace).string(), &error)) << error;
  ASSERT_TRUE(server_->Preload(kTrace, &error)) << error;  // the same trace again: listed once
  json after = Json(Get("/api/traces"));
  EXPECT_EQ(after["preloaded"], json::array({kTrace}));
  EXPECT_EQ(after["traces"], before["traces"]);
}

TEST_F(ServerApiTest, RefusesPathsOutsideTheRoot) {
  ExpectError("/api/open?path=../outside/secret.prv.gz", 403);
  ExpectError("/api/open?path=traces/../../outside/secret.prv.gz", 403);
  ExpectError("/api/open?path=" + (base_ / "outside/secret.prv.gz").string(), 403);
  ExpectError("/api/open?path=/etc/passwd", 403);
  ExpectError("/api/open?path=/nonexistent/x.prv", 403);
  ExpectError("/api/open?path=traces/escape.prv.gz", 403);  // symlink out of the root
  ExpectError("/api/open?path=outdir/secret.prv.gz", 403);  // through a symlinked directory
  ExpectError("/api/open?path=traces/leaky.prv.gz", 403);    // its .pcf links out of the root
  ExpectError(std::string("/api/timeline?trace=") + kTrace + "&cfg=../outside/x.cfg", 403);
  ExpectError(std::string("/api/analyze?trace=") + kTrace + "&cfg=/etc/hostname", 403);
}

TEST_F(ServerApiTest, RejectsBadRequestsWithJsonErrors) {
  ExpectError("/api/open", 400);
  ExpectError("/api/open?path=traces/missing.prv", 404);
  ExpectError("/api/open?path=traces/omp2.pcf", 400);  // not a trace
  ExpectError("/api/info", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz", 400);  // neither cfg nor function
  ExpectError(std::string("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&cfg=") + kViewCfg, 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&width=abc", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&width=100000", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&from=10&to=5", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&format=gif", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=State%20As%20Is&flags=maybe", 400);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&function=No%20Such%20Function", 422);
  ExpectError("/api/timeline?trace=traces/omp2.prv.gz&cfg=traces/omp2.pcf", 400);
  ExpectError("/api/text?trace=traces/omp2.prv.gz&function=State%20As%20Is&object=THREAD%209.9.9", 422);
  ExpectError("/api/analyze?trace=traces/omp2.prv.gz", 400);
  auto big = Checked(Client()->Post("/api/open", {{"X-Parallax-Token", kToken}}, std::string((1 << 20) + 1, 'x'), "text/plain"), "direct request");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
}

// A JSON body member of the wrong type is a 400 that names the member and the type it must have
// (issue 39: never an "internal error").
TEST_F(ServerApiTest, WronglyTypedBodyMembersNameTheMemberAndTheTypeExpected) {
  const json state = {{"trace", kTrace}, {"function", "State As Is"}};
  auto with = [&](const char* key, const json& value) {
    json body = state;
    body[key] = value;
    return body;
  };
  const std::pair<json, std::string> cases[] = {
      {with("trace", 5), "field 'trace' must be a string, not number"},
      {with("width", "wide"), "field 'width' must be an integer, not string"},
      {with("width", 1.5), "field 'width' must be an integer, not number"},
      {with("from", json::array()), "field 'from' must be an integer, not array"},
      {with("flags", "yes"), "field 'flags' must be true or false, not string"},
      {with("params", "1"), "field 'params' must be an array of numbers, not string"},
      {with("params", json::array({1, "x"})), "field 'params[1]' must be a number, not string"},
  };
  for (const auto& [body, message] : cases) {
    json e = ExpectPostError("/api/timeline", body, 400);
    EXPECT_EQ(e["error"], message) << body.dump();
  }
  json e = ExpectPostError("/api/cfg/edit", json{{"trace", kTrace}, {"text", 5}}, 400);
  EXPECT_EQ(e["error"].get<std::string>().find("internal error"), std::string::npos) << e;
  EXPECT_NE(e["error"].get<std::string>().find("'text'"), std::string::npos) << e;
}

TEST_F(ServerApiTest, RendersTimelinesInEveryFormat) {
  std::string q = std::string("/api/timeline?trace=") + kTrace + "&function=State%20As%20Is&width=640";
  auto png = Get(q);
  ASSERT_EQ(png->status, 200) << png->body;
  EXPECT_EQ(png->get_header_value("Content-Type"), "image/png");
  EXPECT_EQ(png->body.substr(1, 3), "PNG");
  EXPECT_EQ(json::parse(png->get_header_value("X-Parallax-Window")), "State As Is");
  auto svg = Get(q + "&format=svg&from=1000&to=200000000");
  ASSERT_EQ(svg->status, 200);
  EXPECT_EQ(svg->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_NE(svg->body.find("<svg"), std::string::npos);
  auto list = Get(q + "&format=json&height=200&flags=1");
  ASSERT_EQ(list->status, 200);
  json l = Json(list);
  EXPECT_EQ(l["width"], 640);
  EXPECT_EQ(l["height"], 200);
  EXPECT_FALSE(l["rows"].empty());
  auto cfg = Get(std::string("/api/timeline?trace=") + kTrace + "&cfg=" + kViewCfg + "&format=json");
  ASSERT_EQ(cfg->status, 200) << cfg->body;
  EXPECT_FALSE(json::parse(cfg->get_header_value("X-Parallax-Windows")).empty());
}

// The UI's frames are not compressed, whatever the client accepts: brotli at cpp-httplib's
// quality cost more than the render, and the PNG inside does not compress.
TEST_F(ServerApiTest, FramesAreNotCompressed) {
  std::string q = std::string("/api/timeline?trace=") + kTrace + "&function=State%20As%20Is&width=640&format=frame";
  auto r = Checked(Client()->Get(q.c_str(), {{"X-Parallax-Token", kToken}, {"Accept-Encoding", "br, gzip, deflate"}}), "frame");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Encoding"), "");
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json; charset=utf-8");
  json f = Json(r);
  EXPECT_EQ(f["window"], "State As Is");
  EXPECT_FALSE(f["png"].get<std::string>().empty());
  // Other JSON answers are still compressed for a client that accepts it.
  auto info = Checked(Client()->Get((std::string("/api/info?trace=") + kTrace).c_str(),
                                    {{"X-Parallax-Token", kToken}, {"Accept-Encoding", "gzip"}}), "info");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->get_header_value("Content-Encoding"), "gzip");
}

TEST_F(ServerApiTest, TextViewOfAnObject) {
  auto r = Get(std::string("/api/text?trace=") + kTrace +
               "&function=State%20As%20Is&object=THREAD%201.1.1&from=0&to=100000000");
  ASSERT_EQ(r->status, 200) << r->body;
  json t = Json(r);
  EXPECT_EQ(t["from"], 0);
  EXPECT_EQ(t["to"], 100000000);
  EXPECT_FALSE(t["intervals"].empty());
  EXPECT_FALSE(t["events"].empty());
  auto cfg = Get(std::string("/api/text?trace=") + kTrace + "&cfg=" + kViewCfg + "&object=TASK%201.1");  // a task-level cfg
  EXPECT_EQ(cfg->status, 200) << cfg->body;
}

TEST_F(ServerApiTest, AnalyzerTables) {
  auto r = Get(std::string("/api/analyze?trace=") + kTrace + "&cfg=" + kAnalysisCfg);
  ASSERT_EQ(r->status, 200) << r->body;
  json tables = Json(r)["tables"];
  ASSERT_FALSE(tables.empty());
  const json& p = tables[0]["planes"][0];
  EXPECT_EQ(p["values"].size(), p["rows"].size());
  EXPECT_FALSE(p["columns"].empty());
}

TEST_F(ServerApiTest, ListsFunctions) {
  json f = Json(Get("/api/functions"))["functions"];
  bool found = false;
  for (const auto& x : f) found = found || x["name"] == "State As Is";
  EXPECT_TRUE(found);
}

TEST_F(ServerApiTest, ConcurrentRequestsShareOneLoad) {
  std::vector<std::thread> threads;
  std::vector<int> status(8, 0);
  for (size_t i = 0; i < status.size(); ++i)
    threads.emplace_back([i, &status] {
      auto r = Get(std::string("/api/timeline?trace=") + kTrace + "&function=State%20As%20Is&format=json&width=" +
                   std::to_string(100 + i));
      status[i] = r ? r->status : -1;
    });
  for (auto& t : threads) t.join();
  for (int s : status) EXPECT_EQ(s, 200);
}

}  // namespace
}  // namespace parallax::server

namespace parallax::server {
namespace {

// A request that timed out (no response) is reported as a failure with the reason, and the
// test reads a stand-in response instead of dereferencing null (a UBSan crash under load).
TEST_F(ServerApiTest, NoResponseIsAFailureNotACrash) {
  // EXPECT_NONFATAL_FAILURE's statement may only use statics.
  static httplib::Result checked(nullptr, httplib::Error::Success);
  EXPECT_NONFATAL_FAILURE(
      checked = Checked(httplib::Result(nullptr, httplib::Error::Read), "GET /slow"),
      "GET /slow: no response");
  ASSERT_TRUE(checked);
  EXPECT_EQ(checked->status, -1);
  EXPECT_NE(checked->body.find("no response"), std::string::npos);
}

}  // namespace
}  // namespace parallax::server
