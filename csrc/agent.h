/* agent.h - what agent.c offers the rest of the core (internal). */
#ifndef STEER_AGENT_H
#define STEER_AGENT_H

#include <math.h>
#include "random.h"
#include "world.h"

/* The force toward the waypoint *waypoint of `path`, advancing it when the
   agent is within arrival_radius (not past the last one of an open path).
   The last waypoint is arrived at when arrive_last, else sought. */
steer_vec2 path_force(const steer_world *w, size_t i, const steer_path *path,
                      size_t *waypoint, double arrival_radius,
                      double slowing_radius, int arrive_last);

/* The entry of program p that follows a route (`path` itself, or any when
   NULL): the first with a path target that is not a contain region; -1
   when none. steer_agent_path and steer_agent_set_path_index agree on it. */
long program_route_entry(const steer_program *p, const steer_path *path);

/* Agent i's cold state following `path` (a new path starts at waypoint 0);
   NULL: out of memory, nothing changed. */
agent_ext *follow_state(steer_world *w, size_t i, steer_path *path);

/* One call of wander (docs/API.md section 3.5) for cold state e: the
   generator advanced, the angle moved by r * jitter; the new angle. Inline:
   program_batch.c calls it for a batch, then computes the forces in lanes. */
static inline double wander_advance(agent_ext *e) {
  e->wander_angle += rng_signed(&e->rng) * e->wander_jitter;
  /* only absurd jitters get here; the angle then stays a valid number */
  if (fabs(e->wander_angle) > 1e15)
    e->wander_angle = fmod(e->wander_angle, 6.283185307179586);
  return e->wander_angle;
}

/* Arrive's force for agent i towards t (on a torus, its nearest image of
   t), as steer_agent_arrive. Inline: a program's arrive entry runs it for
   every agent every step, and through the exported calls its vectors went
   through memory (store-forwarding stalls, 7-10% of an ORCA step). */
static inline steer_vec2 agent_arrive(const steer_world *w, size_t i,
                                      steer_vec2 t, double slowing_radius) {
  steer_vec2 p = world_pos(w, i), seen = v2_add(p, world_offset(w, p, t));
  return v2_arrive(v2_sub(seen, p), world_vel(w, i), w->max_speed[i],
                   w->max_force[i], slowing_radius);
}

#endif
