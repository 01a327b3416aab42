/* A program written against Extrae's user API, built unchanged against the Parallax tracing
 * library (tests/golden/tracing_extrae_api.sh): labelled event types, events in pairs, a user
 * function, several events at once, an event with counters, a shutdown/restart window, the
 * version. */
#include <stdio.h>

#include "extrae.h"

static volatile double sink;

static void Work(int units) {
  double x = 1.0;
  for (int i = 0; i < units * 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

/* Not inlined: the user function the event names is this one, not main. */
__attribute__((noinline)) static void Solver(int steps) {
  Extrae_user_function(1);
  for (int i = 0; i < steps; ++i) Work(10);
  Extrae_user_function(0);
}

int main(void) {
  Extrae_init();
  extrae_type_t phase = 1000;
  unsigned nvalues = 3;
  extrae_value_t values[3] = {0, 1, 2};
  char* names[3] = {"End", "Phase A", "Phase B"};
  Extrae_define_event_type(&phase, "Phase", &nvalues, values, names);
  for (int i = 0; i < 10; ++i) {
    Extrae_event(1000, 1 + i % 2);
    Work(20);
    Extrae_event(1000, 0);
  }
  Solver(5);
  extrae_type_t types[2] = {2000, 2001};
  extrae_value_t both[2] = {7, 8};
  Extrae_nevent(2, types, both);
  Extrae_eventandcounters(2002, 5);
  Extrae_shutdown();
  Extrae_event(1000, 99); /* not recorded: tracing is shut down */
  Extrae_restart();
  Extrae_event(2003, 1);
  Extrae_next_hwc_set(); /* accepted, said once each */
  Extrae_next_hwc_set();
  Extrae_set_options(EXTRAE_ENABLE_ALL_OPTIONS);
  unsigned major = 0, minor = 0, revision = 0;
  Extrae_get_version(&major, &minor, &revision);
  printf("Extrae API %u.%u.%u, initialized %d\n", major, minor, revision, (int)Extrae_is_initialized());
  Extrae_fini();
  return 0;
}
