// Added functions (plug-ins, Python callables) are called with batches of intervals
// (src/semantic/rows.h, BatchSize): on a trace of a few thousand intervals per thread, an added
// function equal to a built-in one gives the built-in's intervals, from the start and from a
// time in the middle, at the thread and the task level; the calls carry many intervals each
// (never more than BatchSize::kMax); stateful thread functions get one interval per call; and a
// kernel failing in the middle of a batch fails the evaluation with its FunctionError.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "src/semantic/function_registry.h"
#include "src/semantic/rows.h"
#include "tests/unit/semantic/semantic_test_util.h"

namespace parallax::semantic {
namespace {

using model::Level;
using testing::Loaded;

// Two threads of one task, each with ~3000 states (values 0..5, back to back with a gap now and
// then) and an event of type 10 every third state. Deterministic (a linear congruential
// generator), sorted by time.
std::string BigTrace() {
  uint64_t seed = 12345;
  auto next = [&seed](uint64_t mod) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % mod;
  };
  std::vector<std::tuple<uint64_t, int, std::string>> lines;  // time, order, text
  uint64_t end = 0;
  for (int th = 1; th <= 2; ++th) {
    uint64_t t = 0;
    for (int k = 0; k < 3000; ++k) {
      uint64_t d = 1 + next(50);
      if (next(10) != 0) lines.emplace_back(t, 0, fmt::format("1:{0}:1:1:{0}:{1}:{2}:{3}", th, t, t + d, next(6)));
      if (k % 3 == 0) lines.emplace_back(t, 1, fmt::format("2:{0}:1:1:{0}:{1}:10:{2}", th, t, 1 + next(9)));
      t += d;
    }
    end = std::max(end, t);
  }
  std::sort(lines.begin(), lines.end());
  std::string text = fmt::format("#Paraver (01/01/2024 at 00:00):{}_ns:1(2):1:1(2:1)\n", end);
  for (const auto& l : lines) text += std::get<2>(l) + "\n";
  return text;
}

// What the kernels saw: how many calls, how many intervals in the largest one.
struct Calls {
  size_t calls = 0, intervals = 0, largest = 0;
  void Add(size_t n) {
    ++calls;
    intervals += n;
    largest = std::max(largest, n);
  }
};

class Batched : public ::testing::Test {
 protected:
  void SetUp() override {
    CustomFunction thread;
    thread.name = "My state";
    thread.kind = "thread";
    thread.info = "state";
    thread.records = kRecordStates;
    thread.thread = [this](size_t n, const FunctionRecord* r, const double*, const FunctionParams&, double* out) {
      thread_calls.Add(n);
      for (size_t i = 0; i < n; ++i)
        out[i] = r[i].kind == FunctionRecord::kStateBegin ? static_cast<double>(r[i].state) : 0;
    };
    ASSERT_TRUE(registry.Add(thread).ok());
    thread.name = "My state one by one";
    thread.stateful = true;
    thread.thread = [this](size_t n, const FunctionRecord* r, const double*, const FunctionParams&, double* out) {
      stateful_calls.Add(n);
      for (size_t i = 0; i < n; ++i)
        out[i] = r[i].kind == FunctionRecord::kStateBegin ? static_cast<double>(r[i].state) : 0;
    };
    ASSERT_TRUE(registry.Add(thread).ok());

    CustomFunction compose;
    compose.name = "My sign";
    compose.kind = "compose";
    compose.info = "none";
    compose.compose = [this](size_t n, const double* v, const uint64_t*, const uint64_t*, const FunctionParams&,
                             double* out) {
      compose_calls.Add(n);
      for (size_t i = 0; i < n; ++i) out[i] = v[i] > 0 ? 1 : 0;
    };
    ASSERT_TRUE(registry.Add(compose).ok());
    compose.name = "Fails after 20000";
    compose.compose = [](size_t n, const double*, const uint64_t* b, const uint64_t*, const FunctionParams&,
                         double* out) {
      for (size_t i = 0; i < n; ++i) {
        if (b[i] >= 20000) throw FunctionError("'Fails after 20000' met an interval at 20000");
        out[i] = 1;
      }
    };
    ASSERT_TRUE(registry.Add(compose).ok());

    CustomFunction derived;
    derived.name = "My product";
    derived.kind = "derived";
    derived.derived = [this](size_t n, const double* a, const double* b, const FunctionParams&, double* out) {
      derived_calls.Add(n);
      for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
    };
    ASSERT_TRUE(registry.Add(derived).ok());
  }

  TraceView View() const {
    TraceView v = trace.view();
    v.functions = &registry;
    return v;
  }

  // The intervals of a row from Init(t) until the trace's end.
  std::vector<Interval> Read(std::vector<WindowSpec> windows, uint32_t object, model::Time t = 0) const {
    size_t index = windows.size() - 1;
    auto ev = WindowEvaluator::Create(View(), std::move(windows), index);
    EXPECT_TRUE(ev.ok()) << ev.status().ToString();
    if (!ev.ok()) return {};
    auto row = ev.value()->MakeRow(object);
    std::vector<Interval> out;
    row->Init(t);
    for (;;) {
      out.push_back(row->current());
      if (row->current().end >= ev.value()->trace_end()) break;
      row->Next();
    }
    return out;
  }

  static WindowSpec Thread(const std::string& fn, Level level = Level::kThread) {
    return testing::Window(level, fn);
  }
  static WindowSpec Composed(const std::string& fn) {
    WindowSpec w = Thread("State As Is");
    w.functions[static_cast<size_t>(Slot::kComposeThread)] = FunctionSpec{fn, {}};
    return w;
  }
  static WindowSpec Derived(const std::string& fn) {
    WindowSpec d;
    d.derived = true;
    d.parent0 = 0;
    d.parent1 = 1;
    d.unit = model::TimeUnit::kNs;
    d.functions[static_cast<size_t>(Slot::kDerived)].name = fn;
    return d;
  }

  Loaded trace = testing::Load(BigTrace());
  FunctionRegistry registry;
  Calls thread_calls, stateful_calls, compose_calls, derived_calls;
};

void ExpectSame(const std::vector<Interval>& got, const std::vector<Interval>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << "interval " << i;
}

TEST_F(Batched, ThreadFunctionEqualsTheBuiltInInBatches) {
  for (uint32_t th : {0u, 1u}) {
    std::vector<Interval> want = Read({Thread("State As Is")}, th);
    ASSERT_GT(want.size(), 2500u);
    ExpectSame(Read({Thread("My state")}, th), want);
    // the same function, one interval per call (stateful)
    ExpectSame(Read({Thread("My state one by one")}, th), want);
    // from the middle
    model::Time mid = want[want.size() / 2].begin + 1;
    ExpectSame(Read({Thread("My state")}, th, mid), Read({Thread("State As Is")}, th, mid));
  }
  EXPECT_EQ(thread_calls.largest, BatchSize::kMax);
  EXPECT_LT(thread_calls.calls, thread_calls.intervals / 100);
  EXPECT_EQ(stateful_calls.largest, 1u);
  // task level: both threads' rows batched under the aggregation
  ExpectSame(Read({Thread("My state", Level::kTask)}, 0), Read({Thread("State As Is", Level::kTask)}, 0));
}

TEST_F(Batched, ComposeFunctionEqualsTheBuiltInInBatches) {
  for (uint32_t th : {0u, 1u}) {
    std::vector<Interval> want = Read({Composed("Sign")}, th);
    ExpectSame(Read({Composed("My sign")}, th), want);
    model::Time mid = want[want.size() / 3].begin + 1;
    ExpectSame(Read({Composed("My sign")}, th, mid), Read({Composed("Sign")}, th, mid));
  }
  EXPECT_EQ(compose_calls.largest, BatchSize::kMax);
  EXPECT_LT(compose_calls.calls, compose_calls.intervals / 100);
}

TEST_F(Batched, DerivedFunctionEqualsTheBuiltInInBatches) {
  for (uint32_t th : {0u, 1u}) {
    std::vector<Interval> want = Read({Thread("State As Is"), Thread("Last Evt Val"), Derived("product")}, th);
    ASSERT_GT(want.size(), 2500u);
    ExpectSame(Read({Thread("State As Is"), Thread("Last Evt Val"), Derived("My product")}, th), want);
    model::Time mid = want[want.size() / 2].begin + 1;
    ExpectSame(Read({Thread("State As Is"), Thread("Last Evt Val"), Derived("My product")}, th, mid),
               Read({Thread("State As Is"), Thread("Last Evt Val"), Derived("product")}, th, mid));
  }
  EXPECT_EQ(derived_calls.largest, BatchSize::kMax);
  EXPECT_LT(derived_calls.calls, derived_calls.intervals / 100);
}

TEST_F(Batched, AFailureInTheMiddleOfABatchFailsTheEvaluation) {
  EXPECT_THROW(Read({Composed("Fails after 20000")}, 0), FunctionError);
  // before 20000 only: the first batch after Init is small, so reading a few intervals from the
  // start never reaches the failing one
  auto ev = WindowEvaluator::Create(View(), {Composed("Fails after 20000")}, 0);
  ASSERT_TRUE(ev.ok());
  auto row = ev.value()->MakeRow(0);
  row->Init(0);
  for (int k = 0; k < 10; ++k) row->Next();
  EXPECT_EQ(row->current().value, 1);
}

}  // namespace
}  // namespace parallax::semantic
