// The server lists and opens traces of the other formats the core imports (docs/formats.md):
// a Pajé trace in the root is a "trace" in the file browser and opens like a .prv.

#include <gtest/gtest.h>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerFormatsTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("formats");
    fs::copy_file(fs::path(PARALLAX_TEST_DATA) / "paje/states.trace", Root() / "traces/states.trace");
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

}  // namespace
}  // namespace parallax::server
