/* sort.h - agents ordered by grid cell (internal). */
#ifndef STEER_SORT_H
#define STEER_SORT_H

#include "threads.h"
#include "world.h"

/* Orders the agents by grid bucket (stable) and relinks the grid: from then
   on every walk over neighbors depends only on the agents' order and state.
   dest: scratch of one uint32 per agent; the key pass may be split between
   `parts` threads of `pool`. */
void world_sort(steer_world *w, uint32_t *dest, steer_pool *pool, int parts);
/* world_sort with w->order, growing it first (the only way it can fail). */
steer_status world_sort_now(steer_world *w);

#endif
