// /api/diagnose (the diagnosis of a range, for the timeline overlay) on a small trace written
// here: 1.1 sends to 1.2 at 500, 1.2 waits in MPI_Recv from 100 (a Late Sender of 400 ns).

#include <fstream>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

constexpr const char* kLateTrace = "traces/late.prv";

class ServerDiagnoseTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("diagnose");
    std::ofstream prv(Root() / kLateTrace);
    prv << "#Paraver (01/01/26 at 00:00):700_ns:2(1,1):1:2(1:1,1:2)\n"
           "2:1:1:1:1:0:50000003:31\n2:2:1:2:1:0:50000003:31\n"
           "2:1:1:1:1:1:50000003:0\n2:2:1:2:1:1:50000003:0\n"
           "2:2:1:2:1:100:50000001:2\n"
           "2:1:1:1:1:500:50000001:1\n"
           "3:1:1:1:1:500:510:2:1:2:1:100:520:8:1\n"
           "2:1:1:1:1:510:50000001:0\n"
           "2:2:1:2:1:520:50000001:0\n"
           "2:1:1:1:1:600:50000003:32\n2:2:1:2:1:650:50000003:32\n"
           "2:1:1:1:1:700:50000003:0\n2:2:1:2:1:700:50000003:0\n";
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerDiagnoseTest, TheRangesWaitsAndPathInTraceUnits) {
  json d = Ok(Post("/api/diagnose", json{{"trace", kLateTrace}}));
  ASSERT_EQ(d["ranks"].size(), 2u) << d;
  EXPECT_EQ(d["ranks"][1]["label"], "1.2");
  EXPECT_EQ(d["ranks"][1]["thread"], 1);
  EXPECT_EQ(d["patterns"][0]["key"], "late_sender");
  EXPECT_EQ(d["patterns"][0]["count"], 1);
  const json& w = d["waits"];
  // The Late Sender and 1.1's wait at Finalize (600 -> 650), by rank.
  ASSERT_EQ(w["rank"].size(), 2u) << d;
  EXPECT_EQ(w["rank"][1], 1);
  EXPECT_EQ(w["begin"][1], 100);
  EXPECT_EQ(w["wait"][1], 400);
  EXPECT_EQ(w["culprit_rank"][1], 0);
  EXPECT_EQ(w["culprit"][1], 500);
  EXPECT_EQ(w["pattern"][1], "late_sender");
  EXPECT_EQ(d["path"]["begin"], json::array({0, 500})) << d;
  EXPECT_EQ(d["path"]["end"], json::array({500, 650})) << d;
  EXPECT_FALSE(d["limited"].get<bool>());
  // A range without the wait: none, and the path clipped to it.
  d = Ok(Get(std::string("/api/diagnose?trace=") + kLateTrace + "&from=550&to=640"));
  EXPECT_EQ(d["patterns"][0]["count"], 0);
  EXPECT_EQ(d["path"]["begin"], json::array({550})) << d;
  // limit keeps the longest.
  d = Ok(Post("/api/diagnose", json{{"trace", kLateTrace}, {"limit", 1}}));
  EXPECT_EQ(d["waits"]["wait"], json::array({400}));
  EXPECT_TRUE(d["limited"].get<bool>());
}

TEST_F(ServerDiagnoseTest, BadRequestsAreClearErrors) {
  ExpectPostError("/api/diagnose", json{{"trace", kLateTrace}, {"limit", 0}}, 400);
  ExpectPostError("/api/diagnose", json{{"trace", kLateTrace}, {"from", 10}, {"to", 5}}, 400);
  ExpectPostError("/api/diagnose", json{{"trace", kLateTrace}, {"from", 10}, {"to", 5000}}, 422);
  ExpectPostError("/api/diagnose", json{{"limit", 4}}, 400);
}

}  // namespace
}  // namespace parallax::server
