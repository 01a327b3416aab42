#include "apps/cli/progress.h"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace parallax::cli {

std::optional<uint64_t> ParseByteSize(const std::string& text) {
  uint64_t n = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, n);
  if (ec != std::errc() || p == text.data()) return std::nullopt;
  std::string unit;
  for (; p < end; ++p) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  struct Suffix {
    const char* spellings[4];
    int shift;
  };
  static constexpr Suffix kSuffixes[] = {{{"", "b", nullptr, nullptr}, 0},
                                         {{"k", "kb", "kib", nullptr}, 10},
                                         {{"m", "mb", "mib", nullptr}, 20},
                                         {{"g", "gb", "gib", nullptr}, 30},
                                         {{"t", "tb", "tib", nullptr}, 40}};
  for (const Suffix& s : kSuffixes) {
    for (const char* spelling : s.spellings) {
      if (spelling == nullptr || unit != spelling) continue;
      if (s.shift > 0 && n > (UINT64_MAX >> s.shift)) return std::nullopt;
      return n << s.shift;
    }
  }
  return std::nullopt;
}

ProgressBar::ProgressBar(std::string what)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()), tty_(isatty(2) == 1) {}

ProgressBar::~ProgressBar() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

void ProgressBar::Update(uint64_t done, uint64_t total) {
  if (!tty_ || total == 0) return;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < 1.0) return;
  shown_ = true;
  constexpr int kWidth = 30;
  double f = static_cast<double>(done) / static_cast<double>(total);
  if (f > 1) f = 1;
  int filled = static_cast<int>(f * kWidth);
  std::fprintf(stderr, "\r%s [%.*s%*s] %3d%% %.0f MB/s", what_.c_str(), filled,
               "##############################", kWidth - filled, "", static_cast<int>(f * 100),
               static_cast<double>(done) / 1e6 / elapsed);
  std::fflush(stderr);
}

}  // namespace parallax::cli

namespace parallax::cli {

bool LoadFunctionsOrReport(std::shared_ptr<const FunctionRegistry>* out) {
  const char* list = std::getenv("PARALLAX_PLUGINS");
  if (list == nullptr || *list == '\0') {
    out->reset();
    return true;
  }
  auto registry = std::make_shared<FunctionRegistry>();
  Status s = registry->LoadPlugins(list);
  if (!s.ok()) {
    std::fprintf(stderr, "parallax: %s\n", s.ToString().c_str());
    return false;
  }
  *out = std::move(registry);
  return true;
}

bool ApplyMemoryLimitEnvironment(LoadOptions& opts) {
  if (const char* limit = std::getenv("PARALLAX_MEMORY_LIMIT")) {
    auto bytes = ParseByteSize(limit);
    if (!bytes) {
      std::fprintf(
          stderr,
          "parallax: error: PARALLAX_MEMORY_LIMIT='%s' is not a size\n  hint: e.g. 8G or 512M\n",
          limit);
      return false;
    }
    opts.memory_limit = *bytes;
  }
  return true;
}

namespace {

// The value of environment variable `name` in lower case; empty when it is not set.
std::string LowerEnv(const char* name) {
  const char* v = std::getenv(name);
  std::string m = v != nullptr ? v : "";
  for (auto& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return m;
}

}  // namespace

void ApplyCacheEnvironment(LoadOptions& opts) {
  // The policy (docs/formats.md, "Trace cache"): caches of traces worth one (PARALLAX_CACHE_MIN
  // of text, default 64 MB: about a second of parsing) in the user's cache folder, kept within
  // PARALLAX_CACHE_MAX (default 16 GB), least recently used removed first. PARALLAX_CACHE=on
  // caches every trace, off none; PARALLAX_CACHE_DIR=DIR keeps them in DIR, =beside next to
  // their traces.
  opts.use_cache = true;
  opts.cache_min_bytes = 64ull << 20;
  opts.cache_max_bytes = 16ull << 30;
  if (const std::string m = LowerEnv("PARALLAX_CACHE"); m == "off" || m == "0" || m == "no" || m == "false")
    opts.use_cache = false;
  else if (m == "on" || m == "1" || m == "yes" || m == "true")
    opts.cache_min_bytes = 0;
  auto size = [](const char* name, uint64_t* out) {
    const char* v = std::getenv(name);
    if (v == nullptr || v[0] == '\0') return;
    if (auto bytes = ParseByteSize(v)) *out = *bytes;
    else std::fprintf(stderr, "parallax: warning: %s='%s' is not a size (e.g. 64M, 16G); ignored\n", name, v);
  };
  size("PARALLAX_CACHE_MIN", &opts.cache_min_bytes);
  size("PARALLAX_CACHE_MAX", &opts.cache_max_bytes);
  if (const char* dir = std::getenv("PARALLAX_CACHE_DIR"); dir != nullptr && dir[0] != '\0')
    opts.cache_dir = std::string(dir) == "beside" ? std::string(kCacheBeside) : std::string(dir);
  if (const std::string m = LowerEnv("PARALLAX_COMPACT"); !m.empty())
    opts.compact = m == "on" || m == "1" || m == "yes" || m == "true";
  if (const char* resident = std::getenv("PARALLAX_COMPACT_RESIDENT"); resident != nullptr && resident[0] != '\0')
    opts.compact_resident = std::strtoll(resident, nullptr, 10);
}

std::unique_ptr<Trace> LoadTraceOrReport(const std::string& path, bool strict, unsigned threads,
                                         const Distribution* dist, bool states_only) {
  auto leave = [dist]() -> std::unique_ptr<Trace> {  // the other processes must not wait for this one
    if (dist != nullptr) LeaveDistributedOpen(*dist);
    return nullptr;
  };
  LoadOptions opts;
  opts.distribution = dist;
  if (!LoadFunctionsOrReport(&opts.functions)) return leave();
  opts.strict = strict;
  opts.threads = threads;
  opts.states_only = states_only;
  ApplyCacheEnvironment(opts);
  if (!ApplyMemoryLimitEnvironment(opts)) return leave();
  ProgressBar bar("loading");
  opts.progress = [&](uint64_t d, uint64_t t) { bar.Update(d, t); };
  auto trace = Trace::Open(path, opts);
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.status().ToString().c_str());
    return nullptr;
  }
  // What the load could not take from the file is said on every command (--strict refuses it).
  if (dist == nullptr || dist->rank == 0)
    for (const std::string& w : LoadWarnings(trace.value()->Summary()))
      std::fprintf(stderr, "parallax: warning: %s\n", w.c_str());
  return std::move(trace.value());
}

bool AllOk(const Distribution* dist, bool ok) {
  if (dist == nullptr) return ok;
  for (const std::string& s : dist->allgather(ok ? "1" : "0"))
    if (s != "1") return false;
  return ok;
}

}  // namespace parallax::cli
