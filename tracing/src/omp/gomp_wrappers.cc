// libparallax-gomp.so: traces the OpenMP of a program built with GCC (`gcc/gfortran -fopenmp`,
// GCC's libgomp, which has no OMPT) by interposing libgomp's GOMP_* entry points that the
// compiler calls (LD_PRELOAD=libparallax-gomp.so ./program). It writes the records of the OMPT
// tool (ompt_tool.cc) for the same constructs, so that BSC's OpenMP cfgs read both alike:
//   60000001 Parallel (OMP): 3 while a parallel region is open (on the thread that opened it),
//            1 a worksharing loop, 2 sections (on every thread of the team); 0 when closed
//   60000018 Executed OpenMP parallel function (+100: its line): each thread while it runs the
//            region's outlined function (GCC's `main._omp_fn.0`, `MAIN__._omp_fn.0`, ...)
//   60000005 OpenMP barrier: 1 while waiting in an explicit barrier or the barrier ending a
//            loop or sections without nowait (state 5, Synchronization)
//   60000006 OpenMP named-Lock: critical sections (named or not) and libgomp's atomic lock;
//   60000007 OpenMP unnamed-Lock: omp_set_lock / omp_set_nest_lock (C and Fortran):
//            3 waiting (state 5), 6 holding, 0 released
//   60000024 / 60000023 Instantiated / Executed OpenMP task function (+100: lines)
// Worker threads are Idle (state 0) between regions. Besides, each call that hands out loop
// iterations, sections or a single (GOMP_loop_*_start/_next, GOMP_sections_*, GOMP_single_start)
// is in state 7 (Scheduling and Fork/Join): one such interval per chunk, plus the one call per
// thread that finds the loop done. Task waits (taskwait, end of taskgroup) are Synchronization.
//
// The library starts tracing only when libgomp is loaded: for any other program it does
// nothing (its GOMP_* definitions are never called).

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "parallax/trace.h"
#include "tracing/src/omp/omp_common.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using namespace omp;  // Extrae's OpenMP types, shared with ompt_tool.cc

using Body = void (*)(void*);
using CopyFn = void (*)(void*, void*);

// The outlined function of a region and its argument, handed to every thread of the team
// through ParallelBody. `work` is the worksharing construct each thread starts with (combined
// `parallel for` / `parallel sections`: the threads call GOMP_loop_*_next directly).
struct Outlined {
  Body fn;
  void* data;
  int64_t work;
  int master_open_work;       // old ABI: the master's open constructs of the enclosing region
};

// Nesting levels kept per thread; deeper levels are counted and restore level 16's value.
constexpr int kMaxDepth = 16;

// One thread's OpenMP context. Thread-local by necessity: libgomp calls the wrappers with no
// handle of ours. Trivially constructible (zero-initialised, no TLS constructor) and in the
// static TLS block (initial-exec: the library is loaded at start by LD_PRELOAD), so reaching it
// costs one register-relative load.
struct OmpThread {
  int64_t values[kMaxDepth];  // the stack of 60000001 values (a loop restores its region)
  int depth;
  int regions;    // GOMP_parallel calls under way on this thread: it is their teams' master
  int open_work;  // loops / sections opened in the current region and not yet ended
  int waiting;    // Idle / Synchronization states this library entered and did not leave
  bool idle;      // a worker between regions
  int old_depth;          // GOMP_parallel_start / _end (GCC < 4.9) regions opened here
  Outlined old_regions[kMaxDepth];
};
thread_local OmpThread t_omp [[gnu::tls_model("initial-exec")]];

ThreadBuffer* Buffer() { return t_in_tracer ? nullptr : CurrentBuffer(); }

// The merge resolves code addresses as return addresses (it looks at address - 1, the call
// instruction); a function's entry + 1 resolves to the function and the line of its start.
uintptr_t CodeAddress(Body fn) { return reinterpret_cast<uintptr_t>(fn) + 1; }

void PushValue(ThreadBuffer* b, uint64_t t, int64_t v) {
  OmpThread& o = t_omp;
  if (o.depth < kMaxDepth) o.values[o.depth] = v;
  ++o.depth;
  RecordEvent(b, t, kParallel, v);
}

void PopValue(ThreadBuffer* b, uint64_t t) {
  OmpThread& o = t_omp;
  if (o.depth > 0) --o.depth;
  RecordEvent(b, t, kParallel, o.depth == 0 ? 0 : o.values[std::min(o.depth, kMaxDepth) - 1]);
}

void OpenWork(ThreadBuffer* b, uint64_t t, int64_t v) {
  PushValue(b, t, v);
  ++t_omp.open_work;
}

void CloseWork(ThreadBuffer* b, uint64_t t) {
  if (t_omp.open_work == 0) return;
  --t_omp.open_work;
  PopValue(b, t);
}

void EnterWaiting(ThreadBuffer* b, uint64_t t, uint32_t state) {
  RecordStateEnter(b, t, state);
  ++t_omp.waiting;
}

void LeaveWaiting(ThreadBuffer* b, uint64_t t) {
  RecordStateLeave(b, t);
  if (t_omp.waiting > 0) --t_omp.waiting;
}

// The end of a code event of `type` (and of its line type). Always 0, never the enclosing
// function's value: BSC's cfgs read these types as a stack (Stacked Val), 0 pops.
void EndFunction(ThreadBuffer* b, uint64_t t, uint32_t type) {
  RecordEvent(b, t, type, 0);
  RecordEvent(b, t, type + 100, 0);
}

[[noreturn]] void Missing(const char* name) {
  std::fprintf(stderr, "parallax-trace: %s not found after libparallax-gomp.so\n", name);
  std::abort();
}

// libgomp's definition of a wrapped function, looked up on the first call. The slot is an
// atomic because two threads may look it up at once (both store the same pointer).
template <typename Fn>
Fn Next(std::atomic<Fn>& slot, const char* name) {
  Fn f = slot.load(std::memory_order_relaxed);
  if (f == nullptr) [[unlikely]] {
    f = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
    if (f == nullptr) Missing(name);
    slot.store(f, std::memory_order_relaxed);
  }
  return f;
}

// The real `name` (the wrapper is `name` itself). Constant-initialised slot: no guard, no lock.
#define PXT_NEXT(name)                                                              \
  ([]() {                                                                           \
    static constinit std::atomic<decltype(&name)> slot{nullptr};                    \
    return ::parallax::tracing::Next(slot, #name);                                  \
  }())

// ---------------------------------------------------------------------------------------------
// Parallel regions.

// Runs on every thread of a team (the master included) in place of the outlined function.
void ParallelBody(void* arg) {
  const Outlined& region = *static_cast<const Outlined*>(arg);
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return region.fn(region.data);
  OmpThread& o = t_omp;
  bool worker = o.regions == 0;  // not the thread that opened the region
  uint64_t t = Now();
  if (worker && o.idle) {
    o.idle = false;
    LeaveWaiting(b, t);
  }
  int saved_work = o.open_work;
  o.open_work = 0;
  RecordCodeEvent(b, t, kParallelFunction, CodeAddress(region.fn));
  if (region.work != 0) OpenWork(b, t, region.work);
  region.fn(region.data);
  b = Buffer();
  if (b != nullptr) {
    t = Now();
    while (o.open_work > 0) CloseWork(b, t);
    EndFunction(b, t, kParallelFunction);
    if (worker) {
      EnterWaiting(b, t, PXT_STATE_IDLE);
      o.idle = true;
    }
  }
  o.open_work = saved_work;
}

// A region of GCC >= 4.9 (GOMP_parallel and the combined forms): the call returns when the
// team has finished, so the Outlined block lives on this frame.
template <typename Fn, typename... Args>
auto Parallel(Fn real, int64_t work, Body fn, void* data, Args... args) {
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return real(fn, data, args...);
  Outlined region{fn, data, work, 0};
  PushValue(b, Now(), kRegion);
  ++t_omp.regions;
  struct Close {  // after the call, whatever it returns
    ~Close() {
      --t_omp.regions;
      if (ThreadBuffer* bb = Buffer()) PopValue(bb, Now());
    }
  } close;
  return real(&ParallelBody, &region, args...);
}

// The old ABI's start: the region stays open on this thread until GOMP_parallel_end, which
// finds its Outlined block at the same level (a null `fn` there: a region not traced).
template <typename Fn, typename... Args>
void OldParallelStart(Fn real, int64_t work, Body fn, void* data, Args... args) {
  ThreadBuffer* b = Buffer();
  OmpThread& o = t_omp;
  if (b == nullptr || o.old_depth >= kMaxDepth) {
    if (o.old_depth < kMaxDepth) o.old_regions[o.old_depth].fn = nullptr;
    ++o.old_depth;
    return real(fn, data, args...);
  }
  Outlined& region = o.old_regions[o.old_depth++];
  region = Outlined{fn, data, work, o.open_work};
  PushValue(b, Now(), kRegion);
  ++o.regions;
  real(&ParallelBody, &region, args...);
  o.open_work = 0;
  if ((b = Buffer())) {
    uint64_t t = Now();
    RecordCodeEvent(b, t, kParallelFunction, CodeAddress(fn));
    if (work != 0) OpenWork(b, t, work);
  }
}

// ---------------------------------------------------------------------------------------------
// Worksharing: the calls that hand out work are Scheduling; the ends close the construct.

template <typename Fn, typename... Args>
auto Schedule(int64_t open, Fn real, Args... args) {
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return real(args...);
  uint64_t t = Now();
  if (open != 0) OpenWork(b, t, open);
  RecordStateEnter(b, t, PXT_STATE_FORK_JOIN);
  auto result = real(args...);
  if ((b = Buffer())) RecordStateLeave(b, Now());
  return result;
}

// A barrier (explicit, or the one ending a construct after closing it when `close`).
template <typename Fn>
auto Barrier(bool close, Fn real) {
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return real();
  uint64_t t = Now();
  if (close) CloseWork(b, t);
  EnterWaiting(b, t, PXT_STATE_SYNCHRONIZATION);
  RecordEvent(b, t, kBarrier, 1);
  struct Leave {
    ~Leave() {
      if (ThreadBuffer* bb = Buffer()) {
        uint64_t t1 = Now();
        RecordEvent(bb, t1, kBarrier, 0);
        LeaveWaiting(bb, t1);
      }
    }
  } leave;
  return real();
}

template <typename Fn>
void EndNowait(Fn real) {
  if (ThreadBuffer* b = Buffer()) CloseWork(b, Now());
  real();
}

// A wait for tasks (taskwait, the end of a taskgroup): Synchronization, no event (the OMPT tool
// records none for them either). Tasks the thread runs meanwhile show as Running inside.
template <typename Fn>
void TaskWait(Fn real) {
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return real();
  EnterWaiting(b, Now(), PXT_STATE_SYNCHRONIZATION);
  real();
  if ((b = Buffer())) LeaveWaiting(b, Now());
}

// ---------------------------------------------------------------------------------------------
// Locks: waiting (state 5, value 3), holding (6), released (0).

template <typename Fn, typename... Args>
void Acquire(uint32_t type, Fn real, Args... args) {
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return real(args...);
  uint64_t t = Now();
  EnterWaiting(b, t, PXT_STATE_SYNCHRONIZATION);
  RecordEvent(b, t, type, kLockWait);
  real(args...);
  if ((b = Buffer())) {
    t = Now();
    RecordEvent(b, t, type, kLocked);
    LeaveWaiting(b, t);
  }
}

template <typename Fn, typename... Args>
void Release(uint32_t type, Fn real, Args... args) {
  real(args...);
  if (ThreadBuffer* b = Buffer()) RecordEvent(b, Now(), type, kUnlocked);
}

// ---------------------------------------------------------------------------------------------
// Tasks. libgomp copies a deferred task's argument block into the task, so the real function
// travels in a header in front of the copy: GOMP_task gets TaskBody, a block `offset` bytes
// longer, and TaskCopy as copy function, which writes the header and then copies the argument
// as the program asked (its own copy function, or the bytes). TaskCopy runs inside GOMP_task,
// so the TaskSource block lives on the wrapper's frame.

struct TaskHeader {
  Body fn;
  size_t offset;  // of the program's argument block, a multiple of its alignment
};

struct TaskSource {
  TaskHeader header;
  CopyFn copy;
  void* data;
  size_t size;
};

void TaskCopy(void* destination, void* source) {
  const auto& s = *static_cast<const TaskSource*>(source);
  std::memcpy(destination, &s.header, sizeof s.header);
  void* argument = static_cast<char*>(destination) + s.header.offset;
  if (s.copy != nullptr)
    s.copy(argument, s.data);
  else if (s.size != 0)
    std::memcpy(argument, s.data, s.size);
}

void TaskBody(void* block) {
  TaskHeader h;
  std::memcpy(&h, block, sizeof h);
  void* argument = static_cast<char*>(block) + h.offset;
  ThreadBuffer* b = Buffer();
  if (b == nullptr) return h.fn(argument);
  OmpThread& o = t_omp;
  // Run by a thread waiting in a barrier or a task wait, or Idle at a region's end: Running.
  int waiting = o.waiting;
  uint64_t t = Now();
  if (waiting != 0) RecordStateEnter(b, t, PXT_STATE_RUNNING);
  o.waiting = 0;
  RecordCodeEvent(b, t, kTaskFunction, CodeAddress(h.fn));
  h.fn(argument);
  if ((b = Buffer())) {
    t = Now();
    EndFunction(b, t, kTaskFunction);
    if (waiting != 0) RecordStateLeave(b, t);
  }
  o.waiting = waiting;
}

// ---------------------------------------------------------------------------------------------
// Start: only in a process that has libgomp.

__attribute__((constructor)) void LoadGompTracing() {
  if (!UsesLibgomp()) return;
  if (pxt_start() == 0 && Runtime::Get().active()) NameTypes(Runtime::Get());
}

}  // namespace
}  // namespace parallax::tracing

// ---------------------------------------------------------------------------------------------
// The interposed entry points (libgomp's ABI, GCC 4.4 to 14).

using parallax::tracing::Acquire;
using parallax::tracing::Barrier;
using parallax::tracing::Body;
using parallax::tracing::CopyFn;
using parallax::tracing::EndNowait;
using parallax::tracing::kLoop;
using parallax::tracing::kNamedLock;
using parallax::tracing::kSections;
using parallax::tracing::kUnnamedLock;
using parallax::tracing::OldParallelStart;
using parallax::tracing::Parallel;
using parallax::tracing::Release;
using parallax::tracing::Schedule;
using parallax::tracing::TaskWait;
using ull = unsigned long long;

extern "C" {

void GOMP_parallel(Body fn, void* data, unsigned num_threads, unsigned flags) {
  Parallel(PXT_NEXT(GOMP_parallel), 0, fn, data, num_threads, flags);
}

unsigned GOMP_parallel_reductions(Body fn, void* data, unsigned num_threads, unsigned flags) {
  return Parallel(PXT_NEXT(GOMP_parallel_reductions), 0, fn, data, num_threads, flags);
}

// GCC < 4.9: the workers start in GOMP_parallel_start (or a combined *_start), the master
// then calls the outlined function itself and GOMP_parallel_end; the Outlined block is kept
// per thread until the end.
void GOMP_parallel_start(Body fn, void* data, unsigned num_threads) {
  OldParallelStart(PXT_NEXT(GOMP_parallel_start), 0, fn, data, num_threads);
}
void GOMP_parallel_sections_start(Body fn, void* data, unsigned num_threads, unsigned count) {
  OldParallelStart(PXT_NEXT(GOMP_parallel_sections_start), kSections, fn, data, num_threads,
                   count);
}
#define PXT_OLD_PARALLEL_LOOP(kind)                                                            \
  void GOMP_parallel_loop_##kind##_start(Body fn, void* data, unsigned num_threads,           \
                                         long start, long end, long incr, long chunk) {       \
    OldParallelStart(PXT_NEXT(GOMP_parallel_loop_##kind##_start), kLoop, fn, data,             \
                     num_threads, start, end, incr, chunk);                                    \
  }
PXT_OLD_PARALLEL_LOOP(static)
PXT_OLD_PARALLEL_LOOP(dynamic)
PXT_OLD_PARALLEL_LOOP(guided)
void GOMP_parallel_loop_runtime_start(Body fn, void* data, unsigned num_threads, long start,
                                      long end, long incr) {
  OldParallelStart(PXT_NEXT(GOMP_parallel_loop_runtime_start), kLoop, fn, data, num_threads,
                   start, end, incr);
}

void GOMP_parallel_end(void) {
  using namespace parallax::tracing;
  auto real = PXT_NEXT(GOMP_parallel_end);
  OmpThread& o = t_omp;
  const Outlined* region = nullptr;
  if (o.old_depth > 0) {
    --o.old_depth;
    if (o.old_depth < kMaxDepth && o.old_regions[o.old_depth].fn != nullptr)
      region = &o.old_regions[o.old_depth];
  }
  if (region == nullptr) return real();
  if (ThreadBuffer* b = Buffer()) {
    uint64_t t = Now();
    while (o.open_work > 0) CloseWork(b, t);
    EndFunction(b, t, kParallelFunction);
  }
  o.open_work = region->master_open_work;
  real();
  --o.regions;
  if (ThreadBuffer* b = Buffer()) PopValue(b, Now());
}

// Combined parallel loops (GCC >= 4.9): every thread starts in the loop.
#define PXT_PARALLEL_LOOP(name)                                                                \
  void name(Body fn, void* data, unsigned num_threads, long start, long end, long incr,       \
            long chunk, unsigned flags) {                                                      \
    Parallel(PXT_NEXT(name), kLoop, fn, data, num_threads, start, end, incr, chunk, flags);   \
  }
#define PXT_PARALLEL_LOOP_RUNTIME(name)                                                        \
  void name(Body fn, void* data, unsigned num_threads, long start, long end, long incr,       \
            unsigned flags) {                                                                  \
    Parallel(PXT_NEXT(name), kLoop, fn, data, num_threads, start, end, incr, flags);          \
  }
PXT_PARALLEL_LOOP(GOMP_parallel_loop_static)
PXT_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PXT_PARALLEL_LOOP(GOMP_parallel_loop_guided)
PXT_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PXT_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
PXT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PXT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PXT_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

void GOMP_parallel_sections(Body fn, void* data, unsigned num_threads, unsigned count,
                            unsigned flags) {
  Parallel(PXT_NEXT(GOMP_parallel_sections), kSections, fn, data, num_threads, count, flags);
}

// Loops: *_start opens the loop and may hand out the first chunk, *_next hands out the others.
#define PXT_LOOP(kind)                                                                         \
  bool GOMP_loop_##kind##_start(long start, long end, long incr, long chunk, long* istart,     \
                                long* iend) {                                                  \
    return Schedule(kLoop, PXT_NEXT(GOMP_loop_##kind##_start), start, end, incr, chunk,       \
                    istart, iend);                                                             \
  }                                                                                            \
  bool GOMP_loop_##kind##_next(long* istart, long* iend) {                                     \
    return Schedule(0, PXT_NEXT(GOMP_loop_##kind##_next), istart, iend);                       \
  }                                                                                            \
  bool GOMP_loop_ull_##kind##_start(bool up, ull start, ull end, ull incr, ull chunk,          \
                                    ull* istart, ull* iend) {                                  \
    return Schedule(kLoop, PXT_NEXT(GOMP_loop_ull_##kind##_start), up, start, end, incr,      \
                    chunk, istart, iend);                                                      \
  }                                                                                            \
  bool GOMP_loop_ull_##kind##_next(ull* istart, ull* iend) {                                   \
    return Schedule(0, PXT_NEXT(GOMP_loop_ull_##kind##_next), istart, iend);                   \
  }
#define PXT_LOOP_RUNTIME(kind)                                                                 \
  bool GOMP_loop_##kind##_start(long start, long end, long incr, long* istart, long* iend) {   \
    return Schedule(kLoop, PXT_NEXT(GOMP_loop_##kind##_start), start, end, incr, istart,      \
                    iend);                                                                     \
  }                                                                                            \
  bool GOMP_loop_##kind##_next(long* istart, long* iend) {                                     \
    return Schedule(0, PXT_NEXT(GOMP_loop_##kind##_next), istart, iend);                       \
  }                                                                                            \
  bool GOMP_loop_ull_##kind##_start(bool up, ull start, ull end, ull incr, ull* istart,        \
                                    ull* iend) {                                               \
    return Schedule(kLoop, PXT_NEXT(GOMP_loop_ull_##kind##_start), up, start, end, incr,      \
                    istart, iend);                                                             \
  }                                                                                            \
  bool GOMP_loop_ull_##kind##_next(ull* istart, ull* iend) {                                   \
    return Schedule(0, PXT_NEXT(GOMP_loop_ull_##kind##_next), istart, iend);                   \
  }
PXT_LOOP(static)
PXT_LOOP(dynamic)
PXT_LOOP(guided)
PXT_LOOP(nonmonotonic_dynamic)
PXT_LOOP(nonmonotonic_guided)
PXT_LOOP(ordered_static)
PXT_LOOP(ordered_dynamic)
PXT_LOOP(ordered_guided)
PXT_LOOP_RUNTIME(runtime)
PXT_LOOP_RUNTIME(nonmonotonic_runtime)
PXT_LOOP_RUNTIME(maybe_nonmonotonic_runtime)
PXT_LOOP_RUNTIME(ordered_runtime)

// GCC >= 9: one entry for any schedule (loops with reductions, `schedule(static)` with task
// reductions: then istart is null and the loop itself is inlined).
bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk, long* istart,
                     long* iend, uintptr_t* reductions, void** mem) {
  return Schedule(kLoop, PXT_NEXT(GOMP_loop_start), start, end, incr, sched, chunk, istart,
                  iend, reductions, mem);
}
bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched, ull chunk,
                         ull* istart, ull* iend, uintptr_t* reductions, void** mem) {
  return Schedule(kLoop, PXT_NEXT(GOMP_loop_ull_start), up, start, end, incr, sched, chunk,
                  istart, iend, reductions, mem);
}
bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk,
                             long* istart, long* iend, uintptr_t* reductions, void** mem) {
  return Schedule(kLoop, PXT_NEXT(GOMP_loop_ordered_start), start, end, incr, sched, chunk,
                  istart, iend, reductions, mem);
}

void GOMP_loop_end(void) { Barrier(true, PXT_NEXT(GOMP_loop_end)); }
bool GOMP_loop_end_cancel(void) { return Barrier(true, PXT_NEXT(GOMP_loop_end_cancel)); }
void GOMP_loop_end_nowait(void) { EndNowait(PXT_NEXT(GOMP_loop_end_nowait)); }

unsigned GOMP_sections_start(unsigned count) {
  return Schedule(kSections, PXT_NEXT(GOMP_sections_start), count);
}
unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem) {
  return Schedule(kSections, PXT_NEXT(GOMP_sections2_start), count, reductions, mem);
}
unsigned GOMP_sections_next(void) { return Schedule(0, PXT_NEXT(GOMP_sections_next)); }
void GOMP_sections_end(void) { Barrier(true, PXT_NEXT(GOMP_sections_end)); }
bool GOMP_sections_end_cancel(void) { return Barrier(true, PXT_NEXT(GOMP_sections_end_cancel)); }
void GOMP_sections_end_nowait(void) { EndNowait(PXT_NEXT(GOMP_sections_end_nowait)); }

bool GOMP_single_start(void) { return Schedule(0, PXT_NEXT(GOMP_single_start)); }

void GOMP_barrier(void) { Barrier(false, PXT_NEXT(GOMP_barrier)); }
bool GOMP_barrier_cancel(void) { return Barrier(false, PXT_NEXT(GOMP_barrier_cancel)); }

void GOMP_critical_start(void) { Acquire(kNamedLock, PXT_NEXT(GOMP_critical_start)); }
void GOMP_critical_end(void) { Release(kNamedLock, PXT_NEXT(GOMP_critical_end)); }
void GOMP_critical_name_start(void** name) {
  Acquire(kNamedLock, PXT_NEXT(GOMP_critical_name_start), name);
}
void GOMP_critical_name_end(void** name) {
  Release(kNamedLock, PXT_NEXT(GOMP_critical_name_end), name);
}
// libgomp's one lock for the atomics the processor cannot do: a critical section.
void GOMP_atomic_start(void) { Acquire(kNamedLock, PXT_NEXT(GOMP_atomic_start)); }
void GOMP_atomic_end(void) { Release(kNamedLock, PXT_NEXT(GOMP_atomic_end)); }

// omp_lock_t / omp_nest_lock_t are opaque here: pointers passed through. The Fortran entries
// (omp_lib) call libgomp's C locks internally, not through these symbols: wrapped too.
void omp_set_lock(void* lock) { Acquire(kUnnamedLock, PXT_NEXT(omp_set_lock), lock); }
void omp_unset_lock(void* lock) { Release(kUnnamedLock, PXT_NEXT(omp_unset_lock), lock); }
void omp_set_nest_lock(void* lock) { Acquire(kUnnamedLock, PXT_NEXT(omp_set_nest_lock), lock); }
void omp_unset_nest_lock(void* lock) {
  Release(kUnnamedLock, PXT_NEXT(omp_unset_nest_lock), lock);
}
void omp_set_lock_(void* lock) { Acquire(kUnnamedLock, PXT_NEXT(omp_set_lock_), lock); }
void omp_unset_lock_(void* lock) { Release(kUnnamedLock, PXT_NEXT(omp_unset_lock_), lock); }
void omp_set_nest_lock_(void* lock) {
  Acquire(kUnnamedLock, PXT_NEXT(omp_set_nest_lock_), lock);
}
void omp_unset_nest_lock_(void* lock) {
  Release(kUnnamedLock, PXT_NEXT(omp_unset_nest_lock_), lock);
}

// GCC >= 11's signature; older compilers pass fewer arguments, and libgomp reads the later ones
// only when `flags` says they are there, so passing them all on is safe.
void GOMP_task(Body fn, void* data, CopyFn copy, long arg_size, long arg_align, bool if_clause,
               unsigned flags, void** depend, int priority, void* detach) {
  using namespace parallax::tracing;
  auto real = PXT_NEXT(GOMP_task);
  ThreadBuffer* b = Buffer();
  if (b == nullptr)
    return real(fn, data, copy, arg_size, arg_align, if_clause, flags, depend, priority, detach);
  long align = std::max<long>(arg_align, 1);
  size_t offset = (sizeof(TaskHeader) + static_cast<size_t>(align) - 1) /
                  static_cast<size_t>(align) * static_cast<size_t>(align);
  TaskSource source{{fn, offset}, copy, data, static_cast<size_t>(std::max<long>(arg_size, 0))};
  RecordCodeEvent(b, Now(), kTaskInstantiated, CodeAddress(fn));
  real(&TaskBody, &source, &TaskCopy, static_cast<long>(offset) + std::max<long>(arg_size, 0),
       std::max<long>(align, static_cast<long>(alignof(TaskHeader))), if_clause, flags, depend,
       priority, detach);
  if ((b = Buffer())) EndFunction(b, Now(), kTaskInstantiated);
}

void GOMP_taskwait(void) { TaskWait(PXT_NEXT(GOMP_taskwait)); }
void GOMP_taskgroup_end(void) { TaskWait(PXT_NEXT(GOMP_taskgroup_end)); }

}  // extern "C"
