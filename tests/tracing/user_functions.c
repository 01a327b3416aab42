/* User functions without source changes (tests/golden/tracing_functions.sh): built with
 * -finstrument-functions -O0 -g. main calls f 3 times and g 2 times; g calls h once. Entries:
 * main 1, f 3, g 2, h 2; the lines are those of each function's opening line. */
#include <stdio.h>

static volatile int sink;

void h(void) { /* line 8 */
  sink += 1;
}

void g(void) { /* line 12 */
  h();
}

void f(void) { /* line 16 */
  sink += 2;
}

int main(void) { /* line 20 */
  for (int i = 0; i < 3; ++i) f();
  for (int i = 0; i < 2; ++i) g();
  printf("functions done %d\n", sink);
  return 0;
}
