/* orca_shapes.c - the static geometry near an agent, for ORCA's
 * obstacle half-planes (orca.h). The candidates come from the geometry
 * index (geometry.h), so the cost follows the shapes near the agent, not
 * the level's total; ORCA only sees the shapes. */
#include "orca.h"

/* The point of segment a-b nearest the origin. */
static steer_vec2 nearest_on_segment(steer_vec2 a, steer_vec2 b) {
  steer_vec2 ab = v2_sub(b, a);
  double len2 = v2_len2(ab);
  double t = len2 > 0 ? -v2_dot(a, ab) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return v2_add(a, v2_scale(ab, t));
}

/* Keeps out[0 .. *n - 1] the `max` shapes of least gap, by insertion. The
   index may offer a shape once per cell it covers: `ids` (kind and dense
   number) keeps each shape once. */
static void keep_nearest(orca_shape *out, double *gaps, size_t *ids,
                         size_t *n, size_t max, orca_shape s, double gap,
                         size_t id) {
  for (size_t k = 0; k < *n; k++)
    if (ids[k] == id) return;
  if (*n == max && !(gap < gaps[*n - 1])) return;
  size_t k = *n < max ? (*n)++ : *n - 1;
  for (; k > 0 && gap < gaps[k - 1]; k--) {
    out[k] = out[k - 1];
    gaps[k] = gaps[k - 1];
    ids[k] = ids[k - 1];
  }
  out[k] = s;
  gaps[k] = gap;
  ids[k] = id;
}

size_t orca_nearby_shapes(const steer_world *w, size_t i, double reach,
                          orca_shape *out, size_t max) {
  double gaps[STEER_ORCA_MAX_NEIGHBORS];
  size_t ids[STEER_ORCA_MAX_NEIGHBORS]; /* 2 * number + (wall ? 1 : 0) */
  size_t n = 0;
  if (max > STEER_ORCA_MAX_NEIGHBORS) max = STEER_ORCA_MAX_NEIGHBORS;
  if (max == 0) return 0;
  const geometry *g = &w->geo;
  steer_vec2 p = world_pos(w, i);
  double body = w->radius[i];
  /* a shape within reach has its box within reach + body of p */
  geo_box q = geo_box_around(p, p, reach + body);
  geo_cursor c;
  if (g->obstacle_count) {
    geo_cursor_init(&c, &g->obstacle_index, q, g->obstacle_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_obstacle *o = &g->obstacles[k];
      steer_vec2 d = world_offset(w, p, v2(o->x, o->y));
      double gap = v2_len(d) - o->radius - body;
      orca_shape s = {d, d, o->radius};
      if (gap <= reach)
        keep_nearest(out, gaps, ids, &n, max, s, gap, 2 * (size_t)k);
    }
  }
  if (g->wall_count) {
    geo_cursor_init(&c, &g->wall_index, q, g->wall_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_wall *l = &g->walls[k];
      steer_vec2 a = world_offset(w, p, l->a);
      orca_shape s = {a, v2_add(a, v2_sub(l->b, l->a)), 0};
      double gap = v2_len(nearest_on_segment(s.a, s.b)) - body;
      if (gap <= reach)
        keep_nearest(out, gaps, ids, &n, max, s, gap, 2 * (size_t)k + 1);
    }
  }
  return n;
}

void orca_shape_line(const orca_shape *s, double body, steer_vec2 vel,
                     double horizon, double dt, orca_line *out) {
  steer_vec2 ab = v2_sub(s->b, s->a);
  double len2 = v2_len2(ab);
  double t = len2 > 0 ? -v2_dot(s->a, ab) / len2 : 0;
  if (t > 0 && t < 1) /* beside a wall: it is a half-plane to the agent */
    orca_static_line(v2_add(s->a, v2_scale(ab, t)), body + s->radius, horizon,
                     dt, 1, out);
  else /* past its end, or a circle: a disc at rest, avoided fully */
    orca_agent_line(t <= 0 ? s->a : s->b, vel, vel, body + s->radius, horizon,
                    dt, 1, 1, out);
}
