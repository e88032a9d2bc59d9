/* obstacles.h - avoiding the world's obstacles (internal). */
#ifndef STEER_OBSTACLES_H
#define STEER_OBSTACLES_H

#include "world.h"

/* Obstacle avoidance whose reach is obstacle + agent radius + extra. */
steer_vec2 avoid_obstacles(const steer_world *w, size_t i,
                           double feeler_length, double extra);

/* Containment in the polygon of a path's points (steer_agent_contain). */
steer_vec2 contain_path(const steer_world *w, size_t i, const steer_path *path,
                        double feeler_length);

#endif
