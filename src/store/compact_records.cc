#include "src/store/compact_records.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace parallax::store::compact {

namespace {

constexpr size_t kHeaderBytes = 9;  // records u32, stream bytes u32, coding u8
constexpr uint8_t kPlain = 0;
constexpr uint8_t kZstd = 1;
constexpr size_t kMaxVarint = 10;
constexpr size_t kColumns = 4;

uint64_t ZigZag(uint64_t difference) {
  int64_t d = static_cast<int64_t>(difference);
  return (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63);
}
uint64_t UnZigZag(uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

void PutVarint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

void PutU32(std::vector<uint8_t>& out, uint32_t v) {
  uint8_t b[4];
  std::memcpy(b, &v, 4);
  out.insert(out.end(), b, b + 4);
}

// Reads varints from [p, end); `ok` turns false at the first one that runs past the end or is
// longer than ten bytes, and stays false (later reads return 0).
struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  bool ok = true;

  uint64_t Varint() {
    if (p < end && *p < 0x80) return *p++;  // most values are one byte
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64 && p < end; shift += 7) {
      uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
    ok = false;
    p = end;
    return 0;
  }
};

// Writes varints through a pointer into room reserved for the worst case.
struct Writer {
  uint8_t* p;
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
  }
};

// A block's dictionary: its distinct values in order of first appearance, each value's index
// found through an open-addressing table that is reused from block to block.
class Dictionary {
 public:
  void Clear() {
    for (uint32_t slot : used_) table_[slot] = kEmpty;
    used_.clear();
    values_.clear();
  }
  uint64_t IndexOf(uint32_t value) {
    uint32_t slot = Hash(value);
    while (true) {
      uint32_t at = table_[slot];
      if (at == kEmpty) break;
      if (values_[at] == value) return at;
      slot = (slot + 1) & (kSlots - 1);
    }
    table_[slot] = static_cast<uint32_t>(values_.size());
    used_.push_back(slot);
    values_.push_back(value);
    return values_.size() - 1;
  }
  std::span<const uint32_t> values() const { return values_; }

 private:
  // At least twice the largest block (kMaxBlockRecords), so the table is never more than half
  // full.
  static constexpr uint32_t kSlots = 1u << 16;
  static_assert(kSlots >= 2 * kMaxBlockRecords);
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static uint32_t Hash(uint32_t v) { return (v * 0x9E3779B1u) >> 16; }

  std::vector<uint32_t> table_ = std::vector<uint32_t>(kSlots, kEmpty);
  std::vector<uint32_t> used_;
  std::vector<uint32_t> values_;
};

// Header, dictionary and streams of one block, compressed when that saves bytes.
void FinishBlock(uint32_t records, std::span<const uint32_t> dict, const std::vector<uint8_t>& streams,
                 const EncodeOptions& options, std::vector<uint8_t>& out) {
  PutU32(out, records);
  PutU32(out, static_cast<uint32_t>(streams.size()));
  size_t coding_at = out.size();
  out.push_back(kPlain);
  PutVarint(out, dict.size());
  for (uint32_t d : dict) PutVarint(out, d);
  if (options.zstd && !streams.empty()) {
    size_t at = out.size();
    size_t bound = ZSTD_compressBound(streams.size());
    out.resize(at + bound);
    size_t n = ZSTD_compress(out.data() + at, bound, streams.data(), streams.size(), options.zstd_level);
    if (!ZSTD_isError(n) && n < streams.size()) {
      out.resize(at + n);
      out[coding_at] = kZstd;
      return;
    }
    out.resize(at);
  }
  out.insert(out.end(), streams.begin(), streams.end());
}

void AddBlock(const std::vector<uint8_t>& bytes, std::vector<BlockEntry>& blocks, size_t start, uint32_t records,
              model::Time first, model::Time last) {
  BlockEntry e;
  e.first = first;
  e.last = last;
  e.offset = start;
  e.bytes = static_cast<uint32_t>(bytes.size() - start);
  e.records = records;
  blocks.push_back(e);
}

uint64_t Diff(int64_t a, int64_t b) { return static_cast<uint64_t>(a) - static_cast<uint64_t>(b); }
int64_t Add(int64_t base, uint64_t z) { return static_cast<int64_t>(static_cast<uint64_t>(base) + UnZigZag(z)); }

// The checked header of a block and its streams (decompressed into `scratch` when needed).
struct OpenBlock {
  std::vector<uint32_t> dict;
  Reader streams{nullptr, nullptr};
};

Status BadBlock(const std::string& what) {
  return Status::Error("damaged compact block: " + what, {},
                       "the trace cache holding it is damaged; clear it (parallax cache clear) and open the trace again");
}

// A block's header fields and dictionary, checked against the `records` its index gives;
// `rest` is then left at its streams.
struct BlockHead {
  uint32_t stream_bytes = 0;
  uint8_t coding = 0;
};
Status ReadHead(std::span<const uint8_t> block, uint32_t records, BlockHead* head, std::vector<uint32_t>* dict,
                Reader* rest) {
  if (block.size() < kHeaderBytes) return BadBlock("shorter than its header");
  uint32_t n;
  std::memcpy(&n, block.data(), 4);
  std::memcpy(&head->stream_bytes, block.data() + 4, 4);
  head->coding = block[8];
  if (n != records) return BadBlock("holds " + std::to_string(n) + " records, its index says " + std::to_string(records));
  if (head->stream_bytes > static_cast<uint64_t>(records) * kColumns * kMaxVarint)
    return BadBlock("its streams are longer than its records can be");
  Reader r{block.data() + kHeaderBytes, block.data() + block.size()};
  uint64_t dict_size = r.Varint();
  if (!r.ok || dict_size > records) return BadBlock("bad dictionary size");
  dict->resize(dict_size);
  for (uint32_t& d : *dict) d = static_cast<uint32_t>(r.Varint());
  if (!r.ok) return BadBlock("the dictionary runs past the block");
  *rest = r;
  return Status::Ok();
}

Status Open(std::span<const uint8_t> block, uint32_t records, std::vector<uint8_t>& scratch, OpenBlock* o) {
  BlockHead head;
  Reader r{nullptr, nullptr};
  if (Status st = ReadHead(block, records, &head, &o->dict, &r); !st.ok()) return st;
  const uint32_t stream_bytes = head.stream_bytes;
  const uint8_t coding = head.coding;
  size_t left = static_cast<size_t>(r.end - r.p);
  if (coding == kPlain) {
    if (left != stream_bytes) return BadBlock("its streams do not fill the block");
    o->streams = Reader{r.p, r.end};
  } else if (coding == kZstd) {
    scratch.resize(stream_bytes);
    size_t got = ZSTD_decompress(scratch.data(), scratch.size(), r.p, left);
    if (ZSTD_isError(got) || got != stream_bytes) return BadBlock("its compressed streams do not decompress");
    o->streams = Reader{scratch.data(), scratch.data() + scratch.size()};
  } else {
    return BadBlock("unknown coding " + std::to_string(coding));
  }
  return Status::Ok();
}

}  // namespace

bool CompactColumns::Holds(const BlockEntry& b) const {
  return b.offset <= bytes.size() && b.bytes <= bytes.size() - b.offset;
}

size_t CompactColumns::MemoryBytes() const {
  size_t n = blocks.capacity() * sizeof(BlockEntry);
  if (!bytes.is_view())
    for (const BlockEntry& b : blocks) n += b.bytes;
  return n;
}

uint64_t CompactColumns::records() const {
  uint64_t n = 0;
  for (const BlockEntry& b : blocks) n += b.records;
  return n;
}

std::pair<size_t, size_t> CompactColumns::BlocksFor(model::Time from, model::Time to, bool states) const {
  // Blocks are in time order by their first time; a state block's latest end may reach past
  // later blocks, so the first block is the first whose last time reaches `from`.
  if (from >= to) return {0, 0};
  size_t first = 0;
  if (states) {
    while (first < blocks.size() && blocks[first].last < from && blocks[first].last != model::kNoEnd) ++first;
  } else {
    first = static_cast<size_t>(
        std::partition_point(blocks.begin(), blocks.end(), [&](const BlockEntry& b) { return b.last < from; }) -
        blocks.begin());
  }
  size_t last = static_cast<size_t>(
      std::partition_point(blocks.begin(), blocks.end(), [&](const BlockEntry& b) { return b.first < to; }) -
      blocks.begin());
  return {first, std::max(first, last)};
}

namespace {

size_t BlockSize(const EncodeOptions& o) { return std::clamp<uint32_t>(o.block_records, 1, kMaxBlockRecords); }

// The worst case of a block's streams: four columns of ten-byte varints.
std::vector<uint8_t>& Room(std::vector<uint8_t>& streams, size_t records) {
  streams.resize(records * kColumns * kMaxVarint);
  return streams;
}

// Time differences (the first to 0) and cpu differences of records [a, b).
void PutTimes(Writer& w, const Column<model::Time>& t, size_t a, size_t b) {
  model::Time prev = 0;
  for (size_t i = a; i < b; ++i) {
    w.Varint(ZigZag(Diff(t[i], prev)));
    prev = t[i];
  }
}
void PutCpus(Writer& w, const Column<uint16_t>& cpu, size_t a, size_t b) {
  uint16_t prev = 0;
  for (size_t i = a; i < b; ++i) {
    w.Varint(ZigZag(Diff(cpu[i], prev)));
    prev = cpu[i];
  }
}

// Cuts n records into blocks: `code(a, b, writer, dictionary)` writes the streams of records
// [a, b) and returns the block's first and last time.
template <typename Code>
CompactColumns EncodeBlocks(size_t n, const EncodeOptions& options, Code code) {
  std::vector<uint8_t> bytes, streams;
  std::vector<BlockEntry> blocks;
  Dictionary dict;
  const size_t step = BlockSize(options);
  for (size_t a = 0; a < n; a += step) {
    const size_t b = std::min(n, a + step);
    const uint32_t k = static_cast<uint32_t>(b - a);
    Writer w{Room(streams, k).data()};
    dict.Clear();
    const auto [first, last] = code(a, b, w, dict);
    streams.resize(static_cast<size_t>(w.p - streams.data()));
    size_t start = bytes.size();
    FinishBlock(k, dict.values(), streams, options, bytes);
    AddBlock(bytes, blocks, start, k, first, last);
  }
  CompactColumns c;
  c.bytes = Column<uint8_t>(std::move(bytes));
  c.blocks = Column<BlockEntry>(std::move(blocks));
  return c;
}

}  // namespace

CompactColumns EncodeStates(const StateColumns& s, const EncodeOptions& options) {
  return EncodeStates(s, s.size(), options);
}

CompactColumns EncodeEvents(const EventColumns& ev, const EncodeOptions& options) {
  return EncodeEvents(ev, ev.size(), options);
}

CompactColumns EncodeStates(const StateColumns& s, size_t count, const EncodeOptions& options) {
  return EncodeBlocks(std::min(count, s.size()), options, [&](size_t a, size_t b, Writer& w, Dictionary& dict) {
    PutTimes(w, s.begin, a, b);
    model::Time last = s.end[a];
    for (size_t i = a; i < b; ++i) {
      model::Time e = s.end[i];
      last = e == model::kNoEnd || last == model::kNoEnd ? model::kNoEnd : std::max(last, e);
      w.Varint(ZigZag(Diff(e, i + 1 < b ? s.begin[i + 1] : s.begin[i])));
    }
    for (size_t i = a; i < b; ++i) w.Varint(dict.IndexOf(s.state[i]));
    PutCpus(w, s.cpu, a, b);
    return std::pair<model::Time, model::Time>{s.begin[a], last};
  });
}

CompactColumns EncodeEvents(const EventColumns& ev, size_t count, const EncodeOptions& options) {
  return EncodeBlocks(std::min(count, ev.size()), options, [&](size_t a, size_t b, Writer& w, Dictionary& dict) {
    PutTimes(w, ev.time, a, b);
    for (size_t i = a; i < b; ++i) w.Varint(dict.IndexOf(ev.type[i]));
    for (size_t i = a; i < b; ++i) w.Varint(ZigZag(static_cast<uint64_t>(ev.value[i])));
    PutCpus(w, ev.cpu, a, b);
    return std::pair<model::Time, model::Time>{ev.time[a], ev.time[b - 1]};
  });
}

namespace {

// The inverses of PutTimes and PutCpus, and a stream of dictionary indices: false when an index
// is past the dictionary (the values from there on are 0).
void GetTimes(Reader& r, model::Time* t, uint32_t n) {
  model::Time prev = 0;
  for (uint32_t i = 0; i < n; ++i) prev = t[i] = Add(prev, r.Varint());
}
void GetCpus(Reader& r, uint16_t* cpu, uint32_t n) {
  uint64_t c = 0;
  for (uint32_t i = 0; i < n; ++i) {
    c += UnZigZag(r.Varint());
    cpu[i] = static_cast<uint16_t>(c);
  }
}
bool GetIndices(Reader& r, const std::vector<uint32_t>& dict, uint32_t* out, uint32_t n) {
  bool in_dict = true;
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t k = r.Varint();
    in_dict &= k < dict.size();
    out[i] = in_dict ? dict[k] : 0;
  }
  return in_dict;
}

}  // namespace

Status DecodeStates(std::span<const uint8_t> block, uint32_t records, StateColumns* out) {
  std::vector<uint8_t> scratch;
  OpenBlock o;
  if (Status st = Open(block, records, scratch, &o); !st.ok()) return st;
  const size_t at = out->size();
  out->Resize(at + records);
  model::Time* begin = out->begin.data() + at;
  model::Time* end = out->end.data() + at;
  uint32_t* state = out->state.data() + at;
  uint16_t* cpu = out->cpu.data() + at;
  Reader& r = o.streams;
  GetTimes(r, begin, records);
  for (uint32_t i = 0; i < records; ++i) end[i] = Add(i + 1 < records ? begin[i + 1] : begin[i], r.Varint());
  const bool in_dict = GetIndices(r, o.dict, state, records);
  GetCpus(r, cpu, records);
  if (!r.ok || r.p != r.end || !in_dict) {
    out->Resize(at);
    return BadBlock(!in_dict ? "a state value outside its dictionary" : "its streams do not match its records");
  }
  return Status::Ok();
}

Status DecodeEvents(std::span<const uint8_t> block, uint32_t records, EventColumns* out) {
  std::vector<uint8_t> scratch;
  OpenBlock o;
  if (Status st = Open(block, records, scratch, &o); !st.ok()) return st;
  const size_t at = out->size();
  out->Resize(at + records);
  model::Time* time = out->time.data() + at;
  uint32_t* type = out->type.data() + at;
  int64_t* value = out->value.data() + at;
  uint16_t* cpu = out->cpu.data() + at;
  Reader& r = o.streams;
  GetTimes(r, time, records);
  const bool in_dict = GetIndices(r, o.dict, type, records);
  for (uint32_t i = 0; i < records; ++i) value[i] = static_cast<int64_t>(UnZigZag(r.Varint()));
  GetCpus(r, cpu, records);
  if (!r.ok || r.p != r.end || !in_dict) {
    out->Resize(at);
    return BadBlock(!in_dict ? "an event type outside its dictionary" : "its streams do not match its records");
  }
  return Status::Ok();
}

Status BlockDictionary(std::span<const uint8_t> block, uint32_t records, std::vector<uint32_t>* out) {
  BlockHead head;
  Reader rest{nullptr, nullptr};
  return ReadHead(block, records, &head, out, &rest);
}

namespace {
template <typename Cols, typename Fn>
Status DecodeAll(const CompactColumns& c, Cols* out, Fn decode) {
  out->Reserve(out->size() + c.records());
  for (size_t b = 0; b < c.blocks.size(); ++b) {
    const BlockEntry& e = c.blocks[b];
    if (!c.Holds(e))
      return BadBlock("block " + std::to_string(b) + " lies past the end of the bytes");
    if (Status st = decode(std::span<const uint8_t>(c.bytes.data() + e.offset, e.bytes), e.records, out); !st.ok())
      return st;
  }
  return Status::Ok();
}
}  // namespace

Status DecodeAllStates(const CompactColumns& c, StateColumns* out) { return DecodeAll(c, out, DecodeStates); }
Status DecodeAllEvents(const CompactColumns& c, EventColumns* out) { return DecodeAll(c, out, DecodeEvents); }

}  // namespace parallax::store::compact
