#include "src/io/prv/prv_reader.h"

#include <gtest/gtest.h>

#include "tests/unit/io/prv_test_util.h"

namespace parallax::io {
namespace {

using testing::Parse;
using testing::kTraceT;
using model::ThreadIndex;

const store::ThreadRecords& Thread(const PrvTrace& t, uint32_t i) { return t.store.thread(ThreadIndex(i)); }

TEST(PrvReader, TraceTOfTheSpec) {
  auto r = Parse(kTraceT);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PrvTrace& t = r.value();
  EXPECT_EQ(t.header.unit, model::TimeUnit::kNs);
  EXPECT_EQ(t.store.end_time(), 1000u);
  EXPECT_EQ(t.header.resources.cpus(), 2u);
  EXPECT_EQ(t.header.processes.threads(), 2u);
  const auto& t0 = Thread(t, 0);
  EXPECT_EQ(t0.states.begin, (std::vector<model::Time>{0, 200, 300, 800}));
  EXPECT_EQ(t0.states.end, (std::vector<model::Time>{200, 300, 700, 1000}));
  EXPECT_EQ(t0.states.state, (std::vector<uint32_t>{1, 3, 1, 1}));
  EXPECT_EQ(t0.events.time, (std::vector<model::Time>{0, 250, 500, 500}));
  EXPECT_EQ(t0.events.type, (std::vector<uint32_t>{50000001, 50000001, 50000002, 50000003}));
  EXPECT_EQ(t0.events.value, (std::vector<int64_t>{31, 0, 7, 9}));
  EXPECT_EQ(t0.events.cpu, (std::vector<uint16_t>{1, 1, 1, 1}));
  const auto& t1 = Thread(t, 1);
  EXPECT_EQ(t1.states.state, (std::vector<uint32_t>{1, 3, 1}));
  EXPECT_EQ(t1.states.cpu, (std::vector<uint16_t>{2, 2, 2}));
  const auto& c = t.store.comms();
  ASSERT_EQ(c.rows(), 1u);
  EXPECT_EQ(c.sender[0], 0u);
  EXPECT_EQ(c.receiver[0], 1u);
  EXPECT_EQ(c.log_send[0], 210u);
  EXPECT_EQ(c.phy_send[0], 215u);
  EXPECT_EQ(c.log_recv[0], 590u);
  EXPECT_EQ(c.phy_recv[0], 600u);
  EXPECT_EQ(c.size[0], 1024);
  EXPECT_EQ(c.tag[0], 77);
  EXPECT_EQ(t0.sent, (std::vector<uint32_t>{0}));
  EXPECT_EQ(t1.received, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(t0.received.empty());
  EXPECT_EQ(t.diagnostics.problems(), 0u);
  // Per-cpu view: cpu 1 holds thread 0's records, cpu 2 thread 1's.
  const auto& view = t.store.cpu_view();
  ASSERT_EQ(view.state_runs.size(), 2u);
  ASSERT_EQ(view.state_runs[0].size(), 1u);
  EXPECT_EQ(view.state_runs[0][0].thread, 0u);
  EXPECT_EQ(view.state_runs[0][0].last, 4u);
  EXPECT_EQ(view.state_runs[1][0].thread, 1u);
}

TEST(PrvReader, HeaderOfSection24) {
  auto r = Parse(
      "#Paraver (01/02/2024 at 10:30):1000000_ns:2(2,2):1:2(2:1,2:2),1\n"
      "c:1:1:2:1:2\n"
      "1:3:1:2:1:0:100:1\n"
      "1:1:1:2:1:0:100:1\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& h = r->header;
  EXPECT_EQ(h.date, "01/02/2024 at 10:30");
  EXPECT_EQ(h.end_time, 1000000u);
  EXPECT_EQ(h.resources.nodes(), 2u);
  EXPECT_EQ(h.resources.cpus(), 4u);
  EXPECT_EQ(h.processes.threads(), 4u);
  EXPECT_EQ(h.communicators, (std::vector<std::string>{"c:1:1:2:1:2"}));
  EXPECT_EQ(model::DefaultCpuLabel(h.resources, model::CpuId(3)), "2.1");
  EXPECT_EQ(model::ThreadName(h.processes, ThreadIndex(3)), "THREAD 1.2.2");
  // CPU 3 is on node 2 where task 1.2 runs: accepted. CPU 1 is on node 1: rejected.
  EXPECT_EQ(Thread(*r, 2).states.size(), 1u);
  EXPECT_EQ(r->diagnostics.count(DiagKind::kCpuWrongNode), 1u);
  ASSERT_EQ(r->diagnostics.examples(DiagKind::kCpuWrongNode).size(), 1u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kCpuWrongNode)[0].line, 4u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kCpuWrongNode)[0].detail,
            "cpu 1 is on node 1 but task 1.2 runs on node 2");
}

// A communicator line keeps no trailing '\r': with one kept, a read and write cycle lost one
// (the fuzz target's round trip found it; tests/fuzz/corpus/prv/comm-line-round-trip.prv).
TEST(PrvReader, CommunicatorLinesLoseEveryTrailingCarriageReturn) {
  auto r = Parse(
      "#Paraver (01/02/2024 at 10:30):100:1(1):1:1(1:1),2\n"
      "c:1:1:1:1\r\r\r\n"
      "c:1:2:1:1\r\n"
      "1:1:1:1:1:0:100:1\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->header.communicators, (std::vector<std::string>{"c:1:1:1:1", "c:1:2:1:1"}));
}

TEST(PrvReader, OtherValidHeaders) {
  auto us = Parse("#Paraver (12/05/23 at 09:00):5000:1(4):1:4(1:1,1:1,1:1,1:1)\n1:4:1:4:1:0:10:1\n");
  ASSERT_TRUE(us.ok()) << us.status().ToString();
  EXPECT_EQ(us->header.unit, model::TimeUnit::kUs);
  EXPECT_FALSE(us->header.has_comm_count);
  EXPECT_EQ(us->header.processes.tasks(), 4u);

  auto none = Parse("#Paraver (12/05/23 at 09:00):5000_ns:0:1:2(1:0,1:0)\n1:0:1:2:1:0:10:1\n1:1:1:1:1:0:10:1\n");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->header.resources.empty());
  EXPECT_EQ(Thread(*none, 1).states.size(), 1u);
  EXPECT_EQ(none->diagnostics.count(DiagKind::kCpuOutOfRange), 1u);

  auto bare = Parse("#Paraver (x):100:2:1:1(1:1)\n1:1:1:1:1:0:10:1\n");
  ASSERT_TRUE(bare.ok()) << bare.status().ToString();
  EXPECT_EQ(bare->header.resources.nodes(), 2u);
  EXPECT_EQ(bare->header.resources.cpus(), 2u);
  EXPECT_TRUE(bare->header.resources_bare);

  auto other_unit = Parse("#Paraver (x):100_xx:1(1):2:1(1:1),1(1:1)\n1:1:2:1:1:0:10:1\n");
  ASSERT_TRUE(other_unit.ok()) << other_unit.status().ToString();
  EXPECT_EQ(other_unit->header.unit, model::TimeUnit::kUs);
  EXPECT_EQ(other_unit->header.unit_suffix, "_xx");
  EXPECT_EQ(other_unit->header.appl_separator, ',');
  EXPECT_EQ(other_unit->header.processes.appls(), 2u);
  EXPECT_EQ(Thread(*other_unit, 1).states.size(), 1u);
}

// Every header form Paraver's own reader accepts, one per case: lists closed after a trailing
// ',' (Dimemas 5.4.2 writes "2(1,1,)" and "2(1:1,1:2,)"), blanks before numbers, a ',' with no
// communicator count after it, ':' between applications.
TEST(PrvReader, HeaderFormsParaverAccepts) {
  struct Form {
    const char* header;
    uint32_t nodes, cpus, tasks;
  };
  const Form forms[] = {
      {"#Paraver (x):100_ns:2(1,1,):1:2(1:1,1:2)", 2, 2, 2},
      {"#Paraver (x):100_ns:2(1,1):1:2(1:1,1:2,)", 2, 2, 2},
      {"#Paraver (x):100_ns:2(1,1,):1:2(1:1,1:2,),0", 2, 2, 2},
      {"#Paraver (x):100_ns:2( 1, 1):1: 2(1: 1,1:2)", 2, 2, 2},
      {"#Paraver (x):100_ns:2(1,1):1:2(1:1,1:2),", 2, 2, 2},
      {"#Paraver (x):100_ns:2(1,1):2:1(1:1):1(1:2)", 2, 2, 2},
  };
  for (const Form& f : forms) {
    auto r = Parse(std::string(f.header) + "\n1:1:1:1:1:0:10:1\n");
    ASSERT_TRUE(r.ok()) << f.header << " -> " << r.status().ToString();
    EXPECT_EQ(r->header.resources.nodes(), f.nodes) << f.header;
    EXPECT_EQ(r->header.resources.cpus(), f.cpus) << f.header;
    EXPECT_EQ(r->header.processes.tasks(), f.tasks) << f.header;
    EXPECT_TRUE(r->header.communicators.empty()) << f.header;
  }
}

struct BadHeader {
  const char* text;
  uint64_t line, column;
  const char* message_part;
};

TEST(PrvReader, MalformedHeadersAreFatalAndLocated) {
  const BadHeader cases[] = {
      {"", 1, 1, "empty file"},
      {"Paraver (x):10:1(1):1:1(1:1)\n", 1, 1, "expected '#Paraver'"},
      {"#Paraver x):10:1(1):1:1(1:1)\n", 1, 10, "expected '(' before the date"},
      {"#Paraver (x:10\n", 1, 11, "expected ')' closing the date"},
      {"#Paraver (x):abc:1(1):1:1(1:1)\n", 1, 14, "expected the trace end time"},
      {"#Paraver (x):10:1(1:1:1(1:1)\n", 1, 20, "expected ')' after the last cpu count"},
      {"#Paraver (x):10:1(1):0:1(1:1)\n", 1, 22, "at least one application"},
      {"#Paraver (x):10:1(1):1:0(1:1)\n", 1, 24, "at least one task"},
      {"#Paraver (x):10:1(1):1:1(0:1)\n", 1, 26, "at least one thread"},
      {"#Paraver (x):10:1(1):1:1(1:2)\n", 1, 28, "runs on node 2"},
      {"#Paraver (x):10:1(1):1:1(1:0)\n", 1, 28, "runs on node 0"},
      {"#Paraver (x):10:1(1):1:2(1:1)\n", 1, 29, "expected ',' between tasks"},
      {"#Paraver (x):10:1(1):1:1(1:1),x\n", 1, 31, "number of communicator lines"},
      {"#Paraver (x):10:1(1):1:1(1:1),2\nc:1\n", 3, 1,
       "communicator line 2 of 2, found end of file"},
      {"#Paraver (x):10:1(1):1:1(1:1),1\n1:1:1:1:1:0:10:1\n", 2, 1, "bad communicator line"},
      {"new format\n#Paraver (x):10:1(1):1:1(1:1)\n", 1, 1, "new format"},
      {"#Paraver (x):10:1(1):1:1(1:1)\n", 0, 0, "empty body"},
      // Every record rejected: located at the first rejected record.
      {"#Paraver (x):10:1(1):1:1(1:1)\n1:1:1:1:9:0:10:1\n", 2, 3, "thread 1.1.9 is not declared"},
      {"#Paraver (x):99999999999999999999:1(1):1:1(1:1)\n", 1, 14, "fits in 64 bits"},
  };
  for (const auto& c : cases) {
    auto r = Parse(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    const Status& s = r.status();
    EXPECT_NE(s.message().find(c.message_part), std::string::npos) << c.text << " -> " << s.ToString();
    EXPECT_EQ(s.where().line, c.line) << c.text << " -> " << s.ToString();
    EXPECT_EQ(s.where().column, c.column) << c.text << " -> " << s.ToString();
    EXPECT_EQ(s.where().file, "t.prv");
    EXPECT_FALSE(s.hint().empty()) << c.text;
  }
}

struct BadRecord {
  const char* line;
  DiagKind kind;
  uint64_t column;
  const char* detail_part;
};

TEST(PrvReader, MalformedRecordsAreCountedLocatedAndSkipped) {
  const BadRecord cases[] = {
      {"x:1:1:1:1:0:10:1", DiagKind::kUnknownRecordType, 1, "unknown record type 'x'"},
      {"1;1:1:1:1:0:10:1", DiagKind::kSyntax, 2, "expected ':' after the record type"},
      {"1:1:1:1:1:0:10.5:1", DiagKind::kSyntax, 15, "expected ':' after a number, found '.'"},
      {"1:1:1:1:1:0:10:", DiagKind::kTooFewFields, 16, "before field 'state'"},
      {"1:1:1:1:1:0:10", DiagKind::kTooFewFields, 15, "before field 'state'"},
      {"1:1:1:1:1:0::1", DiagKind::kSyntax, 13, "expected a number, found ':'"},
      {"1:1:1:1:1:-5:10:1", DiagKind::kNegativeTime, 3, "negative time"},
      {"1:1:1:1:1:0:-2:1", DiagKind::kNegativeTime, 3, "negative time"},
      {"1:1:1:1:2:0:10:1", DiagKind::kUnknownObject, 3, "thread 1.1.2 is not declared"},
      {"1:1:2:1:1:0:10:1", DiagKind::kUnknownObject, 3, "thread 2.1.1 is not declared"},
      {"1:5:1:1:1:0:10:1", DiagKind::kCpuOutOfRange, 3, "cpu 5 does not exist"},
      {"1:-1:1:1:1:0:10:1", DiagKind::kSyntax, 3, "negative cpu"},
      {"1:1:1:1:1:0:10:99999999999", DiagKind::kNumberTooLarge, 3, "state must be"},
      {"1:1:1:1:1:0:10:99999999999999999999999", DiagKind::kNumberTooLarge, 16, "64 bits"},
      {"2:1:1:1:1:5", DiagKind::kTooFewFields, 12, "without any type:value pair"},
      {"2:1:1:1:1:5:7", DiagKind::kOddEventPairs, 13, "event type without a value"},
      {"2:1:1:1:1:5:-7:1", DiagKind::kNumberTooLarge, 13, "event type must be"},
      {"2:1:1:1:1:5:7:-99999999999999999999", DiagKind::kNumberTooLarge, 15, "64 bits"},
      {"3:1:1:1:1:10:10:1:1:1:1:20", DiagKind::kTooFewFields, 27, "before field 'physical receive'"},
      {"3:1:1:1:1:10:10:1:1:1:2:20:20:8:1", DiagKind::kUnknownObject, 3, "thread 1.1.2"},
      {"3:1:1:1:1:10:10:1:1:1:1:-20:20:8:1", DiagKind::kNegativeTime, 3, "negative time"},
  };
  for (const auto& c : cases) {
    std::string text = std::string("#Paraver (x):10:1(2):1:1(1:1)\n1:1:1:1:1:0:10:1\n") + c.line + "\n";
    auto r = Parse(text);
    ASSERT_TRUE(r.ok()) << c.line << ": " << r.status().ToString();
    const Diagnostics& d = r->diagnostics;
    EXPECT_EQ(d.count(c.kind), 1u) << c.line;
    EXPECT_EQ(d.problems(), 1u) << c.line;
    ASSERT_EQ(d.examples(c.kind).size(), 1u) << c.line;
    const DiagExample& e = d.examples(c.kind)[0];
    EXPECT_EQ(e.line, 3u) << c.line;
    EXPECT_EQ(e.column, c.column) << c.line << ": " << e.detail;
    EXPECT_NE(e.detail.find(c.detail_part), std::string::npos) << c.line << ": " << e.detail;
    EXPECT_EQ(Thread(*r, 0).states.size(), 1u) << c.line;
    EXPECT_EQ(Thread(*r, 0).events.size(), 0u) << c.line;
    EXPECT_EQ(r->store.comms().rows(), 0u) << c.line;
    // Strict mode turns the same input into a located fatal error.
    auto strict = Parse(text, 0, true);
    ASSERT_FALSE(strict.ok()) << c.line;
    EXPECT_EQ(strict.status().where().line, 3u) << c.line;
  }
}

TEST(PrvReader, OddEventPairsKeepTheCompletePairs) {
  auto r = Parse("#Paraver (x):10:1(1):1:1(1:1)\n2:1:1:1:1:5:7:1:8:2:9\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Thread(*r, 0).events.type, (std::vector<uint32_t>{7, 8}));
  EXPECT_EQ(r->diagnostics.count(DiagKind::kOddEventPairs), 1u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kOddEventPairs)[0].column, 21u);
}

TEST(PrvReader, LinesThatAreNotRecords) {
  auto r = Parse(
      "#Paraver (x):10:1(1):1:1(1:1)\n"
      "# a comment\n"
      "\n"
      "1:1:1:1:1:0:10:1\r\n"
      "4:1:1:1:1:5:1:1:1\n"
      "   \n"
      "2:1:1:1:1:5:7:1");  // no final newline, but complete
  ASSERT_TRUE(r.ok());
  const Diagnostics& d = r->diagnostics;
  EXPECT_EQ(d.count(DiagKind::kCommentLine), 1u);
  EXPECT_EQ(d.count(DiagKind::kBlankLine), 2u);
  EXPECT_EQ(d.count(DiagKind::kGlobalCommSkipped), 1u);
  EXPECT_EQ(d.count(DiagKind::kMissingFinalNewline), 1u);
  // A last line without newline may be a file cut short: a warning, the only problem here.
  EXPECT_EQ(d.problems(), 1u);
  EXPECT_EQ(r->global_comm_lines, 1u);
  EXPECT_EQ(Thread(*r, 0).events.size(), 1u);
  EXPECT_EQ(r->body_lines, 6u);
}

TEST(PrvReader, TruncatedLastLineIsReported) {
  auto r = Parse("#Paraver (x):10:1(1):1:1(1:1)\n1:1:1:1:1:0:10:1\n1:1:1:1:1:10:2");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->diagnostics.count(DiagKind::kTruncatedLastLine), 1u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kTruncatedLastLine)[0].line, 3u);
  EXPECT_EQ(Thread(*r, 0).states.size(), 1u);
}

TEST(PrvReader, TraceEndIsTheLatestStateOrEventNotComm) {
  auto r = Parse(
      "#Paraver (x):1000:1(2):1:2(1:1,1:1)\n"
      "1:1:1:1:1:900:1200:1\n"
      "3:1:1:1:1:10:10:2:1:2:1:5000:5000:8:1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->store.end_time(), 1200u);
  EXPECT_EQ(r->header.end_time, 1000u);
}

// A states-only load keeps the states of a full load and nothing else; event lines give their
// time to the trace end when their location and time read; neither they nor communication lines
// are checked, while a malformed state line is still reported. Every chunk size gives the same.
TEST(PrvReader, StatesOnlyKeepsTheStatesAndTheEventTimes) {
  const std::string text = std::string(kTraceT) +
                           "2:1:1:1:1:1500:5:5\n"   // past the header end: the trace end
                           "2:1:1:1:1:x:5:5\n"      // malformed: not reported
                           "2:1:9:1:1:2000:1:1\n"   // no such object: its time does not count
                           "2:1:1:1:1:1800\n"       // no pair: its time does not count
                           "2:1:1:1:1:1900:5:x\n"   // a bad value: rejected, does not count
                           "2:1:1:1:1:1700:5:6:7\n" // an odd type after a pair: kept, counts
                           "3:garbage\n"
                           "1:1:1:1:1:x\n";         // malformed state: reported
  auto full = Parse(text);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->store.end_time(), 1700u);
  EXPECT_GT(full->diagnostics.count(DiagKind::kUnknownObject), 0u);
  for (size_t chunk = 1; chunk < text.size() + 2; ++chunk) {
    SCOPED_TRACE(chunk);
    PrvReadOptions o;
    o.chunk_bytes = chunk;
    o.threads = 2;
    o.states_only = true;
    auto r = ParsePrv(text, "t.prv", o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (uint32_t i = 0; i < 2; ++i) {
      EXPECT_EQ(Thread(*r, i).states.begin, Thread(*full, i).states.begin);
      EXPECT_EQ(Thread(*r, i).states.end, Thread(*full, i).states.end);
      EXPECT_EQ(Thread(*r, i).states.state, Thread(*full, i).states.state);
      EXPECT_EQ(Thread(*r, i).events.size(), 0u);
    }
    EXPECT_EQ(r->store.comms().rows(), 0u);
    EXPECT_EQ(r->store.end_time(), 1700u);
    EXPECT_EQ(r->passed_over_lines, 3u + 1u + 6u + 1u);
    EXPECT_EQ(r->event_lines, 0u);
    EXPECT_EQ(r->diagnostics.count(DiagKind::kSyntax), 1u);
    EXPECT_EQ(r->diagnostics.count(DiagKind::kUnknownObject), 0u);
    EXPECT_EQ(r->diagnostics.count(DiagKind::kTooFewFields), 0u);
  }
}

// A trace without states loads states-only all the same (records were there), with nothing in
// it but its end; a body of nothing but malformed state lines is still an error.
TEST(PrvReader, StatesOnlyOfATraceWithoutStates) {
  PrvReadOptions o;
  o.threads = 2;
  o.states_only = true;
  auto r = ParsePrv("#Paraver (x):1000:1(2):1:2(1:1,1:1)\n2:1:1:1:1:1500:5:5\n", "t.prv", o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->store.state_records() + r->store.event_records(), 0u);
  EXPECT_EQ(r->store.end_time(), 1500u);
  EXPECT_FALSE(ParsePrv("#Paraver (x):1000:1(2):1:2(1:1,1:1)\n1:1:1:1:1:x\n", "t.prv", o).ok());
}

TEST(PrvReader, OpenEndedStates) {
  auto r = Parse("#Paraver (x):1000:1(1):1:1(1:1)\n1:1:1:1:1:900:-1:1\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Thread(*r, 0).states.end[0], model::kNoEnd);
  EXPECT_EQ(r->store.end_time(), 1000u);
}

TEST(PrvReader, OutOfOrderRecordsAreSortedStablyAndReported) {
  auto r = Parse(
      "#Paraver (x):1000:1(1):1:1(1:1)\n"
      "1:1:1:1:1:500:600:2\n"
      "2:1:1:1:1:500:1:5\n"
      "1:1:1:1:1:0:500:1\n"
      "2:1:1:1:1:100:1:3\n"
      "2:1:1:1:1:500:1:6\n"
      "2:1:1:1:1:100:1:4\n"
      "1:1:1:1:1:700:650:3\n");
  ASSERT_TRUE(r.ok());
  const auto& t = Thread(*r, 0);
  EXPECT_EQ(t.states.begin, (std::vector<model::Time>{0, 500, 700}));
  EXPECT_EQ(t.states.state, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(t.events.time, (std::vector<model::Time>{100, 100, 500, 500}));
  EXPECT_EQ(t.events.value, (std::vector<int64_t>{3, 4, 5, 6}));  // file order among equals
  EXPECT_EQ(r->diagnostics.count(DiagKind::kOutOfOrder), 3u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kOutOfOrder)[0].line, 4u);
  EXPECT_EQ(r->diagnostics.count(DiagKind::kStateEndBeforeBegin), 1u);
  EXPECT_EQ(r->diagnostics.examples(DiagKind::kStateEndBeforeBegin)[0].line, 8u);
}

TEST(PrvReader, EventValuesAboveInt64MaxAndNegative) {
  auto r = Parse(
      "#Paraver (x):1000:1(1):1:1(1:1)\n"
      "2:1:1:1:1:0:7:18446744073709551615:8:-5:9:9223372036854775807\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& t = Thread(*r, 0);
  EXPECT_EQ(static_cast<uint64_t>(t.events.value[0]), 18446744073709551615u);
  EXPECT_EQ(t.events.value[1], -5);
  EXPECT_EQ(t.events.value[2], INT64_MAX);
  EXPECT_EQ(r->unsigned_value_types, (std::vector<uint32_t>{7}));
}

// Fields are read eight digits at a time where the chunk has room and one at a time near its
// end or from 16 digits on: every length from 1 to 20 digits, each followed by ':', by the line's
// end, by blanks or by a bad character, gives the number written, whatever the chunk size.
TEST(PrvReader, NumbersOfEveryLengthReadTheSame) {
  std::string text = "#Paraver (x):1000:1(1):1:1(1:1)\n";
  std::vector<int64_t> want;
  uint64_t v = 0;
  for (int digits = 1; digits <= 20; ++digits) {
    v = v * 10 + static_cast<uint64_t>(digits % 10);  // 1, 12, 123, ... 12345678901234567890
    const std::string n = std::to_string(v);
    const std::string t = std::to_string(digits <= 18 ? v : 999999999999999999u + digits);
    text += "2:1:1:1:1:" + t + ":" + n + ":" + n + "\n";  // a type too large past 10 digits
    text += "2:1:1:1:1:" + t + ":7:" + n + " \r\n";
    text += "2:1:1:1:1:" + t + ":8:-" + n + "\n";
    if (v <= UINT32_MAX) want.push_back(static_cast<int64_t>(v));
    want.push_back(static_cast<int64_t>(v));
    want.push_back(v > static_cast<uint64_t>(INT64_MAX) ? 0 : -static_cast<int64_t>(v));
  }
  text += "2:1:1:1:1:2000000000000000000:9:12x\n";  // a bad character after digits: located at it
  text += "2:1:1:1:1:2000000000000000001:9:1234567890123";  // the last line, without newline, at the chunk's end
  want.push_back(1234567890123);
  for (size_t chunk : {size_t{1} << 20, size_t{7}, size_t{40}}) {
    auto r = Parse(text, chunk);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const auto& values = Thread(*r, 0).events.value;
    // -12345678901234567890 is below INT64_MIN: that line is rejected, not read as 0.
    std::vector<int64_t> expected = want;
    expected.erase(expected.end() - 2);
    EXPECT_EQ(values, expected) << chunk;
    EXPECT_EQ(r->diagnostics.count(DiagKind::kSyntax), 1u) << chunk;
    ASSERT_EQ(r->diagnostics.examples(DiagKind::kSyntax).size(), 1u);
    EXPECT_EQ(r->diagnostics.examples(DiagKind::kSyntax)[0].column, 35u) << chunk;
    EXPECT_EQ(r->diagnostics.count(DiagKind::kNumberTooLarge), 10u + 1u) << chunk;
  }
}

// Perfetto's habit: whatever the chunk size, the result is the same.
TEST(PrvReader, EveryChunkSizeGivesTheSameStore) {
  std::string text = std::string(kTraceT) + "# comment\n\n4:1:1:1:1\n2:2:1:2:1:5:1:1\n1:1:1:1:1:0:10";
  auto whole = Parse(text, 1 << 20);
  ASSERT_TRUE(whole.ok());
  for (size_t chunk = 1; chunk < text.size() + 2; ++chunk) {
    auto r = Parse(text, chunk);
    ASSERT_TRUE(r.ok()) << chunk;
    for (uint32_t i = 0; i < 2; ++i) {
      EXPECT_EQ(Thread(*r, i).states.begin, Thread(*whole, i).states.begin) << chunk;
      EXPECT_EQ(Thread(*r, i).events.value, Thread(*whole, i).events.value) << chunk;
    }
    EXPECT_EQ(r->store.comms().rows(), 1u);
    for (size_t k = 0; k < static_cast<size_t>(DiagKind::kCount); ++k) {
      auto kind = static_cast<DiagKind>(k);
      EXPECT_EQ(r->diagnostics.count(kind), whole->diagnostics.count(kind)) << chunk << " " << DiagKindName(kind);
      if (!whole->diagnostics.examples(kind).empty()) {
        EXPECT_EQ(r->diagnostics.examples(kind)[0].line, whole->diagnostics.examples(kind)[0].line) << chunk;
      }
    }
  }
}

TEST(PrvReader, OutOfOrderAcrossChunks) {
  std::string text =
      "#Paraver (x):1000:1(1):1:1(1:1)\n"
      "1:1:1:1:1:500:600:2\n"
      "1:1:1:1:1:0:500:1\n";
  for (size_t chunk : {1, 5, 20, 1000}) {
    auto r = Parse(text, chunk);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(Thread(*r, 0).states.state, (std::vector<uint32_t>{1, 2})) << chunk;
    EXPECT_EQ(r->diagnostics.count(DiagKind::kOutOfOrder), 1u) << chunk;
    EXPECT_EQ(r->diagnostics.examples(DiagKind::kOutOfOrder)[0].line, 3u) << chunk;
  }
}

}  // namespace
}  // namespace parallax::io
