// The cgroup memory limit (base/cgroup_memory.h): the smallest limit along the process' cgroup
// path, for cgroup v2, the hybrid layout and v1, read from made-up /proc/self/cgroup texts and
// limit files.

#include "src/base/cgroup_memory.h"

#include <gtest/gtest.h>

#include <map>

namespace parallax::base {
namespace {

struct Files {
  std::map<std::string, std::string> text;
  std::function<std::optional<std::string>(const std::string&)> Reader() const {
    return [this](const std::string& p) -> std::optional<std::string> {
      auto it = text.find(p);
      if (it == text.end()) return std::nullopt;
      return it->second;
    };
  }
};

TEST(CgroupMemoryLimit, V2TakesTheSmallestLimitUpToTheRoot) {
  Files f;
  f.text["/sys/fs/cgroup/system.slice/job.scope/memory.max"] = "max\n";
  f.text["/sys/fs/cgroup/system.slice/memory.max"] = "8589934592\n";
  EXPECT_EQ(CgroupMemoryLimit("0::/system.slice/job.scope\n", f.Reader()), 8589934592u);
  f.text["/sys/fs/cgroup/system.slice/job.scope/memory.max"] = "4294967296\n";
  EXPECT_EQ(CgroupMemoryLimit("0::/system.slice/job.scope\n", f.Reader()), 4294967296u);
}

TEST(CgroupMemoryLimit, NoLimitIsUnlimited) {
  Files f;
  f.text["/sys/fs/cgroup/a/memory.max"] = "max\n";
  EXPECT_EQ(CgroupMemoryLimit("0::/a\n", f.Reader()), UINT64_MAX);
  EXPECT_EQ(CgroupMemoryLimit("", f.Reader()), UINT64_MAX);
  EXPECT_EQ(CgroupMemoryLimit("0::/nowhere\n", f.Reader()), UINT64_MAX);
}

TEST(CgroupMemoryLimit, ARootPathReadsTheRootOfTheView) {
  // Inside a container with its own cgroup namespace the path is "/", and the view's root is
  // the container's cgroup.
  Files f;
  f.text["/sys/fs/cgroup/memory.max"] = "2147483648";
  EXPECT_EQ(CgroupMemoryLimit("0::/\n", f.Reader()), 2147483648u);
}

TEST(CgroupMemoryLimit, V1ReadsTheMemoryHierarchy) {
  Files f;
  f.text["/sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes"] = "1073741824\n";
  f.text["/sys/fs/cgroup/memory/slurm/memory.limit_in_bytes"] = "9223372036854771712\n";
  f.text["/sys/fs/cgroup/cpu/slurm/uid_0/job_7/memory.limit_in_bytes"] = "1\n";  // not the memory hierarchy
  const char* self =
      "9:name=systemd:/\n"
      "4:memory:/slurm/uid_0/job_7\n"
      "1:cpu,cpuacct:/slurm/uid_0/job_7\n"
      "0::/\n";
  EXPECT_EQ(CgroupMemoryLimit(self, f.Reader()), 1073741824u);
  // A hierarchy of several controllers, memory among them.
  EXPECT_EQ(CgroupMemoryLimit("3:cpuset,memory:/slurm/uid_0/job_7\n", f.Reader()), 1073741824u);
}

TEST(CgroupMemoryLimit, TheHybridLayoutsUnifiedHierarchyCounts) {
  Files f;
  f.text["/sys/fs/cgroup/unified/user.slice/memory.max"] = "3221225472\n";
  EXPECT_EQ(CgroupMemoryLimit("4:memory:/\n0::/user.slice\n", f.Reader()), 3221225472u);
}

TEST(CgroupMemoryLimit, MalformedTextIsIgnored) {
  Files f;
  f.text["/sys/fs/cgroup/a/memory.max"] = "12abc\n";
  f.text["/sys/fs/cgroup/b/memory.max"] = "0\n";
  EXPECT_EQ(CgroupMemoryLimit("0::/a\n", f.Reader()), UINT64_MAX);
  EXPECT_EQ(CgroupMemoryLimit("0::/b\n", f.Reader()), UINT64_MAX);
  EXPECT_EQ(CgroupMemoryLimit("garbage\n::\n0:x\n5:memory:relative\n", f.Reader()), UINT64_MAX);
}

}  // namespace
}  // namespace parallax::base
