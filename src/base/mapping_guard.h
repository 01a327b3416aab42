#pragma once
// A file mapped into memory can shrink under its reader: truncated in place (rsync --inplace, cp
// onto the existing file, a writer that starts over, a cache rebuilt by another process). A read
// of a page past the new end raises SIGBUS, whose default action ends the process. So every
// mapping of a file is guarded: a SIGBUS handler, installed with the first guard, puts
// zero-filled pages in place of the guarded mapping's lost pages (from the faulting page to its
// end) and marks it truncated, and the read goes on. Readers check the mark once their work is
// done (MappingStatus::Unchanged) and report the file as changed instead of what they computed
// from the zeros; a trace whose cache was cut while in use fails every later call the same way
// (Trace::Changed). A SIGBUS at any other address goes to the handler installed before, or ends
// the process as it would have.

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "include/parallax/status.h"

namespace parallax::base {

// Whether a guarded mapping lost pages; outlives the guard for those who check later.
class MappingStatus {
 public:
  explicit MappingStatus(std::string path) : path_(std::move(path)) {}
  bool truncated() const { return truncated_.load(std::memory_order_acquire); }
  const std::string& path() const { return path_; }
  // Ok, or the error saying that the file changed while it was read (after `truncated()`).
  Status Unchanged() const;

 private:
  friend class MappingGuard;
  std::atomic<bool> truncated_{false};
  std::string path_;
};

// Guards [data, data + bytes) of a mapping of `path` while it lives: destroy it before the
// mapping is unmapped. `writable`: the replacement pages are writable (a mapping being written).
class MappingGuard {
 public:
  MappingGuard(const void* data, size_t bytes, std::string path, bool writable);
  ~MappingGuard();
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;

  std::shared_ptr<const MappingStatus> status() const { return status_; }

 private:
  std::shared_ptr<MappingStatus> status_;
  size_t slot_;  // kNoSlot when every slot was taken (the mapping is then not guarded)
};

}  // namespace parallax::base
