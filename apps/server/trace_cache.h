#pragma once
// The traces a server has opened, by canonical path: each is loaded once (concurrent requests
// for a trace being loaded wait for that load) and then shared read-only by every request.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "include/parallax/functions.h"
#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax::server {

struct LoadProgress {
  bool loaded = false;
  bool loading = false;
  uint64_t done = 0, total = 0;
  Status error;  // why the last load failed (ok while loading, once loaded, or before any load)
};

class TraceCache {
 public:
  // Traces are opened with `load` and these functions (null: the built-in ones).
  explicit TraceCache(std::shared_ptr<const FunctionRegistry> functions = nullptr, LoadOptions load = {})
      : functions_(std::move(functions)), load_(std::move(load)) {}

  // The trace at `canonical_path`, loading it on first use, and again when its files changed
  // under it (Trace::Changed). A load that throws fails like any other (its message says so); a
  // failed load is retried by the next Get.
  Result<std::shared_ptr<const Trace>> Get(const std::string& canonical_path);

  LoadProgress Progress(const std::string& canonical_path) const;
  std::vector<std::string> Loaded() const;

 private:
  struct Entry {
    std::mutex load_mutex;  // held while loading: later requests wait for the first load
    std::shared_ptr<const Trace> trace;
    std::atomic<bool> loading{false};
    std::atomic<uint64_t> done{0}, total{0};
    mutable std::mutex error_mutex;  // guards error (read by Progress during a load)
    Status error;
  };
  Result<std::unique_ptr<Trace>> Load(const std::string& path, Entry* e) const;
  std::shared_ptr<Entry> Find(const std::string& path, bool create) const;

  std::shared_ptr<const FunctionRegistry> functions_;
  LoadOptions load_;
  mutable std::mutex mutex_;  // guards entries_ (the map, not the traces)
  mutable std::map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace parallax::server
