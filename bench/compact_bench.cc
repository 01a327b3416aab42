// Compact records (src/store/compact_records.h) on a real or generated trace: bytes per record
// of every thread's states and events coded in blocks, with and without zstd, the time to code
// and to decode them, and a check that every record comes back. Prints numbers; not a test.
//
//   parallax-compact-bench TRACE.prv [--block N]

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "src/base/parallel.h"
#include "src/io/prv/prv_reader.h"
#include "src/store/compact_records.h"

namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

template <typename Cols>
bool Same(const Cols& a, const Cols& b);
template <>
bool Same(const parallax::store::StateColumns& a, const parallax::store::StateColumns& b) {
  return a.begin == b.begin && a.end == b.end && a.state == b.state && a.cpu == b.cpu;
}
template <>
bool Same(const parallax::store::EventColumns& a, const parallax::store::EventColumns& b) {
  return a.time == b.time && a.type == b.type && a.value == b.value && a.cpu == b.cpu;
}

}  // namespace

int main(int argc, char** argv) {
  namespace compact = parallax::store::compact;
  if (argc < 2) {
    fmt::print(stderr, "usage: parallax-compact-bench TRACE.prv [--block N]\n");
    return 2;
  }
  uint32_t block = compact::kBlockRecords;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--block") block = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
  parallax::io::PrvReadOptions read;
  auto t0 = Clock::now();
  auto trace = parallax::io::ReadPrv(argv[1], read);
  if (!trace.ok()) {
    fmt::print(stderr, "{}\n", trace.status().ToString());
    return 1;
  }
  const auto& store = trace->store;
  fmt::print("{}: {} states, {} events, {} threads (read in {:.2f} s)\n", argv[1], store.state_records(),
             store.event_records(), store.threads(), Since(t0));
  for (bool zstd : {false, true}) {
    compact::EncodeOptions opts;
    opts.block_records = block;
    opts.zstd = zstd;
    uint64_t state_bytes = 0, event_bytes = 0, states = 0, events = 0;
    double encode_s = 0, decode_s = 0;
    bool same = true;
    for (size_t t = 0; t < store.threads(); ++t) {
      const auto& rec = store.thread(parallax::model::ThreadIndex{static_cast<uint32_t>(t)});
      auto e0 = Clock::now();
      compact::CompactColumns cs = compact::EncodeStates(rec.states, opts);
      compact::CompactColumns ce = compact::EncodeEvents(rec.events, opts);
      encode_s += Since(e0);
      state_bytes += cs.MemoryBytes();
      event_bytes += ce.MemoryBytes();
      states += rec.states.size();
      events += rec.events.size();
      parallax::store::StateColumns ds;
      parallax::store::EventColumns de;
      auto d0 = Clock::now();
      bool ok = compact::DecodeAllStates(cs, &ds).ok() && compact::DecodeAllEvents(ce, &de).ok();
      decode_s += Since(d0);
      same = same && ok && Same(ds, rec.states) && Same(de, rec.events);
    }
    double records = static_cast<double>(states + events);
    fmt::print(
        "{:>5} blocks of {}: states {:.2f} B/record, events {:.2f} B/record, all {:.2f} B/record "
        "(plain: 22); encode {:.2f} s ({:.0f} M records/s), decode {:.2f} s ({:.0f} M records/s, one thread); {}\n",
        zstd ? "zstd" : "plain", block, states ? double(state_bytes) / double(states) : 0.0,
        events ? double(event_bytes) / double(events) : 0.0, double(state_bytes + event_bytes) / records,
        encode_s, records / encode_s / 1e6, decode_s, records / decode_s / 1e6, same ? "round trip exact" : "ROUND TRIP DIFFERS");
    if (!same) return 1;
  }
  return 0;
}
