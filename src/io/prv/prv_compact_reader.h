#pragma once
// Loading a .prv straight into a compact store (docs/scale.md "Compact records"), in one pass:
// the reader hands its records over a segment at a time (PrvReadOptions::segments) and
// store::CompactBuilder codes them as they come, so the trace's plain records are never in
// memory as a whole. The trace cache writes the blocks to its file (io/cache); this reader
// keeps them in memory, for a load without a cache.

#include <cstdint>
#include <memory>
#include <string>

#include "include/parallax/status.h"
#include "src/io/prv/prv_reader.h"
#include "src/store/compact_builder.h"

namespace parallax::io {

// The coding side of a one-pass parse: each segment the reader hands over goes to a
// store::CompactBuilder, made on the first one for the header's threads and cpus, whose blocks
// go to `sink`.
class SegmentCoder {
 public:
  SegmentCoder(store::CompactBuilder::Sink sink, unsigned workers) : sink_(std::move(sink)), workers_(workers) {}
  // `options` with their segments handed to this coder (which must outlive the parse).
  PrvReadOptions Options(const PrvReadOptions& options);
  // Whether the parse stopped because a thread's records went back in time across segments.
  bool unsorted() const { return builder_ && builder_->unsorted(); }
  // Codes what is left, once `trace` is parsed.
  Result<store::BuiltThreads> Finish(const PrvTrace& trace);

 private:
  void Make(size_t threads, uint32_t cpus);
  store::CompactBuilder::Sink sink_;
  unsigned workers_;
  std::unique_ptr<store::CompactBuilder> builder_;
};

// Makes `trace` (parsed with PrvReadOptions::segments, so its store has the communications
// only) hold the built threads, whose blocks are in `bytes`: a compact store keeping up to
// `resident_budget` bytes of decoded threads, with the built state summaries and cpu view, and
// its event types.
void AdoptBuiltThreads(PrvTrace& trace, store::BuiltThreads built, const store::Column<uint8_t>& bytes,
                       uint64_t resident_budget);

// Reads the .prv (or .prv.gz) at `path` into a compact store whose blocks are held in memory:
// the coded records must fit in the memory budget (about 5 bytes per record, where the plain
// columns take 22). A trace with a thread whose records go back in time from one part of the
// file to the next is read the two-pass way, then coded (its plain records must then fit).
Result<PrvTrace> ReadPrvCompact(const std::string& path, const PrvReadOptions& options, uint64_t resident_budget);

}  // namespace parallax::io
