// The compact records of a trace built segment by segment (store/compact_builder.h) are those
// of the whole trace coded at once: every thread decodes to its records, and the state summaries
// and the per-cpu view are those built from the plain store, wherever the segments are cut.

#include "src/store/compact_builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace parallax::store {
namespace {

using model::ThreadIndex;
using model::Time;

constexpr uint32_t kCpus = 4;

// A store of `threads` threads with `n` states and about 2n events each: dense runs, gaps,
// zero-length and open-ended states, migrations between cpus (and cpu 0, which the cpu view
// leaves out), equal times.
TraceStore MakeStore(size_t threads, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  TraceStore s(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    ThreadRecords& r = s.thread(ThreadIndex(t));
    Time now = rng() % 5;
    uint16_t cpu = static_cast<uint16_t>(1 + t % kCpus);
    for (size_t k = 0; k < n; ++k) {
      if (rng() % 500 == 0) cpu = static_cast<uint16_t>(rng() % (kCpus + 1));
      const Time len = rng() % 50 == 0 ? 0 : 1 + rng() % 100;
      const bool open = k + 1 == n && t % 2 == 0;
      r.states.begin.push_back(now);
      r.states.end.push_back(open ? model::kNoEnd : now + len);
      r.states.state.push_back(rng() % 7 == 0 ? 0 : rng() % 20);
      r.states.cpu.push_back(cpu);
      for (int e = rng() % 5; e > 0; --e) {
        r.events.time.push_back(now + rng() % (len + 1));
        r.events.type.push_back(50000001 + rng() % 4);
        r.events.value.push_back(static_cast<int64_t>(rng()) - (1 << 30));
        r.events.cpu.push_back(cpu);
      }
      now += len + (rng() % 10 == 0 ? rng() % 30 : 0);
    }
    // Events sorted by time (a stable sort, as the reader's), each paired with its own fields.
    std::vector<size_t> order(r.events.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return r.events.time[a] < r.events.time[b]; });
    EventColumns sorted;
    for (size_t i : order) {
      sorted.time.push_back(r.events.time[i]);
      sorted.type.push_back(r.events.type[i]);
      sorted.value.push_back(r.events.value[i]);
      sorted.cpu.push_back(r.events.cpu[i]);
    }
    r.events = std::move(sorted);
  }
  return s;
}

// Records [from, to) of every thread, by position in the thread (segments cut anywhere).
TraceStore Slice(const TraceStore& s, double from, double to) {
  TraceStore out(s.threads());
  for (uint32_t t = 0; t < s.threads(); ++t) {
    const ThreadRecords& a = s.thread(ThreadIndex(t));
    ThreadRecords& b = out.thread(ThreadIndex(t));
    auto cut = [](size_t n, double f) { return static_cast<size_t>(static_cast<double>(n) * f); };
    for (size_t k = cut(a.states.size(), from); k < cut(a.states.size(), to); ++k) {
      b.states.begin.push_back(a.states.begin[k]);
      b.states.end.push_back(a.states.end[k]);
      b.states.state.push_back(a.states.state[k]);
      b.states.cpu.push_back(a.states.cpu[k]);
    }
    for (size_t k = cut(a.events.size(), from); k < cut(a.events.size(), to); ++k) {
      b.events.time.push_back(a.events.time[k]);
      b.events.type.push_back(a.events.type[k]);
      b.events.value.push_back(a.events.value[k]);
      b.events.cpu.push_back(a.events.cpu[k]);
    }
  }
  return out;
}

// The sink: every block's bytes, one after the other.
struct Bytes {
  std::vector<uint8_t> all;
  CompactBuilder::Sink Sink() {
    return [this](std::span<const uint8_t> b) -> Result<uint64_t> {
      const uint64_t at = all.size();
      all.insert(all.end(), b.begin(), b.end());
      return at;
    };
  }
};

template <typename T>
bool SameBytes(const Column<T>& a, const Column<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool SameRuns(const std::vector<std::vector<CpuRun>>& a, const std::vector<std::vector<CpuRun>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t c = 0; c < a.size(); ++c) {
    if (a[c].size() != b[c].size()) return false;
    for (size_t i = 0; i < a[c].size(); ++i)
      if (a[c][i].thread != b[c][i].thread || a[c][i].first != b[c][i].first || a[c][i].last != b[c][i].last)
        return false;
  }
  return true;
}

TEST(CompactBuilder, SegmentsCutAnywhereGiveTheRecordsOfTheWholeTrace) {
  const TraceStore plain = [] {
    TraceStore s = MakeStore(5, 40000, 7);
    BuildCpuView(s, kCpus, 2);
    return s;
  }();
  const std::vector<StateBlocks> summaries = BuildStateBlocks(plain, 2);
  for (const std::vector<double>& cuts : std::vector<std::vector<double>>{
           {0, 1}, {0, 0.5, 1}, {0, 0.1, 0.1, 0.37, 0.41, 0.9, 1}, {0, 0.0001, 0.2, 0.99999, 1}}) {
    SCOPED_TRACE(::testing::PrintToString(cuts));
    Bytes bytes;
    CompactBuilder b(plain.threads(), kCpus, bytes.Sink(), compact::EncodeOptions{}, 2);
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
      TraceStore segment = Slice(plain, cuts[k], cuts[k + 1]);
      ASSERT_TRUE(b.Add(segment).ok());
      EXPECT_EQ(segment.state_records() + segment.event_records(), 0u) << "the segment is taken";
    }
    EXPECT_GT(b.PendingBytes(), 0u);  // the records of the last, partial blocks
    auto built = b.Finish();
    ASSERT_TRUE(built.ok());
    ASSERT_EQ(built->threads.size(), plain.threads());
    const auto view = Column<uint8_t>(bytes.all);
    for (uint32_t t = 0; t < plain.threads(); ++t) {
      SCOPED_TRACE(t);
      const ThreadRecords& want = plain.thread(ThreadIndex(t));
      CodedThread& c = built->threads[t];
      c.states.bytes = view;
      c.events.bytes = view;
      EXPECT_EQ(c.state_count, want.states.size());
      EXPECT_EQ(c.event_count, want.events.size());
      StateColumns states;
      EventColumns events;
      ASSERT_TRUE(compact::DecodeAllStates(c.states, &states).ok());
      ASSERT_TRUE(compact::DecodeAllEvents(c.events, &events).ok());
      EXPECT_EQ(states.begin, want.states.begin);
      EXPECT_EQ(states.end, want.states.end);
      EXPECT_EQ(states.state, want.states.state);
      EXPECT_EQ(states.cpu, want.states.cpu);
      EXPECT_EQ(events.time, want.events.time);
      EXPECT_EQ(events.type, want.events.type);
      EXPECT_EQ(events.value, want.events.value);
      EXPECT_EQ(events.cpu, want.events.cpu);
      // Blocks of 16384 records but the last, in time order.
      for (size_t k = 0; k + 1 < c.states.blocks.size(); ++k) EXPECT_EQ(c.states.blocks[k].records, 16384u);
      EXPECT_TRUE(SameBytes(built->state_blocks[t].small(), summaries[t].small()));
      EXPECT_TRUE(SameBytes(built->state_blocks[t].large(), summaries[t].large()));
    }
    EXPECT_TRUE(SameRuns(built->cpu_view.state_runs, plain.cpu_view().state_runs));
    EXPECT_TRUE(SameRuns(built->cpu_view.event_runs, plain.cpu_view().event_runs));
  }
}

// A segment that ends a block exactly: whether its last state is dense depends on the next
// state's begin, in the next segment (here after a gap: it is not).
TEST(CompactBuilder, TheStateEndingASegmentIsSummarisedWithTheNextOne) {
  TraceStore first(1), second(1), whole(1);
  for (uint32_t k = 0; k < compact::kBlockRecords + 10; ++k) {
    TraceStore& part = k < compact::kBlockRecords ? first : second;
    for (TraceStore* s : {&part, &whole}) {
      StateColumns& st = s->thread(ThreadIndex(0)).states;
      // Dense but for a gap after the last state of the first segment.
      const Time gap = k < compact::kBlockRecords ? 0 : 5;
      st.begin.push_back(10 * k + gap);
      st.end.push_back(10 * k + 10 + (k + 1 < compact::kBlockRecords ? 0 : gap));
      st.state.push_back(1);
      st.cpu.push_back(1);
    }
  }
  Bytes bytes;
  CompactBuilder b(1, kCpus, bytes.Sink(), compact::EncodeOptions{}, 1);
  ASSERT_TRUE(b.Add(first).ok());
  ASSERT_TRUE(b.Add(second).ok());
  auto built = b.Finish();
  ASSERT_TRUE(built.ok());
  const StateBlocks want(whole.thread(ThreadIndex(0)).states);
  EXPECT_TRUE(SameBytes(built->state_blocks[0].small(), want.small()));
  EXPECT_TRUE(SameBytes(built->state_blocks[0].large(), want.large()));
  EXPECT_EQ(built->state_blocks[0].small()[compact::kBlockRecords / StateBlocks::kSmall - 1].dense, 0u);
}

TEST(CompactBuilder, RecordsBackInTimeAcrossSegmentsStopTheBuild) {
  const TraceStore plain = MakeStore(2, 1000, 3);
  Bytes bytes;
  CompactBuilder b(plain.threads(), kCpus, bytes.Sink(), compact::EncodeOptions{}, 2);
  TraceStore late = Slice(plain, 0.5, 1), early = Slice(plain, 0, 0.5);
  ASSERT_TRUE(b.Add(late).ok());
  EXPECT_FALSE(b.unsorted());
  Status s = b.Add(early);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(b.unsorted());
  EXPECT_NE(s.message().find("back in time"), std::string::npos) << s.message();
}

TEST(CompactBuilder, EqualTimesAcrossSegmentsAreInOrder) {
  TraceStore a(1), b(1);
  for (TraceStore* s : {&a, &b}) {
    ThreadRecords& r = s->thread(ThreadIndex(0));
    r.states.begin.push_back(10);
    r.states.end.push_back(10);
    r.states.state.push_back(1);
    r.states.cpu.push_back(1);
    r.events.time.push_back(10);
    r.events.type.push_back(1);
    r.events.value.push_back(s == &a ? 1 : 2);
    r.events.cpu.push_back(1);
  }
  Bytes bytes;
  CompactBuilder builder(1, kCpus, bytes.Sink(), compact::EncodeOptions{}, 1);
  ASSERT_TRUE(builder.Add(a).ok());
  ASSERT_TRUE(builder.Add(b).ok());
  auto built = builder.Finish();
  ASSERT_TRUE(built.ok());
  CodedThread& c = built->threads[0];
  c.events.bytes = Column<uint8_t>(bytes.all);
  EventColumns events;
  ASSERT_TRUE(compact::DecodeAllEvents(c.events, &events).ok());
  EXPECT_EQ(events.value, (Column<int64_t>{1, 2}));
  ASSERT_EQ(built->cpu_view.state_runs[0].size(), 1u);
  EXPECT_EQ(built->cpu_view.state_runs[0][0].last, 2u) << "one run across the segments";
}

TEST(CompactBuilder, ASinkErrorStopsTheBuild) {
  const TraceStore plain = MakeStore(2, 40000, 5);
  CompactBuilder b(
      plain.threads(), kCpus,
      [](std::span<const uint8_t>) -> Result<uint64_t> { return Status::Error("disk full", {}, ""); },
      compact::EncodeOptions{}, 2);
  TraceStore all = Slice(plain, 0, 1);
  Status s = b.Add(all);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "disk full");
  EXPECT_FALSE(b.unsorted());
}

}  // namespace
}  // namespace parallax::store
