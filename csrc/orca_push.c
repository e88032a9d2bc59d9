/* orca_push.c - ORCA's push (the `push` field): after a step's moves, the
 * bodies of ORCA agents that overlap by more than a slop are pushed apart.
 *
 * ORCA keeps bodies apart only while some velocity satisfies every
 * half-plane; in a jam (the 3-D fallback) it spreads the violation, and a
 * dense crowd presses bodies deeper step after step. Game crowds usually
 * end the step with a position correction (DetourCrowd does): here a few
 * Gauss-Seidel sweeps over the pairs that touch, each pushing a pair that
 * overlaps by more than PUSH_SLOP of its radii's sum apart until it
 * overlaps by exactly that much. The slop is kept on purpose: pairs pushed
 * to exactly touching lock into the standstills ORCA meets head-on beside a
 * wall, where a slight overlap lets them slide past each other.
 *
 * Positions only: velocities stay what the step made them. An agent moves at
 * most half its radius per step, and never ends deeper in a wall or an
 * obstacle than it was: static shapes do not give way. The pass is serial,
 * over the pairs in the agents' order after the step's sort: the same
 * result for any number of threads. */
#include "orca.h"
#ifdef STEER_PUSH_SKIP_CHECK
#include <stdio.h>
#include <stdlib.h>
#endif

#define PUSH_SLOP 0.02 /* of r_i + r_j: overlaps this shallow are left */
/* pairs closer than this times r_i + r_j are listed: each body moves at
   most half its radius, so farther pairs cannot meet during the push */
#define PUSH_REACH 1.5
/* a sweep that still meets pairs overlapping by more than the slop plus
   this (of r_i + r_j), by less in all or at most than the sweep before
   met, asks for another beyond the sweeps asked for (up to PUSH_MORE times
   them): a jam's push spreads one contact per sweep, and in a crush the
   sweeps asked for run out while pairs are still deep. Bodies held where
   they are (walls, the move's limit) make no progress: no sweep more. (A
   chain held at both ends keeps its sum, and evens out its deepest.) */
#define PUSH_DEEP 0.01
#define PUSH_MORE 4
#define PUSH_STILL 0.01 /* of the slop: a sweep moving no agent more ends */
/* The sweeps end when PUSH_WINDOW of them took less than 1 - PUSH_GAIN off
   both the summed and the deepest overlap beyond the slop. A crush that
   parts loses more (circle 1,000: 20-55% a window to the end), a crowd
   that cannot part (more bodies than the room holds, bodies held by walls
   or the move's limit) about nothing after a few sweeps, and it ran every
   sweep it might: 256 a step, 190 ms for 3,000 agents in a maze. */
#define PUSH_WINDOW 8
#define PUSH_GAIN (15.0 / 16)
/* A crowd, even a crush, lists a few pairs per agent (bodies packed edge
   to edge have 6 neighbours within the reach); a pile (agents spawned on
   one spot) lists about n^2 / 2, and sweeping them all up to 256 times
   took seconds a step. Beyond PUSH_PILE pairs per agent the sweeps are cut
   to PUSH_VISITS pair visits per agent (at least one sweep): the pile
   spreads over a few steps. Whatever the pairs, a step makes at most
   PUSH_VISITS_MOST visits per agent (256 sweeps over 4 pairs per agent):
   a half-spread pile asking for many sweeps took 100 ms a step for 48
   agents, each visit testing the static shapes. */
#define PUSH_PILE 16
#define PUSH_VISITS 64
#define PUSH_VISITS_MOST 1024
#define PUSH_CLIP_STEPS 12 /* halvings that find how far a body may go */

/* bits of the per-agent marks (the sort's scratch, free until its next run) */
#define MARK_PUSHER 1u
#define MARK_SHAPES 2u /* its push_shapes are looked up */

/* The static shapes a body may meet during the push: it moves at most half
   its radius from where the push found it, so only those within that of its
   body there. Looked up once a step, at the body's first push, rather than
   at each of its pushes (a crowd pressed into a maze's corridors pushed
   each body dozens of times a step, and those look-ups were four fifths of
   the push's time). */
#define PUSH_SHAPES 4 /* kept per body; beyond: looked up at each push */
typedef struct push_shapes {
  orca_shape s[PUSH_SHAPES]; /* relative to the body's start */
  int n;                     /* -1: more than PUSH_SHAPES, not kept */
} push_shapes;

static int is_pusher(const steer_world *w, size_t i) {
  const steer_program *p = w->program[i];
  return p && p->pushes && w->group_bit[i];
}

/* Appends pair (i, j); 0 when out of memory. */
static int add_pair(steer_world *w, size_t *n, size_t i, size_t j, int both) {
  if (*n == w->push_pairs_cap &&
      world_grow(w, (void **)&w->push_pairs, sizeof(push_pair),
                 &w->push_pairs_cap, *n + 1))
    return 0;
  push_pair *q = &w->push_pairs[(*n)++];
  q->i = (uint32_t)i;
  q->j = (uint32_t)j;
  q->both = both;
  return 1;
}

/* Agent i, whose walk found candidate j: a pair when one of them pushes
   and they may meet. Each pair is taken once, by its wider body (between
   equals the pusher, between two pushers the lower index), whose walk
   reaches PUSH_REACH times its own diameter. The pusher comes first; 0 when
   out of memory. *close: the pair is already closer than the push keeps
   them. */
static inline int offer(steer_world *w, const uint32_t *mark, size_t *count,
                        size_t i, size_t j, int *close) {
  if (j == i || !w->group_bit[j]) return 1; /* a ghost has no body */
  double ri = w->radius[i], rj = w->radius[j];
  int pi = (int)(mark[i] & MARK_PUSHER), pj = (int)(mark[j] & MARK_PUSHER);
  if (!pi && !pj) return 1;
  if (rj > ri || (rj == ri && (pj > pi || (pj == pi && j < i))))
    return 1; /* j's own walk has the pair */
  double reach = PUSH_REACH * (ri + rj);
  steer_vec2 d = world_offset(w, world_pos(w, i), world_pos(w, j));
  double d2 = v2_dot(d, d);
  if (!(d2 < reach * reach)) return 1;
  double keep = (1 - PUSH_SLOP) * (ri + rj);
  *close |= d2 < keep * keep;
  return pi ? add_pair(w, count, i, j, pj) : add_pair(w, count, j, i, 0);
}

/* Walker i's candidates from..to-1 when every pair it takes lies at a
   higher index (ahead_only): j's with a lower one are j's own walk's. Such
   an i pushes and no body is narrower, so a j beside it is a pair of i's
   only when as wide (a wider j walks itself); the test offer() makes,
   without its loads for the other cases. *close: a pair already closer
   than the push keeps them. */
static int offer_ahead(steer_world *w, size_t *count, size_t i, size_t from,
                       size_t to, int *close) {
  const uint32_t *mark = w->order;
  const double *x = w->x, *y = w->y, *radius = w->radius;
  double ri = radius[i];
  double reach = PUSH_REACH * (ri + ri), reach2 = reach * reach;
  double keep = (1 - PUSH_SLOP) * (ri + ri), keep2 = keep * keep;
  steer_vec2 p = world_pos(w, i);
  if (from <= i) from = i + 1;
  for (size_t j = from; j < to; j++) {
    steer_vec2 d = world_offset(w, p, v2(x[j], y[j]));
    double d2 = v2_dot(d, d);
    if (!(d2 < reach2) || radius[j] != ri || !w->group_bit[j]) continue;
    if (!add_pair(w, count, i, j, (int)(mark[j] & MARK_PUSHER))) return 0;
    *close |= d2 < keep2;
  }
  return 1;
}

/* A dense bounded grid keeps its agents in row-major order of cells
   (clamped to the world: cell = floor(x * inv)). A pusher's walk there, when
   its reach is under a cell and it takes only pairs ahead of it, needs no
   box: its partners lie in the rest of its cell, the next cell of its row
   and the three below (ahead in the order), each only when the reach
   crosses into it. The runs come in the agents' order, as grid_runs' do;
   the cells are a superset of its box's, so the same pairs result. Returns
   -1 when the walk does not fit (the caller walks the box), else as
   offer_ahead. *cell: the bucket holding i, kept between calls. */
static int offer_stencil(steer_world *w, size_t *count, size_t i,
                         size_t *cell, int *close) {
  const steer_grid *g = &w->grid;
  double reach = PUSH_REACH * 2 * w->radius[i];
  double sx = w->x[i] * g->inv_x, sy = w->y[i] * g->inv_y;
  double rx = reach * g->inv_x, ry = reach * g->inv_y;
  /* in cells; the slack covers the rounding of reach, x * inv and the
     distance test */
  double slack = 1e-6 * (1 + fabs(sx) + fabs(sy) + rx + ry);
  if (!(rx + slack < 1 && ry + slack < 1)) return -1;
  size_t b = *cell = grid_bucket_holding(g, *cell, i);
  size_t cols = (size_t)g->ncx, rows = (size_t)g->ncy;
  size_t cx = b % cols, cy = b / cols;
  int right = sx + rx + slack >= (double)(cx + 1) && cx + 1 < cols;
  int left = sx - rx - slack < (double)cx && cx > 0;
  const uint32_t *starts = g->starts;
  /* the rest of i's cell, and the next one when the reach gets there */
  if (!offer_ahead(w, count, i, i + 1, starts[b + 1 + (size_t)right], close))
    return 0;
  if (!(sy + ry + slack >= (double)(cy + 1) && cy + 1 < rows)) return 1;
  size_t below = b + cols; /* the row below: from left of i to right of it */
  return offer_ahead(w, count, i, starts[below - (size_t)left],
                     starts[below + 1 + (size_t)right], close);
}

/* The pairs that may meet, in the agents' order: every pusher walks, and so
   does every other body wider than the narrowest pusher (it may be the
   wider of a pair; between equals the pusher walks). Returns 0 when out of
   memory; *sweeps: the most any pusher asks; *close: some pair is already
   closer than the push keeps them (else the push has nothing to do). */
static int find_pairs(steer_world *w, size_t *count, size_t *sweeps,
                      int *close) {
  size_t n = w->count;
  uint32_t *mark = w->order;
  /* narrowest: of the pushers; thinnest: of all bodies; thinnest_idle: of
     the bodies that do not push */
  double narrowest = HUGE_VAL, thinnest = HUGE_VAL, thinnest_idle = HUGE_VAL;
  *count = 0;
  *sweeps = 0;
  *close = 0;
  for (size_t j = 0; j < n; j++) {
    mark[j] = is_pusher(w, j) ? MARK_PUSHER : 0;
    if (!w->group_bit[j]) continue;
    double r = w->radius[j];
    if (r < thinnest) thinnest = r;
    if (!mark[j]) {
      if (r < thinnest_idle) thinnest_idle = r;
      continue;
    }
    if (w->program[j]->orca.push > *sweeps) *sweeps = w->program[j]->orca.push;
    if (r < narrowest) narrowest = r;
  }
  const steer_grid *g = &w->grid;
  int stencil = g->sorted && g->dense && g->mode == GRID_CLAMP;
  size_t cell = 0;
  for (size_t i = 0; i < n && *sweeps; i++) {
    if (!w->group_bit[i] || !(w->radius[i] > 0)) continue;
    if (!mark[i] && !(w->radius[i] > narrowest)) continue;
    /* a pusher no body is narrower than, and no idle body as narrow: every
       j below it is j's pair to take (offer) */
    int ahead_only = mark[i] && w->radius[i] <= thinnest &&
                     w->radius[i] < thinnest_idle;
    if (ahead_only && stencil) {
      int got = offer_stencil(w, count, i, &cell, close);
      if (got == 0) return 0;
      if (got > 0) continue;
    }
    steer_vec2 p = world_pos(w, i);
    double radius = PUSH_REACH * 2 * w->radius[i];
    grid_runs runs; /* a sorted grid's rows of cells: no walk per agent */
    if (grid_runs_init(&runs, &w->grid, n, p.x, p.y, radius)) {
      size_t from, to;
      while (grid_runs_next(&runs, &from, &to)) {
        if (ahead_only) {
          if (to > i + 1 && !offer_ahead(w, count, i, from, to, close))
            return 0;
          continue;
        }
        for (size_t j = from; j < to; j++)
          if (!offer(w, mark, count, i, j, close)) return 0;
      }
      continue;
    }
    grid_cursor c;
    grid_cursor_init(&c, &w->grid, w->x, w->y, n, p.x, p.y, radius);
    for (int32_t j; (j = grid_cursor_next(&c)) >= 0;)
      if (!offer(w, mark, count, i, (size_t)j, close)) return 0;
  }
  return 1;
}

/* How deep agent k's body, put at p, sits in the static shape nearest it
   (0 when it touches none). */
static double depth_in_shapes(steer_world *w, size_t k, steer_vec2 p) {
  w->x[k] = p.x;
  w->y[k] = p.y;
  orca_shape s;
  if (!orca_nearby_shapes(w, k, 0, 0, &s, 1)) return 0; /* every side */
  double depth = w->radius[k] - orca_shape_gap(&s);
  return depth > 0 ? depth : 0;
}

/* Agent k's push_shapes, looked up at its start (NULL: not kept). */
static const push_shapes *shapes_of(steer_world *w, size_t k,
                                    steer_vec2 start) {
  if (!w->push_shapes) return NULL;
  push_shapes *c = (push_shapes *)w->push_shapes + k;
  uint32_t *mark = w->order;
  if (!(mark[k] & MARK_SHAPES)) {
    mark[k] |= MARK_SHAPES;
    double x = w->x[k], y = w->y[k], r = w->radius[k];
    w->x[k] = start.x;
    w->y[k] = start.y;
    /* room for the roundings of the move's limit and the offsets */
    double reach = 0.5 * r + 1e-9 * (1 + r + fabs(start.x) + fabs(start.y));
    orca_shape got[PUSH_SHAPES + 1];
    size_t n = orca_nearby_shapes(w, k, reach, 0, got, PUSH_SHAPES + 1);
    w->x[k] = x;
    w->y[k] = y;
    c->n = n > PUSH_SHAPES ? -1 : (int)n;
    for (size_t q = 0; q < n && q < PUSH_SHAPES; q++) c->s[q] = got[q];
  }
  return c->n < 0 ? NULL : c;
}

/* depth_in_shapes from agent k's kept shapes, p being `d` from its start. */
static double depth_in_kept(const steer_world *w, size_t k,
                            const push_shapes *c, steer_vec2 d) {
  double deepest = 0;
  for (int q = 0; q < c->n; q++) {
    const orca_shape *s = &c->s[q];
    steer_vec2 a = v2_sub(s->a, d), ab = v2_sub(s->b, s->a);
    double len2 = v2_len2(ab);
    double t = len2 > 0 ? orca_clamp(-v2_dot(a, ab) / len2, 0, 1) : 0;
    double depth = w->radius[k] - (v2_len(v2_add(a, v2_scale(ab, t))) - s->radius);
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/* How deep agent k's body sits in the static shapes at p (its start:
   `start`). */
static double depth_at(steer_world *w, size_t k, steer_vec2 p,
                       steer_vec2 start) {
  const push_shapes *c = shapes_of(w, k, start);
  if (!c) return depth_in_shapes(w, k, p);
  return depth_in_kept(w, k, c, world_offset(w, start, p));
}

/* Agent k, about to go from `was` to `to`: where it may go. If `to` is
   deeper in a wall or an obstacle than the agent was before the push
   (at `start`), it goes back along the way as little as it must. */
static steer_vec2 clip_to_shapes(steer_world *w, size_t k, steer_vec2 was,
                                 steer_vec2 to, steer_vec2 start) {
  double deep = depth_at(w, k, to, start);
  if (deep == 0) return to;
  double allowed = depth_at(w, k, start, start);
  if (deep <= allowed) return to;
  steer_vec2 way = world_offset(w, was, to);
  double lo = 0, hi = 1; /* lo: allowed, hi: too deep */
  for (int step = 0; step < PUSH_CLIP_STEPS; step++) {
    double mid = 0.5 * (lo + hi);
    steer_vec2 p = world_contain(w, v2_add(was, v2_scale(way, mid)));
    if (depth_at(w, k, p, start) <= allowed)
      lo = mid;
    else
      hi = mid;
  }
  return world_contain(w, v2_add(was, v2_scale(way, lo)));
}

/* Moves agent k by s along u, no further than half its radius from where
   the push found it (start[k]), inside the world and no deeper in the
   static shapes (`shapes`: the world has some) than it was. Returns
   whether it moved by more than `least`. The shapes are checked at each
   push, not once after the sweeps: an agent pinned against a wall then
   stays put, and the next sweeps push its pair's other body the whole
   way. */
static int shift(steer_world *w, size_t k, steer_vec2 u, double s,
                 const steer_vec2 *start, double least, int shapes) {
  steer_vec2 was = world_pos(w, k), p = v2_add(was, v2_scale(u, s));
  steer_vec2 moved = world_offset(w, start[k], p);
  double most = 0.5 * w->radius[k], l2 = v2_len2(moved);
  /* most moves stay well within the limit: no square root for those (the
     factor leaves room for the roundings of l2 and most^2; v2_len takes
     the square root of such an l2) */
  if (!(l2 > 1e-290 && l2 < 0.999999 * (most * most))) {
    double len = v2_len(moved);
    if (len > most) p = v2_add(start[k], v2_scale(moved, most / len));
  }
  p = world_contain(w, p);
  if (shapes) p = clip_to_shapes(w, k, was, p, start[k]);
  w->x[k] = p.x;
  w->y[k] = p.y;
  steer_vec2 step = world_offset(w, was, p);
  return v2_dot(step, step) > least * least;
}

/* A body moves at most max_speed * |dt| in a step: the integration clamps
   its velocity to max_speed, a turn or a minimum speed keeps it there,
   and the world's bounds clamp (a projection: no longer) or wrap (the
   offsets are the shortest) the moved point. So a body d away from pusher
   i at the step's start ends at least d - m_i - longest away (longest:
   the longest move of any body), at least keep from it when d is beyond
   (1 - PUSH_SLOP)(r_i + widest) + m_i + longest. */
void orca_push_prepare(steer_world *w, double dt) {
  size_t n = w->count;
  if (n == 0 || world_grow(w, (void **)&w->push_near_buf, sizeof(push_near),
                           &w->push_near_cap, n))
    return; /* no memory: the push searches as always */
  double step = fabs(dt), widest = 0, longest = 0, span = 0;
  for (size_t k = 0; k < n; k++) {
    w->push_near_buf[k].n = PUSH_NEAR_UNKNOWN;
    if (!w->group_bit[k]) continue; /* a ghost has no body */
    double r = w->radius[k], m = w->max_speed[k] * step;
    if (!(r < HUGE_VAL && m < HUGE_VAL)) return; /* NaN too */
    if (r > widest) widest = r;
    if (m > longest) longest = m;
    double a = fabs(w->x[k]) > fabs(w->y[k]) ? fabs(w->x[k]) : fabs(w->y[k]);
    if (a > span) span = a;
  }
  /* room for the roundings of the positions, moves and distances */
  w->push_slack = 1e-9 * (1 + span + 2 * longest + widest);
  w->push_reach = (1 - PUSH_SLOP) * widest + longest + w->push_slack;
  w->push_near = w->push_near_buf;
}

/* Writes w->push_near[i] only (its own thread's): the bodies within
   reach of pusher i, when the search can tell that no other is. */
void orca_push_record(const steer_world *w, size_t i,
                      const nearest_found *near, size_t m,
                      const steer_orca *o, double dt) {
  push_near *rec = &w->push_near[i];
  double reach = (1 - PUSH_SLOP) * w->radius[i] + w->max_speed[i] * fabs(dt) +
                 w->push_reach;
  double reach2 = reach * reach;
  size_t k = 0;
  for (; k < m && near[k].d2 <= reach2; k++) {
    if (k == PUSH_NEAR_KEPT) return; /* too many to keep: not known */
    rec->j[k] = (uint32_t)near[k].j;
  }
  /* the rest: beyond the next one found; when all found are within reach,
     beyond neighbor_radius if the search found fewer than it may (it
     leaves out ghosts and no one else, as the push does), else unknown */
  double r = orca_neighbor_radius(o, w->radius[i]);
  if (k == m && !(m < o->max_neighbors && r * r >= reach2)) return;
  rec->n = (uint32_t)k;
}

int orca_push_far_apart(const steer_world *w) {
  const double *x = w->x, *y = w->y, *radius = w->radius;
  double slack = w->push_slack;
  for (size_t i = 0; i < w->count; i++) {
    const push_near *rec = &w->push_near[i];
    if (rec->n == PUSH_NEAR_UNKNOWN) {
      if (is_pusher(w, i)) return 0; /* its ORCA did not tell */
      continue;
    }
    /* the near ones are measured again where they are now */
    steer_vec2 p = v2(x[i], y[i]);
    for (uint32_t k = 0; k < rec->n; k++) {
      size_t j = rec->j[k];
      double keep = (1 - PUSH_SLOP) * (radius[i] + radius[j]) + slack;
      steer_vec2 d = world_offset(w, p, v2(x[j], y[j]));
      if (!(v2_dot(d, d) > keep * keep)) return 0;
    }
  }
  return 1;
}

int orca_push(steer_world *w) {
  size_t pairs, sweeps;
  int close;
#ifdef STEER_PUSH_SKIP_CHECK /* a check build: the skip must be right */
  {
    static size_t calls, skips, closes;
    int found = find_pairs(w, &pairs, &sweeps, &close);
    calls++;
    skips += w->push_skip != 0;
    closes += found && close;
    if (getenv("PUSH_SKIP_COUNT") && calls % 100 == 0)
      fprintf(stderr, "push: %zu steps, %zu skipped, %zu with a close pair\n",
              calls, skips, closes);
    if (w->push_skip && found && close) {
      fprintf(stderr, "steer: orca_push skipped a close pair\n");
      abort();
    }
  }
#endif
  if (w->push_skip) return 0; /* orca_push_far_apart: no pair is close */
  /* out of memory: no push this step rather than one over some pairs. No
     pair closer than `keep`: the first sweep would move no one */
  if (!find_pairs(w, &pairs, &sweeps, &close) || !close) return 0;
  /* every pusher is an ORCA agent, whose step is buffered: the forces
     buffer holds one vector per agent, free once the agents moved */
  STEER_ASSERT(w->forces_cap >= w->count);
  steer_vec2 *start = w->forces;
  for (size_t q = 0; q < pairs; q++) {
    const push_pair *pr = &w->push_pairs[q];
    start[pr->i] = world_pos(w, pr->i);
    start[pr->j] = world_pos(w, pr->j);
  }
  int moved = 0, shapes = w->geo.obstacle_count || w->geo.wall_count;
  /* no memory for the kept shapes: each push looks them up */
  if (shapes && world_grow(w, &w->push_shapes, 1, &w->push_shapes_cap,
                           w->count * sizeof(push_shapes))) {
    world_alloc(w, w->push_shapes, w->push_shapes_cap, 0);
    w->push_shapes = NULL;
    w->push_shapes_cap = 0;
  }
  /* the columns stay where they are during the push: read once, not
     again after every call of shift */
  const push_pair *list = w->push_pairs;
  const double *x = w->x, *y = w->y, *radius = w->radius;
  size_t most = sweeps < STEER_ORCA_MAX_PUSH / PUSH_MORE
                    ? sweeps * PUSH_MORE
                    : STEER_ORCA_MAX_PUSH;
  size_t per_agent =
      pairs > PUSH_PILE * w->count ? PUSH_VISITS : PUSH_VISITS_MOST;
  size_t budget = per_agent * w->count / pairs;
  most = budget < 1 ? 1 : budget < most ? budget : most;
  /* what the sweep before met */
  double was_sum = HUGE_VAL, was_most = HUGE_VAL;
  /* all depths beyond the slop, of r_i + r_j, summed and the deepest, in
     the last PUSH_WINDOW sweeps */
  double window_sum[PUSH_WINDOW], window_most[PUSH_WINDOW];
  for (size_t s = 0; s < most; s++) {
    int any = 0;
    /* depths beyond PUSH_DEEP, of r_i + r_j: summed, and the deepest */
    double sum_excess = 0, most_excess = 0, sum_depth = 0, most_depth = 0;
    for (size_t q = 0; q < pairs; q++) {
      const push_pair *pr = &list[q];
      size_t i = pr->i, j = pr->j;
      double sum = radius[i] + radius[j], keep = (1 - PUSH_SLOP) * sum;
      steer_vec2 d = world_offset(w, v2(x[i], y[i]), v2(x[j], y[j]));
      double d2 = v2_dot(d, d);
      if (!(d2 < keep * keep)) continue;
      double dist = sqrt(d2);
      /* one spot: apart along x, the lower index to the left */
      steer_vec2 u = dist > 0 ? v2_scale(d, 1 / dist) : v2(i < j ? 1 : -1, 0);
      double depth = keep - dist, share = depth / sum;
      sum_depth += share;
      if (share > most_depth) most_depth = share;
      if (depth > PUSH_DEEP * sum) { /* rare: pairs still deep */
        double e = depth / sum - PUSH_DEEP;
        sum_excess += e;
        if (e > most_excess) most_excess = e;
      }
      /* a sweep that moves no agent by more than a hair (agents held at
         their limits, depths all but at the slop) ends the push */
      double least = PUSH_STILL * PUSH_SLOP * keep;
      any |= shift(w, i, u, pr->both ? -0.5 * depth : -depth, start, least,
                   shapes);
      if (pr->both)
        any |= shift(w, j, u, 0.5 * depth, start, least, shapes);
      moved = 1;
    }
    int closer = sum_excess < was_sum || most_excess < was_most;
    if (!any || (s + 1 >= sweeps && !(sum_excess > 0 && closer)))
      break; /* still, or done, or no closer to done */
    size_t slot = s % PUSH_WINDOW;
    if (s >= PUSH_WINDOW && !(sum_depth < PUSH_GAIN * window_sum[slot]) &&
        !(most_depth < PUSH_GAIN * window_most[slot]))
      break; /* stalled: held bodies, or more bodies than the room holds */
    window_sum[slot] = sum_depth;
    window_most[slot] = most_depth;
    was_sum = sum_excess;
    was_most = most_excess;
  }
  return moved;
}
