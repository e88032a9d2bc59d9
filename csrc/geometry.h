/* geometry.h - a level's static geometry: circle obstacles and wall
 * segments in spatial indexes, their handles, and the queries on them:
 * feeler avoidance, ray casts, containment, tile maps (internal).
 *
 * Obstacles and walls live in dense arrays (removing one moves the last
 * into its place) and each is indexed by its dense number in a geo_index.
 * Handles are stable ids (gen * 2^26 + slot + 1, like agents' ids): an
 * obstacle or wall handle names one item, a polygon handle names the walls
 * that carry its id. Results never depend on the index: among candidates
 * that tie, the lower dense number wins, as in a scan in array order.
 *
 * On a torus, positions are kept inside it (an obstacle's centre, a wall's
 * first end; the second end follows, so a wall may cross the seam). The
 * module knows nothing of the world: it gets the torus and an allocator.
 */
#ifndef STEER_GEOMETRY_H
#define STEER_GEOMETRY_H

#include <math.h>
#include "geo_halo.h"
#include "geo_index.h"
#include "vec.h"

#define GEO_SLOT_BITS 26
#define GEO_SLOT_MAX ((uint32_t)1 << GEO_SLOT_BITS)
#define GEO_GEN_MAX ((uint32_t)1 << 27) /* ids stay below 2^53 */
#define GEO_NONE UINT32_MAX
/* The slot a handle (not 0) names, live or not. */
static inline uint32_t geo_handle_slot(uint64_t handle) {
  return (uint32_t)((handle - 1) % GEO_SLOT_MAX);
}

typedef enum geo_kind {
  GEO_FREE, GEO_OBSTACLE, GEO_WALL, GEO_POLYGON
} geo_kind;

typedef struct geo_obstacle {
  double x, y, radius;
  uint64_t handle;
} geo_obstacle;

typedef struct geo_wall {
  steer_vec2 a, b;
  uint64_t handle; /* a wall's own handle or its polygon's */
  uint32_t solid_left; /* one-sided: solid on the left of a -> b (tiles) */
} geo_wall;

/* The solid side of a polygon's edges (geo_sides.c): left or right of each
   edge's a -> b when the polygon is closed and convex, else neither. */
typedef enum geo_side {
  GEO_TWO_SIDED, GEO_SOLID_LEFT, GEO_SOLID_RIGHT
} geo_side;

typedef struct geo_slot {
  uint32_t gen;
  uint32_t kind;  /* geo_kind */
  uint32_t index; /* dense number; a polygon's edge count; next free */
  uint32_t side;  /* geo_side: polygons; worked out, not stored in snapshots */
  uint64_t birth; /* geometry.births when taken (restored shapes: 0): a loop
                     visits the shapes born before it began */
} geo_slot;

typedef struct geometry {
  steer_allocator *alloc; /* the owner's (a world's), bytes counted there */
  int wrap;
  int quad; /* wall feelers test index entries four at a time (AVX) */
  double width, height;
  geo_obstacle *obstacles;
  size_t obstacle_count, obstacle_cap;
  geo_wall *walls;
  size_t wall_count, wall_cap;
  geo_index obstacle_index, wall_index;
  /* wall feelers' candidates per cell, built before a step that wants
     them (geometry_prepare); the cell size it starts from */
  geo_halo wall_halo, obstacle_halo;
  double halo_cell;
  geo_slot *slots;
  size_t slot_count, slot_cap;
  uint32_t free_slot;
  uint64_t births; /* shapes taken a slot so far */
} geometry;

/* fmod is exact and cannot overflow; for |d| < extent, the usual case, the
   result is d -+ extent either way (the world's offsets use this too), and
   fmod would return d itself: it is called only beyond that */
static inline double geo_wrap_delta(double d, double extent) {
  double half = extent * 0.5;
  if (d > half || d < -half) {
    if (!(fabs(d) < extent)) d = fmod(d, extent);
    if (d > half)
      d -= extent;
    else if (d < -half)
      d += extent;
  }
  return d;
}

/* The shortest offset from a to b (wrapped on a torus). */
static inline steer_vec2 geo_offset(const geometry *g, steer_vec2 a,
                                    steer_vec2 b) {
  steer_vec2 d = v2_sub(b, a);
  if (g->wrap) {
    d.x = geo_wrap_delta(d.x, g->width);
    d.y = geo_wrap_delta(d.y, g->height);
  }
  return d;
}

/* p taken inside the torus (unchanged elsewhere). */
steer_vec2 geometry_inside(const geometry *g, steer_vec2 p);
/* Boxes of an obstacle, a wall, and of two points grown by pad. */
geo_box geo_obstacle_box(const geo_obstacle *o);
geo_box geo_wall_box(const geo_wall *s);
geo_box geo_box_around(steer_vec2 a, steer_vec2 b, double pad);

void geometry_init(geometry *g, steer_allocator *alloc, double cell,
                   int wrap, double width, double height);
void geometry_free(geometry *g);
/* Before a step's forces, in a serial phase: builds what the last step's
   feeler queries wanted (geo_halo.h). Never fails (queries fall back to
   the index). */
void geometry_prepare(geometry *g);
/* After a step's forces, in a serial phase: a halo the step's queries
   asked for and never built yet is built now, so a level that stands still
   from its first step reads halos from its second. */
void geometry_after_step(geometry *g);

/* Adding: *handle gets the new handle. STEER_ENOMEM changes nothing. */
steer_status geometry_add_obstacle(geometry *g, double x, double y,
                                   double radius, uint64_t *handle);
steer_status geometry_add_wall(geometry *g, steer_vec2 a, steer_vec2 b,
                               uint64_t *handle);
/* n walls, from ends[2k] to ends[2k + 1], all or (STEER_ENOMEM) none. */
steer_status geometry_add_walls(geometry *g, const steer_vec2 *ends,
                                size_t n);
/* The edges of a polyline (closed: back to the first point too), zero
   length ones left out, as walls under one handle. */
steer_status geometry_add_polygon(geometry *g, const steer_vec2 *points,
                                  size_t n, int closed, uint64_t *handle);
/* Removes what a handle names (STEER_EINVAL for a stale one). */
steer_status geometry_remove(geometry *g, uint64_t handle);
/* The kind of a live handle (GEO_FREE when stale) and, for obstacles and
   walls, its dense number. */
geo_kind geometry_kind(const geometry *g, uint64_t handle, size_t *index);
/* Moves obstacle / wall k (dense number) and re-indexes it; STEER_ENOMEM
   leaves it where it was. */
steer_status geometry_set_obstacle(geometry *g, size_t k, double x, double y,
                                   double radius);
steer_status geometry_set_wall(geometry *g, size_t k, steer_vec2 a,
                               steer_vec2 b);
/* Makes wall k (dense number) one-sided, solid on its left (or not). */
void geometry_set_wall_solid(geometry *g, size_t k, int solid_left);
/* Removes every obstacle (walls: every wall and polygon). */
void geometry_clear_obstacles(geometry *g);
void geometry_clear_walls(geometry *g);
/* Live handles in slot order: 0 starts, 0 ends. kinds: a bit mask of
   (1 << geo_kind). */
uint64_t geometry_next_handle(const geometry *g, unsigned kinds,
                              uint64_t after);
/* The same, only the shapes born by `births` (g->births when a loop
   began): shapes added during the loop are not visited, so a loop that
   adds shapes ends. */
uint64_t geometry_next_handle_born(const geometry *g, unsigned kinds,
                                   uint64_t after, uint64_t births);
/* Bytes of the slot table and handles (snapshots): live handle count. */
size_t geometry_handle_count(const geometry *g, unsigned kinds);

/* Restoring (snapshots): room for the arrays, which the caller then fills
   (slots, slot_count, free_slot, obstacles, walls and their counts); then
   geometry_adopt checks that they fit together and indexes them: STEER_OK,
   STEER_EINVAL (inconsistent: the caller discards g) or STEER_ENOMEM. */
steer_status geometry_reserve(geometry *g, size_t slots, size_t obstacles,
                              size_t walls);
steer_status geometry_adopt(geometry *g);

/* ---- the solid side of convex polygons (geo_sides.c) ------------------- */

/* The solid side of walls[0 .. n - 1], a polygon's edges in any order
   (geo_side). */
geo_side geo_polygon_side(const geometry *g, const geo_wall *walls, size_t n);
/* The side of polygon `handle` from its edges wherever they lie (one of
   them moved). */
geo_side geo_polygon_side_of(const geometry *g, uint64_t handle);
/* Every polygon's side worked out again from its edges (restoring):
   STEER_OK or STEER_ENOMEM. */
steer_status geo_sides_adopt(geometry *g);
/* The solid side of wall s (geo_side: its polygon's, worked out by
   geo_sides.c; two-sided for walls of their own). */
static inline uint32_t geo_wall_side(const geometry *g, const geo_wall *s) {
  return g->slots[geo_handle_slot(s->handle)].side;
}

/* Given a and b, wall k's ends as offsets from a point: is that point on
   the wall's solid side (a convex polygon's edge, the point inside the
   edge's line)? Such an edge faces away from it: ORCA leaves it to the
   polygon's other edges. */
static inline int geo_wall_faces_away(const geometry *g, size_t k,
                                      steer_vec2 a, steer_vec2 b) {
  uint32_t side = geo_wall_side(g, &g->walls[k]);
  double c = v2_cross(a, b); /* > 0: the point is left of a -> b */
  return (side == GEO_SOLID_LEFT && c > 0) ||
         (side == GEO_SOLID_RIGHT && c < 0);
}

/* ---- feeler avoidance (semantics of API.md, obstacles.c before) -------- */

/* What a feeler found among obstacles so far; index SIZE_MAX: none. */
typedef struct geo_feeler {
  steer_vec2 p, ahead, feeler, tip; /* feeler = ahead * length */
  double radius, extra; /* the agent's radius, the extra reach */
  double best;    /* obstacles: squared distance; walls: fraction */
  size_t index;
  steer_vec2 away; /* obstacles: the unit push; walls: the push */
  double length;  /* the feeler's length */
  steer_vec2 hit_a, hit_b; /* index walks: the best's shape, its push
                              computed once the walk is over */
} geo_feeler;

void geo_feeler_start(geo_feeler *f, steer_vec2 p, steer_vec2 v,
                      double length, double radius, double extra);
/* Tests obstacle / wall k against the feeler, keeping the better one. */
void geo_feeler_obstacle(const geometry *g, geo_feeler *f, size_t k);
void geo_feeler_wall(const geometry *g, geo_feeler *f, size_t k);
/* The force of the obstacle nearest the agent of those the feeler (p to
   its tip) comes within its radius + the agent's radius + extra of, from
   its centre toward the feeler's nearest point, scaled to max_force; zero
   when none. */
steer_vec2 geometry_avoid_obstacles(const geometry *g, steer_vec2 p,
                                    steer_vec2 v, double radius, double extra,
                                    double max_force, double length);
/* The push away from the first wall the feeler crosses. */
steer_vec2 geometry_avoid_walls(const geometry *g, steer_vec2 p, steer_vec2 v,
                                double length);
/* The same with Buckland's whiskers: two more feelers of half the length,
   45 degrees left and right of the first; the longest of the three pushes
   (the deepest feeler's; ties: ahead, left, right). */
steer_vec2 geometry_avoid_walls_whiskers(const geometry *g, steer_vec2 p,
                                         steer_vec2 v, double length);
/* ... for n agents at once, bit for bit. */
void geometry_avoid_walls_whiskers_many(const geometry *g, int n,
                                        const steer_vec2 *p,
                                        const steer_vec2 *v,
                                        const double *length,
                                        steer_vec2 *out);
/* The same for n feelers at once (a batch of agents): out[k] is
   geometry_avoid_walls(g, p[k], v[k], length[k]), and
   geometry_avoid_obstacles(g, p[k], v[k], radius[k], extra[k],
   max_force[k], length), bit for bit. */
void geometry_avoid_walls_many(const geometry *g, int n, const steer_vec2 *p,
                               const steer_vec2 *v, const double *length,
                               steer_vec2 *out);
/* Both for n agents whose walls come first: walls[k] as
   geometry_avoid_walls_many gives it (lengths wall_length[k]); where
   weight * walls[k] is no longer than sqrt(loud) (it does not speak),
   felt[k] = 1 and obstacles[k] as geometry_avoid_obstacles_many gives it
   (the rest as there), else felt[k] = 0 and obstacles[k] untouched. The
   same bits as the two calls; returns 0, computing nothing, when the
   level's halos cannot answer every feeler (the caller makes the two
   calls, which ask for them). */
int geometry_avoid_walls_obstacles_many(
    const geometry *g, int n, const steer_vec2 *p, const steer_vec2 *v,
    const double *wall_length, double weight, double loud,
    const double *radius, const double *extra, const double *max_force,
    double length, steer_vec2 *walls, steer_vec2 *obstacles, char *felt);
void geometry_avoid_obstacles_many(const geometry *g, int n,
                                   const steer_vec2 *p, const steer_vec2 *v,
                                   const double *radius, const double *extra,
                                   const double *max_force, double length,
                                   steer_vec2 *out);

/* ---- ray casts ---------------------------------------------------------- */

enum { GEO_RAY_WALLS = 1, GEO_RAY_OBSTACLES = 2, GEO_RAY_AGENTS = 4 };
typedef enum geo_hit_kind { GEO_HIT_WALL = 1, GEO_HIT_OBSTACLE, GEO_HIT_AGENT }
    geo_hit_kind;

typedef struct geo_hit {
  double fraction; /* in [0, 1]; 2 while nothing is hit */
  int kind;        /* geo_hit_kind, 0 none */
  size_t index;    /* dense number of the wall, obstacle or agent */
  steer_vec2 a, b; /* what was hit: a wall's ends or a circle's centre and
                      (b.x) radius, at the image hit */
  steer_vec2 point, normal; /* filled by geo_hit_finish */
  const struct geometry *geo; /* with ignore: whose shapes */
  uint64_t ignore;            /* a shape's handle the ray passes through
                                 (0: none) */
} geo_hit;

/* The ray from s to s + d. On a torus s lies inside it and d is at most
   half the torus each way (the shortest offset). len and u: d's length
   and direction, worked out once for every circle the ray meets. */
typedef struct geo_ray {
  steer_vec2 s, d;
  double len;
  steer_vec2 u;
} geo_ray;

/* The ray from s to s + d (geo_ray's len and u filled in). */
geo_ray geo_ray_of(steer_vec2 s, steer_vec2 d);

/* A ray between two points: on a torus from a (taken inside it) to the
   nearest image of b. */
geo_ray geometry_ray(const geometry *g, steer_vec2 a, steer_vec2 b);
/* No hit yet. */
geo_hit geo_hit_none(void);
/* Keeps in *hit the better of it and a hit at `fraction` (lower fraction,
   then lower kind, then lower index) on the wall a-b or the circle at a of
   radius b.x. */
void geo_hit_offer(geo_hit *hit, double fraction, int kind, size_t index,
                   steer_vec2 a, steer_vec2 b);
/* The hit point and the normal (facing the ray) of the best hit. */
void geo_hit_finish(const geo_ray *r, geo_hit *hit);
/* The ray against one segment / circle at the given image shift. */
void geo_ray_segment(const geo_ray *r, steer_vec2 a, steer_vec2 b,
                     size_t index, geo_hit *hit);
void geo_ray_circle(const geo_ray *r, steer_vec2 c, double radius, int kind,
                    size_t index, geo_hit *hit);
/* The image shifts lo..hi (in periods of `extent`) of a shape spanning
   [b0, b1] along one torus axis that can meet [q0, q1] (a ray's box), at
   most two periods either side of the nearest; just 0 off a torus. */
void geo_image_range(const geometry *g, double q0, double q1, double b0,
                     double b1, double extent, double *lo, double *hi);
/* The ray against the images of a circle (just the circle off a torus)
   that can give its first hit: a ray starting inside the image nearest its
   start hits that one at 0; otherwise the images that meet box q and are,
   on each axis, nearest to some point of q (at most 4 per axis for a ray,
   whatever the radius and the torus: see raycast.c). */
void geo_ray_circle_images(const geometry *g, const geo_ray *r, geo_box q,
                           steer_vec2 c, double radius, int kind, size_t index,
                           geo_hit *hit);
/* The nearest wall or obstacle (kinds: GEO_RAY_* mask) on the ray (not
   finished: see geo_hit_finish). */
void geometry_raycast(const geometry *g, const geo_ray *r, unsigned kinds,
                      geo_hit *hit);

/* ---- tile maps (tiles.c; containment: contain.h) ------------------------- */

/* The boundary of solid (non-zero) tiles of a w x h map, tile (c, r) at
   solid[r * w + c] covering [ox + c cell, ox + (c+1) cell] x [oy + r cell,
   ...], as segments out[2k], out[2k+1] with collinear edges merged, each
   running with its solid side on the left (y up). Writes at most `cap`
   segments; returns how many there are. */
size_t geo_walls_from_tiles(const unsigned char *solid, size_t w, size_t h,
                            double cell, double ox, double oy,
                            steer_vec2 *out, size_t cap);

#endif
