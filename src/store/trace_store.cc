#include "src/store/trace_store.h"

#include <fmt/format.h>

#include <set>

#include <algorithm>
#include <numeric>

#include "src/base/check.h"
#include "src/base/parallel.h"
#include "src/store/compact_threads.h"

namespace parallax::store {

namespace {
template <typename T>
size_t Bytes(const Column<T>& v) {
  return v.capacity() * sizeof(T);
}
template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

template <typename T>
void Move(Column<T>& v, size_t first, size_t last, size_t to) {
  std::copy(v.begin() + static_cast<ptrdiff_t>(first), v.begin() + static_cast<ptrdiff_t>(last),
            v.begin() + static_cast<ptrdiff_t>(to));
}

template <typename T>
void Shrink(Column<T>& v, size_t n) {
  v.resize(n);
  v.shrink_to_fit();
}
}  // namespace

size_t StateColumns::MemoryBytes() const {
  return Bytes(begin) + Bytes(end) + Bytes(state) + Bytes(cpu);
}

void StateColumns::Resize(size_t n) {
  begin.resize(n);
  end.resize(n);
  state.resize(n);
  cpu.resize(n);
}

void StateColumns::Reserve(size_t n) {
  begin.reserve(n);
  end.reserve(n);
  state.reserve(n);
  cpu.reserve(n);
}

void StateColumns::MoveRange(size_t first, size_t last, size_t to) {
  Move(begin, first, last, to);
  Move(end, first, last, to);
  Move(state, first, last, to);
  Move(cpu, first, last, to);
}

void StateColumns::Truncate(size_t n) {
  Shrink(begin, n);
  Shrink(end, n);
  Shrink(state, n);
  Shrink(cpu, n);
}

void EventColumns::Reserve(size_t n) {
  time.reserve(n);
  type.reserve(n);
  value.reserve(n);
  cpu.reserve(n);
}

void EventColumns::MoveRange(size_t first, size_t last, size_t to) {
  Move(time, first, last, to);
  Move(type, first, last, to);
  Move(value, first, last, to);
  Move(cpu, first, last, to);
}

void EventColumns::Truncate(size_t n) {
  Shrink(time, n);
  Shrink(type, n);
  Shrink(value, n);
  Shrink(cpu, n);
}

size_t EventColumns::MemoryBytes() const {
  return Bytes(time) + Bytes(type) + Bytes(value) + Bytes(cpu);
}

void EventColumns::Resize(size_t n) {
  time.resize(n);
  type.resize(n);
  value.resize(n);
  cpu.resize(n);
}

size_t CommTable::MemoryBytes() const {
  return Bytes(sender) + Bytes(receiver) + Bytes(sender_cpu) + Bytes(receiver_cpu) +
         Bytes(log_send) + Bytes(phy_send) + Bytes(log_recv) + Bytes(phy_recv) + Bytes(size) +
         Bytes(tag);
}

void CommTable::Resize(size_t n) {
  sender.resize(n);
  receiver.resize(n);
  sender_cpu.resize(n);
  receiver_cpu.resize(n);
  log_send.resize(n);
  phy_send.resize(n);
  log_recv.resize(n);
  phy_recv.resize(n);
  size.resize(n);
  tag.resize(n);
}

size_t CpuView::MemoryBytes() const {
  size_t b = Bytes(state_runs) + Bytes(event_runs);
  for (const auto& r : state_runs) b += Bytes(r);
  for (const auto& r : event_runs) b += Bytes(r);
  return b;
}

uint64_t TraceStore::state_records() const {
  if (compact_) return compact_->state_records();
  uint64_t n = 0;
  for (const auto& t : threads_) n += t.states.size();
  return n;
}

uint64_t TraceStore::event_records() const {
  if (compact_) return compact_->event_records();
  uint64_t n = 0;
  for (const auto& t : threads_) n += t.events.size();
  return n;
}

size_t TraceStore::MemoryBytes() const {
  size_t b = Bytes(threads_) + comms_.MemoryBytes() + cpu_view_.MemoryBytes();
  for (const auto& t : threads_)
    b += t.states.MemoryBytes() + t.events.MemoryBytes() + Bytes(t.sent) + Bytes(t.received);
  if (compact_) b += compact_->CodedBytes() + compact_->ResidentBytes();
  return b;
}

namespace {
template <typename T>
uint64_t Size(const Column<T>& v) {
  return v.size() * sizeof(T);
}
}  // namespace

uint64_t TraceStore::RecordBytes() const {
  const CommTable& c = comms_;
  uint64_t b = Size(c.sender) + Size(c.receiver) + Size(c.sender_cpu) + Size(c.receiver_cpu) +
               Size(c.log_send) + Size(c.phy_send) + Size(c.log_recv) + Size(c.phy_recv) +
               Size(c.size) + Size(c.tag);
  for (size_t t = 0; t < threads(); ++t) {
    if (compact_) {
      const CodedThread& ct = compact_->coded(t);
      b += Size(ct.sent) + Size(ct.received);
      for (const compact::CompactColumns* part : {&ct.states, &ct.events}) {
        b += Size(part->blocks);
        for (const compact::BlockEntry& e : part->blocks) b += e.bytes;
      }
      continue;
    }
    const ThreadRecords& r = threads_[t];
    b += Size(r.states.begin) + Size(r.states.end) + Size(r.states.state) + Size(r.states.cpu) +
         Size(r.events.time) + Size(r.events.type) + Size(r.events.value) + Size(r.events.cpu) +
         Size(r.sent) + Size(r.received);
  }
  return b;
}

const ThreadRecords& TraceStore::thread(model::ThreadIndex t) const {
  return compact_ ? compact_->Kept(t.value) : threads_[t.value];
}

std::shared_ptr<const ThreadRecords> TraceStore::Pin(model::ThreadIndex t, RecordParts parts) const {
  if (compact_) return compact_->Pin(t.value, parts);
  return std::shared_ptr<const ThreadRecords>(std::shared_ptr<const void>(), &threads_[t.value]);
}

uint64_t TraceStore::StateCount(model::ThreadIndex t) const {
  return compact_ ? compact_->coded(t.value).state_count : threads_[t.value].states.size();
}

uint64_t TraceStore::EventCount(model::ThreadIndex t) const {
  return compact_ ? compact_->coded(t.value).event_count : threads_[t.value].events.size();
}

const Column<uint32_t>& TraceStore::Sent(model::ThreadIndex t) const {
  return compact_ ? compact_->coded(t.value).sent : threads_[t.value].sent;
}

const Column<uint32_t>& TraceStore::Received(model::ThreadIndex t) const {
  return compact_ ? compact_->coded(t.value).received : threads_[t.value].received;
}

void TraceStore::Compact(uint64_t resident_budget, unsigned worker_threads) {
  if (compact_) return;
  std::vector<CodedThread> coded(threads_.size());
  const unsigned workers = worker_threads == 0 ? base::DefaultThreads() : worker_threads;
  base::ParallelFor(threads_.size(), workers, [&](size_t t) {
    coded[t] = CodeThread(threads_[t]);
    threads_[t].states = StateColumns{};  // released as soon as coded
    threads_[t].events = EventColumns{};
  });
  AdoptCompact(std::move(coded), resident_budget, UINT16_MAX);  // every cpu a record can name
}

void TraceStore::AdoptCompact(std::vector<CodedThread> coded, uint64_t resident_budget, uint32_t cpus) {
  PARALLAX_CHECK(coded.size() == threads_.size());
  for (size_t t = 0; t < threads_.size(); ++t) {
    coded[t].sent = std::move(threads_[t].sent);
    coded[t].received = std::move(threads_[t].received);
    threads_[t] = ThreadRecords{};
  }
  compact_ = std::make_shared<const CompactThreads>(std::move(coded), resident_budget, cpus);
}

void TraceStore::Decompact() {
  // Every thread decoded before the store changes: a damaged block (DamagedRecords) leaves it
  // compact as it was.
  std::vector<ThreadRecords> plain(threads_.size());
  for (size_t t = 0; t < threads_.size(); ++t) {
    std::shared_ptr<const ThreadRecords> r = compact_->Pin(t);
    plain[t].states = r->states;  // views that hold the decoded columns; copied on a write
    plain[t].events = r->events;
    plain[t].sent = compact_->coded(t).sent.ToVector();
    plain[t].received = compact_->coded(t).received.ToVector();
  }
  threads_ = std::move(plain);
  compact_.reset();
}

void BuildCommIndices(TraceStore& store, unsigned worker_threads) {
  const CommTable& c = store.comms();
  std::vector<uint32_t> sent_count(store.threads(), 0), recv_count(store.threads(), 0);
  for (size_t i = 0; i < c.rows(); ++i) {
    ++sent_count[c.sender[i]];
    ++recv_count[c.receiver[i]];
  }
  for (size_t t = 0; t < store.threads(); ++t) {
    auto& tr = store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
    tr.sent.clear();
    tr.received.clear();
    tr.sent.reserve(sent_count[t]);
    tr.received.reserve(recv_count[t]);
  }
  for (size_t i = 0; i < c.rows(); ++i) {
    store.thread(model::ThreadIndex(c.sender[i])).sent.push_back(static_cast<uint32_t>(i));
    store.thread(model::ThreadIndex(c.receiver[i])).received.push_back(static_cast<uint32_t>(i));
  }
  base::ParallelFor(store.threads(), worker_threads, [&](size_t t) {
    auto& tr = store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
    auto by = [](const Column<Time>& key) {
      return [&key](uint32_t a, uint32_t b) { return key[a] < key[b]; };
    };
    if (!std::is_sorted(tr.sent.begin(), tr.sent.end(), by(c.log_send)))
      std::stable_sort(tr.sent.begin(), tr.sent.end(), by(c.log_send));
    if (!std::is_sorted(tr.received.begin(), tr.received.end(), by(c.log_recv)))
      std::stable_sort(tr.received.begin(), tr.received.end(), by(c.log_recv));
  });
}

namespace {

// Appends the runs of equal non-zero cpu in `cpu` to per-cpu lists.
void CollectRuns(uint32_t thread, const Column<uint16_t>& cpu, uint32_t cpus,
                 std::vector<std::pair<uint16_t, CpuRun>>& out) {
  size_t n = cpu.size();
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && cpu[j] == cpu[i]) ++j;
    if (cpu[i] != 0 && cpu[i] <= cpus)
      out.push_back({cpu[i], CpuRun{thread, static_cast<uint32_t>(i), static_cast<uint32_t>(j)}});
    i = j;
  }
}

void SortRuns(std::vector<CpuRun>& runs, const TraceStore& store, bool states) {
  auto first_time = [&](const CpuRun& r) {
    const auto& tr = store.thread(model::ThreadIndex(r.thread));
    return states ? tr.states.begin[r.first] : tr.events.time[r.first];
  };
  std::stable_sort(runs.begin(), runs.end(), [&](const CpuRun& a, const CpuRun& b) {
    Time ta = first_time(a), tb = first_time(b);
    return ta != tb ? ta < tb : a.thread < b.thread;
  });
}

}  // namespace

void BuildCpuView(TraceStore& store, uint32_t cpus, unsigned worker_threads) {
  CpuView& view = store.cpu_view();
  view.state_runs.assign(cpus, {});
  view.event_runs.assign(cpus, {});
  if (cpus == 0) return;
  std::vector<std::vector<std::pair<uint16_t, CpuRun>>> state_parts(store.threads()),
      event_parts(store.threads());
  base::ParallelFor(store.threads(), worker_threads, [&](size_t t) {
    const auto& tr = store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
    CollectRuns(static_cast<uint32_t>(t), tr.states.cpu, cpus, state_parts[t]);
    CollectRuns(static_cast<uint32_t>(t), tr.events.cpu, cpus, event_parts[t]);
  });
  for (size_t t = 0; t < store.threads(); ++t) {
    for (const auto& [cpu, run] : state_parts[t]) view.state_runs[cpu - 1].push_back(run);
    for (const auto& [cpu, run] : event_parts[t]) view.event_runs[cpu - 1].push_back(run);
  }
  base::ParallelFor(cpus, worker_threads, [&](size_t c) {
    SortRuns(view.state_runs[c], store, true);
    SortRuns(view.event_runs[c], store, false);
    view.state_runs[c].shrink_to_fit();
    view.event_runs[c].shrink_to_fit();
  });
}

std::vector<uint32_t> ScanEventTypes(const TraceStore& store, size_t first, size_t step) {
  std::set<uint32_t> types;
  // A trace has few distinct types, repeated in every event line: a direct-mapped table of
  // the types already inserted skips the set for nearly every record.
  constexpr size_t kSlots = 1024;
  std::vector<uint32_t> seen(kSlots);
  std::vector<uint8_t> used(kSlots);
  auto add = [&](uint32_t x) {
    size_t h = (x * 2654435761u) >> 22;
    if (used[h] && seen[h] == x) return;
    types.insert(x);
    seen[h] = x;
    used[h] = 1;
  };
  std::vector<uint32_t> dict;
  for (size_t t = first; t < store.threads(); t += step) {
    if (const CompactThreads* c = store.compact_threads()) {  // the blocks' dictionaries
      const compact::CompactColumns& ev = c->coded(t).events;
      for (const compact::BlockEntry& b : ev.blocks) {
        if (Status st = compact::BlockDictionary({ev.bytes.data() + b.offset, b.bytes}, b.records, &dict); !st.ok())
          throw DamagedRecords(fmt::format("the event types of thread {} are damaged: {}", t + 1, st.message()));
        for (uint32_t x : dict) add(x);
      }
      continue;
    }
    for (uint32_t x : store.thread(model::ThreadIndex(static_cast<uint32_t>(t))).events.type) add(x);
  }
  return {types.begin(), types.end()};
}

}  // namespace parallax::store
