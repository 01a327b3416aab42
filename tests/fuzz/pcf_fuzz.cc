// Fuzz target of the .pcf reader and writer: any input parses without crashing, and writing
// what was read is a fixed point (read(write(x)) writes the same bytes again).

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  parallax::io::PcfDiagnostics diags;
  auto first = parallax::io::ParsePcf(text, "fuzz.pcf", &diags);
  if (!first.ok()) return 0;
  diags.ToString();
  std::string written = parallax::io::WritePcf(first.value());
  auto second = parallax::io::ParsePcf(written, "fuzz.pcf", nullptr);
  if (!second.ok() || parallax::io::WritePcf(second.value()) != written) std::abort();
  return 0;
}
