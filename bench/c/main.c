/* main.c - contestant (d) as a program:
 *   boids <state-in> <steps> <state-out> [--brute]      (state-out "-": none)
 * runs the steps and prints one RESULT line, like bench/run.lua does for the
 * Lua contestants: CPU seconds of the steps alone, resident memory before the
 * world is built and at its peak, and the bytes the world malloc'd. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boids.h"
#include "measure.h"
#include "state.h"

int main(int argc, char **argv) {
  if (argc < 4 || (argc == 5 && strcmp(argv[4], "--brute") != 0) || argc > 5) {
    fprintf(stderr, "usage: %s <state-in> <steps> <state-out> [--brute]\n",
            argv[0]);
    return 2;
  }
  int brute = argc == 5;
  long steps = strtol(argv[2], NULL, 10);
  boids_state st;
  if (state_read(argv[1], &st) != 0) return 1;

  int reset = rss_reset_peak();
  long base_kb = rss_kb("VmRSS");
  boids b;
  if (boids_init(&b, st.n, st.L, st.x, st.y, st.vx, st.vy) != 0) {
    fprintf(stderr, "boids: cannot set up %zu agents\n", st.n);
    return 1;
  }
  double t0 = cpu_seconds(), w0 = wall_seconds();
  for (long k = 0; k < steps; k++) {
    if (brute)
      boids_step_brute(&b);
    else
      boids_step(&b);
  }
  double cpu = cpu_seconds() - t0, wall = wall_seconds() - w0;
  long peak_kb = reset == 0 ? rss_kb("VmHWM") : -1;

  printf("RESULT n=%zu steps=%ld cpu=%.6f wall=%.6f base_kb=%ld peak_kb=%ld "
         "heap_bytes=%zu garbage_per_step=0\n",
         st.n, steps, cpu, wall, base_kb, peak_kb, b.bytes);
  int rc = 0;
  if (strcmp(argv[3], "-") != 0)
    rc = state_write(argv[3], b.n, b.L, b.x, b.y, b.vx, b.vy) == 0 ? 0 : 1;
  boids_free(&b);
  state_free(&st);
  return rc;
}
