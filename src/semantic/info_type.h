#pragma once
// What the values of a window mean (semantics.md §10): scanning from the top of the chain, the
// info type of the first function that is not "same as below"; for a derived window the scan
// stops at the compose slot of the derived level, then the derived function, then parent 0.
// Used for labels and colours by the analyzer, the renderer and the textual view.

#include <vector>

#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"

namespace parallax::semantic {

// `functions`: the registry the window's functions come from (null: the built-in ones).
InfoType WindowInfoType(const std::vector<WindowSpec>& windows, size_t index,
                        const FunctionRegistry* functions = nullptr);

}  // namespace parallax::semantic
