/* check.c - what the harness compares between contestants:
 *   check compare <a> <b>   largest wrapped position difference
 *   check stats <a>         mean speed, mean alignment-neighbor count and
 *                           mean candidates (agents in the 3x3 cell block)
 * Its neighbor count uses its own bucket lists, not the contestants' grid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "state.h"

/* |a - b| on a circle of length L */
static double wrapped_gap(double a, double b, double L) {
  double d = fabs(a - b);
  return d > L * 0.5 ? L - d : d;
}

static int compare(const char *pa, const char *pb) {
  boids_state a, b;
  if (state_read(pa, &a) != 0) return 1;
  if (state_read(pb, &b) != 0) return 1;
  if (a.n != b.n || a.L != b.L) {
    fprintf(stderr, "check: %s and %s hold different worlds\n", pa, pb);
    return 1;
  }
  double worst = 0;
  for (size_t i = 0; i < a.n; i++) {
    double gx = wrapped_gap(a.x[i], b.x[i], a.L);
    double gy = wrapped_gap(a.y[i], b.y[i], a.L);
    if (!(gx <= worst)) worst = gx; /* NaN counts as worst */
    if (!(gy <= worst)) worst = gy;
  }
  printf("maxdiff %.6g\n", worst);
  state_free(&a);
  state_free(&b);
  return 0;
}

static long bucket(double v, double L, long nc) {
  long b = (long)(v / L * (double)nc);
  return b < nc ? b : nc - 1;
}

/* agents j != i with wrapped d2 <= 25, found through buckets of side >= 5 */
static int stats(const char *path) {
  boids_state s;
  if (state_read(path, &s) != 0) return 1;
  long nc = (long)floor(s.L / 5.0);
  if (nc < 3) nc = 1; /* tiny torus: one bucket, every pair is a candidate */
  long *head = malloc((size_t)(nc * nc) * sizeof(long));
  long *next = malloc((s.n ? s.n : 1) * sizeof(long));
  if (!head || !next) return 1;
  for (long c = 0; c < nc * nc; c++) head[c] = -1;
  for (size_t i = 0; i < s.n; i++) {
    long bx = bucket(s.x[i], s.L, nc), by = bucket(s.y[i], s.L, nc);
    next[i] = head[by * nc + bx];
    head[by * nc + bx] = (long)i;
  }
  double speed = 0, pairs = 0, candidates = 0;
  for (size_t i = 0; i < s.n; i++) {
    speed += sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i]);
    long bx = bucket(s.x[i], s.L, nc), by = bucket(s.y[i], s.L, nc);
    long span = nc < 3 ? 0 : 1;
    for (long oy = -span; oy <= span; oy++)
      for (long ox = -span; ox <= span; ox++) {
        long c = (by + oy + nc) % nc * nc + (bx + ox + nc) % nc;
        for (long j = head[c]; j >= 0; j = next[j]) {
          if ((size_t)j == i) continue;
          candidates++;
          double dx = wrapped_gap(s.x[j], s.x[i], s.L);
          double dy = wrapped_gap(s.y[j], s.y[i], s.L);
          if (dx * dx + dy * dy <= 25.0) pairs++;
        }
      }
  }
  printf("speed %.9g neighbors %.9g candidates %.9g\n", speed / (double)s.n,
         pairs / (double)s.n, candidates / (double)s.n);
  free(head);
  free(next);
  state_free(&s);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "compare") == 0)
    return compare(argv[2], argv[3]);
  if (argc == 3 && strcmp(argv[1], "stats") == 0) return stats(argv[2]);
  fprintf(stderr, "usage: check compare <a> <b> | check stats <a>\n");
  return 2;
}
