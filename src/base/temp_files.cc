#include "src/base/temp_files.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstddef>
#include <ctime>
#include <mutex>

namespace parallax::base {

namespace {

constexpr size_t kMaxPath = 4096;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU};
enum SlotState : int { kFree = 0, kWriting = 1, kReady = 2 };

// The registry (see the header for why it is process-wide).
struct Registry {
  std::atomic<int> state[kMaxTempFiles];
  char path[kMaxTempFiles][kMaxPath];
  bool folder[kMaxTempFiles];  // a folder: its files, then itself
  // Threads between creating a file and registering it (see CreateRegistered).
  std::atomic<int> creating;
  // Set by the first cleanup handler: from then on no thread creates a file.
  std::atomic<bool> ending;
};
Registry registry{};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

// The files directly in `dir`, removed (see RemoveFolderSafely).
void RemoveFilesIn(const char* dir) {
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buffer[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
      unsigned short reclen;
      std::memcpy(&reclen, buffer + at + 16, sizeof reclen);
      const char* name = buffer + at + 19;
      if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) ::unlinkat(fd, name, 0);
      at += reclen;
    }
  }
  ::close(fd);
}

// Removes the files directly in `dir`, then `dir`, with system calls only (safe in a signal
// handler, unlike opendir/readdir): getdents64 lists the entries, unlinkat removes them. A file
// that appears meanwhile (another thread renaming its finished output into the folder) makes
// the folder not empty: listed and removed again, a few times.
void RemoveFolderSafely(const char* dir) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    RemoveFilesIn(dir);
    if (::rmdir(dir) == 0 || errno != ENOTEMPTY) return;
    const struct timespec pause {0, 1000000};
    ::nanosleep(&pause, nullptr);
  }
}

[[noreturn]] void WaitForTheEnd() {
  for (;;) ::pause();
}

void RemoveAndReraise(int sig) {
  // A second signal, on another thread, waits for the first handler to end the process.
  if (registry.ending.exchange(true)) WaitForTheEnd();
  // A file another thread has just created is registered in a moment: wait for it (that
  // thread has the cleanup signals blocked, so this handler never runs on it meanwhile). A
  // thread about to create one sees `ending` and stops instead (both sides are sequentially
  // consistent: either it sees `ending`, or this loop sees it counted).
  while (registry.creating.load() > 0) {
    const struct timespec pause {0, 100000};
    ::nanosleep(&pause, nullptr);
  }
  for (int i = 0; i < kMaxTempFiles; ++i)
    if (registry.state[i].load(std::memory_order_acquire) == kReady && !registry.folder[i]) ::unlink(registry.path[i]);
  // Folders after files: a registered file may be in one.
  for (int i = 0; i < kMaxTempFiles; ++i)
    if (registry.state[i].load(std::memory_order_acquire) == kReady && registry.folder[i]) RemoveFolderSafely(registry.path[i]);
  ::signal(sig, SIG_DFL);
  ::raise(sig);  // the cleanup signals are blocked in this handler: delivered on its return
}

}  // namespace

namespace {

void Register(const std::string& path, bool folder) {
  if (path.empty() || path.size() >= kMaxPath) return;
  for (int i = 0; i < kMaxTempFiles; ++i) {
    int expected = kFree;
    if (!registry.state[i].compare_exchange_strong(expected, kWriting, std::memory_order_acq_rel)) continue;
    std::memcpy(registry.path[i], path.c_str(), path.size() + 1);
    registry.folder[i] = folder;
    registry.state[i].store(kReady, std::memory_order_release);
    return;
  }
}

}  // namespace

void RegisterTempFile(const std::string& path) { Register(path, false); }

void UnregisterTempFile(const std::string& path) {
  for (int i = 0; i < kMaxTempFiles; ++i) {
    if (registry.state[i].load(std::memory_order_acquire) != kReady) continue;
    if (std::strcmp(registry.path[i], path.c_str()) != 0) continue;
    int expected = kReady;
    if (registry.state[i].compare_exchange_strong(expected, kFree, std::memory_order_acq_rel)) return;
  }
}

// Runs `create` (which returns a descriptor, or -1 with errno set) and registers `*name` (a file,
// or a `folder`) when it succeeds, with no moment at which a signal could end the process and
// leave the new file behind: the cleanup signals are blocked in this thread, and a handler running on another
// thread waits for the registration.
template <typename Create>
int CreateRegistered(std::string* name, Create create, bool folder = false) {
  sigset_t cleanup, old;
  sigemptyset(&cleanup);
  for (int sig : kCleanupSignals) sigaddset(&cleanup, sig);
  ::pthread_sigmask(SIG_BLOCK, &cleanup, &old);
  registry.creating.fetch_add(1);
  if (registry.ending.load()) {
    // A handler on another thread is removing the files and ending the process.
    registry.creating.fetch_sub(1);
    WaitForTheEnd();
  }
  const int fd = create();
  const int saved_errno = errno;
  if (fd >= 0) Register(*name, folder);
  registry.creating.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved_errno;
  return fd;
}

int CreateTempBeside(const std::string& path, std::string* tmp_path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string name = dir + "." + base + ".tmpXXXXXX";
  const int fd = CreateRegistered(&name, [&] { return ::mkostemp(name.data(), O_CLOEXEC); });
  if (fd < 0) return -1;
  ::fchmod(fd, 0644);
  *tmp_path = name;
  return fd;
}

std::string CreateTempDir(const std::string& prefix) {
  const char* tmpdir = ::getenv("TMPDIR");
  std::string name = std::string(tmpdir != nullptr && tmpdir[0] != 0 ? tmpdir : "/tmp") + "/" + prefix + "-XXXXXX";
  const int made = CreateRegistered(&name, [&] { return ::mkdtemp(name.data()) != nullptr ? 0 : -1; }, true);
  return made == 0 ? name : std::string();
}

void RemoveTempDir(const std::string& path) {
  if (path.empty()) return;
  RemoveFolderSafely(path.c_str());
  UnregisterTempFile(path);
}

int CreateTempFile(const std::string& path) {
  std::string name = path;
  return CreateRegistered(&name, [&] { return ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644); });
}

void InstallTempFileCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      // A signal ignored by the parent (nohup, a background job's SIGINT) stays ignored.
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction sa {};
      sa.sa_handler = RemoveAndReraise;
      sigemptyset(&sa.sa_mask);
      for (int other : kCleanupSignals) sigaddset(&sa.sa_mask, other);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

}  // namespace parallax::base
