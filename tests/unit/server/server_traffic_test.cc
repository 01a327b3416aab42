// /api/traffic (PROVE's communication-over-time view and host matrix) on a small trace written
// here: 3 tasks of one thread, tasks 1 and 2 on node 1 (cpus 1, 2), task 3 on node 2 (cpus 3,
// 4), five messages whose sums are worked out by hand below.

#include <fstream>

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

constexpr const char* kComms = "traces/comms.prv";

class ServerTrafficTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("traffic");
    std::ofstream prv(Root() / kComms);
    prv << "#Paraver (01/01/26 at 00:00):1000_ns:2(2,2):1:3(1:1,1:1,1:2)\n"
           // cpu:appl:task:thread:lsend:psend  cpu:appl:task:thread:lrecv:precv  size:tag
           "3:1:1:1:1:100:100:3:1:3:1:110:110:1000:1\n"    // A: task 1 -> 3, node 1 -> 2
           "3:2:1:2:1:300:300:1:1:1:1:310:310:200:1\n"     // B: task 2 -> 1, node 1 -> 1
           "3:3:1:3:1:600:600:2:1:2:1:610:610:50:1\n"      // C: task 3 -> 2, node 2 -> 1
           "3:1:1:1:1:900:900:2:1:2:1:910:910:7:1\n"       // D: task 1 -> 2, node 1 -> 1
           "3:0:1:3:1:950:950:0:1:1:1:960:960:5:1\n";      // E: no cpus: the tasks' nodes, 2 -> 1
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST_F(ServerTrafficTest, BytesPerColumnPerTaskAndBetweenNodes) {
  json t = Ok(Post("/api/traffic", json{{"trace", kComms}, {"buckets", 4}}));
  EXPECT_EQ(t["from"], 0);
  EXPECT_EQ(t["to"], 1000);
  EXPECT_EQ(t["messages"], 5);
  // Columns of 250 ns: A | B | C | D and E.
  EXPECT_EQ(t["total"], json::array({1000, 200, 50, 12})) << t;
  EXPECT_EQ(t["tasks"], json::array({"TASK 1.1", "TASK 1.2", "TASK 1.3"}));
  EXPECT_EQ(t["bytes"], json::parse("[[1000,0,0,7],[0,200,0,0],[0,0,50,5]]")) << t;
  EXPECT_EQ(t["nodes"].size(), 2u);
  EXPECT_EQ(t["node_bytes"], json::parse("[[207,1000],[55,0]]")) << t;
  EXPECT_EQ(t["node_messages"], json::parse("[[2,1],[2,0]]")) << t;
  EXPECT_EQ(t["task_bytes"], json::parse("[[0,7,1000],[200,0,0],[5,50,0]]")) << t;
  EXPECT_EQ(t["task_messages"], json::parse("[[0,1,1],[1,0,0],[1,1,0]]")) << t;
}

TEST_F(ServerTrafficTest, OnlyTheMessagesSentInTheRangeCount) {
  // [250, 700) in two columns of 225 ns: B (300) in the first, C (600) in the second.
  json t = Ok(Get(std::string("/api/traffic?trace=") + kComms + "&from=250&to=700&buckets=2"));
  EXPECT_EQ(t["messages"], 2);
  EXPECT_EQ(t["total"], json::array({200, 50})) << t;
  EXPECT_EQ(t["node_bytes"], json::parse("[[200,0],[50,0]]")) << t;
  // The end of a range is excluded: A sent at 100 is not in [0, 100).
  t = Ok(Get(std::string("/api/traffic?trace=") + kComms + "&from=0&to=100&buckets=1"));
  EXPECT_EQ(t["messages"], 0);
  EXPECT_EQ(t["total"], json::array({0}));
}

TEST_F(ServerTrafficTest, BadRequestsAreClearErrors) {
  json e = ExpectPostError("/api/traffic", json{{"trace", kComms}, {"buckets", 0}}, 422);
  EXPECT_NE(e["error"].get<std::string>().find("time columns"), std::string::npos) << e;
  e = ExpectPostError("/api/traffic", json{{"trace", kComms}, {"from", 10}, {"to", 5000}}, 422);
  EXPECT_NE(e["error"].get<std::string>().find("after the trace end"), std::string::npos) << e;
  ExpectPostError("/api/traffic", json{{"trace", kComms}, {"from", 10}, {"to", 5}}, 400);
  ExpectPostError("/api/traffic", json{{"buckets", 4}}, 400);
}

}  // namespace
}  // namespace parallax::server
