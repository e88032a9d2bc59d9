/* orca_shapes.c - the static geometry near an agent, for ORCA's
 * obstacle half-planes (orca.h). The candidates come from the geometry
 * index (geometry.h), so the cost follows the shapes near the agent, not
 * the level's total; ORCA only sees the shapes. */
#include "no_slp.h" /* first: it applies to all that follows */
#include <math.h>
#include "orca.h"

/* The gap from a body of radius `body` to wall s (radius 0), with s's t
   and dist filled in: the point of segment a-b nearest the agent (the
   origin), its t kept so that orca_shape_line and orca_shape_gap need
   neither the division nor the square root again. */
static inline double measure_wall(orca_shape *s, double body) {
  steer_vec2 ab = v2_sub(s->b, s->a);
  double len2 = v2_len2(ab);
  double t = len2 > 0 ? -v2_dot(s->a, ab) / len2 : 0;
  s->t = t;
  s->dist = v2_len(v2_add(s->a, v2_scale(ab, orca_clamp(t, 0, 1))));
  return s->dist - body;
}

/* The same for a circle (a == b). */
static inline double measure_circle(orca_shape *s, double body) {
  s->t = 0;
  s->dist = v2_len(s->a);
  return s->dist - s->radius - body;
}

double orca_shape_gap(const orca_shape *s) { return s->dist - s->radius; }

/* The shapes found so far (keep_nearest's arrays). */
typedef struct found {
  orca_shape *out;
  double gaps[STEER_ORCA_MAX_NEIGHBORS];
  size_t ids[STEER_ORCA_MAX_NEIGHBORS]; /* 2 * number + (wall ? 1 : 0) */
  size_t n, max;
  int facing; /* only the walls that face the agent (geo_wall_faces_away) */
} found;

/* Keeps f's `max` shapes of least gap, by insertion, given one not among
   them yet. s is read a field at a time: a shape passed by value went
   through the stack, and the 16-byte loads that copied it waited on the
   8-byte stores that built it (a store-forwarding stall, a fifth of the
   shapes' time in blocks). */
static void keep_new(found *f, const orca_shape *s, double gap, size_t id) {
  if (f->n == f->max && !(gap < f->gaps[f->n - 1])) return;
  size_t k = f->n < f->max ? f->n++ : f->n - 1;
  for (; k > 0 && gap < f->gaps[k - 1]; k--) {
    f->out[k] = f->out[k - 1];
    f->gaps[k] = f->gaps[k - 1];
    f->ids[k] = f->ids[k - 1];
  }
  f->out[k].a.x = s->a.x;
  f->out[k].a.y = s->a.y;
  f->out[k].b.x = s->b.x;
  f->out[k].b.y = s->b.y;
  f->out[k].radius = s->radius;
  f->out[k].t = s->t;
  f->out[k].dist = s->dist;
  f->gaps[k] = gap;
  f->ids[k] = id;
}

/* keep_new for any shape: the index may offer a shape once per cell it
   covers, and `ids` (kind and dense number) keeps each shape once. */
static void keep_nearest(found *f, const orca_shape *s, double gap,
                         size_t id) {
  for (size_t k = 0; k < f->n; k++)
    if (f->ids[k] == id) return;
  keep_new(f, s, gap, id);
}

static double larger(double a, double b) { return a > b ? a : b; }
static double smaller(double a, double b) { return a < b ? a : b; }

/* Is every point between a and b (offsets from the agent) farther than
   lim along x or along y? Then so is the nearest point of a segment a-b
   (or of a circle about a = b, lim counting its radius), and its gap is
   more than the reach. The slack, a billionth of the coordinates, dwarfs
   the rounding of the exact test (a few ulps of them): what this drops,
   the exact test drops too. No branch: near shapes come in no order a
   predictor could learn. */
static inline int beyond(steer_vec2 a, steer_vec2 b, double lim) {
  double big = larger(larger(fabs(a.x), fabs(a.y)), larger(fabs(b.x), fabs(b.y)));
  lim += 1e-9 * (1 + big + lim);
  double near_x = larger(0, larger(smaller(a.x, b.x), -larger(a.x, b.x)));
  double near_y = larger(0, larger(smaller(a.y, b.y), -larger(a.y, b.y)));
  return larger(near_x, near_y) > lim;
}


/* The first pass of take_run when the index scans every wall of a world
   that does not wrap (few walls): the same offsets and test, in a loop
   without take_run's per-entry choices. lim: reach + 0 + body, as there. */
#if defined(__SSE2__)
/* beyond(a, b, lim) with x and y in the two lanes of one register: the
   same operations (maxpd and minpd choose as larger and smaller do), the
   same answer. */
static inline int beyond_lanes(__m128d a, __m128d b, double lim) {
  const __m128d sign = _mm_set1_pd(-0.0);
  __m128d big2 = _mm_max_pd(_mm_andnot_pd(sign, a), _mm_andnot_pd(sign, b));
  double big_lanes[2];
  _mm_storeu_pd(big_lanes, big2);
  lim += 1e-9 * (1 + larger(big_lanes[0], big_lanes[1]) + lim);
  __m128d near = _mm_max_pd(
      _mm_setzero_pd(),
      _mm_max_pd(_mm_min_pd(a, b), _mm_xor_pd(_mm_max_pd(a, b), sign)));
  return _mm_movemask_pd(_mm_cmpgt_pd(near, _mm_set1_pd(lim))) != 0;
}
#endif

static size_t note_walls(const geo_wall *l, size_t from, size_t end,
                         steer_vec2 p, double lim, orca_shape *s, size_t *id,
                         int width) {
  size_t m = 0;
  if (width >= 4) m = orca_walls_quad(l, from, end, p, lim, id, &from);
#if defined(__SSE2__)
  __m128d at = _mm_set_pd(p.y, p.x);
  for (size_t e = from; e < end; e++) {
    __m128d la = _mm_loadu_pd(&l[e].a.x), lb = _mm_loadu_pd(&l[e].b.x);
    __m128d a = _mm_sub_pd(la, at); /* world_offset */
    __m128d b = _mm_add_pd(a, _mm_sub_pd(lb, la));
    id[m] = e;
    m += !beyond_lanes(a, b, lim);
  }
#else
  for (size_t e = from; e < end; e++) {
    steer_vec2 a = v2(l[e].a.x - p.x, l[e].a.y - p.y); /* world_offset */
    steer_vec2 b = v2_add(a, v2_sub(l[e].b, l[e].a));
    id[m] = e;
    m += !beyond(a, b, lim);
  }
#endif
  for (size_t q = 0; q < m; q++) { /* the few near ones, as take_run has them */
    size_t e = id[q];
    s[q].a = v2(l[e].a.x - p.x, l[e].a.y - p.y);
    s[q].b = v2_add(s[q].a, v2_sub(l[e].b, l[e].a));
    s[q].radius = 0;
    id[q] = 2 * e + 1;
  }
  return m;
}

/* One run of the index's walk (items NULL: every shape 0..count-1), in its
   order, a chunk at a time: first the shapes whose box comes within reach
   are noted (cheap, no branch), then only their gaps (a division and a
   square root each) are worked out and the near ones kept. */
#define CHUNK 32
static void take_run(const steer_world *w, steer_vec2 p, double body,
                     double reach, int walls, const geo_item *items,
                     size_t count, uint32_t skip, found *f) {
  const geometry *g = &w->geo;
  orca_shape s[CHUNK];
  size_t id[CHUNK];
  for (size_t from = 0; from < count; from += CHUNK) {
    size_t end = count - from > CHUNK ? from + CHUNK : count, m = 0;
    if (walls && !items && !g->wrap) { /* a scan of a plain world's walls */
      m = note_walls(g->walls, from, end, p, reach + 0.0 + body, s, id,
                     w->step_simd);
    } else {
      for (size_t e = from; e < end; e++) {
        int32_t k = items ? items[e].item : (int32_t)e;
        int fresh = !items || !(items[e].seen & skip); /* once per walk */
        orca_shape sh;
        if (walls) {
          const geo_wall *l = &g->walls[k];
          sh.a = world_offset(w, p, l->a);
          sh.b = v2_add(sh.a, v2_sub(l->b, l->a));
          sh.radius = 0;
        } else {
          const geo_obstacle *o = &g->obstacles[k];
          sh.a = sh.b = world_offset(w, p, v2(o->x, o->y));
          sh.radius = o->radius;
        }
        s[m] = sh;
        id[m] = 2 * (size_t)k + (walls ? 1 : 0);
        m += fresh & !beyond(sh.a, sh.b, reach + sh.radius + body);
      }
    }
    for (size_t q = 0; q < m; q++) {
      if (walls && f->facing &&
          geo_wall_faces_away(g, id[q] >> 1, s[q].a, s[q].b))
        continue;
      double gap = walls ? measure_wall(&s[q], body) : measure_circle(&s[q], body);
      if (gap <= reach)
        keep_nearest(f, &s[q], gap, id[q]);
    }
  }
}

/* take_run's scan of every shape of a world that does not wrap, over only
   those a cell's list holds (orca_cells.c; the others fail the box test
   wherever the agent is in the cell): the same offsets and gaps, in the
   same order, so the same shapes kept in the same order. Without the box
   test: what it drops the gap test drops too (see beyond), and a listed
   shape is mostly near (blocks: 4.1 of 5.2 within reach), so it saved
   fewer divisions and square roots than it cost. */
static void take_listed(const steer_world *w, steer_vec2 p, double body,
                        double reach, int walls, const uint32_t *near,
                        size_t n, found *f) {
  const geometry *g = &w->geo;
  for (size_t q = 0; q < n; q++) {
    size_t k = near[q];
    orca_shape sh;
    double gap;
    if (walls) {
      const geo_wall *l = &g->walls[k];
      sh.a = v2(l->a.x - p.x, l->a.y - p.y); /* world_offset */
      sh.b = v2_add(sh.a, v2_sub(l->b, l->a));
      sh.radius = 0;
      if (f->facing && geo_wall_faces_away(g, k, sh.a, sh.b)) continue;
      gap = measure_wall(&sh, body);
    } else {
      const geo_obstacle *o = &g->obstacles[k];
      sh.a = sh.b = v2(o->x - p.x, o->y - p.y);
      sh.radius = o->radius;
      gap = measure_circle(&sh, body);
    }
    if (gap <= reach) /* listed once: no need to look for it among ids */
      keep_new(f, &sh, gap, 2 * k + (walls ? 1 : 0));
  }
}

/* Would the index's cursor scan every item for box q (geo_cursor_init's
   choice: more cells than items + 8)? Known without its cell arithmetic
   (a sixth of a bench agent's wall work, blocks) when even a lower bound
   on the cells passes: along an axis they number more than
   v1 * inv - v0 * inv, as the cursor rounds them (its slack only widens
   them), less a hair for this subtraction's rounding. 0: ask the cursor,
   which may still scan. */
static int scans_all(const geo_index *x, geo_box q, size_t count) {
  if (x->wrap || !x->entries) return 0;
  double a = q.x0 * x->inv_x, b = q.x1 * x->inv_x;
  double c = q.y0 * x->inv_y, d = q.y1 * x->inv_y;
  if (!(fabs(a) < 1e8 && fabs(b) < 1e8 && fabs(c) < 1e8 && fabs(d) < 1e8))
    return 0; /* far out: the cursor clamps its cells there */
  double nx = (b - a) - 1e-6, ny = (d - c) - 1e-6;
  /* the cells' count is an integer above nx * ny: the margin makes it
     more than count + 8, as the cursor asks, and not merely as much */
  return nx > 0 && ny > 0 && nx * ny > (double)count + 8 + 1e-3;
}

size_t orca_nearby_shapes(const steer_world *w, size_t i, double reach,
                          int facing, orca_shape *out, size_t max) {
  found f;
  f.out = out;
  f.n = 0;
  f.facing = facing;
  f.max = max > STEER_ORCA_MAX_NEIGHBORS ? STEER_ORCA_MAX_NEIGHBORS : max;
  const geometry *g = &w->geo;
  if (f.max == 0) return 0; /* no geometry: each kind's loop skips itself */
  steer_vec2 p = world_pos(w, i);
  double body = w->radius[i];
  /* a shape within reach has its box within reach + body of p
     (geo_box_around(p, p, pad) worked out here: the call was 1% of blocks) */
  double pad = reach + body;
  if (orca_cells_beyond(w, p, pad)) return 0;
  geo_box q = {p.x - pad, p.y - pad, p.x + pad, p.y + pad};
  for (int walls = 0; walls < 2; walls++) { /* obstacles, then walls */
    size_t count = walls ? g->wall_count : g->obstacle_count;
    if (!count) continue;
    const geo_index *index = walls ? &g->wall_index : &g->obstacle_index;
    if (scans_all(index, q, count)) { /* the cursor's one run of them all */
      size_t listed;
      const uint32_t *near = orca_cells_list(w, p, pad, walls, &listed);
      if (near)
        take_listed(w, p, body, reach, walls, near, listed, &f);
      else
        take_run(w, p, body, reach, walls, NULL, count, 0, &f);
      continue;
    }
    geo_cursor c;
    geo_cursor_init(&c, index, q, count);
    const geo_item *items;
    for (size_t n; (n = geo_cursor_next_run(&c, &items)) > 0;)
      take_run(w, p, body, reach, walls, items, n, c.skip, &f);
  }
  return f.n;
}

void orca_shape_line(const orca_shape *s, double body, steer_vec2 vel,
                     double horizon, double dt, orca_line *out) {
  double t = s->t;
  /* a wall clear of the body: its own velocity obstacle (the half-plane of
     its line alone also held back agents whose way passes its end) */
  if (s->dist > body + s->radius && (s->a.x != s->b.x || s->a.y != s->b.y) &&
      orca_segment_line(s->a, s->b, body + s->radius, vel, horizon, out))
    return;
  /* a wall the body touches (out within one step), or a circle */
  if (t > 0 && t < 1) /* beside a wall: it is a half-plane to the agent */
    orca_static_line(v2_add(s->a, v2_scale(v2_sub(s->b, s->a), t)), s->dist,
                     body + s->radius, horizon, dt, 1, out);
  else /* past its end, or a circle: a disc at rest, avoided fully */
    orca_agent_line(t <= 0 ? s->a : s->b, vel, vel, body + s->radius, horizon,
                    dt, 1, 1, out);
}
