#pragma once
// Tests that a reader never blocks on a named pipe (FIFO) put in place of a file: the call runs
// on another thread and must finish within a time limit. When it does not (the defect), the test
// fails, and the guard opens every FIFO for writing and closes it, which ends a blocked open(2)
// and then gives the reader an empty file, so that the test still ends.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace parallax::test {

// Makes a FIFO at `path`; false when it cannot.
inline bool MakeFifo(const std::string& path) { return ::mkfifo(path.c_str(), 0600) == 0; }

// Runs `call`; fails the test when it takes more than `seconds` (then unblocks `fifos`).
inline void FinishesWithin(double seconds, const std::vector<std::string>& fifos,
                           const std::function<void()>& call, const std::string& what) {
  auto done = std::async(std::launch::async, call);
  if (done.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::ready) {
    done.get();
    return;
  }
  ADD_FAILURE() << what << ": still blocked after " << seconds << " s (a FIFO opened for reading)";
  while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
    for (const std::string& f : fifos) {
      const int fd = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);  // succeeds once a reader waits
      if (fd >= 0) ::close(fd);
    }
  }
  done.get();
}

}  // namespace parallax::test
