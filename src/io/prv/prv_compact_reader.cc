#include "src/io/prv/prv_compact_reader.h"

#include <fmt/format.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>

#include "src/base/memory_budget.h"

namespace parallax::io {

namespace {

// The coded records in one array that grows without being copied: address space reserved up
// front, whose pages are only taken as they are written.
class Arena {
 public:
  explicit Arena(size_t reserve) : reserved_(reserve) {
    void* p = reserve == 0 ? MAP_FAILED
                           : ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (data_ == nullptr) reserved_ = 0;
  }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    if (data_ != nullptr) ::munmap(data_, reserved_);
  }
  // Appends `b`; false when it does not fit.
  bool Append(std::span<const uint8_t> b) {
    if (b.size() > reserved_ - used_) return false;
    std::memcpy(data_ + used_, b.data(), b.size());
    used_ += b.size();
    return true;
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return used_; }

 private:
  uint8_t* data_ = nullptr;
  size_t reserved_ = 0;
  size_t used_ = 0;
};

}  // namespace

PrvReadOptions SegmentCoder::Options(const PrvReadOptions& options) {
  PrvReadOptions o = options;
  o.segments = [this](const model::TraceHeader& h, store::TraceStore& segment) -> Status {
    if (!builder_) Make(segment.threads(), h.resources.cpus());
    return builder_->Add(segment);
  };
  return o;
}

void SegmentCoder::Make(size_t threads, uint32_t cpus) {
  builder_ = std::make_unique<store::CompactBuilder>(threads, cpus, sink_, store::compact::EncodeOptions{}, workers_);
}

Result<store::BuiltThreads> SegmentCoder::Finish(const PrvTrace& trace) {
  if (!builder_) Make(trace.store.threads(), trace.header.resources.cpus());  // a body of no segment
  auto built = builder_->Finish();
  builder_.reset();
  return built;
}

void AdoptBuiltThreads(PrvTrace& trace, store::BuiltThreads built, const store::Column<uint8_t>& bytes,
                       uint64_t resident_budget) {
  for (store::CodedThread& c : built.threads) {
    c.states.bytes = bytes;
    c.events.bytes = bytes;
  }
  trace.store.AdoptCompact(std::move(built.threads), resident_budget, trace.header.resources.cpus());
  trace.store.cpu_view() = std::move(built.cpu_view);
  trace.state_blocks = std::move(built.state_blocks);
  trace.event_types = store::ScanEventTypes(trace.store);
  trace.event_types_known = true;
}

Result<PrvTrace> ReadPrvCompact(const std::string& path, const PrvReadOptions& options, uint64_t resident_budget) {
  const uint64_t budget = base::EffectiveMemoryBudget(options.memory_budget);
  // Half the budget for the coded records; the rest is the parse's.
  auto bytes = std::make_shared<Arena>(static_cast<size_t>(std::min<uint64_t>(budget / 2, uint64_t{1} << 46)));
  SegmentCoder coder(
      [&](std::span<const uint8_t> b) -> Result<uint64_t> {
        const uint64_t at = bytes->size();
        if (!bytes->Append(b))
          return Status::Error(
              fmt::format("the trace does not fit in the memory budget: its coded records need more than {}, "
                          "half the budget of {}",
                          base::FormatBytes(budget / 2), base::FormatBytes(budget)),
              Location{path, 0, 0},
              "use the trace cache (drop --no-cache), which keeps the coded records on disk, or raise the memory "
              "limit, or cut the trace first");
        return at;
      },
      options.threads);
  const PrvReadOptions ro = coder.Options(options);
  auto prv = ReadPrv(path, ro);
  if (!prv.ok()) {
    if (!coder.unsorted()) return prv;
    bytes.reset();
    prv = ReadPrv(path, options);  // two passes, then coded
    if (prv.ok()) {
      prv->state_blocks = store::BuildStateBlocks(prv->store, options.threads);
      prv->store.Compact(resident_budget, options.threads);
      prv->event_types = store::ScanEventTypes(prv->store);  // from the blocks' dictionaries
      prv->event_types_known = true;
    }
    return prv;
  }
  auto built = coder.Finish(prv.value());
  if (!built.ok()) return built.status();
  const auto view = store::Column<uint8_t>::View(bytes->data(), bytes->size(), bytes);
  AdoptBuiltThreads(prv.value(), std::move(built.value()), view, resident_budget);
  return prv;
}

}  // namespace parallax::io
