// The server's per-request memory limit (ServerOptions::request_memory_limit, `serve
// --request-memory-limit`): a timeline, text or analyzer request that would hold more is
// answered 503 with the limit in its message, and the server goes on serving.

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerMemoryLimitTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("memory_limit", [](ServerOptions& o) { o.request_memory_limit = 1024; });
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerMemoryLimitTest, RequestsThatNeedMoreAre503AndTheServerGoesOn) {
  const std::string trace = std::string("trace=") + kTrace;
  for (const std::string& q :
       {"/api/timeline?" + trace + "&cfg=" + kViewCfg + "&width=200",
        "/api/text?" + trace + "&cfg=" + kViewCfg + "&object_index=0",
        "/api/analyze?" + trace + "&cfg=" + kAnalysisCfg}) {
    json e = ExpectErrorResponse(Get(q), 503, q);
    EXPECT_NE(e.dump().find("needs more than its memory limit of 1.0 KiB"), std::string::npos) << e.dump();
    EXPECT_NE(e.dump().find("--request-memory-limit"), std::string::npos) << e.dump();
  }
  auto info = Get("/api/info?" + trace);
  ASSERT_TRUE(info) << "no response";
  EXPECT_EQ(info->status, 200) << info->body;
}

}  // namespace
}  // namespace parallax::server
