/* Deliberately broken plug-ins for tests/golden/plugins.sh, one per BAD_* definition:
 *   BAD_VERSION    reports ABI version 999
 *   BAD_NO_ENTRY   exports no parallax_plugin_register
 *   BAD_BUILTIN    registers a function named like a built-in one ("As Is")
 *   BAD_DUPLICATE  registers "Value squared", which the example plug-in also defines
 *   BAD_KERNEL     a compose function whose kernel always fails (code 7)
 *   BAD_LATIN1     registers a function whose name is Latin-1, not UTF-8 ("Funci\xf3n") */
#include "parallax/plugin.h"

#include <stddef.h>

#ifdef BAD_VERSION
uint32_t parallax_plugin_abi_version(void) { return 999; }
#else
PARALLAX_PLUGIN_ABI()
#endif

#ifndef BAD_NO_ENTRY
static int fails(void* user, size_t n, const double* v, const uint64_t* b, const uint64_t* e,
                 const px_values* p, size_t pc, double* out) {
  (void)user; (void)n; (void)v; (void)b; (void)e; (void)p; (void)pc; (void)out;
  return 7;
}

int parallax_plugin_register(const px_host* host) {
#if defined(BAD_BUILTIN)
  const char* name = "As Is";
#elif defined(BAD_DUPLICATE)
  const char* name = "Value squared";
#elif defined(BAD_LATIN1)
  const char* name = "Funci\xf3n";
#else
  const char* name = "Always fails";
#endif
  px_function f = {name, PX_COMPOSE, "none", "test", NULL, 0, 0, 0, NULL, fails, NULL, NULL};
  return host->register_function(host->registry, &f);
}
#endif
