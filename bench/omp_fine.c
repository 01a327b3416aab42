/* A fine-grained OpenMP program for bench/tracing_omp_overhead.sh: REGIONS parallel regions,
   each a dynamic loop of CHUNKS chunks of WORK floating-point steps per iteration (what makes a
   region short: tens of microseconds), and a barrier. Prints the wall time of the regions. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int n, double x) {
  for (int i = 0; i < n; ++i) x = x * 1.0000001 + 0.5e-7;
  return x;
}

int main(int argc, char** argv) {
  const int regions = argc > 1 ? atoi(argv[1]) : 20000;
  const int chunks = argc > 2 ? atoi(argv[2]) : 8;
  const int steps = argc > 3 ? atoi(argv[3]) : 2000;
  double sum = 0;
  const double t0 = omp_get_wtime();
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp for schedule(dynamic, 1)
      for (int c = 0; c < chunks; ++c) sum += work(steps, c);
#pragma omp barrier
    }
  }
  const double t1 = omp_get_wtime();
  printf("regions %d chunks %d steps %d wall %.6f s sum %.3f\n", regions, chunks, steps, t1 - t0, sum);
  return 0;
}
