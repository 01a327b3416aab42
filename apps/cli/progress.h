#pragma once
// A progress bar on stderr for long loads: shown only when stderr is a terminal and the load
// has taken more than a second.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace parallax::cli {

// "8G", "512M", "100k", "12345": bytes, with K, M, G, T as powers of 1024 (case-insensitive,
// an optional trailing B or iB); nullopt when it is not a size.
std::optional<uint64_t> ParseByteSize(const std::string& text);

class ProgressBar {
 public:
  explicit ProgressBar(std::string what);
  ~ProgressBar();
  void Update(uint64_t done, uint64_t total);

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  bool tty_ = false;
  bool shown_ = false;
};

}  // namespace parallax::cli

#include <memory>

#include "include/parallax/functions.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

// The functions of the plug-ins named by PARALLAX_PLUGINS (main.cc adds the --plugin options to
// it): false, after printing why, when one cannot be loaded.
bool LoadFunctionsOrReport(std::shared_ptr<const FunctionRegistry>* out);

// Sets the cache fields of `opts` from PARALLAX_CACHE (off/0/no/false disable it; on by
// default), PARALLAX_CACHE_DIR and PARALLAX_COMPACT (on/1/yes/true: compact records), which
// --no-cache, --cache-dir and --compact set (apps/cli/main.cc); PARALLAX_COMPACT_RESIDENT sets
// LoadOptions::compact_resident (the tests run every golden script with 0).
void ApplyCacheEnvironment(LoadOptions& opts);
// Sets opts.memory_limit from PARALLAX_MEMORY_LIMIT (which --memory-limit sets); false, with
// the error printed, when it is not a size.
bool ApplyMemoryLimitEnvironment(LoadOptions& opts);

// Loads a trace with a progress bar; on failure prints the error to stderr and returns null.
// `dist`: every process of a distributed run loads it together (LoadOptions::distribution).
// `states_only`: LoadOptions::states_only (it applies only without the cache).
std::unique_ptr<Trace> LoadTraceOrReport(const std::string& path, bool strict = false, unsigned threads = 0,
                                         const Distribution* dist = nullptr, bool states_only = false);

// In a distributed run: whether every process got here with `ok` (a collective call, so a
// process that failed stops the others instead of leaving them waiting); `ok` otherwise.
bool AllOk(const Distribution* dist, bool ok);

}  // namespace parallax::cli
