#include "src/store/compact_threads.h"

#include <fmt/format.h>

#include <algorithm>

namespace parallax::store {

namespace {

// A view of `c` held by `keep`; with a null `keep`, it owns nothing: the communication indices
// live in the CompactThreads, which pins must not outlive (see the header).
template <typename T>
Column<T> ViewOf(const Column<T>& c, const std::shared_ptr<const void>& keep) {
  return Column<T>::View(c.data(), c.size(),
                         keep ? keep : std::shared_ptr<const void>(std::shared_ptr<void>(), &c));
}

// Blocks coded by this process decode; blocks read from a cache may not (a damaged cache whose
// checksum was not verified, as when its seal is trusted).
std::shared_ptr<const StateColumns> DecodeStates(const compact::CompactColumns& c, size_t t, uint32_t cpus) {
  auto r = std::make_shared<StateColumns>();
  if (Status st = compact::DecodeAllStates(c, r.get()); !st.ok()) ThrowDamaged(t, st.message());
  if (!CpusWithin(r->cpu, cpus)) ThrowDamaged(t, "a state names a cpu the trace does not have");
  return r;
}
std::shared_ptr<const EventColumns> DecodeEvents(const compact::CompactColumns& c, size_t t, uint32_t cpus) {
  auto r = std::make_shared<EventColumns>();
  if (Status st = compact::DecodeAllEvents(c, r.get()); !st.ok()) ThrowDamaged(t, st.message());
  if (!CpusWithin(r->cpu, cpus)) ThrowDamaged(t, "an event names a cpu the trace does not have");
  return r;
}

std::string CheckColumns(const compact::CompactColumns& c, uint64_t count) {
  uint64_t records = 0;
  for (const compact::BlockEntry& b : c.blocks) {
    if (!c.Holds(b)) return "a block lies past its bytes";
    if (b.records == 0 || b.records > compact::kMaxBlockRecords) return "a block has a bad record count";
    records += b.records;
  }
  if (records != count) return fmt::format("its blocks hold {} records, not {}", records, count);
  return {};
}

bool Has(RecordParts parts, RecordParts p) { return (static_cast<uint8_t>(parts) & static_cast<uint8_t>(p)) != 0; }

}  // namespace

void ThrowDamaged(size_t t, const std::string& what) {
  throw DamagedRecords(fmt::format("the records of thread {} are damaged: {}", t + 1, what));
}

bool CpusWithin(const Column<uint16_t>& cpu, uint32_t cpus) {
  return std::all_of(cpu.begin(), cpu.end(), [cpus](uint16_t c) { return c <= cpus; });
}

CodedThread CodeThread(const ThreadRecords& r, const compact::EncodeOptions& options) {
  CodedThread c;
  c.states = compact::EncodeStates(r.states, options);
  c.events = compact::EncodeEvents(r.events, options);
  c.state_count = r.states.size();
  c.event_count = r.events.size();
  return c;
}

std::string CompactThreads::CheckLayout(const std::vector<Thread>& threads) {
  for (size_t t = 0; t < threads.size(); ++t) {
    std::string s = CheckColumns(threads[t].states, threads[t].state_count);
    std::string e = CheckColumns(threads[t].events, threads[t].event_count);
    if (!s.empty()) return fmt::format("thread {}'s states: {}", t + 1, s);
    if (!e.empty()) return fmt::format("thread {}'s events: {}", t + 1, e);
  }
  return {};
}

CompactThreads::CompactThreads(std::vector<Thread> threads, uint64_t resident_budget, uint32_t cpus)
    : threads_(std::move(threads)),
      budget_(resident_budget),
      cpus_(cpus),
      slots_(new Slot[threads_.size()]),
      kept_(new std::shared_ptr<const ThreadRecords>[threads_.size()]),
      keep_once_(new std::once_flag[threads_.size()]) {}

uint64_t CompactThreads::state_records() const {
  uint64_t n = 0;
  for (const Thread& t : threads_) n += t.state_count;
  return n;
}

uint64_t CompactThreads::event_records() const {
  uint64_t n = 0;
  for (const Thread& t : threads_) n += t.event_count;
  return n;
}

size_t CompactThreads::CodedBytes() const {
  size_t b = 0;
  for (const Thread& t : threads_)
    b += t.states.MemoryBytes() + t.events.MemoryBytes() + (t.sent.capacity() + t.received.capacity()) * 4;
  return b;
}

uint64_t CompactThreads::ResidentBytes() const { return resident_.load(); }

bool CompactThreads::Resident(size_t t) const {
  std::lock_guard<std::mutex> lock(slots_[t].m);
  return slots_[t].states || slots_[t].events;
}

const ThreadRecords& CompactThreads::Kept(size_t t) const {
  std::call_once(keep_once_[t], [&] { kept_[t] = Pin(t); });
  return *kept_[t];
}

std::shared_ptr<const ThreadRecords> CompactThreads::Pin(size_t t, RecordParts parts) const {
  Slot& s = slots_[t];
  std::shared_ptr<const StateColumns> states;
  std::shared_ptr<const EventColumns> events;
  bool added = false;
  {
    std::lock_guard<std::mutex> lock(s.m);
    if (Has(parts, RecordParts::kStates)) {
      if (!s.states) {
        s.states = DecodeStates(threads_[t].states, t, cpus_);
        s.state_bytes = s.states->MemoryBytes();
        resident_ += s.state_bytes;
        added = true;
      }
      states = s.states;
    }
    if (Has(parts, RecordParts::kEvents)) {
      if (!s.events) {
        s.events = DecodeEvents(threads_[t].events, t, cpus_);
        s.event_bytes = s.events->MemoryBytes();
        resident_ += s.event_bytes;
        added = true;
      }
      events = s.events;
    }
    s.last_use = ++clock_;
  }
  auto r = std::make_shared<ThreadRecords>();
  if (states) {
    r->states.begin = ViewOf(states->begin, states);
    r->states.end = ViewOf(states->end, states);
    r->states.state = ViewOf(states->state, states);
    r->states.cpu = ViewOf(states->cpu, states);
  }
  if (events) {
    r->events.time = ViewOf(events->time, events);
    r->events.type = ViewOf(events->type, events);
    r->events.value = ViewOf(events->value, events);
    r->events.cpu = ViewOf(events->cpu, events);
  }
  r->sent = ViewOf(threads_[t].sent, nullptr);
  r->received = ViewOf(threads_[t].received, nullptr);
  states.reset();  // the views hold them now
  events.reset();
  if (added && resident_.load() > budget_) Trim();
  return r;
}

void CompactThreads::Trim() const {
  std::lock_guard<std::mutex> lock(trim_);
  auto loose = [](const auto& part) { return part && part.use_count() == 1; };
  while (resident_.load() > budget_) {
    // The least recently used thread with a resident part that no pin holds.
    size_t victim = threads_.size();
    uint64_t oldest = UINT64_MAX;
    for (size_t t = 0; t < threads_.size(); ++t) {
      Slot& s = slots_[t];
      std::unique_lock<std::mutex> l(s.m, std::try_to_lock);
      if (!l.owns_lock() || !(loose(s.states) || loose(s.events))) continue;
      if (s.last_use < oldest) {
        oldest = s.last_use;
        victim = t;
      }
    }
    if (victim == threads_.size()) return;  // everything resident is pinned
    Slot& s = slots_[victim];
    std::unique_lock<std::mutex> l(s.m, std::try_to_lock);
    if (!l.owns_lock()) continue;
    // A part is only shared anew under the slot's lock, so a count of 1 seen here stays 1.
    if (loose(s.states)) {
      s.states.reset();
      resident_ -= s.state_bytes;
      s.state_bytes = 0;
    }
    if (loose(s.events)) {
      s.events.reset();
      resident_ -= s.event_bytes;
      s.event_bytes = 0;
    }
  }
}

}  // namespace parallax::store
