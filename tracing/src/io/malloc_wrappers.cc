// Dynamic memory in libparallax-io.so, recorded only with PXT_MALLOC=1: malloc, calloc,
// realloc, free, posix_memalign, aligned_alloc and memalign as Extrae's events (no state, so
// that computation stays one Running burst): at entry 40000040 the call and 40000041 the size
// asked for or 40000042 the pointer passed in (free, realloc); at exit 40000043 the pointer
// returned and 40000040 = 0.
//
// Recorded only on threads the library already traces (the main thread from the start, others
// from their first record): registering a thread allocates, and a thread ending frees its own
// storage after the library has flushed it. Allocations of the library itself (t_in_tracer) and
// those made while the allocator is being looked up are never recorded. Until dlsym has found
// the real functions (dlsym may itself call calloc), requests are served from a static arena
// whose blocks free() ignores.

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stddef.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "parallax/trace.h"
#include "tracing/src/io/io_hooks.h"
#include "tracing/src/mpi_calls.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using MallocFn = void* (*)(size_t);
using CallocFn = void* (*)(size_t, size_t);
using ReallocFn = void* (*)(void*, size_t);
using FreeFn = void (*)(void*);
using PosixMemalignFn = int (*)(void**, size_t, size_t);
using AlignedFn = void* (*)(size_t, size_t);

MallocFn g_malloc = nullptr;
CallocFn g_calloc = nullptr;
ReallocFn g_realloc = nullptr;
FreeFn g_free = nullptr;
PosixMemalignFn g_posix_memalign = nullptr;
AlignedFn g_aligned_alloc = nullptr;
AlignedFn g_memalign = nullptr;
bool g_mem_enabled = false;  // PXT_MALLOC, set once by the constructor

// The bootstrap arena: 16-byte header (the block's size) before each block.
alignas(64) unsigned char g_arena[64 * 1024];
std::atomic<size_t> g_arena_used{0};
std::atomic<bool> g_resolving{false};

bool InArena(const void* p) {
  auto* c = static_cast<const unsigned char*>(p);
  return c >= g_arena && c < g_arena + sizeof g_arena;
}

void* ArenaAlloc(size_t n, size_t align = 16) {
  if (align < 16) align = 16;
  const size_t need = (n + align + 16 + 15) & ~size_t{15};
  const size_t off = g_arena_used.fetch_add(need);
  if (off + need > sizeof g_arena) return nullptr;
  auto base = reinterpret_cast<uintptr_t>(g_arena + off + 16);
  base = (base + align - 1) & ~(uintptr_t{align} - 1);
  auto* block = reinterpret_cast<unsigned char*>(base);
  std::memcpy(block - sizeof(size_t), &n, sizeof n);
  return block;
}

size_t ArenaSize(const void* p) {
  size_t n;
  std::memcpy(&n, static_cast<const unsigned char*>(p) - sizeof(size_t), sizeof n);
  return n;
}

// Looks the allocator up once; calls made meanwhile (dlsym's own) get arena blocks.
bool Resolve() {
  if (g_malloc != nullptr) return true;
  if (g_resolving.exchange(true)) return false;  // dlsym is running (here or on another thread)
  auto* m = reinterpret_cast<MallocFn>(dlsym(RTLD_NEXT, "malloc"));
  g_calloc = reinterpret_cast<CallocFn>(dlsym(RTLD_NEXT, "calloc"));
  g_realloc = reinterpret_cast<ReallocFn>(dlsym(RTLD_NEXT, "realloc"));
  g_free = reinterpret_cast<FreeFn>(dlsym(RTLD_NEXT, "free"));
  g_posix_memalign = reinterpret_cast<PosixMemalignFn>(dlsym(RTLD_NEXT, "posix_memalign"));
  g_aligned_alloc = reinterpret_cast<AlignedFn>(dlsym(RTLD_NEXT, "aligned_alloc"));
  g_memalign = reinterpret_cast<AlignedFn>(dlsym(RTLD_NEXT, "memalign"));
  std::atomic_thread_fence(std::memory_order_release);
  g_malloc = m;
  g_resolving.store(false);
  return g_malloc != nullptr;
}

// The calling thread's buffer when this call is to be recorded.
inline ThreadBuffer* Recorder() {
  if (!g_mem_enabled || t_in_tracer || !g_active.load(std::memory_order_relaxed)) return nullptr;
  return t_buffer;
}

void Enter(ThreadBuffer* b, uint64_t t, int call, uint32_t arg_type, int64_t arg) {
  RecordEvent(b, t, PXT_TYPE_DYNAMIC_MEMORY, call);
  RecordEvent(b, t, arg_type, arg);
}

// Records a call that ran from t0 to t1; `in` (free, realloc) is the pointer passed in, `out`
// (not free) the pointer returned.
void Record(ThreadBuffer* b, uint64_t t0, uint64_t t1, int call, int64_t size, const void* in,
            const void* out) {
  const int saved = errno;
  TracerSection section;
  if (call == kMemFree) {
    Enter(b, t0, call, PXT_TYPE_DYNAMIC_MEMORY_IN, static_cast<int64_t>(reinterpret_cast<uintptr_t>(in)));
  } else {
    Enter(b, t0, call, PXT_TYPE_DYNAMIC_MEMORY_SIZE, size);
    if (call == kMemRealloc)
      RecordEvent(b, t0, PXT_TYPE_DYNAMIC_MEMORY_IN, static_cast<int64_t>(reinterpret_cast<uintptr_t>(in)));
    RecordEvent(b, t1, PXT_TYPE_DYNAMIC_MEMORY_OUT, static_cast<int64_t>(reinterpret_cast<uintptr_t>(out)));
  }
  RecordEvent(b, t1, PXT_TYPE_DYNAMIC_MEMORY, 0);
  errno = saved;
}

}  // namespace

bool LoadMemoryHooks() {
  Resolve();
  if (const char* v = std::getenv("PXT_MALLOC"); v != nullptr && *v != '\0')
    g_mem_enabled = !(std::strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
                      strcasecmp(v, "false") == 0 || strcasecmp(v, "off") == 0);
  return g_mem_enabled;
}

}  // namespace parallax::tracing

using namespace parallax::tracing;

extern "C" {

void* malloc(size_t n) {
  if (!Resolve()) return ArenaAlloc(n);
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_malloc(n);
  const uint64_t t0 = Now();
  void* p = g_malloc(n);
  Record(b, t0, Now(), kMemMalloc, static_cast<int64_t>(n), nullptr, p);
  return p;
}

void* calloc(size_t count, size_t n) {
  if (!Resolve()) {
    if (n != 0 && count > SIZE_MAX / n) return nullptr;
    return ArenaAlloc(count * n);  // the arena is static storage: already zero
  }
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_calloc(count, n);
  const uint64_t t0 = Now();
  void* p = g_calloc(count, n);
  Record(b, t0, Now(), kMemCalloc, static_cast<int64_t>(count * n), nullptr, p);
  return p;
}

void* realloc(void* old, size_t n) {
  if (old != nullptr && InArena(old)) {  // a bootstrap block moves to the real heap
    void* p = malloc(n);
    if (p != nullptr) std::memcpy(p, old, ArenaSize(old) < n ? ArenaSize(old) : n);
    return p;
  }
  if (!Resolve()) return ArenaAlloc(n);
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_realloc(old, n);
  const uint64_t t0 = Now();
  void* p = g_realloc(old, n);
  Record(b, t0, Now(), kMemRealloc, static_cast<int64_t>(n), old, p);
  return p;
}

void free(void* p) {
  if (p != nullptr && InArena(p)) return;
  if (!Resolve()) return;  // only arena blocks exist yet
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_free(p);
  const uint64_t t0 = Now();
  g_free(p);
  Record(b, t0, Now(), kMemFree, 0, p, nullptr);
}

int posix_memalign(void** out, size_t align, size_t n) {
  if (!Resolve()) {
    *out = ArenaAlloc(n, align);
    return *out != nullptr ? 0 : ENOMEM;
  }
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_posix_memalign(out, align, n);
  const uint64_t t0 = Now();
  int rc = g_posix_memalign(out, align, n);
  Record(b, t0, Now(), kMemPosixMemalign, static_cast<int64_t>(n), nullptr, rc == 0 ? *out : nullptr);
  return rc;
}

void* aligned_alloc(size_t align, size_t n) {
  if (!Resolve()) return ArenaAlloc(n, align);
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_aligned_alloc(align, n);
  const uint64_t t0 = Now();
  void* p = g_aligned_alloc(align, n);
  Record(b, t0, Now(), kMemAlignedAlloc, static_cast<int64_t>(n), nullptr, p);
  return p;
}

void* memalign(size_t align, size_t n) {
  if (!Resolve()) return ArenaAlloc(n, align);
  ThreadBuffer* b = Recorder();
  if (b == nullptr) return g_memalign(align, n);
  const uint64_t t0 = Now();
  void* p = g_memalign(align, n);
  Record(b, t0, Now(), kMemMemalign, static_cast<int64_t>(n), nullptr, p);
  return p;
}

}  // extern "C"
