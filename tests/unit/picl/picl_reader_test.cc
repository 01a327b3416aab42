// The PICL reader on the coNCePTuaL user guide's example (two nodes exchanging one message
// each way): states, events and communications worked out by hand from the file.

#include "src/io/picl/picl_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/io/import/trace_import.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;
using model::Time;

const std::string kFile = std::string(PARALLAX_TEST_DATA) + "/picl/conceptual_userguide_picl_example.trf";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct StateRow {
  Time begin, end;
  std::string name;
  friend bool operator==(const StateRow&, const StateRow&) = default;
};
std::ostream& operator<<(std::ostream& os, const StateRow& s) {
  return os << s.name << "[" << s.begin << "," << s.end << ")";
}

std::vector<StateRow> States(const ImportedTrace& t, uint32_t thread) {
  std::vector<StateRow> out;
  const auto& st = t.prv.store.thread(ThreadIndex(thread)).states;
  for (size_t i = 0; i < st.size(); ++i) out.push_back({st.begin[i], st.end[i], *t.pcf.StateLabel(st.state[i])});
  return out;
}

TEST(PiclReader, ConceptualExample) {
  EXPECT_EQ(DetectTraceFormatOfFile(kFile), TraceFormat::kPicl);
  auto r = ReadPiclTrace(kFile);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->prv.header.processes.tasks(), 2u);
  EXPECT_EQ(r->prv.header.processes.threads(), 2u);
  EXPECT_EQ(r->prv.store.end_time(), 40000u);
  const std::string trace = "PICL event -901";
  EXPECT_EQ(States(*r, 0), (std::vector<StateRow>{{0, 20000, trace}, {20000, 30000, "receive"}, {30000, 40000, trace}}));
  EXPECT_EQ(States(*r, 1), (std::vector<StateRow>{{0, 10000, trace}, {10000, 20000, "receive"}, {20000, 30000, trace}}));
  const auto& c = r->prv.store.comms();
  ASSERT_EQ(c.rows(), 2u);
  EXPECT_EQ(c.sender[0], 0u);
  EXPECT_EQ(c.receiver[0], 1u);
  EXPECT_EQ(c.log_send[0], 10000u);
  EXPECT_EQ(c.log_recv[0], 10000u);
  EXPECT_EQ(c.phy_recv[0], 20000u);
  EXPECT_EQ(c.size[0], 32768);
  EXPECT_EQ(c.tag[0], 1);
  EXPECT_EQ(c.sender[1], 1u);
  EXPECT_EQ(c.receiver[1], 0u);
  EXPECT_EQ(c.log_send[1], 20000u);
  EXPECT_EQ(c.log_recv[1], 20000u);
  EXPECT_EQ(c.phy_recv[1], 30000u);
  EXPECT_EQ(c.size[1], 256);
  // Each node opens and closes -901, -21 and -52 once: 6 events per thread.
  EXPECT_EQ(r->prv.store.thread(ThreadIndex(0)).events.size(), 6u);
  EXPECT_EQ(r->prv.store.thread(ThreadIndex(1)).events.size(), 6u);
  EXPECT_EQ(r->prv.diagnostics.problems(), 0u);
}

TEST(PiclReader, MalformedLinesAreCountedAndLocated) {
  std::string text = Slurp(kFile);
  text += "-3 -21 x 0 0 0\n"              // 13: bad time
          "-3 -21 0.5 0\n"                // 14: too few fields
          "-3 -21 0.5 0 0 4 2 1 1\n"      // 15: 4 items announced, 2 present
          "-4 -77 0.5 0 0 0\n"            // 16: close of an event that is not open
          "-4 -52 0.6 1 1 4 2 8 9 0 0\n"; // 17: a receive close with no open receive
  auto r = ParsePiclTrace(text, "bad.trf");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& d = r->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kSyntax), 1u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, 13u);
  ASSERT_EQ(d.count(DiagKind::kTooFewFields), 2u);
  EXPECT_EQ(d.examples(DiagKind::kTooFewFields)[0].line, 14u);
  EXPECT_EQ(d.examples(DiagKind::kTooFewFields)[1].line, 15u);
  ASSERT_EQ(d.count(DiagKind::kUnmatchedEnd), 2u);
  EXPECT_EQ(d.examples(DiagKind::kUnmatchedEnd)[0].line, 16u);
  EXPECT_EQ(r->prv.store.comms().rows(), 2u);
  auto empty = ParsePiclTrace("\n# nothing\n", "e.trf");
  ASSERT_FALSE(empty.ok());
}

TEST(PiclReader, EveryPrefixIsHandled) {
  std::string text = Slurp(kFile);
  for (size_t n = 0; n <= text.size(); ++n) {
    auto r = ParsePiclTrace(std::string_view(text).substr(0, n), "prefix.trf");
    if (!r.ok()) EXPECT_FALSE(r.status().message().empty());
  }
}

}  // namespace
}  // namespace parallax::io
