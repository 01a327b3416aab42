// Flows of the trace-event format on hand-made files written into a scratch folder: the first
// form (s, t and f events sharing cat, name and id) and the newer one (bind_id with flow_out,
// flow_in or both on a B or X slice), both read as Perfetto's JSON importer and flow tracker
// read them. Every flow half that does not become part of a communication is counted.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "src/io/json/json_trace.h"
#include "tests/unit/scratch_folder.h"

namespace parallax::io {
namespace {

using model::Time;

Result<ImportedTrace> Read(const std::string& text) {
  test::ScratchFolder dir;
  return ReadJsonTrace(dir.Write("flows.json", text));
}

// (sender, receiver, send, receive) of every communication, sorted.
std::vector<std::tuple<uint32_t, uint32_t, Time, Time>> Comms(const ImportedTrace& t) {
  std::vector<std::tuple<uint32_t, uint32_t, Time, Time>> out;
  const auto& c = t.prv.store.comms();
  for (size_t i = 0; i < c.rows(); ++i) out.emplace_back(c.sender[i], c.receiver[i], c.log_send[i], c.log_recv[i]);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint64_t> Lines(const Diagnostics& d, DiagKind kind) {
  std::vector<uint64_t> out;
  for (const auto& e : d.examples(kind)) out.push_back(e.line);
  std::sort(out.begin(), out.end());
  return out;
}

// Threads: pid 1 tid 1 is 0, pid 1 tid 2 is 1, pid 2 tid 1 is 2. A bind_id is a number or a
// hexadecimal string, as Perfetto reads it ("0x10" and 16 are one flow).
TEST(JsonFlows, BindIdFlowsAreCommunications) {
  auto r = Read(R"([
{"ph":"X","name":"post","pid":1,"tid":1,"ts":1,"dur":2,"bind_id":"0x10","flow_out":true},
{"ph":"B","name":"relay","pid":1,"tid":2,"ts":5,"bind_id":16,"flow_in":true,"flow_out":true},
{"ph":"E","pid":1,"tid":2,"ts":6},
{"ph":"X","name":"run","pid":2,"tid":1,"ts":8,"dur":1,"bind_id":16,"flow_in":true},
{"ph":"X","name":"run again","pid":2,"tid":1,"ts":9,"dur":1,"bind_id":16,"flow_in":true},
{"ph":"X","name":"lost","pid":2,"tid":1,"ts":10,"dur":1,"bind_id":99,"flow_in":true},
{"ph":"X","name":"aimless","pid":2,"tid":1,"ts":12,"dur":1,"bind_id":5},
{"ph":"X","name":"bad id","pid":2,"tid":1,"ts":13,"dur":1,"bind_id":"zz","flow_out":true},
{"ph":"X","name":"no id","pid":2,"tid":1,"ts":14,"dur":1,"flow_out":true},
{"ph":"X","name":"unfinished","pid":1,"tid":1,"ts":15,"dur":1,"bind_id":7,"flow_out":true},
{"ph":"B","name":"w","pid":1,"tid":1,"ts":19},
{"ph":"E","pid":1,"tid":1,"ts":20,"bind_id":3,"flow_in":true}
])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // post -> relay (a step: it ends the flow and starts it again) -> run, and run again: a
  // flow_in does not close the flow (Perfetto draws both arrows).
  EXPECT_EQ(Comms(*r), (std::vector<std::tuple<uint32_t, uint32_t, Time, Time>>{
                           {0, 1, 1000, 5000}, {1, 2, 5000, 8000}, {1, 2, 5000, 9000}}));
  // Lines 7 (in without out), 8 (no direction), 9 (bind_id not a number), 10 (direction
  // without bind_id), 11 (never ended).
  const Diagnostics& d = r->prv.diagnostics;
  EXPECT_EQ(Lines(d, DiagKind::kUnmatchedFlow), (std::vector<uint64_t>{7, 8, 9, 10, 11}));
  // A binding on an E is not read, as in Perfetto: counted.
  EXPECT_EQ(Lines(d, DiagKind::kUnsupportedRecord), (std::vector<uint64_t>{13}));
  // The slices stay slices.
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(2)).states.size(), 6u);
}

// The first form: a t step ends the flow at the step and starts it again from there, as
// Perfetto's flow tracker steps; f may come before its s in time (a Paraver receive logged
// before its send), and an id reused once its flow has ended starts another flow.
TEST(JsonFlows, FlowStepsAndReusedIds) {
  auto r = Read(R"([
{"ph":"s","name":"msg","cat":"c","id":7,"pid":1,"tid":1,"ts":3},
{"ph":"t","name":"msg","cat":"c","id":7,"pid":1,"tid":2,"ts":4},
{"ph":"f","name":"msg","cat":"c","id":7,"pid":2,"tid":1,"ts":5,"bp":"e"},
{"ph":"f","name":"back","cat":"c","id":1,"pid":1,"tid":1,"ts":6},
{"ph":"s","name":"back","cat":"c","id":1,"pid":2,"tid":1,"ts":7},
{"ph":"s","name":"msg","cat":"c","id":7,"pid":2,"tid":1,"ts":8},
{"ph":"f","name":"msg","cat":"c","id":7,"pid":1,"tid":1,"ts":9},
{"ph":"t","name":"msg","cat":"c","id":8,"pid":1,"tid":1,"ts":10}
])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Comms(*r), (std::vector<std::tuple<uint32_t, uint32_t, Time, Time>>{
                           {0, 1, 3000, 4000}, {1, 2, 4000, 5000}, {2, 0, 7000, 6000}, {2, 0, 8000, 9000}}));
  // The step of id 8 has no start: its incoming half is counted, its outgoing one never ends.
  EXPECT_EQ(Lines(r->prv.diagnostics, DiagKind::kUnmatchedFlow), (std::vector<uint64_t>{9, 9}));
}

}  // namespace
}  // namespace parallax::io
