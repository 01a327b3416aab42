! tests/tracing/mpi_fortran.f90 with the Fortran 2008 bindings (use mpi_f08), for
! tests/golden/tracing_mpi_fortran.sh: the same calls, so the same records. Most calls leave out
! the optional ierror; the received data are checked (the buffers must reach MPI as addresses).
! Each of 4 ranks sends K messages to the next rank with Isend (tag 1,
! i+1 integers), receives them with Irecv completed by Waitsome, exchanges one message with
! Send/Recv (tag 2, 3 integers), then Allreduce, Bcast, Iallreduce + Wait, Gatherv (rank+1
! integers to rank 0), Barrier in a row of a 2x2 Cartesian grid and in a split communicator.
program mpi_fortran08
  use mpi_f08
  implicit none
  integer, parameter :: K = 4
  integer :: ierr, rank, nranks, next, prev, i, done, outcount
  type(MPI_Request) :: sreq(K), rreq(K), req
  type(MPI_Comm) :: cart, row, half
  type(MPI_Status) :: status
  integer :: indices(K), sbuf(16, K), rbuf(16, K)
  integer :: x, y, z, j
  integer :: counts(4), displs(4), gathered(16), dims(2)
  logical :: periods(2), keep(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  sbuf = rank
  do i = 1, K
    call MPI_Irecv(rbuf(1, i), 16, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, rreq(i))
  end do
  do i = 1, K
    call MPI_Isend(sbuf(1, i), i, MPI_INTEGER, next, 1, MPI_COMM_WORLD, sreq(i))
  end do
  done = 0
  do while (done < K)
    call MPI_Waitsome(K, rreq, outcount, indices, MPI_STATUSES_IGNORE)
    done = done + outcount
  end do
  call MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. any(rbuf(1, :) /= prev)) print '(a)', 'mpi_fortran08: bad data'
  rbuf = -1
  if (mod(rank, 2) == 0) then
    call MPI_Send(sbuf, 3, MPI_INTEGER, next, 2, MPI_COMM_WORLD)
    call MPI_Recv(rbuf, 16, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, status, ierr)
  else
    call MPI_Recv(rbuf, 16, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(sbuf, 3, MPI_INTEGER, next, 2, MPI_COMM_WORLD)
  end if
  if (status%MPI_SOURCE /= prev .or. rbuf(3, 1) /= prev .or. rbuf(4, 1) /= -1) &
    print '(a)', 'mpi_fortran08: bad data'
  x = rank
  call MPI_Allreduce(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Bcast(y, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call MPI_Iallreduce(x, z, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  do j = 1, 4
    counts(j) = j
    displs(j) = (j - 1) * j / 2
  end do
  call MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, 0, &
                   MPI_COMM_WORLD)
  dims = 2
  periods = .false.
  keep = (/ .false., .true. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
  call MPI_Cart_sub(cart, keep, row)
  call MPI_Barrier(row)
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  call MPI_Barrier(half)
  call MPI_Comm_free(half, ierr)
  if (rank == 0) print '(a,i0)', 'mpi_fortran08: sum of ranks ', y
  call MPI_Finalize(ierr)
end program mpi_fortran08
