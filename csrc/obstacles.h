/* obstacles.h - avoiding the world's obstacles (internal). */
#ifndef STEER_OBSTACLES_H
#define STEER_OBSTACLES_H

#include "world.h"

/* Obstacle avoidance whose reach is obstacle + agent radius + extra. */
steer_vec2 avoid_obstacles(const steer_world *w, size_t i,
                           double feeler_length, double extra);

#endif
