/* Extrae's user API (parallax tracing library, tracing/README.md "Extrae's API"): a program
 * written for Extrae includes this and links -lparallax-trace instead of Extrae's libraries.
 * Events, user functions, event-type labels, counters with an event, shutdown/restart and the
 * version behave as in Extrae; user communications and hardware-counter set changes are
 * accepted and said not to be recorded (once, on stderr). Written for Parallax from Extrae's
 * documented API. */
#ifndef PARALLAX_EXTRAE_USER_EVENTS_H
#define PARALLAX_EXTRAE_USER_EVENTS_H

#include "extrae_types.h"

#ifdef __cplusplus
extern "C" {
#endif

void Extrae_init(void);
extrae_init_type_t Extrae_is_initialized(void);
void Extrae_fini(void);
void Extrae_flush(void);
unsigned long long Extrae_user_function(unsigned enter);
void Extrae_event(extrae_type_t type, extrae_value_t value);
void Extrae_nevent(unsigned count, extrae_type_t* types, extrae_value_t* values);
void Extrae_eventandcounters(extrae_type_t type, extrae_value_t value);
void Extrae_neventandcounters(unsigned count, extrae_type_t* types, extrae_value_t* values);
void Extrae_define_event_type(extrae_type_t* type, char* type_description, unsigned* nvalues,
                              extrae_value_t* values, char** values_description);
void Extrae_shutdown(void);
void Extrae_restart(void);
void Extrae_counters(void);
void Extrae_previous_hwc_set(void);
void Extrae_next_hwc_set(void);
void Extrae_set_tracing_tasks(unsigned from, unsigned to);
void Extrae_set_options(int options);
void Extrae_init_UserCommunication(struct extrae_UserCommunication* c);
void Extrae_init_CombinedEvents(struct extrae_CombinedEvents* e);
void Extrae_emit_CombinedEvents(struct extrae_CombinedEvents* e);
void Extrae_get_version(unsigned* major, unsigned* minor, unsigned* revision);

/* Extrae's older prefixes for the same calls. */
#define SEQtrace_init Extrae_init
#define SEQtrace_fini Extrae_fini
#define SEQtrace_event Extrae_event
#define SEQtrace_nevent Extrae_nevent
#define MPItrace_event Extrae_event
#define MPItrace_nevent Extrae_nevent
#define OMPtrace_event Extrae_event
#define OMPItrace_event Extrae_event

#define EXTRAE_DISABLE_ALL_OPTIONS (0)
#define EXTRAE_CALLER_OPTION (1 << 0)
#define EXTRAE_HWC_OPTION (1 << 1)
#define EXTRAE_MPI_HWC_OPTION (1 << 2)
#define EXTRAE_MPI_OPTION (1 << 3)
#define EXTRAE_OMP_OPTION (1 << 4)
#define EXTRAE_OMP_HWC_OPTION (1 << 5)
#define EXTRAE_UF_HWC_OPTION (1 << 6)
#define EXTRAE_PTHREAD_OPTION (1 << 7)
#define EXTRAE_PTHREAD_HWC_OPTION (1 << 8)
#define EXTRAE_SAMPLING_OPTION (1 << 9)
#define EXTRAE_ENABLE_ALL_OPTIONS ((1 << 10) - 1)

#ifdef __cplusplus
}
#endif

#endif
