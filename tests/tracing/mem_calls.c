/* Dynamic memory traced by libparallax-io.so with PXT_MALLOC=1 (tests/golden/tracing_malloc.sh):
 * nine calls with known sizes, then argv[1] malloc(24)/free pairs. No stdio (its buffer would be
 * one more malloc): the output is written with write(2). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile char sink;

int main(int argc, char** argv) {
  char* p1 = malloc(1000);
  char* p2 = calloc(10, 300);
  memset(p1, 1, 1000);
  char* p3 = realloc(p1, 5000);
  void* p4 = NULL;
  int rc = posix_memalign(&p4, 64, 4096);
  char* p5 = aligned_alloc(64, 640);
  sink = p2[5] + p3[7] + (rc == 0 ? 1 : 0) + (p5 != NULL);
  free(p2);
  free(p3);
  free(p4);
  free(p5);
  int extra = argc > 1 ? atoi(argv[1]) : 0;
  for (int i = 0; i < extra; ++i) {
    char* q = malloc(24);
    q[0] = (char)i;
    sink = q[0];
    free(q);
  }
  char line[64];
  int n = snprintf(line, sizeof line, "allocated rc %d extra %d\n", rc, extra);
  write(1, line, (size_t)n);
  return 0;
}
