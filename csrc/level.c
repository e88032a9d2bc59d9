/* level.c - the world's level geometry seen from steer.h: handles,
 * polygons, tile maps, ray casts (agents included), line of sight, box
 * queries and containment. The geometry itself is geometry.c's. */
#include "contain.h"
#include "vec.h"
#include "world.h"

steer_shape steer_world_obstacle_shape(const steer_world *w, size_t i) {
  return w->geo.obstacles[i].handle;
}

steer_shape steer_world_wall_shape(const steer_world *w, size_t i) {
  return w->geo.walls[i].handle;
}

/* geo_kind and steer_shape_kind list the same kinds in the same order */
steer_shape_kind steer_world_shape(const steer_world *w, steer_shape h,
                                   size_t *index) {
  return (steer_shape_kind)geometry_kind(&w->geo, h, index);
}

steer_status steer_world_remove_shape(steer_world *w, steer_shape h) {
  return geometry_remove(&w->geo, h);
}

steer_status steer_world_set_obstacle(steer_world *w, size_t i, double x,
                                      double y, double radius) {
  return geometry_set_obstacle(&w->geo, i, x, y, radius);
}

steer_status steer_world_set_wall(steer_world *w, size_t i, steer_vec2 a,
                                  steer_vec2 b) {
  if (!world_wall_fits(w, a, b)) return STEER_EINVAL;
  return geometry_set_wall(&w->geo, i, a, b);
}

steer_status steer_world_add_walls(steer_world *w, const steer_vec2 *ends,
                                   size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!world_wall_fits(w, ends[2 * k], ends[2 * k + 1])) return STEER_EINVAL;
  return geometry_add_walls(&w->geo, ends, n);
}

steer_status steer_world_add_polygon(steer_world *w, const steer_vec2 *points,
                                     size_t n, int closed, steer_shape *h) {
  for (size_t k = 0; k + 1 < n + (closed && n > 2); k++)
    if (!world_wall_fits(w, points[k], points[(k + 1) % n]))
      return STEER_EINVAL;
  return geometry_add_polygon(&w->geo, points, n, closed, h);
}

void steer_world_set_wall_solid_left(steer_world *w, size_t i,
                                     int solid_left) {
  geometry_set_wall_solid(&w->geo, i, solid_left);
}

int steer_world_wall_solid_left(const steer_world *w, size_t i) {
  return (int)w->geo.walls[i].solid_left;
}

steer_shape steer_world_next_shape(const steer_world *w, unsigned kinds,
                                   steer_shape after) {
  return geometry_next_handle(&w->geo, kinds, after);
}

uint64_t steer_world_shape_births(const steer_world *w) {
  return w->geo.births;
}

steer_shape steer_world_next_shape_born(const steer_world *w, unsigned kinds,
                                        steer_shape after, uint64_t births) {
  return geometry_next_handle_born(&w->geo, kinds, after, births);
}

size_t steer_walls_from_tiles(const unsigned char *solid, size_t w, size_t h,
                              double cell, double ox, double oy,
                              steer_vec2 *out, size_t cap) {
  return geo_walls_from_tiles(solid, w, h, cell, ox, oy, out, cap);
}

/* ---- ray casts ------------------------------------------------------------ */

#define CHUNK_CELLS 1.0   /* a chunk spans about this many cells */
#define CHUNKS_MAX 4096   /* longer rays are one chunk */

/* How many pieces a ray is cut into, of about CHUNK_CELLS of the walls'
   cells each. */
static size_t ray_chunks(const steer_world *w, const geo_ray *r) {
  const geo_index *x = &w->geo.wall_index;
  double cells = fmax(fabs(r->d.x) * x->inv_x, fabs(r->d.y) * x->inv_y);
  double n = ceil(cells / CHUNK_CELLS);
  return n >= 1 && n <= CHUNKS_MAX ? (size_t)n : 1;
}

/* The agents on the ray, a chunk at a time (each chunk's disc grown by the
   widest agent radius), until a hit lies before the next chunk. */
static void ray_agents(const steer_world *w, const geo_ray *r, long ignore,
                       geo_hit *hit) {
  if (w->count == 0) return;
  double widest = w->radius_bound; /* at least every radius: the same hit */
  size_t n = ray_chunks(w, r);
  steer_vec2 from = r->s;
  for (size_t k = 0; k < n; k++) {
    double t1 = k + 1 == n ? 1 : (double)(k + 1) / (double)n;
    steer_vec2 to = k + 1 == n ? v2_add(r->s, r->d)
                               : v2_add(r->s, v2_scale(r->d, t1));
    steer_vec2 mid = v2_scale(v2_add(from, to), 0.5);
    double reach = v2_len(v2_sub(to, from)) * 0.5 + widest;
    geo_box q = geo_box_around(r->s, v2_add(r->s, r->d), 0);
    grid_cursor c;
    grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, mid.x, mid.y,
                     reach + geo_slack(reach, v2_len(mid)));
    /* a ghost has no body: rays pass through it (a marker, a pointer) */
    for (int32_t j; (j = grid_cursor_next(&c)) >= 0;)
      if (j != ignore && w->group_bit[j])
        geo_ray_circle_images(&w->geo, r, q, world_pos(w, (size_t)j),
                              w->radius[j], GEO_HIT_AGENT, (size_t)j, hit);
    if (hit->fraction <= t1) return;
    from = to;
  }
}

int steer_world_raycast(const steer_world *w, steer_vec2 a, steer_vec2 b,
                        unsigned kinds, steer_id ignore, steer_ray_hit *out) {
  return steer_world_raycast_ignoring(w, a, b, kinds, ignore, 0, out);
}

int steer_world_raycast_ignoring(const steer_world *w, steer_vec2 a,
                                 steer_vec2 b, unsigned kinds,
                                 steer_id ignore, steer_shape ignore_shape,
                                 steer_ray_hit *out) {
  geo_ray r = geometry_ray(&w->geo, a, b);
  geo_hit hit = geo_hit_none();
  hit.geo = &w->geo;
  hit.ignore = ignore_shape;
  geometry_raycast(&w->geo, &r, kinds, &hit);
  if (kinds & STEER_RAY_AGENTS)
    ray_agents(w, &r, ignore ? steer_world_index(w, ignore) : -1, &hit);
  if (!hit.kind) return 0;
  geo_hit_finish(&r, &hit);
  out->fraction = hit.fraction;
  out->point = hit.point;
  out->normal = hit.normal;
  out->kind = (steer_hit_kind)hit.kind;
  out->shape = hit.kind == GEO_HIT_WALL       ? w->geo.walls[hit.index].handle
               : hit.kind == GEO_HIT_OBSTACLE ? w->geo.obstacles[hit.index].handle
                                              : 0;
  out->agent = hit.kind == GEO_HIT_AGENT ? steer_world_id_at(w, hit.index) : 0;
  return 1;
}

int steer_world_line_of_sight(const steer_world *w, steer_vec2 a,
                              steer_vec2 b) {
  steer_ray_hit hit;
  return !steer_world_raycast(w, a, b, STEER_RAY_WALLS | STEER_RAY_OBSTACLES,
                              0, &hit);
}

/* ---- boxes ---------------------------------------------------------------- */

/* Is v in [lo, hi] (on a torus axis of `extent`: some image of it)? */
static int in_span(double v, double lo, double hi, double extent, int wrap) {
  if (!wrap) return v >= lo && v <= hi;
  double span = hi - lo;
  if (span >= extent) return 1;
  double u = fmod(v - lo, extent);
  if (u < 0) u += extent;
  return u <= span;
}

void steer_world_query_box(const steer_world *w, double x1, double y1,
                           double x2, double y2, steer_visit_fn visit,
                           void *ud) {
  double lx = fmin(x1, x2), ly = fmin(y1, y2);
  double sx = fmax(x1, x2) - lx, sy = fmax(y1, y2) - ly;
  steer_vec2 mid = v2(lx + sx * 0.5, ly + sy * 0.5);
  double reach = v2_len(v2(sx, sy)) * 0.5;
  int wrap = w->geo.wrap;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, mid.x, mid.y,
                   reach + geo_slack(reach, v2_len(mid)));
  /* a ghost (group bit 0) is found by no query, as in world:query */
  for (int32_t j; (j = grid_cursor_next(&c)) >= 0;)
    if (w->group_bit[j] &&
        in_span(w->x[j], lx, fmax(x1, x2), w->def.width, wrap) &&
        in_span(w->y[j], ly, fmax(y1, y2), w->def.height, wrap) &&
        visit(ud, (size_t)j))
      return;
}

/* ---- containment ---------------------------------------------------------- */

steer_vec2 steer_agent_contain(const steer_world *w, size_t i,
                               const steer_vec2 *points, size_t n,
                               double feeler_length) {
  return geo_contain(world_pos(w, i), world_vel(w, i), points, n, NULL,
                     feeler_length, w->max_force[i]);
}
