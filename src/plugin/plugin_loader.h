#pragma once
// Loads a plug-in library (include/parallax/plugin.h) with dlopen and turns the functions it
// registers into CustomFunctions whose kernels call the library's. The library stays loaded
// while any of its functions is alive.

#include <string>
#include <vector>

#include "include/parallax/functions.h"
#include "include/parallax/status.h"

namespace parallax::plugin {

// Fails, naming the library and with a hint, when dlopen fails, an entry symbol is missing, the
// ABI version differs, the register function fails or a function description is invalid.
Result<std::vector<CustomFunction>> LoadPluginFunctions(const std::string& path);

}  // namespace parallax::plugin
