#include "src/base/temp_files.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace parallax::base {

namespace {

constexpr size_t kMaxPath = 4096;
enum SlotState : int { kFree = 0, kWriting = 1, kReady = 2 };

// The registry (see the header for why it is process-wide).
struct Registry {
  std::atomic<int> state[kMaxTempFiles];
  char path[kMaxTempFiles][kMaxPath];
};
Registry registry{};

void RemoveAndReraise(int sig) {
  for (int i = 0; i < kMaxTempFiles; ++i)
    if (registry.state[i].load(std::memory_order_acquire) == kReady) ::unlink(registry.path[i]);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void RegisterTempFile(const std::string& path) {
  if (path.empty() || path.size() >= kMaxPath) return;
  for (int i = 0; i < kMaxTempFiles; ++i) {
    int expected = kFree;
    if (!registry.state[i].compare_exchange_strong(expected, kWriting, std::memory_order_acq_rel)) continue;
    std::memcpy(registry.path[i], path.c_str(), path.size() + 1);
    registry.state[i].store(kReady, std::memory_order_release);
    return;
  }
}

void UnregisterTempFile(const std::string& path) {
  for (int i = 0; i < kMaxTempFiles; ++i) {
    if (registry.state[i].load(std::memory_order_acquire) != kReady) continue;
    if (std::strcmp(registry.path[i], path.c_str()) != 0) continue;
    int expected = kReady;
    if (registry.state[i].compare_exchange_strong(expected, kFree, std::memory_order_acq_rel)) return;
  }
}

int CreateTempBeside(const std::string& path, std::string* tmp_path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string name = dir + "." + base + ".tmpXXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  ::fchmod(fd, 0644);
  *tmp_path = name;
  RegisterTempFile(name);  // removed if a signal ends the process
  return fd;
}

void InstallTempFileCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU}) {
      struct sigaction old {};
      // A signal ignored by the parent (nohup, a background job's SIGINT) stays ignored.
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction sa {};
      sa.sa_handler = RemoveAndReraise;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

}  // namespace parallax::base
