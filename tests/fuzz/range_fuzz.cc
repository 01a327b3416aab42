// Fuzz target of the portion options' time parser (apps/cli/range_options.cc): any text is
// accepted or refused with a message, never crashes; a percentage never goes past the end time.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "apps/cli/range_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* unit : {"ns", "us", "ms"}) {
    auto t = parallax::cli::ParseTimeLimit(text, "--from", unit, 1000000);
    if (!t.ok()) {
      if (t.status().message().empty()) std::abort();
      continue;
    }
    if (!text.empty() && text.back() == '%' && t.value() > 1000000) std::abort();
  }
  return 0;
}
