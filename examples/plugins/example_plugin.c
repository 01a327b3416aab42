/* An example Parallax plug-in (docs/plugins.md): three semantic functions in plain C.
 *
 *   Value squared   (compose)  x * x
 *   Events so far   (thread)   the number of events up to and including the one that starts
 *                              the interval, counting only the types listed in "types" (all
 *                              when the list is empty); 0 before the first event. Stateful.
 *   Weighted sum    (derived)  "weight a" * a + "weight b" * b
 *
 * Build: cc -shared -fPIC -I<parallax>/include example_plugin.c -o libparallax_example.so
 * Use:   parallax --plugin ./libparallax_example.so functions */
#include "parallax/plugin.h"

#include <stddef.h>

PARALLAX_PLUGIN_ABI()

static int value_squared(void* user, size_t n, const double* values, const uint64_t* begins,
                         const uint64_t* ends, const px_values* params, size_t param_count,
                         double* out) {
  (void)user; (void)begins; (void)ends; (void)params; (void)param_count;
  for (size_t i = 0; i < n; ++i) out[i] = values[i] * values[i];
  return 0;
}

static int listed(const px_values* types, uint64_t type) {
  if (types->count == 0) return 1;
  for (size_t k = 0; k < types->count; ++k)
    if (types->values[k] == (double)type) return 1;
  return 0;
}

static int events_so_far(void* user, size_t n, const px_record* records, const double* previous,
                         const px_values* params, size_t param_count, double* out) {
  (void)user;
  if (param_count != 1) return 1; /* the host always passes every declared parameter */
  for (size_t i = 0; i < n; ++i) {
    const px_record* r = &records[i];
    if (r->kind == PX_NONE) out[i] = 0;
    else if (r->kind == PX_EVENT && listed(&params[0], r->event_type)) out[i] = previous[i] + 1;
    else out[i] = previous[i];
  }
  return 0;
}

static int weighted_sum(void* user, size_t n, const double* a, const double* b,
                        const px_values* params, size_t param_count, double* out) {
  (void)user;
  if (param_count != 2 || params[0].count < 1 || params[1].count < 1) return 2;
  for (size_t i = 0; i < n; ++i) out[i] = params[0].values[0] * a[i] + params[1].values[0] * b[i];
  return 0;
}

int parallax_plugin_register(const px_host* host) {
  static const double kOne[] = {1};
  static const px_param kTypes[] = {{"types", NULL, 0}};
  static const px_param kWeights[] = {{"weight a", kOne, 1}, {"weight b", kOne, 1}};
  px_function squared = {"Value squared", PX_COMPOSE, "none", "x²", NULL, 0, 0, 0,
                         NULL, value_squared, NULL, NULL};
  px_function events = {"Events so far", PX_THREAD, "none",
                        "events (of the listed types) up to the interval's start", kTypes, 1,
                        PX_RECORD_EVENTS, 1, events_so_far, NULL, NULL, NULL};
  px_function sum = {"Weighted sum", PX_DERIVED, "none", "weight a × a + weight b × b", kWeights, 2,
                     0, 0, NULL, NULL, weighted_sum, NULL};
  if (host->register_function(host->registry, &squared) != 0) return 1;
  if (host->register_function(host->registry, &events) != 0) return 1;
  if (host->register_function(host->registry, &sum) != 0) return 1;
  return 0;
}
