// Fuzz target: the PICL reader on arbitrary bytes. It must return a trace or a Status, never
// crash or hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/io/picl/picl_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = parallax::io::ParsePiclTrace(text, "fuzz.trf");
  if (r.ok()) (void)r->prv.store.state_records();
  return 0;
}
