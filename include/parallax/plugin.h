/* Parallax plug-in ABI: semantic functions in a shared library, loaded with `--plugin lib.so`
 * or PARALLAX_PLUGINS (docs/plugins.md). Plain C: no C++ type crosses the boundary, every struct
 * is versioned by PARALLAX_PLUGIN_ABI_VERSION, and new fields are only ever added in a new
 * version.
 *
 * A plug-in exports two functions:
 *   uint32_t parallax_plugin_abi_version(void);              returns PARALLAX_PLUGIN_ABI_VERSION
 *   int parallax_plugin_register(const px_host* host);       registers its functions, 0 = ok
 * PARALLAX_PLUGIN_ABI() defines the first. The host checks the version before calling anything
 * else, and refuses the library when it differs. */
#ifndef PARALLAX_PLUGIN_H_
#define PARALLAX_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PARALLAX_PLUGIN_ABI_VERSION 1u

/* Kinds of functions. */
enum { PX_THREAD = 1, PX_COMPOSE = 2, PX_DERIVED = 3 };

/* Records that start an interval of a thread function (px_function.records, a bit mask). */
enum { PX_RECORD_STATES = 1, PX_RECORD_EVENTS = 2, PX_RECORD_SENDS = 4, PX_RECORD_RECEIVES = 8 };

/* px_record.kind */
enum { PX_NONE = 0, PX_STATE_BEGIN = 1, PX_STATE_END = 2, PX_EVENT = 3, PX_SEND = 4, PX_RECEIVE = 5 };

/* The record that starts an interval of a thread function; fields that do not apply are 0. */
typedef struct px_record {
  int32_t kind;         /* PX_NONE: the start of the trace */
  uint16_t cpu;         /* 1-based, 0 = unknown */
  uint16_t reserved;
  uint32_t thread;      /* 0-based thread of the row */
  uint32_t partner;     /* send/receive: 0-based thread on the other side */
  uint64_t time;        /* trace units */
  int64_t state;        /* state begin/end: the state value */
  uint64_t event_type;  /* event: type, and value scaled by the .pcf precision */
  double event_value;
  int64_t size, tag;    /* send/receive */
} px_record;

/* One parameter's values in a call (the cfg's, or the defaults). */
typedef struct px_values {
  const double* values;
  size_t count;
} px_values;

/* Kernels compute out[i] for n intervals; `params` has one entry per declared parameter. They
 * return 0, or a non-zero code that makes the request fail with an error naming the function.
 * The host calls them with batches of up to 1024 consecutive intervals of a row, except stateful
 * thread functions, which get one interval per call (n = 1: `previous` is the value just
 * computed); a thread function that is not stateful gets `previous` 0. They are called from
 * several threads at once: keep them free of shared mutable state. */
typedef int (*px_thread_kernel)(void* user, size_t n, const px_record* records, const double* previous,
                                const px_values* params, size_t param_count, double* out);
typedef int (*px_compose_kernel)(void* user, size_t n, const double* values, const uint64_t* begins,
                                 const uint64_t* ends, const px_values* params, size_t param_count,
                                 double* out);
typedef int (*px_derived_kernel)(void* user, size_t n, const double* a, const double* b,
                                 const px_values* params, size_t param_count, double* out);

typedef struct px_param {
  const char* name;
  const double* defaults;
  size_t default_count;
} px_param;

/* A function to register. The host copies every string and array during the call. */
typedef struct px_function {
  const char* name;       /* unique among all functions; no braces, commas or line breaks */
  int32_t kind;           /* PX_THREAD, PX_COMPOSE or PX_DERIVED */
  const char* info;       /* what the values mean, as `parallax functions` spells it ("none",
                             "state", "event value", "same as below", ...); NULL = "same as below" */
  const char* doc;        /* one line for `parallax functions`; may be NULL */
  const px_param* params;
  size_t param_count;
  uint32_t records;       /* PX_THREAD: PX_RECORD_* mask */
  int32_t stateful;       /* PX_THREAD: non-zero to evaluate from the start of the trace, with
                             `previous` holding the value of the interval before (one interval
                             per call) */
  px_thread_kernel thread;
  px_compose_kernel compose;
  px_derived_kernel derived;
  void* user;             /* passed back to the kernel */
} px_function;

typedef struct px_registry px_registry; /* opaque, owned by the host */

/* What the host hands to parallax_plugin_register. */
typedef struct px_host {
  uint32_t abi_version;   /* the host's PARALLAX_PLUGIN_ABI_VERSION */
  px_registry* registry;
  /* Returns 0 when the function is accepted; non-zero when refused (the host reports why). */
  int (*register_function)(px_registry* registry, const px_function* function);
} px_host;

typedef uint32_t (*px_abi_version_fn)(void);
typedef int (*px_register_fn)(const px_host* host);

#define PARALLAX_PLUGIN_ABI()                                         \
  uint32_t parallax_plugin_abi_version(void) { return PARALLAX_PLUGIN_ABI_VERSION; }

#ifdef __cplusplus
}
#endif

#endif /* PARALLAX_PLUGIN_H_ */
