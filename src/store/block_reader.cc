#include "src/store/block_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

#include "src/store/compact_threads.h"

namespace parallax::store {

namespace {

const StateColumns& PlainPart(const TraceStore& s, model::ThreadIndex t, const StateColumns*) {
  return s.thread(t).states;
}
const EventColumns& PlainPart(const TraceStore& s, model::ThreadIndex t, const EventColumns*) {
  return s.thread(t).events;
}
const compact::CompactColumns& CodedPart(const CodedThread& c, const StateColumns*) { return c.states; }
const compact::CompactColumns& CodedPart(const CodedThread& c, const EventColumns*) { return c.events; }
Status Decode(std::span<const uint8_t> b, uint32_t n, StateColumns* out) {
  return compact::DecodeStates(b, n, out);
}
Status Decode(std::span<const uint8_t> b, uint32_t n, EventColumns* out) {
  return compact::DecodeEvents(b, n, out);
}

}  // namespace

template <typename Columns>
BlockReader<Columns>::BlockReader(const TraceStore& store, model::ThreadIndex t) : thread_(t.value) {
  const Columns* tag = nullptr;
  if (const CompactThreads* c = store.compact_threads()) {
    coded_ = &CodedPart(c->coded(t.value), tag);
    cpus_ = c->cpus();
  } else {
    plain_ = &PlainPart(store, t, tag);
  }
}

template <typename Columns>
bool BlockReader<Columns>::Next() {
  if (plain_ != nullptr) {
    if (next_ >= plain_->size()) return false;
    columns_ = plain_;
    begin_ = next_;
    end_ = std::min(plain_->size(), next_ + compact::kBlockRecords);
    next_ = end_;
    return true;
  }
  if (next_ >= coded_->blocks.size()) return false;
  const compact::BlockEntry& b = coded_->blocks[next_];
  auto damaged = [&](const std::string& what) {
    return DamagedRecords(fmt::format("the records of thread {} are damaged: block {} {}", thread_ + 1, next_ + 1, what));
  };
  if (!coded_->Holds(b)) throw damaged("lies past the end of its bytes");
  scratch_.Resize(0);
  Status st = Decode(std::span<const uint8_t>(coded_->bytes.data() + b.offset, b.bytes), b.records, &scratch_);
  if (!st.ok()) throw damaged("does not decode: " + st.message());
  if (!std::all_of(scratch_.cpu.begin(), scratch_.cpu.end(), [&](uint16_t c) { return c <= cpus_; }))
    throw damaged("names a cpu the trace does not have");
  ++next_;
  columns_ = &scratch_;
  begin_ = 0;
  end_ = scratch_.size();
  return true;
}

template class BlockReader<StateColumns>;
template class BlockReader<EventColumns>;

}  // namespace parallax::store
