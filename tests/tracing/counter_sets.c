/* Counter-set switching (tests/golden/tracing_counter_sets.sh): after its first record (an
 * event that registers the thread) the thread computes 2 ms, then 6 times: enters user state
 * 100, computes 1 ms, leaves it, computes 2 ms. Each state entry ends a Running burst, so with
 * PXT_COUNTER_SETS="A;B" and PXT_COUNTER_SWITCH=1 the thread starts on set 1 and switches at
 * each of the 6 entries: 2, 1, 2, 1, 2, 1. */
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

int main(void) {
  pxt_start();
  pxt_event(1000, 0);
  compute(2000);
  for (int i = 0; i < 6; ++i) {
    pxt_state_enter(100);
    compute(1000);
    pxt_state_leave();
    compute(2000);
  }
  printf("counter sets done\n");
  return 0;
}
