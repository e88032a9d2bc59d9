/* collide.c - walls that stop bodies (the `collide` program field).
 *
 * Steering only asks: avoid_walls looks along the velocity and ORCA limits
 * velocities, and a push sideways (separation, a crowd) or one long step
 * still carries a body through a wall. After a step's moves (and ORCA's
 * push) each colliding agent gets three corrections, in this order:
 *   1. sweep: its centre's move from where the step found it is cut at the
 *      first wall it crosses, a hair before it, and the rest of the move
 *      slides along that wall (up to COLLIDE_SWEEPS walls); the velocity
 *      into each wall met is removed;
 *   2. escape: a centre on the solid side (the left) of the nearest
 *      one-sided wall (walls_from_tiles, a convex polygon's edge), within
 *      COLLIDE_ESCAPE radii of it, is inside a solid: it is put on the open
 *      side, one radius out;
 *   3. push out: a body overlapping a wall (centre nearer than its radius to
 *      the segment's nearest point) or an obstacle is put at exactly its
 *      radius from it, deepest contact first, a few times (corners).
 * One rule binds them: every position taken must be reachable from the
 * start by a straight move that ends across no wall (ends_across), so an
 * agent never ends a step across a wall it was not across before. A
 * correction that would break it is not made.
 *
 * Each agent is corrected against the static geometry alone, so the pass's
 * order does not matter; it runs serially, in the agents' order. */
#include "collide.h"

#define COLLIDE_SWEEPS 3   /* the stop and up to two slides */
#define COLLIDE_PUSHES 8   /* escapes and push-outs per agent and step */
#define COLLIDE_ESCAPE 4.0 /* radii: how near a one-sided wall must be to
                              tell that a centre is inside its solid */
#define COLLIDE_BACKOFF (1.0 - 0x1p-30) /* of the way to a crossing */
#define COLLIDE_HALVINGS 64 /* then the stop is where the sweep began */

enum { SHAPE_WALL, SHAPE_ONE_SIDED, SHAPE_OBSTACLE };

/* A wall (ends a, b) or an obstacle (centre a, radius b.x) at one image. */
typedef struct collide_shape {
  steer_vec2 a, b;
  uint32_t k;   /* dense number: ties go to the lower one */
  uint32_t kind;
} collide_shape;

steer_status collide_prepare(steer_world *w) {
  if (world_grow(w, (void **)&w->collide_from, sizeof(steer_vec2),
                 &w->collide_from_cap, w->slot_count ? w->slot_count : 1))
    return STEER_ENOMEM;
  for (size_t i = 0; i < w->count; i++)
    if (w->program[i] && w->program[i]->collide)
      w->collide_from[w->slot_of[i]] = world_pos(w, i);
  return STEER_OK;
}

/* ---- small geometry --------------------------------------------------- */

/* > 0: p is left of the wall's a -> b (a one-sided wall's solid side). */
static double side_of(const collide_shape *s, steer_vec2 p) {
  return v2_cross(v2_sub(s->b, s->a), v2_sub(p, s->a));
}

/* v / |v| without overflow or underflow; (0, 0) for (0, 0). */
static steer_vec2 unit(steer_vec2 v) {
  double m = fmax(fabs(v.x), fabs(v.y));
  if (!(m > 0)) return v2(0, 0);
  v = v2(v.x / m, v.y / m);
  double l = sqrt(v.x * v.x + v.y * v.y); /* in [1, sqrt 2] */
  return v2(v.x / l, v.y / l);
}

/* The wall's unit normal on its right (a one-sided wall's open side). */
static steer_vec2 right_normal(const collide_shape *s) {
  steer_vec2 ab = v2_sub(s->b, s->a);
  return unit(v2(ab.y, -ab.x));
}

/* The point of the wall nearest to p; *inner: not an end. */
static steer_vec2 nearest_at(const collide_shape *s, steer_vec2 p, int *inner) {
  steer_vec2 ab = v2_sub(s->b, s->a);
  double t = v2_dot(v2_sub(p, s->a), ab), l2 = v2_dot(ab, ab);
  *inner = 0;
  if (!(t > 0)) return s->a;
  if (!(t < l2)) return s->b;
  *inner = 1;
  return v2_add(s->a, v2_scale(ab, t / l2)); /* t / l2 in (0, 1) */
}

static steer_vec2 nearest_on(const collide_shape *s, steer_vec2 p) {
  int inner;
  return nearest_at(s, p, &inner);
}

/* Does the straight move p0 -> q end across wall s: from one side of its
   line to the other side or onto it, through the segment? Not when p0 is
   on the line (it had no side), nor out of a one-sided wall's solid. */
static int ends_across(const collide_shape *s, steer_vec2 p0, steer_vec2 q) {
  double s0 = side_of(s, p0), s1 = side_of(s, q);
  if (s0 == 0 || (s0 > 0 ? s1 > 0 : s1 < 0)) return 0;
  if (s->kind == SHAPE_ONE_SIDED && s0 > 0) return 0;
  steer_vec2 m = v2_sub(q, p0);
  double oa = v2_cross(m, v2_sub(s->a, p0)), ob = v2_cross(m, v2_sub(s->b, p0));
  return !((oa > 0 && ob > 0) || (oa < 0 && ob < 0));
}

/* ---- one agent ---------------------------------------------------------- */

typedef struct mover {
  steer_world *w;
  const collide_shape *near;
  size_t n;
  steer_vec2 p0; /* where the step found it */
  double limit;  /* farthest a position may be from p0 (per axis): the
                    shapes gathered cover its body there */
} mover;

/* May the agent be at q: near enough to p0, and across no wall? */
static int allowed(const mover *m, steer_vec2 q) {
  if (!(fabs(q.x - m->p0.x) <= m->limit && fabs(q.y - m->p0.y) <= m->limit))
    return 0;
  for (size_t k = 0; k < m->n; k++)
    if (m->near[k].kind != SHAPE_OBSTACLE && ends_across(&m->near[k], m->p0, q))
      return 0;
  return 1;
}

/* A position inside a bounded or limited world; a torus's are wrapped only
   at the end (the shapes' images are in the unwrapped frame). */
static steer_vec2 keep_in(const steer_world *w, steer_vec2 p) {
  return w->geo.wrap ? p : world_contain(w, p);
}

/* Removes the part of v that heads against unit normal n. */
static steer_vec2 stop_into(steer_vec2 v, steer_vec2 n) {
  double into = v2_dot(v, n);
  return into < 0 ? v2_sub(v, v2_scale(n, into)) : v;
}

/* The first wall the move x -> y crosses from x's side (a one-sided wall
   from its open side), and where along the move; SIZE_MAX: none. */
static size_t first_crossing(const mover *m, steer_vec2 x, steer_vec2 y,
                             double *at) {
  size_t hit = SIZE_MAX;
  double best = 2;
  steer_vec2 mv = v2_sub(y, x);
  for (size_t k = 0; k < m->n; k++) {
    const collide_shape *s = &m->near[k];
    if (s->kind == SHAPE_OBSTACLE) continue;
    double sx = side_of(s, x);
    if (sx == 0 || (s->kind == SHAPE_ONE_SIDED && sx > 0)) continue;
    double sy = side_of(s, y);
    if (sx > 0 ? sy > 0 : sy < 0) continue;
    double oa = v2_cross(mv, v2_sub(s->a, x)), ob = v2_cross(mv, v2_sub(s->b, x));
    if ((oa > 0 && ob > 0) || (oa < 0 && ob < 0)) continue;
    double t = sx / (sx - sy); /* |sx - sy| >= |sx| > 0: in (0, 1] */
    if (t < best || (t == best && s->k < m->near[hit].k)) {
      best = t;
      hit = k;
    }
  }
  *at = best;
  return hit;
}

/* 1. The move p0 -> p1 cut at walls, sliding on: the position reached;
   *v loses what heads into the walls met, *touched: a wall was met. */
static steer_vec2 sweep(const mover *m, steer_vec2 p1, steer_vec2 *v,
                        int *touched) {
  const steer_world *w = m->w;
  steer_vec2 x = m->p0, rem = world_offset(w, m->p0, p1);
  for (int s = 0; s < COLLIDE_SWEEPS && (rem.x != 0 || rem.y != 0); s++) {
    /* the step's own end, bit for bit, while nothing was met */
    steer_vec2 y = s == 0 && !w->geo.wrap ? p1 : keep_in(w, v2_add(x, rem));
    double at;
    size_t hit = first_crossing(m, x, y, &at);
    if (hit == SIZE_MAX) {
      if (s > 0 && allowed(m, y)) x = y; /* s == 0: y is p1 */
      if (s == 0) x = y;
      return x;
    }
    const collide_shape *h = &m->near[hit];
    double sx = side_of(h, x);
    steer_vec2 mv = v2_sub(y, x), stop = x;
    double t = at * COLLIDE_BACKOFF;
    for (int j = 0; j < COLLIDE_HALVINGS; j++, t *= 0.5) {
      steer_vec2 c = keep_in(w, v2_add(x, v2_scale(mv, t)));
      double sc = side_of(h, c);
      if ((sx > 0 ? sc > 0 : sc < 0) && allowed(m, c)) {
        stop = c;
        break;
      }
    }
    *touched = 1;
    steer_vec2 n = unit(v2_scale(v2(-(h->b.y - h->a.y), h->b.x - h->a.x),
                                 sx > 0 ? 1 : -1)); /* toward x's side */
    *v = stop_into(*v, n);
    steer_vec2 u = unit(v2_sub(h->b, h->a)), left = v2_sub(y, stop);
    rem = v2_scale(u, v2_dot(left, u)); /* the rest, along the wall */
    x = stop;
  }
  return x;
}

/* The wall nearest to x (ties: the lower number), when it and every wall
   as near are one-sided walls with x on their solid side within reach:
   x is inside their solid. SIZE_MAX otherwise. */
static size_t inside_solid(const mover *m, steer_vec2 x, double reach) {
  double best = HUGE_VAL;
  size_t at = SIZE_MAX;
  int inside = 0;
  for (size_t k = 0; k < m->n; k++) {
    const collide_shape *s = &m->near[k];
    if (s->kind == SHAPE_OBSTACLE) continue;
    double d = v2_len(v2_sub(x, nearest_on(s, x)));
    int solid = s->kind == SHAPE_ONE_SIDED && side_of(s, x) > 0;
    if (d < best) {
      best = d;
      at = k;
      inside = solid;
    } else if (d == best) {
      inside &= solid;
      if (s->k < m->near[at].k) at = k;
    }
  }
  return inside && best <= reach ? at : SIZE_MAX;
}

/* The deepest contact of a body of radius r at x: *to, where it goes to
   touch it, *n the direction it goes; 0 when none overlaps by more than
   tol. */
static int deepest(const mover *m, steer_vec2 x, double r, double tol,
                   steer_vec2 *to, steer_vec2 *n) {
  double most = tol;
  size_t at = SIZE_MAX;
  for (size_t k = 0; k < m->n; k++) {
    const collide_shape *s = &m->near[k];
    int obstacle = s->kind == SHAPE_OBSTACLE;
    steer_vec2 c = obstacle ? s->a : nearest_on(s, x);
    double reach = obstacle ? s->b.x + r : r;
    double pen = reach - v2_len(v2_sub(x, c));
    int better = pen > most;
    if (!better && pen == most && at != SIZE_MAX) { /* walls first, then k */
      int was = m->near[at].kind == SHAPE_OBSTACLE;
      better = obstacle < was || (obstacle == was && s->k < m->near[at].k);
    }
    if (better) {
      most = pen;
      at = k;
    }
  }
  if (at == SIZE_MAX) return 0;
  const collide_shape *s = &m->near[at];
  int obstacle = s->kind == SHAPE_OBSTACLE;
  int inner = 0;
  steer_vec2 c = obstacle ? s->a : nearest_at(s, x, &inner);
  steer_vec2 d = unit(v2_sub(x, c));
  double sx = obstacle ? 0 : side_of(s, x);
  /* off a wall's inner point: along its normal (x - c would carry the
     rounding of c, large against a small distance) */
  if (inner && sx != 0) d = v2_scale(right_normal(s), sx > 0 ? -1 : 1);
  if (d.x == 0 && d.y == 0) { /* on the wall, or at the obstacle's centre */
    if (obstacle) {
      d = unit(v2_sub(m->p0, c));
      if (d.x == 0 && d.y == 0) d = v2(1, 0);
    } else {
      /* the side it came from; a one-sided wall's open side */
      double s0 = side_of(s, m->p0);
      d = right_normal(s);
      if (s->kind != SHAPE_ONE_SIDED && s0 > 0) d = v2_scale(d, -1);
    }
  }
  *to = v2_add(c, v2_scale(d, obstacle ? s->b.x + r : r));
  *n = d;
  return 1;
}

/* 2 and 3: escapes and push-outs from x. */
static steer_vec2 push_out(const mover *m, steer_vec2 x, double r,
                           steer_vec2 *v, int *touched) {
  for (int it = 0; it < COLLIDE_PUSHES; it++) {
    steer_vec2 to, n;
    size_t k = r > 0 ? inside_solid(m, x, COLLIDE_ESCAPE * r) : SIZE_MAX;
    if (k != SIZE_MAX) {
      n = right_normal(&m->near[k]);
      to = v2_add(nearest_on(&m->near[k], x), v2_scale(n, r));
    } else {
      double tol = 1e-12 * (r + fabs(x.x) + fabs(x.y));
      if (!deepest(m, x, r, tol, &to, &n)) break;
    }
    to = keep_in(m->w, to);
    if (!allowed(m, to)) break;
    *v = stop_into(*v, n);
    *touched = 1;
    x = to;
  }
  return x;
}

/* Appends shape (a, b) of kind and number k at each of its images that may
   meet box q; 0 when out of memory. */
static int add_shape(steer_world *w, size_t *n, geo_box q, geo_box box,
                     steer_vec2 a, steer_vec2 b, uint32_t k, uint32_t kind) {
  const geometry *g = &w->geo;
  double x0, x1, y0, y1;
  if (!g->wrap) {
    if (box.x0 > q.x1 || box.x1 < q.x0 || box.y0 > q.y1 || box.y1 < q.y0)
      return 1;
    x0 = x1 = y0 = y1 = 0;
  } else {
    geo_image_range(g, q.x0, q.x1, box.x0, box.x1, g->width, &x0, &x1);
    geo_image_range(g, q.y0, q.y1, box.y0, box.y1, g->height, &y0, &y1);
  }
  int shift_b = kind != SHAPE_OBSTACLE; /* an obstacle's b is its radius */
  for (int i = 0; i <= 4 && x0 + i <= x1; i++)
    for (int j = 0; j <= 4 && y0 + j <= y1; j++) {
      if (*n == w->collide_near_cap &&
          world_grow(w, (void **)&w->collide_near, sizeof(collide_shape),
                     &w->collide_near_cap, *n + 1))
        return 0;
      steer_vec2 sh = v2((x0 + i) * g->width, (y0 + j) * g->height);
      if (!g->wrap) sh = v2(0, 0);
      collide_shape *s = &w->collide_near[(*n)++];
      s->a = v2_add(a, sh);
      s->b = shift_b ? v2_add(b, sh) : b;
      s->k = k;
      s->kind = kind;
    }
  return 1;
}

/* Wall s as the pass sees it, its ends into *a, *b: one-sided, solid on
   the left of a -> b, when it is (walls_from_tiles) or when it is an edge
   of a convex closed polygon (solid inside: geo_sides.c, the side ORCA
   takes), turned so; two-sided otherwise. A body inside a tower built on
   it then escapes as from a tile wall. */
static uint32_t wall_kind(const geometry *g, const geo_wall *s, steer_vec2 *a,
                          steer_vec2 *b) {
  *a = s->a;
  *b = s->b;
  if (s->solid_left) return SHAPE_ONE_SIDED;
  uint32_t side = geo_wall_side(g, s);
  if (side == GEO_SOLID_RIGHT) {
    *a = s->b;
    *b = s->a;
  }
  return side == GEO_TWO_SIDED ? SHAPE_WALL : SHAPE_ONE_SIDED;
}

/* The walls and obstacles whose boxes meet box q; 0 when out of memory. */
static int gather(steer_world *w, geo_box q, size_t *count) {
  const geometry *g = &w->geo;
  size_t n = 0;
  geo_cursor c;
  if (g->wall_count) {
    geo_cursor_init(&c, &g->wall_index, q, g->wall_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_wall *s = &g->walls[k];
      steer_vec2 a, b;
      uint32_t kind = wall_kind(g, s, &a, &b);
      if (!add_shape(w, &n, q, geo_wall_box(s), a, b, (uint32_t)k, kind))
        return 0;
    }
  }
  if (g->obstacle_count) {
    geo_cursor_init(&c, &g->obstacle_index, q, g->obstacle_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_obstacle *o = &g->obstacles[k];
      if (!add_shape(w, &n, q, geo_obstacle_box(o), v2(o->x, o->y),
                     v2(o->radius, 0), (uint32_t)k, SHAPE_OBSTACLE))
        return 0;
    }
  }
  *count = n;
  return 1;
}

/* Agent i; returns whether it moved. */
static int collide_agent(steer_world *w, size_t i) {
  mover m;
  m.w = w;
  m.p0 = w->collide_from[w->slot_of[i]];
  steer_vec2 p1 = world_pos(w, i), v = world_vel(w, i);
  double r = w->radius[i];
  double move = v2_len(world_offset(w, m.p0, p1));
  /* positions stay within move + (ESCAPE + 1) r of p0 on each axis (the
     sweep within move, escapes and push-outs checked): shapes within one
     more radius of them touch the body there */
  m.limit = move + (COLLIDE_ESCAPE + 1) * r;
  double reach = m.limit + r;
  reach += geo_slack(reach, fabs(m.p0.x) + fabs(m.p0.y));
  geo_box q = {m.p0.x - reach, m.p0.y - reach, m.p0.x + reach, m.p0.y + reach};
  if (!gather(w, q, &m.n)) {
    /* no memory for its shapes: it stays where the step found it, which
       is never across a wall */
    w->x[i] = m.p0.x;
    w->y[i] = m.p0.y;
    return 1;
  }
  if (m.n == 0) return 0;
  m.near = w->collide_near;
  int touched = 0;
  steer_vec2 x = sweep(&m, p1, &v, &touched);
  x = push_out(&m, x, r, &v, &touched);
  if (!touched) return 0;
  x = world_contain(w, x); /* a torus: wrapped now */
  int moved = x.x != p1.x || x.y != p1.y;
  w->x[i] = x.x;
  w->y[i] = x.y;
  w->vx[i] = v.x;
  w->vy[i] = v.y;
  return moved;
}

void collide_free(steer_world *w) {
  world_alloc(w, w->collide_from, w->collide_from_cap * sizeof(steer_vec2), 0);
  world_alloc(w, w->collide_near,
              w->collide_near_cap * sizeof(collide_shape), 0);
}

int collide_pass(steer_world *w) {
  if (!w->geo.wall_count && !w->geo.obstacle_count) return 0;
  int moved = 0;
  for (size_t i = 0; i < w->count; i++) {
    const steer_program *p = w->program[i];
    if (p && p->collide) moved |= collide_agent(w, i);
  }
  return moved;
}
