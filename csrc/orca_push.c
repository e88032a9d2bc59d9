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
 * most half its radius per step, so a push never carries a body through a
 * wall it did not overlap. The pass is serial, over the pairs in the
 * agents' order after the step's sort: the same result for any number of
 * threads. */
#include "orca.h"

#define PUSH_SLOP 0.02 /* of r_i + r_j: overlaps this shallow are left */
#define PUSH_REACH 1.2 /* pairs closer than this times r_i + r_j may meet */
#define PUSH_STILL 0.01 /* of the slop: a sweep moving no agent more ends */

static int is_pusher(const steer_world *w, size_t i) {
  const steer_program *p = w->program[i];
  return p && p->has_orca && p->orca.push > 0 && w->group_bit[i];
}

/* Appends pair (i, j); 0 when out of memory (the push then does without). */
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

/* Pusher i and candidate j: a pair when they may meet, once (two pushers
   from the lower index; a pusher and another agent from the pusher, which
   takes all the push). 0 when out of memory. */
static inline int offer(steer_world *w, const uint32_t *pusher,
                        size_t *count, size_t i, size_t j) {
  if (pusher[j] ? j <= i : !w->group_bit[j])
    return 1; /* itself, j's own walk has the pair, or a ghost: no body */
  double reach = PUSH_REACH * (w->radius[i] + w->radius[j]);
  steer_vec2 d = world_offset(w, world_pos(w, i), world_pos(w, j));
  return !(v2_dot(d, d) < reach * reach) ||
         add_pair(w, count, i, j, (int)pusher[j]);
}

/* The pairs that may meet, in the agents' order. Returns how many;
   *sweeps the most any pusher asks. */
static size_t find_pairs(steer_world *w, size_t *sweeps) {
  size_t n = w->count, count = 0;
  uint32_t *pusher = w->order; /* sort scratch, free until the next sort */
  double widest = 0;
  *sweeps = 0;
  for (size_t j = 0; j < n; j++) {
    pusher[j] = (uint32_t)is_pusher(w, j);
    if (pusher[j] && w->program[j]->orca.push > *sweeps)
      *sweeps = w->program[j]->orca.push;
    if (w->group_bit[j] && w->radius[j] > widest) widest = w->radius[j];
  }
  for (size_t i = 0; i < n; i++) {
    if (!pusher[i] || !(w->radius[i] > 0)) continue;
    steer_vec2 p = world_pos(w, i);
    double radius = PUSH_REACH * (w->radius[i] + widest);
    grid_runs runs; /* a sorted grid's rows of cells: no walk per agent */
    if (grid_runs_init(&runs, &w->grid, n, p.x, p.y, radius)) {
      size_t from, to;
      while (grid_runs_next(&runs, &from, &to))
        for (size_t j = from; j < to; j++)
          if (!offer(w, pusher, &count, i, j)) return count;
      continue;
    }
    grid_cursor c;
    grid_cursor_init(&c, &w->grid, w->x, w->y, n, p.x, p.y, radius);
    for (int32_t j; (j = grid_cursor_next(&c)) >= 0;)
      if (!offer(w, pusher, &count, i, (size_t)j)) return count;
  }
  return count;
}

/* Moves agent k by s along u, no further than half its radius from where
   the push found it (start[k]), and keeps it inside the world. Returns
   whether it moved by more than `least`. */
static int shift(steer_world *w, size_t k, steer_vec2 u, double s,
                 const steer_vec2 *start, double least) {
  steer_vec2 was = world_pos(w, k), p = v2_add(was, v2_scale(u, s));
  steer_vec2 moved = world_offset(w, start[k], p);
  double most = 0.5 * w->radius[k], len = v2_len(moved);
  if (len > most) p = v2_add(start[k], v2_scale(moved, most / len));
  p = world_contain(w, p);
  w->x[k] = p.x;
  w->y[k] = p.y;
  steer_vec2 step = world_offset(w, was, p);
  return v2_dot(step, step) > least * least;
}

int orca_push(steer_world *w) {
  size_t sweeps, pairs = find_pairs(w, &sweeps);
  if (!pairs) return 0;
  /* every pusher is an ORCA agent, whose step is buffered: the forces
     buffer holds one vector per agent, free once the agents moved */
  STEER_ASSERT(w->forces_cap >= w->count);
  steer_vec2 *start = w->forces;
  for (size_t q = 0; q < pairs; q++) {
    const push_pair *pr = &w->push_pairs[q];
    start[pr->i] = world_pos(w, pr->i);
    start[pr->j] = world_pos(w, pr->j);
  }
  int moved = 0;
  for (size_t s = 0; s < sweeps; s++) {
    int any = 0;
    for (size_t q = 0; q < pairs; q++) {
      const push_pair *pr = &w->push_pairs[q];
      size_t i = pr->i, j = pr->j;
      double keep = (1 - PUSH_SLOP) * (w->radius[i] + w->radius[j]);
      steer_vec2 d = world_offset(w, world_pos(w, i), world_pos(w, j));
      double d2 = v2_dot(d, d);
      if (!(d2 < keep * keep)) continue;
      double dist = sqrt(d2);
      /* one spot: apart along x, the lower index to the left */
      steer_vec2 u = dist > 0 ? v2_scale(d, 1 / dist) : v2(i < j ? 1 : -1, 0);
      double depth = keep - dist;
      /* a sweep that moves no agent by more than a hair (agents held at
         their step's limit, depths all but at the slop) ends the push */
      double least = PUSH_STILL * PUSH_SLOP * keep;
      any |= shift(w, i, u, pr->both ? -0.5 * depth : -depth, start, least);
      if (pr->both) any |= shift(w, j, u, 0.5 * depth, start, least);
      moved = 1;
    }
    if (!any) break;
  }
  return moved;
}
