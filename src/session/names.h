#pragma once
// Hints for unknown names, shared by every path that resolves them (render, text view, cfg
// edit): the closest thread functions, the cfg's windows.

#include <string>
#include <string_view>
#include <vector>

#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"

namespace parallax::session {

// "the closest: State As Is, ...; see docs/functions.md ..." for an unknown thread function.
std::string ThreadFunctionHint(const semantic::FunctionRegistry& functions, std::string_view name);

// "the cfg's windows: A, B, C" for a window name the cfg does not have (the closest first).
std::string WindowNamesHint(const std::vector<semantic::WindowSpec>& windows, std::string_view name);

}  // namespace parallax::session
