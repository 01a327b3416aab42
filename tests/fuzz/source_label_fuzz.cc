// The click-back label parser of `parallax serve` (apps/server/source_files.h): any bytes as a
// caller line label. A label it accepts must give a line from 1 on and a file name without NUL
// or parentheses, which a label built back from them parses to again.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "apps/server/source_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view label(reinterpret_cast<const char*>(data), size);
  auto loc = parallax::server::ParseSourceLabel(label);
  if (!loc) return 0;
  if (loc->line == 0 || loc->file.empty() || loc->file.find('\0') != std::string::npos ||
      loc->file.find_first_of("()") != std::string::npos)
    std::abort();
  auto again = parallax::server::ParseSourceLabel(std::to_string(loc->line) + " (" + loc->file + ")");
  if (!again || again->line != loc->line || again->file != loc->file) std::abort();
  return 0;
}
