#include "src/io/prv/prv_writer.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "src/base/input_buffer.h"
#include "src/store/compact_records.h"
#include "src/store/compact_threads.h"
#include "src/store/time_mapping.h"
#include "tests/unit/io/prv_test_util.h"

namespace parallax::io {
namespace {

using testing::Parse;

std::string Write(const PrvTrace& t) {
  return WritePrvToString({&t.header, &t.store, &t.unsigned_value_types, t.open_end_as_number});
}

// Trace T in canonical order, worked out by hand: lines by (time, thread, state < event < comm).
constexpr const char* kTraceTCanonical =
    "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1)\n"
    "1:1:1:1:1:0:200:1\n"
    "2:1:1:1:1:0:50000001:31\n"
    "1:2:1:2:1:0:400:1\n"
    "1:1:1:1:1:200:300:3\n"
    "3:1:1:1:1:210:215:2:1:2:1:590:600:1024:77\n"
    "2:1:1:1:1:250:50000001:0\n"
    "1:1:1:1:1:300:700:1\n"
    "1:2:1:2:1:400:600:3\n"
    "2:1:1:1:1:500:50000002:7:50000003:9\n"
    "1:2:1:2:1:600:1000:1\n"
    "1:1:1:1:1:800:1000:1\n";

TEST(PrvWriter, TraceTInCanonicalOrder) {
  auto t = Parse(testing::kTraceT);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(Write(*t), kTraceTCanonical);
}

TEST(PrvWriter, CanonicalInputIsWrittenByteIdentical) {
  const char* inputs[] = {
      kTraceTCanonical,
      "#Paraver (12/05/23 at 09:00):5000:4:1:4(1:1,1:2,1:3,1:4),2\nc:1:1:2:1:2\ni:x\n"
      "1:1:1:1:1:0:-1:1\n2:0:1:2:1:3:7:18446744073709551615:8:-5\n",
      "#Paraver(x):100_ms:0:2:1(1:0),2(1:0,2:0)\n1:0:2:2:2:0:100:4\n",
      "#Paraver (x):100_xyz:1(3):2:1(1:1),1(1:1),0\n1:2:2:1:1:0:100:4\n",
  };
  for (const char* in : inputs) {
    auto t = Parse(in);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(Write(*t), in);
  }
}

void ExpectSameRecords(const PrvTrace& a, const PrvTrace& b, const std::string& what) {
  ASSERT_EQ(a.store.threads(), b.store.threads()) << what;
  EXPECT_EQ(a.store.end_time(), b.store.end_time()) << what;
  for (uint32_t i = 0; i < a.store.threads(); ++i) {
    const auto& x = a.store.thread(model::ThreadIndex(i));
    const auto& y = b.store.thread(model::ThreadIndex(i));
    EXPECT_EQ(x.states.begin, y.states.begin) << what << " thread " << i;
    EXPECT_EQ(x.states.end, y.states.end) << what;
    EXPECT_EQ(x.states.state, y.states.state) << what;
    EXPECT_EQ(x.states.cpu, y.states.cpu) << what;
    EXPECT_EQ(x.events.time, y.events.time) << what;
    EXPECT_EQ(x.events.type, y.events.type) << what;
    EXPECT_EQ(x.events.value, y.events.value) << what;
    EXPECT_EQ(x.events.cpu, y.events.cpu) << what;
    ASSERT_EQ(x.sent.size(), y.sent.size()) << what;
    const auto& cx = a.store.comms();
    const auto& cy = b.store.comms();
    for (size_t k = 0; k < x.sent.size(); ++k) {
      uint32_t p = x.sent[k], q = y.sent[k];
      EXPECT_EQ(cx.receiver[p], cy.receiver[q]) << what;
      EXPECT_EQ(cx.log_send[p], cy.log_send[q]) << what;
      EXPECT_EQ(cx.phy_send[p], cy.phy_send[q]) << what;
      EXPECT_EQ(cx.log_recv[p], cy.log_recv[q]) << what;
      EXPECT_EQ(cx.phy_recv[p], cy.phy_recv[q]) << what;
      EXPECT_EQ(cx.size[p], cy.size[q]) << what;
      EXPECT_EQ(cx.tag[p], cy.tag[q]) << what;
      EXPECT_EQ(cx.sender_cpu[p], cy.sender_cpu[q]) << what;
      EXPECT_EQ(cx.receiver_cpu[p], cy.receiver_cpu[q]) << what;
    }
  }
  EXPECT_EQ(a.store.comms().rows(), b.store.comms().rows()) << what;
  EXPECT_EQ(a.header.communicators, b.header.communicators) << what;
  EXPECT_EQ(a.header.date, b.header.date) << what;
  EXPECT_EQ(a.header.end_time, b.header.end_time) << what;
}

TEST(PrvWriter, RealTracesRoundTrip) {
  const char* traces[] = {
      "epoch/epoch_1proc.prv.gz", "epoch/epoch_2proc.prv.gz", "epoch/epoch_4proc.prv.gz",
      "omp/omp2.prv.gz", "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv",
      "profet/test1.prv", "profet/test2.prv", "profet/test3.prv", "qsort_beo3/qsort_beo3.prv",
      "compss_cholesky/cholesky_autoparallel.prv",
  };
  for (const char* name : traces) {
    auto first = ReadPrv(testing::TestData(name), {});
    ASSERT_TRUE(first.ok()) << name << ": " << first.status().ToString();
    std::string written = Write(*first);
    auto second = Parse(written);
    ASSERT_TRUE(second.ok()) << name;
    // The written file is sorted; only anomalies kept as data (end before begin) remain.
    EXPECT_EQ(second->diagnostics.count(DiagKind::kOutOfOrder), 0u) << name;
    EXPECT_EQ(second->diagnostics.problems(), first->diagnostics.count(DiagKind::kStateEndBeforeBegin))
        << name;
    ExpectSameRecords(*first, *second, name);
    EXPECT_EQ(Write(*second), written) << name << ": writing is not idempotent";
  }
}

TEST(PrvWriter, AStateEndingAtTheLargestTimeKeepsItsSpelling) {
  // 18446744073709551615 is the value of -1 (open end); it used to be written back as -1.
  const std::string number =
      "#Paraver (x):1000:1(1):1:1(1:1)\n"
      "1:1:1:1:1:0:18446744073709551615:1\n";
  auto t = Parse(number);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_TRUE(t->open_end_as_number);
  EXPECT_EQ(Write(*t), number);
  const std::string dash = "#Paraver (x):1000:1(1):1:1(1:1)\n1:1:1:1:1:0:-1:1\n";
  auto d = Parse(dash);
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->open_end_as_number);
  EXPECT_EQ(Write(*d), dash);
}

// Thread 1's times capped at 250 (non-decreasing), thread 2's kept: the mapped times decide the
// order (state before event at one time) and events that come to share a time and cpu share a
// line. Worked out by hand from kTraceTCanonical.
class CapThreadOne : public store::TimeMapping {
 public:
  model::Time Thread(uint32_t thread, model::Time t) const override {
    return thread == 0 ? std::min<model::Time>(t, 250) : t;
  }
  std::array<model::Time, 4> Comm(const store::CommTable& c, size_t id) const override {
    return {Thread(c.sender[id], c.log_send[id]), Thread(c.sender[id], c.phy_send[id]),
            Thread(c.receiver[id], c.log_recv[id]), Thread(c.receiver[id], c.phy_recv[id])};
  }
};

TEST(PrvWriter, TimesAreMappedAsWritten) {
  auto t = Parse(testing::kTraceT);
  ASSERT_TRUE(t.ok());
  CapThreadOne cap;
  PrvWriteInput in{&t->header, &t->store, &t->unsigned_value_types};
  in.times = &cap;
  EXPECT_EQ(WritePrvToString(in),
            "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1)\n"
            "1:1:1:1:1:0:200:1\n"
            "2:1:1:1:1:0:50000001:31\n"
            "1:2:1:2:1:0:400:1\n"
            "1:1:1:1:1:200:250:3\n"
            "3:1:1:1:1:210:215:2:1:2:1:590:600:1024:77\n"
            "1:1:1:1:1:250:250:1\n"
            "1:1:1:1:1:250:250:1\n"
            "2:1:1:1:1:250:50000001:0:50000002:7:50000003:9\n"
            "1:2:1:2:1:400:600:3\n"
            "1:2:1:2:1:600:1000:1\n");
}

// A compact store is written a block at a time per thread and gives the plain store's bytes,
// also when one line's events lie in two blocks.
TEST(PrvWriter, ACompactStoreWritesAsThePlainOneAcrossBlocks) {
  std::string text = "#Paraver (01/01/2024 at 00:00):100000_ns:1(2):1:2(1:1,1:1)\n";
  const uint32_t n = store::compact::kBlockRecords - 1;  // single events before the group
  for (uint32_t i = 0; i < n; ++i) {
    text += fmt::format("2:1:1:1:1:{}:10:{}\n", i + 1, i % 7);
    if (i % 1000 == 0) text += fmt::format("1:2:1:2:1:{}:{}:1\n", i + 1, i + 500);
  }
  const std::string group = fmt::format("2:1:1:1:1:{}:20:1:21:2:22:3\n", n + 5);
  text += group;
  text += fmt::format("1:1:1:1:1:0:{}:2\n", n + 10);
  auto t = Parse(text);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->store.EventCount(model::ThreadIndex(0)), store::compact::kBlockRecords + 2);
  const std::string plain = Write(*t);
  EXPECT_NE(plain.find(group), std::string::npos);
  t->store.Compact(0, 1);
  ASSERT_TRUE(t->store.compact());
  EXPECT_EQ(Write(*t), plain);
  EXPECT_EQ(t->store.compact_threads()->ResidentBytes(), 0u);  // nothing decoded for good
}

TEST(PrvWriter, RefusesToOverwrite) {
  auto t = Parse(testing::kTraceT);
  ASSERT_TRUE(t.ok());
  std::string path = ::testing::TempDir() + "/parallax_writer_test.prv";
  std::remove(path.c_str());
  PrvWriteInput in{&t->header, &t->store, &t->unsigned_value_types};
  ASSERT_TRUE(WritePrvFile(in, path, false).ok());
  Status again = WritePrvFile(in, path, false);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.hint().find("--force"), std::string::npos);
  EXPECT_TRUE(WritePrvFile(in, path, true).ok());
  auto back = base::InputBuffer::Open(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->view(), kTraceTCanonical);
  std::string gz = path + ".gz";
  std::remove(gz.c_str());
  ASSERT_TRUE(WritePrvFile(in, gz, false).ok());
  auto unz = base::InputBuffer::Open(gz);
  ASSERT_TRUE(unz.ok());
  EXPECT_EQ(unz->view(), kTraceTCanonical);
}

}  // namespace
}  // namespace parallax::io
