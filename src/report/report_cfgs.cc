// The cfgs of the report's timelines (docs/report.md): standard views (views/), shown in each
// report behind its image, so that `parallax timeline TRACE --view NAME` reproduces it.

#include "src/report/report_cfgs.h"

#include <string_view>

#include "src/views/embedded_views.h"

namespace parallax::report {

namespace {

// A standard view's cfg (views/, docs/views.md); the report's are views of the library.
const char* View(const char* name) {
  for (size_t i = 0; i < views::kEmbeddedViewCount; ++i)
    if (std::string_view(views::kEmbeddedViews[i].name) == name) return views::kEmbeddedViews[i].text;
  return "";
}

}  // namespace

const char* UsefulDurationCfg() { return View("useful-duration"); }
const char* MpiCallCfg() { return View("mpi-call"); }
const char* UsefulIpcCfg() { return View("useful-ipc"); }

}  // namespace parallax::report
