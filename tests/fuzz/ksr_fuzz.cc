// Fuzz target: the KSR gist/brief reader, both into Paraver's model and through ksr2sddf's
// SDDF (which is then parsed back). Must never crash or hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/io/ksr/ksr_reader.h"
#include "src/io/sddf/sddf_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = parallax::io::ParseKsrTrace(text, "fuzz.gist");
  if (r.ok()) (void)r->prv.store.state_records();
  auto sddf = parallax::io::KsrToSddf(text, "fuzz.gist", size % 2 == 1, nullptr);
  if (sddf.ok()) (void)parallax::io::ParseSddfTrace(*sddf, "fuzz.sddf");
  return 0;
}
