// Fuzz target of the compact record blocks (src/store/compact_records.h): any bytes decode to
// records or to an error, never a crash, an overread or an unbounded allocation. The input is a
// kind byte (even: states, odd: events), the block's record count (u32, capped at 2^16), then
// the block's bytes.

#include <cstdint>
#include <cstring>
#include <span>

#include "src/store/compact_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace compact = parallax::store::compact;
  if (size < 5) return 0;
  uint32_t records;
  std::memcpy(&records, data + 1, 4);
  records &= 0xffff;
  std::span<const uint8_t> block(data + 5, size - 5);
  if (data[0] % 2 == 0) {
    parallax::store::StateColumns out;
    if (compact::DecodeStates(block, records, &out).ok() && out.size() != records) __builtin_trap();
  } else {
    parallax::store::EventColumns out;
    if (compact::DecodeEvents(block, records, &out).ok() && out.size() != records) __builtin_trap();
  }
  return 0;
}
