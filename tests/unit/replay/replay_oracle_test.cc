// The replay against BSC's Dimemas on the epoch traces (tests/data/oracles/dimemas/results.tsv,
// Dimemas 5.4.2 as modelfactors runs it): the ideal runtime and ideal useful maximum within
// 0.1% (they agree to the printed 0.01 us), the 5 us / 1000 MB/s prediction within 0.1%. And
// the predicted trace: written without replacing files, loaded back, analysed by the pypop cfgs.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "include/parallax/pop.h"
#include "include/parallax/replay.h"
#include "include/parallax/trace.h"
#include "tests/unit/replay/replay_test_util.h"

namespace parallax {
namespace {

using replay::testing::Data;

struct OracleRow {
  double runtime_us = 0, useful_max_us = 0;
};

// results.tsv rows of Dimemas 5.4.2, by "trace config".
std::map<std::string, OracleRow> LegacyResults() {
  std::ifstream in(Data("oracles/dimemas/results.tsv"));
  std::map<std::string, OracleRow> out;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::vector<std::string> c;
    for (std::string cell; std::getline(s, cell, '\t');) c.push_back(cell);
    if (c.size() < 6 || c[2] != "legacy-5.4.2") continue;
    out[c[0] + " " + c[3]] = {std::stod(c[4]), std::stod(c[5])};
  }
  return out;
}

void ExpectWithin(double got, double want, double relative) {
  EXPECT_NEAR(got, want, relative * want) << "relative difference " << (got - want) / want;
}

TEST(ReplayOracle, IdealReplayMatchesDimemas) {
  const auto oracle = LegacyResults();
  for (int n : {1, 2, 4}) {
    SCOPED_TRACE(n);
    const std::string name = "epoch_" + std::to_string(n) + "proc";
    auto r = ReplayTrace(Data("epoch/" + name + ".prv.gz"), {}, "", false);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const OracleRow& want = oracle.at(name + ".prv ideal");
    ExpectWithin(r->predicted_runtime_us, want.runtime_us, 1e-3);
    ExpectWithin(r->predicted_useful_max_us, want.useful_max_us, 1e-3);
    // In fact to Dimemas' printed precision (0.01 us).
    EXPECT_NEAR(r->predicted_runtime_us, want.runtime_us, 0.01);
    EXPECT_NEAR(r->predicted_useful_max_us, want.useful_max_us, 0.01);
    EXPECT_EQ(r->tasks.size(), static_cast<size_t>(n));
    EXPECT_DOUBLE_EQ(r->ideal_runtime_us, r->predicted_runtime_us);
  }
}

TEST(ReplayOracle, LatencyAndBandwidthMatchDimemas) {
  const OracleRow want = LegacyResults().at("epoch_4proc.prv lat5us_bw1000");
  ReplayOptions o;
  o.config_path = Data("oracles/dimemas/lat5us_bw1000.cfg");
  auto r = ReplayTrace(Data("epoch/epoch_4proc.prv.gz"), o, "", false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectWithin(r->predicted_runtime_us, want.runtime_us, 1e-3);
  ExpectWithin(r->predicted_useful_max_us, want.useful_max_us, 1e-3);
  EXPECT_GT(r->predicted_runtime_us, r->ideal_runtime_us);
  // The same machine from the command-line parameters (one link per node, as the cfg).
  ReplayOptions cli;
  cli.latency_s = 5e-6;
  cli.bandwidth_MBps = 1000;
  cli.links = 1;
  auto c = ReplayTrace(Data("epoch/epoch_4proc.prv.gz"), cli, "", false);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->predicted_runtime_us, r->predicted_runtime_us, 1e-6);
}

TEST(ReplayOracle, TraceWithoutMpiIsAClearError) {
  auto r = ReplayTrace(Data("omp/omp2.prv.gz"), {}, "", false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no MPI calls"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("omp2.prv.gz"), std::string::npos);
}

class PredictedTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/parallax_replay_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const char* f : {"/p.prv", "/p.pcf", "/p.row", "/x.stats"})
      std::remove((dir_ + f).c_str());
    ::rmdir(dir_.c_str());
  }
  std::string dir_;
};

TEST_F(PredictedTrace, LoadsBackWithTheReplayedTimesAndTheCfgsAnalyseIt) {
  const std::string out = dir_ + "/p.prv";
  auto r = ReplayTrace(Data("epoch/epoch_2proc.prv.gz"), {}, out, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  struct stat st;
  EXPECT_EQ(::stat((dir_ + "/p.pcf").c_str(), &st), 0);
  EXPECT_EQ(::stat((dir_ + "/p.row").c_str(), &st), 0);

  auto original = Trace::Open(Data("epoch/epoch_2proc.prv.gz"));
  auto predicted = Trace::Open(out);
  ASSERT_TRUE(predicted.ok()) << predicted.status().ToString();
  const TraceInfo a = original.value()->Info(), b = predicted.value()->Info();
  EXPECT_EQ(b.states, a.states);
  EXPECT_EQ(b.comms, a.comms);
  EXPECT_EQ(b.event_pairs, a.event_pairs);
  EXPECT_NEAR(static_cast<double>(b.end_time) / 1000, r->predicted_runtime_us, 0.001);

  // modelfactors' cfgs on the predicted trace: its runtime is the predicted one, and no thread
  // runs longer than its replayed computation.
  PopOptions po;
  po.replay = false;
  auto pop = ComputePop({out}, po);
  ASSERT_TRUE(pop.ok()) << pop.status().ToString();
  EXPECT_NEAR(pop->raw[0].values[0], r->predicted_runtime_us, 0.01);    // Runtime (us)
  EXPECT_LE(pop->raw[3].values[0], r->predicted_useful_max_us + 0.01);  // Useful duration (maximum)
  auto stats = predicted.value()->Paramedir(Data("cfg/pypop/total_runtime.cfg"), "x.stats", {});
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_FALSE(stats->empty());
  EXPECT_NE(stats->front().content.find("11504370"), std::string::npos) << stats->front().content;

  // A second replay never replaces it without overwrite, and leaves it intact.
  auto again = ReplayTrace(Data("epoch/epoch_2proc.prv.gz"), {}, out, false);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().ToString().find("exists"), std::string::npos);
  ASSERT_TRUE(Trace::Open(out).ok());
  ReplayOptions fast;
  fast.cpu_ratio = 2;
  auto forced = ReplayTrace(Data("epoch/epoch_2proc.prv.gz"), fast, out, true);
  ASSERT_TRUE(forced.ok()) << forced.status().ToString();
  EXPECT_LT(forced->predicted_runtime_us, r->predicted_runtime_us * 0.6);
}

}  // namespace
}  // namespace parallax
