#pragma once
// The on-disk cache of a trace (docs/formats.md, "Trace cache"), for `parallax cache`.

#include <cstdint>
#include <string>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

struct CacheInfo {
  std::string path;          // where the cache of the trace is (or would be)
  bool exists = false;
  bool usable = false;       // present, intact and matching the trace as it is now
  std::string problem;       // why it is not usable ("" when usable or absent)
  uint32_t version = 0;      // format version written in the file
  uint64_t file_bytes = 0;   // size of the cache file
  uint64_t trace_bytes = 0;  // size of the trace file
  uint64_t records = 0;      // states + event pairs + communications (when usable)
  bool compact = false;      // the records are coded in blocks (`--compact`), not plain columns
};

// Describes the cache of `trace_path` (cache_dir as LoadOptions::cache_dir).
Result<CacheInfo> InspectCache(const std::string& trace_path, const std::string& cache_dir);

// Writes the cache of `trace_path` unless a usable one exists; returns its description.
Result<CacheInfo> BuildCache(const std::string& trace_path, const LoadOptions& options);

// Removes the cache of `trace_path`; true when there was one.
Result<bool> ClearCache(const std::string& trace_path, const std::string& cache_dir);

}  // namespace parallax
