/* corridor.h - path following as a corridor (internal). */
#ifndef STEER_CORRIDOR_H
#define STEER_CORRIDOR_H

#include "world.h"

/* The force that keeps agent i in the corridor of half-width path_radius
   around `path`: it predicts its position look_ahead seconds ahead and,
   only when that prediction leaves the corridor or lags (is less than
   90% of max_speed * look_ahead further along than the agent: it cruises
   at nearly full speed),
   seeks the point max_speed * look_ahead further along the path than its
   own projection (arriving at the end of an open path). *waypoint is the
   end of the segment it is on, advanced as it passes segments. */
steer_vec2 corridor_force(const steer_world *w, size_t i,
                          const steer_path *path, size_t *waypoint,
                          double path_radius, double look_ahead,
                          double slowing_radius);

#endif
