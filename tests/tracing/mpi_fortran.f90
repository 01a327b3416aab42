! A Fortran MPI program (use mpi) for tests/golden/tracing_mpi_fortran.sh: the same records as
! the equivalent C program. Each of 4 ranks sends K messages to the next rank with Isend (tag 1,
! i+1 integers), receives them with Irecv completed by Waitsome, exchanges one message with
! Send/Recv (tag 2, 3 integers), then Allreduce, Bcast, Iallreduce + Wait, Gatherv (rank+1
! integers to rank 0), Barrier in a row of a 2x2 Cartesian grid and in a split communicator.
program mpi_fortran
  use mpi
  implicit none
  integer, parameter :: K = 4
  integer :: ierr, rank, nranks, next, prev, i, done, outcount, half
  integer :: sreq(K), rreq(K), indices(K)
  integer :: sbuf(16, K), rbuf(16, K), status(MPI_STATUS_SIZE)
  integer :: x, y, z, req, cart, row, j
  integer :: counts(4), displs(4), gathered(16), dims(2)
  logical :: periods(2), keep(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  sbuf = rank
  do i = 1, K
    call MPI_Irecv(rbuf(1, i), 16, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, rreq(i), ierr)
  end do
  do i = 1, K
    call MPI_Isend(sbuf(1, i), i, MPI_INTEGER, next, 1, MPI_COMM_WORLD, sreq(i), ierr)
  end do
  done = 0
  do while (done < K)
    call MPI_Waitsome(K, rreq, outcount, indices, MPI_STATUSES_IGNORE, ierr)
    done = done + outcount
  end do
  call MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE, ierr)
  if (mod(rank, 2) == 0) then
    call MPI_Send(sbuf, 3, MPI_INTEGER, next, 2, MPI_COMM_WORLD, ierr)
    call MPI_Recv(rbuf, 16, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, status, ierr)
  else
    call MPI_Recv(rbuf, 16, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(sbuf, 3, MPI_INTEGER, next, 2, MPI_COMM_WORLD, ierr)
  end if
  x = rank
  call MPI_Allreduce(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(y, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Iallreduce(x, z, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  do j = 1, 4
    counts(j) = j
    displs(j) = (j - 1) * j / 2
  end do
  call MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, 0, &
                   MPI_COMM_WORLD, ierr)
  dims = 2
  periods = .false.
  keep = (/ .false., .true. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_sub(cart, keep, row, ierr)
  call MPI_Barrier(row, ierr)
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Barrier(half, ierr)
  call MPI_Comm_free(half, ierr)
  if (rank == 0) print '(a,i0)', 'mpi_fortran: sum of ranks ', y
  call MPI_Finalize(ierr)
end program mpi_fortran
