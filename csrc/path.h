/* path.h - what the core reads of a path besides steer.h (internal). */
#ifndef STEER_PATH_H
#define STEER_PATH_H

#include "contain.h"
#include "steer.h"

/* The path's points, in place (steer_path_count of them). */
const steer_vec2 *path_points(const steer_path *path);

/* The path as a contain region: its band index is built once (a contain
   entry's path, when the program is made; NULL when memory ran out, and
   contain then takes every edge). */
void path_prepare_region(steer_path *path);
const contain_index *path_region(const steer_path *path);

#endif
