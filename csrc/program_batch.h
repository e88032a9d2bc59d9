/* program_batch.h - the forces of many agents running one simple program,
 * entry by entry (internal; program_batch.c). */
#ifndef STEER_PROGRAM_BATCH_H
#define STEER_PROGRAM_BATCH_H

#include "program.h"
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
   program_force gives each, their states changed as it changes them. sums:
   their flocking sums as crowd_quad_walk lays them out (sum f of agent k
   at sums[f * stride + k]); NULL when p has no flocking entries, or when
   the agents that reach one are to walk their neighbors then, as
   program_force does (counted in *stats). dt: priority's hold. */
void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, double dt,
                  steer_vec2 *out, steer_stats *stats);

/* What an entry's forces read beside the world: agents index[0 .. n - 1],
   their columns, their program states (NULL when p needs none) and their
   flocking sums (laid out as above). */
typedef struct batch_view {
  const size_t *index;
  int n;
  const batch_agents *a;
  program_state *const *states;
  const double *sums;
  size_t stride;
} batch_view;

/* Entry q of program p for the agents of v: its force times its weight
   added to fx[k], fy[k], and their states changed as entry_force changes
   them (agent_program.c). Arrays holding -0.0 get the product itself. */
void batch_entry(steer_world *w, const steer_program *p, size_t q,
                 const batch_view *v, double *fx, double *fy);
/* Entries q (avoid_walls) and q + 1 (avoid_obstacles) of priority program
   p for the agents of v at once, each agent's force of the one that
   decides for it into fx, fy (stored: what batch_entry adds to -0.0):
   entry q's, felt[k] = 0, when entry q speaks (priority_speaks; entry
   q + 1 is not computed then, its state untouched), else entry q + 1's,
   felt[k] = 1. Returns 0, computing nothing, when the geometry cannot
   take both at once (then batch_entry, one after the other). */
int batch_avoid_pair(const steer_world *w, const steer_program *p, size_t q,
                     const batch_view *v, double *fx, double *fy, char *felt);
/* a's columns for agents index[0 .. n - 1], copied into `copy` when they
   are not consecutive. */
void batch_gather(const steer_world *w, const size_t *index, int n,
                  batch_agents *a, double copy[4][BATCH_MAX]);
/* The priority combiner (program_priority.c): out[k] for the agents of
   v, all running priority program p; v's sums as batch_forces takes
   them. */
void batch_priority(steer_world *w, const steer_program *p,
                    const batch_view *v, double dt, steer_vec2 *out,
                    steer_stats *stats);
/* Agent i's flocking sums for program p, walked as program_force walks
   them (counted in *stats), into at[f * stride] (the layout above); fast:
   flock_fast_ok's answer for p's rules. */
void batch_walk(const steer_world *w, const steer_program *p, int fast,
                size_t i, double *at, size_t stride, steer_stats *stats);

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
