#include "apps/server/trace_cache.h"

namespace parallax::server {

std::shared_ptr<TraceCache::Entry> TraceCache::Find(const std::string& path, bool create) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(path);
  if (it != entries_.end()) return it->second;
  if (!create) return nullptr;
  auto entry = std::make_shared<Entry>();
  entries_.emplace(path, entry);
  return entry;
}

Result<std::unique_ptr<Trace>> TraceCache::Load(const std::string& path, Entry* e) const {
  LoadOptions options = load_;
  options.functions = functions_;
  options.progress = [e](uint64_t done, uint64_t total) {
    e->done = done;
    e->total = total;
  };
  try {
    return Trace::Open(path, options);
  } catch (const std::bad_alloc&) {
    return Status::Error("not enough memory to load the trace");
  } catch (const std::exception& ex) {
    return Status::Error(std::string("cannot load the trace: internal error: ") + ex.what());
  } catch (...) {
    return Status::Error("cannot load the trace: internal error");
  }
}

Result<std::shared_ptr<const Trace>> TraceCache::Get(const std::string& canonical_path) {
  std::shared_ptr<Entry> e = Find(canonical_path, true);
  std::lock_guard<std::mutex> lock(e->load_mutex);
  // A trace whose cache was cut under it (Trace::Changed) answers every call with an error:
  // loaded again (the requests still holding the old one finish with that error).
  if (e->trace && !e->trace->Changed()) return e->trace;
  e->trace.reset();
  {
    std::lock_guard<std::mutex> l(e->error_mutex);
    e->error = Status::Ok();
  }
  e->done = 0;
  e->total = 0;
  e->loading = true;
  auto opened = Load(canonical_path, e.get());
  if (!opened.ok()) {
    std::lock_guard<std::mutex> l(e->error_mutex);
    e->error = opened.status();
  } else {
    e->trace = std::shared_ptr<const Trace>(std::move(opened).value());
  }
  e->loading = false;
  if (!opened.ok()) return opened.status();
  return e->trace;
}

LoadProgress TraceCache::Progress(const std::string& canonical_path) const {
  std::shared_ptr<Entry> e = Find(canonical_path, false);
  LoadProgress p;
  if (!e) return p;
  p.loading = e->loading;
  p.done = e->done;
  p.total = e->total;
  {
    std::lock_guard<std::mutex> l(e->error_mutex);
    p.error = e->error;
  }
  // try_lock: a trace being loaded holds the mutex, and this must not wait for it.
  std::unique_lock<std::mutex> lock(e->load_mutex, std::try_to_lock);
  p.loaded = lock.owns_lock() && e->trace != nullptr;
  return p;
}

std::vector<std::string> TraceCache::Loaded() const {
  std::vector<std::string> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [path, e] : entries_) {
    std::unique_lock<std::mutex> l(e->load_mutex, std::try_to_lock);
    if (l.owns_lock() && e->trace) out.push_back(path);
  }
  return out;
}

}  // namespace parallax::server
