// PICL writing: prv -> picl -> prv keeps what PICL can hold (docs/formats.md, PICL "What is
// lost"): state intervals (labelled by their value), events (type, value, time), and the
// threads, times, sizes and tags of communications.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "include/parallax/trace.h"
#include "src/io/import/trace_import.h"
#include "src/io/picl/picl_reader.h"
#include "src/io/prv/prv_reader.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;

PrvTrace LoadPrv(const std::string& path) {
  auto r = ReadPrv(path, {});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r.value());
}

ImportedTrace ThroughPicl(const PrvTrace& prv) {
  std::string text;
  TraceView tv{&prv.header, &prv.store, nullptr, nullptr, nullptr};
  EXPECT_TRUE(WritePicl(tv, [&](std::string_view s) { return text.append(s), true; }));
  EXPECT_EQ(DetectTraceFormat(text), TraceFormat::kPicl);
  auto r = ParsePiclTrace(text, "rt.trf");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r.value());
}

TEST(PiclWriter, StatesAndEventsSurvive) {
  PrvTrace prv = LoadPrv(std::string(PARALLAX_TEST_DATA) + "/omp/omp2.prv.gz");
  ASSERT_EQ(prv.store.comms().rows(), 0u);
  ImportedTrace back = ThroughPicl(prv);
  ASSERT_EQ(back.prv.header.processes.threads(), prv.header.processes.threads());
  for (uint32_t t = 0; t < prv.header.processes.threads(); ++t) {
    const auto& a = prv.store.thread(ThreadIndex(t));
    const auto& b = back.prv.store.thread(ThreadIndex(t));
    // States: same intervals (ns); adjacent ones of one value merge, empty ones vanish.
    const uint64_t k = prv.header.unit == model::TimeUnit::kUs ? 1000 : 1;
    std::vector<std::tuple<uint64_t, uint64_t, std::string>> want, got;
    for (size_t i = 0; i < a.states.size(); ++i) {
      uint64_t end = a.states.end[i] == model::kNoEnd ? prv.store.end_time() : a.states.end[i];
      if (end <= a.states.begin[i]) continue;
      std::string label = "PICL event " + std::to_string(a.states.state[i]);
      if (!want.empty() && std::get<1>(want.back()) == a.states.begin[i] * k && std::get<2>(want.back()) == label)
        std::get<1>(want.back()) = end * k;
      else
        want.emplace_back(a.states.begin[i] * k, end * k, label);
    }
    for (size_t i = 0; i < b.states.size(); ++i) got.emplace_back(b.states.begin[i], b.states.end[i], *back.pcf.StateLabel(b.states.state[i]));
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(got, want) << "thread " << t;
    // Events: every Paraver event comes back with its type, value and time.
    std::vector<std::tuple<uint64_t, uint32_t, int64_t>> ev_want, ev_got;
    for (size_t i = 0; i < a.events.size(); ++i) ev_want.emplace_back(a.events.time[i] * k, a.events.type[i], a.events.value[i]);
    for (size_t i = 0; i < b.events.size(); ++i)
      if (b.events.type[i] != kPiclEventType) ev_got.emplace_back(b.events.time[i], b.events.type[i], b.events.value[i]);
    EXPECT_EQ(ev_got, ev_want) << "thread " << t;
  }
}

TEST(PiclWriter, CommunicationsSurvive) {
  PrvTrace prv = LoadPrv(std::string(PARALLAX_TEST_DATA) + "/epoch/epoch_2proc.prv.gz");
  const auto& a = prv.store.comms();
  ASSERT_GT(a.rows(), 0u);
  ImportedTrace back = ThroughPicl(prv);
  const auto& b = back.prv.store.comms();
  ASSERT_EQ(b.rows(), a.rows());
  uint64_t k = prv.header.unit == model::TimeUnit::kUs ? 1000 : 1;
  using C = std::tuple<uint32_t, uint32_t, uint64_t, uint64_t, uint64_t, int64_t, int64_t>;
  std::vector<C> want, got;
  for (size_t i = 0; i < a.rows(); ++i)
    want.emplace_back(a.sender[i], a.receiver[i], a.log_send[i] * k, a.log_recv[i] * k, std::max(a.log_recv[i], a.phy_recv[i]) * k,
                      a.size[i], a.tag[i]);
  for (size_t i = 0; i < b.rows(); ++i)
    got.emplace_back(b.sender[i], b.receiver[i], b.log_send[i], b.log_recv[i], b.phy_recv[i], b.size[i], b.tag[i]);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(back.prv.diagnostics.count(DiagKind::kUnmatchedFlow), 0u);
}

}  // namespace
}  // namespace parallax::io
