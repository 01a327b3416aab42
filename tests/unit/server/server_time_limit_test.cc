// The server's per-request time limit (ServerOptions::request_time_limit, `serve
// --request-time-limit`): a timeline, text or analyzer request that computes longer is answered
// 503 and its worker goes back to serving. The limit here is a nanosecond, over before any row
// is evaluated, so the test does not depend on the machine's speed.

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerTimeLimitTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("time_limit", [](ServerOptions& o) { o.request_time_limit = 1e-9; });
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerTimeLimitTest, LongRequestsAre503AndTheServerGoesOn) {
  const std::string trace = std::string("trace=") + kTrace;
  for (const std::string& q :
       {"/api/timeline?" + trace + "&cfg=" + kViewCfg + "&width=200",
        "/api/text?" + trace + "&cfg=" + kViewCfg + "&object_index=0",
        "/api/analyze?" + trace + "&cfg=" + kAnalysisCfg}) {
    json e = ExpectErrorResponse(Get(q), 503, q);
    EXPECT_NE(e.dump().find("took more than its limit"), std::string::npos) << e.dump();
  }
  // Requests that evaluate no window are not limited, and the server still answers.
  auto info = Get("/api/info?" + trace);
  ASSERT_TRUE(info) << "no response";
  EXPECT_EQ(info->status, 200) << info->body;
}

}  // namespace
}  // namespace parallax::server
