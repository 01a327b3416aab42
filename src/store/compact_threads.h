#pragma once
// The threads of a compact trace store (TraceStore::Compact, docs/scale.md "Compact records"):
// every thread's states and events coded in blocks (compact_records.h), and the threads decoded
// for the code reading them.
//
// Two ways to read a thread:
// - a pin (Pin) decodes the thread into records shared by every pin of it; they stay while a
//   pin holds them, and after the last pin is released they are kept for the next one as long
//   as the decoded threads fit in the resident budget, the least recently pinned going first;
// - keeping it (Kept) pins it for good: the code that still reads TraceStore::thread, whose
//   memory is not bounded.
// Both are safe from many threads at once. Pinned records view the communication indices held
// here: like references to a store's records, they must not outlive the store.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/store/compact_records.h"
#include "src/store/trace_store.h"

namespace parallax::store {

// Thrown by a pin (or thread()) whose blocks do not decode, or decode to a cpu the trace does
// not have: blocks read from a damaged trace cache. The library's entry points turn it into an
// error naming the cache (session/guard.h).
class DamagedRecords : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws DamagedRecords for thread t (from 0): "the records of thread t+1 are damaged: what".
[[noreturn]] void ThrowDamaged(size_t t, const std::string& what);
// Whether no cpu of `cpu` is above `cpus` (decoded blocks must name cpus the trace has).
bool CpusWithin(const Column<uint16_t>& cpu, uint32_t cpus);

// One thread's coded records.
struct CodedThread {
  compact::CompactColumns states;
  compact::CompactColumns events;
  uint64_t state_count = 0;
  uint64_t event_count = 0;
  Column<uint32_t> sent;  // the thread's communication indices, as they were
  Column<uint32_t> received;
};

// A thread's states and events coded (its communication indices are left out).
CodedThread CodeThread(const ThreadRecords& records, const compact::EncodeOptions& options = {});

class CompactThreads {
 public:
  using Thread = CodedThread;

  // `cpus`: the largest cpu a record may name (the trace's cpu count).
  CompactThreads(std::vector<Thread> threads, uint64_t resident_budget, uint32_t cpus = UINT16_MAX);
  // Checks that every thread's blocks lie within its bytes and hold its record counts (not
  // that they decode: that is checked when they are). An error names the first bad thread.
  static std::string CheckLayout(const std::vector<Thread>& threads);

  size_t threads() const { return threads_.size(); }
  const Thread& coded(size_t t) const { return threads_[t]; }
  // The largest cpu a record may name.
  uint32_t cpus() const { return cpus_; }
  uint64_t state_records() const;
  uint64_t event_records() const;
  // Bytes of the coded records, and of the decoded ones held now.
  size_t CodedBytes() const;
  uint64_t ResidentBytes() const;
  // Whether thread t is decoded now.
  bool Resident(size_t t) const;

  // Thread t decoded (the parts asked for; the others are empty), held while the pointer is.
  std::shared_ptr<const ThreadRecords> Pin(size_t t, RecordParts parts = RecordParts::kAll) const;
  // Thread t decoded and held until the end.
  const ThreadRecords& Kept(size_t t) const;

 private:
  // The decoded parts of a thread. A part is pinned while a pin's columns view it (the views
  // hold its pointer), so a use count of 1 means that only the slot holds it.
  struct Slot {
    std::mutex m;
    std::shared_ptr<const StateColumns> states;  // null when not resident
    std::shared_ptr<const EventColumns> events;
    uint64_t state_bytes = 0;
    uint64_t event_bytes = 0;
    uint64_t last_use = 0;
  };
  // Releases the parts of the least recently used threads that no pin holds until the
  // resident bytes fit the budget (pinned parts and slots busy elsewhere are skipped).
  void Trim() const;

  std::vector<Thread> threads_;
  uint64_t budget_;
  uint32_t cpus_;
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<std::shared_ptr<const ThreadRecords>[]> kept_;
  std::unique_ptr<std::once_flag[]> keep_once_;
  mutable std::atomic<uint64_t> clock_{0};
  mutable std::atomic<uint64_t> resident_{0};
  mutable std::mutex trim_;
};

}  // namespace parallax::store
