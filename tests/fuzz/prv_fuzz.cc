// Fuzz target of the .prv reader and writer. Input starting with the gzip magic goes through
// the streaming gzip path, any other input is read as text; both must never crash. A trace
// that loads is written, read back and written again: the canonical writer is a fixed point.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/io/prv/prv_reader.h"
#include "src/io/prv/prv_writer.h"

namespace {

using parallax::io::PrvReadOptions;
using parallax::io::PrvTrace;

std::string Write(const PrvTrace& t) {
  return parallax::io::WritePrvToString(
      {&t.header, &t.store, &t.unsigned_value_types, t.open_end_as_number});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  PrvReadOptions options;
  options.threads = 1;
  options.chunk_bytes = 16 + size % 61;  // small chunks: every boundary path gets exercised
  options.memory_budget = 64 << 20;
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  auto first = gzip ? parallax::io::ParsePrvGzip(bytes, "fuzz.prv.gz", options)
                    : parallax::io::ParsePrv(bytes, "fuzz.prv", options);
  if (!first.ok()) return 0;
  std::string written = Write(first.value());
  auto second = parallax::io::ParsePrv(written, "fuzz.prv", options);
  if (!second.ok() || Write(second.value()) != written) std::abort();
  return 0;
}
