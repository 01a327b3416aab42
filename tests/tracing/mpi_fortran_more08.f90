! tests/tracing/mpi_fortran_more.f90 with the Fortran 2008 bindings (`use mpi_f08`; the handles
! are derived types, most calls leave out the optional ierror), for
! tests/golden/tracing_mpi_fortran_more.sh: the same MPI calls as mpi_fortran_more.c in the same
! order, so the same records. Neighbourhood collectives, non-blocking and w-collectives, one-sided, MPI-IO (the file
! name is passed with trailing blanks), matched probes, Sendrecv_replace and the communicator
! constructors; received data are checked ("bad data" on stdout). 4 ranks, a folder argument.
module more_state08
  implicit none
  integer, parameter :: N = 4
  integer :: rank, errors = 0
  integer :: a(64), b(64)
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,a,a)', 'bad data: rank ', rank, ': ', what
      errors = errors + 1
    end if
  end subroutine
end module

program mpi_fortran_more08
  use mpi_f08
  use iso_c_binding, only: c_ptr, c_null_ptr, c_associated
  use more_state08
  implicit none
  integer :: ierr, size, i
  character(len=4096) :: folder

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  if (size /= N .or. command_argument_count() < 1) then
    if (rank == 0) print '(a)', 'mpi_fortran_more: run on 4 ranks with a folder argument'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call get_command_argument(1, folder)
  do i = 1, 64
    a(i) = 100 * rank + i - 1
  end do
  call neighbors()
  call collectives()
  call one_sided()
  call pscw()
  call file_io(folder)
  call point_to_point()
  call communicators()
  if (rank == 0) print '(a)', 'mpi_fortran_more: done'
  call MPI_Finalize(ierr)
  if (errors /= 0) stop 1

contains

  subroutine neighbors()
    type(MPI_Request) :: r
    type(MPI_Comm) :: ring, chain
    type(MPI_Datatype) :: dbl(1)
    integer :: left, right, src(1), dst(1)
    integer :: dims(1), three(1), two(1), zero(1)
    logical :: periods(1)
    integer(kind=MPI_ADDRESS_KIND) :: zero_bytes(1)
    dims = N
    periods = .true.
    left = mod(rank + N - 1, N)
    right = mod(rank + 1, N)
    call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., ring)
    call MPI_Neighbor_allgather(rank, 1, MPI_INTEGER, b, 1, MPI_INTEGER, ring)
    call check(b(1) == left .and. b(2) == right, 'neighbor_allgather')
    call MPI_Neighbor_alltoall(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, ring)
    call MPI_Ineighbor_allgather(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, ring, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    src = rank - 1
    dst = rank + 1
    three = 3
    two = 2
    zero = 0
    zero_bytes = 0
    dbl = MPI_DOUBLE_PRECISION
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, merge(1, 0, rank > 0), src, MPI_UNWEIGHTED, &
                                        merge(1, 0, rank < 3), dst, MPI_UNWEIGHTED, MPI_INFO_NULL, &
                                        .false., chain)
    call MPI_Neighbor_allgatherv(a, 3, MPI_INTEGER, b, three, zero, MPI_INTEGER, chain)
    if (rank > 0) call check(b(1) == 100 * (rank - 1), 'neighbor_allgatherv')
    call MPI_Neighbor_alltoallv(a, three, zero, MPI_INTEGER, b, three, zero, MPI_INTEGER, chain)
    call MPI_Neighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain)
    call MPI_Ineighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_Ineighbor_allgatherv(a, 3, MPI_INTEGER, b, three, zero, MPI_INTEGER, chain, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_Ineighbor_alltoallv(a, three, zero, MPI_INTEGER, b, three, zero, MPI_INTEGER, chain, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_Ineighbor_alltoall(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, ring, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_Comm_free(chain)
    call MPI_Comm_free(ring)
  end subroutine

  subroutine collectives()
    type(MPI_Request) :: r(7)
    type(MPI_Datatype) :: types(N)
    integer :: counts(N), displs(N), blocks(N), all(N), gathered(N)
    integer :: sum, before, x, y, z, scattered, i
    do i = 1, N
      counts(i) = 1
      displs(i) = (i - 1) * 4
      types(i) = MPI_INTEGER
      blocks(i) = rank + i - 1
    end do
    x = rank + 1
    sum = 0
    before = 0
    scattered = -1
    call MPI_Iallgather(x, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, r(1))
    call MPI_Ialltoall(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, r(2))
    call MPI_Igather(x, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, r(3))
    call MPI_Iscatter(a, 1, MPI_INTEGER, scattered, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, r(4))
    call MPI_Iscan(x, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, r(5))
    call MPI_Iexscan(x, before, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, r(6))
    call MPI_Ireduce_scatter_block(blocks, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, r(7))
    call MPI_Waitall(7, r, MPI_STATUSES_IGNORE)
    call check(all(N) == N .and. sum == (rank + 1) * (rank + 2) / 2 .and. scattered == 100 + rank, &
               'non-blocking collectives')
    call check(rank == 0 .or. before == rank * (rank + 1) / 2, 'iexscan')
    call check(y == 6 + N * rank, 'ireduce_scatter_block')
    call MPI_Reduce_scatter_block(blocks, z, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(z == y, 'reduce_scatter_block')
    call MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD)
    call check(b(1) == rank .and. b(N) == 100 * (N - 1) + rank, 'alltoallw')
    call MPI_Ialltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, r(1))
    call MPI_Wait(r(1), MPI_STATUS_IGNORE)
    do i = 1, N
      displs(i) = i - 1  ! in elements from here on
    end do
    call MPI_Iallgatherv(x, 1, MPI_INTEGER, all, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, r(1))
    call MPI_Ialltoallv(a, counts, displs, MPI_INTEGER, b, counts, displs, MPI_INTEGER, &
                        MPI_COMM_WORLD, r(2))
    call MPI_Igatherv(x, 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, &
                      r(3))
    call MPI_Iscatterv(a, counts, displs, MPI_INTEGER, scattered, 1, MPI_INTEGER, 0, &
                       MPI_COMM_WORLD, r(4))
    call MPI_Ireduce_scatter(blocks, y, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, r(5))
    call MPI_Waitall(5, r, MPI_STATUSES_IGNORE)
    call check(all(N) == N .and. scattered == rank .and. y == 6 + N * rank, &
               'non-blocking v-collectives')
    call check(rank /= 0 .or. gathered(N) == N, 'igatherv')
  end subroutine

  subroutine one_sided()
    type(MPI_Win) :: win, win2
    type(c_ptr) :: mem
    integer :: next, prev, one, fetched, swapped, cmp, got
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    next = mod(rank + 1, N)
    prev = mod(rank + N - 1, N)
    one = 1
    cmp = 0
    got = -1
    b = 0
    bytes = 64 * 4
    call MPI_Win_create(b, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    call MPI_Win_fence(0, win)
    disp = 0
    call MPI_Put(a, 2, MPI_INTEGER, next, disp, 2, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call MPI_Get(got, 1, MPI_INTEGER, prev, disp, 1, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    call check(b(1) == 100 * prev .and. b(2) == 100 * prev + 1, 'put')
    call check(got == 100 * mod(prev + N - 1, N), 'get')
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)
    disp = 8
    call MPI_Accumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win)
    call MPI_Win_unlock(0, win)
    call MPI_Win_lock_all(0, win)
    disp = 9
    call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, 0, disp, MPI_SUM, win)
    disp = 10
    call MPI_Compare_and_swap(one, cmp, swapped, MPI_INTEGER, 0, disp, win)
    call MPI_Win_flush(0, win)
    call MPI_Win_unlock_all(win)
    call MPI_Win_free(win)
    if (rank == 0) call check(b(9) == N .and. b(10) == N .and. b(11) == 1, &
                              'accumulate / fetch_and_op / compare_and_swap')
    bytes = 16 * 4
    mem = c_null_ptr
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, mem, win2)
    call check(c_associated(mem), 'win_allocate')
    call MPI_Win_free(win2)
    mem = c_null_ptr
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, mem, win2)
    call check(c_associated(mem), 'win_allocate')
    call MPI_Win_free(win2)
  end subroutine

  ! A post/start/complete/wait epoch between each rank and its two ring neighbours, with Rput,
  ! Rget and Get_accumulate.
  subroutine pscw()
    type(MPI_Win) :: win
    type(MPI_Group) :: world, peers
    type(MPI_Request) :: r(2)
    integer :: next, prev, pair(2), one, old, got
    integer(kind=MPI_ADDRESS_KIND) :: bytes, disp
    next = mod(rank + 1, N)
    prev = mod(rank + N - 1, N)
    pair = [prev, next]
    one = 1
    old = -1
    got = -1
    b = 0
    bytes = 64 * 4
    call MPI_Win_create(b, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    call MPI_Comm_group(MPI_COMM_WORLD, world)
    call MPI_Group_incl(world, 2, pair, peers)
    call MPI_Win_post(peers, 0, win)
    call MPI_Win_start(peers, 0, win)
    disp = 4
    call MPI_Rput(a, 2, MPI_INTEGER, next, disp, 2, MPI_INTEGER, win, r(1))
    disp = 20
    call MPI_Rget(got, 1, MPI_INTEGER, prev, disp, 1, MPI_INTEGER, win, r(2))
    call MPI_Waitall(2, r, MPI_STATUSES_IGNORE)
    disp = 30
    call MPI_Get_accumulate(one, 1, MPI_INTEGER, old, 1, MPI_INTEGER, next, disp, 1, MPI_INTEGER, &
                            MPI_SUM, win)
    call MPI_Win_complete(win)
    call MPI_Win_wait(win)
    call check(b(5) == 100 * prev .and. b(6) == 100 * prev + 1 .and. b(31) == 1 .and. got == 0 &
               .and. old == 0, 'rput / rget / get_accumulate')
    call MPI_Group_free(peers)
    call MPI_Group_free(world)
    call MPI_Win_free(win)
  end subroutine

  subroutine file_io(folder)
    character(len=*), intent(in) :: folder
    character(len=4096) :: path
    type(MPI_File) :: fh
    type(MPI_Request) :: r
    integer :: back(4), ierr
    integer(kind=MPI_OFFSET_KIND) :: offset
    ! Passed whole: the name arrives with its trailing blanks and without a NUL.
    path = trim(folder) // '/fortran_more.dat'
    call MPI_File_open(MPI_COMM_WORLD, path, ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh, ierr)
    if (ierr /= MPI_SUCCESS) call check(.false., 'file_open')
    offset = rank * 16
    call MPI_File_write_at(fh, offset, a, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
    offset = 64 + rank * 8
    call MPI_File_iwrite_at(fh, offset, a, 2, MPI_INTEGER, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    back = 0
    offset = rank * 16
    call MPI_File_read_at(fh, offset, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
    call check(back(1) == 100 * rank .and. back(4) == 100 * rank + 3, 'file_read_at')
    offset = 128 + rank * 16
    call MPI_File_write_at_all(fh, offset, a(5), 4, MPI_INTEGER, MPI_STATUS_IGNORE)
    call MPI_File_read_at_all(fh, offset, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE)
    call check(back(1) == 100 * rank + 4, 'file_read_at_all')
    offset = rank * 16
    call MPI_File_iread_at(fh, offset, back, 2, MPI_INTEGER, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call check(back(2) == 100 * rank + 1, 'file_iread_at')
    ! The individual file pointer (MPI_File_seek is not traced, in C as in Fortran).
    offset = 256 + rank * 32
    call MPI_File_seek(fh, offset, MPI_SEEK_SET)
    call MPI_File_write(fh, a, 2, MPI_INTEGER, MPI_STATUS_IGNORE)
    call MPI_File_iwrite(fh, a(3), 2, MPI_INTEGER, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_File_write_all(fh, a(5), 2, MPI_INTEGER, MPI_STATUS_IGNORE)
    call MPI_File_seek(fh, offset, MPI_SEEK_SET)
    call MPI_File_read(fh, back, 2, MPI_INTEGER, MPI_STATUS_IGNORE)
    call MPI_File_iread(fh, back(3), 1, MPI_INTEGER, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_File_read_all(fh, back(4), 1, MPI_INTEGER, MPI_STATUS_IGNORE)
    call check(back(1) == 100 * rank .and. back(3) == 100 * rank + 2 .and. back(4) == 100 * rank + 3, &
               'file_read / iread / read_all')
    call MPI_File_close(fh)
  end subroutine

  subroutine point_to_point()
    type(MPI_Message) :: m
    type(MPI_Request) :: r
    type(MPI_Status) :: status
    integer :: next, prev, buf(3)
    logical :: flag
    next = mod(rank + 1, N)
    prev = mod(rank + N - 1, N)
    buf = rank
    call MPI_Sendrecv_replace(buf, 3, MPI_INTEGER, next, 5, prev, 5, MPI_COMM_WORLD, status)
    call check(buf(1) == prev .and. status%MPI_SOURCE == prev, 'sendrecv_replace')
    call MPI_Send(a, 2, MPI_INTEGER, next, 6, MPI_COMM_WORLD)
    call MPI_Mprobe(prev, 6, MPI_COMM_WORLD, m, status)
    call MPI_Mrecv(b, 2, MPI_INTEGER, m, MPI_STATUS_IGNORE)
    call check(b(2) == 100 * prev + 1, 'mrecv')
    call MPI_Send(a, 1, MPI_INTEGER, next, 8, MPI_COMM_WORLD)
    call MPI_Probe(prev, 8, MPI_COMM_WORLD, status)
    call MPI_Improbe(prev, 8, MPI_COMM_WORLD, flag, m, status)
    call check(flag .and. status%MPI_TAG == 8, 'improbe')
    call MPI_Imrecv(b, 1, MPI_INTEGER, m, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call check(b(1) == 100 * prev, 'imrecv')
  end subroutine

  subroutine communicators()
    type(MPI_Comm) :: shared, dup, half, inter, merged, graph, first3
    type(MPI_Group) :: world, three
    type(MPI_Request) :: r
    integer :: cnt
    integer :: ranks(3), index(N), edges(2 * N)
    logical :: even
    even = mod(rank, 2) == 0
    ranks = [0, 1, 2]
    index = [2, 4, 6, 8]
    edges = [1, 3, 0, 2, 1, 3, 2, 0]
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, shared)
    call MPI_Comm_idup(MPI_COMM_WORLD, dup, r)
    call MPI_Wait(r, MPI_STATUS_IGNORE)
    call MPI_Comm_size(dup, cnt)
    call check(cnt == N, 'comm_idup')
    call MPI_Comm_group(MPI_COMM_WORLD, world)
    call MPI_Group_incl(world, 3, ranks, three)
    if (rank < 3) then
      call MPI_Comm_create_group(MPI_COMM_WORLD, three, 4, first3)
      call MPI_Comm_free(first3)
    end if
    call MPI_Comm_split(MPI_COMM_WORLD, merge(0, 1, even), rank, half)
    call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, merge(1, 0, even), 7, inter)
    call MPI_Intercomm_merge(inter, .not. even, merged)
    call MPI_Comm_rank(merged, cnt)
    call check(cnt == merge(rank / 2, 2 + rank / 2, even), 'intercomm_merge')
    call MPI_Graph_create(MPI_COMM_WORLD, N, index, edges, .false., graph)
    call MPI_Comm_free(graph)
    call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, [rank], [merge(1, 0, rank < N - 1)], [rank + 1], &
                               MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph)
    call MPI_Comm_free(graph)
    call MPI_Comm_free(merged)
    call MPI_Comm_free(inter)
    call MPI_Comm_free(half)
    call MPI_Group_free(three)
    call MPI_Group_free(world)
    call MPI_Comm_free(dup)
    call MPI_Comm_free(shared)
  end subroutine

end program
