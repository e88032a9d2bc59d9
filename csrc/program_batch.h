/* program_batch.h - the forces of many agents running one simple program,
 * entry by entry (internal; program_batch.c). */
#ifndef STEER_PROGRAM_BATCH_H
#define STEER_PROGRAM_BATCH_H

#include "world.h"

/* The most agents one call takes. */
#define BATCH_MAX 64

/* The columns of a batch's agents that the entries read: agent k of the
   batch at [k]. They point into the world's columns when the batch is a
   run of consecutive agents (the common case), else into a copy. */
typedef struct batch_agents {
  const double *vx, *vy, *max_speed, *max_force;
} batch_agents;

/* The forces of agents index[0 .. n - 1] (n <= BATCH_MAX), all running
   program p with p->batched set, into out[0 .. n - 1]: bit for bit what
   program_force gives each. sums: their flocking sums as crowd_quad_walk
   lays them out (sum f of agent k at sums[f * stride + k]); NULL when p
   has no flocking entries. */
void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, steer_vec2 *out);

/* With AVX (batch_quad.c; called only where crowd_quad_available()):
   batch_lanes.h's functions four agents at a time; each returns how many
   agents from the first it did (a multiple of 4), the caller does the
   rest. Flocking entry e's forces, added to fx, fy with its weight: */
int batch_quad_flock(const steer_world *w, const steer_entry *e,
                     const size_t *index, int n, const double *sums,
                     size_t stride, const batch_agents *a, double *fx,
                     double *fy);
/* the wander forces for angles already advanced, added with `weight`: */
int batch_quad_wander(const batch_agents *a, const double *angle,
                      const double *distance, const double *radius, int n,
                      double weight, double *fx, double *fy);
/* and the sums fx, fy clamped by max_force into out. */
int batch_quad_clamp(const batch_agents *a, int n, const double *fx,
                     const double *fy, steer_vec2 *out);

#endif
