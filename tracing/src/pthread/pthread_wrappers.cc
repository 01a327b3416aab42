// libparallax-pthread.so: traces a pthreads program without recompiling it
// (LD_PRELOAD=libparallax-pthread.so ./program). Starts tracing when loaded, registers every
// created thread, and records pthread_create / pthread_join (state and event) and the waits of
// contended mutexes. An uncontended lock is not recorded: the wrapper first tries the lock,
// so the common case costs one extra trylock and leaves no record.

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>

#include <cstring>

#include "parallax/trace.h"
#include "tracing/src/mpi_calls.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
using JoinFn = int (*)(pthread_t, void**);
using LockFn = int (*)(pthread_mutex_t*);

// Plain pointers filled by the constructor (no function-local statics: their guards may lock).
CreateFn g_real_create = nullptr;
JoinFn g_real_join = nullptr;
LockFn g_real_lock = nullptr;

template <typename Fn>
Fn Resolve(Fn* slot, const char* name) {
  if (!*slot) *slot = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  return *slot;
}

struct StartArgs {
  void* (*fn)(void*);
  void* arg;
};

void* Trampoline(void* p) {
  StartArgs a = *static_cast<StartArgs*>(p);
  delete static_cast<StartArgs*>(p);
  CurrentBuffer();  // registers the thread before it runs user code
  return a.fn(a.arg);
}

// Threads created by the MPI runtime itself (Open MPI's progress and PMIx/libevent threads)
// run for the whole program without doing its work: hidden, they do not appear as threads that
// are Running from start to end. They are recognised by the library that calls pthread_create:
// the first caller outside this library and the sanitizer runtimes (whose interceptors come
// first in sanitizer builds).
bool StartsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

bool CreatedByMpiRuntime() {
  void* frames[8];
  int n = backtrace(frames, 8);
  for (int i = 1; i < n; ++i) {
    Dl_info info;
    if (!dladdr(frames[i], &info) || !info.dli_fname) return false;
    const char* base = std::strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    if (StartsWith(base, "libparallax-") || StartsWith(base, "libasan") ||
        StartsWith(base, "libubsan") || StartsWith(base, "libtsan"))
      continue;
    for (const char* prefix :
         {"libmpi", "libopen-pal", "libopen-rte", "libpmix", "libevent", "libhwloc", "libucs",
          "libucp", "libuct", "libfabric", "libpsm", "mca_", "libmca_", "libprrte", "libmpich"})
      if (StartsWith(base, prefix)) return true;
    return false;
  }
  return false;
}

// A hidden thread runs as if it were the tracing library itself: no wrapper records it.
void* HiddenTrampoline(void* p) {
  StartArgs a = *static_cast<StartArgs*>(p);
  delete static_cast<StartArgs*>(p);
  t_in_tracer = true;
  return a.fn(a.arg);
}

// Records `call` (state + event) around `body` on the calling thread when tracing.
template <typename Body>
int Traced(uint32_t state, int call, Body body) {
  ThreadBuffer* b = t_in_tracer ? nullptr : CurrentBuffer();
  if (!b) return body();
  uint64_t t0 = Now();
  RecordStateEnter(b, t0, state);
  RecordEvent(b, t0, PXT_TYPE_PTHREAD, call);
  int rc = body();
  uint64_t t1 = Now();
  RecordEvent(b, t1, PXT_TYPE_PTHREAD, 0);
  RecordStateLeave(b, t1);
  return rc;
}

__attribute__((constructor)) void LoadPthreadTracing() {
  Resolve(&g_real_create, "pthread_create");
  Resolve(&g_real_join, "pthread_join");
  Resolve(&g_real_lock, "pthread_mutex_lock");
  pxt_start();
}

}  // namespace
}  // namespace parallax::tracing

using namespace parallax::tracing;

extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  CreateFn real = Resolve(&g_real_create, "pthread_create");
  if (!g_active.load(std::memory_order_relaxed) || t_in_tracer) return real(thread, attr, fn, arg);
  if (!Runtime::Get().options().show_runtime_threads && CreatedByMpiRuntime()) {
    auto* start = new StartArgs{fn, arg};
    int rc = real(thread, attr, HiddenTrampoline, start);
    if (rc != 0) delete start;
    return rc;
  }
  return Traced(PXT_STATE_FORK_JOIN, kPthreadCreate, [&] {
    auto* start = new StartArgs{fn, arg};
    int rc = real(thread, attr, Trampoline, start);
    if (rc != 0) delete start;
    return rc;
  });
}

int pthread_join(pthread_t thread, void** result) {
  JoinFn real = Resolve(&g_real_join, "pthread_join");
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadJoin, [&] { return real(thread, result); });
}

int pthread_mutex_lock(pthread_mutex_t* mutex) {
  LockFn real = Resolve(&g_real_lock, "pthread_mutex_lock");
  if (t_in_tracer || !g_active.load(std::memory_order_relaxed)) return real(mutex);
  int rc = pthread_mutex_trylock(mutex);
  if (rc != EBUSY) return rc;
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadMutexWait, [&] { return real(mutex); });
}

}  // extern "C"
