#include "tracing/src/counters.h"

#include <pthread.h>
#include <time.h>

#include <cstring>

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

// Test counters: instructions = 2 per ns of the thread's cpu time, cycles = 1 per ns, so every
// burst has an IPC of exactly 2 and the frequency is the fraction of time the thread ran (GHz).
class SyntheticCounters : public ThreadCounters {
 public:
  SyntheticCounters() : last_(ThreadCpuNs()) {}
  bool Read(int64_t* deltas) override {
    int64_t now = ThreadCpuNs();
    int64_t d = now - last_;
    last_ = now;
    deltas[0] = 2 * d;
    deltas[1] = d;
    return true;
  }

 private:
  int64_t last_;
};

#ifdef PXT_HAVE_PAPI
unsigned long ThreadId() { return static_cast<unsigned long>(pthread_self()); }

class PapiCounters : public ThreadCounters {
 public:
  PapiCounters(int set, size_t n) : set_(set), last_(n, 0), now_(n, 0) {}
  ~PapiCounters() override {
    long long ignored[16];
    PAPI_stop(set_, ignored);
  }
  bool Read(int64_t* deltas) override {
    if (PAPI_read(set_, now_.data()) != PAPI_OK) return false;
    for (size_t i = 0; i < now_.size(); ++i) {
      deltas[i] = static_cast<int64_t>(now_[i] - last_[i]);
      last_[i] = now_[i];
    }
    return true;
  }

 private:
  int set_;
  std::vector<long long> last_, now_;
};
#endif

}  // namespace

Counters Counters::Init(const std::string& spec, std::string* notice) {
  Counters c;
  if (spec == "none" || spec == "0") return c;
  if (spec == "synthetic") {
    c.synthetic_ = true;
    c.defs_ = {{"PAPI_TOT_INS", kPresetBase + 0x32, 0}, {"PAPI_TOT_CYC", kPresetBase + 0x3b, 0}};
    return c;
  }
  std::vector<std::string> names = SplitList(spec.empty() ? "PAPI_TOT_INS,PAPI_TOT_CYC" : spec);
  if (names.size() > 16) {
    *notice = "PXT_COUNTERS names more than 16 counters; hardware counters are not recorded";
    return c;
  }
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
  std::vector<CounterDef> defs;
  for (size_t i = 0; i < names.size(); ++i) {
    int code = 0;
    int rc = PAPI_event_name_to_code(names[i].c_str(), &code);
    if (rc == PAPI_OK) rc = PAPI_query_event(code);
    if (rc != PAPI_OK) {
      *notice = "hardware counter " + names[i] + " is not available on this machine (PAPI: " +
                PAPI_strerror(rc) + "); hardware counters are not recorded";
      return c;
    }
    uint32_t type = (static_cast<unsigned>(code) & PAPI_PRESET_MASK)
                        ? kPresetBase + (static_cast<unsigned>(code) & 0xffffu)
                        : kNativeBase + static_cast<uint32_t>(i);
    defs.push_back({names[i], type, code});
  }
  c.defs_ = std::move(defs);
#else
  *notice = "this build of the tracing library has no PAPI; hardware counters are not recorded";
#endif
  return c;
}

std::unique_ptr<ThreadCounters> Counters::StartThread(std::string* notice) const {
  if (defs_.empty()) return nullptr;
  if (synthetic_) return std::make_unique<SyntheticCounters>();
#ifdef PXT_HAVE_PAPI
  int set = PAPI_NULL;
  int rc = PAPI_create_eventset(&set);
  for (size_t i = 0; rc == PAPI_OK && i < defs_.size(); ++i) rc = PAPI_add_event(set, defs_[i].code);
  if (rc == PAPI_OK) rc = PAPI_start(set);
  if (rc != PAPI_OK) {
    if (notice->empty())
      *notice = std::string("hardware counters cannot be started on a thread (PAPI: ") +
                PAPI_strerror(rc) + "); its counters are not recorded";
    return nullptr;
  }
  auto t = std::make_unique<PapiCounters>(set, defs_.size());
  int64_t baseline[16];
  t->Read(baseline);
  return t;
#else
  (void)notice;
  return nullptr;
#endif
}

std::string CounterLabel(const CounterDef& def) {
  if (def.name == "PAPI_TOT_INS") return "PAPI_TOT_INS [Instr completed]";
  if (def.name == "PAPI_TOT_CYC") return "PAPI_TOT_CYC [Total cycles]";
#ifdef PXT_HAVE_PAPI
  PAPI_event_info_t info;
  if (def.code != 0 && PAPI_get_event_info(def.code, &info) == PAPI_OK && info.short_descr[0])
    return def.name + " [" + info.short_descr + "]";
#endif
  return def.name;
}

}  // namespace parallax::tracing
