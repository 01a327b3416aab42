// The replay engine on hand-made traces whose replayed times are known by hand: an ideal replay
// of already instantaneous communications, bandwidth halving a transfer, the CPU ratio,
// rendezvous deadlocks, unmatched messages and collectives with missing participants.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "src/store/compact_records.h"
#include "tests/unit/replay/replay_test_util.h"

namespace parallax::replay {
namespace {

using testing::ParseTrace;
using testing::Replay;

// Task 1 computes 100 ns, sends 64 bytes (MPI_Send, value 1) in no time, computes 200 ns; task 2
// computes 80 ns, waits 20 ns in MPI_Recv (value 2) for the message, computes 200 ns. The
// communication is already instantaneous: the ideal replay gives the same 300 ns.
const char* kInstantaneous =
    "#Paraver (01/01/24 at 00:00):300_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:100:1\n"
    "1:2:1:2:1:0:80:1\n"
    "2:2:1:2:1:80:50000001:2\n"
    "2:1:1:1:1:100:50000001:1\n"
    "2:1:1:1:1:100:50000001:0\n"
    "3:1:1:1:1:100:100:2:1:2:1:80:100:64:1\n"
    "1:1:1:1:1:100:300:1\n"
    "1:2:1:2:1:80:100:3\n"
    "2:2:1:2:1:100:50000001:0\n"
    "1:2:1:2:1:100:300:1\n";

TEST(ReplayEngine, IdealReplayOfInstantaneousCommunicationKeepsTheRuntime) {
  io::PrvTrace t = ParseTrace(kInstantaneous);
  auto r = Replay(t, IdealMachine());
  ASSERT_TRUE(r.sim.ok()) << r.sim.status().ToString();
  EXPECT_DOUBLE_EQ(r.sim->runtime, 300);
  ASSERT_EQ(r.program.processes.size(), 2u);
  EXPECT_DOUBLE_EQ(r.sim->end[1], 300);
  EXPECT_DOUBLE_EQ(r.sim->compute[0], 300);  // 100 + 200
  EXPECT_DOUBLE_EQ(r.sim->compute[1], 280);  // 80 + 200: the wait is not computation
  EXPECT_EQ(r.program.messages, 1u);
  EXPECT_EQ(r.program.mpi_events, 4u);
  EXPECT_TRUE(r.sim->diagnostics.entries().empty());
}

TEST(ReplayEngine, CpuRatioDividesTheBursts) {
  io::PrvTrace t = ParseTrace(kInstantaneous);
  MachineModel m = IdealMachine();
  m.cpu_ratio = 2;
  auto r = Replay(t, m);
  ASSERT_TRUE(r.sim.ok());
  EXPECT_DOUBLE_EQ(r.sim->runtime, 150);  // 50 + 100 on task 1; task 2 waits for it at 50
  EXPECT_DOUBLE_EQ(r.sim->end[1], 150);
}

// A ping-pong of two 1 MiB messages (rendezvous): task 1 computes 1000 ns and sends; task 2
// posted its receive at 500, computes 1000 ns and answers; both compute 1000 ns at the end.
// Replayed runtime = 3000 + 2 (L + D) with D = size / bandwidth, so doubling the bandwidth
// saves exactly D.
const char* kPingPong =
    "#Paraver (01/01/24 at 00:00):5000_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:1000:1\n"
    "1:2:1:2:1:0:500:1\n"
    "2:2:1:2:1:500:50000001:2\n"
    "2:1:1:1:1:1000:50000001:1\n"
    "3:1:1:1:1:1000:1000:2:1:2:1:500:2000:1048576:1\n"
    "2:1:1:1:1:2000:50000001:0\n"
    "2:1:1:1:1:2000:50000001:2\n"
    "2:2:1:2:1:2000:50000001:0\n"
    "1:2:1:2:1:2000:3000:1\n"
    "2:2:1:2:1:3000:50000001:1\n"
    "3:2:1:2:1:3000:3000:1:1:1:1:2000:4000:1048576:2\n"
    "2:1:1:1:1:4000:50000001:0\n"
    "2:2:1:2:1:4000:50000001:0\n"
    "1:1:1:1:1:4000:5000:1\n"
    "1:2:1:2:1:4000:5000:1\n";

TEST(ReplayEngine, DoublingTheBandwidthSavesTheTransferTime) {
  io::PrvTrace t = ParseTrace(kPingPong);
  MachineModel m = IdealMachine();
  m.inter_node.latency_s = 5e-6;
  m.inter_node.bandwidth_Bps = 1000 * kBytesPerMB;  // 1 MiB in 1 ms
  auto slow = Replay(t, m);
  m.inter_node.bandwidth_Bps *= 2;
  auto fast = Replay(t, m);
  ASSERT_TRUE(slow.sim.ok()) << slow.sim.status().ToString();
  ASSERT_TRUE(fast.sim.ok());
  const double d = 1e6;  // ns for 1 MiB at 1000 MB/s
  EXPECT_NEAR(slow.sim->runtime, 3000 + 2 * (5000 + d), 1e-6);
  EXPECT_NEAR(fast.sim->runtime, 3000 + 2 * (5000 + d / 2), 1e-6);
  EXPECT_NEAR(slow.sim->runtime - fast.sim->runtime, d, 1e-6);
  // Ideal network: only the computation remains.
  auto ideal = Replay(t, IdealMachine());
  EXPECT_DOUBLE_EQ(ideal.sim->runtime, 3000);
}

TEST(ReplayEngine, OneLinkSerialisesTransfersOfANode) {
  // Tasks 1 and 2 on one node send 1 MiB each to tasks 3 and 4 on another, at time 0.
  const char* text =
      "#Paraver (01/01/24 at 00:00):10_ns:2(2,2):1:4(1:1,1:1,1:2,1:2)\n"
      "2:1:1:1:1:0:50000001:1\n"
      "2:2:1:2:1:0:50000001:1\n"
      "2:3:1:3:1:0:50000001:2\n"
      "2:4:1:4:1:0:50000001:2\n"
      "3:1:1:1:1:0:0:3:1:3:1:0:10:1048576:1\n"
      "3:2:1:2:1:0:0:4:1:4:1:0:10:1048576:1\n"
      "2:1:1:1:1:10:50000001:0\n"
      "2:2:1:2:1:10:50000001:0\n"
      "2:3:1:3:1:10:50000001:0\n"
      "2:4:1:4:1:10:50000001:0\n";
  io::PrvTrace t = ParseTrace(text);
  MachineModel m = IdealMachine();
  m.tasks_per_node = 2;
  m.inter_node.bandwidth_Bps = 1000 * kBytesPerMB;
  auto free = Replay(t, m);
  ASSERT_TRUE(free.sim.ok());
  EXPECT_NEAR(free.sim->runtime, 1e6, 1e-6);  // both transfers at once
  m.inter_node.links = 1;
  auto one = Replay(t, m);
  ASSERT_TRUE(one.sim.ok());
  EXPECT_NEAR(one.sim->runtime, 2e6, 1e-6);  // one after the other
}

// Both tasks start with a blocking 1 MiB MPI_Send to the other, then receive: under a 32 KiB
// eager limit both wait for a receive that is never posted.
const char* kCrossedSends =
    "#Paraver (01/01/24 at 00:00):400_ns:1(2):1:2(1:1,1:1)\n"
    "2:1:1:1:1:100:50000001:1\n"
    "2:2:1:2:1:100:50000001:1\n"
    "3:1:1:1:1:100:100:2:1:2:1:200:300:1048576:1\n"
    "3:2:1:2:1:100:100:1:1:1:1:200:300:1048576:1\n"
    "2:1:1:1:1:200:50000001:0\n"
    "2:2:1:2:1:200:50000001:0\n"
    "2:1:1:1:1:200:50000001:2\n"
    "2:2:1:2:1:200:50000001:2\n"
    "2:1:1:1:1:300:50000001:0\n"
    "2:2:1:2:1:300:50000001:0\n"
    "1:1:1:1:1:300:400:1\n"
    "1:2:1:2:1:300:400:1\n";

TEST(ReplayEngine, RendezvousCycleIsReportedAsADeadlockWithItsTasks) {
  io::PrvTrace t = ParseTrace(kCrossedSends);
  auto r = Replay(t, IdealMachine());
  ASSERT_FALSE(r.sim.ok());
  const std::string msg = r.sim.status().message();
  EXPECT_NE(msg.find("deadlock"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1.1.1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1.2.1"), std::string::npos) << msg;
  EXPECT_NE(r.sim.status().hint().find("--eager"), std::string::npos);
  // With messages this size sent eagerly, as the original run evidently did, it completes.
  MachineModel m = IdealMachine();
  m.eager_limit = 2 << 20;
  auto eager = Replay(t, m);
  ASSERT_TRUE(eager.sim.ok()) << eager.sim.status().ToString();
  EXPECT_DOUBLE_EQ(eager.sim->runtime, 200);  // 100 before the sends, 100 after
}

TEST(ReplayEngine, DeadlockOfARingNamesItsLengthAndTheFirstTasks) {
  // 20 tasks, each sends 1 MiB to the next with MPI_Send, then receives from the previous.
  const int n = 20;
  std::string text = "#Paraver (01/01/24 at 00:00):300_ns:1(" + std::to_string(n) +
                     "):1:" + std::to_string(n) + "(";
  for (int k = 1; k <= n; ++k) text += std::string(k > 1 ? "," : "") + "1:1";
  text += ")\n";
  auto id = [](int k) { return std::to_string(k) + ":1:" + std::to_string(k) + ":1:"; };
  for (int k = 1; k <= n; ++k) text += "2:" + id(k) + "100:50000001:1\n";
  for (int k = 1; k <= n; ++k)
    text += "3:" + id(k) + "100:100:" + id(k % n + 1) + "200:300:1048576:1\n";
  for (int k = 1; k <= n; ++k) text += "2:" + id(k) + "200:50000001:0:50000001:2\n";
  for (int k = 1; k <= n; ++k) text += "2:" + id(k) + "300:50000001:0\n";
  io::PrvTrace t = ParseTrace(text);
  auto r = Replay(t, IdealMachine());
  ASSERT_FALSE(r.sim.ok());
  const std::string msg = r.sim.status().message();
  EXPECT_NE(msg.find("(20 tasks in the cycle)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1.1.1 waits for 1.2.1 to post the receive"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("1.12.1"), std::string::npos) << msg;  // only the first 8 are spelled out
}

TEST(ReplayEngine, UnmatchedMessagesAreCountedAndTheirCallsBecomeLocal) {
  // The communication leaves task 1 at 90, outside its MPI_Send: nothing is known of its send.
  const char* text =
      "#Paraver (01/01/24 at 00:00):200_ns:1(2):1:2(1:1,1:1)\n"
      "2:2:1:2:1:50:50000001:2\n"
      "3:1:1:1:1:90:90:2:1:2:1:50:150:8:1\n"
      "2:1:1:1:1:100:50000001:1\n"
      "2:1:1:1:1:110:50000001:0\n"
      "2:2:1:2:1:150:50000001:0\n"
      "1:1:1:1:1:110:200:1\n"
      "1:2:1:2:1:150:200:1\n";
  io::PrvTrace t = ParseTrace(text);
  auto r = Replay(t, IdealMachine());
  ASSERT_TRUE(r.sim.ok()) << r.sim.status().ToString();
  EXPECT_EQ(r.program.messages, 0u);
  EXPECT_EQ(r.sim->diagnostics.Count("unmatched-communication"), 1u);
  EXPECT_EQ(r.sim->diagnostics.Count("receive-without-communication"), 1u);
  EXPECT_DOUBLE_EQ(r.sim->end[0], 190);  // 100 + 90: the send takes no time
  EXPECT_DOUBLE_EQ(r.sim->end[1], 100);  // 50 + 50: the receive does not wait
  const auto& e = r.sim->diagnostics.entries();
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].examples[0].find("1.1.1 at 90 ns"), std::string::npos) << e[0].examples[0];
}

TEST(ReplayEngine, CollectiveWithAMissingParticipantCompletesWithTheOthers) {
  // Tasks 1 and 2 enter MPI_Barrier (collective value 8) at 100 and 120; task 3 never does.
  const char* text =
      "#Paraver (01/01/24 at 00:00):200_ns:1(3):1:3(1:1,1:1,1:1)\n"
      "2:3:1:3:1:10:50000003:19\n"
      "2:3:1:3:1:10:50000003:0\n"
      "2:1:1:1:1:100:50000002:8\n"
      "2:2:1:2:1:120:50000002:8\n"
      "2:1:1:1:1:150:50000002:0\n"
      "2:2:1:2:1:150:50000002:0\n"
      "1:1:1:1:1:150:200:1\n"
      "1:2:1:2:1:150:200:1\n"
      "1:3:1:3:1:10:200:1\n";
  io::PrvTrace t = ParseTrace(text);
  auto r = Replay(t, IdealMachine());
  ASSERT_TRUE(r.sim.ok()) << r.sim.status().ToString();
  EXPECT_EQ(r.sim->diagnostics.Count("collective-missing-participants"), 1u);
  EXPECT_DOUBLE_EQ(r.sim->end[0], 170);  // waits for task 2 until 120, then 50
  EXPECT_DOUBLE_EQ(r.sim->end[1], 170);
  EXPECT_DOUBLE_EQ(r.sim->end[2], 200);
}

TEST(ReplayEngine, CollectiveCostFollowsTheModel) {
  // Four tasks meet in MPI_Bcast (value 7, collective id 6) of 1 MiB at time 0.
  std::string text = "#Paraver (01/01/24 at 00:00):10_ns:1(4):1:4(1:1,1:1,1:1,1:1)\n";
  for (int k = 1; k <= 4; ++k)
    text += "2:" + std::to_string(k) + ":1:" + std::to_string(k) +
            ":1:0:50000002:7:50100001:" + (k == 1 ? "1048576" : "0") +
            ":50100002:" + (k == 1 ? "0" : "1048576") + "\n";
  for (int k = 1; k <= 4; ++k)
    text += "2:" + std::to_string(k) + ":1:" + std::to_string(k) + ":1:10:50000002:0\n";
  io::PrvTrace t = ParseTrace(text);
  MachineModel m = IdealMachine();
  m.inter_node.latency_s = 1e-6;
  m.inter_node.bandwidth_Bps = 1000 * kBytesPerMB;
  m.collectives[6] = {{StageModel::kLogarithmic, SizeModel::kMax},
                      {StageModel::kNone, SizeModel::kMax}};
  auto log = Replay(t, m);
  ASSERT_TRUE(log.sim.ok());
  EXPECT_NEAR(log.sim->runtime, 2 * (1000 + 1e6), 1e-6);  // log2(4) stages of latency + 1 MiB
  m.collectives[6] = {{StageModel::kLinear, SizeModel::kMax},
                      {StageModel::kConstant, SizeModel::kMin}};
  auto lin = Replay(t, m);
  EXPECT_NEAR(lin.sim->runtime, 4 * (1000 + 1e6) + 1000, 1e-6);  // 4 stages, then 1 of 0 bytes
}

// MPI_Isend (3) of 1 MiB at 100 on task 1, completed by its MPI_Wait (5) at 200; task 2 posts
// MPI_Irecv (4) only at 400 and waits at 500. Under rendezvous the send can only leave at 400,
// so task 1's wait lasts until then; sent eagerly it does not wait at all.
const char* kNonBlocking =
    "#Paraver (01/01/24 at 00:00):600_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:100:1\n"
    "2:1:1:1:1:100:50000001:3\n"
    "3:1:1:1:1:100:100:2:1:2:1:400:505:1048576:1\n"
    "2:1:1:1:1:110:50000001:0\n"
    "1:1:1:1:1:110:200:1\n"
    "2:1:1:1:1:200:50000001:5\n"
    "2:1:1:1:1:210:50000001:0\n"
    "1:1:1:1:1:210:300:1\n"
    "1:2:1:2:1:0:400:1\n"
    "2:2:1:2:1:400:50000001:4\n"
    "2:2:1:2:1:405:50000001:0\n"
    "1:2:1:2:1:405:500:1\n"
    "2:2:1:2:1:500:50000001:5\n"
    "2:2:1:2:1:510:50000001:0\n"
    "1:2:1:2:1:510:600:1\n";

TEST(ReplayEngine, NonBlockingSendCompletesAtItsWait) {
  io::PrvTrace t = ParseTrace(kNonBlocking);
  auto r = Replay(t, IdealMachine());
  ASSERT_TRUE(r.sim.ok()) << r.sim.status().ToString();
  EXPECT_DOUBLE_EQ(r.sim->end[0], 490);  // 100 + 90, waits until 400, then 90
  EXPECT_DOUBLE_EQ(r.sim->end[1], 585);  // 400 + 95 (the data is there), then 90
  MachineModel m = IdealMachine();
  m.eager_limit = 2 << 20;
  auto eager = Replay(t, m);
  ASSERT_TRUE(eager.sim.ok());
  EXPECT_DOUBLE_EQ(eager.sim->end[0], 280);  // 100 + 90 + 90: nothing to wait for
  EXPECT_DOUBLE_EQ(eager.sim->end[1], 585);
  // The predicted-trace anchors: task 1's MPI_Wait [200, 210) now lasts [190, 400).
  const std::vector<Anchor>& a = r.program.processes[0].anchors;
  bool found = false;
  for (size_t i = 0; i + 1 < a.size(); ++i)
    if (a[i].original == 200 && a[i + 1].original == 210) {
      EXPECT_DOUBLE_EQ(a[i].replayed, 190);
      EXPECT_DOUBLE_EQ(a[i + 1].replayed, 400);
      found = true;
    }
  EXPECT_TRUE(found);
}

// Two tasks exchange `n` messages: at 100 i + 10 task 1 posts an MPI_Isend (value 3) that task
// 2, in MPI_Recv (value 2) since 100 i + 5, receives at once; task 1 completes it in an
// MPI_Wait (value 5) at [100 i + 20, 100 i + 30]; every 1000th round both meet in an
// MPI_Barrier (value 8) at [100 i + 50, 100 i + 60].
std::string LongExchange(int n) {
  std::string s = fmt::format("#Paraver (01/01/24 at 00:00):{}_ns:1(2):1:2(1:1,1:1)\n", n * 100);
  s += fmt::format("1:1:1:1:1:0:{}:1\n1:2:1:2:1:0:{}:1\n", n * 100, n * 100);
  for (int i = 0; i < n; ++i) {
    const int t = 100 * i;
    s += fmt::format("2:2:1:2:1:{}:50000001:2\n", t + 5);
    s += fmt::format("2:1:1:1:1:{}:50000001:3\n2:1:1:1:1:{}:50000001:0\n", t + 10, t + 10);
    s += fmt::format("3:1:1:1:1:{0}:{0}:2:1:2:1:{0}:{0}:64:1\n", t + 10);
    s += fmt::format("2:2:1:2:1:{}:50000001:0\n", t + 10);
    s += fmt::format("2:1:1:1:1:{}:50000001:5\n2:1:1:1:1:{}:50000001:0\n", t + 20, t + 30);
    if (i % 1000 == 0)
      for (int task = 1; task <= 2; ++task)
        s += fmt::format("2:{0}:1:{0}:1:{1}:50000002:8\n2:{0}:1:{0}:1:{2}:50000002:0\n", task,
                         t + 50, t + 60);
  }
  return s;
}

// The operations are generated a block of events at a time, from a plain or a compact store:
// with calls that span blocks, both replay alike.
TEST(ReplayEngine, ACompactStoreReplaysAsThePlainOneAcrossBlocks) {
  constexpr int kRounds = 9000;  // task 1: 36 k events, three blocks
  const io::PrvTrace plain = ParseTrace(LongExchange(kRounds));
  io::PrvTrace compact = ParseTrace(LongExchange(kRounds));
  compact.store.Compact(0, 1);
  ASSERT_GT(plain.store.EventCount(model::ThreadIndex(0)), 2 * store::compact::kBlockRecords);
  auto a = Replay(plain, IdealMachine());
  auto b = Replay(compact, IdealMachine());
  ASSERT_TRUE(a.sim.ok()) << a.sim.status().ToString();
  ASSERT_TRUE(b.sim.ok()) << b.sim.status().ToString();
  // The computation is the time outside MPI calls: task 1 spends 10 per round in its Wait,
  // task 2 5 in its Recv, both 10 per barrier. Calls take no time on the ideal machine.
  EXPECT_DOUBLE_EQ(a.sim->compute[0], kRounds * 90.0 - kRounds / 1000 * 10);
  EXPECT_DOUBLE_EQ(a.sim->compute[1], kRounds * 95.0 - kRounds / 1000 * 10);
  EXPECT_LT(a.sim->runtime, kRounds * 100.0);
  EXPECT_EQ(a.program.messages, static_cast<uint64_t>(kRounds));
  EXPECT_EQ(a.program.processes[0].mpi_calls, 2u * kRounds + kRounds / 1000);
  EXPECT_EQ(a.sim->operations, b.sim->operations);
  EXPECT_EQ(a.sim->end, b.sim->end);
  EXPECT_EQ(a.sim->compute, b.sim->compute);
  EXPECT_TRUE(a.sim->diagnostics.entries().empty());
  EXPECT_TRUE(b.sim->diagnostics.entries().empty());
  for (size_t p = 0; p < 2; ++p) {
    const std::vector<Anchor>& x = a.program.processes[p].anchors;
    const std::vector<Anchor>& y = b.program.processes[p].anchors;
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].original, y[i].original);
      EXPECT_DOUBLE_EQ(x[i].replayed, y[i].replayed);
    }
    // Two anchors per call, one at 0 and one at the end.
    EXPECT_EQ(x.size(), 2 * a.program.processes[p].mpi_calls + 2);
  }
  // Without anchors the replay is the same, and holds none.
  Program lean = BuildProgram(compact.header, compact.store, nullptr, {true, 1, false});
  auto c = Simulate(lean, IdealMachine(), 1e9, compact.header);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->end, b.sim->end);
  EXPECT_TRUE(lean.processes[0].anchors.empty());
}

TEST(ReplayEngine, TraceWithoutMpiHasNoProcesses) {
  io::PrvTrace t =
      ParseTrace("#Paraver (01/01/24 at 00:00):10_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:10:1\n");
  Program p = BuildProgram(t.header, t.store, nullptr, {});
  EXPECT_TRUE(p.processes.empty());
  EXPECT_EQ(p.process_of_thread[0], -1);
}

}  // namespace
}  // namespace parallax::replay
