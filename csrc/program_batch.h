/* program_batch.h - the forces of many agents running one simple program,
 * entry by entry (internal; program_batch.c). */
#ifndef STEER_PROGRAM_BATCH_H
#define STEER_PROGRAM_BATCH_H

#include "world.h"

/* The most agents one call takes. */
#define BATCH_MAX 64

/* The forces of agents index[0 .. n - 1] (n <= BATCH_MAX), all running
   program p with p->batched set, into out[0 .. n - 1]: bit for bit what
   program_force gives each. sums: their flocking sums as crowd_quad_walk
   lays them out (sum f of agent k at sums[f * stride + k]); NULL when p
   has no flocking entries. */
void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, steer_vec2 *out);

#endif
