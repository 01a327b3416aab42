// Input files are opened only when they are regular files, and never by a blocking open(2)
// (src/base/regular_file.h): a named pipe in place of a trace, a companion file or a cfg made
// every reader wait forever for a writer.

#include "src/base/regular_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "src/base/gzip_stream.h"
#include "src/base/input_buffer.h"
#include "tests/unit/fifo_guard.h"
#include "tests/unit/scratch_folder.h"

namespace parallax::base {
namespace {

void ExpectNotRegular(const Status& s, const std::string& path, const std::string& kind) {
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "is " + kind + ", not a regular file: not read");
  EXPECT_EQ(s.where().file, path);
  EXPECT_FALSE(s.hint().empty());
}

TEST(RegularFile, NamedPipesAreRefusedWithoutBlocking) {
  test::ScratchFolder dir;
  const std::string fifo = dir.path() + "/pipe.prv", gz = dir.path() + "/pipe.prv.gz";
  ASSERT_TRUE(test::MakeFifo(fifo) && test::MakeFifo(gz));
  test::FinishesWithin(
      10, {fifo, gz},
      [&] {
        ExpectNotRegular(OpenRegularFile(fifo).status(), fifo, "a named pipe (FIFO)");
        ExpectNotRegular(InputBuffer::Open(fifo).status(), fifo, "a named pipe (FIFO)");
        ExpectNotRegular(InputBuffer::Open(gz).status(), gz, "a named pipe (FIFO)");
        ExpectNotRegular(GzipStream::OpenFile(gz).status(), gz, "a named pipe (FIFO)");
        ExpectNotRegular(ReadRegularFile(fifo, 1 << 20).status(), fifo, "a named pipe (FIFO)");
      },
      "opening a FIFO");
}

TEST(RegularFile, DirectoriesAndDevicesAreRefused) {
  test::ScratchFolder dir;
  ExpectNotRegular(InputBuffer::Open(dir.path()).status(), dir.path(), "a directory");
  ExpectNotRegular(OpenRegularFile("/dev/null").status(), "/dev/null", "a character device");
  auto missing = OpenRegularFile(dir.path() + "/none");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "cannot open: No such file or directory");
}

TEST(RegularFile, RegularFilesAreReadInBlockingMode) {
  test::ScratchFolder dir;
  const std::string path = dir.Write("a.txt", "hello");
  struct stat st {};
  auto fd = OpenRegularFile(path, &st);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  EXPECT_EQ(st.st_size, 5);
  EXPECT_EQ(::fcntl(fd.value(), F_GETFL) & O_NONBLOCK, 0);
  ::close(fd.value());
  EXPECT_EQ(ReadRegularFile(path, 5).value(), "hello");
  EXPECT_FALSE(ReadRegularFile(path, 4).ok());
}

}  // namespace
}  // namespace parallax::base
