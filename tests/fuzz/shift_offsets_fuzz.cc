// Fuzz target of the offsets file of `parallax shift` (paramedir -t/-tt/-ta): any input parses
// or fails with a located error without crashing, and the offsets read, written back one per
// line, read again as the same values.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "include/parallax/tools.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto first = parallax::ParseShiftOffsets(text, "fuzz.txt");
  if (!first.ok()) {
    if (first.status().where().line == 0) std::abort();
    return 0;
  }
  std::string written;
  for (int64_t v : first.value()) written += std::to_string(v) + "\n";
  auto second = parallax::ParseShiftOffsets(written, "fuzz.txt");
  if (!second.ok() || second.value() != first.value()) std::abort();
  return 0;
}
