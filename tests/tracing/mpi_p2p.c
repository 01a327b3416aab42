/* Point-to-point messages completed by every MPI completion family, for the golden test
 * tests/golden/tracing_mpi_p2p.sh. Run on 4 ranks (any count >= 2 works).
 *
 * Phase p (0..11) sends K messages from every rank to the next rank of a ring with tag p;
 * message i of phase p has Count(p, i) ints, so a receive paired with the wrong send shows as a
 * size mismatch. The receives of phases 0-7 are completed in the reverse of their posting order
 * (the request array is reversed), which is the case where numbering receives by completion
 * pairs them wrongly. Phase 8 uses persistent requests (two rounds: Startall + Waitall, then
 * Start + Wait), 9 matched probes (Mprobe/Mrecv, Improbe/Imrecv), 10 Sendrecv, 11 Issend.
 * Then one message in a split communicator (pairs of ranks 0-2, 1-3, tag 100) and one receive
 * that is cancelled (reported by the merge, not a message).
 *
 * Messages per rank: 8K + 2K + K + K + K + 1 = 13K + 1. */
#include <mpi.h>
#include <stdio.h>

#define K 4
#define MAX_INTS 64

enum {
  kWait,
  kWaitall,
  kWaitany,
  kWaitsome,
  kTest,
  kTestall,
  kTestany,
  kTestsome,
  kPersistent,
  kMprobe,
  kSendrecv,
  kIssend,
  kPhases
};

static int rank, size, next, prev;
static int sendbuf[K][MAX_INTS], recvbuf[K][MAX_INTS];

static int Count(int phase, int i) { return phase * K + i + 1; }

/* Completes the K requests (posted in order 0..K-1) with one family, visiting them reversed. */
static void Complete(int family, MPI_Request* posted) {
  MPI_Request req[K];
  int indices[K], done = 0, out, index, flag, i;
  for (i = 0; i < K; ++i) req[i] = posted[K - 1 - i];
  switch (family) {
    case kWait:
      for (i = 0; i < K; ++i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
      break;
    case kWaitall:
      MPI_Waitall(K, req, MPI_STATUSES_IGNORE);
      break;
    case kWaitany:
      for (i = 0; i < K; ++i) MPI_Waitany(K, req, &index, MPI_STATUS_IGNORE);
      break;
    case kWaitsome:
      while (done < K) {
        MPI_Waitsome(K, req, &out, indices, MPI_STATUSES_IGNORE);
        done += out;
      }
      break;
    case kTest:
      for (i = 0; i < K; ++i)
        for (flag = 0; !flag;) MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
      break;
    case kTestall:
      for (flag = 0; !flag;) MPI_Testall(K, req, &flag, MPI_STATUSES_IGNORE);
      break;
    case kTestany:
      while (done < K) {
        MPI_Testany(K, req, &index, &flag, MPI_STATUS_IGNORE);
        if (flag && index != MPI_UNDEFINED) ++done;
      }
      break;
    case kTestsome:
      while (done < K) {
        MPI_Testsome(K, req, &out, indices, MPI_STATUSES_IGNORE);
        if (out != MPI_UNDEFINED) done += out;
      }
      break;
  }
}

static void NonBlockingPhase(int phase) {
  MPI_Request recv[K], send[K];
  int i;
  for (i = 0; i < K; ++i)
    MPI_Irecv(recvbuf[i], MAX_INTS, MPI_INT, prev, phase, MPI_COMM_WORLD, &recv[i]);
  for (i = 0; i < K; ++i) {
    if (phase == kIssend)
      MPI_Issend(sendbuf[i], Count(phase, i), MPI_INT, next, phase, MPI_COMM_WORLD, &send[i]);
    else
      MPI_Isend(sendbuf[i], Count(phase, i), MPI_INT, next, phase, MPI_COMM_WORLD, &send[i]);
  }
  Complete(phase == kIssend ? kWaitall : phase, recv);
  MPI_Waitall(K, send, MPI_STATUSES_IGNORE);
}

static void PersistentPhase(void) {
  MPI_Request req[2 * K];
  int i;
  for (i = 0; i < K; ++i) {
    MPI_Recv_init(recvbuf[i], MAX_INTS, MPI_INT, prev, kPersistent, MPI_COMM_WORLD, &req[i]);
    MPI_Send_init(sendbuf[i], Count(kPersistent, i), MPI_INT, next, kPersistent, MPI_COMM_WORLD,
                  &req[K + i]);
  }
  MPI_Startall(2 * K, req);
  MPI_Waitall(2 * K, req, MPI_STATUSES_IGNORE);
  for (i = 0; i < 2 * K; ++i) MPI_Start(&req[i]);
  for (i = 2 * K - 1; i >= 0; --i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  for (i = 0; i < 2 * K; ++i) MPI_Request_free(&req[i]);
}

static void ProbePhase(void) {
  MPI_Request send[K], recv;
  MPI_Message msg;
  MPI_Status st;
  int i, n, flag;
  for (i = 0; i < K; ++i)
    MPI_Isend(sendbuf[i], Count(kMprobe, i), MPI_INT, next, kMprobe, MPI_COMM_WORLD, &send[i]);
  for (i = 0; i < K; ++i) {
    if (i % 2 == 0) {
      MPI_Mprobe(prev, kMprobe, MPI_COMM_WORLD, &msg, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      MPI_Mrecv(recvbuf[i], n, MPI_INT, &msg, MPI_STATUS_IGNORE);
    } else {
      for (flag = 0; !flag;) MPI_Improbe(prev, kMprobe, MPI_COMM_WORLD, &flag, &msg, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      MPI_Imrecv(recvbuf[i], n, MPI_INT, &msg, &recv);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
    }
  }
  MPI_Waitall(K, send, MPI_STATUSES_IGNORE);
}

static void SendrecvPhase(void) {
  int i;
  for (i = 0; i < K; ++i)
    MPI_Sendrecv(sendbuf[i], Count(kSendrecv, i), MPI_INT, next, kSendrecv, recvbuf[i], MAX_INTS,
                 MPI_INT, prev, kSendrecv, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Pairs (0,2) and (1,3): one message each way inside the split communicator, tag 100. */
static void SplitPhase(void) {
  MPI_Comm half;
  MPI_Request req[2];
  int hrank, hsize;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  if (hsize > 1) {
    int peer = (hrank + 1) % hsize, from = (hrank + hsize - 1) % hsize;
    MPI_Irecv(recvbuf[0], MAX_INTS, MPI_INT, from, 100, half, &req[0]);
    MPI_Isend(sendbuf[0], 2, MPI_INT, peer, 100, half, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  MPI_Comm_free(&half);
}

static void CancelledReceive(void) {
  MPI_Request req;
  MPI_Irecv(recvbuf[0], 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
  int phase;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;
  for (phase = 0; phase < kPhases; ++phase) {
    if (phase == kPersistent)
      PersistentPhase();
    else if (phase == kMprobe)
      ProbePhase();
    else if (phase == kSendrecv)
      SendrecvPhase();
    else
      NonBlockingPhase(phase);
  }
  SplitPhase();
  CancelledReceive();
  if (rank == 0) printf("mpi_p2p: %d ranks, %d messages per rank\n", size, 13 * K + 1);
  MPI_Finalize();
  return 0;
}
