// The C API of include/parallax/trace.h over the runtime.

#include <atomic>

#include "parallax/trace.h"
#include "tracing/src/runtime.h"

using parallax::tracing::CurrentBuffer;
using parallax::tracing::Now;
using parallax::tracing::PutVarint;
using parallax::tracing::RecordKind;
using parallax::tracing::Runtime;
using parallax::tracing::ThreadBuffer;
using parallax::tracing::ZigZag;

namespace {

// The location's id, registering it on first use. Two threads may race to register the same
// call site; both get a valid id and the last store wins, which only costs one unused label.
int LocationId(pxt_location* where) {
  std::atomic_ref<int> id(where->id);
  int v = id.load(std::memory_order_relaxed);
  if (v == 0) [[unlikely]] {
    v = Runtime::Get().RegisterLocation(where->file, where->line);
    id.store(v, std::memory_order_relaxed);
  }
  return v;
}

inline void PutEvent(ThreadBuffer* b, uint64_t t, uint32_t type, int64_t value) {
  uint8_t* p = PutVarint(b->Open(RecordKind::kEvent, t), type);
  b->Commit(PutVarint(p, ZigZag(value)));
}

inline void PutLocation(ThreadBuffer* b, uint64_t t, int id) {
  b->Commit(PutVarint(b->Open(RecordKind::kLocation, t), static_cast<uint64_t>(id)));
}

}  // namespace

extern "C" {

int pxt_start(void) { return Runtime::Get().Start() ? 0 : -1; }

void pxt_stop(void) {
  Runtime& rt = Runtime::Get();
  if (!rt.pending()) return;  // never started, or finished (a paused run still finishes)
  std::string path = rt.FinishProcess();
  if (!path.empty() && rt.identity().rank < 0 && rt.options().merge)
    parallax::tracing::MergeOwnSession();
}

int pxt_is_active(void) { return Runtime::Get().active() ? 1 : 0; }

uint64_t pxt_now(void) { return Now(); }

void pxt_event(uint32_t type, int64_t value) {
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  if (!Runtime::Get().options().event_types.empty() && !Runtime::Get().options().TypeEnabled(type))
    return;
  b->Reserve();
  PutEvent(b, Now(), type, value);
}

void pxt_event_at(pxt_location* where, uint32_t type, int64_t value) {
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  if (!Runtime::Get().options().event_types.empty() && !Runtime::Get().options().TypeEnabled(type))
    return;
  int id = LocationId(where);
  b->Reserve();
  uint64_t t = Now();
  PutLocation(b, t, id);
  PutEvent(b, t, type, value);
}

void pxt_state_enter(uint32_t state) {
  if (ThreadBuffer* b = CurrentBuffer()) parallax::tracing::RecordStateEnter(b, Now(), state);
}

void pxt_state_enter_at(pxt_location* where, uint32_t state) {
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  int id = LocationId(where);
  b->Reserve();
  uint64_t t = Now();
  PutLocation(b, t, id);
  parallax::tracing::RecordStateEnter(b, t, state);
}

void pxt_state_leave(void) {
  if (ThreadBuffer* b = CurrentBuffer()) parallax::tracing::RecordStateLeave(b, Now());
}

void pxt_name_event_type(uint32_t type, const char* label) { Runtime::Get().NameType(type, label); }

void pxt_name_event_value(uint32_t type, int64_t value, const char* label) {
  Runtime::Get().NameValue(type, value, label);
}

void pxt_name_state(uint32_t state, const char* label) { Runtime::Get().NameState(state, label); }

}  // extern "C"
