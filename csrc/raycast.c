/* raycast.c - rays against walls and circles, marched through the
 * geometry's indexes a chunk at a time (geometry.h). */
#include "geometry.h"

#define CHUNK_CELLS 2.0   /* a chunk spans about this many cells */
#define CHUNKS_MAX 4096   /* longer rays are one chunk (the index may scan) */

geo_ray geometry_ray(const geometry *g, steer_vec2 a, steer_vec2 b) {
  geo_ray r;
  r.s = geometry_inside(g, a);
  r.d = geo_offset(g, a, b);
  return r;
}

void geo_hit_offer(geo_hit *hit, double fraction, steer_vec2 point,
                   steer_vec2 normal, int kind, size_t index) {
  if (fraction > hit->fraction) return;
  if (fraction == hit->fraction &&
      (kind > hit->kind || (kind == hit->kind && index >= hit->index)))
    return;
  hit->fraction = fraction;
  hit->point = point;
  hit->normal = normal;
  hit->kind = kind;
  hit->index = index;
}

static double cross(steer_vec2 a, steer_vec2 b) { return a.x * b.y - a.y * b.x; }

void geo_ray_segment(const geo_ray *r, steer_vec2 a, steer_vec2 b,
                     size_t index, geo_hit *hit) {
  steer_vec2 q = v2_sub(b, a), ap = v2_sub(a, r->s);
  double denom = cross(r->d, q);
  if (denom == 0) return; /* parallel (or a point): no crossing */
  double t = cross(ap, q) / denom; /* along the ray */
  double u = cross(ap, r->d) / denom; /* along the wall */
  if (!(t >= 0 && t <= 1 && u >= 0 && u <= 1) || t > hit->fraction) return;
  double len = v2_len(q);
  steer_vec2 normal = v2(-q.y / len, q.x / len);
  if (v2_dot(normal, r->d) > 0) normal = v2_scale(normal, -1);
  normal = v2(normal.x + 0.0, normal.y + 0.0); /* no -0 */
  geo_hit_offer(hit, t, v2_add(r->s, v2_scale(r->d, t)), normal,
                GEO_HIT_WALL, index);
}

void geo_ray_circle(const geo_ray *r, steer_vec2 c, double radius, int kind,
                    size_t index, geo_hit *hit) {
  steer_vec2 f = v2_sub(r->s, c); /* centre -> start */
  double r2 = radius * radius;
  if (v2_len2(f) <= r2) { /* starts inside: hit at once */
    steer_vec2 n = v2_normalize(f);
    if (n.x == 0 && n.y == 0) n = v2_scale(v2_forward(r->d), -1);
    geo_hit_offer(hit, 0, r->s, n, kind, index);
    return;
  }
  double len = v2_len(r->d);
  if (len == 0) return;
  steer_vec2 u = v2_direction(r->d, len);
  double proj = -v2_dot(f, u); /* distance to the closest approach */
  if (proj < 0) return;        /* heading away */
  double perp2 = v2_len2(v2_add(f, v2_scale(u, proj)));
  if (perp2 > r2) return;
  double dist = proj - sqrt(r2 - perp2);
  if (dist > len) return;
  if (dist < 0) dist = 0;
  double t = dist / len;
  if (t > 1) t = 1;
  if (t > hit->fraction) return;
  steer_vec2 n = v2_normalize(v2_add(f, v2_scale(u, dist)));
  if (n.x == 0 && n.y == 0) n = v2_scale(u, -1);
  geo_hit_offer(hit, t, v2_add(r->s, v2_scale(r->d, t)), n, kind, index);
}

size_t geometry_ray_chunks(const geometry *g, const geo_ray *r) {
  double cells = fmax(fabs(r->d.x) * g->wall_index.inv_x,
                      fabs(r->d.y) * g->wall_index.inv_y);
  double n = ceil(cells / CHUNK_CELLS);
  return n >= 1 && n <= CHUNKS_MAX ? (size_t)n : 1;
}

/* The image shifts [lo, hi] of a box [b0, b1] that can meet [q0, q1] on a
   torus axis of `extent` (just 0 elsewhere). */
static void shifts(const geometry *g, double q0, double q1, double b0,
                   double b1, double extent, double *lo, double *hi) {
  if (!g->wrap) {
    *lo = *hi = 0;
    return;
  }
  *lo = ceil((q0 - b1) / extent - 1e-6);
  *hi = floor((q1 - b0) / extent + 1e-6);
}

static void ray_walls(const geometry *g, const geo_ray *r, geo_box q,
                      geo_hit *hit) {
  geo_cursor c;
  geo_cursor_init(&c, &g->wall_index, q, g->wall_count);
  for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
    const geo_wall *s = &g->walls[k];
    geo_box b = geo_wall_box(s);
    double x0, x1, y0, y1;
    shifts(g, q.x0, q.x1, b.x0, b.x1, g->width, &x0, &x1);
    shifts(g, q.y0, q.y1, b.y0, b.y1, g->height, &y0, &y1);
    for (double i = x0; i <= x1; i++)
      for (double j = y0; j <= y1; j++) {
        steer_vec2 shift = v2(i * g->width, j * g->height);
        geo_ray_segment(r, v2_add(s->a, shift), v2_add(s->b, shift),
                        (size_t)k, hit);
      }
  }
}

void geo_ray_circle_images(const geometry *g, const geo_ray *r, geo_box q,
                           steer_vec2 c, double radius, int kind, size_t index,
                           geo_hit *hit) {
  double x0, x1, y0, y1;
  shifts(g, q.x0, q.x1, c.x - radius, c.x + radius, g->width, &x0, &x1);
  shifts(g, q.y0, q.y1, c.y - radius, c.y + radius, g->height, &y0, &y1);
  for (double i = x0; i <= x1; i++)
    for (double j = y0; j <= y1; j++) {
      steer_vec2 image = v2(c.x + i * g->width, c.y + j * g->height);
      geo_ray_circle(r, image, radius, kind, index, hit);
    }
}

static void ray_obstacles(const geometry *g, const geo_ray *r, geo_box q,
                          geo_hit *hit) {
  geo_cursor c;
  geo_cursor_init(&c, &g->obstacle_index, q, g->obstacle_count);
  for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
    const geo_obstacle *o = &g->obstacles[k];
    geo_ray_circle_images(g, r, q, v2(o->x, o->y), o->radius,
                          GEO_HIT_OBSTACLE, (size_t)k, hit);
  }
}

void geometry_raycast(const geometry *g, const geo_ray *r, unsigned kinds,
                      geo_hit *hit) {
  if (!(kinds & GEO_RAY_WALLS && g->wall_count) &&
      !(kinds & GEO_RAY_OBSTACLES && g->obstacle_count))
    return;
  size_t n = geometry_ray_chunks(g, r);
  steer_vec2 from = r->s;
  for (size_t k = 0; k < n; k++) {
    double t1 = k + 1 == n ? 1 : (double)(k + 1) / (double)n;
    steer_vec2 to = k + 1 == n ? v2_add(r->s, r->d)
                               : v2_add(r->s, v2_scale(r->d, t1));
    geo_box q = geo_box_around(from, to, 0);
    if (kinds & GEO_RAY_WALLS && g->wall_count) ray_walls(g, r, q, hit);
    if (kinds & GEO_RAY_OBSTACLES && g->obstacle_count)
      ray_obstacles(g, r, q, hit);
    /* every hit before t1 lies in the chunks walked so far */
    if (hit->fraction <= t1) return;
    from = to;
  }
}
