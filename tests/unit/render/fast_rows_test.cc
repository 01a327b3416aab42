// The fast rows (src/semantic/fast_rows.h) give exactly the generic rows' intervals and folds:
// State As Is and Last Evt Val (with several event filters), on hand-made edge cases and real
// traces.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "src/render/fold.h"
#include "src/semantic/fast_rows.h"
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

// Event filters the fast Last Evt Val row must honour as the generic row does.
std::vector<filter::FilterSpec> EventFilters() {
  std::vector<filter::FilterSpec> out(1);  // no filter
  filter::FilterSpec range;
  range.event_type = {filter::CriterionOp::kRange, {50000001, 50000005}};
  out.push_back(range);
  filter::FilterSpec one;
  one.event_type = {filter::CriterionOp::kEqual, {10}};
  out.push_back(one);
  filter::FilterSpec value_or;  // type 10, or any type with a value above 2
  value_or.type_value_and = false;
  value_or.event_type = {filter::CriterionOp::kEqual, {10}};
  value_or.event_value = {filter::CriterionOp::kGreater, {2}};
  out.push_back(value_or);
  filter::FilterSpec none;
  none.event_type = {filter::CriterionOp::kNone, {}};
  out.push_back(none);
  filter::FilterSpec wide;  // too many types to compare at once: looked up per type
  wide.event_type = {filter::CriterionOp::kRange, {1, 60000000}};
  out.push_back(wide);
  filter::FilterSpec list;  // an unsorted list with a type that cannot exist
  list.event_type = {filter::CriterionOp::kEqual, {30, 10, 10.5}};
  out.push_back(list);
  filter::FilterSpec or_all;  // "or" with a value criterion that passes every event
  or_all.type_value_and = false;
  or_all.event_type = {filter::CriterionOp::kEqual, {10}};
  or_all.event_value = {filter::CriterionOp::kAll, {1}};
  out.push_back(or_all);
  return out;
}

// Every thread's Last Evt Val intervals both ways: from Init at the start, at every event time
// and between them, then 6 steps on; and folded as ExpectSameFolds does.
void ExpectSameEventRows(const io::PrvTrace& prv, size_t filters = SIZE_MAX) {
  std::vector<filter::FilterSpec> specs = EventFilters();
  specs.resize(std::min(specs.size(), filters));
  for (const filter::FilterSpec& f : specs) {
    semantic::WindowSpec w = Window("Last Evt Val");
    w.filter = f;
    ASSERT_TRUE(semantic::IsPlainEventWindow(w));
    auto ev = semantic::WindowEvaluator::Create({&prv.header, &prv.store, nullptr}, {w}, 0);
    ASSERT_TRUE(ev.ok()) << ev.status().ToString();
    const model::Time end = ev.value()->trace_end();
    for (uint32_t t = 0; t < prv.store.threads(); ++t) {
      const auto& events = prv.store.thread(model::ThreadIndex(t)).events;
      semantic::EventRow fast(events, ev.value()->filter(), end);
      auto generic = ev.value()->MakeRow(t);
      std::vector<model::Time> starts = {0, end, end + 5};
      const size_t step = std::max<size_t>(1, events.size() / 12);  // real traces: 12 places
      for (size_t k = 0; k < events.size(); k += step) {
        starts.push_back(events.time[k]);
        starts.push_back(events.time[k] + 1);
        if (events.time[k] > 0) starts.push_back(events.time[k] - 1);
      }
      for (model::Time at : starts) {
        fast.Init(at);
        generic->Init(at);
        for (int i = 0; i < 7; ++i) {
          ASSERT_EQ(fast.current(), generic->current())
              << "thread " << t << " init " << at << " step " << i << " filter " << static_cast<int>(f.event_type.op);
          fast.Next();
          generic->Next();
        }
      }
      const std::pair<model::Time, model::Time> ranges[] = {{0, end}, {end / 3, end / 3 + end / 50}};
      for (auto [from, to] : ranges) {
        for (uint32_t width : {7u, 2000u}) {
          Columns c = MakeColumns(from, to, end, width, 1);
          for (DrawMode m : {DrawMode::kLast, DrawMode::kAverage}) {
            FoldOptions o{m, false, 1, nullptr};
            auto g = ev.value()->MakeRow(t);
            EXPECT_EQ(FoldRow(fast, c, o, t, end).values, FoldRow(*g, c, o, t, end).values)
                << "thread " << t << " width " << width << " from " << from;
          }
        }
      }
    }
  }
}

TEST(EventRow, HandWrittenSameTimeEventsFiltersAndTheEnds) {
  const Loaded t = Load(
      "#Paraver (x):100_ns:1(2):1:1(2:1)\n"
      "2:1:1:1:1:0:10:1\n"
      "2:1:1:1:1:5:10:2:20:7:10:3\n"
      "2:1:1:1:1:5:10:0\n"
      "2:1:1:1:1:40:20:1\n"
      "2:1:1:1:1:60:10:5\n"
      "2:1:1:1:1:100:10:4\n"
      "1:1:1:1:2:0:100:1\n"
      "2:1:1:1:2:50:30:9\n");
  ExpectSameEventRows(t.prv);
}

TEST(EventRow, RealTraces) {
  for (const char* name : {"epoch/epoch_4proc.prv.gz", "omp/omp2.prv.gz"}) {
    auto trace = session::OpenTrace(std::string(PARALLAX_TEST_DATA) + "/" + name, {});
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    ExpectSameEventRows(trace.value()->prv(), 2);  // no filter, a type range
  }
}

TEST(EventRow, OnlyForPlainLastEventValueWindows) {
  EXPECT_TRUE(semantic::IsPlainEventWindow(Window("Last Evt Val")));
  EXPECT_FALSE(semantic::IsPlainEventWindow(Window("Next Evt Val")));
  EXPECT_FALSE(semantic::IsPlainEventWindow(Window("State As Is")));
  semantic::WindowSpec task = Window("Last Evt Val");
  task.level = model::Level::kTask;
  EXPECT_FALSE(semantic::IsPlainEventWindow(task));
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
