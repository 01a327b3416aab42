#pragma once
// The standard views (docs/views.md): cfgs written for Parallax in Paraver's format, shipped
// with the tool (compiled in, and installed under share/parallax/views for wxParaver), found
// by name: `parallax views`, `parallax analyze TRACE --view mpi-profile`, the browser's first
// page, Python's parallax.views().

#include <string>
#include <vector>

#include "include/parallax/status.h"

namespace parallax {

struct ViewInfo {
  std::string name;         // "mpi-profile"
  std::string title;        // "MPI profile"
  std::string description;  // the cfg's description, lines joined with spaces
  std::vector<std::string> windows, histograms;
  std::vector<std::string> needs;  // what a trace must have: "MPI", "OpenMP", "counters", ...
};

// Every view, by name.
std::vector<ViewInfo> ListViews();

// The cfg text of a view; an unknown name is an error naming the closest ones.
Result<std::string> ViewCfg(const std::string& name);

}  // namespace parallax
