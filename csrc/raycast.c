/* raycast.c - rays against walls and circles, marched through the
 * geometry's indexes a column of cells at a time (geometry.h). */
#include "geometry.h"

geo_ray geo_ray_of(steer_vec2 s, steer_vec2 d) {
  geo_ray r;
  r.s = s;
  r.d = d;
  r.len = v2_len(d);
  r.u = r.len == 0 ? v2(0, 0) : v2_direction(d, r.len);
  return r;
}

geo_ray geometry_ray(const geometry *g, steer_vec2 a, steer_vec2 b) {
  steer_vec2 s = geometry_inside(g, a);
  /* on a torus, between both ends' images inside it: b - a from an end far
     outside (1e95) loses the other end's every digit, and the ray would
     point anywhere (world:nearest's `visible` took its sight lines from
     the centre's image, and disagreed) */
  return geo_ray_of(s, geo_offset(g, s, geometry_inside(g, b)));
}

geo_hit geo_hit_none(void) {
  geo_hit h = {0}; /* not memset: one call per ray cast counts */
  h.fraction = 2;
  return h;
}

/* Is the wall or obstacle `index` part of the shape the ray ignores? */
static int ignored(const geo_hit *hit, int kind, size_t index) {
  const geometry *g = hit->geo;
  if (kind == GEO_HIT_WALL) return g->walls[index].handle == hit->ignore;
  if (kind == GEO_HIT_OBSTACLE) return g->obstacles[index].handle == hit->ignore;
  return 0;
}

void geo_hit_offer(geo_hit *hit, double fraction, int kind, size_t index,
                   steer_vec2 a, steer_vec2 b) {
  if (fraction > hit->fraction) return;
  if (fraction == hit->fraction &&
      (kind > hit->kind || (kind == hit->kind && index >= hit->index)))
    return;
  /* looked at only for a hit that would be the best (few) */
  if (hit->ignore && ignored(hit, kind, index)) return;
  hit->fraction = fraction;
  hit->kind = kind;
  hit->index = index;
  hit->a = a;
  hit->b = b;
}


void geo_hit_finish(const geo_ray *r, geo_hit *hit) {
  if (!hit->kind) return;
  hit->point = v2_add(r->s, v2_scale(r->d, hit->fraction));
  steer_vec2 n;
  if (hit->kind == GEO_HIT_WALL) {
    steer_vec2 q = v2_sub(hit->b, hit->a);
    double len = v2_len(q);
    n = v2(-q.y / len, q.x / len);
    if (v2_dot(n, r->d) > 0) n = v2_scale(n, -1);
  } else { /* from the centre; a ray starting at it: against the ray */
    n = v2_normalize(v2_sub(hit->point, hit->a));
    if (n.x == 0 && n.y == 0) n = v2_scale(v2_forward(r->d), -1);
  }
  hit->normal = v2(n.x + 0.0, n.y + 0.0); /* no -0 */
}

/* The ray against the segment a-b: one branch on the answer (most
   candidates miss, in no predictable order), no division before it. */
static inline void ray_segment(const geo_ray *r, steer_vec2 a, steer_vec2 b,
                               size_t index, geo_hit *hit) {
  steer_vec2 q = v2_sub(b, a), ap = v2_sub(a, r->s);
  double denom = v2_cross(r->d, q); /* 0: parallel (or a point), no crossing */
  /* t = tn / denom along the ray, u = un / denom along the wall, both in
     [0, 1]: tested without dividing, signs turned so that denom > 0 */
  double tn = v2_cross(ap, q), un = v2_cross(ap, r->d);
  double ad = denom < 0 ? -denom : denom;
  double ts = denom < 0 ? -tn : tn, us = denom < 0 ? -un : un;
  if (!((ad != 0) & (ts >= 0) & (ts <= ad) & (us >= 0) & (us <= ad))) return;
  double t = tn / denom;
  if (t > 1) t = 1;
  if (t <= hit->fraction) geo_hit_offer(hit, t, GEO_HIT_WALL, index, a, b);
}

void geo_ray_segment(const geo_ray *r, steer_vec2 a, steer_vec2 b,
                     size_t index, geo_hit *hit) {
  ray_segment(r, a, b, index, hit);
}

void geo_ray_circle(const geo_ray *r, steer_vec2 c, double radius, int kind,
                    size_t index, geo_hit *hit) {
  steer_vec2 f = v2_sub(r->s, c); /* centre -> start */
  double r2 = radius * radius;
  steer_vec2 rr = v2(radius, 0);
  if (v2_len2(f) <= r2) { /* starts inside: hit at once */
    geo_hit_offer(hit, 0, kind, index, c, rr);
    return;
  }
  double len = r->len;
  if (len == 0) return;
  steer_vec2 u = r->u;
  double proj = -v2_dot(f, u); /* distance to the closest approach */
  if (proj < 0) return;        /* heading away */
  double perp2 = v2_len2(v2_add(f, v2_scale(u, proj)));
  if (perp2 > r2) return;
  double dist = proj - sqrt(r2 - perp2);
  if (dist > len) return;
  if (dist < 0) dist = 0;
  double t = dist / len;
  if (t > 1) t = 1;
  if (t <= hit->fraction) geo_hit_offer(hit, t, kind, index, c, rr);
}

/* The image shifts [lo, hi] of a box [b0, b1] that can meet [q0, q1] on a
   torus axis of `extent` (just 0 elsewhere). */
void geo_image_range(const geometry *g, double q0, double q1, double b0,
                     double b1, double extent, double *lo, double *hi) {
  if (!g->wrap) {
    *lo = *hi = 0;
    return;
  }
  /* a shape wider than the torus overlaps the ray with many images: the
     ones within two periods of the nearest are enough (and finite); a
     torus too thin to tell images apart has just the one */
  double mid = floor(((q0 + q1) - (b0 + b1)) * 0.5 / extent + 0.5);
  if (!isfinite(mid)) {
    *lo = *hi = 0;
    return;
  }
  double a = ceil((q0 - b1) / extent - 1e-6);
  double b = floor((q1 - b0) / extent + 1e-6);
  *lo = a >= mid - 2 ? a : mid - 2; /* (NaN-safe) */
  *hi = b <= mid + 2 ? b : mid + 2;
}

/* The ray against the images of wall k from a to b that can meet box q
   (just the wall off a torus). */
static void ray_wall_images(const geometry *g, const geo_ray *r, geo_box q,
                            steer_vec2 a, steer_vec2 b, size_t k,
                            geo_hit *hit) {
  if (!g->wrap) {
    ray_segment(r, a, b, k, hit);
    return;
  }
  geo_wall s = {a, b, 0, 0};
  geo_box box = geo_wall_box(&s);
  double x0, x1, y0, y1;
  geo_image_range(g, q.x0, q.x1, box.x0, box.x1, g->width, &x0, &x1);
  geo_image_range(g, q.y0, q.y1, box.y0, box.y1, g->height, &y0, &y1);
  /* at most 5 x 5 shifts, counted with ints (i++ stands still on a
     double beyond 2^53) */
  for (int m = 0; m <= 4 && x0 + m <= x1; m++)
    for (int n = 0; n <= 4 && y0 + n <= y1; n++) {
      steer_vec2 shift = v2((x0 + m) * g->width, (y0 + n) * g->height);
      geo_ray_segment(r, v2_add(a, shift), v2_add(b, shift), k, hit);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* ray_segment's crossing test for the four entries it[0..3] at once, AVX
   (used where geometry_init found it: g->quad): the mask of the lanes
   that cross, each lane the scalar test's operations on the same numbers,
   so exactly the entries ray_segment takes further. A ray meets few of
   its candidates, in no order a branch predicts: four tests, one
   branch. */
#include "geo_quad.h"

static AVX int ray_quad_crossing(const geo_ray *r, const geo_item *it) {
  __m256d e[4]; /* a.x, a.y, b.x, b.y of the four walls */
  geo_quad_load(it, e);
  __m256d ax = e[0], ay = e[1], bx = e[2], by = e[3];
  __m256d dx = _mm256_set1_pd(r->d.x), dy = _mm256_set1_pd(r->d.y);
  __m256d qx = _mm256_sub_pd(bx, ax), qy = _mm256_sub_pd(by, ay);
  __m256d px = _mm256_sub_pd(ax, _mm256_set1_pd(r->s.x));
  __m256d py = _mm256_sub_pd(ay, _mm256_set1_pd(r->s.y));
  __m256d denom = _mm256_sub_pd(_mm256_mul_pd(dx, qy), _mm256_mul_pd(dy, qx));
  __m256d tn = _mm256_sub_pd(_mm256_mul_pd(px, qy), _mm256_mul_pd(py, qx));
  __m256d un = _mm256_sub_pd(_mm256_mul_pd(px, dy), _mm256_mul_pd(py, dx));
  __m256d zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
  /* denom < 0: all three negated, as ray_segment's selects do */
  __m256d flip = _mm256_and_pd(_mm256_cmp_pd(denom, zero, _CMP_LT_OQ), sign);
  __m256d ad = _mm256_xor_pd(denom, flip);
  __m256d ts = _mm256_xor_pd(tn, flip), us = _mm256_xor_pd(un, flip);
  __m256d ok = _mm256_and_pd(
      _mm256_and_pd(_mm256_cmp_pd(ad, zero, _CMP_NEQ_UQ),
                    _mm256_cmp_pd(ts, zero, _CMP_GE_OQ)),
      _mm256_and_pd(
          _mm256_and_pd(_mm256_cmp_pd(ts, ad, _CMP_LE_OQ),
                        _mm256_cmp_pd(us, zero, _CMP_GE_OQ)),
          _mm256_cmp_pd(us, ad, _CMP_LE_OQ)));
  return _mm256_movemask_pd(ok);
}

/* A cell's run of n walls (the pool's padding after it), four entries at
   a time, on a world that does not wrap: the crossing lanes (of those
   within the run, and not met in an earlier cell) go through
   ray_segment. */
static void ray_walls_quad(const geo_ray *r, const geo_item *it, size_t n,
                           uint32_t skip, geo_hit *hit) {
  for (size_t e = 0; e < n; e += 4) {
    int cross = ray_quad_crossing(r, it + e);
    if (n - e < 4) cross &= (1 << (n - e)) - 1;
    for (; cross; cross &= cross - 1) {
      const geo_item *x = it + e + (size_t)__builtin_ctz((unsigned)cross);
      if (!(x->seen & skip))
        ray_segment(r, v2(x->v[0], x->v[1]), v2(x->v[2], x->v[3]),
                    (size_t)x->item, hit);
    }
  }
}
#define RAY_QUAD 1
#else
#define RAY_QUAD 0
static void ray_walls_quad(const geo_ray *r, const geo_item *it, size_t n,
                           uint32_t skip, geo_hit *hit) {
  (void)r, (void)it, (void)n, (void)skip, (void)hit;
}
#endif

/* Of the shifts [*lo, *hi] of a circle centred at c on a torus axis of
   `extent`, the ones nearest (along this axis) to some point of [q0, q1],
   one more each side against rounding. Why that is enough: the distance to
   an image is sqrt(dx^2 + dy^2), so for every point the nearest image on
   each axis is the nearest image, and the first point of the ray inside
   any image is inside its nearest one. Bounded work, whatever the radius:
   the ray spans at most half the torus. */
static void nearest_shifts(double q0, double q1, double c, double extent,
                           double *lo, double *hi) {
  double first = floor((q0 - c) / extent + 0.5) - 1;
  double last = floor((q1 - c) / extent + 0.5) + 1;
  if (first > *lo) *lo = first;
  if (last < *hi) *hi = last;
}

void geo_ray_circle_images(const geometry *g, const geo_ray *r, geo_box q,
                           steer_vec2 c, double radius, int kind, size_t index,
                           geo_hit *hit) {
  if (!g->wrap) {
    geo_ray_circle(r, c, radius, kind, index, hit);
    return;
  }
  /* a ray starting inside the circle hits the image nearest its start
     (images overlap when the diameter reaches the torus: one choice) */
  steer_vec2 nearest = v2_sub(r->s, geo_offset(g, c, r->s));
  if (v2_len2(v2_sub(r->s, nearest)) <= radius * radius) {
    geo_ray_circle(r, nearest, radius, kind, index, hit);
    return;
  }
  double x0, x1, y0, y1;
  geo_image_range(g, q.x0, q.x1, c.x - radius, c.x + radius, g->width, &x0, &x1);
  geo_image_range(g, q.y0, q.y1, c.y - radius, c.y + radius, g->height, &y0, &y1);
  nearest_shifts(q.x0, q.x1, c.x, g->width, &x0, &x1);
  nearest_shifts(q.y0, q.y1, c.y, g->height, &y0, &y1);
  /* at most 5 x 5 shifts, counted with ints (i++ stands still on a double
     beyond 2^53) */
  for (int m = 0; m <= 4 && x0 + m <= x1; m++)
    for (int n = 0; n <= 4 && y0 + n <= y1; n++) {
      steer_vec2 image = v2(c.x + (x0 + m) * g->width,
                            c.y + (y0 + n) * g->height);
      geo_ray_circle(r, image, radius, kind, index, hit);
    }
}

/* ---- the march: the cells a ray crosses, a column at a time ---------------- */

/* n entries of one kind (walls, or circles as obstacles) against the ray;
   those with (seen & skip) were met in a cell walked before. pooled: a
   cell's run, which the pool's padding follows (the lanes read past it). */
GEO_HOT void ray_entries(const geometry *g, const geo_ray *r, geo_box whole,
                        int kind, const geo_item *it, size_t n, uint32_t skip,
                        int pooled, geo_hit *hit) {
  if (kind == GEO_HIT_WALL) {
    if (RAY_QUAD && pooled && g->quad && !g->wrap) {
      ray_walls_quad(r, it, n, skip, hit);
      return;
    }
    for (size_t e = 0; e < n; e++)
      if (!(it[e].seen & skip))
        ray_wall_images(g, r, whole, v2(it[e].v[0], it[e].v[1]),
                        v2(it[e].v[2], it[e].v[3]), (size_t)it[e].item, hit);
  } else {
    for (size_t e = 0; e < n; e++)
      if (!(it[e].seen & skip))
        geo_ray_circle_images(g, r, whole, v2(it[e].v[0], it[e].v[1]),
                              it[e].v[2], kind, (size_t)it[e].item, hit);
  }
}

/* Every wall or obstacle from the owner's arrays: for rays that would
   cross more cells than there are items (or cells beyond the index's
   reach), the cheaper walk. */
static void ray_scan(const geometry *g, const geo_ray *r, geo_box whole,
                     int kind, geo_hit *hit) {
  if (kind == GEO_HIT_WALL) {
    for (size_t k = 0; k < g->wall_count; k++)
      ray_wall_images(g, r, whole, g->walls[k].a, g->walls[k].b, k, hit);
  } else {
    for (size_t k = 0; k < g->obstacle_count; k++) {
      const geo_obstacle *o = &g->obstacles[k];
      geo_ray_circle_images(g, r, whole, v2(o->x, o->y), o->radius, kind, k,
                            hit);
    }
  }
}

/* The ray against the walls (or the obstacles) of index x, holding
   `count` items: the large items first, then the cells the ray crosses,
   one column of cells along its longer axis (in cells) at a time, each
   column's cells those its stretch of the ray meets (padded against
   rounding as the items' own cells are). A hit before the ray leaves a
   column is the first: every later column lies beyond it. An item in
   several cells is tested in the first one walked (its entries' seen bits
   name the cells left of and below them; a walk going left or down just
   tests it again).
   Measured and dropped: looking the next column's cells up (and asking
   the cache for their runs) while testing this one's, 1.13x slower; asking
   for a column's runs before testing them, no gain. */
static void ray_march(const geometry *g, const geo_index *x, size_t count,
                      int kind, const geo_ray *r, geo_box whole, geo_hit *hit) {
  if (!x->entries) return;
  if (x->large_count)
    ray_entries(g, r, whole, kind, x->large, x->large_count, 0, 0, hit);
  const double s[2] = {r->s.x, r->s.y}, d[2] = {r->d.x, r->d.y};
  const double inv[2] = {x->inv_x, x->inv_y};
  const int32_t cells[2] = {x->ncx, x->ncy};
  int m = fabs(d[1]) * inv[1] > fabs(d[0]) * inv[0]; /* the columns' axis */
  int n = 1 - m;
  /* the columns, padded as geo_index_axis pads */
  double e = s[m] + d[m];
  double lo = (s[m] < e ? s[m] : e) * inv[m], hi = (s[m] < e ? e : s[m]) * inv[m];
  double slack = geo_slack(lo, hi);
  double first = geo_floor(lo - slack), last = geo_floor(hi + slack);
  int32_t rows_lo, rows;
  double en = s[n] + d[n];
  geo_index_axis(x, n, s[n] < en ? s[n] : en, s[n] < en ? en : s[n], &rows_lo,
                 &rows);
  /* no column beyond the free cells' clamp (the items there share the
     last cell), and no walk longer than a scan (NaN-safe) */
  if (!(first >= -GEO_FREE_CELL_LIMIT && last <= GEO_FREE_CELL_LIMIT) ||
      (last - first + 1) + (double)rows > (double)count + 8) {
    ray_scan(g, r, whole, kind, hit);
    return;
  }
  int forward = d[m] >= 0;
  int64_t k = (int64_t)(forward ? first : last);
  int64_t end = (int64_t)(forward ? last : first), step = forward ? 1 : -1;
  uint32_t major_bit = m ? GEO_BELOW : GEO_LEFT, minor_bit = m ? GEO_LEFT : GEO_BELOW;
  int32_t prev_row = 0, prev_rows = 0; /* the column before's rows */
  for (;; k += step) {
    /* the fractions where the ray enters and leaves column k */
    double t0 = 0, t1 = 1;
    if (d[m] != 0) {
      double ta = ((double)k / inv[m] - s[m]) / d[m];
      double tb = ((double)(k + 1) / inv[m] - s[m]) / d[m];
      t0 = forward ? ta : tb;
      t1 = forward ? tb : ta;
      t0 = t0 > 0 ? t0 : 0; /* (NaN-safe: 0, 1) */
      t1 = t1 < 1 ? t1 : 1;
    }
    double p0 = s[n] + d[n] * t0, p1 = s[n] + d[n] * t1;
    int32_t row, nrows;
    geo_index_axis(x, n, p0 < p1 ? p0 : p1, p0 < p1 ? p1 : p0, &row, &nrows);
    int32_t col = (int32_t)k;
    if (x->wrap) col = (int32_t)(((k % cells[m]) + cells[m]) % cells[m]);
    for (int32_t j = 0; j < nrows; j++) {
      uint32_t skip = j > 0 ? minor_bit : 0;
      if (forward && (int64_t)row + j - prev_row >= 0 &&
          (int64_t)row + j - prev_row < prev_rows)
        skip |= major_bit;
      const geo_cell *c = m ? geo_index_cell(x, row + j, col)
                            : geo_index_cell(x, col, row + j);
      if (c)
        ray_entries(g, r, whole, kind, geo_cell_items(x, c), c->count, skip, 1,
                    hit);
    }
    if (hit->fraction <= t1 || k == end) return;
    prev_row = row;
    prev_rows = nrows;
  }
}

void geometry_raycast(const geometry *g, const geo_ray *r, unsigned kinds,
                      geo_hit *hit) {
  /* torus images are chosen against the whole ray */
  geo_box whole = geo_box_around(r->s, v2_add(r->s, r->d), 0);
  if (kinds & GEO_RAY_WALLS && g->wall_count)
    ray_march(g, &g->wall_index, g->wall_count, GEO_HIT_WALL, r, whole, hit);
  /* walls first: the obstacles' march stops at the column of their hit */
  if (kinds & GEO_RAY_OBSTACLES && g->obstacle_count)
    ray_march(g, &g->obstacle_index, g->obstacle_count, GEO_HIT_OBSTACLE, r,
              whole, hit);
#if defined(__GNUC__)
  /* the caller reads the hit shape's handle */
  if (hit->kind == GEO_HIT_WALL) __builtin_prefetch(&g->walls[hit->index]);
  if (hit->kind == GEO_HIT_OBSTACLE) __builtin_prefetch(&g->obstacles[hit->index]);
#endif
}
