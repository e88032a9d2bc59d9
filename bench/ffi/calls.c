/* bench/ffi/calls.c - the per-agent calls of bench/ffi/calls.lua made from
 * C through the same flat entry points, to price the work itself: what the
 * FFI path costs beyond it is the cost of calling through the FFI.
 *   calls <agents> <rounds>   prints "RESULT seek_apply=<ns> position=<ns>" */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "steer.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : 10000;
  int rounds = argc > 2 ? atoi(argv[2]) : 50;
  steer_world *w = steer_world_create(NULL);
  steer_id *ids = malloc(n * sizeof *ids);
  if (!w || !ids) return 1;
  for (size_t k = 0; k < n; k++) { /* the agents of calls.lua */
    steer_agent_def d = steer_agent_def_default();
    d.x = (double)(k % 100);
    d.y = (double)k / 100;
    d.max_speed = 2;
    d.max_force = 3;
    if (steer_world_add(w, &d, &ids[k])) return 1;
  }
  double out[2], sink = 0, best_sa = 1e9, best_pos = 1e9;
  for (int trial = 0; trial < 5; trial++) {
    double t0 = now();
    for (int r = 0; r < rounds; r++)
      for (size_t k = 0; k < n; k++) {
        steer_flat_seek(w, ids[k], 50, 50, out);
        steer_flat_apply(w, ids[k], out[0], out[1], 0.01);
      }
    double sa = (now() - t0) / ((double)rounds * (double)n * 2) * 1e9;
    t0 = now();
    for (int r = 0; r < rounds; r++)
      for (size_t k = 0; k < n; k++) {
        steer_flat_get(w, ids[k], STEER_FLAT_POSITION, out);
        sink += out[0];
      }
    double pos = (now() - t0) / ((double)rounds * (double)n) * 1e9;
    if (sa < best_sa) best_sa = sa;
    if (pos < best_pos) best_pos = pos;
  }
  printf("RESULT seek_apply=%.2f position=%.2f sink=%g\n", best_sa, best_pos,
         sink);
  steer_world_destroy(w);
  free(ids);
  return 0;
}
