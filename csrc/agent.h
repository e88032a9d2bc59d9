/* agent.h - what agent.c offers the rest of the core (internal). */
#ifndef STEER_AGENT_H
#define STEER_AGENT_H

#include "world.h"

/* The force toward the waypoint *waypoint of `path`, advancing it when the
   agent is within arrival_radius (not past the last one of an open path).
   The last waypoint is arrived at when arrive_last, else sought. */
steer_vec2 path_force(const steer_world *w, size_t i, const steer_path *path,
                      size_t *waypoint, double arrival_radius,
                      double slowing_radius, int arrive_last);

/* Agent i's cold state following `path` (a new path starts at waypoint 0);
   NULL: out of memory, nothing changed. */
agent_ext *follow_state(steer_world *w, size_t i, steer_path *path);

#endif
