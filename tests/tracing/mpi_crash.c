/* An MPI job that dies, for tests/golden/tracing_crash.sh: `pxt_test_mpi_crash MODE N S` runs N
 * steps of { computation, ring exchange with MPI_Sendrecv, an event (type 1000) with the step }
 * on every rank; at step S, MODE "segv" makes rank 1 store through a null pointer and "abort"
 * makes rank 2 call MPI_Abort; "clean" runs to the end. The launcher then ends the other ranks.
 * MODE "pcontrol" stops recording with MPI_Pcontrol(0) at step S and resumes it with
 * MPI_Pcontrol(1) ten steps later (Extrae's convention). MODE "system" runs to the end after rank 1 started, with system(), the program named by the
 * fourth argument (a traced helper, which must not claim rank 1).
 * The records before the end are the same in every mode. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parallax/trace.h"

static volatile double sink;

/* A store through a null pointer: a real SIGSEGV (sanitizer builds would report it before the
 * fault happens, so their check of it is off here). */
__attribute__((no_sanitize("undefined"), noinline)) static void Fault(void) {
  volatile int* volatile nowhere = 0;
  *nowhere = 1;
}

static void Compute(int units) {
  double x = 1.0;
  for (int i = 0; i < units * 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "clean";
  const int steps = argc > 2 ? atoi(argv[2]) : 100;
  const int stop = argc > 3 ? atoi(argv[3]) : steps / 2;
  PXT_NAME_EVENT_TYPE(1000, "Step");
  if (strcmp(mode, "system") == 0 && rank == 1 && argc > 4) {
    if (system(argv[4]) != 0) fprintf(stderr, "the helper failed\n");
  }
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double out = rank, in = 0;
  for (int step = 1; step <= steps; ++step) {
    if (step == stop && strcmp(mode, "segv") == 0 && rank == 1) Fault();
    if (step == stop && strcmp(mode, "abort") == 0 && rank == 2) MPI_Abort(MPI_COMM_WORLD, 3);
    if (strcmp(mode, "pcontrol") == 0 && step == stop) MPI_Pcontrol(0);
    if (strcmp(mode, "pcontrol") == 0 && step == stop + 10) MPI_Pcontrol(1);
    PXT_EVENT(1000, step);
    Compute(50);
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, next, step, &in, 1, MPI_DOUBLE, prev, step, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
