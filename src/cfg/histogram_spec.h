#pragma once
// HistogramSpec: everything that defines a 2D/3D histogram (analysis.md §1) as a plain value:
// the control, data and optional 3D control windows (indices into the same window list as the
// WindowSpecs), the column and plane bins, the time range, the rows and the printed statistic
// with its table layout. The cfg reader produces it (cfg-format.md §5), src/analysis computes
// it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::cfg {

// `Analyzer2D.AnalysisLimits` (analysis.md §4).
enum class AnalysisLimits : uint8_t { kAlltrace, kAllwindow, kRegion };

// `Analyzer2D.SortCriteria`: which column total orders the columns (analysis.md §8.1.1).
enum class SortCriteria : uint8_t {
  kTotal,
  kAverage,
  kMaximum,
  kMinimum,
  kStdev,
  kAvgMax,
  kCustom
};

struct HistogramSpec {
  std::string name;
  int control = -1;                // 0-based window index; -1 until set
  int data = -1;                   // -1: the control window
  int extra = -1;                  // 3D control window; -1: a 2D histogram
  std::string statistic = "Time";  // exact name (analysis.md §6.2, §7.2)
  AnalysisLimits limits = AnalysisLimits::kAlltrace;

  // Columns (analysis.md §2).
  bool compute_y_scale = true;
  bool compute_y_scale_zero = false;
  double minimum = 0, maximum = 1, delta = 1;
  bool use_fixed_delta = false;  // after loading: forced on by the §2.3 rule
  std::optional<uint32_t> num_columns;

  // Planes.
  bool compute_3d_scale = true;
  double minimum_3d = 0, maximum_3d = 1, delta_3d = 1;
  std::optional<double> fixed_value_3d;

  // Rows: `Analyzer2D.Objects` (0-based), nullopt for `All` or no line (analysis.md §3).
  std::optional<std::vector<uint32_t>> objects;

  // Layout of the printed table.
  bool horizontal = true;
  bool hide_columns = false;
  bool short_labels = true;
  bool sort_columns = false;
  bool sort_reverse = false;
  SortCriteria sort_criteria = SortCriteria::kAverage;

  // `Analyzer2D.Parameters` (data min/max, burst min/max): read, not applied (§6.2).
  std::vector<double> parameters;

  bool operator==(const HistogramSpec&) const = default;
};

// Size limits of a histogram (docs/compatibility.md). Paraver allocates whatever the bins ask
// for; Parallax refuses a histogram beyond these with an error instead of exhausting memory.
inline constexpr uint64_t kMaxHistogramColumns = 1'000'000;
inline constexpr uint64_t kMaxHistogramPlanes = 100'000;
inline constexpr uint64_t kMaxHistogramCells = 50'000'000;  // rows × columns × planes

// The number of fixed-delta bins over [min, max] (analysis.md §2.1): ceil((max - min) / delta),
// one more for unit bins that end exactly on max; 1 when that is not a finite number, at
// least 1, saturated at 2^32 - 1 (a count past the limits above stays past them).
inline uint64_t FixedBinCount(double min, double max, double delta) {
  double c = std::ceil((max - min) / delta);
  if (!std::isfinite(c)) c = 1;
  c = std::clamp(c, 1.0, 4294967295.0);
  auto n = static_cast<uint64_t>(c);
  if (delta == 1 && min + static_cast<double>(n) * delta <= max) ++n;
  return std::min<uint64_t>(n, UINT32_MAX);
}

// The statistics of semantic histograms (analysis.md §6.2) and of communication histograms
// (§7.2), in kernel order.
inline constexpr const char* kSemanticStatistics[] = {"Time",
                                                      "% Time",
                                                      "% Time Not Zero",
                                                      "% Window Time",
                                                      "# Bursts",
                                                      "% # Bursts",
                                                      "Integral",
                                                      "Average value",
                                                      "Maximum",
                                                      "Minimum",
                                                      "Average Burst Time",
                                                      "Stdev Burst Time",
                                                      "Average per Burst",
                                                      "Average value != 0",
                                                      "Average per Burst != 0",
                                                      "# Bursts != 0",
                                                      "Sum bursts"};
inline constexpr const char* kCommStatistics[] = {"#Sends",
                                                  "#Receives",
                                                  "Bytes sent",
                                                  "Bytes received",
                                                  "Average bytes sent",
                                                  "Average bytes received",
                                                  "Minimum bytes sent",
                                                  "Minimum bytes received",
                                                  "Maximum bytes sent",
                                                  "Maximum bytes received"};

}  // namespace parallax::cfg
