/* A program that records more than its size limit (tests/golden/tracing_limit.sh): inside user
 * state 100, events 1000 = 1, 2, ..., N (argv[1], default 200000), about 8 bytes each. */
#include <stdlib.h>
#include <stdio.h>

#include "parallax/trace.h"

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  pxt_start();
  pxt_state_enter(100);
  for (long i = 1; i <= n; ++i) pxt_event(1000, i);
  pxt_state_leave();
  printf("events %ld\n", n);
  return 0;
}
