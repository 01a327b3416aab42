// Extrae's user API over the runtime (include/extrae/extrae_user_events.h, tracing/README.md
// "Extrae's API"): programs written for Extrae build and run unchanged against
// libparallax-trace, their calls recorded as Extrae records them.

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

#include "extrae/extrae_user_events.h"
#include "parallax/trace.h"
#include "tracing/src/runtime.h"

using parallax::tracing::CurrentBuffer;
using parallax::tracing::Now;
using parallax::tracing::Runtime;
using parallax::tracing::ThreadBuffer;

namespace {

constexpr uint32_t kUserFunctionType = 60000019;  // Extrae's "User function" (+100: its line)

// `t`: the time of a group of events (0: now), so that Extrae_nevent's share one line.
void Event(extrae_type_t type, extrae_value_t value, bool counters, uint64_t t = 0) {
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  const Runtime& rt = Runtime::Get();
  if (!rt.options().event_types.empty() && !rt.options().TypeEnabled(type)) return;
  if (t == 0) t = Now();
  if (counters) parallax::tracing::RecordCountersNow(b, t);
  // Extrae's values are unsigned 64-bit: the same bits as Paraver's (values above INT64_MAX
  // read back as Paraver writes them).
  parallax::tracing::RecordEvent(b, t, type, static_cast<int64_t>(value));
}

// Says once per process and kind (each caller has its own `said`) what an Extrae call does
// not record here.
void NotRecorded(std::atomic<bool>& said, const char* what) {
  if (!said.exchange(true) && Runtime::Get().options().verbose)
    std::fprintf(stderr, "parallax-trace: %s is accepted but not recorded (see tracing/README.md, Extrae's API)\n",
                 what);
}

}  // namespace

extern "C" {

void Extrae_init(void) { pxt_start(); }

extrae_init_type_t Extrae_is_initialized(void) {
  return Runtime::Get().pending() ? (Runtime::Get().identity().rank >= 0 ? EXTRAE_INITIALIZED_MPI_INIT
                                                                          : EXTRAE_INITIALIZED_EXTRAE_INIT)
                                  : EXTRAE_NOT_INITIALIZED;
}

void Extrae_fini(void) { pxt_stop(); }

void Extrae_flush(void) {
  if (ThreadBuffer* b = CurrentBuffer()) b->Flush(true);
}

unsigned long long Extrae_user_function(unsigned enter) {
  auto address = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return address;
  static std::atomic<bool> named{false};
  if (!named.exchange(true)) {
    Runtime::Get().NameType(kUserFunctionType, "User function");
    Runtime::Get().NameType(kUserFunctionType + 100, "User function line");
  }
  const uint64_t t = Now();
  if (enter) {
    parallax::tracing::RecordCodeEvent(b, t, kUserFunctionType, address);
  } else {
    parallax::tracing::RecordEvent(b, t, kUserFunctionType, 0);
    parallax::tracing::RecordEvent(b, t, kUserFunctionType + 100, 0);
  }
  return address;
}

void Extrae_event(extrae_type_t type, extrae_value_t value) { Event(type, value, false); }

void Extrae_nevent(unsigned count, extrae_type_t* types, extrae_value_t* values) {
  const uint64_t t = Now();
  for (unsigned i = 0; i < count; ++i) Event(types[i], values[i], false, t);
}

void Extrae_eventandcounters(extrae_type_t type, extrae_value_t value) { Event(type, value, true); }

void Extrae_neventandcounters(unsigned count, extrae_type_t* types, extrae_value_t* values) {
  const uint64_t t = Now();
  for (unsigned i = 0; i < count; ++i) Event(types[i], values[i], i == 0, t);
}

void Extrae_define_event_type(extrae_type_t* type, char* type_description, unsigned* nvalues,
                              extrae_value_t* values, char** values_description) {
  if (type == nullptr) return;
  Runtime& rt = Runtime::Get();
  rt.NameType(*type, type_description ? type_description : "");
  for (unsigned i = 0; nvalues != nullptr && values != nullptr && i < *nvalues; ++i)
    rt.NameValue(*type, static_cast<int64_t>(values[i]),
                 values_description && values_description[i] ? values_description[i] : "");
}

void Extrae_shutdown(void) { Runtime::Get().Pause(); }

void Extrae_restart(void) { Runtime::Get().Resume(); }

void Extrae_counters(void) {
  if (ThreadBuffer* b = CurrentBuffer()) parallax::tracing::RecordCountersNow(b, Now());
}

void Extrae_previous_hwc_set(void) {
  static std::atomic<bool> said;
  NotRecorded(said, "Extrae_previous_hwc_set (one counter set)");
}

void Extrae_next_hwc_set(void) {
  static std::atomic<bool> said;
  NotRecorded(said, "Extrae_next_hwc_set (one counter set)");
}

void Extrae_set_tracing_tasks(unsigned, unsigned) {
  static std::atomic<bool> said;
  NotRecorded(said, "Extrae_set_tracing_tasks (every task is traced)");
}

void Extrae_set_options(int) {
  static std::atomic<bool> said;
  NotRecorded(said, "Extrae_set_options (PXT_ variables set what is recorded)");
}

void Extrae_init_UserCommunication(struct extrae_UserCommunication* c) {
  if (c != nullptr) *c = extrae_UserCommunication{EXTRAE_USER_SEND, 0, 0, 0, 0};
}

void Extrae_init_CombinedEvents(struct extrae_CombinedEvents* e) {
  if (e != nullptr) *e = extrae_CombinedEvents{0, 0, 0, 0, nullptr, nullptr, 0, nullptr};
}

void Extrae_emit_CombinedEvents(struct extrae_CombinedEvents* e) {
  if (e == nullptr) return;
  if (e->UserFunction != EXTRAE_USER_FUNCTION_NONE && e->UserFunction != 0) {
    static std::atomic<bool> said;
    NotRecorded(said, "a combined user function");
  }
  const uint64_t t = Now();
  for (unsigned i = 0; i < e->nEvents && e->Types && e->Values; ++i)
    Event(e->Types[i], e->Values[i], e->HardwareCounters && i == 0, t);
  if (e->nCommunications) {
    static std::atomic<bool> said;
    NotRecorded(said, "Extrae's user communications");
  }
}

void Extrae_get_version(unsigned* major, unsigned* minor, unsigned* revision) {
  // The Extrae API level these calls follow.
  if (major) *major = 4;
  if (minor) *minor = 0;
  if (revision) *revision = 0;
}

// Fortran (gfortran's names): the same calls, arguments by reference.
void extrae_init_(void) { Extrae_init(); }
void extrae_fini_(void) { Extrae_fini(); }
void extrae_flush_(void) { Extrae_flush(); }
void extrae_event_(unsigned* type, unsigned long long* value) { Event(*type, *value, false); }
void extrae_eventandcounters_(unsigned* type, unsigned long long* value) { Event(*type, *value, true); }
void extrae_nevent_(unsigned* count, unsigned* types, unsigned long long* values) {
  Extrae_nevent(*count, types, values);
}
void extrae_user_function_(unsigned* enter) { Extrae_user_function(*enter); }
void extrae_shutdown_(void) { Extrae_shutdown(); }
void extrae_restart_(void) { Extrae_restart(); }
void extrae_counters_(void) { Extrae_counters(); }

}  // extern "C"
