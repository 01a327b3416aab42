/* MPI_Win_test, for tests/golden/tracing_mpi_win_test.sh (exactly 2 ranks): rank 1 exposes a
 * window (MPI_Win_post) to rank 0 and polls with MPI_Win_test until the epoch is complete; rank 0
 * waits for rank 1's "go" message (tag 5), then puts 4 integers (MPI_Win_start, MPI_Put,
 * MPI_Win_complete). Rank 1 sends "go" only after a first MPI_Win_test, which must return false
 * (rank 0 has not even started its access epoch), so there are at least two calls and the first
 * one precedes the origin's MPI_Win_start. Rank 1 prints how many calls it made ("win_test calls
 * N"), which the trace must show; wrong data print "bad data". */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int rank, size, buf[4] = {0, 0, 0, 0}, data[4] = {11, 22, 33, 44}, flag = 0, calls = 0, go = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, peer;
  int other = 1 - rank;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &other, &peer);
  if (rank == 1) {
    MPI_Win_post(peer, 0, win);
    MPI_Win_test(win, &flag);
    ++calls;
    if (flag) printf("bad data: the first MPI_Win_test completed an epoch not yet started\n");
    MPI_Send(&go, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    while (!flag) {
      usleep(200); /* keeps the number of calls small on a busy machine */
      MPI_Win_test(win, &flag);
      ++calls;
    }
    for (int i = 0; i < 4; ++i)
      if (buf[i] != data[i]) printf("bad data: buf[%d] = %d, expected %d\n", i, buf[i], data[i]);
    printf("win_test calls %d\n", calls);
  } else {
    MPI_Recv(&go, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_start(peer, 0, win);
    MPI_Put(data, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    MPI_Win_complete(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
