// libparallax-pthread.so: traces a pthreads program without recompiling it
// (LD_PRELOAD=libparallax-pthread.so ./program). Starts tracing when loaded, registers every
// created thread, and records pthread_create / pthread_join (state and event) and the waits:
// contended mutexes and read/write locks, condition variables, barriers and semaphores, all in
// the Synchronization state. An uncontended lock (or a semaphore whose count is not 0) is not
// recorded: the wrapper first tries it, so the common case costs one extra try and leaves no
// record. Condition-variable and barrier waits are always waits, always recorded.

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <semaphore.h>

#include <cstring>

#include "parallax/trace.h"
#include "tracing/src/mpi_calls.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
using JoinFn = int (*)(pthread_t, void**);
using LockFn = int (*)(pthread_mutex_t*);
using CondWaitFn = int (*)(pthread_cond_t*, pthread_mutex_t*);
using CondTimedWaitFn = int (*)(pthread_cond_t*, pthread_mutex_t*, const struct timespec*);
using BarrierWaitFn = int (*)(pthread_barrier_t*);
using RwlockFn = int (*)(pthread_rwlock_t*);
using SemWaitFn = int (*)(sem_t*);

// Plain pointers filled by the constructor (no function-local statics: their guards may lock).
CreateFn g_real_create = nullptr;
JoinFn g_real_join = nullptr;
LockFn g_real_lock = nullptr;
CondWaitFn g_real_cond_wait = nullptr;
CondTimedWaitFn g_real_cond_timedwait = nullptr;
BarrierWaitFn g_real_barrier_wait = nullptr;
RwlockFn g_real_rdlock = nullptr;
RwlockFn g_real_wrlock = nullptr;
SemWaitFn g_real_sem_wait = nullptr;

template <typename Fn>
Fn Resolve(Fn* slot, const char* name) {
  if (!*slot) *slot = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  return *slot;
}

// glibc keeps two versions of the condition-variable calls; plain dlsym may return the old
// (2.2.5) one, whose pthread_cond_t layout differs. Ask for the current one first.
template <typename Fn>
Fn ResolveCond(Fn* slot, const char* name) {
  if (!*slot) {
    void* f = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
    if (!f) f = dlsym(RTLD_NEXT, name);
    *slot = reinterpret_cast<Fn>(f);
  }
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
  ResolveCond(&g_real_cond_wait, "pthread_cond_wait");
  ResolveCond(&g_real_cond_timedwait, "pthread_cond_timedwait");
  Resolve(&g_real_barrier_wait, "pthread_barrier_wait");
  Resolve(&g_real_rdlock, "pthread_rwlock_rdlock");
  Resolve(&g_real_wrlock, "pthread_rwlock_wrlock");
  Resolve(&g_real_sem_wait, "sem_wait");
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

// The waits below are recorded only while tracing is on and outside the library itself.
static bool Recording() { return !t_in_tracer && g_active.load(std::memory_order_relaxed); }

int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex) {
  CondWaitFn real = ResolveCond(&g_real_cond_wait, "pthread_cond_wait");
  if (!Recording()) return real(cond, mutex);
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadCondWait, [&] { return real(cond, mutex); });
}

int pthread_cond_timedwait(pthread_cond_t* cond, pthread_mutex_t* mutex, const struct timespec* at) {
  CondTimedWaitFn real = ResolveCond(&g_real_cond_timedwait, "pthread_cond_timedwait");
  if (!Recording()) return real(cond, mutex, at);
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadCondTimedWait,
                [&] { return real(cond, mutex, at); });
}

int pthread_barrier_wait(pthread_barrier_t* barrier) {
  BarrierWaitFn real = Resolve(&g_real_barrier_wait, "pthread_barrier_wait");
  if (!Recording()) return real(barrier);
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadBarrierWait, [&] { return real(barrier); });
}

int pthread_rwlock_rdlock(pthread_rwlock_t* lock) {
  RwlockFn real = Resolve(&g_real_rdlock, "pthread_rwlock_rdlock");
  if (!Recording()) return real(lock);
  int rc = pthread_rwlock_tryrdlock(lock);
  if (rc != EBUSY) return rc;
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadRwlockRdWait, [&] { return real(lock); });
}

int pthread_rwlock_wrlock(pthread_rwlock_t* lock) {
  RwlockFn real = Resolve(&g_real_wrlock, "pthread_rwlock_wrlock");
  if (!Recording()) return real(lock);
  int rc = pthread_rwlock_trywrlock(lock);
  if (rc != EBUSY) return rc;
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadRwlockWrWait, [&] { return real(lock); });
}

int sem_wait(sem_t* sem) {
  SemWaitFn real = Resolve(&g_real_sem_wait, "sem_wait");
  if (!Recording()) return real(sem);
  if (sem_trywait(sem) == 0) return 0;
  if (errno != EAGAIN) return real(sem);  // e.g. EINVAL: let the real call report it
  return Traced(PXT_STATE_SYNCHRONIZATION, kPthreadSemWait, [&] { return real(sem); });
}

}  // extern "C"
