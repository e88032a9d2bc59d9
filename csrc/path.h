/* path.h - what the core reads of a path besides steer.h (internal). */
#ifndef STEER_PATH_H
#define STEER_PATH_H

#include "steer.h"

/* The path's points, in place (steer_path_count of them). */
const steer_vec2 *path_points(const steer_path *path);

#endif
