// /api/structure (the structure of a trace, for the timeline overlay) on a small trace written
// here: 2 ranks, each with 6 iterations marked by Extrae's user function "timestep" (entry at
// 100, 200, ..., 600, exit 80 later), a Running burst of 50 ns at the start of each.

#include <fstream>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

constexpr const char* kLoopTrace = "traces/loop.prv";

class ServerStructureTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("structure");
    std::ofstream prv(Root() / kLoopTrace);
    prv << "#Paraver (01/01/26 at 00:00):1000_ns:2(1,1):1:2(1:1,1:2)\n";
    for (int k = 0; k < 6; ++k)
      for (int t = 1; t <= 2; ++t) {
        const int b = 100 + 100 * k;
        prv << "1:" << t << ":1:" << t << ":1:" << b << ":" << b + 50 << ":1\n";
        prv << "2:" << t << ":1:" << t << ":1:" << b << ":60000019:3\n";
        prv << "2:" << t << ":1:" << t << ":1:" << b + 80 << ":60000019:0\n";
      }
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerStructureTest, IterationsClustersAndTheBurstsInView) {
  json s = Ok(Post("/api/structure", json{{"trace", kLoopTrace}}));
  const json& it = s["iterations"];
  ASSERT_TRUE(it["found"].get<bool>()) << s;
  EXPECT_EQ(it["count"], 6);
  EXPECT_EQ(it["begin"], json::array({100, 200, 300, 400, 500, 600})) << s;
  EXPECT_EQ(it["end"], json::array({200, 300, 400, 500, 600, 680})) << s;
  ASSERT_EQ(s["clusters"].size(), 1u) << s;
  EXPECT_EQ(s["clusters"][0]["bursts"], 12);
  EXPECT_EQ(s["bursts"]["begin"].size(), 12u);
  EXPECT_EQ(s["rank_threads"], json::array({0, 1}));
  // The bursts overlapping [150, 260): the two of the second iteration.
  s = Ok(Get(std::string("/api/structure?trace=") + kLoopTrace + "&from=150&to=260"));
  EXPECT_EQ(s["bursts"]["begin"], json::array({200, 200})) << s;
  EXPECT_EQ(s["bursts"]["thread"], json::array({0, 1})) << s;
  EXPECT_EQ(s["bursts"]["cluster"], json::array({1, 1})) << s;
  EXPECT_FALSE(s["limited"].get<bool>());
  s = Ok(Post("/api/structure", json{{"trace", kLoopTrace}, {"limit", 1}}));
  EXPECT_EQ(s["bursts"]["begin"].size(), 1u);
  EXPECT_TRUE(s["limited"].get<bool>());
}

TEST_F(ServerStructureTest, BadRequestsAreClearErrors) {
  ExpectPostError("/api/structure", json{{"trace", kLoopTrace}, {"limit", 0}}, 400);
  ExpectPostError("/api/structure", json{{"trace", kLoopTrace}, {"from", 10}, {"to", 5}}, 400);
  ExpectPostError("/api/structure", json{{"trace", kLoopTrace}, {"from", 10}, {"to", 5000}}, 422);
  ExpectPostError("/api/structure", json{{"limit", 4}}, 400);
}

TEST_F(ServerStructureTest, CompareOfTwoOpenTracesWithTheirIterations) {
  json c = Ok(Post("/api/compare", json{{"a", kLoopTrace}, {"b", kLoopTrace}}));
  EXPECT_EQ(c["by"], "iteration") << c;
  ASSERT_EQ(c["rows"].size(), 6u) << c;
  for (const json& r : c["rows"]) EXPECT_EQ(r["diff_s"], 0.0) << r;
  EXPECT_EQ(c["rows_total"], 6);
  EXPECT_EQ(c["a_iterations"]["begin"], json::array({100, 200, 300, 400, 500, 600}));
  EXPECT_EQ(c["b_iterations"]["end"], c["a_iterations"]["end"]);
  c = Ok(Post("/api/compare", json{{"a", kLoopTrace}, {"b", kLoopTrace}, {"limit", 2}}));
  EXPECT_EQ(c["rows"].size(), 2u);
  ExpectPostError("/api/compare", json{{"a", kLoopTrace}}, 400);
  ExpectPostError("/api/compare", json{{"a", kLoopTrace}, {"b", kLoopTrace}, {"by", "nothing"}}, 400);
  // No MPI calls: by call cannot compare.
  ExpectPostError("/api/compare", json{{"a", kLoopTrace}, {"b", kLoopTrace}, {"by", "call"}}, 422);
}

}  // namespace
}  // namespace parallax::server
