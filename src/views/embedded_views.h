#pragma once
// The cfgs of views/, compiled in (embed_views.cmake), so that every binary has them whether it
// runs from the build folder or installed.

#include <cstddef>

namespace parallax::views {

struct EmbeddedView {
  const char* name;  // the file name without .cfg: "mpi-profile"
  const char* text;  // the cfg
};

extern const EmbeddedView kEmbeddedViews[];
extern const size_t kEmbeddedViewCount;

}  // namespace parallax::views
