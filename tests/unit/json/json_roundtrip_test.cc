// Paraver -> trace-event JSON -> Paraver keeps every record, the header, the .pcf and the .row
// (the writer stores what JSON cannot express in otherData.parallax), and the JSON it writes
// follows the trace-event format Perfetto reads.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/io/json/json_trace.h"
#include "src/session/trace_impl.h"

namespace parallax {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class JsonRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("json_rt_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Writes `source` canonically as a.prv and through JSON as b.prv; returns the JSON text.
  std::string RoundTrip(const std::string& source) {
    auto t = session::OpenTrace(source, {});
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    if (!t.ok()) return {};
    EXPECT_TRUE((*t)->Write(Path("a.prv"), false).ok());
    Status s = (*t)->Write(Path("a.json"), false);
    EXPECT_TRUE(s.ok()) << s.ToString();
    auto back = session::OpenTrace(Path("a.json"), {});
    EXPECT_TRUE(back.ok()) << back.status().ToString();
    if (!back.ok()) return {};
    EXPECT_EQ((*back)->prv().diagnostics.problems(), 0u);
    s = (*back)->Write(Path("b.prv"), false);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return Slurp(Path("a.json"));
  }

  std::filesystem::path dir_;
};

TEST_F(JsonRoundTrip, LuleshWithTwoApplicationsAndCommunications) {
  std::string json = RoundTrip(std::string(PARALLAX_TEST_DATA) + "/profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv");
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(Slurp(Path("a.prv")), Slurp(Path("b.prv")));
  EXPECT_EQ(Slurp(Path("a.pcf")), Slurp(Path("b.pcf")));
  EXPECT_EQ(Slurp(Path("a.row")), Slurp(Path("b.row")));
}

TEST_F(JsonRoundTrip, EpochMpiTraceWithCommunicators) {
  std::string json = RoundTrip(std::string(PARALLAX_TEST_DATA) + "/epoch/epoch_2proc.prv.gz");
  ASSERT_FALSE(json.empty());
  std::string a = Slurp(Path("a.prv")), b = Slurp(Path("b.prv"));
  EXPECT_GT(a.size(), 100000u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(Slurp(Path("a.pcf")), Slurp(Path("b.pcf")));
}

TEST_F(JsonRoundTrip, OutputIsTraceEventJsonWithOneEventPerRecord) {
  std::string source = std::string(PARALLAX_TEST_DATA) + "/epoch/epoch_2proc.prv.gz";
  std::string json = RoundTrip(source);
  auto doc = nlohmann::json::parse(json);
  ASSERT_TRUE(doc["traceEvents"].is_array());
  auto t = session::OpenTrace(source, {});
  ASSERT_TRUE(t.ok());
  const auto& st = (*t)->store();
  size_t x = 0, i = 0, s = 0, f = 0, m = 0;
  for (const auto& e : doc["traceEvents"]) {
    std::string ph = e["ph"];
    x += ph == "X", i += ph == "i", s += ph == "s", f += ph == "f", m += ph == "M";
    ASSERT_TRUE(e.contains("pid") && e.contains("tid"));
    if (ph != "M") ASSERT_TRUE(e["ts"].is_number());
  }
  EXPECT_EQ(x, st.state_records());
  EXPECT_EQ(i, st.event_records());
  EXPECT_EQ(s, st.comms().rows());
  EXPECT_EQ(f, st.comms().rows());
  EXPECT_EQ(m, (*t)->header().processes.threads() + (*t)->header().processes.tasks());
}

TEST_F(JsonRoundTrip, ExistingOutputIsNotOverwritten) {
  auto t = session::OpenTrace(std::string(PARALLAX_TEST_DATA) + "/json/simple.json", {});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  { std::ofstream(Path("keep.json")) << "mine"; }
  Status s = (*t)->Write(Path("keep.json"), false);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Slurp(Path("keep.json")), "mine");
  Status unknown = (*t)->Write(Path("out.xyz"), false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.hint().find(".json"), std::string::npos);
}

// A generic trace-event file converts to a .prv whose states are the slices.
TEST_F(JsonRoundTrip, GenericJsonToPrv) {
  auto t = session::OpenTrace(std::string(PARALLAX_TEST_DATA) + "/json/simple.json", {});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_TRUE((*t)->Write(Path("simple.prv"), false).ok());
  std::string prv = Slurp(Path("simple.prv"));
  EXPECT_NE(prv.find("1:0:1:1:1:2000:7000:3\n"), std::string::npos) << prv;
  std::string pcf = Slurp(Path("simple.pcf"));
  EXPECT_NE(pcf.find("gamma"), std::string::npos);
  auto back = session::OpenTrace(Path("simple.prv"), {});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->store().state_records(), 5u);
}

}  // namespace
}  // namespace parallax
