// Fuzz target of the trace cache decoder (src/io/cache): any bytes decode to a trace or an
// error, never a crash. The checksum is not verified, so the decoder itself is exercised.

#include <cstdint>
#include <string_view>

#include "src/io/cache/trace_cache.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  parallax::io::cache::DecodeOptions options;
  options.verify_checksum = false;
  auto trace = parallax::io::cache::DecodeCache(bytes, "fuzz.pxc", options);
  if (trace.ok()) (void)trace->store.MemoryBytes();
  return 0;
}
