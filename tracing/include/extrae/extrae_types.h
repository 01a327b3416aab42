/* Extrae's user API types (parallax tracing library, tracing/README.md "Extrae's API"): the
 * names and layouts programs written for Extrae use, so that they build unchanged against
 * libparallax-trace. Written for Parallax from Extrae's documented API. */
#ifndef PARALLAX_EXTRAE_TYPES_H
#define PARALLAX_EXTRAE_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned extrae_type_t;
typedef unsigned long long extrae_value_t;
typedef unsigned extrae_comm_tag_t;
typedef unsigned extrae_comm_partner_t;
typedef long long extrae_comm_id_t;

enum extrae_USER_COMMUNICATION_TYPES { EXTRAE_USER_SEND = 0, EXTRAE_USER_RECV };
enum extrae_USER_FUNCTION {
  EXTRAE_USER_FUNCTION_NONE = -1,
  EXTRAE_USER_FUNCTION_LEAVE = 0,
  EXTRAE_USER_FUNCTION_ENTER
};
typedef enum extrae_USER_FUNCTION extrae_user_function_t;
typedef enum extrae_USER_COMMUNICATION_TYPES extrae_user_communication_types_t;

/* What Extrae_is_initialized answers. */
typedef enum {
  EXTRAE_NOT_INITIALIZED = 0,
  EXTRAE_INITIALIZED_EXTRAE_INIT,
  EXTRAE_INITIALIZED_MPI_INIT,
  EXTRAE_INITIALIZED_SHMEM_INIT
} extrae_init_type_t;

#define EXTRAE_COMM_PARTNER_MYSELF ((extrae_comm_partner_t)0xFFFFFFFF)

struct extrae_UserCommunication {
  extrae_user_communication_types_t type;
  extrae_comm_tag_t tag;
  unsigned size;
  extrae_comm_partner_t partner;
  extrae_comm_id_t id;
};
typedef struct extrae_UserCommunication extrae_user_communication_t;

struct extrae_CombinedEvents {
  int HardwareCounters; /* booleans */
  int Callers;
  int UserFunction;
  unsigned nEvents;
  extrae_type_t* Types;
  extrae_value_t* Values;
  unsigned nCommunications;
  extrae_user_communication_t* Communications;
};
typedef struct extrae_CombinedEvents extrae_combined_events_t;

#ifdef __cplusplus
}
#endif

#endif
