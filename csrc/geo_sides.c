/* geo_sides.c - which side of a polygon's edges is solid (geometry.h).
 *
 * A closed convex polygon is solid on the same side of every edge: the
 * side where the other edges lie. ORCA takes such an edge only from
 * outside, as RVO2 takes an obstacle's edge only when the agent can see
 * it: from inside its line the polygon's other edges stand in the way.
 * Any other polygon (concave, self-crossing, a polyline, one on a torus,
 * whose edges are placed one by one) keeps its edges two-sided. */
#include "geometry.h"

/* Polygons with more edges stay two-sided: the test below looks at every
   pair of edges. */
#define SIDES_MAX_EDGES 64

/* > 0 when p lies left of a -> b */
static double side_of(steer_vec2 a, steer_vec2 b, steer_vec2 p) {
  return v2_cross(v2_sub(b, a), v2_sub(p, a));
}

/* Do the edges close up: each one's end the start of another? (A
   polyline does not, unless it comes back to its first point.) */
static int closes(const geo_wall *walls, size_t n) {
  for (size_t e = 0; e < n; e++) {
    size_t f = 0;
    while (f < n && (f == e || walls[f].a.x != walls[e].b.x ||
                     walls[f].a.y != walls[e].b.y))
      f++;
    if (f == n) return 0;
  }
  return 1;
}

/* The edges in any order (the same answer for a polygon just added, one
   restored from a snapshot, and one whose edge the C API moved): one
   side when they close up and are convex - every end of every edge on one
   side of every edge's line or on it (exactly: ends that rounding puts a
   hair over the line make the polygon two-sided), not all on it. */
geo_side geo_polygon_side(const geometry *g, const geo_wall *walls, size_t n) {
  if (g->wrap || n < 3 || n > SIDES_MAX_EDGES || !closes(walls, n))
    return GEO_TWO_SIDED;
  int left = 0, right = 0;
  for (size_t e = 0; e < n; e++) {
    for (size_t f = 0; f < n; f++) {
      double ca = side_of(walls[e].a, walls[e].b, walls[f].a);
      double cb = side_of(walls[e].a, walls[e].b, walls[f].b);
      left |= ca > 0 || cb > 0;
      right |= ca < 0 || cb < 0;
    }
  }
  return left && !right ? GEO_SOLID_LEFT
         : right && !left ? GEO_SOLID_RIGHT
                          : GEO_TWO_SIDED;
}

geo_side geo_polygon_side_of(const geometry *g, uint64_t handle) {
  geo_wall edges[SIDES_MAX_EDGES];
  size_t n = 0;
  for (size_t k = 0; k < g->wall_count; k++) {
    if (g->walls[k].handle != handle) continue;
    if (n == SIDES_MAX_EDGES) return GEO_TWO_SIDED; /* too many to test */
    edges[n++] = g->walls[k];
  }
  return geo_polygon_side(g, edges, n);
}

steer_status geo_sides_adopt(geometry *g) {
  size_t n = g->slot_count;
  for (size_t s = 0; s < n; s++) g->slots[s].side = GEO_TWO_SIDED;
  if (g->wrap) return STEER_OK;
  /* each polygon's edges gathered (they lie anywhere once walls were
     removed): a count per slot, then the walls placed by slot */
  size_t *start = alloc_bytes(g->alloc, NULL, 0, (n + 1) * sizeof *start);
  geo_wall *by_slot =
      alloc_bytes(g->alloc, NULL, 0, (g->wall_count + 1) * sizeof *by_slot);
  steer_status st = start && by_slot ? STEER_OK : STEER_ENOMEM;
  if (st == STEER_OK) {
    for (size_t s = 0; s <= n; s++) start[s] = 0;
    for (size_t k = 0; k < g->wall_count; k++)
      start[geo_handle_slot(g->walls[k].handle) + 1]++;
    for (size_t s = 0; s < n; s++) start[s + 1] += start[s];
    for (size_t k = 0; k < g->wall_count; k++)
      by_slot[start[geo_handle_slot(g->walls[k].handle)]++] = g->walls[k];
    /* start[s] is now where slot s + 1's walls begin */
    for (size_t s = 0; s < n; s++) {
      size_t from = s ? start[s - 1] : 0;
      if (g->slots[s].kind == GEO_POLYGON)
        g->slots[s].side =
            geo_polygon_side(g, by_slot + from, start[s] - from);
    }
  }
  alloc_bytes(g->alloc, start, start ? (n + 1) * sizeof *start : 0, 0);
  alloc_bytes(g->alloc, by_slot,
              by_slot ? (g->wall_count + 1) * sizeof *by_slot : 0, 0);
  return st;
}
