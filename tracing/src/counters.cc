#include "tracing/src/counters.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <cstring>
#include <utility>

#ifdef PXT_HAVE_PAPI
#include <papi.h>
#endif

namespace parallax::tracing {
namespace {

constexpr uint32_t kPresetBase = 42000000;  // + (PAPI preset code & 0xffff)
constexpr uint32_t kNativeBase = 42001000;  // + the counter's position

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(',', b);
    if (e == std::string::npos) e = s.size();
    std::string item = s.substr(b, e - b);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) out.push_back(item);
    b = e + 1;
  }
  return out;
}

int64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Test counters, from the thread's cpu time d (ns) since the previous reading: PAPI_TOT_INS
// counts 2 d and PAPI_TOT_CYC d, so every burst has an IPC of exactly 2 and the frequency is the
// fraction of time the thread ran (GHz); any other counter, at position i (from 0) of its set,
// counts (i + 1) per 100 ns, (i + 1) * (d / 100), so that each set has its own values. A switch
// of set starts the new set's counts at the switch.
class SyntheticCounters : public ThreadCounters {
 public:
  explicit SyntheticCounters(const Counters* all) : all_(all), last_(ThreadCpuNs()) {}
  bool Read(int64_t* deltas) override {
    int64_t now = ThreadCpuNs();
    int64_t d = now - last_;
    last_ = now;
    const std::vector<CounterDef>& defs = all_->set(set);
    for (size_t i = 0; i < defs.size(); ++i)
      deltas[i] = defs[i].name == "PAPI_TOT_INS"   ? 2 * d
                  : defs[i].name == "PAPI_TOT_CYC" ? d
                                                   : static_cast<int64_t>(i + 1) * (d / 100);
    return true;
  }
  bool Switch(size_t next) override {
    set = next;
    last_ = ThreadCpuNs();
    return true;
  }

 private:
  const Counters* all_;
  int64_t last_;
};

// The Paraver types of the PAPI presets the synthetic counters know without PAPI (the low 16
// bits of their codes, papiStdEventDefs.h); other names are numbered as native events.
int PresetIndex(const std::string& name) {
  static const std::pair<const char*, int> kPresets[] = {
      {"PAPI_L1_DCM", 0x00}, {"PAPI_L1_ICM", 0x01}, {"PAPI_L2_DCM", 0x02}, {"PAPI_L2_ICM", 0x03},
      {"PAPI_L3_DCM", 0x04}, {"PAPI_L3_ICM", 0x05}, {"PAPI_L1_TCM", 0x06}, {"PAPI_L2_TCM", 0x07},
      {"PAPI_L3_TCM", 0x08}, {"PAPI_BR_MSP", 0x2e}, {"PAPI_TOT_INS", 0x32}, {"PAPI_FP_INS", 0x34},
      {"PAPI_LD_INS", 0x35}, {"PAPI_SR_INS", 0x36}, {"PAPI_BR_INS", 0x37}, {"PAPI_TOT_CYC", 0x3b}};
  for (const auto& [n, index] : kPresets)
    if (name == n) return index;
  return -1;
}

// PXT_COUNTER_SETS: ';' between sets, ',' between the counters of a set.
std::vector<std::vector<std::string>> SplitSets(const std::string& s) {
  std::vector<std::vector<std::string>> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(';', b);
    if (e == std::string::npos) e = s.size();
    std::vector<std::string> names = SplitList(s.substr(b, e - b));
    if (!names.empty()) out.push_back(std::move(names));
    b = e + 1;
  }
  return out;
}

#ifdef PXT_HAVE_PAPI
unsigned long ThreadId() { return static_cast<unsigned long>(pthread_self()); }

class PapiCounters : public ThreadCounters {
 public:
  // `sets`: one started PAPI event set per counter set, the first one running.
  PapiCounters(std::vector<int> sets, const Counters* all) : sets_(std::move(sets)), all_(all) {}
  ~PapiCounters() override {
    long long ignored[16];
    PAPI_stop(sets_[set], ignored);
    for (int& s : sets_) {
      PAPI_cleanup_eventset(s);
      PAPI_destroy_eventset(&s);
    }
  }
  bool Read(int64_t* deltas) override {
    const size_t n = all_->set(set).size();
    long long now[16];
    if (PAPI_read(sets_[set], now) != PAPI_OK) return false;
    for (size_t i = 0; i < n; ++i) {
      deltas[i] = static_cast<int64_t>(now[i] - last_[i]);
      last_[i] = now[i];
    }
    return true;
  }
  bool Switch(size_t next) override {
    long long ignored[16];
    if (PAPI_stop(sets_[set], ignored) != PAPI_OK) return false;
    if (PAPI_start(sets_[next]) != PAPI_OK) {  // counts from 0 once started
      PAPI_start(sets_[set]);
      return false;
    }
    set = next;
    for (long long& v : last_) v = 0;
    return true;
  }

 private:
  std::vector<int> sets_;
  const Counters* all_;
  long long last_[16] = {};
};
#endif

}  // namespace

Counters Counters::Init(const std::string& spec, std::string* notice, const std::string& sets) {
  Counters c;
  if (spec == "none" || spec == "0") return c;
  std::vector<std::vector<std::string>> names;
  if (!sets.empty())
    names = SplitSets(sets);
  else if (spec == "synthetic" || spec.empty())
    names = {{"PAPI_TOT_INS", "PAPI_TOT_CYC"}};
  else
    names = {SplitList(spec)};
  for (const auto& set : names)
    if (set.size() > 16) {
      *notice = "a counter set names more than 16 counters; hardware counters are not recorded";
      return c;
    }
  if (names.empty()) {
    *notice = "PXT_COUNTER_SETS names no counter; hardware counters are not recorded";
    return c;
  }
  // Every distinct name gets one type, the same in every set.
  std::vector<std::string> distinct;
  for (const auto& set : names)
    for (const auto& n : set)
      if (std::find(distinct.begin(), distinct.end(), n) == distinct.end()) distinct.push_back(n);
  std::vector<CounterDef> defs;
  if (spec == "synthetic") {
    c.synthetic_ = true;
    for (size_t i = 0; i < distinct.size(); ++i) {
      const int preset = PresetIndex(distinct[i]);
      defs.push_back({distinct[i],
                      preset >= 0 ? kPresetBase + static_cast<uint32_t>(preset) : kNativeBase + static_cast<uint32_t>(i),
                      0});
    }
  } else {
#ifdef PXT_HAVE_PAPI
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
      *notice = std::string("PAPI cannot start (") + (v > 0 ? "version mismatch" : PAPI_strerror(v)) +
                "); hardware counters are not recorded";
      return c;
    }
    if (PAPI_thread_init(ThreadId) != PAPI_OK) {
      *notice = "PAPI cannot trace threads; hardware counters are not recorded";
      return c;
    }
    for (size_t i = 0; i < distinct.size(); ++i) {
      int code = 0;
      int rc = PAPI_event_name_to_code(distinct[i].c_str(), &code);
      if (rc == PAPI_OK) rc = PAPI_query_event(code);
      if (rc != PAPI_OK) {
        *notice = "hardware counter " + distinct[i] + " is not available on this machine (PAPI: " +
                  PAPI_strerror(rc) + "); hardware counters are not recorded";
        return c;
      }
      uint32_t type = (static_cast<unsigned>(code) & PAPI_PRESET_MASK)
                          ? kPresetBase + (static_cast<unsigned>(code) & 0xffffu)
                          : kNativeBase + static_cast<uint32_t>(i);
      defs.push_back({distinct[i], type, code});
    }
#else
    *notice = "this build of the tracing library has no PAPI; hardware counters are not recorded";
    return c;
#endif
  }
  for (const auto& set : names) {
    std::vector<CounterDef> s;
    for (const auto& n : set)
      s.push_back(*std::find_if(defs.begin(), defs.end(), [&](const CounterDef& d) { return d.name == n; }));
    c.sets_.push_back(std::move(s));
  }
  c.defs_ = std::move(defs);
  return c;
}

std::unique_ptr<ThreadCounters> Counters::StartThread(std::string* notice) const {
  if (defs_.empty()) return nullptr;
  if (synthetic_) return std::make_unique<SyntheticCounters>(this);
#ifdef PXT_HAVE_PAPI
  std::vector<int> sets;
  int rc = PAPI_OK;
  for (size_t k = 0; rc == PAPI_OK && k < sets_.size(); ++k) {
    int set = PAPI_NULL;
    rc = PAPI_create_eventset(&set);
    for (size_t i = 0; rc == PAPI_OK && i < sets_[k].size(); ++i) rc = PAPI_add_event(set, sets_[k][i].code);
    if (rc == PAPI_OK) sets.push_back(set);
  }
  if (rc == PAPI_OK) rc = PAPI_start(sets[0]);
  if (rc != PAPI_OK) {
    for (int& set : sets) {
      PAPI_cleanup_eventset(set);
      PAPI_destroy_eventset(&set);
    }
    if (notice->empty())
      *notice = std::string("hardware counters cannot be started on a thread (PAPI: ") +
                PAPI_strerror(rc) + "); its counters are not recorded";
    return nullptr;
  }
  auto t = std::make_unique<PapiCounters>(std::move(sets), this);
  int64_t baseline[16];
  t->Read(baseline);
  return t;
#else
  (void)notice;
  return nullptr;
#endif
}

std::string CounterSetLabel(const Counters& counters, size_t k) {
  std::string s = "Set " + std::to_string(k + 1) + " (";
  for (size_t i = 0; i < counters.set(k).size(); ++i) s += (i ? "," : "") + counters.set(k)[i].name;
  return s + ")";
}

std::string CounterLabel(const CounterDef& def) {
  if (def.name == "PAPI_TOT_INS") return "PAPI_TOT_INS [Instr completed]";
  if (def.name == "PAPI_TOT_CYC") return "PAPI_TOT_CYC [Total cycles]";
  if (def.name == "PAPI_L1_DCM") return "PAPI_L1_DCM [L1D cache misses]";
  if (def.name == "PAPI_L2_DCM") return "PAPI_L2_DCM [L2D cache misses]";
#ifdef PXT_HAVE_PAPI
  PAPI_event_info_t info;
  if (def.code != 0 && PAPI_get_event_info(def.code, &info) == PAPI_OK && info.short_descr[0])
    return def.name + " [" + info.short_descr + "]";
#endif
  return def.name;
}

}  // namespace parallax::tracing
