/* An OpenMP program built with gcc -fopenmp (GCC's libgomp), traced by libparallax-gomp.so
 * (tests/golden/tracing_gomp.sh, which derives the counts the trace must hold from the numbers
 * below). Each of REGIONS parallel regions (main._omp_fn.0) has, on every thread: */
#include <omp.h>
#include <stdio.h>

#define REGIONS 3
#define N 100     /* iterations of each loop */
#define CHUNK 10  /* dynamic loop: N / CHUNK chunks per region */
#define TASKS 2   /* tasks per region (main._omp_fn.1) */

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  double sum = 0;
  int locked = 0, tasks_done = 0, threads = 0;
  for (int r = 0; r < REGIONS; ++r) {
#pragma omp parallel
    {
      double mine = 0;
      /* GOMP_loop_nonmonotonic_dynamic_start/_next, then GOMP_loop_end (a barrier) */
#pragma omp for schedule(dynamic, CHUNK)
      for (int i = 0; i < N; ++i) mine += i;
      /* inlined by GCC: no libgomp call, not seen as a loop */
#pragma omp for schedule(static) nowait
      for (int i = 0; i < N; ++i) mine += 2 * i;
      /* GOMP_barrier */
#pragma omp barrier
      /* GOMP_critical_start/_end */
#pragma omp critical
      sum += mine;
      /* GOMP_single_start; one thread creates the tasks (GOMP_task) */
#pragma omp single nowait
      for (int k = 0; k < TASKS; ++k) {
#pragma omp task firstprivate(k)
        {
#pragma omp atomic
          tasks_done += k >= 0;
        }
      }
      /* omp_set_lock / omp_unset_lock */
      omp_set_lock(&lock);
      ++locked;
      omp_unset_lock(&lock);
#pragma omp master
      threads = omp_get_num_threads();
    }
  }
  omp_destroy_lock(&lock);
  printf("regions %d threads %d sum %.0f locked %d tasks %d\n", REGIONS, threads, sum, locked,
         tasks_done);
  return 0;
}
