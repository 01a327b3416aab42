// Files truncated while mapped (rsync --inplace, cp onto them): a read past the new end raised
// SIGBUS and killed the process. Guarded mappings (src/base/mapping_guard.h) read zeros there
// instead and say that the file changed.

#include "src/base/mapping_guard.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "src/base/input_buffer.h"
#include "tests/unit/scratch_folder.h"

namespace parallax::base {
namespace {

TEST(MappingGuard, AFileTruncatedWhileMappedReadsAsZerosAndIsReported) {
  test::ScratchFolder dir;
  const std::string path = dir.Write("big.txt", std::string(1 << 20, 'x'));
  auto buf = InputBuffer::Open(path);
  ASSERT_TRUE(buf.ok()) << buf.status().ToString();
  ASSERT_NE(buf->mapping_status(), nullptr);
  EXPECT_FALSE(buf->mapping_status()->truncated());
  EXPECT_TRUE(buf->mapping_status()->Unchanged().ok());
  ASSERT_EQ(::truncate(path.c_str(), 100), 0);
  const std::string_view v = buf->view();
  EXPECT_EQ(v[50], 'x');          // within the file's first page: still the data
  EXPECT_EQ(v[v.size() - 1], 0);  // past the new end: zeros, not SIGBUS
  EXPECT_EQ(v[200000], 0);
  EXPECT_TRUE(buf->mapping_status()->truncated());
  auto parsed = buf->Parse([](std::string_view text) -> Result<size_t> { return text.size(); });
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().where().file, path);
  EXPECT_NE(parsed.status().message().find("the file changed while it was read"),
            std::string::npos);
}

TEST(MappingGuard, UntouchedFilesParseAsBefore) {
  test::ScratchFolder dir;
  const std::string path = dir.Write("small.txt", "hello");
  auto buf = InputBuffer::Open(path);
  ASSERT_TRUE(buf.ok());
  auto parsed =
      buf->Parse([](std::string_view text) -> Result<std::string> { return std::string(text); });
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.value(), "hello");
}

// A SIGBUS that is not in a guarded mapping still ends the process (the handler passes it on).
TEST(MappingGuardDeathTest, OtherBusErrorsStillEndTheProcess) {
  test::ScratchFolder dir;
  const std::string path = dir.Write("g.txt", std::string(1 << 16, 'x'));
  auto guarded = InputBuffer::Open(path);  // installs the handler
  ASSERT_TRUE(guarded.ok());
  EXPECT_DEATH(::raise(SIGBUS), "");
}

}  // namespace
}  // namespace parallax::base
