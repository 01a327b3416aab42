/* A plug-in for tests/python/test_batched_functions.py: "Plugin state", a thread function that
 * is not stateful (so the host calls it with batches of intervals, the records converted to
 * px_record a chunk at a time) and equals the built-in State As Is: the state at a state begin,
 * 0 at a state end (a gap) and at the start of the trace. It counts its calls and intervals,
 * which plugin_batch_stats reports. */
#include "parallax/plugin.h"

#include <stddef.h>

PARALLAX_PLUGIN_ABI()

static size_t calls, intervals, largest;

static int state(void* user, size_t n, const px_record* records, const double* previous,
                 const px_values* params, size_t param_count, double* out) {
  (void)user; (void)params; (void)param_count;
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&intervals, n, __ATOMIC_RELAXED);
  size_t seen = __atomic_load_n(&largest, __ATOMIC_RELAXED);
  while (n > seen && !__atomic_compare_exchange_n(&largest, &seen, n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  for (size_t i = 0; i < n; ++i) {
    if (previous[i] != 0) return 3; /* not stateful: previous is 0 */
    out[i] = records[i].kind == PX_STATE_BEGIN ? (double)records[i].state : 0;
  }
  return 0;
}

/* Calls, intervals and the largest batch seen so far (read with ctypes by the test). */
void plugin_batch_stats(size_t* out) {
  out[0] = __atomic_load_n(&calls, __ATOMIC_RELAXED);
  out[1] = __atomic_load_n(&intervals, __ATOMIC_RELAXED);
  out[2] = __atomic_load_n(&largest, __ATOMIC_RELAXED);
}

int parallax_plugin_register(const px_host* host) {
  px_function f = {"Plugin state", PX_THREAD, "state", "State As Is, in batches", NULL, 0,
                   PX_RECORD_STATES, 0, state, NULL, NULL, NULL};
  return host->register_function(host->registry, &f);
}
