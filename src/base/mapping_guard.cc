#include "src/base/mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>

namespace parallax::base {

namespace {

// The guarded mappings, read by the signal handler without a lock: a slot is in use while
// `begin` is not 0; it is filled before `begin` is published and emptied after it is withdrawn.
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // page-rounded: the mapping covers whole pages
  std::atomic<int> prot{0};
  std::atomic<std::atomic<bool>*> truncated{nullptr};
};

constexpr size_t kSlots = 4096;
constexpr size_t kNoSlot = SIZE_MAX;
Slot g_slots[kSlots];
std::mutex g_slots_mutex;  // taking and freeing slots (never in the handler)
struct sigaction g_previous {};
uintptr_t g_page = 4096;

void OnSigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  // Only a fault has an address (si_code > 0); a SIGBUS sent by kill(2) or raise(3) has none.
  const size_t slots = info->si_code > 0 ? kSlots : 0;
  for (size_t i = 0; i < slots; ++i) {
    Slot& s = g_slots[i];
    const uintptr_t begin = s.begin.load(std::memory_order_acquire);
    if (begin == 0 || addr < begin) continue;
    const uintptr_t end = s.end.load(std::memory_order_acquire);
    if (addr >= end) continue;
    // The pages from the fault on are past the file's new end: zeros instead, and read on.
    const uintptr_t page = addr & ~(g_page - 1);
    void* p =
        ::mmap(reinterpret_cast<void*>(page), end - page, s.prot.load(std::memory_order_relaxed),
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) break;
    if (std::atomic<bool>* t = s.truncated.load(std::memory_order_acquire))
      t->store(true, std::memory_order_release);
    return;
  }
  // Not a guarded mapping: what would have happened without this handler.
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN &&
             g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(sig);
  } else {
    // The default action: a fault comes again on return and ends the process; a sent signal is
    // sent again.
    ::signal(SIGBUS, SIG_DFL);
    if (info->si_code <= 0) ::raise(SIGBUS);
  }
}

void InstallHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction a {};
    a.sa_sigaction = OnSigbus;
    a.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&a.sa_mask);
    ::sigaction(SIGBUS, &a, &g_previous);
  });
}

}  // namespace

Status MappingStatus::Unchanged() const {
  if (!truncated()) return Status::Ok();
  return Status::Error(
      "the file changed while it was read: it became shorter than when it was opened (truncated "
      "or rewritten in place)",
      Location{path_, 0, 0},
      "something rewrote it meanwhile (rsync --inplace, cp onto it, a program still writing it): "
      "open it again once it is complete");
}

MappingGuard::MappingGuard(const void* data, size_t bytes, std::string path, bool writable)
    : status_(std::make_shared<MappingStatus>(std::move(path))), slot_(kNoSlot) {
  if (data == nullptr || bytes == 0) return;
  InstallHandler();
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (size_t i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.begin.load(std::memory_order_relaxed) != 0) continue;
    const auto begin = reinterpret_cast<uintptr_t>(data);
    s.end.store((begin + bytes + g_page - 1) & ~(g_page - 1), std::memory_order_relaxed);
    s.prot.store(writable ? PROT_READ | PROT_WRITE : PROT_READ, std::memory_order_relaxed);
    s.truncated.store(&status_->truncated_, std::memory_order_relaxed);
    s.begin.store(begin, std::memory_order_release);
    slot_ = i;
    return;
  }
}

MappingGuard::~MappingGuard() {
  if (slot_ == kNoSlot) return;
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  Slot& s = g_slots[slot_];
  s.begin.store(0, std::memory_order_release);
  s.truncated.store(nullptr, std::memory_order_release);
  s.end.store(0, std::memory_order_relaxed);
}

}  // namespace parallax::base
