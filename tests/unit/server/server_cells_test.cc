// /api/at (a hover: one object, one pixel's time span) and /api/cells (an area selection:
// objects × a time range), summed per value. Expected numbers are read off omp2.prv by hand:
// THREAD 1.1.1 is Running [0, 1353917), Others [1353917, 1354412), Running [1354412, 1400646),
// Synchronization [1400646, 1404187); THREAD 1.1.2 is Not created until 4943850943.

#include "apps/server/json_convert.h"
#include "include/parallax/trace.h"
#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerCellsTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() { StartServer("cells"); }
  static void TearDownTestSuite() { StopServer(); }
};

const json kStates = {{"trace", kTrace}, {"function", "State As Is"}};

json With(json j, const json& more) {
  j.update(more);
  return j;
}

TEST_F(ServerCellsTest, APixelSaysWhatItFoldsAndWhichIntervalHoldsTheTime) {
  // A pixel over [1354000, 1354500) of THREAD 1.1.1: Others, then Running again.
  json a = Ok(Post("/api/at", With(kStates, {{"object_index", 0}, {"time", 1354450}, {"from", 1354000}, {"to", 1354500}})));
  EXPECT_EQ(a["objects"], json::array({"THREAD 1.1.1"}));
  EXPECT_EQ(a["duration"], 500);
  EXPECT_EQ(a["intervals"], 2);
  EXPECT_EQ(a["at"], json({{"begin", 1354412}, {"end", 1400646}, {"value", 1}, {"label", "Running"}}));
  ASSERT_EQ(a["values"].size(), 2u) << a;
  EXPECT_EQ(a["values"][0]["label"], "Others");
  EXPECT_EQ(a["values"][0]["time"], 1354412 - 1354000);
  EXPECT_EQ(a["values"][0]["intervals"], 1);
  EXPECT_DOUBLE_EQ(a["values"][0]["fraction"].get<double>(), 412.0 / 500.0);
  // Running [1354412, 1354500) only: the first Running interval ended at 1353917, before the
  // pixel, so the pixel folds Others and the second Running.
  EXPECT_EQ(a["values"][1]["label"], "Running");
  EXPECT_EQ(a["values"][1]["time"], 1354500 - 1354412);
  // The event record at 1354412 has 9 type:value pairs (the .prv line).
  EXPECT_EQ(a["events"], 9);

  // GET with the query parameters answers the same.
  auto g = Get(std::string("/api/at?trace=") + kTrace +
               "&function=State%20As%20Is&object_index=0&time=1354450&from=1354000&to=1354500");
  EXPECT_EQ(Json(g), a);
}

TEST_F(ServerCellsTest, AnAreaSumsEveryObjectPerValue) {
  json c = Ok(Post("/api/cells", With(kStates, {{"object_first", 0}, {"object_last", 1}, {"from", 0}, {"to", 1404187}})));
  EXPECT_EQ(c["objects"], json::array({"THREAD 1.1.1", "THREAD 1.1.2"}));
  EXPECT_EQ(c["duration"], 1404187);
  EXPECT_TRUE(c["at"].is_null());
  EXPECT_FALSE(c.contains("events"));  // an area reads the intervals only
  const json& v = c["values"];
  ASSERT_EQ(v.size(), 4u) << c;
  // Most time first.
  EXPECT_EQ(v[0]["label"], "Not created");
  EXPECT_EQ(v[0]["time"], 1404187);
  EXPECT_DOUBLE_EQ(v[0]["fraction"].get<double>(), 0.5);
  EXPECT_EQ(v[1]["label"], "Running");
  EXPECT_EQ(v[1]["time"], 1353917 + (1400646 - 1354412));
  EXPECT_EQ(v[1]["intervals"], 2);
  EXPECT_DOUBLE_EQ(v[1]["fraction"].get<double>(), (1353917.0 + 46234.0) / (2.0 * 1404187.0));
  EXPECT_EQ(v[2]["label"], "Synchronization");
  EXPECT_EQ(v[2]["time"], 1404187 - 1400646);
  EXPECT_EQ(v[3]["label"], "Others");
  EXPECT_EQ(v[3]["time"], 495);
  uint64_t total = 0;
  for (const auto& x : v) total += x["time"].get<uint64_t>();
  EXPECT_EQ(total, 2u * 1404187u);
}

TEST_F(ServerCellsTest, BadRequestsAreClearErrors) {
  json e = ExpectPostError("/api/at", With(kStates, {{"time", 5}, {"from", 0}, {"to", 10}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("object_index"), std::string::npos) << e;
  e = ExpectPostError("/api/at", With(kStates, {{"object_index", 0}, {"time", 50}, {"from", 0}, {"to", 10}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("inside [from, to)"), std::string::npos) << e;
  e = ExpectPostError("/api/at", With(kStates, {{"object_index", 0}, {"time", 5}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("'from' or 'to'"), std::string::npos) << e;
  ExpectPostError("/api/at", With(kStates, {{"object_index", 0}, {"time", 5}, {"from", 10}, {"to", 0}}), 400);
  ExpectPostError("/api/at", With(kStates, {{"object_index", "zero"}, {"time", 5}, {"from", 0}, {"to", 10}}), 400);
  e = ExpectPostError("/api/cells", With(kStates, {{"object_first", 1}, {"object_last", 0}, {"from", 0}, {"to", 10}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("object_last"), std::string::npos) << e;
  e = ExpectPostError("/api/cells", With(kStates, {{"object_first", 0}, {"object_last", 100000}, {"from", 0}, {"to", 10}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("too many objects"), std::string::npos) << e;
  // An object the window does not have: the core's answer.
  ExpectPostError("/api/cells", With(kStates, {{"object_first", 0}, {"object_last", 2}, {"from", 0}, {"to", 10}}), 422);
  ExpectError("/api/at?trace=traces/omp2.prv.gz&object_index=0&time=5&from=0&to=10", 400);  // no window
}

// Find: event 60000006 (OpenMP named-Lock) of THREAD 1.1.1 is 3 (Lock) at 1400646, 6 (Locked
// status) at 1404187 and 3 at 1426290; THREAD 1.1.2 has none before 4944132954.
json Find(const json& more) {
  return With(With(kStates, {{"object_first", 0}, {"object_last", 1}, {"direction", "next"}}), more);
}

TEST_F(ServerCellsTest, FindsTheNextAndPreviousEventOrValue) {
  json e = Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 60000006}, {"time", 0}})));
  EXPECT_EQ(e, json({{"found", true}, {"time", 1400646}, {"end", 1400646}, {"object_index", 0}, {"object", "THREAD 1.1.1"},
                     {"what", "Lock (60000006:3)"}}));
  // Starting with a 1-unit span: the span doubles until the match.
  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 60000006}, {"time", 0}, {"span", 1}})))["time"], 1400646);
  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 60000006}, {"event_value", 6}, {"time", 0}})))["time"], 1404187);
  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "event"}, {"text", "LOCKED status"}, {"time", 1400646}})))["time"], 1404187);
  json prev = Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 60000006}, {"time", 1426290}, {"direction", "previous"}})));
  EXPECT_EQ(prev["time"], 1404187);
  EXPECT_EQ(prev["what"], "Locked status (60000006:6)");

  json v = Ok(Post("/api/find", Find({{"kind", "value"}, {"text", "synchro"}, {"time", 0}})));
  EXPECT_EQ(v["time"], 1400646);
  EXPECT_EQ(v["end"], 1404187);
  EXPECT_EQ(v["what"], "Synchronization (5)");
  json running = Ok(Post("/api/find", Find({{"kind", "value"}, {"value", 1}, {"time", 1400646}, {"direction", "previous"}})));
  EXPECT_EQ(running["time"], 1354412);
  EXPECT_EQ(running["end"], 1400646);

  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 99999999}, {"time", 0}}))), json({{"found", false}}));
  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "event"}, {"type", 60000006}, {"time", UINT64_MAX}}))), json({{"found", false}}));
  EXPECT_EQ(Ok(Post("/api/find", Find({{"kind", "value"}, {"text", "running"}, {"time", 0}, {"direction", "previous"}}))),
            json({{"found", false}}));
}

TEST_F(ServerCellsTest, ObjectsOfAWindowByCanonicalName) {
  EXPECT_EQ(Ok(Post("/api/objects", kStates)),
            json({{"window", "State As Is"}, {"level", "THREAD"}, {"objects", {"THREAD 1.1.1", "THREAD 1.1.2"}}}));
  json task = Ok(Get(std::string("/api/objects?trace=") + kTrace + "&cfg=" + kViewCfg));  // a task-level cfg
  EXPECT_EQ(task["level"], "TASK");
  EXPECT_EQ(task["objects"], json::array({"TASK 1.1"}));
  ExpectPostError("/api/objects", {{"trace", kTrace}}, 400);  // no window
}

// /api/analyze with from/to: the histograms of that range (what the analyzer shows when it
// follows its control window's zoom), as the core computes them for the range.
TEST_F(ServerCellsTest, AnalyzesARange) {
  const json whole = Ok(Get(std::string("/api/analyze?trace=") + kTrace + "&cfg=" + kAnalysisCfg))["tables"];
  const json part =
      Ok(Get(std::string("/api/analyze?trace=") + kTrace + "&cfg=" + kAnalysisCfg + "&from=1000000&to=900000000"))["tables"];
  auto trace = Trace::Open((Root() / kTrace).string());
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  AnalyzeRequest r;
  r.cfg_path = (Root() / kAnalysisCfg).string();
  r.from = 1000000;
  r.to = 900000000;
  auto tables = Analyze(*trace.value(), r);
  ASSERT_TRUE(tables.ok()) << tables.status().message();
  EXPECT_EQ(part, ToJson(tables.value()));
  EXPECT_NE(part, whole);
  ExpectError(std::string("/api/analyze?trace=") + kTrace + "&cfg=" + kAnalysisCfg + "&from=9&to=5", 400);
}

TEST_F(ServerCellsTest, FindRefusesUnclearQueries) {
  json e = ExpectPostError("/api/find", Find({{"kind", "event"}, {"time", 0}}), 400);
  EXPECT_NE(e["error"].get<std::string>().find("nothing to find"), std::string::npos) << e;
  ExpectPostError("/api/find", Find({{"kind", "states"}, {"text", "x"}, {"time", 0}}), 400);
  ExpectPostError("/api/find", Find({{"kind", "event"}, {"text", "x"}, {"time", 0}, {"direction", "up"}}), 400);
  ExpectPostError("/api/find", Find({{"kind", "event"}, {"event_value", 3}, {"time", 0}}), 400);
  ExpectPostError("/api/find", Find({{"kind", "event"}, {"text", "x"}}), 400);  // no time
  ExpectPostError("/api/find", Find({{"kind", "event"}, {"text", "x"}, {"time", 0}, {"object_last", 7}}), 422);
}

}  // namespace
}  // namespace parallax::server
