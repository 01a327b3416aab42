// The trace-event JSON reader against speedscope's sample files (tests/data/json): the states,
// slice events and diagnostics each file must give under the mapping of docs/formats.md, which
// follows Perfetto's handling of unbalanced and unterminated input.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/io/json/json_trace.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;
using model::Time;

std::string ReadData(const std::string& name) {
  std::ifstream in(std::string(PARALLAX_TEST_DATA) + "/json/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<ImportedTrace> Load(const std::string& name) { return ParseJsonTrace(ReadData(name), name); }

struct StateRow {
  Time begin, end;
  std::string name;
  friend bool operator==(const StateRow&, const StateRow&) = default;
};
std::ostream& operator<<(std::ostream& os, const StateRow& s) {
  return os << s.name << "[" << s.begin << "," << s.end << ")";
}

std::vector<StateRow> States(const ImportedTrace& t, uint32_t thread = 0) {
  std::vector<StateRow> out;
  const auto& st = t.prv.store.thread(ThreadIndex(thread)).states;
  for (size_t i = 0; i < st.size(); ++i) {
    const std::string* l = t.pcf.StateLabel(st.state[i]);
    out.push_back({st.begin[i], st.end[i], l ? *l : "?"});
  }
  return out;
}

// (time, value label or "end") of the slice events of a thread.
std::vector<std::pair<Time, std::string>> SliceEvents(const ImportedTrace& t, uint32_t thread = 0) {
  std::vector<std::pair<Time, std::string>> out;
  const auto& ev = t.prv.store.thread(ThreadIndex(thread)).events;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.type[i] != kSliceEventType) continue;
    const std::string* l = t.pcf.EventValueLabel(kSliceEventType, ev.value[i]);
    out.emplace_back(ev.time[i], ev.value[i] == 0 ? "end" : (l ? *l : "?"));
  }
  return out;
}

const std::vector<StateRow> kSimpleStates = {
    {0, 1000, "alpha"}, {1000, 2000, "beta"}, {2000, 7000, "gamma"}, {7000, 13000, "beta"}, {13000, 14000, "alpha"}};

TEST(JsonReader, SimpleNestingGivesTheInnermostSliceAsState) {
  auto r = Load("simple.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->prv.header.unit, model::TimeUnit::kNs);
  EXPECT_EQ(r->prv.header.processes.threads(), 1u);
  EXPECT_EQ(States(*r), kSimpleStates);
  using E = std::pair<Time, std::string>;
  EXPECT_EQ(SliceEvents(*r), (std::vector<E>{{0, "alpha"}, {1000, "beta"}, {2000, "gamma"}, {7000, "end"},
                                              {13000, "end"}, {14000, "end"}}));
  // "epsilon" is an X event with "tdur" but no "dur": Perfetto rejects it, so do we, located.
  ASSERT_EQ(r->prv.diagnostics.count(DiagKind::kSyntax), 1u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kSyntax)[0].line, 5u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kSyntax)[0].column, 3u);
  EXPECT_EQ(r->prv.store.end_time(), 14000u);
}

TEST(JsonReader, UnterminatedArraysAreAcceptedAndCounted) {
  for (const char* name : {"simple-partial.json", "simple-partial-trailing-comma.json", "simple-partial-whitespace.json"}) {
    SCOPED_TRACE(name);
    auto r = Load(name);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(States(*r), kSimpleStates);
    EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnterminatedInput), 1u);
    EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kTruncatedLastLine), 0u);
  }
  auto whole = Load("simple.json");
  EXPECT_EQ(whole->prv.diagnostics.count(DiagKind::kUnterminatedInput), 0u);
}

TEST(JsonReader, ObjectFormWithTraceEvents) {
  auto r = Load("simple-object.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(r->prv.store.state_records(), 0u);
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnterminatedInput), 0u);
}

TEST(JsonReader, TooManyEndEventsAreUnmatchedByName) {
  auto r = Load("too-many-end-events.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 1000, "alpha"}, {1000, 13000, "beta"}, {13000, 14000, "alpha"}}));
  ASSERT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedEnd), 2u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kUnmatchedEnd)[0].line, 6u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kUnmatchedEnd)[1].line, 7u);
}

TEST(JsonReader, EndOfAnOuterSliceLeavesTheInnerOneOpen) {
  auto r = Load("unbalanced-name.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 1000, "alpha"}, {1000, 10000, "beta"}}));
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kEndNotInnermost), 1u);
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedEnd), 0u);
  using E = std::pair<Time, std::string>;
  EXPECT_EQ(SliceEvents(*r), (std::vector<E>{{0, "alpha"}, {1000, "beta"}, {9000, "end"}, {10000, "end"}}));
}

TEST(JsonReader, MismatchedEndNameIsUnmatchedAndTheBeginIsClosedAtTheEnd) {
  auto r = Load("mismatched-name.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 10000, "alpha"}}));
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedEnd), 1u);
  ASSERT_EQ(r->prv.diagnostics.count(DiagKind::kUnclosedBegin), 1u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kUnclosedBegin)[0].line, 2u);
}

TEST(JsonReader, OnlyBeginEventsAreClosedAtTheTraceEnd) {
  auto r = Load("only-begin-events.json");
  ASSERT_TRUE(r.ok());
  EXPECT_GE(r->prv.diagnostics.count(DiagKind::kUnclosedBegin), 1u);
  const auto& st = r->prv.store.thread(ThreadIndex(0)).states;
  ASSERT_GT(st.size(), 0u);
  EXPECT_EQ(st.end.back(), r->prv.store.end_time());
}

TEST(JsonReader, OverlappingCompleteEventIsSkipped) {
  auto r = Load("invalid-x-nesting.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 10000, "alpha"}}));
  ASSERT_EQ(r->prv.diagnostics.count(DiagKind::kOverlappingSlice), 1u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kOverlappingSlice)[0].line, 3u);
}

TEST(JsonReader, CompleteEventsAreSortedByTimeBeforeNesting) {
  auto r = Load("x-events-matching-end.json");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 1000, "alpha"},      {1000, 2000, "beta"},   {2000, 3000, "gamma"},
                                               {3000, 5000, "alpha"},   {5000, 6000, "gamma"},  {6000, 7000, "beta"},
                                               {7000, 9000, "alpha"},   {9000, 10000, "beta"},  {10000, 11000, "gamma"},
                                               {11000, 14000, "alpha"}, {14000, 15000, "gamma"}, {15000, 16000, "beta"},
                                               {16000, 20000, "alpha"}}));
  EXPECT_EQ(r->prv.diagnostics.problems(), 0u);
}

TEST(JsonReader, ZeroDurationSlicesGiveEventsButNoState) {
  auto r = Load("zero-duration-events.json");
  ASSERT_TRUE(r.ok());
  // B at 1 ended at 1, "C" ended at 2 before it begins (unmatched), C begun at 2 never ended
  // inside A... A's end at 10 closes A, which is not the innermost (C stays open to the end).
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 2000, "A"}, {2000, 10000, "C"}}));
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedEnd), 1u);
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kEndNotInnermost), 1u);
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnclosedBegin), 1u);
}

TEST(JsonReader, ProcessesAndThreadsWithTheirMetadataNames) {
  auto r = Load("multiprocess.json");
  ASSERT_TRUE(r.ok());
  const auto& pm = r->prv.header.processes;
  EXPECT_EQ(pm.appls(), 1u);
  EXPECT_EQ(pm.tasks(), 4u);
  EXPECT_EQ(pm.threads(), 8u);
  ASSERT_TRUE(r->row.has_value());
  EXPECT_EQ(*r->row->Labels(model::Level::kTask), (std::vector<std::string>{"p0", "p1", "pid 2", "p3"}));
  EXPECT_EQ(*r->row->Labels(model::Level::kThread),
            (std::vector<std::string>{"p0t0", "p0t1", "p1t0", "p1t1", "p2t0", "p2t1", "pid 3 tid 0", "pid 3 tid 1"}));
  EXPECT_EQ(States(*r, 7), (std::vector<StateRow>{{0, 1000, "eta"}}));
}

TEST(JsonReader, CountersInstantsAndFlows) {
  std::string text = R"([
{"ph":"C","name":"mem","pid":1,"tid":1,"ts":1,"args":{"heap":10.6,"rss":"x"}},
{"ph":"i","name":"mark","pid":1,"tid":1,"ts":2,"s":"t"},
{"ph":"s","name":"msg","cat":"c","id":7,"pid":1,"tid":1,"ts":3},
{"ph":"t","name":"msg","cat":"c","id":7,"pid":1,"tid":2,"ts":4},
{"ph":"f","name":"msg","cat":"c","id":7,"pid":1,"tid":2,"ts":5,"bp":"e"},
{"ph":"f","name":"msg","cat":"c","id":8,"pid":1,"tid":2,"ts":6},
{"ph":"P","name":"sample","pid":1,"tid":1,"ts":6}
])";
  auto r = ParseJsonTrace(text, "inline.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& ev = r->prv.store.thread(ThreadIndex(0)).events;
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev.type[0], kCounterEventTypeBase);
  EXPECT_EQ(ev.value[0], 11);  // rounded; the string series is not a number and is ignored
  EXPECT_EQ(*r->pcf.EventTypeLabel(kCounterEventTypeBase), "Counter mem.heap");
  EXPECT_EQ(ev.type[1], kInstantEventType);
  EXPECT_EQ(*r->pcf.EventValueLabel(kInstantEventType, ev.value[1]), "mark");
  // The t step ends the flow and starts it again (Perfetto's flow tracker): s -> t -> f.
  const auto& c = r->prv.store.comms();
  ASSERT_EQ(c.rows(), 2u);
  EXPECT_EQ(c.sender[0], 0u);
  EXPECT_EQ(c.receiver[0], 1u);
  EXPECT_EQ(c.log_send[0], 3000u);
  EXPECT_EQ(c.log_recv[0], 4000u);
  EXPECT_EQ(c.sender[1], 1u);
  EXPECT_EQ(c.receiver[1], 1u);
  EXPECT_EQ(c.log_send[1], 4000u);
  EXPECT_EQ(c.log_recv[1], 5000u);
  ASSERT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedFlow), 1u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kUnmatchedFlow)[0].line, 7u);
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnsupportedRecord), 1u);  // the P sample
}

TEST(JsonReader, MalformedEventsAreLocatedAndSkipped) {
  std::string text = "[\n{\"ph\":\"B\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0},\n"
                     "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,,},\n"
                     "  42,\n"
                     "{\"ph\":\"B\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":-5},\n"
                     "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3},\n"
                     "{\"ph\":\"B\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":4";
  auto r = ParseJsonTrace(text, "bad.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& d = r->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kSyntax), 2u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, 3u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[1].line, 4u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[1].column, 3u);
  EXPECT_EQ(d.count(DiagKind::kNegativeTime), 1u);
  ASSERT_EQ(d.count(DiagKind::kTruncatedLastLine), 1u);
  EXPECT_EQ(d.examples(DiagKind::kTruncatedLastLine)[0].line, 7u);
  EXPECT_EQ(States(*r), (std::vector<StateRow>{{0, 3000, "a"}}));
}

TEST(JsonReader, NotJsonIsAClearError) {
  auto r = ParseJsonTrace("\n  hello", "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 2u);
  EXPECT_EQ(r.status().where().column, 3u);
  auto empty = ParseJsonTrace("[]", "e.json");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("no event"), std::string::npos);
}

// Every prefix of a real file is either read or refused with a located error; none crashes.
TEST(JsonReader, EveryPrefixOfARealFileIsHandled) {
  std::string text = ReadData("bex-interaction.json");
  for (size_t n = 0; n <= text.size(); ++n) {
    auto r = ParseJsonTrace(std::string_view(text).substr(0, n), "prefix.json");
    if (!r.ok()) EXPECT_FALSE(r.status().message().empty());
  }
}

}  // namespace
}  // namespace parallax::io
