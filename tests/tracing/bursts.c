/* Computation bursts of known lengths (tests/golden/tracing_burst.sh): after its first record
 * (an event that registers the thread), the thread computes LONG us, then 10 times: enters user
 * state 100, records event 1000 = i, leaves it, and computes LONG us after the even iterations
 * and nothing after the odd ones; it ends with LONG us more. Its Running bursts: the first (to
 * the first state), 5 long ones (after iterations 0, 2, 4, 6, 8), 4 empty ones (after 1, 3, 5,
 * 7) and the last: burst mode with a threshold well under LONG keeps 7 and drops 4, and the 31
 * records of the event, the states and the events. argv[1]: LONG in us (default 3000). */
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

#include "parallax/trace.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static volatile double sink;

static void compute(double us) {
  double end = now_us() + us;
  double x = 1;
  while (now_us() < end) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  double lng = argc > 1 ? atof(argv[1]) : 3000;
  pxt_start();
  pxt_event(1000, 0);
  compute(lng);
  for (int i = 0; i < 10; ++i) {
    pxt_state_enter(100);
    pxt_event(1000, i + 1);
    pxt_state_leave();
    if (i % 2 == 0) compute(lng);
  }
  compute(lng);
  printf("bursts done\n");
  return 0;
}
