/* For tests/golden/tracing_mpi_fortran_names.sh: calls Open MPI's Fortran routines (libmpi_mpifh)
 * from C under the four names a Fortran compiler may give them: `mpi_send_` (gfortran),
 * `mpi_send` (xlf, flang -fno-underscoring), `mpi_send__` (g77, -fsecond-underscore) and
 * `MPI_SEND` (upper case), with every argument passed by address as Fortran does. Each of the
 * four phases makes the same calls (Send/Recv, Irecv/Isend + Wait, Allreduce, Barrier) through
 * one spelling, on its own source line (the PHASE lines), with its own tags (10 + k, 20 + k);
 * MPI_Init, MPI_Comm_rank and MPI_Finalize go through three other spellings. Run on exactly 2 ranks. Received
 * data and error codes are checked ("bad data" on stdout). */
#include <mpi.h>
#include <stdio.h>

typedef MPI_Fint F;

/* A Fortran routine under its four names. */
#define FORTRAN_NAMES(lower, UPPER, args) \
  void lower##_ args;                     \
  void lower args;                        \
  void lower##__ args;                    \
  void UPPER args;
FORTRAN_NAMES(mpi_init, MPI_INIT, (F * ierr))
FORTRAN_NAMES(mpi_finalize, MPI_FINALIZE, (F * ierr))
FORTRAN_NAMES(mpi_comm_rank, MPI_COMM_RANK, (F * comm, F* rank, F* ierr))
FORTRAN_NAMES(mpi_send, MPI_SEND, (void* buf, F* n, F* type, F* dest, F* tag, F* comm, F* ierr))
FORTRAN_NAMES(mpi_recv, MPI_RECV,
              (void* buf, F* n, F* type, F* src, F* tag, F* comm, F* status, F* ierr))
FORTRAN_NAMES(mpi_isend, MPI_ISEND,
              (void* buf, F* n, F* type, F* dest, F* tag, F* comm, F* request, F* ierr))
FORTRAN_NAMES(mpi_irecv, MPI_IRECV,
              (void* buf, F* n, F* type, F* src, F* tag, F* comm, F* request, F* ierr))
FORTRAN_NAMES(mpi_wait, MPI_WAIT, (F * request, F* status, F* ierr))
FORTRAN_NAMES(mpi_allreduce, MPI_ALLREDUCE,
              (void* sbuf, void* rbuf, F* n, F* type, F* op, F* comm, F* ierr))
FORTRAN_NAMES(mpi_barrier, MPI_BARRIER, (F * comm, F* ierr))

static F world, integer, sum, rank;
static int errors;

static void Check(int ok, int phase, const char* what) {
  if (!ok) {
    printf("bad data: rank %d, phase %d: %s\n", (int)rank, phase, what);
    ++errors;
  }
}

/* One phase through one spelling of every routine: rank 0 sends 2 integers (tag 10 + k) and
 * receives 3 (tag 20 + k) with Irecv + Wait; rank 1 receives with Recv and sends with Isend +
 * Wait; then an Allreduce of one integer and a Barrier. One source line per phase. */
#define PHASE(k, send, recv, isend, irecv, wait, allreduce, barrier)                          \
  do {                                                                                          \
    F two = 2, three = 3, one = 1, t1 = 10 + (k), t2 = 20 + (k), other = 1 - rank, req, ierr;  \
    F status[sizeof(MPI_Status) / sizeof(F)];                                                   \
    int out[3] = {100 * (k) + (int)rank, 7, 8}, in[3] = {-1, -1, -1}, x = (int)rank + 1, s = 0; \
    if (rank == 0) {                                                                            \
      send(out, &two, &integer, &other, &t1, &world, &ierr);                                    \
      Check(ierr == MPI_SUCCESS, k, "send");                                                    \
      irecv(in, &three, &integer, &other, &t2, &world, &req, &ierr);                            \
      wait(&req, status, &ierr);                                                                \
      Check(ierr == MPI_SUCCESS && in[0] == 100 * (k) + 1 && in[2] == 8, k, "irecv");           \
    } else {                                                                                    \
      recv(in, &two, &integer, &other, &t1, &world, status, &ierr);                             \
      Check(ierr == MPI_SUCCESS && in[0] == 100 * (k) && in[1] == 7, k, "recv");                \
      isend(out, &three, &integer, &other, &t2, &world, &req, &ierr);                           \
      wait(&req, status, &ierr);                                                                \
      Check(ierr == MPI_SUCCESS, k, "isend");                                                   \
    }                                                                                           \
    allreduce(&x, &s, &one, &integer, &sum, &world, &ierr);                                     \
    Check(ierr == MPI_SUCCESS && s == 3, k, "allreduce");                                       \
    barrier(&world, &ierr);                                                                     \
  } while (0)

int main(void) {
  F ierr;
  int size = 0;
  mpi_init(&ierr); /* INIT */
  world = MPI_Comm_c2f(MPI_COMM_WORLD);
  integer = MPI_Type_c2f(MPI_INTEGER);
  sum = MPI_Op_c2f(MPI_SUM);
  mpi_comm_rank__(&world, &rank, &ierr); /* RANK */
  MPI_Comm_size(MPI_COMM_WORLD, &size);  /* SIZE */
  if (size != 2) {
    printf("bad data: run on 2 ranks, not %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  PHASE(0, mpi_send_, mpi_recv_, mpi_isend_, mpi_irecv_, mpi_wait_, mpi_allreduce_, mpi_barrier_);
  PHASE(1, mpi_send, mpi_recv, mpi_isend, mpi_irecv, mpi_wait, mpi_allreduce, mpi_barrier);
  PHASE(2, mpi_send__, mpi_recv__, mpi_isend__, mpi_irecv__, mpi_wait__, mpi_allreduce__,
        mpi_barrier__);
  PHASE(3, MPI_SEND, MPI_RECV, MPI_ISEND, MPI_IRECV, MPI_WAIT, MPI_ALLREDUCE, MPI_BARRIER);
  MPI_FINALIZE(&ierr); /* FINALIZE */
  if (rank == 0) printf("mpi_fortran_names: done, %d errors\n", errors);
  return errors != 0;
}
