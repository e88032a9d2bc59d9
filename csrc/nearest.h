/* nearest.h - the k agents nearest an agent within a radius, on the
 * world's grid (ORCA's neighbors; internal). */
#ifndef STEER_NEAREST_H
#define STEER_NEAREST_H

#include "world.h"

typedef struct nearest_agent {
  double d2;
  size_t j;
  steer_vec2 offset; /* from the agent, shortest on a torus */
} nearest_agent;

/* The `max` agents nearest agent i within radius (ghosts and i itself
   left out), nearest first; ties in distance go to the lower index, so the
   answer is one whatever order the grid hands the candidates in. Returns
   how many. A world sorted by cell (every step sorts it) is searched from
   the agent's cell outward, narrowing the search as the list fills; an
   unsorted one walks the grid cursor over the whole radius. Both give the
   same answer, bit for bit (`sorted_walk` 0 forces the cursor). */
size_t nearest_agents(const steer_world *w, size_t i, double radius,
                      size_t max, int sorted_walk, nearest_agent *out);

/* nearest_agents' answer without the offsets: distance and index, nearest
   first, into out (room for max, at most STEER_ORCA_MAX_NEIGHBORS: the
   search sorts its list there). The caller that gathers more of each
   neighbor works the offset out in the same loop, as nearest_agents does
   (world_offset from agent i). */
typedef struct nearest_found {
  double d2;
  size_t j;
} nearest_found;
size_t nearest_found_agents(const steer_world *w, size_t i, double radius,
                            size_t max, int sorted_walk, nearest_found *out);

/* Room for every slot's warm-start seeds (w->near_seeds). Without it (no
   memory, or not reserved yet) the searches start cold: slower, with the
   same answers. */
void nearest_reserve_seeds(steer_world *w);
/* nearest_reserve_seeds when an agent's program has ORCA: the step calls
   it before its threads start. */
void nearest_prepare(steer_world *w);

#endif
