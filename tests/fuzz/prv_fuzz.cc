// Fuzz target of the .prv reader and writer. Input starting with the gzip magic goes through
// the streaming gzip path, any other input is read as text; both must never crash. A trace
// that loads is written, read back and written again: the canonical writer is a fixed point.
// It is also read in one pass into compact records (PrvReadOptions::segments, as the first
// compact open does): unless a thread goes back in time across segments, the same trace. And
// with its states alone (PrvReadOptions::states_only): the same states and trace end.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <memory>
#include <span>
#include <vector>

#include "src/io/prv/prv_compact_reader.h"
#include "src/io/prv/prv_reader.h"
#include "src/io/prv/prv_writer.h"

namespace {

using parallax::io::PrvReadOptions;
using parallax::io::PrvTrace;

std::string Write(const PrvTrace& t) {
  return parallax::io::WritePrvToString(
      {&t.header, &t.store, &t.unsigned_value_types, t.open_end_as_number});
}

// The trace read in one pass into compact records, or nothing when a thread's records go back
// in time across segments (the loaders then parse in two passes).
bool OnePass(std::string_view bytes, bool gzip, PrvReadOptions options, std::string* written) {
  auto blocks = std::make_shared<std::vector<uint8_t>>();
  parallax::io::SegmentCoder coder(
      [&](std::span<const uint8_t> b) -> parallax::Result<uint64_t> {
        const uint64_t at = blocks->size();
        blocks->insert(blocks->end(), b.begin(), b.end());
        return at;
      },
      1);
  options = coder.Options(options);
  auto t = gzip ? parallax::io::ParsePrvGzip(bytes, "fuzz.prv.gz", options)
                : parallax::io::ParsePrv(bytes, "fuzz.prv", options);
  if (!t.ok()) {
    if (coder.unsorted()) return false;
    std::abort();  // the two-pass parse read it
  }
  auto built = coder.Finish(t.value());
  if (!built.ok()) std::abort();
  const auto view = parallax::store::Column<uint8_t>::View(blocks->data(), blocks->size(), blocks);
  parallax::io::AdoptBuiltThreads(t.value(), std::move(built.value()), view, 0);
  *written = Write(t.value());
  return true;
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
  std::string one_pass;
  if (OnePass(bytes, gzip, options, &one_pass) && one_pass != written) std::abort();
  // States alone: the same states and trace end.
  PrvReadOptions states_only = options;
  states_only.states_only = true;
  auto partial = gzip ? parallax::io::ParsePrvGzip(bytes, "fuzz.prv.gz", states_only)
                      : parallax::io::ParsePrv(bytes, "fuzz.prv", states_only);
  if (!partial.ok() || partial->store.end_time() != first->store.end_time() ||
      partial->store.event_records() != 0 || partial->store.comms().rows() != 0)
    std::abort();
  for (uint32_t t = 0; t < first->store.threads(); ++t) {
    const auto& a = first->store.thread(parallax::model::ThreadIndex(t)).states;
    const auto& b = partial->store.thread(parallax::model::ThreadIndex(t)).states;
    if (a.begin != b.begin || a.end != b.end || a.state != b.state || a.cpu != b.cpu) std::abort();
  }
  return 0;
}
