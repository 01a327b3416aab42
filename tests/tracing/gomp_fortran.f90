! A Fortran OpenMP program built with gfortran -fopenmp (GCC's libgomp), traced by
! libparallax-gomp.so (tests/golden/tracing_gomp.sh): one parallel region (MAIN__._omp_fn.0)
! whose dynamic loop of 1000 iterations in chunks of 50 hands out 20 chunks; with the
! reduction, gfortran does not combine the construct: GOMP_parallel, then
! GOMP_loop_nonmonotonic_dynamic_start/_next and GOMP_loop_end_nowait on every thread.
program gomp_fortran
  use omp_lib
  implicit none
  integer, parameter :: n = 1000
  integer :: i, threads
  real(8) :: s
  s = 0
  threads = 0
  !$omp parallel do schedule(dynamic, 50) reduction(+:s)
  do i = 1, n
     s = s + dble(i)
     if (i == 1) threads = omp_get_num_threads()
  end do
  !$omp end parallel do
  print '(a,i0,a,f0.0)', 'threads ', threads, ' sum ', s
end program gomp_fortran
