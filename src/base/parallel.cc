#include "src/base/parallel.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace parallax::base {

unsigned DefaultThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

namespace {

// The state shared by the calling thread and the workers of one ParallelFor call.
class Loop {
 public:
  Loop(size_t count, const std::function<void(size_t)>& fn) : count_(count), fn_(fn) {}

  // Runs calls until none is left or one has failed; never throws.
  void Work() noexcept {
    for (size_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) {
      try {
        fn_(i);
      } catch (...) {
        Fail(std::current_exception());
        break;
      }
    }
  }

  // Records the first failure and makes every worker stop taking calls.
  void Fail(std::exception_ptr e) noexcept {
    next_.store(count_);
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_) error_ = std::move(e);
  }

  void WorkerDone() noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    ++finished_;
    cv_.notify_all();
  }

  // Waits for `workers` workers to finish, calling poll about every 100 ms.
  void Wait(size_t workers, const std::function<void()>& poll) noexcept {
    std::unique_lock<std::mutex> lock(mu_);
    while (finished_ < workers) {
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      if (poll && !error_) {
        lock.unlock();
        try {
          poll();
        } catch (...) {
          Fail(std::current_exception());
        }
        lock.lock();
      }
    }
  }

  void RethrowFailure() {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  const size_t count_;
  const std::function<void(size_t)>& fn_;
  std::atomic<size_t> next_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  size_t finished_ = 0;
  std::exception_ptr error_;
};

}  // namespace

void ParallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& fn,
                 const std::function<void()>& poll) {
  if (count == 0) return;
  if (threads <= 1 || count == 1) {
    for (size_t i = 0; i < count; ++i) {
      fn(i);
      if (poll) poll();
    }
    return;
  }
  Loop loop(count, fn);
  unsigned n = static_cast<unsigned>(std::min<size_t>(threads, count));
  std::vector<std::thread> workers;
  workers.reserve(n);
  for (unsigned w = 0; w < n; ++w) {
    try {
      workers.emplace_back([&loop] {
        loop.Work();
        loop.WorkerDone();
      });
    } catch (const std::system_error&) {
      break;  // no more threads: the ones started (or this thread) do the work
    }
  }
  if (workers.empty()) {
    loop.Work();
  } else {
    loop.Wait(workers.size(), poll);
  }
  for (auto& t : workers) t.join();
  loop.RethrowFailure();
}

}  // namespace parallax::base
