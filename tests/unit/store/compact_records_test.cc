// store::compact: a thread's states and events coded in blocks (src/store/compact_records.h).
// The bytes of a small block are checked by hand; every value comes back exactly, whatever the
// block size and coding; real traces take fewer than 8 bytes per record; damaged blocks are
// errors.

#include "src/store/compact_records.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "src/io/prv/prv_reader.h"

namespace parallax::store::compact {
namespace {

using model::kNoEnd;
using model::Time;

StateColumns States(std::vector<Time> begin, std::vector<Time> end, std::vector<uint32_t> state,
                    std::vector<uint16_t> cpu) {
  StateColumns s;
  s.begin = std::move(begin);
  s.end = std::move(end);
  s.state = std::move(state);
  s.cpu = std::move(cpu);
  return s;
}

void ExpectSame(const StateColumns& a, const StateColumns& b) {
  EXPECT_EQ(a.begin, b.begin.ToVector());
  EXPECT_EQ(a.end, b.end.ToVector());
  EXPECT_EQ(a.state, b.state.ToVector());
  EXPECT_EQ(a.cpu, b.cpu.ToVector());
}
void ExpectSame(const EventColumns& a, const EventColumns& b) {
  EXPECT_EQ(a.time, b.time.ToVector());
  EXPECT_EQ(a.type, b.type.ToVector());
  EXPECT_EQ(a.value, b.value.ToVector());
  EXPECT_EQ(a.cpu, b.cpu.ToVector());
}

EncodeOptions Plain(uint32_t block = kBlockRecords) {
  EncodeOptions o;
  o.block_records = block;
  return o;
}

// Three dense states: begins 0, 10, 25; ends 10, 25, 40; values 1, 2, 1; cpu 3.
TEST(CompactRecords, ASmallBlockHasTheBytesWorkedOutByHand) {
  StateColumns s = States({0, 10, 25}, {10, 25, 40}, {1, 2, 1}, {3, 3, 3});
  CompactColumns c = EncodeStates(s, Plain());
  const std::vector<uint8_t> want = {
      3, 0, 0, 0,         // records
      12, 0, 0, 0,        // stream bytes
      0,                  // plain streams
      2, 1, 2,            // dictionary: 2 values, 1 and 2
      0x00, 0x14, 0x1e,   // begins: zigzag of 0, +10, +15
      0x00, 0x00, 0x1e,   // ends: 10-10, 25-25, then the last one's length, 15
      0, 1, 0,            // values as dictionary indices
      6, 0, 0,            // cpus: zigzag of +3, then no change
  };
  EXPECT_EQ(c.bytes, want);
  ASSERT_EQ(c.blocks.size(), 1u);
  EXPECT_EQ(c.blocks[0].first, 0);
  EXPECT_EQ(c.blocks[0].last, 40);
  EXPECT_EQ(c.blocks[0].offset, 0u);
  EXPECT_EQ(c.blocks[0].bytes, want.size());
  EXPECT_EQ(c.blocks[0].records, 3u);
  StateColumns back;
  ASSERT_TRUE(DecodeAllStates(c, &back).ok());
  ExpectSame(s, back);
}

// Columns with the awkward values: open ends, negative and extreme times and values, states
// that overlap or go back in time, cpus 0 and 65535, many distinct values.
StateColumns AwkwardStates(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  StateColumns s;
  s.Resize(n);
  Time t = -1000;
  for (size_t i = 0; i < n; ++i) {
    switch (rng() % 8) {
      case 0: t += static_cast<Time>(rng() % 5); break;
      case 1: t = std::numeric_limits<Time>::max() - static_cast<Time>(rng() % 3); break;
      case 2: t = std::numeric_limits<Time>::min() + static_cast<Time>(rng() % 3); break;
      default: t += static_cast<Time>(rng() % 100000);
    }
    s.begin[i] = t;
    uint64_t k = rng() % 6;
    s.end[i] = k == 0 ? kNoEnd : k == 1 ? t - 5 : t + static_cast<Time>(rng() % 1000);
    s.state[i] = rng() % 3 == 0 ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(rng() % 20);
    s.cpu[i] = rng() % 5 == 0 ? static_cast<uint16_t>(rng()) : static_cast<uint16_t>(rng() % 2 ? 0 : 65535);
  }
  return s;
}
EventColumns AwkwardEvents(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  EventColumns e;
  e.Resize(n);
  Time t = 0;
  for (size_t i = 0; i < n; ++i) {
    t = rng() % 10 == 0 ? static_cast<Time>(rng()) : t + static_cast<Time>(rng() % 50);
    e.time[i] = t;
    e.type[i] = rng() % 7 == 0 ? static_cast<uint32_t>(rng()) : 42000050 + static_cast<uint32_t>(rng() % 8);
    uint64_t k = rng() % 5;
    e.value[i] = k == 0   ? std::numeric_limits<int64_t>::min()
                 : k == 1 ? std::numeric_limits<int64_t>::max()
                 : k == 2 ? -static_cast<int64_t>(rng() % 1000)
                          : static_cast<int64_t>(rng() % 100000);
    e.cpu[i] = static_cast<uint16_t>(rng() % 3 == 0 ? rng() : 7);
  }
  return e;
}

TEST(CompactRecords, EveryValueComesBackForEveryBlockSizeAndCoding) {
  for (size_t n : {0u, 1u, 2u, 5u, 1000u, 40000u}) {
    StateColumns s = AwkwardStates(n, static_cast<uint32_t>(n));
    EventColumns e = AwkwardEvents(n, static_cast<uint32_t>(n) + 1);
    for (uint32_t block : {1u, 3u, 64u, kBlockRecords}) {
      if (block < 64 && n > 1000) continue;  // a block per record or two: slow and no more to learn
      for (bool zstd : {false, true}) {
        SCOPED_TRACE(testing::Message() << n << " records, blocks of " << block << (zstd ? ", zstd" : ""));
        EncodeOptions o = Plain(block);
        o.zstd = zstd;
        CompactColumns cs = EncodeStates(s, o), ce = EncodeEvents(e, o);
        EXPECT_EQ(cs.records(), n);
        EXPECT_EQ(cs.blocks.size(), (n + block - 1) / block);
        StateColumns bs;
        EventColumns be;
        ASSERT_TRUE(DecodeAllStates(cs, &bs).ok());
        ASSERT_TRUE(DecodeAllEvents(ce, &be).ok());
        ExpectSame(s, bs);
        ExpectSame(e, be);
      }
    }
  }
}

TEST(CompactRecords, BlockIndexHoldsEachBlocksTimes) {
  StateColumns s = States({0, 10, 20, 30, 40}, {10, 50, 30, kNoEnd, 45}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1});
  CompactColumns c = EncodeStates(s, Plain(2));
  ASSERT_EQ(c.blocks.size(), 3u);
  EXPECT_EQ(c.blocks[0].first, 0);
  EXPECT_EQ(c.blocks[0].last, 50);  // the second state ends after the third begins
  EXPECT_EQ(c.blocks[1].first, 20);
  EXPECT_EQ(c.blocks[1].last, kNoEnd);  // open-ended
  EXPECT_EQ(c.blocks[2].first, 40);
  EXPECT_EQ(c.blocks[2].last, 45);
  EXPECT_EQ(c.BlocksFor(0, 5, true), (std::pair<size_t, size_t>{0, 1}));
  EXPECT_EQ(c.BlocksFor(45, 46, true), (std::pair<size_t, size_t>{0, 3}));  // block 0 ends at 50
  EXPECT_EQ(c.BlocksFor(60, 70, true), (std::pair<size_t, size_t>{1, 3}));  // an open state, then 40
  EXPECT_EQ(c.BlocksFor(5, 5, true), (std::pair<size_t, size_t>{0, 0}));  // an empty range

  EventColumns e;
  e.Resize(5);
  for (size_t i = 0; i < 5; ++i) e.time[i] = static_cast<Time>(i * 10);
  CompactColumns ce = EncodeEvents(e, Plain(2));  // blocks [0,10] [20,30] [40,40]
  EXPECT_EQ(ce.BlocksFor(15, 35, false), (std::pair<size_t, size_t>{1, 2}));
  EXPECT_EQ(ce.BlocksFor(10, 21, false), (std::pair<size_t, size_t>{0, 2}));
  EXPECT_EQ(ce.BlocksFor(41, 100, false), (std::pair<size_t, size_t>{3, 3}));
}

// The compact-columns goal of the scale issue: at most 8 bytes per record, with plain streams
// already; zstd makes them smaller still.
TEST(CompactRecords, RealTracesTakeFewerThanEightBytesPerRecord) {
  for (const char* name : {"epoch/epoch_4proc.prv.gz", "omp/omp2.prv.gz"}) {
    SCOPED_TRACE(name);
    auto trace = io::ReadPrv(std::string(PARALLAX_TEST_DATA) + "/" + name, io::PrvReadOptions{});
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    uint64_t records = 0, plain = 0, packed = 0;
    for (uint32_t t = 0; t < trace->store.threads(); ++t) {
      const ThreadRecords& r = trace->store.thread(model::ThreadIndex(t));
      CompactColumns ps = EncodeStates(r.states, Plain()), pe = EncodeEvents(r.events, Plain());
      EncodeOptions z;
      z.zstd = true;
      CompactColumns zs = EncodeStates(r.states, z), ze = EncodeEvents(r.events, z);
      records += r.states.size() + r.events.size();
      plain += ps.MemoryBytes() + pe.MemoryBytes();
      packed += zs.MemoryBytes() + ze.MemoryBytes();
      StateColumns bs;
      EventColumns be;
      ASSERT_TRUE(DecodeAllStates(zs, &bs).ok());
      ASSERT_TRUE(DecodeAllEvents(ze, &be).ok());
      ExpectSame(r.states, bs);
      ExpectSame(r.events, be);
    }
    ASSERT_GT(records, 100000u);
    EXPECT_LT(static_cast<double>(plain) / static_cast<double>(records), 8.0);
    EXPECT_LT(packed, plain);
  }
}

TEST(CompactRecords, DamagedBlocksAreErrors) {
  StateColumns s = AwkwardStates(300, 7);
  EventColumns e = AwkwardEvents(300, 8);
  for (bool zstd : {false, true}) {
    EncodeOptions o = Plain();
    o.zstd = zstd;
    CompactColumns cs = EncodeStates(s, o), ce = EncodeEvents(e, o);
    std::vector<uint8_t> sb = cs.bytes.ToVector(), eb = ce.bytes.ToVector();
    // Every shorter prefix of the block.
    for (size_t len = 0; len < sb.size(); ++len) {
      StateColumns out;
      Status st = DecodeStates(std::span<const uint8_t>(sb.data(), len), 300, &out);
      EXPECT_FALSE(st.ok()) << len;
      EXPECT_EQ(out.size(), 0u);
    }
    for (size_t len = 0; len < eb.size(); ++len) {
      EventColumns out;
      EXPECT_FALSE(DecodeEvents(std::span<const uint8_t>(eb.data(), len), 300, &out).ok()) << len;
    }
    // A trailing byte, a wrong record count, an unknown coding.
    std::vector<uint8_t> longer = sb;
    longer.push_back(0);
    StateColumns out;
    EXPECT_FALSE(DecodeStates(longer, 300, &out).ok());
    Status wrong = DecodeStates(sb, 299, &out);
    EXPECT_FALSE(wrong.ok());
    EXPECT_NE(wrong.message().find("300 records, its index says 299"), std::string::npos) << wrong.message();
    std::vector<uint8_t> coding = sb;
    coding[8] = 7;
    EXPECT_NE(DecodeStates(coding, 300, &out).message().find("unknown coding 7"), std::string::npos);
    EXPECT_EQ(out.size(), 0u);
  }
  // A dictionary index past the dictionary (the plain block of the worked example).
  CompactColumns c = EncodeStates(States({0, 10, 25}, {10, 25, 40}, {1, 2, 1}, {3, 3, 3}), Plain());
  std::vector<uint8_t> b = c.bytes.ToVector();
  b[18] = 2;  // the first value's index; the dictionary has 2 entries
  StateColumns out;
  Status st = DecodeStates(b, 3, &out);
  EXPECT_NE(st.message().find("outside its dictionary"), std::string::npos) << st.message();
  EXPECT_FALSE(st.hint().empty());
  // An index entry that points past the bytes.
  CompactColumns bad = c;
  std::vector<BlockEntry> entries = bad.blocks.ToVector();
  entries[0].offset = 5;
  bad.blocks = Column<BlockEntry>(entries);
  EXPECT_NE(DecodeAllStates(bad, &out).message().find("past the end"), std::string::npos);
}

TEST(CompactRecords, DecodingAppends) {
  StateColumns s = AwkwardStates(50, 3);
  CompactColumns c = EncodeStates(s, Plain(16));
  StateColumns out;
  for (size_t b = c.blocks.size(); b-- > 0;) {  // last block first
    StateColumns one;
    const BlockEntry& e = c.blocks[b];
    ASSERT_TRUE(DecodeStates(std::span<const uint8_t>(c.bytes.data() + e.offset, e.bytes), e.records, &one).ok());
    EXPECT_EQ(one.begin[0], s.begin[b * 16]);
  }
  ASSERT_TRUE(DecodeAllStates(c, &out).ok());
  ASSERT_TRUE(DecodeAllStates(c, &out).ok());
  ASSERT_EQ(out.size(), 100u);
  EXPECT_EQ(out.begin[50], s.begin[0]);
  EXPECT_EQ(out.end[99], s.end[49]);
}

}  // namespace
}  // namespace parallax::store::compact
