// Fuzz target of the trace cache decoder (src/io/cache): any bytes decode to a trace or an
// error, never a crash. The checksum is not verified, so the decoder itself is exercised, both
// ways it builds columns: copies, and views of the bytes (as a mapped cache is read), where a
// damaged length can leave data misaligned. Compact thread records are decoded by reading every
// thread (a damaged block throws store::DamagedRecords, which the library's entry points turn
// into an error).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/io/cache/trace_cache.h"
#include "src/store/compact_threads.h"

namespace {

// Reads every value of every column, so a view past its bytes shows under ASan.
uint64_t Touch(const parallax::store::TraceStore& st) {
  uint64_t sum = 0;
  for (uint32_t t = 0; t < st.threads(); ++t) {
    const auto& tr = st.thread(parallax::model::ThreadIndex(t));
    for (auto v : tr.states.begin) sum += v;
    for (auto v : tr.states.end) sum += v;
    for (auto v : tr.events.value) sum += static_cast<uint64_t>(v);
    for (auto v : tr.events.cpu) sum += v;
    for (auto v : tr.sent) sum += v;
  }
  for (auto v : st.comms().tag) sum += static_cast<uint64_t>(v);
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  parallax::io::cache::DecodeOptions options;
  options.verify_checksum = false;
  auto trace = parallax::io::cache::DecodeCache(bytes, "fuzz.pxc", options);
  if (trace.ok()) (void)trace->store.MemoryBytes();

  auto held = std::make_shared<const std::string>(bytes);
  options.keep = held;
  auto viewed = parallax::io::cache::DecodeCache(*held, "fuzz.pxc", options);
  held.reset();  // the decoded columns keep the bytes alive
  if (viewed.ok()) {
    try {
      volatile uint64_t sink = Touch(viewed->store);
      (void)sink;
      volatile size_t types = parallax::store::ScanEventTypes(viewed->store).size();
      (void)types;
    } catch (const parallax::store::DamagedRecords&) {
      // compact blocks are checked when read: a damaged one is an error, which is fine
    }
  }
  return 0;
}
