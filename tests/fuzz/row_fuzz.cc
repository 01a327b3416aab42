// Fuzz target of the .row reader and writer: any input parses without crashing, and writing
// what was read is a fixed point (read(write(x)) writes the same bytes again).

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/io/row/row_reader.h"
#include "src/io/row/row_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  parallax::io::RowDiagnostics diags;
  auto first = parallax::io::ParseRow(text, "fuzz.row", &diags);
  if (!first.ok()) return 0;
  diags.ToString();
  std::string written = parallax::io::WriteRow(first.value());
  auto second = parallax::io::ParseRow(written, "fuzz.row", nullptr);
  if (!second.ok() || parallax::io::WriteRow(second.value()) != written) std::abort();
  return 0;
}
