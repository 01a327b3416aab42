#pragma once
// Internal to src/session: histograms of a cfg against a loaded trace, shared by the
// paramedir batch mode (paramedir.cc) and `parallax analyze` (analyze.cc).

#include "src/analysis/histogram_table.h"
#include "src/cfg/cfg_file.h"
#include "src/session/trace_impl.h"

namespace parallax::session {

// The analyzer input of histogram `index` of a cfg read against `trace`.
analysis::HistogramInput HistogramInputOf(const TraceImpl& trace, const cfg::CfgFile& file,
                                          size_t index);
// Labels from the trace's .pcf and .row.
analysis::LabelContext HistogramLabels(const TraceImpl& trace);
// The error of a cfg whose histogram keys could not be read (CfgFile::histogram_failure):
// its location and reason, and what happens instead of any output.
Status HistogramFailure(const Status& failure);

}  // namespace parallax::session
