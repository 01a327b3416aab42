// `parallax cache`: describe, build and remove the on-disk cache of a trace.

#include "include/parallax/cache.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "src/io/cache/trace_cache.h"
#include "src/session/trace_impl.h"

namespace parallax {

Result<CacheInfo> InspectCache(const std::string& trace_path, const std::string& cache_dir) {
  auto stamp = io::cache::StampOf(trace_path);
  if (!stamp.ok()) return stamp.status();
  CacheInfo info;
  info.path = io::cache::CachePathFor(trace_path, cache_dir);
  info.trace_bytes = stamp->size;
  std::error_code ec;
  info.file_bytes = std::filesystem::file_size(info.path, ec);
  if (ec) {
    info.file_bytes = 0;
    return info;
  }
  info.exists = true;
  auto buffer = base::InputBuffer::Open(info.path);
  if (!buffer.ok()) {
    info.problem = buffer.status().message();
    return info;
  }
  auto header = io::cache::ReadHeader(buffer->view(), info.path);
  if (!header.ok()) {
    info.problem = header.status().message();
    return info;
  }
  info.version = header->version;
  io::cache::DecodeOptions d;
  d.expect = &stamp.value();
  auto trace = io::cache::DecodeCache(buffer->view(), info.path, d);
  if (!trace.ok()) {
    info.problem = trace.status().message();
    return info;
  }
  info.usable = true;
  info.records = trace->store.state_records() + trace->store.event_records() + trace->store.comms().rows();
  info.compact = trace->store.compact();
  return info;
}

Result<CacheInfo> BuildCache(const std::string& trace_path, const LoadOptions& options) {
  auto before = InspectCache(trace_path, options.cache_dir);
  if (!before.ok()) return before.status();
  if (before->usable) return before;
  LoadOptions o = options;
  o.use_cache = true;
  o.cache_min_bytes = 0;  // asked for: whatever the trace's size
  std::string failure;
  o.notice = [&](const std::string& text) { failure = text; };
  auto trace = session::OpenTrace(trace_path, o);
  if (!trace.ok()) return trace.status();
  auto after = InspectCache(trace_path, options.cache_dir);
  if (after.ok() && !after->usable)
    return Status::Error(failure.empty() ? "the cache was not written" : failure,
                         Location{trace_path, 0, 0},
                         "only .prv and .prv.gz traces are cached; check the cache folder");
  return after;
}

Result<bool> ClearCache(const std::string& trace_path, const std::string& cache_dir) {
  std::string path = io::cache::CachePathFor(trace_path, cache_dir);
  std::remove(io::cache::SealPathFor(path).c_str());
  if (std::remove(path.c_str()) == 0) return true;
  if (errno == ENOENT) return false;
  return Status::Error(fmt::format("cannot remove the trace cache: {}", std::strerror(errno)),
                       Location{path, 0, 0}, "check the permissions of its folder");
}

}  // namespace parallax
