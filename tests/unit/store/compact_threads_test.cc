// A compact trace store (TraceStore::Compact, store/compact_threads.h): its threads read the
// same through pins, thread() and the counts; decoded threads are dropped beyond the resident
// budget once no pin holds them, never while one does; many readers at once agree.

#include "src/store/compact_threads.h"

#include "src/store/block_reader.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <thread>
#include <type_traits>
#include <vector>

#include "src/io/prv/prv_reader.h"
#include "src/io/prv/prv_writer.h"

namespace parallax::store {
namespace {

using model::ThreadIndex;

TraceStore Load(const char* name) {
  auto t = io::ReadPrv(std::string(PARALLAX_TEST_DATA) + "/" + name, io::PrvReadOptions{});
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(t->store);
}

void ExpectSameThread(const ThreadRecords& a, const ThreadRecords& b) {
  EXPECT_EQ(a.states.begin, b.states.begin);
  EXPECT_EQ(a.states.end, b.states.end);
  EXPECT_EQ(a.states.state, b.states.state);
  EXPECT_EQ(a.states.cpu, b.states.cpu);
  EXPECT_EQ(a.events.time, b.events.time);
  EXPECT_EQ(a.events.type, b.events.type);
  EXPECT_EQ(a.events.value, b.events.value);
  EXPECT_EQ(a.events.cpu, b.events.cpu);
  EXPECT_EQ(a.sent, b.sent);
  EXPECT_EQ(a.received, b.received);
}

// Bytes of a thread's records decoded (22 per state and per event).
uint64_t Decoded(const ThreadRecords& r) { return (r.states.size() + r.events.size()) * 22; }

TEST(CompactThreads, EveryThreadReadsTheSameAsThePlainStore) {
  const TraceStore plain = Load("epoch/epoch_4proc.prv.gz");
  TraceStore c = plain;
  c.Compact(UINT64_MAX, 2);
  ASSERT_TRUE(c.compact());
  EXPECT_EQ(c.threads(), plain.threads());
  EXPECT_EQ(c.state_records(), plain.state_records());
  EXPECT_EQ(c.event_records(), plain.event_records());
  // Coded: fewer than 8 bytes per record (the plain store: 22 and more).
  const double records = static_cast<double>(plain.state_records() + plain.event_records());
  EXPECT_LT(static_cast<double>(c.compact_threads()->CodedBytes()) / records, 8.0);
  EXPECT_GT(static_cast<double>(plain.MemoryBytes()) / records, 20.0);
  // The records' bytes: 22 per state and per event, 60 per communication, 4 per index entry
  // (two per communication) in a plain store; the blocks' coded bytes and their index in a
  // compact one, mapped or not.
  const uint64_t comm_bytes = plain.comms().rows() * (60 + 2 * 4);
  EXPECT_EQ(plain.RecordBytes(), plain.state_records() * 22 + plain.event_records() * 22 + comm_bytes);
  const double coded = static_cast<double>(c.RecordBytes() - comm_bytes) / records;
  EXPECT_GT(coded, 1.0);
  EXPECT_LT(coded, 8.0);
  for (uint32_t t = 0; t < plain.threads(); ++t) {
    SCOPED_TRACE(t);
    const ThreadIndex i(t);
    EXPECT_EQ(c.StateCount(i), plain.thread(i).states.size());
    EXPECT_EQ(c.EventCount(i), plain.thread(i).events.size());
    EXPECT_EQ(c.Sent(i), plain.thread(i).sent);
    EXPECT_EQ(c.Received(i), plain.thread(i).received);
    ExpectSameThread(*c.Pin(i), plain.thread(i));
    ExpectSameThread(static_cast<const TraceStore&>(c).thread(i), plain.thread(i));
  }
}

TEST(CompactThreads, PinsHoldTheirThreadAndTheBudgetDropsTheRest) {
  TraceStore s = Load("epoch/epoch_4proc.prv.gz");
  const TraceStore plain = s;
  s.Compact(/*resident_budget=*/0, 1);
  const CompactThreads& c = *s.compact_threads();
  EXPECT_EQ(c.ResidentBytes(), 0u);
  {
    auto p0 = s.Pin(ThreadIndex(0));
    auto p0_again = s.Pin(ThreadIndex(0));
    EXPECT_EQ(p0->states.begin.data(), p0_again->states.begin.data());  // one decoding, shared
    EXPECT_EQ(p0->events.value.data(), p0_again->events.value.data());
    auto p1 = s.Pin(ThreadIndex(1));
    // Both are pinned: over the budget, but neither may go.
    EXPECT_EQ(c.ResidentBytes(), Decoded(*p0) + Decoded(*p1));
    p0.reset();
    auto p2 = s.Pin(ThreadIndex(2));  // decoding thread 2 trims: 0 is unpinned now, 1 is not
    ExpectSameThread(*p0_again, plain.thread(ThreadIndex(0)));  // still held by the other pin
    ExpectSameThread(*p1, plain.thread(ThreadIndex(1)));
    ExpectSameThread(*p2, plain.thread(ThreadIndex(2)));
  }
  auto p3 = s.Pin(ThreadIndex(3));  // every other pin is gone: only thread 3 stays
  EXPECT_EQ(c.ResidentBytes(), Decoded(*p3));
  EXPECT_FALSE(c.Resident(0));
  EXPECT_TRUE(c.Resident(3));
  p3.reset();
  auto again = s.Pin(ThreadIndex(0));  // decoded anew, the same records
  ExpectSameThread(*again, plain.thread(ThreadIndex(0)));
}

TEST(CompactThreads, ABudgetKeepsTheMostRecentlyPinned) {
  TraceStore s = Load("epoch/epoch_4proc.prv.gz");
  const uint64_t one = Decoded(s.thread(ThreadIndex(0)));
  s.Compact(/*resident_budget=*/one * 2 + one / 2, 1);  // room for two threads of this size
  const CompactThreads& c = *s.compact_threads();
  s.Pin(ThreadIndex(0));
  s.Pin(ThreadIndex(1));
  EXPECT_TRUE(c.Resident(0));  // within the budget, kept after their pins went
  EXPECT_TRUE(c.Resident(1));
  s.Pin(ThreadIndex(0));  // 0 is now more recent than 1
  s.Pin(ThreadIndex(2));  // over the budget: 1 goes
  EXPECT_TRUE(c.Resident(0));
  EXPECT_FALSE(c.Resident(1));
  EXPECT_TRUE(c.Resident(2));
  EXPECT_FALSE(c.Resident(3));
}

TEST(CompactThreads, APinDecodesOnlyThePartsItAsksFor) {
  TraceStore s = Load("epoch/epoch_4proc.prv.gz");
  const TraceStore plain = s;
  s.Compact(UINT64_MAX, 1);
  const CompactThreads& c = *s.compact_threads();
  const ThreadRecords& want = plain.thread(ThreadIndex(1));
  auto states = s.Pin(ThreadIndex(1), RecordParts::kStates);
  EXPECT_EQ(states->states.begin, want.states.begin);
  EXPECT_EQ(states->events.size(), 0u);
  EXPECT_EQ(states->sent, want.sent);
  EXPECT_EQ(c.ResidentBytes(), want.states.size() * 22);
  auto events = s.Pin(ThreadIndex(1), RecordParts::kEvents);
  EXPECT_EQ(events->states.size(), 0u);
  EXPECT_EQ(events->events.value, want.events.value);
  EXPECT_EQ(c.ResidentBytes(), Decoded(want));
  auto all = s.Pin(ThreadIndex(1));  // both parts, already decoded: shared
  EXPECT_EQ(all->states.begin.data(), states->states.begin.data());
  EXPECT_EQ(all->events.time.data(), events->events.time.data());
}

TEST(CompactThreads, EventTypesComeFromTheBlocksDictionaries) {
  TraceStore s = Load("omp/omp2.prv.gz");
  const std::vector<uint32_t> want = ScanEventTypes(s);
  ASSERT_GT(want.size(), 5u);
  s.Compact(0, 1);
  EXPECT_EQ(ScanEventTypes(s), want);
  EXPECT_EQ(ScanEventTypes(s, 1, 2), ScanEventTypes(Load("omp/omp2.prv.gz"), 1, 2));
  EXPECT_EQ(s.compact_threads()->ResidentBytes(), 0u);  // nothing was decoded
  EXPECT_FALSE(s.compact_threads()->Resident(0));
}

// Coded records from a damaged cache: a block that does not decode, or decodes to a cpu the
// trace does not have, is an error when a reader first pins it, naming the thread.
TEST(CompactThreads, DamagedBlocksThrowWhenRead) {
  TraceStore s = Load("epoch/epoch_2proc.prv.gz");
  std::vector<CodedThread> coded(s.threads());
  for (uint32_t t = 0; t < s.threads(); ++t) {
    const ThreadRecords& r = s.thread(ThreadIndex(t));
    coded[t].states = compact::EncodeStates(r.states);
    coded[t].events = compact::EncodeEvents(r.events);
    coded[t].state_count = r.states.size();
    coded[t].event_count = r.events.size();
  }
  EXPECT_EQ(CompactThreads::CheckLayout(coded), "");
  std::vector<uint8_t> bytes = coded[1].events.bytes.ToVector();
  bytes[coded[1].events.blocks[0].offset + 8] = 9;  // the first block's coding
  coded[1].events.bytes = Column<uint8_t>(bytes);
  TraceStore damaged = s;
  damaged.AdoptCompact(coded, UINT64_MAX, /*cpus=*/64);
  EXPECT_NO_THROW(damaged.Pin(ThreadIndex(1), RecordParts::kStates));
  try {
    damaged.Pin(ThreadIndex(1), RecordParts::kEvents);
    ADD_FAILURE() << "no exception";
  } catch (const DamagedRecords& e) {
    EXPECT_NE(std::string(e.what()).find("thread 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown coding 9"), std::string::npos) << e.what();
  }
  // The same blocks with a cpu count below the cpus they name.
  TraceStore few_cpus = s;
  std::vector<CodedThread> again(s.threads());
  for (uint32_t t = 0; t < s.threads(); ++t) {
    again[t].states = coded[t].states;
    again[t].state_count = coded[t].state_count;
  }
  few_cpus.AdoptCompact(again, UINT64_MAX, /*cpus=*/0);
  EXPECT_THROW(few_cpus.Pin(ThreadIndex(0), RecordParts::kStates), DamagedRecords);
  // A layout whose blocks do not add up to the thread's records is found before any decoding.
  coded[0].state_count += 1;
  EXPECT_NE(CompactThreads::CheckLayout(coded).find("thread 1's states"), std::string::npos);
  coded[0].state_count -= 1;
  std::vector<compact::BlockEntry> entries = coded[0].events.blocks.ToVector();
  entries[0].bytes += 1000000;
  coded[0].events.blocks = Column<compact::BlockEntry>(entries);
  EXPECT_NE(CompactThreads::CheckLayout(coded).find("past its bytes"), std::string::npos);
}

// A block reader gives a thread's records a block at a time: concatenated, they are the thread,
// from a plain store (slices of its columns) and from a compact one (decoded blocks of the
// block size) alike; a damaged block throws when it is reached.
template <typename Columns>
Columns ReadAll(const TraceStore& s, ThreadIndex t, size_t* blocks) {
  Columns all;
  BlockReader<Columns> r(s, t);
  *blocks = 0;
  while (r.Next()) {
    ++*blocks;
    EXPECT_LE(r.end() - r.begin(), compact::kBlockRecords);
    const size_t at = all.size();
    all.Resize(at + r.end() - r.begin());
    for (size_t i = r.begin(); i < r.end(); ++i) {
      if constexpr (std::is_same_v<Columns, StateColumns>) {
        all.begin[at + i - r.begin()] = r.columns().begin[i];
        all.end[at + i - r.begin()] = r.columns().end[i];
        all.state[at + i - r.begin()] = r.columns().state[i];
      } else {
        all.time[at + i - r.begin()] = r.columns().time[i];
        all.type[at + i - r.begin()] = r.columns().type[i];
        all.value[at + i - r.begin()] = r.columns().value[i];
      }
      all.cpu[at + i - r.begin()] = r.columns().cpu[i];
    }
  }
  return all;
}

// `plain` coded compact, with a byte of the second event block of the first thread that has
// one (`*thread`) spoiled.
TraceStore DamagedSecondEventBlock(const TraceStore& plain, size_t* thread) {
  size_t t = 0;
  while (plain.EventCount(ThreadIndex(t)) <= compact::kBlockRecords) ++t;
  std::vector<CodedThread> coded(plain.threads());
  for (uint32_t i = 0; i < plain.threads(); ++i) coded[i] = CodeThread(plain.thread(ThreadIndex(i)));
  std::vector<uint8_t> bytes = coded[t].events.bytes.ToVector();
  bytes[coded[t].events.blocks[1].offset + 8] = 9;
  coded[t].events.bytes = Column<uint8_t>(bytes);
  TraceStore damaged = plain;
  damaged.AdoptCompact(coded, 0, 64);
  *thread = t;
  return damaged;
}

TEST(CompactThreads, BlockReadersGiveEveryRecordOnceInOrder) {
  const TraceStore plain = Load("epoch/epoch_4proc.prv.gz");
  TraceStore c = plain;
  c.Compact(0, 1);
  bool several = false;
  for (uint32_t t = 0; t < plain.threads(); ++t) {
    const ThreadRecords& want = plain.thread(ThreadIndex(t));
    for (const TraceStore* s : {&plain, static_cast<const TraceStore*>(&c)}) {
      size_t blocks = 0;
      const EventColumns ev = ReadAll<EventColumns>(*s, ThreadIndex(t), &blocks);
      EXPECT_EQ(blocks, (want.events.size() + compact::kBlockRecords - 1) / compact::kBlockRecords);
      several = several || blocks > 1;
      EXPECT_EQ(ev.time, want.events.time);
      EXPECT_EQ(ev.type, want.events.type);
      EXPECT_EQ(ev.value, want.events.value);
      EXPECT_EQ(ev.cpu, want.events.cpu);
      const StateColumns st = ReadAll<StateColumns>(*s, ThreadIndex(t), &blocks);
      EXPECT_EQ(st.begin, want.states.begin);
      EXPECT_EQ(st.end, want.states.end);
      EXPECT_EQ(st.state, want.states.state);
      EXPECT_EQ(st.cpu, want.states.cpu);
    }
  }
  EXPECT_TRUE(several);  // the test reads threads of more than one block
  EXPECT_EQ(c.compact_threads()->ResidentBytes(), 0u);  // nothing was decoded for good

  // A damaged second block: the first reads, the second throws naming it.
  size_t t = 0;
  const TraceStore damaged = DamagedSecondEventBlock(plain, &t);
  EventReader r(damaged, ThreadIndex(t));
  EXPECT_TRUE(r.Next());
  try {
    r.Next();
    ADD_FAILURE() << "no exception";
  } catch (const DamagedRecords& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("thread {}", t + 1)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("block 2"), std::string::npos) << e.what();
  }
}

// Writing a store with a damaged block throws (the session turns it into an error) and leaves
// no partial file.
TEST(CompactThreads, WritingADamagedStoreLeavesNoFile) {
  auto t = io::ReadPrv(std::string(PARALLAX_TEST_DATA) + "/epoch/epoch_4proc.prv.gz", io::PrvReadOptions{});
  ASSERT_TRUE(t.ok());
  size_t thread = 0;
  const TraceStore damaged = DamagedSecondEventBlock(t->store, &thread);
  const std::string path = ::testing::TempDir() + "/parallax_damaged_write.prv";
  std::remove(path.c_str());
  io::PrvWriteInput in{&t->header, &damaged, &t->unsigned_value_types};
  EXPECT_THROW((void)io::WritePrvFile(in, path, false), DamagedRecords);
  FILE* f = std::fopen(path.c_str(), "r");
  EXPECT_EQ(f, nullptr) << "a partial file was left";
  if (f != nullptr) std::fclose(f);
}

// The last record time of a thread, from the blocks' index where it tells it: a thread of three
// state blocks with a state that ends before it begins in the first, and an open-ended one in
// the second; event blocks passed over by their dictionaries.
TEST(CompactThreads, LastRecordTimeAndEventBlocksPassedOver) {
  std::string text = "#Paraver (01/01/24 at 00:00):500000_ns:1(2):1:2(1:1,1:1)\n";
  for (int i = 0; i < 40000; ++i) {
    int b = 10 * i;
    int e = b + 10;
    if (i == 100) e = b - 5;    // ends before it begins: kept as written
    if (i == 20000) e = -1;     // open-ended
    if (i == 39999) {           // the last begin is later than every end
      b = 450000;
      e = 449000;
    }
    text += fmt::format("1:1:1:1:1:{}:{}:1\n", b, e);
    text += fmt::format("2:2:1:2:1:{}:{}:{}\n", b, i % 7 == 0 ? 70 : 80, i);
  }
  text += "2:2:1:2:1:400005:90:1\n";
  io::PrvReadOptions o;
  o.threads = 1;
  auto t = io::ParsePrv(text, "t.prv", o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const TraceStore& plain = t->store;
  TraceStore c = plain;
  c.Compact(0, 1);
  for (uint32_t i = 0; i < 2; ++i) {
    const ThreadRecords& r = plain.thread(ThreadIndex(i));
    Time want = 0;
    for (size_t k = 0; k < r.states.size(); ++k)
      want = std::max({want, r.states.begin[k], r.states.end[k] == model::kNoEnd ? 0 : r.states.end[k]});
    if (r.events.size() > 0) want = std::max(want, r.events.time.back());
    EXPECT_EQ(LastRecordTime(plain, ThreadIndex(i)), want) << i;
    EXPECT_EQ(LastRecordTime(c, ThreadIndex(i)), want) << i;
  }
  EXPECT_EQ(LastRecordTime(c, ThreadIndex(0)), 450000);
  // Only the last event block has type 90: the others are passed over, from the compact store.
  for (const TraceStore* s : {&plain, static_cast<const TraceStore*>(&c)}) {
    EventReader r(*s, ThreadIndex(1));
    r.OnlyBlocksWith({{85, 95}});
    size_t blocks = 0, found = 0;
    while (r.Next()) {
      ++blocks;
      for (size_t k = r.begin(); k < r.end(); ++k) found += r.columns().type[k] == 90;
    }
    EXPECT_EQ(found, 1u);
    EXPECT_EQ(blocks, s == &plain ? 3u : 1u);
  }
}

TEST(CompactThreads, ManyReadersAtOnceAgree) {
  TraceStore s = Load("epoch/epoch_4proc.prv.gz");
  const TraceStore plain = s;
  s.Compact(/*resident_budget=*/1, 2);  // decoded threads go as soon as they can
  std::vector<std::thread> readers;
  std::vector<int> mismatches(4, 0);
  for (int r = 0; r < 4; ++r)
    readers.emplace_back([&, r] {
      for (int round = 0; round < 20; ++round) {
        uint32_t t = static_cast<uint32_t>((round + r) % plain.threads());
        auto p = s.Pin(ThreadIndex(t));
        const ThreadRecords& want = plain.thread(ThreadIndex(t));
        if (!(p->states.begin == want.states.begin) || !(p->events.value == want.events.value)) ++mismatches[r];
      }
    });
  for (auto& th : readers) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(CompactThreads, WritingThroughTheStoreMakesItPlainAgain) {
  TraceStore s = Load("epoch/epoch_2proc.prv.gz");
  const TraceStore plain = s;
  s.Compact(UINT64_MAX, 1);
  ThreadRecords& t0 = s.thread(ThreadIndex(0));  // mutable access
  EXPECT_FALSE(s.compact());
  ExpectSameThread(t0, plain.thread(ThreadIndex(0)));
  ExpectSameThread(s.thread(ThreadIndex(1)), plain.thread(ThreadIndex(1)));
  t0.states.state[0] = 99;  // an edit lands in the store
  EXPECT_EQ(s.Pin(ThreadIndex(0))->states.state[0], 99u);
}

}  // namespace
}  // namespace parallax::store
