// A bounded soak of `parallax serve`: 16 clients on 127.0.0.1 send 400 requests at once, valid
// ones mixed with hostile ones (bad tokens, oversized and chunked bodies, slow and idle
// connections, malformed JSON, invalid UTF-8, foreign Host and Origin, damaged cfg texts). The
// server must survive, refuse every hostile request with a JSON error (never a 5xx), and answer
// every valid request exactly as it does when alone. Nothing here measures time: waits are
// bounded and generous, and a valid request refused with 429 (queue full) is sent again.

#include <atomic>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>

#include "tests/unit/server/raw_client.h"
#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

constexpr int kClients = 16;
constexpr int kRequestsPerClient = 25;

struct Valid {
  std::string method, target, body;
};

class ServerSoakTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("soak", [](ServerOptions& o) {
      o.idle_timeout_ms = 1000;
      o.header_timeout_ms = 1000;
    });
  }
  static void TearDownTestSuite() { StopServer(); }

  static std::vector<Valid> ValidRequests() {
    const std::string t = std::string("trace=") + kTrace;
    return {
        {"GET", "/api/functions", ""},
        {"GET", "/api/info?" + t, ""},
        {"GET", "/api/timeline?" + t + "&function=State%20As%20Is&format=json&width=120", ""},
        {"GET", "/api/timeline?" + t + "&function=Last%20Evt%20Val&format=json&width=300",
         ""},
        {"POST", "/api/text",
         json{{"trace", kTrace},
              {"function", "State As Is"},
              {"object", "THREAD 1.1.1"},
              {"from", 0},
              {"to", 100000000}}
             .dump()},
        {"POST", "/api/cfg/function", json{{"trace", kTrace}, {"function", "State As Is"}}.dump()},
        {"GET", std::string("/api/cfg?") + t + "&path=" + kViewCfg, ""},
    };
  }

  // A request whose connection may be dropped under load (a worker freed only after the
  // 1 s header timeout closes it): no response is allowed here, unlike Get/Post of the fixture.
  static httplib::Result MayDropGet(const std::string& target) {
    return Client()->Get(target.c_str(), {{"X-Parallax-Token", kToken}});
  }
  static httplib::Result MayDropPost(const std::string& target, const std::string& body) {
    return Client()->Post(target.c_str(), {{"X-Parallax-Token", kToken}}, body, "application/json");
  }

  // One valid request, sent again while the server is busy (429) or the connection drops.
  static httplib::Result SendValid(const Valid& v) {
    for (int attempt = 0;; ++attempt) {
      httplib::Result r = v.method == "GET" ? MayDropGet(v.target) : MayDropPost(v.target, v.body);
      if ((r && r->status != 429) || attempt == 200) return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // A cfg text damaged by `rng`: bytes replaced, lines cut or repeated, numbers made huge.
  static std::string DamagedCfg(std::mt19937& rng) {
    std::ifstream in(Root() / kViewCfg);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    std::uniform_int_distribution<size_t> at(0, text.size() - 1);
    switch (rng() % 4) {
      case 0:
        for (int i = 0; i < 20; ++i) text[at(rng)] = static_cast<char>(rng() % 256);
        break;
      case 1:
        text.resize(at(rng));
        break;
      case 2: {
        size_t a = at(rng);
        text.insert(a, text.substr(a, 200));
        break;
      }
      default:
        for (int i = 0; i < 5; ++i) {
          size_t d = text.find_first_of("0123456789", at(rng));
          if (d != std::string::npos) text.insert(d, "99999999999999999999");
        }
    }
    return text;
  }
};

TEST_F(ServerSoakTest, SixteenClientsMixingValidAndHostileRequests) {
  // The answers of the valid requests, one at a time.
  std::vector<Valid> valid = ValidRequests();
  std::vector<std::string> expected;
  for (const auto& v : valid) {
    auto r = SendValid(v);
    ASSERT_TRUE(r) << v.target;
    ASSERT_EQ(r->status, 200) << v.target << ": " << r->body;
    expected.push_back(r->body);
  }

  const std::string port = std::to_string(server_->port());
  const std::string host = "127.0.0.1:" + port;
  std::mutex mutex;  // guards failures and the counters
  std::vector<std::string> failures;
  int valid_sent = 0, hostile_sent = 0;
  auto fail = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    failures.push_back(what);
  };
  // A hostile request's answer: any JSON error below 500 (or, for a damaged cfg that still
  // reads, a success).
  auto check_refusal = [&](int status, const std::string& body, const std::string& what,
                           bool may_succeed = false) {
    if (status == 200 && may_succeed) return;
    if (status == 429) return;  // refused for load: also fine
    json j = json::parse(body, nullptr, false);
    if (status < 400 || status >= 500 || !j.is_object() || !j.contains("error"))
      fail(what + ": status " + std::to_string(status) + " " + body.substr(0, 200));
  };

  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      std::mt19937 rng(1234 + c);
      std::vector<RawClient> idle;  // slow clients left open until this client is done
      for (int i = 0; i < kRequestsPerClient; ++i) {
        int kind = (c * 7 + i) % 16;
        if (kind < 7) {  // valid
          auto r = SendValid(valid[kind]);
          if (!r)
            fail("no answer to " + valid[kind].target);
          else if (r->status != 200 || r->body != expected[kind])
            fail(valid[kind].target + ": status " + std::to_string(r->status) +
                 ", answer differs from the single request");
          std::lock_guard<std::mutex> lock(mutex);
          ++valid_sent;
          continue;
        }
        {
          std::lock_guard<std::mutex> lock(mutex);
          ++hostile_sent;
        }
        switch (kind) {
          case 7: {  // wrong token
            auto r = Client()->Get("/api/functions", {{"X-Parallax-Token", "0123"}});
            if (r) check_refusal(r->status, r->body, "bad token");
            break;
          }
          case 8: {  // a declared 500 MB body
            RawClient raw(server_->port());
            raw.Send("POST /api/timeline HTTP/1.1\r\nHost: " + host +
                     "\r\nX-Parallax-Token: " + kToken +
                     "\r\nContent-Type: application/json\r\nContent-Length: "
                     "500000000\r\n\r\n{\"trace\":");
            RawResponse r = raw.Receive();
            if (r.status != 0) check_refusal(r.status, r.body, "huge body");
            break;
          }
          case 9: {  // 2 MiB chunked
            RawClient raw(server_->port());
            raw.Send("POST /api/cfg/edit HTTP/1.1\r\nHost: " + host +
                     "\r\nX-Parallax-Token: " + kToken +
                     "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            std::string chunk = "8000\r\n" + std::string(0x8000, 'a') + "\r\n";
            for (int k = 0; k < 64 && raw.Send(chunk); ++k) {
            }
            raw.Send("0\r\n\r\n");
            RawResponse r = raw.Receive();
            if (r.status != 0) check_refusal(r.status, r.body, "chunked body");
            break;
          }
          case 10: {  // slow or idle: part of a request line, then nothing
            idle.emplace_back(server_->port());
            idle.back().Send(rng() % 2 ? "GET /api/functions HTTP/1.1\r\nHost: 127" : "");
            break;
          }
          case 11: {  // malformed JSON
            auto r = MayDropPost("/api/timeline",
                                 std::string("{\"trace\": \"") + kTrace + "\", \"width\": 1");
            if (r) check_refusal(r->status, r->body, "malformed JSON");
            break;
          }
          case 12: {  // invalid UTF-8, in the query and in the body
            auto q = MayDropGet(std::string("/api/timeline?trace=") + kTrace + "&function=State%FF");
            if (q) check_refusal(q->status, q->body, "query not UTF-8");
            auto b = MayDropPost("/api/text",
                          std::string("{\"trace\": \"") + kTrace + "\", \"object\": \"\xc3\x28\"}");
            if (b) check_refusal(b->status, b->body, "body not UTF-8");
            break;
          }
          case 13: {  // a damaged cfg_text
            json body = {{"trace", kTrace},
                         {"cfg_text", DamagedCfg(rng)},
                         {"format", "json"},
                         {"width", 64}};
            auto r = MayDropPost("/api/timeline",
                                 body.dump(-1, ' ', false, json::error_handler_t::replace));
            if (r) check_refusal(r->status, r->body, "damaged cfg_text", true);
            break;
          }
          case 14: {  // another site's Host (DNS rebinding)
            RawClient raw(server_->port());
            raw.Send("GET /api/functions HTTP/1.1\r\nHost: attacker.example:" + port +
                     "\r\nX-Parallax-Token: " + kToken + "\r\n\r\n");
            RawResponse r = raw.Receive();
            if (r.status != 0) check_refusal(r.status, r.body, "foreign Host");
            break;
          }
          default: {  // another origin writing with the cookie, as text/plain
            auto r = Client()->Post("/api/cfg/save",
                                    {{"Cookie", "parallax_token_" + port + "=" + kToken},
                                     {"Origin", "http://127.0.0.1:1"}},
                                    json{{"path", "soak.cfg"}, {"text", "x"}}.dump(), "text/plain");
            if (r) check_refusal(r->status, r->body, "cross-origin save");
          }
        }
      }
    });
  }
  for (auto& t : clients) t.join();

  for (const auto& f : failures) ADD_FAILURE() << f;
  EXPECT_EQ(valid_sent + hostile_sent, kClients * kRequestsPerClient);
  EXPECT_GT(valid_sent, 100);
  EXPECT_GT(hostile_sent, 100);
  EXPECT_FALSE(fs::exists(Root() / "soak.cfg"));
  // Still serving, with the same answers.
  for (size_t k = 0; k < valid.size(); ++k) {
    auto r = SendValid(valid[k]);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, expected[k]) << valid[k].target;
  }
}

}  // namespace
}  // namespace parallax::server
