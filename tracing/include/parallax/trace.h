/* Parallax tracing library: the C API programs call to write Paraver traces.
 *
 * Plain C (C99) so that C, C++ and Fortran-through-C programs can use it; every symbol is
 * prefixed `pxt_` / `PXT_`. Prefer the upper-case macros: they record the source file and line
 * of the call (shown as "file.c:42" labels by Paraver and Parallax), and they compile to
 * nothing when PXT_DISABLE is defined, so instrumentation can stay in production code.
 *
 * Every function is cheap and safe to call before pxt_start() or after pxt_stop(): it then
 * does nothing. Threads are registered the first time they record something.
 * Runtime options come from environment variables (tracing/README.md has the table).
 */
#ifndef PARALLAX_TRACE_H_
#define PARALLAX_TRACE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Paraver state numbers used by the library (Extrae's numbering, so Paraver cfgs work). */
#define PXT_STATE_IDLE 0
#define PXT_STATE_RUNNING 1
#define PXT_STATE_WAITING_MESSAGE 3
#define PXT_STATE_BLOCKING_SEND 4
#define PXT_STATE_SYNCHRONIZATION 5
#define PXT_STATE_TEST_PROBE 6
#define PXT_STATE_FORK_JOIN 7
#define PXT_STATE_WAIT_ALL 8
#define PXT_STATE_IMMEDIATE_SEND 10
#define PXT_STATE_IMMEDIATE_RECEIVE 11
#define PXT_STATE_IO 12
#define PXT_STATE_TRACING_DISABLED 14
#define PXT_STATE_GROUP_COMMUNICATION 13
#define PXT_STATE_OTHERS 15
#define PXT_STATE_SEND_RECEIVE 16
#define PXT_STATE_REMOTE_MEMORY_ACCESS 20
#define PXT_STATE_ATOMIC_MEMORY_OPERATION 21
#define PXT_STATE_MEMORY_ORDERING 22
#define PXT_STATE_DISTRIBUTED_LOCKING 23
/* The library's own buffer flushes, so that tracing intrusion is visible. */
#define PXT_STATE_FLUSHING 32
/* First state number free for programs (smaller ones are predefined above). */
#define PXT_STATE_USER_FIRST 100

/* Event types written by the library itself. */
#define PXT_TYPE_FLUSHING 40000003u        /* 1 when a buffer flush begins, 0 when it ends */
/* Written by the merge at the last record of each thread of a process that did not end
   normally: the signal that ended it, 1000 for MPI_Abort, 0 when it stopped without a word
   (SIGKILL, a lost node). */
#define PXT_TYPE_ABNORMAL_END 40000099u
#define PXT_TYPE_SOURCE_LOCATION 40001000u /* value = location id, labelled "file.c:42" */
#define PXT_TYPE_PTHREAD 61000000u         /* pthread call (libparallax-pthread.so) */
/* POSIX I/O (libparallax-io.so), Extrae's types: the call (Extrae's values, 0 leaving it), the
   descriptor and the bytes asked for, with the call's entry; the bytes the call returned
   (ours) with its exit. */
#define PXT_TYPE_IO_CALL 40000004u
#define PXT_TYPE_IO_DESCRIPTOR 40000010u
#define PXT_TYPE_IO_SIZE 40000011u
#define PXT_TYPE_IO_RESULT 40001011u
/* Dynamic memory (libparallax-io.so with PXT_MALLOC=1), Extrae's types: the call (0 leaving
   it), the size asked for, the pointer passed in (free, realloc), the pointer returned. */
#define PXT_TYPE_DYNAMIC_MEMORY 40000040u
#define PXT_TYPE_DYNAMIC_MEMORY_SIZE 40000041u
#define PXT_TYPE_DYNAMIC_MEMORY_IN 40000042u
#define PXT_TYPE_DYNAMIC_MEMORY_OUT 40000043u
/* Extrae's tracing mode, written when a thread starts: 1 detail, 2 CPU bursts (PXT_BURSTS). */
#define PXT_TYPE_TRACING_MODE 40000018u
/* Written by the merge on every thread when a process stopped recording at its size limit
   (PXT_MAX_SIZE): value 1, at the time it stopped. */
#define PXT_TYPE_SIZE_LIMIT 40000098u
#define PXT_TYPE_MPI_P2P 50000001u         /* Extrae's MPI call values */
#define PXT_TYPE_MPI_COLLECTIVE 50000002u
#define PXT_TYPE_MPI_OTHER 50000003u
#define PXT_TYPE_MPI_RMA 50000004u
#define PXT_TYPE_MPI_IO 50000005u
/* With the entry of a collective (Extrae's types): bytes sent and received by this process,
   the root's rank in the communicator (collectives with a root), the communicator's id (the
   Paraver communicator line of the .prv header). */
#define PXT_TYPE_MPI_COLLECTIVE_SEND_BYTES 50100001u
#define PXT_TYPE_MPI_COLLECTIVE_RECV_BYTES 50100002u
#define PXT_TYPE_MPI_COLLECTIVE_ROOT 50100003u
#define PXT_TYPE_MPI_COLLECTIVE_COMM 50100004u
/* With the entry of a one-sided call (Extrae's types): bytes moved, target rank. */
#define PXT_TYPE_MPI_RMA_BYTES 50001000u
#define PXT_TYPE_MPI_RMA_TARGET 50001001u
/* With the entry of an MPI-IO data call: bytes read or written (ours, see compatibility.md). */
#define PXT_TYPE_MPI_IO_BYTES 50001100u

/* One call site of a PXT_ macro: a static object per call site, registered on first use. */
typedef struct pxt_location {
  const char* file;
  int line;
  int id; /* 0 until registered; written by the library only */
} pxt_location;

/* Starts tracing (idempotent). Returns 0 when tracing is on, -1 when disabled (PXT_ENABLED=0)
 * or when the output folder cannot be created. */
int pxt_start(void);
/* Flushes every buffer, closes the process file and, for a single process, writes the merged
 * .prv/.pcf/.row. Called automatically at exit when pxt_start() was called. */
void pxt_stop(void);
/* 1 between pxt_start() and pxt_stop(). */
int pxt_is_active(void);

/* A user event (Paraver event type and value) at the current time on the calling thread. */
void pxt_event(uint32_t type, int64_t value);
/* The calling thread enters a user state (nested states stack) / leaves the current one. */
void pxt_state_enter(uint32_t state);
void pxt_state_leave(void);

/* The same, also recording the call site as a PXT_TYPE_SOURCE_LOCATION event. */
void pxt_event_at(pxt_location* where, uint32_t type, int64_t value);
void pxt_state_enter_at(pxt_location* where, uint32_t state);

/* Labels written to the .pcf: an event type, one value of a type, a state. The strings are
 * copied. */
void pxt_name_event_type(uint32_t type, const char* label);
void pxt_name_event_value(uint32_t type, int64_t value, const char* label);
void pxt_name_state(uint32_t state, const char* label);

/* The library's clock (nanoseconds, this process's time base). */
uint64_t pxt_now(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(PXT_DISABLE)
#define PXT_START() ((void)0)
#define PXT_STOP() ((void)0)
#define PXT_EVENT(type, value) ((void)0)
#define PXT_STATE_ENTER(state) ((void)0)
#define PXT_STATE_LEAVE() ((void)0)
#define PXT_NAME_EVENT_TYPE(type, label) ((void)0)
#define PXT_NAME_EVENT_VALUE(type, value, label) ((void)0)
#define PXT_NAME_STATE(state, label) ((void)0)
#else
#define PXT_START() ((void)pxt_start())
#define PXT_STOP() pxt_stop()
/* A static location per call site: its id is assigned once, so recording stays cheap. */
#define PXT_EVENT(type, value)                                     \
  do {                                                             \
    static pxt_location pxt_where_ = {__FILE__, __LINE__, 0};      \
    pxt_event_at(&pxt_where_, (uint32_t)(type), (int64_t)(value)); \
  } while (0)
#define PXT_STATE_ENTER(state)                                \
  do {                                                        \
    static pxt_location pxt_where_ = {__FILE__, __LINE__, 0}; \
    pxt_state_enter_at(&pxt_where_, (uint32_t)(state));       \
  } while (0)
#define PXT_STATE_LEAVE() pxt_state_leave()
#define PXT_NAME_EVENT_TYPE(type, label) pxt_name_event_type((uint32_t)(type), (label))
#define PXT_NAME_EVENT_VALUE(type, value, label) \
  pxt_name_event_value((uint32_t)(type), (int64_t)(value), (label))
#define PXT_NAME_STATE(state, label) pxt_name_state((uint32_t)(state), (label))
#endif

#endif /* PARALLAX_TRACE_H_ */
