// libparallax-omp.so: traces the OpenMP runtime of a program through OMPT, the tools interface
// of LLVM's libomp (LD_PRELOAD=libparallax-omp.so ./program, for a program built with
// `clang -fopenmp`). It records Extrae's OpenMP event types so that BSC's OpenMP cfgs work:
//   60000001 Parallel (OMP): 3 a parallel region is open (on the thread that opened it), 1 a
//            worksharing loop, 2 sections; 0 when closed (the enclosing value comes back)
//   60000018 Executed OpenMP parallel function (+100: its line): each thread of a team while
//            it runs the region: the outlined body (clang's `main.omp_outlined`), which the
//            library takes from LLVM's `__kmpc_fork_call` (interposed: OMPT gives only the
//            construct's address); the enclosing function when the call did not go through it
//   60000005 OpenMP barrier: 1 while waiting in a barrier (state 5, Synchronization)
//   60000006 / 60000007 OpenMP named (critical) / unnamed (omp_set_lock) lock: 3 waiting for
//            it (state 5), 6 holding it, 0 released
//   60000024 / 60000023 Instantiated / Executed OpenMP task function (+100: lines)
// Worker threads are Idle (state 0) outside parallel regions.
// GCC's libgomp has no OMPT: a program using it is traced without OpenMP events, and the run
// says so (stderr and the merge report).

#include <dlfcn.h>
#include <omp-tools.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "parallax/trace.h"
#include "tracing/src/omp/omp_common.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using namespace omp;  // Extrae's OpenMP types, shared with gomp_wrappers.cc
constexpr uint32_t kStateIdle = PXT_STATE_IDLE;

bool g_ompt_started = false;  // set once, by the OpenMP runtime's initialisation

// The outlined body of the region this thread is forking (__kmpc_fork_call, below), for
// OnParallelBegin, which runs inside that call on the same thread. Thread-local by necessity:
// libomp calls the wrappers with no handle of ours.
thread_local void* t_forking = nullptr;

// Per thread: the stack of 60000001 values (a loop inside a region restores the region).
thread_local std::vector<int64_t>* t_parallel_stack = nullptr;

std::vector<int64_t>& ParallelStack() {
  if (!t_parallel_stack) t_parallel_stack = new std::vector<int64_t>();
  return *t_parallel_stack;
}

ThreadBuffer* Buffer() { return t_in_tracer ? nullptr : CurrentBuffer(); }

void PushParallel(ThreadBuffer* b, uint64_t t, int64_t v) {
  ParallelStack().push_back(v);
  RecordEvent(b, t, kParallel, v);
}

void PopParallel(ThreadBuffer* b, uint64_t t) {
  auto& s = ParallelStack();
  if (!s.empty()) s.pop_back();
  RecordEvent(b, t, kParallel, s.empty() ? 0 : s.back());
}

void OnThreadBegin(ompt_thread_t type, ompt_data_t*) {
  if (type != ompt_thread_worker) return;
  if (ThreadBuffer* b = Buffer()) RecordStateEnter(b, Now(), kStateIdle);
}

void OnParallelBegin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel, unsigned, int,
                     const void* codeptr) {
  // The outlined body when the region was forked through __kmpc_fork_call, else the construct.
  parallel->ptr = t_forking != nullptr ? t_forking : const_cast<void*>(codeptr);
  t_forking = nullptr;
  if (ThreadBuffer* b = Buffer()) PushParallel(b, Now(), kRegion);
}

void OnParallelEnd(ompt_data_t*, ompt_data_t*, int, const void*) {
  if (ThreadBuffer* b = Buffer()) PopParallel(b, Now());
}

void OnImplicitTask(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t*,
                    unsigned, unsigned index, int flags) {
  if (flags & ompt_task_initial) return;
  ThreadBuffer* b = Buffer();
  if (!b) return;
  uint64_t t = Now();
  bool worker = index != 0;
  if (endpoint == ompt_scope_begin) {
    if (worker) RecordStateLeave(b, t);  // Idle -> Running
    auto code = reinterpret_cast<uintptr_t>(parallel ? parallel->ptr : nullptr);
    // A function's entry + 1 resolves to the function and its first line (the merge reads the
    // address before a return address); a construct's return address as it is.
    RecordCodeEvent(b, t, kParallelFunction, code);
  } else {
    RecordEvent(b, t, kParallelFunction, 0);
    RecordEvent(b, t, kParallelFunction + 100, 0);
    if (worker) RecordStateEnter(b, t, kStateIdle);
  }
}

void OnWork(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*,
            uint64_t, const void*) {
  int64_t v = kind == ompt_work_loop ? kLoop : kind == ompt_work_sections ? kSections : 0;
  if (v == 0) return;
  ThreadBuffer* b = Buffer();
  if (!b) return;
  if (endpoint == ompt_scope_begin)
    PushParallel(b, Now(), v);
  else
    PopParallel(b, Now());
}

bool IsBarrier(ompt_sync_region_t kind) {
  return kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
         kind == ompt_sync_region_barrier_explicit ||
         kind == ompt_sync_region_barrier_implementation ||
         kind == ompt_sync_region_barrier_implicit_workshare ||
         kind == ompt_sync_region_barrier_implicit_parallel;
}

void OnSyncRegionWait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*,
                      ompt_data_t*, const void*) {
  if (!IsBarrier(kind)) return;
  ThreadBuffer* b = Buffer();
  if (!b) return;
  uint64_t t = Now();
  if (endpoint == ompt_scope_begin) {
    RecordStateEnter(b, t, PXT_STATE_SYNCHRONIZATION);
    RecordEvent(b, t, kBarrier, 1);
  } else {
    RecordEvent(b, t, kBarrier, 0);
    RecordStateLeave(b, t);
  }
}

uint32_t LockType(ompt_mutex_t kind) {
  if (kind == ompt_mutex_critical) return kNamedLock;
  if (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock) return kUnnamedLock;
  return 0;
}

void OnMutexAcquire(ompt_mutex_t kind, unsigned, unsigned, ompt_wait_id_t, const void*) {
  uint32_t type = LockType(kind);
  ThreadBuffer* b = type ? Buffer() : nullptr;
  if (!b) return;
  uint64_t t = Now();
  RecordStateEnter(b, t, PXT_STATE_SYNCHRONIZATION);
  RecordEvent(b, t, type, kLockWait);
}

void OnMutexAcquired(ompt_mutex_t kind, ompt_wait_id_t, const void*) {
  uint32_t type = LockType(kind);
  ThreadBuffer* b = type ? Buffer() : nullptr;
  if (!b) return;
  uint64_t t = Now();
  RecordEvent(b, t, type, kLocked);
  RecordStateLeave(b, t);
}

void OnMutexReleased(ompt_mutex_t kind, ompt_wait_id_t, const void*) {
  uint32_t type = LockType(kind);
  ThreadBuffer* b = type ? Buffer() : nullptr;
  if (b) RecordEvent(b, Now(), type, kUnlocked);
}

void OnTaskCreate(ompt_data_t*, const ompt_frame_t*, ompt_data_t* task, int flags, int,
                  const void* codeptr) {
  if (!(flags & ompt_task_explicit)) return;
  task->ptr = const_cast<void*>(codeptr);
  ThreadBuffer* b = Buffer();
  if (!b) return;
  RecordCodeEvent(b, Now(), kTaskInstantiated, reinterpret_cast<uintptr_t>(codeptr));
  uint64_t t = Now();
  RecordEvent(b, t, kTaskInstantiated, 0);
  RecordEvent(b, t, kTaskInstantiated + 100, 0);
}

void OnTaskSchedule(ompt_data_t* prior, ompt_task_status_t, ompt_data_t* next) {
  ThreadBuffer* b = Buffer();
  if (!b) return;
  uint64_t t = Now();
  if (prior && prior->ptr) {
    RecordEvent(b, t, kTaskFunction, 0);
    RecordEvent(b, t, kTaskFunction + 100, 0);
  }
  if (next && next->ptr) RecordCodeEvent(b, t, kTaskFunction, reinterpret_cast<uintptr_t>(next->ptr));
}

template <typename F>
void Set(ompt_set_callback_t set, ompt_callbacks_t which, F f) {
  set(which, reinterpret_cast<ompt_callback_t>(f));
}

int Initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set) return 0;
  pxt_start();
  g_ompt_started = true;
  Set(set, ompt_callback_thread_begin, &OnThreadBegin);
  Set(set, ompt_callback_parallel_begin, &OnParallelBegin);
  Set(set, ompt_callback_parallel_end, &OnParallelEnd);
  Set(set, ompt_callback_implicit_task, &OnImplicitTask);
  Set(set, ompt_callback_work, &OnWork);
  Set(set, ompt_callback_sync_region_wait, &OnSyncRegionWait);
  Set(set, ompt_callback_mutex_acquire, &OnMutexAcquire);
  Set(set, ompt_callback_mutex_acquired, &OnMutexAcquired);
  Set(set, ompt_callback_mutex_released, &OnMutexReleased);
  Set(set, ompt_callback_task_create, &OnTaskCreate);
  Set(set, ompt_callback_task_schedule, &OnTaskSchedule);
  NameTypes(Runtime::Get());
  return 1;
}

void Finalize(ompt_data_t*) {}

// Runs before the runtime's own exit handler (registered earlier): says why a program that
// uses OpenMP has no OpenMP events.
void CheckOmptAtExit() {
  if (g_ompt_started) return;
  if (!UsesLibgomp()) return;
  const char* notice =
      "the program uses GCC's libgomp, which has no OMPT: OpenMP is not traced (build it with "
      "clang -fopenmp to use LLVM's libomp)";
  if (Runtime::Get().options().verbose) std::fprintf(stderr, "parallax-trace: %s\n", notice);
  Runtime::Get().AddMetaLine(std::string("notice ") + notice);
}

__attribute__((constructor)) void LoadOmpTracing() {
  pxt_start();
  std::atexit(CheckOmptAtExit);
}

}  // namespace

// Called by __kmpc_fork_call (below) around libomp's: the outlined body of the region forked.
void SetForking(void* body) { t_forking = body; }

}  // namespace parallax::tracing

extern "C" {

// Called by LLVM's libomp when it starts: OMPT's entry point.
ompt_start_tool_result_t* ompt_start_tool(unsigned int, const char*) {
  static ompt_start_tool_result_t result{&parallax::tracing::Initialize,
                                         &parallax::tracing::Finalize, {0}};
  return &result;
}

}  // extern "C"

// LLVM's entry of a parallel region: `__kmpc_fork_call(loc, argc, microtask, args...)` runs
// `microtask` (the outlined body) on every thread of the team. The wrapper notes the body for
// OnParallelBegin and calls libomp's with the same arguments: the captured variables, one
// pointer-sized value each, forwarded as kMaxForwarded values (libomp reads `argc` of them; the
// rest are ignored).
extern "C" {
using PxtMicrotask = void (*)(int32_t*, int32_t*, ...);
using PxtForkCall = void (*)(void*, int32_t, PxtMicrotask, ...);

__attribute__((visibility("default"))) void __kmpc_fork_call(void* loc, int32_t argc, PxtMicrotask task, ...) {
  static PxtForkCall real = reinterpret_cast<PxtForkCall>(dlsym(RTLD_NEXT, "__kmpc_fork_call"));
  if (real == nullptr) {
    std::fprintf(stderr, "parallax-trace: __kmpc_fork_call not found after libparallax-omp.so\n");
    std::abort();
  }
  constexpr int kMaxForwarded = 64;
  if (argc < 0 || argc > kMaxForwarded) {
    // A va_list cannot be passed on: a region capturing more variables cannot be forwarded.
    std::fprintf(stderr, "parallax-trace: a parallel region passes %d variables, more than the %d "
                         "libparallax-omp.so forwards; run it without the library\n", argc, kMaxForwarded);
    std::abort();
  }
  void* a[kMaxForwarded] = {};
  va_list ap;
  va_start(ap, task);
  for (int i = 0; i < argc; ++i) a[i] = va_arg(ap, void*);
  va_end(ap);
  // The body's entry + 1: the merge resolves an address as a return address (address - 1).
  ::parallax::tracing::SetForking(reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(task) + 1));
  real(loc, argc, task, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14],
       a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30],
       a[31], a[32], a[33], a[34], a[35], a[36], a[37], a[38], a[39], a[40], a[41], a[42], a[43], a[44], a[45], a[46],
       a[47], a[48], a[49], a[50], a[51], a[52], a[53], a[54], a[55], a[56], a[57], a[58], a[59], a[60], a[61], a[62],
       a[63]);
  ::parallax::tracing::SetForking(nullptr);
}
}
