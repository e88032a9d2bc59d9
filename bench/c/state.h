/* state.h - the boids state file of bench/workload.lua, read and written
 * exactly ("%.17g" and strtod round-trip a double). */
#ifndef BOIDS_STATE_H
#define BOIDS_STATE_H

#include <stddef.h>

typedef struct boids_state {
  size_t n;
  double L;
  double *x, *y, *vx, *vy;
} boids_state;

/* 0 on success; on failure prints why to stderr and returns -1. */
int state_read(const char *path, boids_state *s);
int state_write(const char *path, size_t n, double L, const double *x,
                const double *y, const double *vx, const double *vy);
void state_free(boids_state *s);

#endif
