// Wait states and the critical path on hand-made traces whose answers are worked out by hand
// (../shared/spec/waitstates.md), and the sums that must hold on the real epoch traces.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "include/parallax/diagnose.h"
#include "tests/unit/scratch_folder.h"

namespace parallax {
namespace {

// Extrae's values: MPI_Send 1, MPI_Recv 2, MPI_Irecv 4, MPI_Waitall 6, MPI_Barrier 8,
// MPI_Allreduce 10, MPI_Init 31, MPI_Finalize 32; types 50000001 (point to point),
// 50000002 (collectives), 50000003 (other).
constexpr int kP2P = 50000001, kColl = 50000002, kOther = 50000003;

// Builds a trace of `ranks` single-threaded tasks, one cpu each, in ns.
class TraceText {
 public:
  explicit TraceText(int ranks) : ranks_(ranks) {}
  // A call of `type`/`value` on rank r (0-based) from `entry` to `exit`; `extra` pairs are
  // written in the entry line.
  TraceText& Call(int r, int type, int value, uint64_t entry, uint64_t exit,
                  const std::string& extra = "") {
    lines_.emplace(entry, fmt::format("2:{0}:1:{0}:1:{1}:{2}:{3}{4}", r + 1, entry, type, value, extra));
    lines_.emplace(exit, fmt::format("2:{0}:1:{0}:1:{1}:{2}:0", r + 1, exit, type));
    end_ = std::max(end_, exit);
    return *this;
  }
  TraceText& Init(int r, uint64_t at = 0) { return Call(r, kOther, 31, at, at + 1); }
  TraceText& Finalize(int r, uint64_t entry, uint64_t exit) { return Call(r, kOther, 32, entry, exit); }
  TraceText& Message(int from, int to, uint64_t log_send, uint64_t phy_send, uint64_t log_recv,
                     uint64_t phy_recv, int size = 8, int tag = 1) {
    lines_.emplace(log_send, fmt::format("3:{0}:1:{0}:1:{1}:{2}:{3}:1:{3}:1:{4}:{5}:{6}:{7}", from + 1,
                                         log_send, phy_send, to + 1, log_recv, phy_recv, size, tag));
    return *this;
  }
  std::string Text() const {
    std::string tasks;
    for (int r = 0; r < ranks_; ++r) tasks += fmt::format("{}1:{}", r ? "," : "", r + 1);
    // Resource part: `ranks_` nodes of one cpu each.
    std::string nodes;
    for (int r = 0; r < ranks_; ++r) nodes += r ? ",1" : "1";
    std::string out = fmt::format("#Paraver (01/01/26 at 00:00):{}_ns:{}({}):1:{}({})\n", end_, ranks_, nodes,
                      ranks_, tasks);
    for (const auto& [t, l] : lines_) out += l + "\n";
    return out;
  }

 private:
  int ranks_;
  uint64_t end_ = 0;
  std::multimap<uint64_t, std::string> lines_;
};

Diagnosis DiagnoseText(const TraceText& t, DiagnoseOptions options = {}) {
  test::ScratchFolder dir;
  auto trace = Trace::Open(dir.Write("t.prv", t.Text()));
  EXPECT_TRUE(trace.ok()) << trace.status().ToString();
  if (!trace.ok()) return {};
  auto d = Diagnose(*trace.value(), options);
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  return d.ok() ? d.value() : Diagnosis{};
}

const PatternSummary& P(const Diagnosis& d, const std::string& key) {
  for (const PatternSummary& p : d.patterns)
    if (p.key == key) return p;
  static PatternSummary none;
  ADD_FAILURE() << "no pattern " << key;
  return none;
}

constexpr double kNs = 1e-9;

TEST(Diagnose, LateSender) {
  TraceText t(2);
  t.Init(0).Init(1);
  t.Call(0, kP2P, 1, 500, 510).Call(1, kP2P, 2, 100, 520).Message(0, 1, 500, 510, 100, 520);
  t.Finalize(0, 600, 700).Finalize(1, 650, 700);
  Diagnosis d = DiagnoseText(t);
  const PatternSummary& ls = P(d, "late_sender");
  EXPECT_EQ(ls.count, 1u);
  EXPECT_NEAR(ls.time_s, 400 * kNs, 1e-15);
  EXPECT_NEAR(ls.by_rank_s[1], 400 * kNs, 1e-15);
  ASSERT_EQ(ls.worst.size(), 1u);
  EXPECT_EQ(ls.worst[0].call, "MPI_Recv");
  EXPECT_EQ(ls.worst[0].culprit_rank, 0);
  EXPECT_EQ(ls.worst[0].culprit_call, "MPI_Send");
  EXPECT_NEAR(ls.worst[0].culprit_s, 500 * kNs, 1e-15);
  EXPECT_EQ(P(d, "late_receiver").count, 0u);
  // Finalize: rank 1.1 enters at 600 and waits for 1.2 (650).
  EXPECT_NEAR(P(d, "wait_at_finalize").time_s, 50 * kNs, 1e-15);
  // The path ends at 650 (the last Finalize entry, rank 1.2), jumps at the receive to 1.1's
  // send at 500 and starts at 1.1's MPI_Init.
  const CriticalPathInfo& cp = d.critical_path;
  EXPECT_TRUE(cp.ends_at_finalize);
  EXPECT_NEAR(cp.length_s, 650 * kNs, 1e-15);
  ASSERT_EQ(cp.segments.size(), 2u);
  EXPECT_EQ(cp.segments[0].rank, 0u);
  EXPECT_NEAR(cp.segments[0].end_s, 500 * kNs, 1e-15);
  EXPECT_NEAR(cp.by_rank_s[0], 500 * kNs, 1e-15);
  EXPECT_NEAR(cp.by_rank_s[1], 150 * kNs, 1e-15);
  EXPECT_EQ(d.ranks, (std::vector<std::string>{"1.1", "1.2"}));
}

TEST(Diagnose, RendezvousLateReceiver) {
  TraceText t(2);
  t.Init(0).Init(1);
  t.Call(0, kP2P, 1, 100, 520).Call(1, kP2P, 2, 500, 520).Message(0, 1, 100, 520, 500, 520);
  t.Finalize(0, 600, 700).Finalize(1, 600, 700);
  Diagnosis d = DiagnoseText(t);
  const PatternSummary& lr = P(d, "late_receiver");
  ASSERT_EQ(lr.count, 1u);
  EXPECT_NEAR(lr.by_rank_s[0], 400 * kNs, 1e-15);
  EXPECT_EQ(lr.worst[0].culprit_rank, 1);
  EXPECT_EQ(lr.worst[0].culprit_call, "MPI_Recv");
  EXPECT_EQ(P(d, "late_sender").count, 0u);
}

TEST(Diagnose, EagerSendIsNoLateReceiver) {
  TraceText t(2);
  t.Init(0).Init(1);
  // The send returns at 120, before the receive is posted at 500: nobody waited.
  t.Call(0, kP2P, 1, 100, 120).Call(1, kP2P, 2, 500, 520).Message(0, 1, 100, 120, 500, 520);
  Diagnosis d = DiagnoseText(t);
  EXPECT_EQ(P(d, "late_receiver").count, 0u);
  EXPECT_EQ(P(d, "late_sender").count, 0u);
  EXPECT_FALSE(d.critical_path.ends_at_finalize);
}

TEST(Diagnose, BarrierWithOneLateRank) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  t.Call(0, kColl, 8, 100, 710).Call(1, kColl, 8, 200, 711).Call(2, kColl, 8, 700, 712);
  Diagnosis d = DiagnoseText(t);
  const PatternSummary& b = P(d, "wait_at_barrier");
  EXPECT_EQ(b.count, 2u);
  EXPECT_EQ(b.operations, 1u);
  EXPECT_NEAR(b.by_rank_s[0], 600 * kNs, 1e-15);
  EXPECT_NEAR(b.by_rank_s[1], 500 * kNs, 1e-15);
  EXPECT_EQ(b.by_rank_s[2], 0);
  EXPECT_NEAR(b.completion_s, 3 * kNs, 1e-15);  // exits 710, 711, 712 after the first (710)
  for (const WaitStateInstance& i : b.worst) EXPECT_EQ(i.culprit_rank, 2);
  EXPECT_EQ(d.collectives_analysed, 1u);
}

TEST(Diagnose, Allreduce) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  const std::string sizes = ":50100001:8:50100002:8";
  t.Call(0, kColl, 10, 100, 410, sizes).Call(1, kColl, 10, 300, 410, sizes);
  t.Call(2, kColl, 10, 400, 410, sizes);
  Diagnosis d = DiagnoseText(t);
  const PatternSummary& n = P(d, "wait_at_nxn");
  EXPECT_EQ(n.count, 2u);
  EXPECT_NEAR(n.time_s, 400 * kNs, 1e-15);
  EXPECT_NEAR(n.by_rank_s[0], 300 * kNs, 1e-15);
  EXPECT_NEAR(n.by_rank_s[1], 100 * kNs, 1e-15);
}

TEST(Diagnose, CollectiveWithoutPayload) {
  TraceText t(2);
  t.Init(0).Init(1);
  t.Call(0, kColl, 10, 100, 410, ":50100001:0:50100002:0");
  t.Call(1, kColl, 10, 400, 410, ":50100001:0:50100002:0");
  Diagnosis d = DiagnoseText(t);
  EXPECT_EQ(P(d, "wait_at_nxn").count, 0u);
  ASSERT_EQ(d.skipped.size(), 1u);
  EXPECT_NE(d.skipped[0].reason.find("no payload"), std::string::npos);
  EXPECT_EQ(d.skipped[0].count, 1u);
  EXPECT_EQ(d.skipped[0].first, "rank 1.1, MPI_Allreduce at 0.000000100 s");

  // Without size events the sizes are unknown: analysed by default, not in the strict reading.
  TraceText u(2);
  u.Init(0).Init(1);
  u.Call(0, kColl, 10, 100, 410).Call(1, kColl, 10, 400, 410);
  EXPECT_EQ(P(DiagnoseText(u), "wait_at_nxn").count, 1u);
  DiagnoseOptions strict;
  strict.strict_sizes = true;
  EXPECT_EQ(P(DiagnoseText(u, strict), "wait_at_nxn").count, 0u);
}

// A writer that puts the collective attributes before the call in its line: they are still
// the call's (no payload here, so no wait state).
TEST(Diagnose, AttributesBeforeTheCallAreItsOwn) {
  TraceText t(2);
  t.Init(0).Init(1);
  t.Call(0, kColl, 10, 100, 410).Call(1, kColl, 10, 400, 410);
  std::string text = t.Text();
  for (const char* line : {"2:1:1:1:1:100:50000002:10", "2:2:1:2:1:400:50000002:10"}) {
    const std::string l(line);
    const std::string attrs = l.substr(0, l.find(":5000")) + ":50100001:0:50100002:0:" + l.substr(l.find("5000"));
    text.replace(text.find(l), l.size(), attrs);
  }
  test::ScratchFolder dir;
  auto trace = Trace::Open(dir.Write("t.prv", text));
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  auto d = Diagnose(*trace.value());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(P(d.value(), "wait_at_nxn").count, 0u) << text;
  ASSERT_EQ(d.value().skipped.size(), 1u);
  EXPECT_NE(d.value().skipped[0].reason.find("no payload"), std::string::npos);
}

TEST(Diagnose, ChainJumpsTwice) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  // 1.1 computes until 300 and sends to 1.2, which waits from 100; 1.2 computes until 500 and
  // sends to 1.3, which waits from 150.
  t.Call(0, kP2P, 1, 300, 310).Call(1, kP2P, 2, 100, 320).Message(0, 1, 300, 310, 100, 320);
  t.Call(1, kP2P, 1, 500, 510).Call(2, kP2P, 2, 150, 520).Message(1, 2, 500, 510, 150, 520);
  t.Finalize(0, 600, 710).Finalize(1, 610, 710).Finalize(2, 700, 710);
  Diagnosis d = DiagnoseText(t);
  EXPECT_NEAR(P(d, "late_sender").by_rank_s[1], 200 * kNs, 1e-15);
  EXPECT_NEAR(P(d, "late_sender").by_rank_s[2], 350 * kNs, 1e-15);
  const CriticalPathInfo& cp = d.critical_path;
  ASSERT_EQ(cp.segments.size(), 3u);
  const uint32_t ranks[] = {0, 1, 2};
  const double bounds[] = {0, 300, 500, 700};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(cp.segments[i].rank, ranks[i]);
    EXPECT_NEAR(cp.segments[i].begin_s, bounds[i] * kNs, 1e-15);
    EXPECT_NEAR(cp.segments[i].end_s, bounds[i + 1] * kNs, 1e-15);
  }
  EXPECT_NEAR(cp.length_s, 700 * kNs, 1e-15);
  ASSERT_EQ(cp.jumps.size(), 1u);
  EXPECT_EQ(cp.jumps[0], (std::pair<std::string, uint64_t>{"late_sender", 2}));
  double by_activity = 0;
  for (const ActivityOnPath& a : cp.activities) by_activity += a.path_s;
  EXPECT_NEAR(by_activity, cp.length_s, 1e-15);
}

// The performance impact of the chain (with MPI_Finalize), worked by hand. The path spans
// [0, 700] (1.1's MPI_Init to 1.3's MPI_Finalize entry): 3 x 700 = 2100 rank-ns. Waiting: Late
// Sender 200 (1.2) and 350 (1.3), Wait at Finalize 100 (1.1, 600-700) and 90 (1.2): 740. Own
// time over the span: computation 589 + 379 + 329 = 1297 on 3 ranks, MPI_Recv 20 + 20 on 2,
// MPI_Send 10 + 10 on 2, MPI_Init 3, MPI_Finalize 0 (all waiting). On the path: computation 299
// + 180 + 180 = 659, MPI_Recv 40, MPI_Init 1. Imbalance: computation 659 - 1297 / 3 = 680 / 3,
// all within its partition; MPI_Recv 40 - 40 / 3 = 80 / 3, of which 40 - 40 / 2 = 20 within its
// partition of 2 ranks and 20 / 3 because 1.1 never receives. The 740 of waiting is charged
// 680 : 80: computation 740 * 680 / 760, MPI_Recv 740 * 80 / 760 (3/4 intra, 1/4 inter).
// MPI_Send is never on the path: its 20 is the non-critical-path activities' impact.
TEST(Diagnose, PerformanceImpactSplit) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  t.Call(0, kP2P, 1, 300, 310).Call(1, kP2P, 2, 100, 320).Message(0, 1, 300, 310, 100, 320);
  t.Call(1, kP2P, 1, 500, 510).Call(2, kP2P, 2, 150, 520).Message(1, 2, 500, 510, 150, 520);
  t.Finalize(0, 600, 710).Finalize(1, 610, 710).Finalize(2, 700, 710);
  Diagnosis d = DiagnoseText(t);
  const PerformanceImpact& pi = d.critical_path.impact;
  EXPECT_NEAR(pi.total_s, 2100 * kNs, 1e-15);
  EXPECT_NEAR(pi.waiting_s, 740 * kNs, 1e-15);
  std::map<std::string, ActivityImpact> by;
  for (const ActivityImpact& a : pi.activities) by[a.name] = a;
  ASSERT_EQ(by.count("computation"), 1u);
  ASSERT_EQ(by.count("MPI_Recv"), 1u);
  ASSERT_EQ(by.count("MPI_Send"), 1u);
  const ActivityImpact& comp = by["computation"];
  EXPECT_TRUE(comp.on_path);
  EXPECT_EQ(comp.ranks, 3u);
  EXPECT_NEAR(comp.busy_s, 1297 * kNs, 1e-15);
  EXPECT_NEAR(comp.intra_s, 680.0 / 3 * kNs, 1e-15);
  EXPECT_NEAR(comp.inter_s, 0, 1e-15);
  EXPECT_NEAR(comp.imbalance_impact_s, 740.0 * 680 / 760 * kNs, 1e-15);
  const ActivityImpact& recv = by["MPI_Recv"];
  EXPECT_EQ(recv.ranks, 2u);
  EXPECT_NEAR(recv.busy_s, 40 * kNs, 1e-15);
  EXPECT_NEAR(recv.intra_s, 20 * kNs, 1e-15);
  EXPECT_NEAR(recv.inter_s, 20.0 / 3 * kNs, 1e-15);
  EXPECT_NEAR(recv.intra_impact_s, 740.0 * 60 / 760 * kNs, 1e-15);
  EXPECT_NEAR(recv.inter_impact_s, 740.0 * 20 / 760 * kNs, 1e-15);
  EXPECT_FALSE(by["MPI_Send"].on_path);
  EXPECT_NEAR(pi.non_critical_path_activities_s, 20 * kNs, 1e-15);
  EXPECT_NEAR(pi.critical_path_activities_s, 2080 * kNs, 1e-15);
  EXPECT_NEAR(pi.imbalance_impact_s, 740 * kNs, 1e-15);
  EXPECT_NEAR(pi.intra_partition_s, 740.0 * 740 / 760 * kNs, 1e-15);
  EXPECT_NEAR(pi.inter_partition_s, 740.0 * 20 / 760 * kNs, 1e-15);
  EXPECT_EQ(pi.unattributed_s, 0);
  // The profile's imbalance: MPI_Recv's mean per rank excludes its waiting.
  for (const ActivityOnPath& a : d.critical_path.activities)
    if (a.name == "MPI_Recv") EXPECT_NEAR(a.imbalance_s, 80.0 / 3 * kNs, 1e-15);
}

// Root causes on the chain without MPI_Finalize. 1.2 waited 200 for 1.1: since their start
// (MPI_Init's exit, 1) 1.1 computed 299 against 1.2's 99: 200 of computation on 1.1. 1.3 waited
// 350 for 1.2: over [1, 500] 1.2 computed 279 and spent 220 in MPI_Recv, 200 of it waiting;
// 1.3 computed 149 over [1, 150]. Excesses: computation 130, MPI 20, waiting 200 (of 350): 130
// and 20 are charged to 1.2 directly, 200 passes on to 1.2's own wait, caused by 1.1's
// computation, whose long-term cost is then 200 + 200.
TEST(Diagnose, ChainRootCauses) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  t.Call(0, kP2P, 1, 300, 310).Call(1, kP2P, 2, 100, 320).Message(0, 1, 300, 310, 100, 320);
  t.Call(1, kP2P, 1, 500, 510).Call(2, kP2P, 2, 150, 520).Message(1, 2, 500, 510, 150, 520);
  Diagnosis d = DiagnoseText(t);
  std::map<std::pair<uint32_t, std::string>, std::pair<double, double>> got;
  for (const RootCause& c : d.root_causes) got[{c.rank, c.activity}] = {c.short_term_s, c.long_term_s};
  ASSERT_EQ(got.size(), 3u);
  EXPECT_NEAR(got[std::make_pair(0u, std::string("computation"))].first, 200 * kNs, 1e-15);
  EXPECT_NEAR(got[std::make_pair(0u, std::string("computation"))].second, 400 * kNs, 1e-15);
  EXPECT_NEAR(got[std::make_pair(1u, std::string("computation"))].first, 130 * kNs, 1e-15);
  EXPECT_NEAR(got[std::make_pair(1u, std::string("computation"))].second, 130 * kNs, 1e-15);
  EXPECT_NEAR(got[std::make_pair(1u, std::string("MPI"))].first, 20 * kNs, 1e-15);
  EXPECT_EQ(d.root_causes[0].rank, 0u);  // the largest long-term cost first
  EXPECT_EQ(d.unexplained_s, 0);
  // The wait of 1.3 names 1.2's computation excess as its cause.
  const PatternSummary& ls = P(d, "late_sender");
  ASSERT_EQ(ls.worst.size(), 2u);
  EXPECT_EQ(ls.worst[0].rank, 2u);
  EXPECT_EQ(ls.worst[0].cause, "computation");
  EXPECT_NEAR(ls.worst[0].cause_delay_s, 130 * kNs, 1e-15);
}

// Root causes named by phase. Eight iterations of 500 ns, each opened by a barrier on both
// ranks (exit at T + 10): 1.1 computes 300 (phase 0, after the barrier) and sends; 1.2 computes
// 100 and waits 200 in MPI_Recv; both then compute up to the next barrier (phase 1). Each Late
// Sender's interval starts at the barrier: 1.1 computed 300 against 1.2's 100, all in phase 0,
// so its 200 ns are charged to 1.1's computation in phase 0, 8 x 200 in all.
TEST(Diagnose, RootCausesAreNamedByPhase) {
  TraceText t(2);
  t.Init(0).Init(1);
  constexpr int kIterations = 8;
  for (uint64_t i = 0; i <= kIterations; ++i) {
    const uint64_t at = 10 + 500 * i;
    t.Call(0, kColl, 8, at, at + 10).Call(1, kColl, 8, at, at + 10);
    if (i == kIterations) break;
    t.Call(0, kP2P, 1, at + 310, at + 320).Call(1, kP2P, 2, at + 110, at + 330);
    t.Message(0, 1, at + 310, at + 320, at + 110, at + 330);
  }
  const uint64_t end = 10 + 500 * kIterations + 20;
  t.Finalize(0, end, end + 10).Finalize(1, end, end + 10);
  Diagnosis d = DiagnoseText(t);
  ASSERT_EQ(d.phases.size(), 2u);
  EXPECT_EQ(d.phases[0], "phase 0 (MPI_Barrier .. MPI_Send)");
  EXPECT_EQ(d.phases[1], "phase 1 (MPI_Send .. next iteration)");
  EXPECT_NEAR(P(d, "late_sender").time_s, kIterations * 200 * kNs, 1e-15);
  ASSERT_EQ(d.root_causes.size(), 1u);
  EXPECT_EQ(d.root_causes[0].rank, 0u);
  EXPECT_EQ(d.root_causes[0].activity, "computation");
  EXPECT_EQ(d.root_causes[0].phase, d.phases[0]);
  EXPECT_NEAR(d.root_causes[0].short_term_s, kIterations * 200 * kNs, 1e-12);
  for (const WaitStateInstance& i : P(d, "late_sender").worst) {
    EXPECT_EQ(i.cause_phase, d.phases[0]);
    EXPECT_NEAR(i.cause_delay_s, 200 * kNs, 1e-15);
  }
  auto j = nlohmann::json::parse(FormatDiagnosisJson(d));
  EXPECT_EQ(j["root_causes"][0]["phase"], d.phases[0]);
  EXPECT_EQ(j["phases"].size(), 2u);
  EXPECT_NE(FormatDiagnosisText(d).find("computation in phase 0 (MPI_Barrier .. MPI_Send) there"), std::string::npos);
}

TEST(Diagnose, WaitallChargesTheLatestSenderOnce) {
  TraceText t(4);
  for (int r = 0; r < 4; ++r) t.Init(r);
  t.Call(3, kP2P, 4, 10, 11).Call(3, kP2P, 4, 20, 21).Call(3, kP2P, 4, 30, 31);
  t.Call(3, kP2P, 6, 100, 900);
  t.Call(0, kP2P, 1, 200, 210).Message(0, 3, 200, 210, 11, 900);
  t.Call(1, kP2P, 1, 500, 510).Message(1, 3, 500, 510, 21, 900);
  t.Call(2, kP2P, 1, 800, 810).Message(2, 3, 800, 810, 31, 900);
  Diagnosis d = DiagnoseText(t);
  const PatternSummary& ls = P(d, "late_sender");
  ASSERT_EQ(ls.count, 1u);
  EXPECT_NEAR(ls.time_s, 700 * kNs, 1e-15);
  EXPECT_EQ(ls.worst[0].call, "MPI_Waitall");
  EXPECT_EQ(ls.worst[0].culprit_rank, 2);
}

TEST(Diagnose, ClockViolationIsClippedAndCounted) {
  TraceText t(2);
  t.Init(0).Init(1);
  // The send enters at 900, after the receive finished at 520: the wait stops at the exit.
  t.Call(0, kP2P, 1, 900, 910).Call(1, kP2P, 2, 100, 520).Message(0, 1, 900, 910, 100, 520);
  Diagnosis d = DiagnoseText(t);
  EXPECT_NEAR(P(d, "late_sender").time_s, 420 * kNs, 1e-15);
  EXPECT_EQ(d.clock_violations, 1u);
  EXPECT_EQ(d.backward_messages, 1u);
  ASSERT_FALSE(d.notes.empty());
  EXPECT_NE(d.notes[0].find("parallax clocks --correct"), std::string::npos);
}

// What cannot be analysed is counted and located: a barrier that one rank never calls, and a
// message whose receive is outside every MPI call.
TEST(Diagnose, UnmatchedAreCountedAndLocated) {
  TraceText t(3);
  t.Init(0).Init(1).Init(2);
  t.Call(0, kColl, 8, 100, 200).Call(1, kColl, 8, 150, 200);  // 1.3 has no barrier
  t.Call(0, kP2P, 1, 300, 310).Message(0, 1, 300, 310, 400, 400);
  Diagnosis d = DiagnoseText(t);
  ASSERT_EQ(d.skipped.size(), 1u);
  EXPECT_EQ(d.skipped[0].reason, "a member has no matching call");
  EXPECT_EQ(d.skipped[0].first, "rank 1.1, MPI_Barrier at 0.000000100 s");
  EXPECT_EQ(P(d, "wait_at_barrier").count, 0u);
  EXPECT_EQ(d.unbound_messages, 1u);
  EXPECT_EQ(d.first_unbound,
            "communication 1: sent by thread 1.1.1 at 0.000000300 s, received by thread 1.2.1 at "
            "0.000000400 s");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find(d.first_unbound), std::string::npos);
}

TEST(Diagnose, NoMpiEvents) {
  test::ScratchFolder dir;
  auto trace = Trace::Open(dir.Write("t.prv", "#Paraver (01/01/26 at 00:00):100_ns:1(1):1:1(1:1)\n"
                                               "1:1:1:1:1:0:100:1\n"));
  ASSERT_TRUE(trace.ok());
  auto d = Diagnose(*trace.value());
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d.value().ranks.empty());
  ASSERT_EQ(d.value().notes.size(), 1u);
  auto j = nlohmann::json::parse(FormatDiagnosisJson(d.value()));
  EXPECT_EQ(j["patterns"]["late_sender"]["count"], 0);
  EXPECT_EQ(j["critical_path"]["length_s"], 0.0);
}

// OpenMP: one task of three threads. The master's region is [10, 1000]; in it every thread
// meets a first barrier (arriving at 100, 200 and 450: the first two wait 350 and 250 for the
// third) and two of them a second (600 and 650: the first waits 50). The master runs outside
// regions over [0, 10] and [1000, 1200]: 210 ns for each of the two workers.
TEST(Diagnose, OpenMpBarriersAndIdleThreads) {
  const std::string text =
      "#Paraver (01/01/26 at 00:00):1200_ns:1(3):1:1(3:1)\n"
      "1:1:1:1:1:0:1200:1\n"
      "1:2:1:1:2:0:1200:1\n"
      "1:3:1:1:3:0:1200:1\n"
      "2:1:1:1:1:10:60000001:3\n"
      "2:1:1:1:1:100:60000005:1\n"
      "2:2:1:1:2:200:60000005:1\n"
      "2:3:1:1:3:450:60000005:1\n"
      "2:1:1:1:1:500:60000005:0\n"
      "2:2:1:1:2:500:60000005:0\n"
      "2:3:1:1:3:500:60000005:0\n"
      "2:1:1:1:1:600:60000005:1\n"
      "2:2:1:1:2:650:60000005:1\n"
      "2:1:1:1:1:700:60000005:0\n"
      "2:2:1:1:2:700:60000005:0\n"
      "2:1:1:1:1:1000:60000001:0\n";
  test::ScratchFolder dir;
  auto trace = Trace::Open(dir.Write("omp.prv", text));
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  auto r = Diagnose(*trace.value());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Diagnosis& d = r.value();
  EXPECT_TRUE(d.ranks.empty());
  ASSERT_EQ(d.omp_threads, (std::vector<std::string>{"1.1.1", "1.1.2", "1.1.3"}));
  ASSERT_EQ(d.omp_patterns.size(), 2u);
  const PatternSummary& b = d.omp_patterns[0];
  EXPECT_EQ(b.key, "wait_at_omp_barrier");
  EXPECT_EQ(b.count, 3u);
  EXPECT_EQ(b.operations, 2u);
  EXPECT_NEAR(b.by_rank_s[0], 400 * kNs, 1e-15);
  EXPECT_NEAR(b.by_rank_s[1], 250 * kNs, 1e-15);
  EXPECT_EQ(b.by_rank_s[2], 0);
  EXPECT_EQ(b.worst[0].culprit_rank, 2);
  const PatternSummary& idle = d.omp_patterns[1];
  EXPECT_EQ(idle.key, "omp_idle_threads");
  EXPECT_EQ(idle.by_rank_s[0], 0);
  EXPECT_NEAR(idle.by_rank_s[1], 210 * kNs, 1e-15);
  EXPECT_NEAR(idle.by_rank_s[2], 210 * kNs, 1e-15);
  auto j = nlohmann::json::parse(FormatDiagnosisJson(d));
  EXPECT_EQ(j["openmp"]["patterns"]["wait_at_omp_barrier"]["count"], 3);
}

// The real epoch traces (Extrae, 1, 2 and 4 ranks): no rank waits longer than it is in MPI,
// the path tiles its span, and the JSON carries the keys scripts rely on.
TEST(Diagnose, EpochTracesSumsHold) {
  for (const char* name : {"epoch_1proc", "epoch_2proc", "epoch_4proc"}) {
    SCOPED_TRACE(name);
    auto trace = Trace::Open(std::string(PARALLAX_TEST_DATA) + "/epoch/" + name + ".prv.gz");
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    auto r = Diagnose(*trace.value());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const Diagnosis& d = r.value();
    ASSERT_FALSE(d.ranks.empty());
    for (size_t rank = 0; rank < d.ranks.size(); ++rank) {
      double waited = 0;
      for (const PatternSummary& p : d.patterns) waited += p.by_rank_s[rank];
      EXPECT_LE(waited, d.mpi_s[rank] + 1e-12) << d.ranks[rank];
    }
    const CriticalPathInfo& cp = d.critical_path;
    EXPECT_NEAR(cp.length_s, cp.end_s - cp.begin_s, 1e-12);
    double sum = 0;
    for (double v : cp.by_rank_s) sum += v;
    EXPECT_NEAR(sum, cp.length_s, 1e-12);
    for (size_t i = 1; i < cp.segments.size(); ++i)
      EXPECT_EQ(cp.segments[i].begin_s, cp.segments[i - 1].end_s);
    if (d.ranks.size() == 1) {
      for (const PatternSummary& p : d.patterns) EXPECT_EQ(p.count, 0u) << p.key;
      EXPECT_EQ(cp.segments.size(), 1u);
    }
    // Root causes never charge more waiting than there is.
    double waiting = 0, short_term = 0, long_term = 0;
    for (const PatternSummary& p : d.patterns) waiting += p.time_s;
    for (const RootCause& c : d.root_causes) short_term += c.short_term_s, long_term += c.long_term_s;
    EXPECT_LE(short_term + d.unexplained_s, waiting + 1e-9);
    EXPECT_LE(long_term, waiting + 1e-9);
    if (d.ranks.size() > 1) EXPECT_GT(long_term, 0.5 * waiting);
    auto j = nlohmann::json::parse(FormatDiagnosisJson(d));
    for (const char* key : {"late_sender", "late_receiver", "wait_at_barrier", "wait_at_nxn",
                            "late_broadcast", "early_reduce"})
      EXPECT_TRUE(j["patterns"][key].contains("by_rank")) << key;
    EXPECT_TRUE(j["critical_path"]["by_rank_s"].contains("1.1"));
    EXPECT_TRUE(j["critical_path"]["by_activity_s"].contains("computation"));
    // The performance impact accounts for every rank-second of the path's span.
    const PerformanceImpact& pi = cp.impact;
    EXPECT_NEAR(pi.total_s, static_cast<double>(d.ranks.size()) * cp.length_s, 1e-9);
    EXPECT_NEAR(pi.critical_path_activities_s + pi.non_critical_path_activities_s + pi.unattributed_s,
                pi.total_s, 1e-9);
    EXPECT_NEAR(pi.activity_impact_s + pi.imbalance_impact_s, pi.critical_path_activities_s, 1e-9);
    EXPECT_NEAR(pi.intra_partition_s + pi.inter_partition_s, pi.imbalance_impact_s, 1e-9);
    EXPECT_TRUE(j["critical_path"]["performance_impact"].contains("by_activity"));
  }
}

// The inputs of the diagnose fuzz target's corpus (its seeds and any crash it found) diagnose
// with the sums holding, so a fixed crash stays fixed in the normal test run.
TEST(Diagnose, FuzzCorpusSumsHold) {
  const std::filesystem::path dir =
      std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz" / "corpus" / "diagnose";
  int inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().string());
    auto trace = Trace::Open(entry.path().string());
    if (!trace.ok()) continue;
    ++inputs;
    for (bool strict : {false, true}) {
      DiagnoseOptions o;
      o.strict_sizes = strict;
      auto r = Diagnose(*trace.value(), o);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      const Diagnosis& d = r.value();
      for (size_t rank = 0; rank < d.ranks.size(); ++rank) {
        double waited = 0;
        for (const PatternSummary& p : d.patterns) waited += p.by_rank_s[rank];
        EXPECT_LE(waited, d.mpi_s[rank] + 1e-12);
      }
      double sum = 0;
      for (double v : d.critical_path.by_rank_s) sum += v;
      EXPECT_NEAR(sum, d.critical_path.length_s, 1e-12);
    }
  }
  EXPECT_GE(inputs, 5);
}

}  // namespace
}  // namespace parallax
