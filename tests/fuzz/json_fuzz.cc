// Fuzz target: the trace-event JSON reader on arbitrary bytes. It must return a trace or a
// Status, never crash, hang or grow memory beyond a bound per event.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/io/json/json_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = parallax::io::ParseJsonTrace(text, "fuzz.json");
  if (r.ok()) (void)r->prv.store.state_records();
  return 0;
}
