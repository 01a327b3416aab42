#pragma once
// The printed form of a histogram (analysis.md §8): the chosen statistic per row and column,
// column totals and row totals (§8.1), hidden and sorted columns (§8.1.1), labels (§8.2), one
// table per printed plane; and paramedir's tab-separated layout of it (§8.3).

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/histogram.h"
#include "src/analysis/histogram_labels.h"

namespace parallax::analysis {

struct TableOptions {
  bool hide_empty = false;           // paramedir -e (besides Analyzer2D.HideCols)
  bool only_selected_plane = false;  // paramedir -p
};

inline constexpr const char* kTotalNames[] = {"Total",   "Average", "Maximum",
                                              "Minimum", "StDev",   "Avg/Max"};
using Totals = std::array<double, 6>;

// Totals of the existing cell values of a column or a row (§8.1, exact operation order).
Totals ComputeTotals(const std::vector<double>& values);

struct HistogramTable {
  std::string statistic;
  bool horizontal = true;
  bool plane_labels = false;  // more than one plane: each table is preceded by its label
  struct Plane {
    std::string label;
    std::vector<std::string> columns;         // printed columns, in printed order
    std::vector<std::string> rows;            // row labels
    std::vector<std::vector<double>> values;  // [row][printed column]; missing cells are 0
    std::vector<Totals> column_totals;        // per printed column
    std::vector<Totals> row_totals;           // per row, over all its existing cells
    std::vector<uint32_t> row_objects;        // per row, its object (control window's level)
    // Per printed column, the control values it counts: [low, high) for a bin (the last bin
    // also holds its maximum), low == high for one discrete value, NaN for partner columns.
    std::vector<std::pair<double, double>> column_ranges;
  };
  std::vector<Plane> planes;
};

HistogramTable BuildTable(const HistogramResult& result, const HistogramInput& input,
                          const LabelContext& labels, const TableOptions& options);

// paramedir's file: numbers fixed with `precision` decimals, NaN as `-nan`.
std::string FormatParamedirTable(const HistogramTable& table, int precision);

}  // namespace parallax::analysis
