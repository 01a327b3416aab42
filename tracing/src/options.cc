#include "tracing/src/options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <map>
#include <string_view>

#include "tracing/src/input_file.h"

namespace parallax::tracing {

namespace {

// Settings of the configuration file (PXT_CONFIG), by environment variable name.
struct Settings {
  std::map<std::string, std::string> values;
};

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// A variable from the environment, else from the configuration file.
// Extrae's environment variables and the PXT_ ones they stand for (tracing/README.md).
constexpr std::pair<const char*, const char*> kExtraeNames[] = {{"PXT_ENABLED", "EXTRAE_ON"},
                                                                {"PXT_OUTPUT_DIR", "EXTRAE_FINAL_DIR"},
                                                                {"PXT_OUTPUT_NAME", "EXTRAE_PROGRAM_NAME"},
                                                                {"PXT_COUNTERS", "EXTRAE_COUNTERS"}};

class Lookup {
 public:
  explicit Lookup(const Settings& s) : s_(s) {}
  const char* operator()(const char* name) const {
    if (const char* v = Env(name)) return v;
    auto it = s_.values.find(name);
    if (it != s_.values.end() && !it->second.empty()) return it->second.c_str();
    // Extrae's variables for the same settings, so that job scripts written for Extrae work.
    for (const auto& [ours, extrae] : kExtraeNames)
      if (std::strcmp(name, ours) == 0) return Env(extrae);
    return nullptr;
  }
  bool Bool(const char* name, bool fallback) const {
    const char* v = (*this)(name);
    if (!v) return fallback;
    return !(std::strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
             strcasecmp(v, "false") == 0 || strcasecmp(v, "off") == 0);
  }

 private:
  const Settings& s_;
};

// The file's keys: the variables of tracing/README.md without "PXT_", in lower case.
constexpr const char* kConfigKeys[] = {
    "enabled", "output_dir", "output_name", "buffer_size", "event_types", "merge",
    "show_runtime_threads", "verbose", "sync_rounds", "clock_offset_ns", "clock_drift_ppm",
    "counters", "callers", "max_size", "bursts", "counter_sets", "counter_switch", "functions"};

// Reads a configuration file: `key = value` lines (a TOML subset: "strings" with \\ \" \n
// \t escapes, integers, decimals, true/false), comments after '#', blank lines. Returns "" or
// "FILE:LINE:COL: what was wrong".
std::string ParseConfig(const std::string& path, Settings* out) {
  std::string why;
  FILE* f = OpenInputFile(path, &why);
  if (!f) return path + ": cannot read the configuration file: " + why;
  std::string error;
  char buf[4096];
  for (int line_no = 1; error.empty() && std::fgets(buf, sizeof buf, f); ++line_no) {
    std::string_view line(buf);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    auto at = [&](size_t col, const std::string& what) {
      return path + ":" + std::to_string(line_no) + ":" + std::to_string(col + 1) + ": " + what;
    };
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string_view::npos || line[p] == '#') continue;
    if (line[p] == '[') {
      error = at(p, "tables ([section]) are not used: write `key = value` lines");
      break;
    }
    size_t eq = line.find('=', p);
    if (eq == std::string_view::npos) {
      error = at(p, "expected `key = value`");
      break;
    }
    std::string key(line.substr(p, eq - p));
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    bool known = false;
    for (const char* k : kConfigKeys) known = known || key == k;
    if (!known) {
      std::string list;
      for (const char* k : kConfigKeys) list += std::string(list.empty() ? "" : ", ") + k;
      error = at(p, "unknown key '" + key + "' (known: " + list + ")");
      break;
    }
    size_t v = line.find_first_not_of(" \t", eq + 1);
    if (v == std::string_view::npos) {
      error = at(eq + 1, "missing value after '='");
      break;
    }
    std::string value;
    size_t end;
    if (line[v] == '"') {
      end = v + 1;
      bool closed = false;
      while (end < line.size()) {
        char c = line[end++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && end < line.size()) {
          char e = line[end++];
          value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          value += c;
        }
      }
      if (!closed) {
        error = at(v, "unterminated string");
        break;
      }
    } else {
      end = line.find_first_of(" \t#", v);
      if (end == std::string_view::npos) end = line.size();
      value = std::string(line.substr(v, end - v));
      char* num_end = nullptr;
      std::strtod(value.c_str(), &num_end);
      if (value != "true" && value != "false" && (num_end == value.c_str() || *num_end != '\0')) {
        error = at(v, "expected a \"string\", a number, true or false, not '" + value + "'");
        break;
      }
      if (value == "true") value = "1";
      if (value == "false") value = "0";
    }
    size_t rest = line.find_first_not_of(" \t", end);
    if (rest != std::string_view::npos && line[rest] != '#') {
      error = at(rest, "unexpected text after the value");
      break;
    }
    std::string name = "PXT_";
    for (char c : key) name += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    out->values[name] = value;
  }
  std::fclose(f);
  return error;
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

// "10us", "1.5ms", "2s", "500ns", "20000" (ns): a duration in ns; 0 when it cannot be read.
uint64_t ParseDuration(const char* v) {
  char* end = nullptr;
  double n = std::strtod(v, &end);
  if (end == v || n < 0) return 0;
  std::string_view unit(end);
  double scale = unit.empty() || unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : -1;
  if (scale < 0) return 0;
  return static_cast<uint64_t>(n * scale);
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
  Settings settings;
  if (const char* path = std::getenv("PXT_CONFIG"); path && *path) {
    o.config_error = ParseConfig(path, &settings);
    if (!o.config_error.empty()) {
      o.enabled = false;
      return o;
    }
  }
  const Lookup env(settings);
  o.enabled = env.Bool("PXT_ENABLED", true);
  if (const char* v = env("PXT_OUTPUT_DIR")) o.output_dir = v;
  o.program = ProgramName();
  o.output_name = env("PXT_OUTPUT_NAME") ? env("PXT_OUTPUT_NAME") : o.program;
  if (const char* v = env("PXT_BUFFER_SIZE")) o.buffer_bytes = ParseBytes(v, o.buffer_bytes);
  if (o.buffer_bytes < 4096) o.buffer_bytes = 4096;
  if (const char* v = env("PXT_EVENT_TYPES")) o.event_types = ParseTypes(v);
  o.merge = env.Bool("PXT_MERGE", true);
  // Extrae's settings without an equivalent here: said, not silently ignored.
  for (const char* name : {"EXTRAE_CONFIG_FILE", "EXTRAE_BUFFER_SIZE", "EXTRAE_SAMPLING_PERIOD", "EXTRAE_DISABLE_MPI"})
    if (Env(name) != nullptr)
      o.extrae_notice += std::string(o.extrae_notice.empty() ? "" : "; ") + name;
  if (!o.extrae_notice.empty())
    o.extrae_notice += " set: Extrae's XML configuration and these settings are not read by the Parallax tracing "
                       "library; EXTRAE_ON, EXTRAE_FINAL_DIR, EXTRAE_PROGRAM_NAME and EXTRAE_COUNTERS are, and the "
                       "PXT_ variables set the rest (tracing/README.md)";
  o.crash_handlers = env.Bool("PXT_CRASH_HANDLERS", true);
  o.verbose = env.Bool("PXT_VERBOSE", true);
  o.show_runtime_threads = env.Bool("PXT_SHOW_RUNTIME_THREADS", false);
  if (const char* v = env("PXT_COUNTERS")) o.counters = v;
  if (const char* v = env("PXT_CALLERS")) {
    // A level count; yes/true/on mean 1 (as before), no/false/off 0.
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0')
      o.callers = static_cast<int>(std::clamp<long>(n, 0, Options::kMaxCallers));
    else
      o.callers = env.Bool("PXT_CALLERS", true) ? 1 : 0;
  }
  if (const char* v = env("PXT_COUNTER_SETS")) o.counter_sets = v;
  if (const char* v = env("PXT_COUNTER_SWITCH")) {
    // A bare count is bursts; with a time unit (ns, us, ms, s) it is a period.
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (end != v && *end == '\0')
      o.counter_switch_bursts = n;
    else
      o.counter_switch_ns = ParseDuration(v);
  }
  if (const char* v = env("PXT_FUNCTIONS")) o.functions = v;
  if (const char* v = env("PXT_MAX_SIZE")) o.max_size = ParseBytes(v, 0);
  if (const char* v = env("PXT_BURSTS")) o.burst_ns = ParseDuration(v);
  if (const char* v = env("PXT_SYNC_ROUNDS")) o.sync_rounds = std::atoi(v);
  if (const char* v = env("PXT_CLOCK_OFFSET_NS"))
    o.clock_offset_ns = std::strtoll(ListElement(v, rank).c_str(), nullptr, 10);
  if (const char* v = env("PXT_CLOCK_DRIFT_PPM"))
    o.clock_drift_ppm = std::strtod(ListElement(v, rank).c_str(), nullptr);
  return o;
}

}  // namespace parallax::tracing
