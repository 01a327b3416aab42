// The fast State As Is row folds to exactly what the generic row folds to.

#include <gtest/gtest.h>

#include "src/render/fold.h"
#include "src/semantic/state_row.h"
#include "src/session/trace_impl.h"
#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

// Folds every thread both ways over several ranges, widths and draw modes.
void ExpectSameFolds(const io::PrvTrace& prv) {
  semantic::WindowSpec w = Window("State As Is");
  auto ev = semantic::WindowEvaluator::Create({&prv.header, &prv.store, nullptr}, {w}, 0);
  ASSERT_TRUE(ev.ok());
  const model::Time end = ev.value()->trace_end();
  const std::pair<model::Time, model::Time> ranges[] = {
      {0, end}, {end / 3, end / 3 + end / 50}, {end / 2, end}};
  for (auto [from, to] : ranges) {
    for (uint32_t width : {7u, 300u, 2000u}) {
      Columns c = MakeColumns(from, to, end, width, 1);
      for (DrawMode m :
           {DrawMode::kLast, DrawMode::kMaximum, DrawMode::kAverage, DrawMode::kMode}) {
        FoldOptions o{m, false, 1, nullptr};
        for (uint32_t t = 0; t < prv.store.threads(); ++t) {
          const auto& states = prv.store.thread(model::ThreadIndex(t)).states;
          if (!semantic::StateRow::WellFormed(states, 0, end)) continue;
          semantic::StateRow fast(states, end);
          auto generic = ev.value()->MakeRow(t);
          EXPECT_EQ(FoldRow(fast, c, o, t, end).values, FoldRow(*generic, c, o, t, end).values)
              << "thread " << t << " width " << width << " from " << from;
        }
      }
    }
  }
}

TEST(StateRow, HandWrittenGapsAndZeroLengthStates) {
  const Loaded t = Load(
      "#Paraver (x):100_ns:1(2):1:1(2:1)\n"
      "1:1:1:1:1:5:20:1\n"
      "1:1:1:1:1:20:20:3\n"
      "1:1:1:1:1:20:30:7\n"
      "1:1:1:1:1:40:40:5\n"
      "1:1:1:1:1:50:90:1\n"
      "2:1:1:1:1:25:10:1\n"
      "1:2:1:1:2:0:100:1\n");
  ExpectSameFolds(t.prv);
}

TEST(StateRow, RealTraces) {
  for (const char* name :
       {"epoch/epoch_4proc.prv.gz", "omp/omp2.prv.gz", "epoch/epoch_1proc.prv.gz"}) {
    auto trace = session::OpenTrace(std::string(PARALLAX_TEST_DATA) + "/" + name, {});
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    ExpectSameFolds(trace.value()->prv());
  }
}

TEST(StateRow, OnlyForPlainWindows) {
  EXPECT_TRUE(semantic::IsPlainStateWindow(Window("State As Is")));
  EXPECT_FALSE(semantic::IsPlainStateWindow(Window("Useful")));
  semantic::WindowSpec task = Window("State As Is");
  task.level = model::Level::kTask;
  EXPECT_FALSE(semantic::IsPlainStateWindow(task));
}

}  // namespace
}  // namespace parallax::render::testing
