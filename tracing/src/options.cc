#include "tracing/src/options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace parallax::tracing {

namespace {

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

bool EnvBool(const char* name, bool fallback) {
  const char* v = Env(name);
  if (!v) return fallback;
  return !(std::strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
           strcasecmp(v, "off") == 0);
}

// "8M", "512K", "65536": a byte count with an optional binary suffix.
size_t ParseBytes(const char* v, size_t fallback) {
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (end == v) return fallback;
  if (*end == 'k' || *end == 'K') n <<= 10;
  if (*end == 'm' || *end == 'M') n <<= 20;
  if (*end == 'g' || *end == 'G') n <<= 30;
  return static_cast<size_t>(n);
}

// The rank-th element of a comma-separated list, cycling when the list is shorter.
std::string ListElement(std::string_view list, int rank) {
  std::vector<std::string_view> items;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    items.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return std::string(items[static_cast<size_t>(rank < 0 ? 0 : rank) % items.size()]);
}

// "1000,2000-2999,50000001": single types and inclusive ranges.
std::vector<std::pair<uint32_t, uint32_t>> ParseTypes(const char* v) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const char* p = v;
  while (*p) {
    char* end = nullptr;
    unsigned long lo = std::strtoul(p, &end, 10);
    if (end == p) break;
    unsigned long hi = lo;
    if (*end == '-') hi = std::strtoul(end + 1, &end, 10);
    out.emplace_back(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
    p = *end == ',' ? end + 1 : end;
    if (*end != ',') break;
  }
  return out;
}

// program_invocation_short_name: glibc (<errno.h> with _GNU_SOURCE, which g++ defines).
std::string ProgramName() {
  return program_invocation_short_name && *program_invocation_short_name
             ? program_invocation_short_name
             : "trace";
}

}  // namespace

bool Options::TypeEnabled(uint32_t type) const {
  if (event_types.empty()) return true;
  for (const auto& [lo, hi] : event_types)
    if (type >= lo && type <= hi) return true;
  return false;
}

std::string Options::ProcessDir() const { return output_dir + "/" + output_name + ".pxt.d"; }
std::string Options::MergedTrace() const { return output_dir + "/" + output_name + ".prv"; }

int LauncherRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = Env(name)) return std::atoi(v);
  return -1;
}

Options ReadOptions(int rank) {
  Options o;
  o.enabled = EnvBool("PXT_ENABLED", true);
  if (const char* v = Env("PXT_OUTPUT_DIR")) o.output_dir = v;
  o.program = ProgramName();
  o.output_name = Env("PXT_OUTPUT_NAME") ? Env("PXT_OUTPUT_NAME") : o.program;
  if (const char* v = Env("PXT_BUFFER_SIZE")) o.buffer_bytes = ParseBytes(v, o.buffer_bytes);
  if (o.buffer_bytes < 4096) o.buffer_bytes = 4096;
  if (const char* v = Env("PXT_EVENT_TYPES")) o.event_types = ParseTypes(v);
  o.merge = EnvBool("PXT_MERGE", true);
  o.verbose = EnvBool("PXT_VERBOSE", true);
  o.show_runtime_threads = EnvBool("PXT_SHOW_RUNTIME_THREADS", false);
  if (const char* v = Env("PXT_COUNTERS")) o.counters = v;
  o.callers = EnvBool("PXT_CALLERS", true);
  if (const char* v = Env("PXT_SYNC_ROUNDS")) o.sync_rounds = std::atoi(v);
  if (const char* v = Env("PXT_CLOCK_OFFSET_NS"))
    o.clock_offset_ns = std::strtoll(ListElement(v, rank).c_str(), nullptr, 10);
  if (const char* v = Env("PXT_CLOCK_DRIFT_PPM"))
    o.clock_drift_ppm = std::strtod(ListElement(v, rank).c_str(), nullptr);
  return o;
}

}  // namespace parallax::tracing
