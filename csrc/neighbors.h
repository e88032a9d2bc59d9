/* neighbors.h - flocking sums gathered over the world's grid (internal). */
#ifndef STEER_NEIGHBORS_H
#define STEER_NEIGHBORS_H

#include "flocking.h"
#include "world.h"

/* A run of candidate indices seen shifted by (sx, sy) (torus images). */
typedef struct flock_span {
  size_t from, to;
  double sx, sy;
} flock_span;

/* The spans of the 3 x 3 cells around cell (cx, cy) of a sorted dense
   grid (or a hashed grid's box), row by row; returns how many (at most
   9). */
int flock_spans(const steer_world *w, int32_t cx, int32_t cy,
                flock_span out[9]);
/* Adds to s the candidates of the spans (agent i itself left out);
   returns their number. */
size_t flock_span_walk(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, flock_sums *s);

/* Can flock_gather take the sorted path (a dense grid or a hashed grid's
   box) for these rules? */
int flock_fast_ok(const steer_world *w, const flock_rules *q);
/* Agent i's sums (fast: flock_fast_ok said yes), counting the candidates
   and neighbors into *stats (or not, when NULL). */
void flock_gather(const steer_world *w, size_t i, const flock_rules *q,
                  int fast, flock_sums *s, steer_stats *stats);
/* Each rule's filter as agent i sees it (its facing for view cones). */
void flock_views(const steer_world *w, size_t i, const flock_rules *q,
                 neighbor_filter view[3]);
/* The force of flocking entry e (its rule, filter and falloff) from the
   sums of its walk. */
steer_vec2 flock_force(const steer_world *w, size_t i, const steer_entry *e,
                       const flock_sums *s);
/* The force of flocking entry e alone: one walk. */
steer_vec2 flock_entry_alone(const steer_world *w, size_t i,
                             const steer_entry *e, steer_stats *stats);
/* The force of flocking behavior b alone at `radius`: one walk. */
steer_vec2 flock_rule_alone(const steer_world *w, size_t i, steer_behavior b,
                            double radius, steer_stats *stats);

#endif
