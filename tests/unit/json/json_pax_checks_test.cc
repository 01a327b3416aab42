// A trace-event file carrying Parallax's own header (otherData.parallax) is checked as a .prv is
// (issue 39): its header by the rules of a .prv header, its records by those of .prv records
// (src/io/prv/prv_checks.h), and a member of the wrong type is an error that names it. Before,
// a task on node 0 or a record on cpu 65000 of a 1-cpu trace was taken as it was, 2^32 - 1
// threads in a task ran out of memory, and `"unit": 5` was an "internal error".

#include <gtest/gtest.h>

#include <string>

#include "src/io/json/json_trace.h"

namespace parallax::io {
namespace {

constexpr const char* kHeader = R"("appls":[[[1,1]]],"cpus_per_node":[1],"unit":"ns")";
constexpr const char* kState = R"({"ph":"X","pid":1,"tid":1,"name":"s","ts":0,"dur":0.01,"args":{"state":1,"cpu":1}})";

// A file as Parallax writes it, with the header members `header` and one event per line.
std::string PaxTrace(const std::string& header, const std::string& events = kState) {
  return R"({"otherData":{"parallax":{)" + header + "}},\n\"traceEvents\":[\n" + events + "\n]}";
}

void ExpectRefused(const std::string& header, const std::string& message) {
  auto r = ParseJsonTrace(PaxTrace(header), "h.json");
  ASSERT_FALSE(r.ok()) << header;
  EXPECT_NE(r.status().message().find(message), std::string::npos) << header << "\n" << r.status().ToString();
  EXPECT_EQ(r.status().message().find("internal error"), std::string::npos) << r.status().ToString();
  // Where: otherData's value, the object that holds the header.
  EXPECT_EQ(r.status().where().file, "h.json");
  EXPECT_EQ(r.status().where().line, 1u);
  EXPECT_EQ(r.status().where().column, std::string(R"({"otherData":)").size() + 1);
  EXPECT_FALSE(r.status().hint().empty());
}

TEST(JsonPaxChecks, TheWritersOwnHeaderIsRead) {
  auto r = ParseJsonTrace(PaxTrace(kHeader), "ok.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->prv.header.resources.cpus(), 1u);
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(0)).states.size(), 1u);
}

TEST(JsonPaxChecks, TheHeaderObeysTheRulesOfAPrvHeader) {
  ExpectRefused(R"("appls":[[[1,0]]],"cpus_per_node":[1])",
                "bad header in otherData.parallax.appls[0][0][1]: task 1.1 runs on node 0, but the header declares 1 nodes");
  ExpectRefused(R"("appls":[[[1,1],[1,2]]],"cpus_per_node":[1])", "appls[0][1][1]: task 1.2 runs on node 2");
  ExpectRefused(R"("appls":[[[0,1]]],"cpus_per_node":[1])", "appls[0][0][0]: expected at least one thread per task");
  ExpectRefused(R"("appls":[[[4294967295,1]]],"cpus_per_node":[1])",
                "appls[0][0][0]: expected at most 1048576 threads in task 1.1");
  ExpectRefused(R"("appls":[[[1048576,1]],[[1,1]]],"cpus_per_node":[1])",
                "appls: expected at most 1048576 threads in all");
  ExpectRefused(R"("appls":[],"cpus_per_node":[1])", "appls: expected at least one application");
  ExpectRefused(R"("appls":[[]],"cpus_per_node":[1])", "appls[0]: expected at least one task per application");
  ExpectRefused(R"("appls":[[[1,1]]],"cpus_per_node":[70000])", "cpus_per_node[0]: expected at most 65535 cpus on node 1");
  ExpectRefused(R"("appls":[[[1,1]]],"cpus_per_node":[40000,40000])", "cpus_per_node: expected at most 65535 cpus in all");
}

TEST(JsonPaxChecks, WronglyTypedMembersAreNamedWithTheTypeExpected) {
  const std::string appls = R"("appls":[[[1,1]]],)";
  ExpectRefused(appls + R"("unit":5)", "otherData.parallax.unit must be a string, not 5");
  ExpectRefused(appls + R"("unit":"s")", R"(otherData.parallax.unit must be "ns", "us" or "ms", not "s")");
  ExpectRefused(appls + R"("end_time":"x")",
                "otherData.parallax.end_time must be an integer from 0 to 18446744073709551615, not a string");
  ExpectRefused(appls + R"("spelling":{"has_comm_count":1})",
                "otherData.parallax.spelling.has_comm_count must be true or false, not 1");
  ExpectRefused(appls + R"("spelling":{"appl_separator":"::"})",
                "otherData.parallax.spelling.appl_separator must be a string of one character, not a string");
  ExpectRefused(appls + R"("spelling":[])", "otherData.parallax.spelling must be an object, not an array");
  ExpectRefused(appls + R"("cpus_per_node":{"a":1})",
                "otherData.parallax.cpus_per_node must be an array of cpu counts, one per node, not an object");
  ExpectRefused(appls + R"("cpus_per_node":[-1])", "otherData.parallax.cpus_per_node[0] must be an integer from 0 to");
  ExpectRefused(appls + R"("communicators":[1])", "otherData.parallax.communicators[0] must be a string, not 1");
  ExpectRefused(appls + R"("pcf":3)", "otherData.parallax.pcf must be a string (the text of the file), not 3");
  ExpectRefused(appls + R"("row":{})", "otherData.parallax.row must be a string (the text of the file), not an object");
  ExpectRefused(appls + R"("unsigned_value_types":[-1])",
                "otherData.parallax.unsigned_value_types[0] must be an integer from 0 to 4294967295, not -1");
  ExpectRefused(R"("appls":"x")", "otherData.parallax.appls must be an array of applications");
  ExpectRefused(R"("appls":null)", "otherData.parallax.appls must be an array of applications");
  ExpectRefused(R"("appls":[[[1]]])", "otherData.parallax.appls[0][0] must be a [threads, node] pair, not an array");
  ExpectRefused(R"("appls":[[[1.5,1]]])", "otherData.parallax.appls[0][0][0] must be an integer from 0 to");
  ExpectRefused(R"("appls":[[[true,1]]])", "otherData.parallax.appls[0][0][0] must be an integer from 0 to");
}

// Two nodes of one cpu each; task 1.1 on node 1, task 1.2 on node 2.
TEST(JsonPaxChecks, RecordsObeyTheRulesOfPrvRecords) {
  const std::string header = R"("appls":[[[1,1],[1,2]]],"cpus_per_node":[1,1])";
  const std::string events = std::string(kState) + ",\n" +                                                   // line 3
      R"({"ph":"X","pid":1,"tid":1,"name":"s","ts":1,"dur":0.01,"args":{"state":1,"cpu":65000}},)" "\n"       // 4
      R"({"ph":"X","pid":1,"tid":1,"name":"s","ts":2,"dur":0.01,"args":{"state":1,"cpu":2}},)" "\n"           // 5
      R"({"ph":"X","pid":1,"tid":1,"name":"s","ts":3,"dur":0.01,"args":{"state":4294967296,"cpu":1}},)" "\n"  // 6
      R"({"ph":"i","pid":1,"tid":1,"name":"e","ts":4,"args":{"type":-1,"value":1,"cpu":1}},)" "\n"            // 7
      R"({"ph":"i","pid":1,"tid":1,"name":"e","ts":5,"args":{"type":7,"value":1,"cpu":-1}},)" "\n"            // 8
      R"({"ph":"i","pid":1,"tid":2,"name":"e","ts":6,"args":{"type":7,"value":1,"cpu":1}},)" "\n"             // 9
      R"({"ph":"s","cat":"comm","name":"c","id":0,"pid":2,"tid":1,"ts":7,"args":{"size":1,"tag":1,"phy":-5,"cpu":2}},)" "\n"  // 10
      R"({"ph":"f","bp":"e","cat":"comm","name":"c","id":0,"pid":1,"tid":1,"ts":8,"args":{"size":1,"tag":1,"phy":8,"cpu":1}})";
  auto r = ParseJsonTrace(PaxTrace(header, events), "records.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Diagnostics& d = r->prv.diagnostics;
  auto first = [&](DiagKind k) { return d.examples(k).empty() ? DiagExample{} : d.examples(k)[0]; };
  ASSERT_EQ(d.count(DiagKind::kCpuOutOfRange), 1u);
  EXPECT_EQ(first(DiagKind::kCpuOutOfRange).line, 4u);
  EXPECT_EQ(first(DiagKind::kCpuOutOfRange).detail, "cpu 65000 does not exist (the header declares 2)");
  ASSERT_EQ(d.count(DiagKind::kCpuWrongNode), 1u);
  // The words of the .prv reader for the same record (PrvReader tests).
  EXPECT_EQ(first(DiagKind::kCpuWrongNode).detail, "cpu 2 is on node 2 but task 1.1 runs on node 1");
  ASSERT_EQ(d.count(DiagKind::kNumberTooLarge), 2u);
  EXPECT_EQ(first(DiagKind::kNumberTooLarge).line, 6u);
  EXPECT_EQ(d.count(DiagKind::kSyntax), 1u);
  EXPECT_EQ(first(DiagKind::kSyntax).line, 8u);
  EXPECT_EQ(d.count(DiagKind::kUnknownObject), 1u);
  EXPECT_EQ(first(DiagKind::kUnknownObject).line, 9u);
  EXPECT_EQ(d.count(DiagKind::kNegativeTime), 1u);
  EXPECT_EQ(first(DiagKind::kNegativeTime).line, 10u);
  // Only the valid state is kept; the message whose send is damaged is dropped.
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(0)).states.size(), 1u);
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(0)).events.size(), 0u);
  EXPECT_EQ(r->prv.store.comms().rows(), 0u);
}

TEST(JsonPaxChecks, EveryRecordRejectedIsAnEmptyBodyAsForAPrv) {
  const std::string events = R"({"ph":"X","pid":1,"tid":1,"name":"s","ts":0,"dur":0.01,"args":{"state":1,"cpu":65000}})";
  auto r = ParseJsonTrace(PaxTrace(kHeader, events), "cpu.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "empty body: every record was rejected (1 skipped); the first: records naming a cpu not in the header "
            "(skipped): cpu 65000 does not exist (the header declares 1)");
  EXPECT_EQ(r.status().where().line, 3u);
  EXPECT_EQ(r.status().where().column, 1u);
}

}  // namespace
}  // namespace parallax::io
