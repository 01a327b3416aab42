// The factors of a series from hand-made raw data (pop-metrics.md "Factors"): modelfactors'
// strong/weak guess, its weak-scaling corrections, NaN instead of division by zero, and the
// warnings for series that do not look like one code.

#include <gtest/gtest.h>

#include <cmath>

#include "src/pop/pop_metrics.h"

namespace parallax::pop {
namespace {

RawData Raw(uint32_t procs, double runtime, double avg, double max, double ins, double cyc) {
  RawData r;
  r.processes = r.threads = procs;
  r.runtime_us = runtime;
  r.useful_avg_us = avg;
  r.useful_max_us = max;
  r.useful_total_us = avg * procs;
  r.useful_instructions = ins;
  r.useful_cycles = cyc;
  r.code_event_types = {50000001, 50000002};
  return r;
}

std::vector<PopTraceInfo> Infos(size_t n) {
  std::vector<PopTraceInfo> v;
  for (size_t i = 0; i < n; ++i) v.push_back({"t" + std::to_string(i), 0, 0});
  return v;
}

const PopLine& Factor(const PopReport& r, const std::string& key) {
  for (const PopLine& l : r.factors)
    if (l.key == key) return l;
  static PopLine none;
  return none;
}

TEST(PopFactors, SingleTrace) {
  PopReport r = BuildReport({Raw(2, 100, 80, 90, 1000, 500)}, Infos(1), PopScaling::kAuto);
  EXPECT_EQ(r.scaling, PopScaling::kStrong);
  EXPECT_NEAR(Factor(r, "load_balance").values[0], 100.0 * 80 / 90, 1e-12);
  EXPECT_NEAR(Factor(r, "communication_efficiency").values[0], 90.0, 1e-12);
  EXPECT_NEAR(Factor(r, "parallel_efficiency").values[0], 80.0, 1e-12);
  EXPECT_NEAR(Factor(r, "average_ipc").values[0], 2.0, 1e-12);
  EXPECT_NEAR(Factor(r, "average_frequency_ghz").values[0], 500.0 / 160 / 1000, 1e-15);
  EXPECT_TRUE(std::isnan(Factor(r, "serialization_efficiency").values[0]));
  EXPECT_TRUE(r.warnings.empty());
}

// With the ideal replay's values: serialization = ideal useful max / ideal runtime, transfer =
// communication efficiency / serialization (pop-metrics.md).
TEST(PopFactors, SerializationAndTransferFromIdealValues) {
  RawData raw = Raw(2, 100, 80, 90, 1000, 500);
  raw.runtime_ideal_us = 95;
  raw.useful_ideal_max_us = 76;
  PopReport r = BuildReport({raw}, Infos(1), PopScaling::kAuto);
  EXPECT_NEAR(Factor(r, "serialization_efficiency").values[0], 80.0, 1e-12);
  EXPECT_NEAR(Factor(r, "transfer_efficiency").values[0], 90.0 / 80.0 * 100, 1e-12);
  EXPECT_TRUE(Factor(r, "serialization_efficiency").unavailable.empty());
}

// Instructions grow with the processes: weak scaling, and the scalabilities and the speedup
// are scaled by the process ratio as modelfactors does.
TEST(PopFactors, WeakScalingIsGuessedAndCorrected) {
  PopReport r = BuildReport({Raw(1, 100, 100, 100, 1000, 500), Raw(4, 110, 100, 100, 4000, 2000)},
                            Infos(2), PopScaling::kAuto);
  EXPECT_EQ(r.scaling, PopScaling::kWeak);
  EXPECT_NEAR(Factor(r, "computation_scalability").values[1], 100.0, 1e-9);
  EXPECT_NEAR(Factor(r, "instruction_scalability").values[1], 100.0, 1e-9);
  EXPECT_NEAR(Factor(r, "speedup").values[1], 4 * 100.0 / 110, 1e-9);
  PopReport strong =
      BuildReport({Raw(1, 100, 100, 100, 1000, 500), Raw(4, 110, 100, 100, 4000, 2000)}, Infos(2),
                  PopScaling::kStrong);
  EXPECT_FALSE(strong.scaling_detected);
  EXPECT_NEAR(Factor(strong, "computation_scalability").values[1], 25.0, 1e-9);
}

TEST(PopFactors, NoUsefulTimeGivesNaNAndAWarning) {
  PopReport r = BuildReport({Raw(2, 100, 0, 0, 0, 0)}, Infos(1), PopScaling::kAuto);
  EXPECT_TRUE(std::isnan(Factor(r, "load_balance").values[0]));
  EXPECT_TRUE(std::isnan(Factor(r, "average_ipc").values[0]));
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("Running"), std::string::npos);
}

TEST(PopFactors, SeriesOfDifferentCodesIsWarned) {
  RawData other = Raw(2, 50, 40, 45, 100, 50);
  other.code_event_types = {60000001};
  PopReport r = BuildReport({Raw(1, 100, 100, 100, 1000, 500), other}, Infos(2), PopScaling::kAuto);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_NE(r.warnings[0].find("same code and input"), std::string::npos);
  EXPECT_NE(r.warnings[1].find("only there: 60000001"), std::string::npos);
}

}  // namespace
}  // namespace parallax::pop
