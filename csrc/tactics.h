/* tactics.h - group and tactical behaviors (internal): offset pursuit,
 * follow the leader, formations' slot seeking, interpose, hide and queue
 * (docs/API.md section 17). Each is a force of one agent, computed from
 * the world as it is (nothing is written). */
#ifndef STEER_TACTICS_H
#define STEER_TACTICS_H

#include "world.h"

/* A point of a leader's frame (x along angle, y to its left) in the
   world's axes. */
static inline steer_vec2 tactics_to_world(double angle, steer_vec2 local) {
  double c = cos(angle), s = sin(angle);
  return v2(c * local.x - s * local.y, s * local.x + c * local.y);
}

/* Is b one of the behaviors of this file (and formation.c)? */
static inline int tactics_behavior(steer_behavior b) {
  return b >= STEER_OFFSET_PURSUIT && b <= STEER_QUEUE;
}

/* The pose an entry's target stands for now: an agent's (facing its
   angle), or a point (fixed or shared) at rest facing angle 0. 0 when its
   agent is gone (or there is none). */
int tactics_target_pose(const steer_world *w, const steer_target *t,
                        steer_pose *out);

/* The unweighted force of tactics entry e for agent i. */
steer_vec2 tactics_entry_force(const steer_world *w, size_t i,
                               const steer_entry *e);

/* Formation f's force for member i, in its anchor's frame. */
steer_vec2 formation_force(const steer_world *w, size_t i,
                           const steer_formation *f, double slowing_radius);


#endif
