// Fuzz target: the SDDF reader (ASCII and binary, chosen by the first bytes) and its mapping
// onto Paraver's model, on arbitrary bytes. It must return a trace or a Status, never crash or
// hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/io/sddf/sddf_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto r = parallax::io::ParseSddfTrace(bytes, "fuzz.sddf");
  if (r.ok()) (void)r->prv.store.state_records();
  return 0;
}
