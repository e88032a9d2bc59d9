/* crowd.h - the step's crowd kernel (internal; crowd.c, crowd_quad.c). */
#ifndef STEER_CROWD_H
#define STEER_CROWD_H

#include "neighbors.h"
#include "world.h"

/* Forces of the agents of dense-grid row r (agents sorted by cell), into
   forces[i - base]: the crowd kernel walks the neighbors of programs with
   flocking entries (several agents at a time), then each program combines
   its entries as usual. */
void crowd_row_forces(steer_world *w, size_t r, double dt, steer_vec2 *forces,
                      size_t base, steer_stats *stats);
/* With AVX (crowd_quad.c; only where crowd_quad_available()): the sums of
   agents i .. i + m - 1 (m <= 4) of one cell sharing rules q, as
   flock_span_walk would give them, into sums[f * stride + lane] for
   f = sep.x, sep.y, vel.x, vel.y, off.x, off.y, sep_n, ali_n, coh_n (four
   slots each); and the forces of four agents index[0..3] of pure flocking
   program p from such sums (0 when a lane needs the scalar code). */
int crowd_quad_available(void);
void crowd_quad_walk(const steer_world *w, size_t i, int m,
                     const flock_rules *q, const flock_span *spans, int n,
                     double *sums, size_t stride);
int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]);
/* Separation alone (no filter, no ghosts) for agent i over spans[0 .. n - 1]
   into s, as flock_span_walk gives it: the candidates four at a time in
   the lanes (no branch on who is near), their terms taken in order. */
void crowd_quad_separation(const steer_world *w, size_t i,
                           const flock_rules *q, const flock_span *spans,
                           int n, flock_sums *s);
/* The flocking sums of agents i .. i + m - 1 running program p on a sorted
   dense grid (flock_fast_ok), those of them in agent i's cell (returns how
   many: at least 1), several at a time in the lanes, as flock_gather gives
   each, into sums[f * stride + k] (the layout above; stride >= m + 3: the
   lanes write up to three slots past the last agent); counted in *stats. */
int crowd_walk_run(const steer_world *w, const steer_program *p, size_t i,
                   int m, double *sums, size_t stride, steer_stats *stats);
/* Agents from .. to - 1 move by forces[0 .. to - from - 1]
   (world_integrate). */
void crowd_integrate(steer_world *w, size_t from, size_t to,
                     const steer_vec2 *forces, double dt);
/* The process's SIMD width (steer_set_simd; else the widest). A step uses
   w->step_simd, chosen before its threads start. */
int crowd_simd_width(void);

#endif
