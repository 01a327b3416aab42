#pragma once
// The sort behind `parallax sort`, for the tools that write a body out of order first (shift,
// merge): `end_time`, when given, replaces the header's end time.

#include <optional>

#include "include/parallax/tools.h"

namespace parallax::tools {

Result<ToolReport> SortWithEnd(const ToolRun& run, const SortOptions& options,
                               std::optional<uint64_t> end_time);

}  // namespace parallax::tools
