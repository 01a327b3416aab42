// The server lists and opens traces of the other formats the core imports (docs/formats.md):
// a Pajé trace, a KSR event log, an SDDF file or an OTF2 archive in the root is a "trace" in
// the file browser and opens like a .prv.

#include <gtest/gtest.h>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerFormatsTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("formats");
    const fs::path data(PARALLAX_TEST_DATA);
    fs::copy_file(data / "paje/states.trace", Root() / "traces/states.trace");
    fs::copy_file(data / "ksr/pablo_example.gist", Root() / "traces/pablo_example.gist");
    fs::copy_file(data / "ksr/pablo_example.sddf", Root() / "traces/pablo_example.sddf");
    fs::copy(data / "otf2/ping-pong-otf2", Root() / "traces/pp", fs::copy_options::recursive);
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerFormatsTest, ListsAndOpensAPajeTrace) {
  json traces = Json(Get("/api/files?dir=traces"))["entries"];
  bool listed = false;
  for (const auto& e : traces) listed |= e["path"] == "traces/states.trace" && e["kind"] == "trace";
  EXPECT_TRUE(listed) << traces;
  auto r = Get("/api/info?trace=traces/states.trace");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_GT(Json(r)["states"].get<uint64_t>(), 0u);
  ExpectErrorResponse(Get("/api/info?trace=cfgs/2dc_cyc_ipc.cfg"), 400, "a cfg is not a trace");
}

TEST_F(ServerFormatsTest, ListsAndOpensKsrSddfAndOtf2) {
  json traces = Json(Get("/api/files?dir=traces"))["entries"];
  json pp = Json(Get("/api/files?dir=traces/pp"))["entries"];
  auto listed = [](const json& entries, const std::string& path) {
    for (const auto& e : entries)
      if (e["path"] == path && e["kind"] == "trace") return true;
    return false;
  };
  EXPECT_TRUE(listed(traces, "traces/pablo_example.gist")) << traces;
  EXPECT_TRUE(listed(traces, "traces/pablo_example.sddf")) << traces;
  EXPECT_TRUE(listed(pp, "traces/pp/traces.otf2")) << pp;
  for (const char* path : {"traces/pablo_example.gist", "traces/pablo_example.sddf", "traces/pp/traces.otf2"}) {
    auto r = Get(std::string("/api/info?trace=") + path);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << path << ": " << r->body;
    EXPECT_GT(Json(r)["threads"].get<uint64_t>(), 0u) << path;
  }
}

}  // namespace
}  // namespace parallax::server
