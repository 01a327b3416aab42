// The worked examples of analysis.md on trace T (trace-format.md §10): §6.3 (state profile),
// §6.4 (data window ≠ control window), §7 (communications), §8.1 (totals) and the paramedir
// layout of §8.3.

#include "src/analysis/histogram.h"

#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "src/analysis/histogram_table.h"
#include "src/io/prv/prv_reader.h"
#include "tests/unit/io/prv_test_util.h"

namespace parallax::analysis {
namespace {

using semantic::Slot;
using semantic::WindowSpec;

class HistogramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = io::testing::Parse(io::testing::kTraceT);
    ASSERT_TRUE(t.ok());
    trace_ = std::move(t.value());
    WindowSpec states;
    states.unit = model::TimeUnit::kNs;
    input_.trace = {&trace_.header, &trace_.store, nullptr};
    input_.windows = {states};
    input_.spec.control = 0;
    input_.spec.compute_y_scale = false;
    input_.spec.minimum = 0;
    input_.spec.maximum = 20;
    input_.spec.delta = 1;
    input_.spec.use_fixed_delta = true;
    input_.threads = 2;
  }

  HistogramResult Compute() {
    auto r = ComputeHistogram(input_);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? std::move(r.value()) : HistogramResult{};
  }

  // The statistic of a cell, or NaN when the cell does not exist.
  static double At(const HistogramResult& r, size_t row, uint32_t col, const char* stat) {
    int s = r.comm ? CommStatisticIndex(stat) : SemanticStatisticIndex(stat);
    for (const Cell& c : r.cells[row])
      if (c.column == col) return c.stats[static_cast<size_t>(s)];
    return std::nan("");
  }

  io::PrvTrace trace_;
  HistogramInput input_;
};

TEST_F(HistogramTest, StateProfileOfSection63) {
  HistogramResult r = Compute();
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.columns.count, 21u);
  EXPECT_EQ(At(r, 0, 0, "Time"), 100);
  EXPECT_EQ(At(r, 0, 1, "Time"), 800);
  EXPECT_EQ(At(r, 0, 1, "% Time"), 80);
  EXPECT_NEAR(At(r, 0, 1, "% Time Not Zero"), 88.8888888889, 1e-9);
  EXPECT_EQ(At(r, 0, 0, "% Time Not Zero"), 0);
  EXPECT_EQ(At(r, 0, 1, "# Bursts"), 3);
  EXPECT_EQ(At(r, 0, 1, "% # Bursts"), 60);
  EXPECT_EQ(At(r, 0, 3, "Integral"), 300);
  EXPECT_NEAR(At(r, 0, 1, "Average Burst Time"), 266.6666666667, 1e-9);
  EXPECT_NEAR(At(r, 0, 1, "Stdev Burst Time"), 94.2809041582, 1e-9);
  EXPECT_TRUE(std::isnan(At(r, 0, 0, "Average per Burst != 0")));
  EXPECT_NEAR(At(r, 1, 1, "% # Bursts"), 66.6666666667, 1e-9);
  EXPECT_EQ(At(r, 1, 3, "% Time"), 20);
}

TEST_F(HistogramTest, RangeAndMinimumVariants) {
  input_.spec.minimum = 1;
  HistogramResult r = Compute();
  EXPECT_EQ(r.columns.count, 20u);
  EXPECT_NEAR(At(r, 0, 0, "% Time"), 88.8888888889, 1e-9);  // value 1 is column 0 now
  input_.spec.minimum = 0;
  input_.spec.limits = cfg::AnalysisLimits::kAllwindow;
  input_.windows[0].range = {false, 250, 750};
  r = Compute();
  EXPECT_EQ(At(r, 0, 3, "Time"), 50);
  EXPECT_EQ(At(r, 0, 1, "% Window Time"), 80);
  EXPECT_EQ(At(r, 1, 1, "% Time"), 60);
}

TEST_F(HistogramTest, DataWindowOfSection64) {
  WindowSpec data;
  data.unit = model::TimeUnit::kNs;
  data.functions[static_cast<size_t>(Slot::kThread)].name = "Last Evt Val";
  data.filter.event_type = {filter::CriterionOp::kEqual, {50000001}};
  input_.windows.push_back(data);
  input_.spec.data = 1;
  HistogramResult r = Compute();
  EXPECT_EQ(At(r, 0, 1, "# Bursts"), 3);
  EXPECT_EQ(At(r, 0, 1, "Average value"), 7.75);
  EXPECT_EQ(At(r, 0, 3, "Average value"), 15.5);
  EXPECT_EQ(At(r, 0, 1, "Integral"), 6200);
  EXPECT_NEAR(At(r, 0, 1, "Average per Burst"), 10.3333333333, 1e-9);
  EXPECT_EQ(At(r, 0, 1, "Average value != 0"), 31);
  EXPECT_EQ(At(r, 0, 3, "Minimum"), 31);
}

TEST_F(HistogramTest, CommunicationsOfSection7) {
  input_.spec.statistic = "Bytes sent";
  HistogramResult r = Compute();
  ASSERT_TRUE(r.comm);
  EXPECT_EQ(At(r, 0, 1, "#Sends"), 1);
  EXPECT_EQ(At(r, 0, 1, "Bytes sent"), 1024);
  EXPECT_EQ(At(r, 0, 1, "Minimum bytes sent"), 1024);
  EXPECT_EQ(At(r, 1, 0, "#Receives"), 1);
  EXPECT_TRUE(std::isnan(At(r, 1, 0, "Average bytes sent")));
  input_.spec.limits = cfg::AnalysisLimits::kAllwindow;
  input_.windows[0].range = {false, 300, 1000};
  r = Compute();
  EXPECT_TRUE(std::isnan(At(r, 0, 1, "#Sends")));  // the send at 210 is out of the range
  EXPECT_EQ(At(r, 1, 0, "#Receives"), 1);
}

// A portion [250, 650) of trace T, worked by hand. Thread 1.1: 250-300 in state 3, 300-650 in
// state 1; thread 1.2: 250-400 in state 1, 400-600 in state 3, 600-650 in state 1.
TEST_F(HistogramTest, FixedRangeClipsIntervals) {
  input_.range = std::pair<model::Time, model::Time>(250, 650);
  HistogramResult r = Compute();
  EXPECT_EQ(r.begin, 250u);
  EXPECT_EQ(r.end, 650u);
  EXPECT_EQ(At(r, 0, 1, "Time"), 350);
  EXPECT_EQ(At(r, 0, 1, "# Bursts"), 1);
  EXPECT_EQ(At(r, 0, 1, "% Time"), 87.5);
  EXPECT_EQ(At(r, 0, 3, "Time"), 50);
  EXPECT_TRUE(std::isnan(At(r, 0, 0, "Time")));  // the idle gap 700-800 is outside
  EXPECT_EQ(At(r, 1, 1, "Time"), 200);
  EXPECT_EQ(At(r, 1, 1, "# Bursts"), 2);
  EXPECT_EQ(At(r, 1, 3, "Time"), 200);
  EXPECT_EQ(At(r, 1, 3, "% Time"), 50);
  // The range replaces the cfg's limits, even Allwindow.
  input_.spec.limits = cfg::AnalysisLimits::kAllwindow;
  input_.windows[0].range = {false, 0, 1000};
  HistogramResult again = Compute();
  EXPECT_EQ(At(again, 0, 1, "Time"), 350);
  // An end beyond the trace is capped at its end.
  input_.range = std::pair<model::Time, model::Time>(900, 5000);
  r = Compute();
  EXPECT_EQ(r.end, 1000u);
  EXPECT_EQ(At(r, 0, 1, "Time"), 100);
}

TEST_F(HistogramTest, FixedRangeCountsCommunicationsInTheClosedRange) {
  input_.spec.statistic = "Bytes sent";
  input_.range = std::pair<model::Time, model::Time>(250, 600);
  HistogramResult r = Compute();
  EXPECT_TRUE(std::isnan(At(r, 0, 1, "#Sends")));  // sent at 210 / 215
  EXPECT_EQ(At(r, 1, 0, "#Receives"), 1);          // received at 600: [B, E] is closed
  input_.range = std::pair<model::Time, model::Time>(210, 599);
  r = Compute();
  EXPECT_EQ(At(r, 0, 1, "#Sends"), 1);
  EXPECT_TRUE(std::isnan(At(r, 1, 0, "#Receives")));
}

TEST(HistogramTotals, OperationOrderOfSection81) {
  Totals t = ComputeTotals(std::vector<double>(20, 1616378951));
  EXPECT_EQ(fmt::format("{:.10f}", t[4]), "20.2385770251");
  Totals col3 = ComputeTotals({100, 200});
  EXPECT_EQ(col3, (Totals{300, 150, 200, 100, 50, 0.75}));
  Totals none = ComputeTotals({});
  EXPECT_EQ(none[0], 0);
  EXPECT_TRUE(std::isnan(none[5]));
}

TEST_F(HistogramTest, ParamedirLayoutOfSection83) {
  input_.spec.hide_columns = true;
  HistogramResult r = Compute();
  LabelContext labels{&trace_.header, nullptr, nullptr, nullptr};
  std::string text = FormatParamedirTable(BuildTable(r, input_, labels, {}), 2);
  EXPECT_EQ(text,
            "\tUnknown state 0\tUnknown state 1\tUnknown state 3\t\n"
            "THREAD 1.1.1\t100.00\t800.00\t100.00\t\n"
            "THREAD 1.2.1\t0.00\t800.00\t200.00\t\n"
            "\n"
            "Total\t100.00\t1600.00\t300.00\t\n"
            "Average\t100.00\t800.00\t150.00\t\n"
            "Maximum\t100.00\t800.00\t200.00\t\n"
            "Minimum\t100.00\t800.00\t100.00\t\n"
            "StDev\t0.00\t0.00\t50.00\t\n"
            "Avg/Max\t1.00\t1.00\t0.75\t\n"
            "\n");
}

}  // namespace
}  // namespace parallax::analysis
