/* boids.h - contestant (d): the boids workload as a plain C loop.
 *
 * Arrays of doubles, a counting-sort grid rebuilt every step, scalar code.
 * The operation order is the canonical one of bench/workload.lua, so the
 * result matches the pure-Lua contestants bit for bit. */
#ifndef BOIDS_H
#define BOIDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct boids {
  size_t n;
  double L, half;
  int32_t nc;                      /* cells per axis */
  double cell;                     /* cell side L / nc, >= 5 */
  double *x, *y, *vx, *vy;         /* the state, in agent order */
  double *sx, *sy, *svx, *svy;     /* the step's snapshot, sorted by cell */
  int32_t *agent_at;               /* agent index of each sorted slot */
  int32_t *cell_of;                /* cell of each agent this step */
  int32_t *first;                  /* first sorted slot of each cell, +1 end */
  int32_t *fill;                   /* counts, then insertion cursors */
  size_t bytes;                    /* everything malloc'd, for the report */
} boids;

/* Copies n agents in; returns 0, or -1 when out of memory or the torus has
   fewer than 3 cells per axis. */
int boids_init(boids *b, size_t n, double L, const double *x, const double *y,
               const double *vx, const double *vy);
void boids_free(boids *b);

/* One step of dt = 0.1 from one snapshot (all forces, then all moves). */
void boids_step(boids *b);
/* The same step visiting every other agent in index order, without the
   grid: an independent reference for the checks (O(n^2)). */
void boids_step_brute(boids *b);

#endif
