/* contain.h - keeping agents inside a polygon (contain.c) and the band
   index that lets a big region answer in time independent of its edge
   count (contain_index.c). Internal. */
#ifndef STEER_CONTAIN_H
#define STEER_CONTAIN_H

#include <stdint.h>

#include "steer.h"

/* A closed polygon's edges, e = pts[e] -> pts[(e + 1) % n], sorted into
   horizontal bands: band k covers y in [y0 + k / inv_h, y0 + (k + 1) /
   inv_h) and lists every edge whose y range meets it (the first band
   reaches down to -inf, the last up to +inf). Built once per region; read
   only after, so threads share it. */
typedef struct contain_index {
  size_t n;
  steer_vec2 *unit;  /* edge e's unit direction, as contain.c's unit() */
  double y0, inv_h;  /* inv_h 0: one band holding every edge */
  uint32_t bands;
  uint32_t *start;   /* band k: edge[start[k] .. start[k + 1]) */
  uint32_t *edge;    /* in increasing order within a band */
} contain_index;

/* The index of polygon pts[0 .. n - 1] (n >= 1), or NULL when memory runs
   out (callers then take every edge). */
contain_index *contain_index_build(const steer_vec2 *pts, size_t n);
void contain_index_free(contain_index *x);
/* The band holding y, or -1 when y is not a number. */
long contain_band(const contain_index *x, double y);

/* a / |a|, or zero when a is zero or not a number (contain.c). */
steer_vec2 contain_unit(steer_vec2 a);

/* Is p inside the polygon (even-odd rule)? */
int geo_inside(const steer_vec2 *pts, size_t n, steer_vec2 p);
/* The push back inside, zero or max_force long. For p outside the polygon
   (even-odd): toward the nearest boundary point. Else, when the feeler
   from p along v, max(length, |v|^2 / max_force) long, crosses an edge
   (not one through p): from its tip toward the nearest point of the first
   edge crossed (the lowest-numbered at a tie; that edge's inward normal if
   the tip lies on it); else zero. `x`, when not NULL, is the polygon's
   index: the same answer (unless the feeler runs along an edge's line to
   within rounding, where either answer is noise), in time that depends on
   the edges in the bands the feeler spans, not on n. */
steer_vec2 geo_contain(steer_vec2 p, steer_vec2 v, const steer_vec2 *pts,
                       size_t n, const contain_index *x, double length,
                       double max_force);

#endif
