#pragma once
// The report's efficiency chart (docs/report.md): POP's factors as horizontal bars, one per run
// and factor, 0..100%, coloured as POP reports colour them (80% and up good, 60% and up
// fair, below poor), drawn as a draw list for the SVG (HTML) and PNG (Markdown) encoders.

#include <string>
#include <vector>

#include "src/render/draw_list.h"

namespace parallax::report {

struct ChartFactor {
  std::string name;            // "Parallel efficiency"
  int depth = 0;               // indentation in POP's tree
  std::vector<double> values;  // per run, percent; NaN: not available
};

// `runs`: one label per run ("1 rank", "2 ranks", ...); a single run draws no legend.
render::DrawList EfficiencyChart(const std::vector<ChartFactor>& factors, const std::vector<std::string>& runs,
                                 int width);

}  // namespace parallax::report
