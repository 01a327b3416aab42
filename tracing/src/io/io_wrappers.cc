// libparallax-io.so: POSIX I/O of a program without recompiling it
// (LD_PRELOAD=libparallax-io.so ./program). Starts tracing when loaded and records each call to
// open/openat/creat/close/read/write/pread/pwrite/readv/writev/preadv/pwritev/lseek/fsync/
// fdatasync (and their 64-bit and fortified glibc names) as Extrae does: state 12 (I/O) while
// inside, event 40000004 with the call's value at entry and 0 at exit, 40000010 the descriptor
// and 40000011 the bytes asked for at entry; ours: 40001011 the bytes the call returned, at exit.
//
// Calls made by the library itself (its own files, the merge) are never recorded: every
// recorder path runs with t_in_tracer set, and the crash flush clears g_active first. PXT_IO=0
// keeps the library loaded and silent. A call costs one flag test when not recorded.
//
// Calls made inside glibc (printf -> write, fopen -> open) do not go through the dynamic
// symbol table and are not seen: only the program's (and other libraries') own calls are.

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "parallax/trace.h"
#include "tracing/src/io/io_hooks.h"
#include "tracing/src/mpi_calls.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {
namespace {

using OpenFn = int (*)(const char*, int, ...);
using OpenatFn = int (*)(int, const char*, int, ...);
using Open2Fn = int (*)(const char*, int);
using Openat2Fn = int (*)(int, const char*, int);
using CreatFn = int (*)(const char*, mode_t);
using CloseFn = int (*)(int);
using ReadFn = ssize_t (*)(int, void*, size_t);
using WriteFn = ssize_t (*)(int, const void*, size_t);
using ReadChkFn = ssize_t (*)(int, void*, size_t, size_t);
using PreadFn = ssize_t (*)(int, void*, size_t, off_t);
using PwriteFn = ssize_t (*)(int, const void*, size_t, off_t);
using PreadChkFn = ssize_t (*)(int, void*, size_t, off_t, size_t);
using VecFn = ssize_t (*)(int, const struct iovec*, int);
using PvecFn = ssize_t (*)(int, const struct iovec*, int, off_t);
using LseekFn = off_t (*)(int, off_t, int);
using SyncFn = int (*)(int);

// Filled by the constructor (a crash flush may run the wrappers from a signal handler, where
// dlsym must not be called); Resolve covers calls made before it, by other constructors.
struct Real {
  OpenFn open, open64;
  OpenatFn openat, openat64;
  Open2Fn open_2, open64_2;
  Openat2Fn openat_2, openat64_2;
  CreatFn creat, creat64;
  CloseFn close;
  ReadFn read;
  WriteFn write;
  ReadChkFn read_chk;
  PreadFn pread, pread64;
  PwriteFn pwrite, pwrite64;
  PreadChkFn pread_chk, pread64_chk;
  VecFn readv, writev;
  PvecFn preadv, preadv64, pwritev, pwritev64;
  LseekFn lseek, lseek64;
  SyncFn fsync, fdatasync;
} g_real;

// PXT_IO: 0 keeps the library loaded but records nothing (read once, when loaded).
bool g_io_enabled = true;

template <typename Fn>
Fn Resolve(Fn* slot, const char* name) {
  if (!*slot) *slot = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  return *slot;
}

inline bool Recording() {
  return g_io_enabled && !t_in_tracer && g_active.load(std::memory_order_relaxed);
}

// The thread is registered (its first record) before the call's time is taken, so that the
// call is not placed after the registration.
bool Registered() {
  if (t_buffer != nullptr) return true;
  const int saved = errno;
  TracerSection section;
  const bool ok = CurrentBuffer() != nullptr;
  errno = saved;
  return ok;
}

int64_t IovBytes(const struct iovec* iov, int n) {
  int64_t total = 0;
  for (int i = 0; i < n && iov != nullptr; ++i) total += static_cast<int64_t>(iov[i].iov_len);
  return total;
}

// Records one call that ran from t0 to t1 (after it returned: nothing is written while the
// real call runs). `size` < 0: the call moves no data (no size events).
void RecordIo(uint64_t t0, uint64_t t1, int call, int fd, int64_t size, int64_t result) {
  const int saved = errno;
  {
    TracerSection section;  // the counters' reads (PAPI) and a flush do I/O of their own
    ThreadBuffer* b = CurrentBuffer();
    if (b != nullptr) {
      RecordStateEnter(b, t0, PXT_STATE_IO);
      RecordEvent(b, t0, PXT_TYPE_IO_CALL, call);
      RecordEvent(b, t0, PXT_TYPE_IO_DESCRIPTOR, fd);
      if (size >= 0) RecordEvent(b, t0, PXT_TYPE_IO_SIZE, size);
      if (size >= 0) RecordEvent(b, t1, PXT_TYPE_IO_RESULT, result);
      RecordEvent(b, t1, PXT_TYPE_IO_CALL, 0);
      RecordStateLeave(b, t1);
    }
  }
  errno = saved;
}

// Runs `body` (the real call) and records it when recording.
template <typename Body>
auto Traced(int call, int fd, int64_t size, Body body) -> decltype(body()) {
  if (!Recording() || !Registered()) return body();
  const uint64_t t0 = Now();
  auto result = body();
  const uint64_t t1 = Now();
  RecordIo(t0, t1, call, fd, size, static_cast<int64_t>(result));
  return result;
}

// The same for the calls that return a descriptor: it is the call's 40000010.
template <typename Body>
int TracedOpen(int call, Body body) {
  if (!Recording() || !Registered()) return body();
  const uint64_t t0 = Now();
  int fd = body();
  const uint64_t t1 = Now();
  RecordIo(t0, t1, call, fd, -1, fd);
  return fd;
}

bool NeedsMode(int flags) {
#ifdef O_TMPFILE
  if ((flags & O_TMPFILE) == O_TMPFILE) return true;
#endif
  return (flags & O_CREAT) != 0;
}

__attribute__((constructor)) void LoadIoTracing() {
  if (const char* v = std::getenv("PXT_IO"); v != nullptr && *v != '\0')
    g_io_enabled = !(std::strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
                     strcasecmp(v, "false") == 0 || strcasecmp(v, "off") == 0);
  Resolve(&g_real.open, "open");
  Resolve(&g_real.open64, "open64");
  Resolve(&g_real.openat, "openat");
  Resolve(&g_real.openat64, "openat64");
  Resolve(&g_real.open_2, "__open_2");
  Resolve(&g_real.open64_2, "__open64_2");
  Resolve(&g_real.openat_2, "__openat_2");
  Resolve(&g_real.openat64_2, "__openat64_2");
  Resolve(&g_real.creat, "creat");
  Resolve(&g_real.creat64, "creat64");
  Resolve(&g_real.close, "close");
  Resolve(&g_real.read, "read");
  Resolve(&g_real.write, "write");
  Resolve(&g_real.read_chk, "__read_chk");
  Resolve(&g_real.pread, "pread");
  Resolve(&g_real.pread64, "pread64");
  Resolve(&g_real.pwrite, "pwrite");
  Resolve(&g_real.pwrite64, "pwrite64");
  Resolve(&g_real.pread_chk, "__pread_chk");
  Resolve(&g_real.pread64_chk, "__pread64_chk");
  Resolve(&g_real.readv, "readv");
  Resolve(&g_real.writev, "writev");
  Resolve(&g_real.preadv, "preadv");
  Resolve(&g_real.preadv64, "preadv64");
  Resolve(&g_real.pwritev, "pwritev");
  Resolve(&g_real.pwritev64, "pwritev64");
  Resolve(&g_real.lseek, "lseek");
  Resolve(&g_real.lseek64, "lseek64");
  Resolve(&g_real.fsync, "fsync");
  Resolve(&g_real.fdatasync, "fdatasync");
  const bool memory = LoadMemoryHooks();
  pxt_start();
  // Dynamic memory is recorded on traced threads only: the main thread is one from now on.
  if (memory) {
    TracerSection section;
    CurrentBuffer();
  }
}

}  // namespace
}  // namespace parallax::tracing

using namespace parallax::tracing;

extern "C" {

int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (NeedsMode(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  OpenFn real = Resolve(&g_real.open, "open");
  return TracedOpen(kIoOpen, [&] { return real(path, flags, mode); });
}

int open64(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (NeedsMode(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  OpenFn real = Resolve(&g_real.open64, "open64");
  return TracedOpen(kIoOpen, [&] { return real(path, flags, mode); });
}

int openat(int dirfd, const char* path, int flags, ...) {
  mode_t mode = 0;
  if (NeedsMode(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  OpenatFn real = Resolve(&g_real.openat, "openat");
  return TracedOpen(kIoOpenat, [&] { return real(dirfd, path, flags, mode); });
}

int openat64(int dirfd, const char* path, int flags, ...) {
  mode_t mode = 0;
  if (NeedsMode(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  OpenatFn real = Resolve(&g_real.openat64, "openat64");
  return TracedOpen(kIoOpenat, [&] { return real(dirfd, path, flags, mode); });
}

// _FORTIFY_SOURCE turns open() with flags unknown at compile time into these.
int __open_2(const char* path, int flags) {
  Open2Fn real = Resolve(&g_real.open_2, "__open_2");
  return TracedOpen(kIoOpen, [&] { return real(path, flags); });
}

int __open64_2(const char* path, int flags) {
  Open2Fn real = Resolve(&g_real.open64_2, "__open64_2");
  return TracedOpen(kIoOpen, [&] { return real(path, flags); });
}

int __openat_2(int dirfd, const char* path, int flags) {
  Openat2Fn real = Resolve(&g_real.openat_2, "__openat_2");
  return TracedOpen(kIoOpenat, [&] { return real(dirfd, path, flags); });
}

int __openat64_2(int dirfd, const char* path, int flags) {
  Openat2Fn real = Resolve(&g_real.openat64_2, "__openat64_2");
  return TracedOpen(kIoOpenat, [&] { return real(dirfd, path, flags); });
}

int creat(const char* path, mode_t mode) {
  CreatFn real = Resolve(&g_real.creat, "creat");
  return TracedOpen(kIoCreat, [&] { return real(path, mode); });
}

int creat64(const char* path, mode_t mode) {
  CreatFn real = Resolve(&g_real.creat64, "creat64");
  return TracedOpen(kIoCreat, [&] { return real(path, mode); });
}

int close(int fd) {
  CloseFn real = Resolve(&g_real.close, "close");
  return Traced(kIoClose, fd, -1, [&] { return real(fd); });
}

ssize_t read(int fd, void* buf, size_t count) {
  ReadFn real = Resolve(&g_real.read, "read");
  return Traced(kIoRead, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count); });
}

ssize_t __read_chk(int fd, void* buf, size_t count, size_t buflen) {
  ReadChkFn real = Resolve(&g_real.read_chk, "__read_chk");
  return Traced(kIoRead, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count, buflen); });
}

ssize_t write(int fd, const void* buf, size_t count) {
  WriteFn real = Resolve(&g_real.write, "write");
  return Traced(kIoWrite, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count); });
}

ssize_t pread(int fd, void* buf, size_t count, off_t offset) {
  PreadFn real = Resolve(&g_real.pread, "pread");
  return Traced(kIoPread, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count, offset); });
}

ssize_t pread64(int fd, void* buf, size_t count, off64_t offset) {
  PreadFn real = Resolve(&g_real.pread64, "pread64");
  return Traced(kIoPread, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count, offset); });
}

ssize_t __pread_chk(int fd, void* buf, size_t count, off_t offset, size_t buflen) {
  PreadChkFn real = Resolve(&g_real.pread_chk, "__pread_chk");
  return Traced(kIoPread, fd, static_cast<int64_t>(count),
                [&] { return real(fd, buf, count, offset, buflen); });
}

ssize_t __pread64_chk(int fd, void* buf, size_t count, off64_t offset, size_t buflen) {
  PreadChkFn real = Resolve(&g_real.pread64_chk, "__pread64_chk");
  return Traced(kIoPread, fd, static_cast<int64_t>(count),
                [&] { return real(fd, buf, count, offset, buflen); });
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
  PwriteFn real = Resolve(&g_real.pwrite, "pwrite");
  return Traced(kIoPwrite, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count, offset); });
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off64_t offset) {
  PwriteFn real = Resolve(&g_real.pwrite64, "pwrite64");
  return Traced(kIoPwrite, fd, static_cast<int64_t>(count), [&] { return real(fd, buf, count, offset); });
}

ssize_t readv(int fd, const struct iovec* iov, int n) {
  VecFn real = Resolve(&g_real.readv, "readv");
  if (!Recording()) return real(fd, iov, n);
  return Traced(kIoReadv, fd, IovBytes(iov, n), [&] { return real(fd, iov, n); });
}

ssize_t writev(int fd, const struct iovec* iov, int n) {
  VecFn real = Resolve(&g_real.writev, "writev");
  if (!Recording()) return real(fd, iov, n);  // the library's own chunks: no iov walk
  return Traced(kIoWritev, fd, IovBytes(iov, n), [&] { return real(fd, iov, n); });
}

ssize_t preadv(int fd, const struct iovec* iov, int n, off_t offset) {
  PvecFn real = Resolve(&g_real.preadv, "preadv");
  if (!Recording()) return real(fd, iov, n, offset);
  return Traced(kIoPreadv, fd, IovBytes(iov, n), [&] { return real(fd, iov, n, offset); });
}

ssize_t preadv64(int fd, const struct iovec* iov, int n, off64_t offset) {
  PvecFn real = Resolve(&g_real.preadv64, "preadv64");
  if (!Recording()) return real(fd, iov, n, offset);
  return Traced(kIoPreadv, fd, IovBytes(iov, n), [&] { return real(fd, iov, n, offset); });
}

ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t offset) {
  PvecFn real = Resolve(&g_real.pwritev, "pwritev");
  if (!Recording()) return real(fd, iov, n, offset);
  return Traced(kIoPwritev, fd, IovBytes(iov, n), [&] { return real(fd, iov, n, offset); });
}

ssize_t pwritev64(int fd, const struct iovec* iov, int n, off64_t offset) {
  PvecFn real = Resolve(&g_real.pwritev64, "pwritev64");
  if (!Recording()) return real(fd, iov, n, offset);
  return Traced(kIoPwritev, fd, IovBytes(iov, n), [&] { return real(fd, iov, n, offset); });
}

off_t lseek(int fd, off_t offset, int whence) {
  LseekFn real = Resolve(&g_real.lseek, "lseek");
  return Traced(kIoLseek, fd, -1, [&] { return real(fd, offset, whence); });
}

off64_t lseek64(int fd, off64_t offset, int whence) {
  LseekFn real = Resolve(&g_real.lseek64, "lseek64");
  return Traced(kIoLseek, fd, -1, [&] { return real(fd, offset, whence); });
}

int fsync(int fd) {
  SyncFn real = Resolve(&g_real.fsync, "fsync");
  return Traced(kIoFsync, fd, -1, [&] { return real(fd); });
}

int fdatasync(int fd) {
  SyncFn real = Resolve(&g_real.fdatasync, "fdatasync");
  return Traced(kIoFdatasync, fd, -1, [&] { return real(fd); });
}

}  // extern "C"
