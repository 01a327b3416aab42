// Derived windows evaluated as a DAG (src/semantic/shared_row.h): shared parents are computed
// once per object, long acyclic chains work, real cycles are named, and a shared row gives the
// same intervals as private copies would.

#include <gtest/gtest.h>

#include <cmath>

#include "src/semantic/shared_row.h"
#include "tests/unit/io/prv_test_util.h"
#include "tests/unit/semantic/semantic_test_util.h"

namespace parallax::semantic {
namespace {

using model::Level;
using testing::Dump;
using testing::I;
using testing::Load;
using testing::Window;

WindowSpec Derived(int p0, int p1, const char* fn = "add") {
  WindowSpec d;
  d.name = "d" + std::to_string(p0) + "_" + std::to_string(p1);
  d.derived = true;
  d.parent0 = p0;
  d.parent1 = p1;
  d.unit = model::TimeUnit::kNs;
  d.functions[static_cast<size_t>(Slot::kDerived)].name = fn;
  return d;
}

// State As Is of trace T, thread 0 (semantics_examples_test.cc, §2.3).
const std::vector<Interval> kStates = {I{0, 200, 1}, I{200, 300, 3}, I{300, 700, 1}, I{700, 800, 0},
                                       I{800, 1000, 1}};

std::vector<Interval> Scaled(std::vector<Interval> v, double f) {
  for (Interval& i : v) i.value *= f;
  return v;
}

void ExpectSame(const std::vector<Interval>& got, const std::vector<Interval>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].begin, want[i].begin) << i;
    EXPECT_EQ(got[i].end, want[i].end) << i;
    EXPECT_EQ(got[i].value, want[i].value) << i;
  }
}

class Dag : public ::testing::Test {
 protected:
  testing::Loaded t = Load(io::testing::kTraceT);
};

// W0 = states, Wk = W(k-1) + W(k-1): as a tree 2^32 leaves; as a DAG 33 windows. Every value is
// 2^32 times the state.
TEST_F(Dag, DiamondOf32WindowsIsLinear) {
  std::vector<WindowSpec> ws = {Window(Level::kThread, "State As Is")};
  for (int k = 1; k <= 32; ++k) ws.push_back(Derived(k - 1, k - 1));
  ExpectSame(Dump(t, ws, 0), Scaled(kStates, std::ldexp(1.0, 32)));
  ExpectSame(Dump(t, ws, 1),
             Scaled(Dump(t, Window(Level::kThread, "State As Is"), 1), std::ldexp(1.0, 32)));
}

// Wk = W(k-1) + W0: a chain longer than the old depth limit of 32, up to kMaxWindows windows.
TEST_F(Dag, LongAcyclicChains) {
  for (size_t n : {size_t{40}, kMaxWindows}) {
    std::vector<WindowSpec> ws = {Window(Level::kThread, "State As Is")};
    while (ws.size() < n) ws.push_back(Derived(static_cast<int>(ws.size()) - 1, 0));
    SCOPED_TRACE(n);
    ExpectSame(Dump(t, ws, 0), Scaled(kStates, static_cast<double>(n)));
  }
}

TEST_F(Dag, TooManyWindows) {
  std::vector<WindowSpec> ws(kMaxWindows + 1, Window(Level::kThread, "State As Is"));
  auto ev = WindowEvaluator::Create(t.view(), ws, 0);
  ASSERT_FALSE(ev.ok());
  EXPECT_NE(ev.status().message().find("at most 512 windows"), std::string::npos)
      << ev.status().ToString();
}

TEST_F(Dag, CycleIsNamed) {
  WindowSpec a = Derived(2, 0), b = Derived(0, 0), c = Derived(1, 1);
  a.name = "a";
  b.name = "b";
  c.name = "c";
  // a uses c, c uses b, b uses a.
  b.parent0 = b.parent1 = 0;
  c.parent0 = c.parent1 = 1;
  a.parent0 = a.parent1 = 2;
  auto ev = WindowEvaluator::Create(t.view(), {a, b, c}, 2);
  ASSERT_FALSE(ev.ok());
  EXPECT_EQ(ev.status().message(),
            "derived windows refer to each other in a cycle: c (3) -> b (2) -> a (1) -> c (3)");
  WindowSpec self = Derived(0, 0);
  self.name = "self";
  ev = WindowEvaluator::Create(t.view(), {self}, 0);
  ASSERT_FALSE(ev.ok());
  EXPECT_EQ(ev.status().message(),
            "derived windows refer to each other in a cycle: self (1) -> self (1)");
}

// A parent used twice with different shifts, and as data and control of a controlled window:
// the shared row must give what two private copies of the window give.
TEST_F(Dag, SharedEqualsPrivateCopies) {
  WindowSpec states = Window(Level::kThread, "State As Is");
  for (int shift : {-2, -1, 1, 3}) {
    WindowSpec shared = Derived(0, 0);
    shared.shift0 = shift;
    WindowSpec copies = Derived(0, 1);
    copies.shift0 = shift;
    for (uint32_t thread : {0u, 1u})
      ExpectSame(Dump(t, {states, shared}, thread), Dump(t, {states, states, copies}, thread));
  }
  for (const char* fn : {"controlled: add", "controlled: maximum", "controlled: average"}) {
    WindowSpec last = Window(Level::kThread, "Last Evt Val");
    ExpectSame(Dump(t, {last, Derived(0, 0, fn)}, 0), Dump(t, {last, last, Derived(0, 1, fn)}, 0));
  }
  // Two derived windows over one parent, both used by a third (the parent is shared 4 times).
  std::vector<WindowSpec> ws = {states, Derived(0, 0, "product"), Derived(0, 0, "substract"),
                                Derived(1, 2)};
  ExpectSame(Dump(t, ws, 0),
             {I{0, 200, 1}, I{200, 300, 9}, I{300, 700, 1}, I{700, 800, 0}, I{800, 1000, 1}});
}

// A row of unit intervals [k, k+1) with value k; Init(t) starts at k = t.
class Counter : public Row {
 public:
  explicit Counter(int* built) { ++*built; }
  void Init(model::Time t) override { Set(t); }
  void Next() override { Set(cur_.end); }

 private:
  void Set(model::Time k) { cur_ = Interval{k, k + 1, static_cast<double>(k)}; }
};

TEST(SharedSource, ConsumersAreIndependent) {
  int built = 0;
  auto source = std::make_shared<SharedSource>(
      std::make_unique<Counter>(&built), [&built] { return std::make_unique<Counter>(&built); });
  SharedRow a(source), b(source);
  a.Init(5);
  b.Init(5);
  for (int k = 0; k < 10; ++k) a.Next();
  EXPECT_EQ(a.current().value, 15);
  EXPECT_EQ(b.current().value, 5);
  b.Next();
  EXPECT_EQ(b.current().value, 6);
  EXPECT_EQ(built, 1);  // one row served both
  // b re-initialises elsewhere: a loses its place and continues on a private copy.
  b.Init(100);
  EXPECT_EQ(b.current().value, 100);
  a.Next();
  EXPECT_EQ(a.current().value, 16);
  EXPECT_EQ(built, 2);
  b.Next();
  EXPECT_EQ(b.current().value, 101);
}

TEST(SharedSource, BufferIsBounded) {
  int built = 0;
  auto source = std::make_shared<SharedSource>(
      std::make_unique<Counter>(&built), [&built] { return std::make_unique<Counter>(&built); });
  SharedRow fast(source), slow(source);
  fast.Init(0);
  slow.Init(0);
  const uint64_t far = SharedSource::kMaxBuffered + 10;
  for (uint64_t k = 0; k < far; ++k) fast.Next();
  EXPECT_EQ(fast.current().value, static_cast<double>(far));
  EXPECT_EQ(built, 1);
  slow.Next();  // dropped from the buffer: replays on a private copy
  EXPECT_EQ(slow.current().value, 1);
  EXPECT_EQ(built, 2);
  slow.Next();
  EXPECT_EQ(slow.current().value, 2);
}

}  // namespace
}  // namespace parallax::semantic
