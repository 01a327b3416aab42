// Dimemas configuration and collectives files: the files of tests/data (modelfactors' template
// with its placeholders, the 5 us / 1000 MB/s case), and located errors on bad input.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "src/replay/dimemas_config.h"
#include "tests/unit/replay/replay_test_util.h"

namespace parallax::replay {
namespace {

using testing::Data;

TEST(DimemasConfig, ModelfactorsTemplateIsTheIdealMachine) {
  for (const char* f : {"cfg/pypop/dimemas_ideal.cfg", "cfg/pypop/dimemas_ideal.tmpconfig.cfg"}) {
    auto m = ReadDimemasConfig(Data(f));
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_TRUE(m->Ideal()) << f;
    EXPECT_EQ(m->tasks_per_node, 1u);  // "@RANKS_PER_NODE@ TASKS_PER_NODE": one per node
    EXPECT_EQ(m->cpu_ratio, 1.0);
    EXPECT_TRUE(m->collectives.empty());  // the collectives path is a placeholder
  }
}

TEST(DimemasConfig, LatencyBandwidthLinksAndCollectives) {
  auto m = ReadDimemasConfig(Data("oracles/dimemas/lat5us_bw1000.cfg"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_DOUBLE_EQ(m->inter_node.latency_s, 5e-6);
  EXPECT_DOUBLE_EQ(m->inter_node.bandwidth_Bps, 1000 * 1048576.0);
  EXPECT_EQ(m->inter_node.links, 1u);
  EXPECT_DOUBLE_EQ(m->intra_node.latency_s, 5e-6);
  EXPECT_FALSE(m->Ideal());
  ASSERT_EQ(m->collectives.size(), 14u);  // dimemas.collectives beside it
  const CollectiveModel& alltoall = m->collectives.at(8);
  EXPECT_EQ(alltoall.fan_in.stages, StageModel::kLinear);
  EXPECT_EQ(alltoall.fan_in.size, SizeModel::kTwiceMax);
  EXPECT_EQ(alltoall.fan_out.stages, StageModel::kLinear);
  EXPECT_EQ(m->collectives.at(6).fan_in.stages, StageModel::kLogarithmic);
  EXPECT_EQ(m->collectives.at(6).fan_out.stages, StageModel::kNone);
}

TEST(DimemasConfig, CollectivesFileOfTestData) {
  auto c = ParseCollectives(
      "Machine globalop: 0 0 LOG MAX 0 MAX \n\nMachine globalop: 0 8 LIN 2MAX CTE MIN\n", "c");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->size(), 2u);
  EXPECT_EQ(c->at(8).fan_out.stages, StageModel::kConstant);
  EXPECT_EQ(c->at(8).fan_out.size, SizeModel::kMin);
}

const char* kGood =
    "#DIMEMAS_CONFIGURATION\n"
    "/* a comment\n with \"quotes\" */\n"
    "\"environment information\" {\"\", 0, \"\", 4, 500.0, 0, 1};;\n"
    "\"multi node information\" {0, 4, \"n\", 1, 2.0, 0.0, 0.0, 0, 1, 0, 0.00001, 2, 2, 0.0};;\n"
    "\"predefined mapping information\" {\"2 TASKS_PER_NODE\"};;\n"
    "\"mapping information\" {\"t.dim\", 2, [2] {0, 0}};;\n";

TEST(DimemasConfig, SddfRecordsMapOntoTheModel) {
  auto m = ParseDimemasConfig(kGood, "good.cfg");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_DOUBLE_EQ(m->inter_node.bandwidth_Bps, 500 * 1048576.0);
  EXPECT_DOUBLE_EQ(m->inter_node.latency_s, 1e-5);
  EXPECT_EQ(m->inter_node.links, 2u);
  EXPECT_DOUBLE_EQ(m->cpu_ratio, 2.0);
  EXPECT_EQ(m->tasks_per_node, 2u);
  auto r = ParseSddf(kGood, "good.cfg");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ(r->at(3).fields[2].items.size(), 2u);
  EXPECT_EQ(r->at(0).line, 4u);
}

// Each bad input: the error names the file, line and column, and says what was expected.
struct BadCase {
  const char* text;
  uint64_t line, column;
  const char* says;
};

TEST(DimemasConfig, BadInputIsALocatedError) {
  const BadCase cases[] = {
      {"\"environment information\" {\"\", 0, \"\", 4, fast, 0, 1};;\n", 1, 42, "must be a number"},
      {"\n\"environment information\" {\"\", 0, \"\", 4, 1.0, 0, 1}\n", 3, 1, "expected ';'"},
      {"\"environment information\" {\"\", 0, \"\", 4, -1.0, 0, 1};;\n", 1, 42, "zero or positive"},
      {"\"network of workstations\" {1};;\n", 1, 1, "unknown record"},
      {"\"environment information\" {\"\", 0};;\n", 1, 1, "missing"},
      {"\"environment information\" {\"\", 0, \"\", 4, 1.0, 0, 1};;\n\"mapping information\" "
       "{\"t\", 2, [3] {0, 0}};;\n",
       2, 32, "declares 3 elements"},
      {"environment information {1};;\n", 1, 1, "record name in quotes"},
      {"\"environment information\" {\"\", 0, \"\", 4, 1.0, 0, 1};;\n\"node information\" {0, "
       "\"n\", 1, 1.0, 0.0, "
       "0.0, 0, 1e12, 1, 0.0, 1, 1, 0.0};;\n",
       2, 50, "at most 4096"},
      {"/* never closed\n", 1, 1, "comment not closed"},
      {"\"predefined mapping information\" {\"FILL_NODES\"};;\n\"environment information\" {\"\", "
       "0, \"\", 4, 1.0, 0, 1};;\n",
       1, 35, "not supported"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    auto m = ParseDimemasConfig(c.text, "bad.cfg");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().where().file, "bad.cfg");
    EXPECT_EQ(m.status().where().line, c.line) << m.status().ToString();
    EXPECT_EQ(m.status().where().column, c.column) << m.status().ToString();
    EXPECT_NE(m.status().message().find(c.says), std::string::npos) << m.status().ToString();
    EXPECT_FALSE(m.status().hint().empty());
  }
}

TEST(DimemasConfig, BadCollectivesLineIsALocatedError) {
  auto c = ParseCollectives(
      "Machine globalop: 0 1 LOG MAX 0 MAX\nMachine globalop: 0 3 SQRT MAX 0 MAX\n",
      "x.collectives");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().where().line, 2u);
  EXPECT_EQ(c.status().where().column, 23u);
  EXPECT_NE(c.status().message().find("SQRT"), std::string::npos);
  auto short_line = ParseCollectives("Machine globalop: 0 3 LOG MAX\n", "x.collectives");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message().find("6 values"), std::string::npos);
}

TEST(DimemasConfig, MissingCollectivesFileIsAnError) {
  std::string text = std::string(kGood) +
                     "\"configuration files\" {\"\", \"\", \"no_such.collectives\", \"\"};;\n";
  auto m = ParseDimemasConfig(text, Data("oracles/dimemas/x.cfg"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("no_such.collectives"), std::string::npos)
      << m.status().ToString();
}

// Every prefix of a real configuration and collectives file (a file cut anywhere) is read or
// refused with a located error; nothing crashes or throws.
TEST(DimemasConfig, EveryTruncationIsReadOrRefused) {
  std::string cfg, coll;
  for (auto [path, out] : {std::pair{"oracles/dimemas/lat5us_bw1000.cfg", &cfg},
                           std::pair{"oracles/dimemas/dimemas.collectives", &coll}}) {
    std::FILE* f = std::fopen(Data(path).c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out->append(buf, n);
    std::fclose(f);
  }
  size_t refused = 0;
  for (size_t n = 0; n <= cfg.size(); ++n) {
    auto r = ParseSddf(std::string_view(cfg).substr(0, n), "t.cfg");
    if (!r.ok()) {
      ++refused;
      EXPECT_GT(r.status().where().line, 0u) << n;
    }
  }
  EXPECT_GT(refused, 0u);
  for (size_t n = 0; n <= coll.size(); ++n) {
    auto r = ParseCollectives(std::string_view(coll).substr(0, n), "t.collectives");
    if (!r.ok()) EXPECT_GT(r.status().where().line, 0u) << n;
  }
}

TEST(DimemasConfig, MissingFileIsAnError) {
  auto m = ReadDimemasConfig(Data("oracles/dimemas/none.cfg"));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().where().file, Data("oracles/dimemas/none.cfg"));
}

}  // namespace
}  // namespace parallax::replay
