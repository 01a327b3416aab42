#include "src/store/block_reader.h"

#include <fmt/format.h>

#include <algorithm>

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
void BlockReader<Columns>::Damaged(size_t b, const std::string& what) const {
  ThrowDamaged(thread_, fmt::format("block {} {}", b + 1, what));
}

template <typename Columns>
bool BlockReader<Columns>::Wanted(size_t b) {
  if (ranges_.empty()) return true;
  const compact::BlockEntry& e = coded_->blocks[b];
  if (!coded_->Holds(e)) Damaged(b, "lies past the end of its bytes");
  const std::span<const uint8_t> bytes(coded_->bytes.data() + e.offset, e.bytes);
  if (Status st = compact::BlockDictionary(bytes, e.records, &dictionary_); !st.ok())
    Damaged(b, "does not decode: " + st.message());
  return std::any_of(dictionary_.begin(), dictionary_.end(), [&](uint32_t type) {
    return std::any_of(ranges_.begin(), ranges_.end(),
                       [type](const auto& r) { return type >= r.first && type <= r.second; });
  });
}

template <typename Columns>
void BlockReader<Columns>::Read(size_t b) {
  const compact::BlockEntry& e = coded_->blocks[b];
  if (!coded_->Holds(e)) Damaged(b, "lies past the end of its bytes");
  scratch_.Resize(0);
  Status st = Decode(std::span<const uint8_t>(coded_->bytes.data() + e.offset, e.bytes), e.records, &scratch_);
  if (!st.ok()) Damaged(b, "does not decode: " + st.message());
  if (!CpusWithin(scratch_.cpu, cpus_)) Damaged(b, "names a cpu the trace does not have");
  next_ = b + 1;
  begin_ = 0;
  end_ = scratch_.size();
}

template <typename Columns>
bool BlockReader<Columns>::Next() {
  if (plain_ != nullptr) {
    if (next_ >= plain_->size()) return false;
    begin_ = next_;
    end_ = std::min(plain_->size(), next_ + compact::kBlockRecords);
    next_ = end_;
    passed_ = end_;
    return true;
  }
  while (next_ < coded_->blocks.size() && !Wanted(next_)) passed_ += coded_->blocks[next_++].records;
  if (next_ >= coded_->blocks.size()) return false;
  Read(next_);
  passed_ += end_;
  return true;
}

model::Time LastRecordTime(const TraceStore& store, model::ThreadIndex t) {
  model::Time last = 0;
  auto states = [&](const StateColumns& s, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      last = std::max(last, s.begin[i]);
      if (s.end[i] != model::kNoEnd) last = std::max(last, s.end[i]);
    }
  };
  StateReader reader(store, t);
  const compact::CompactColumns* coded = reader.coded();
  if (coded == nullptr) {
    const ThreadRecords& r = store.thread(t);
    states(r.states, 0, r.states.size());
    if (r.events.size() > 0) last = std::max(last, r.events.time.back());
    return last;
  }
  const compact::CompactColumns& events = store.compact_threads()->coded(t.value).events;
  if (events.blocks.size() > 0) last = std::max(last, events.blocks.back().last);
  // A state block's entry has its latest end, unless a state in it is open-ended. States are in
  // begin order, so the latest begin is in the last block.
  const size_t n = coded->blocks.size();
  for (size_t b = 0; b < n; ++b) {
    if (coded->blocks[b].last != model::kNoEnd && b + 1 < n) {
      last = std::max(last, coded->blocks[b].last);
      continue;
    }
    reader.Read(b);
    states(reader.columns(), reader.begin(), reader.end());
  }
  return last;
}

template class BlockReader<StateColumns>;
template class BlockReader<EventColumns>;

model::Time FirstRecordTime(const TraceStore& store, model::ThreadIndex t) {
  bool any = false;
  model::Time first = 0;
  auto take = [&](model::Time v) {
    first = any ? std::min(first, v) : v;
    any = true;
  };
  if (const CompactThreads* compact = store.compact_threads()) {
    const CodedThread& coded = compact->coded(t.value);
    if (!coded.states.blocks.empty()) take(coded.states.blocks.front().first);
    if (!coded.events.blocks.empty()) take(coded.events.blocks.front().first);
    return first;
  }
  const ThreadRecords& r = store.thread(t);
  if (r.states.size() > 0) take(r.states.begin[0]);
  if (r.events.size() > 0) take(r.events.time[0]);
  return first;
}

}  // namespace parallax::store
