/* A program that dies, for tests/golden/tracing_crash.sh: `pxt_test_crash MODE N` runs N steps
 * on the main thread and a worker thread, each recording the step as an event (type 1000, the
 * main thread; 1001, the worker) inside a user state, and then ends by MODE: "clean" (returns),
 * "term" (SIGTERM to itself), "segv" (a null store), "abort" (abort()), "kill9" (SIGKILL to
 * itself), or "fork" (a child made by fork() without exec records events of its own and exits
 * before the steps; the parent then ends cleanly). The records before the end are the same in
 * every mode: a crashed run's trace must hold a prefix of a clean run's. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parallax/trace.h"

static volatile double sink;

/* A store through a null pointer: a real SIGSEGV (sanitizer builds would report it before the
 * fault happens, so their check of it is off here). */
__attribute__((no_sanitize("undefined"), noinline)) static void Fault(void) {
  volatile int* volatile nowhere = 0;
  *nowhere = 1;
}
static int steps;
static pthread_barrier_t done;

static void Compute(int units) {
  double x = 1.0;
  for (int i = 0; i < units * 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

static void* Worker(void* arg) {
  (void)arg;
  for (int i = 1; i <= steps; ++i) {
    PXT_STATE_ENTER(101);
    PXT_EVENT(1001, i);
    Compute(20);
    PXT_STATE_LEAVE();
  }
  pthread_barrier_wait(&done);
  pause(); /* the main thread ends the process */
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "clean";
  steps = argc > 2 ? atoi(argv[2]) : 1000;
  PXT_START();
  PXT_NAME_STATE(100, "Main step");
  PXT_NAME_STATE(101, "Worker step");
  PXT_NAME_EVENT_TYPE(1000, "Main step");
  PXT_NAME_EVENT_TYPE(1001, "Worker step");
  if (strcmp(mode, "fork") == 0) {
    pid_t child = fork();
    if (child == 0) {
      for (int i = 1; i <= 50; ++i) PXT_EVENT(1000, -i);  /* not in any trace */
      exit(0);
    }
    waitpid(child, NULL, 0);
  }
  pthread_barrier_init(&done, NULL, 2);
  pthread_t worker;
  pthread_create(&worker, NULL, Worker, NULL);
  for (int i = 1; i <= steps; ++i) {
    PXT_STATE_ENTER(100);
    PXT_EVENT(1000, i);
    Compute(20);
    PXT_STATE_LEAVE();
  }
  pthread_barrier_wait(&done);
  if (strcmp(mode, "term") == 0) raise(SIGTERM);
  if (strcmp(mode, "segv") == 0) Fault();
  if (strcmp(mode, "abort") == 0) abort();
  if (strcmp(mode, "kill9") == 0) raise(SIGKILL);
  printf("%d steps\n", steps);
  return 0;
}
