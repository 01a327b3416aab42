#include "src/base/temp_files.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/unit/scratch_folder.h"

namespace parallax::base {
namespace {

// A child that creates and removes temporary files as fast as it can, from one thread while
// another idles (so a process-directed signal may be taken by either), until a signal ends it.
[[noreturn]] void CreateUntilKilled(const std::string& folder, int mode) {
  InstallTempFileCleanup();
  std::atomic<bool> stop{false};
  std::thread idle([&] {
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::microseconds(50));
  });
  if (mode == 2) {  // temporary folders holding finished files (no longer registered themselves)
    ::setenv("TMPDIR", folder.c_str(), 1);
    for (unsigned i = 0;; ++i) {
      const std::string dir = CreateTempDir("scratch");
      if (dir.empty()) _exit(3);
      for (int k = 0; k < 3; ++k) {
        const std::string file = dir + "/file" + std::to_string(k);
        const int fd = CreateTempFile(file);
        if (fd < 0) _exit(4);
        ::close(fd);
        UnregisterTempFile(file);
      }
      // The first ten are left for the signal (within the registry's size); the others are
      // removed at once, so the signal also comes between creation and removal.
      if (i >= 10) RemoveTempDir(dir);
    }
  }
  for (unsigned i = 0;; ++i) {
    std::string tmp = folder + "/.out" + std::to_string(i % 7) + ".tmp";
    int fd = mode == 0 ? CreateTempBeside(folder + "/out", &tmp) : CreateTempFile(tmp);
    if (fd < 0) _exit(3);
    ::close(fd);
    ::unlink(tmp.c_str());
    UnregisterTempFile(tmp);
  }
}

// Whatever the moment a SIGTERM comes, the process ends by it and leaves no file behind: no
// window between a file's creation and its registration, on whichever thread the signal lands.
void CheckNothingLeft(int mode) {
  test::ScratchFolder folder;
  ASSERT_FALSE(folder.path().empty());
  for (int round = 0; round < 200; ++round) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) CreateUntilKilled(folder.path(), mode);
    std::this_thread::sleep_for(std::chrono::microseconds(200 + 37 * (round % 50)));
    ::kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "round " << round << " status " << status;
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    int left = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
      ADD_FAILURE() << "round " << round << " left " << entry.path();
      ++left;
    }
    if (left > 0) return;
  }
}

TEST(TempFilesTest, ASignalAtAnyMomentLeavesNoTemporaryFileBeside) { CheckNothingLeft(0); }
TEST(TempFilesTest, ASignalAtAnyMomentLeavesNoTemporaryFileNamed) { CheckNothingLeft(1); }
// A registered folder goes with the files in it, whatever the moment.
TEST(TempFilesTest, ASignalAtAnyMomentLeavesNoTemporaryFolder) { CheckNothingLeft(2); }

}  // namespace
}  // namespace parallax::base
