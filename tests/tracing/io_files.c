/* POSIX I/O traced by libparallax-io.so (tests/golden/tracing_io.sh): three files written
 * with known sizes through different calls, read back, and one call that fails. Every call
 * below is one record the golden test counts; printf (glibc's own write) is not one. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char buf[4096];

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  char a[4096], b[4096], c[4096];
  snprintf(a, sizeof a, "%s/io_a.dat", dir);
  snprintf(b, sizeof b, "%s/io_b.dat", dir);
  snprintf(c, sizeof c, "%s/io_c.dat", dir);
  memset(buf, 'x', sizeof buf);

  /* a: open + write 1000 + fsync + close */
  int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ssize_t wa = write(fd, buf, 1000);
  fsync(fd);
  close(fd);
  /* b: creat + writev 500 + 1500 + close */
  fd = creat(b, 0644);
  struct iovec wv[2] = {{buf, 500}, {buf, 1500}};
  ssize_t wb = writev(fd, wv, 2);
  close(fd);
  /* c: openat + pwrite 3000 + fdatasync + close */
  fd = openat(AT_FDCWD, c, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ssize_t wc = pwrite(fd, buf, 3000, 0);
  fdatasync(fd);
  close(fd);

  /* read back a: read 4096 (1000), read 4096 (0: end), lseek, pread 100 at 10, close */
  fd = open(a, O_RDONLY);
  ssize_t ra = read(fd, buf, sizeof buf);
  ssize_t ra_end = read(fd, buf, sizeof buf);
  lseek(fd, 0, SEEK_SET);
  ssize_t pa = pread(fd, buf, 100, 10);
  close(fd);
  /* b: readv 1024 + 1024 (2000), close */
  fd = open(b, O_RDONLY);
  struct iovec rv[2] = {{buf, 1024}, {buf + 1024, 1024}};
  ssize_t rb = readv(fd, rv, 2);
  close(fd);
  /* c: preadv 4096 at 0 (3000), close */
  fd = open(c, O_RDONLY);
  struct iovec pv[1] = {{buf, sizeof buf}};
  ssize_t rc = preadv(fd, pv, 1, 0);
  close(fd);
  /* argv[2]: that many 1-byte writes to /dev/null (open + N writes + close), to fill small
   * buffers: the library's flushes (writev of its .pxt file) must not show among them */
  int extra = argc > 2 ? atoi(argv[2]) : 0;
  if (extra > 0) {
    fd = open("/dev/null", O_WRONLY);
    for (int i = 0; i < extra; ++i) write(fd, buf, 1);
    close(fd);
  }
  /* a failing call: recorded, its errno kept */
  ssize_t bad = read(-1, buf, 10);
  int bad_errno = errno;

  printf("wrote %zd %zd %zd read %zd %zd %zd %zd %zd bad %zd %s\n", wa, wb, wc, ra, ra_end, pa, rb, rc,
         bad, bad_errno == EBADF ? "EBADF" : "?");
  return 0;
}
