/* An OpenMP program with no tracing calls, traced with LD_PRELOAD=libparallax-omp.so when built
 * with clang -fopenmp (LLVM's libomp has OMPT). Usage: pxt_example_omp [regions]. With R regions
 * on T threads it opens R parallel regions, runs one worksharing loop and one explicit barrier
 * in each, enters a critical section once per thread and region, and creates 4 tasks per
 * region. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double Work(long n) {
  double x = 0;
  for (long i = 1; i <= n; ++i) x += 1.0 / ((double)i * (double)i);
  return x;
}

int main(int argc, char** argv) {
  int regions = argc > 1 ? atoi(argv[1]) : 5;
  double sum = 0;
  long tasks_run = 0;
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel
    {
      double local = 0;
#pragma omp for
      for (int i = 0; i < 64; ++i) local += Work(2000 + 100 * i);
#pragma omp barrier
#pragma omp critical
      sum += local;
#pragma omp single
      {
        for (int k = 0; k < 4; ++k) {
#pragma omp task
          {
#pragma omp atomic
            tasks_run++;
            Work(1000);
          }
        }
      }
    }
  }
  printf("regions %d threads %d tasks %ld sum %.3f\n", regions, omp_get_max_threads(), tasks_run, sum);
  return 0;
}
