/* contain.h - keeping agents inside a polygon (contain.c) and the band
   index that lets a big region answer in time independent of its edge
   count (contain_index.c). Internal. */
#ifndef STEER_CONTAIN_H
#define STEER_CONTAIN_H

#include <stdint.h>

#include "steer.h"

/* A closed polygon's edges, e = pts[e] -> pts[(e + 1) % n], bucketed by
   cells of a cols x rows grid over the polygon's box: cell (cx, cy) covers
   [x0 + cx / inv_w, x0 + (cx + 1) / inv_w) on x, likewise on y (the outer
   cells reach on to infinity; inv 0: one cell across that axis), and lists
   every edge whose box meets it, in increasing order. */
typedef struct contain_cells {
  double x0, y0, inv_w, inv_h;
  uint32_t cols, rows;
  uint32_t *start; /* cell c = cy * cols + cx: edge[start[c] .. start[c + 1]) */
  uint32_t *edge;
} contain_cells;

/* A region's index: horizontal bands (one column) for the inside test,
   whose ray runs along one band, and a grid for the feeler, which meets
   only the cells along it. Built once per region; read only after, so
   threads share it. */
typedef struct contain_index {
  size_t n;
  steer_vec2 *unit;    /* edge e's unit direction, as contain_unit() */
  contain_cells bands; /* cols == 1 */
  contain_cells grid;
} contain_index;

/* The index of polygon pts[0 .. n - 1] (n >= 1), or NULL when memory runs
   out (callers then take every edge). */
contain_index *contain_index_build(const steer_vec2 *pts, size_t n);
void contain_index_free(contain_index *x);
/* The column (axis 0) or row (axis 1) of c holding coordinate v, or -1 when
   v is not a number. Monotone in v. */
long contain_cell(const contain_cells *c, int axis, double v);

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
   index: the same bits, in time that depends on the edges near p, not on
   n. */
steer_vec2 geo_contain(steer_vec2 p, steer_vec2 v, const steer_vec2 *pts,
                       size_t n, const contain_index *x, double length,
                       double max_force);

#endif
