/* orca.h - optimal reciprocal collision avoidance (van den Berg, Guy, Lin,
 * Manocha 2011): half-planes of permitted velocities and the linear
 * program that picks the velocity closest to the preferred one (internal).
 *
 * A half-plane is a line through `point` along the unit `dir`; the
 * permitted velocities lie on its left: cross(dir, v - point) >= 0. */
#ifndef STEER_ORCA_H
#define STEER_ORCA_H

#include "nearest.h"
#include "neighbor_filter.h"
#include "world.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* t < lo ? lo : t > hi ? hi : t, for lo <= hi. With SSE2 without the
   branch (mispredicted often where ORCA clamps: a quarter of the time for
   t in blocks): minsd (hi < t ? hi : t), then maxsd (lo > that ? lo :
   that), the same answer for any t (NaN and zeros of either sign too). */
static inline double orca_clamp(double t, double lo, double hi) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(
      _mm_max_sd(_mm_set_sd(lo), _mm_min_sd(_mm_set_sd(hi), _mm_set_sd(t))));
#else
  return t < lo ? lo : t > hi ? hi : t;
#endif
}

/* The radius within which an agent of body radius `radius` looks for its
   neighbors: the program's, or (a negative neighbor_radius, the default)
   4 body radii and at least 10: the first contract's 10 for agents of
   radius up to 2.5, and a reach beyond two bodies touching at any scale (a
   soldier of 7 px sees 28 px around it, where 10 px was less than touching
   and ORCA saw its neighbors only once they overlapped; 20 radii, 140 px,
   also kept them apart but made crowds crawl through a forest). */
static inline double orca_neighbor_radius(const steer_orca *o, double radius) {
  if (o->neighbor_radius >= 0) return o->neighbor_radius;
  double r = 4 * radius;
  return r > 10 ? r : 10;
}

/* avoid_agents (ttc.c) over the neighbors filter f lets through (an
   entry's groups and view cone; ghosts never count). */
steer_vec2 avoid_agents_filtered(const steer_world *w, size_t i,
                                 double time_horizon, double radius,
                                 double personal_space,
                                 const neighbor_filter *f);

typedef struct orca_line {
  steer_vec2 point, dir;
} orca_line;

/* The half-plane an agent at velocity `vel` gets against a neighbor at
   offset `rel_pos` (neighbor minus agent) moving `rel_vel` slower
   (agent's velocity minus neighbor's), their radii adding to `radius`,
   within `horizon` seconds; an overlap is resolved within `dt`. The agent
   takes `share` of the avoidance (1/2 reciprocal, 1 alone). `side` (+1 or
   -1) picks the way out when the two are at one spot with one velocity.
   The line goes to *out (a returned struct would cost a store-forwarding
   stall in the caller's copy). */
void orca_agent_line(steer_vec2 rel_pos, steer_vec2 rel_vel, steer_vec2 vel,
                     double radius, double horizon, double dt, double share,
                     int side, orca_line *out);

/* The inputs of orca_agent_line for an agent's neighbors, one array per
   coordinate, so that orca_agent_lines can take them two at a time. */
typedef struct orca_neighbors {
  double px[STEER_ORCA_MAX_NEIGHBORS], py[STEER_ORCA_MAX_NEIGHBORS];
  double vx[STEER_ORCA_MAX_NEIGHBORS], vy[STEER_ORCA_MAX_NEIGHBORS];
  double radius[STEER_ORCA_MAX_NEIGHBORS], share[STEER_ORCA_MAX_NEIGHBORS];
  int side[STEER_ORCA_MAX_NEIGHBORS];
} orca_neighbors;

/* orca_agent_line for neighbors 0 .. n - 1 of nb (rel_pos = (px, py),
   rel_vel = (vx, vy)) into out[0 .. n - 1]: the same bits, two at a time
   where SSE2 is there, four at a time at SIMD width 4 (the step's
   w->step_simd: only where the CPU has AVX). */
void orca_agent_lines(const orca_neighbors *nb, size_t n, steer_vec2 vel,
                      double horizon, double dt, orca_line *out, int width);

/* Neighbors k .. k + 3 of nb in AVX lanes (orca_quad.c), their lines
   into out[0 .. 3]; returns the lanes (bit q: neighbor k + q) that need
   the scalar code (an overlap, or a w sqrt cannot measure): their lines
   are written later. Only where the CPU has AVX. */
int orca_lines_quad(const orca_neighbors *nb, size_t k, steer_vec2 vel,
                    double horizon, orca_line *out);

/* orca_shapes.c's wall filter two walls at a time in AVX lanes
   (orca_quad.c), the same walls: see there. Only where the CPU has AVX. */
size_t orca_walls_quad(const geo_wall *l, size_t from, size_t end,
                       steer_vec2 p, double lim, size_t *id, size_t *next);

/* The half-plane against a static point of a wall (or an obstacle's
   centre) at offset `rel_pos` from an agent, when the agent's body of
   radius `radius` must stay clear of it for `horizon` seconds: the speed
   towards it at most the gap over the horizon (the gap over dt when the
   body overlaps it already). `side`: as above, for a point at the
   agent's centre. dist: the length of rel_pos (v2_len), which the
   caller has worked out already. */
void orca_static_line(steer_vec2 rel_pos, double dist, double radius,
                      double horizon, double dt, int side, orca_line *out);

/* The velocity within max_speed closest to `preferred` that satisfies
   lines[0 .. n - 1]; when none does, the one that violates the lines from
   n_static on the least (the first n_static, the static geometry, stay
   hard when they can). scratch holds n lines. Never NaN. */
steer_vec2 orca_solve(const orca_line *lines, size_t n, size_t n_static,
                      double max_speed, steer_vec2 preferred,
                      orca_line *scratch);

/* A static shape near an agent: a segment a-b (a circle: a == b with a
   radius). The geometry index hands ORCA these (orca_shapes.c). */
typedef struct orca_shape {
  steer_vec2 a, b;
  double radius;
  /* what orca_nearby_shapes worked out for the gap, kept for the shape's
     line: t, where along a-b the point nearest the agent lies before it
     is clamped into the segment (0 for a circle), and that point's
     distance */
  double t, dist;
} orca_shape;

/* Up to `max` shapes within `reach` of agent i's body, nearest first,
   in coordinates relative to the agent's centre (the image nearest it on a
   torus); returns how many. `facing`: leaves out the edges of convex
   polygons that face away from the agent (its centre inside their line:
   the polygon's other edges are nearer its way), as RVO2 takes an
   obstacle's edge only when the agent sees it. */
size_t orca_nearby_shapes(const steer_world *w, size_t i, double reach,
                          int facing, orca_shape *out, size_t max);

/* How far the surface of shape s (as orca_nearby_shapes gives it) is
   from the agent's centre (negative inside a circle): the nearest point
   of a segment, or a circle's centre less its radius. */
double orca_shape_gap(const orca_shape *s);

/* Before a step's threads start: the lists of the shapes near each cell,
   for a world with few shapes (orca_cells.c); live until orca_cells_end. */
void orca_cells_prepare(steer_world *w);
/* The same for reach + body up to lim (the oracle's way in). */
void orca_cells_ready(steer_world *w, double lim);
static inline void orca_cells_end(steer_world *w) { w->shape_cells.live = 0; }
/* During a step: the dense numbers, in order, of the obstacles (walls: 1)
   that can come within lim of p's box test (orca_shapes.c's beyond), *n of
   them; NULL when there are no lists for p and lim: scan them all. */
const uint32_t *orca_cells_list(const steer_world *w, steer_vec2 p,
                                double lim, int walls, size_t *n);

/* Is p beyond the lists' grid, live for reach + body up to lim? The grid
   spans every shape's box grown by more than lim (orca_cells_list says
   so too), so no shape comes within the reach of p: orca_nearby_shapes
   answers none at once (blocks: half its calls, far from the squares). */
static inline int orca_cells_beyond(const steer_world *w, steer_vec2 p,
                                    double lim) {
  const shape_cells *c = &w->shape_cells;
  if (!c->live || !(lim <= c->lim)) return 0;
  double fx = (p.x - c->x0) * c->inv, fy = (p.y - c->y0) * c->inv;
  /* one branch, not four: which agents lie near a wall is no pattern */
  int inside = (fx >= 0) & (fx < (double)c->nx) & (fy >= 0) &
               (fy < (double)c->ny);
  return !inside & (fx == fx) & (fy == fy); /* NaN: the scan decides */
}

/* The half-plane a static segment a-b (offsets from the agent) grown by
   `radius` gives an agent moving at vel that does not touch it: the
   segment's velocity obstacle truncated at `horizon` (the cone over it,
   beyond the segment shrunk by the horizon) touched where its boundary is
   nearest vel, the agent avoiding it fully (the paper's obstacles). 0 when
   the agent touches an end or the result is not finite (*out undefined). */
int orca_segment_line(steer_vec2 a, steer_vec2 b, double radius,
                      steer_vec2 vel, double horizon, orca_line *out);

/* Whether one of lines[0 .. n) already keeps the agent out of the
   velocity obstacle of the wall a-b (as orca_segment_line takes it): the
   line permits the origin and forbids the whole cut-off capsule, so it
   forbids every velocity the obstacle holds (RVO2 skips such edges too).
   A wall behind a nearer one then adds no half-plane of its own. */
int orca_wall_covered(const orca_line *lines, size_t n, steer_vec2 a,
                      steer_vec2 b, double radius, double horizon);

/* The half-plane of shape s (as orca_nearby_shapes gives it) for an
   agent of radius `body` moving at vel: a wall clear of the body,
   orca_segment_line; a wall the body touches, orca_static_line beside it
   (its nearest point inside the segment) and past its end, like a circle,
   the velocity obstacle of a disc at rest (orca_agent_line, avoided
   fully). */
void orca_shape_line(const orca_shape *s, double body, steer_vec2 vel,
                     double horizon, double dt, orca_line *out);

/* The force that turns agent i's program force f into the ORCA velocity
   for a step of dt (program_force calls it last). */
steer_vec2 orca_force(steer_world *w, size_t i, steer_vec2 f,
                      const steer_orca *o, double dt);
/* orca_force for dt > 0 from the preferred velocity it works out first:
   v2_clamp(v + v2_clamp(f, max_force) * dt, max_speed) (orca_batch.c
   works it out for two agents at once). Both keep agent i's standstill
   clock (w->orca_clock[i], written by agent i's thread only). */
steer_vec2 orca_force_from(steer_world *w, size_t i, steer_vec2 preferred,
                           const steer_orca *o, double dt);

/* ORCA's detour (orca_agent.c): held this many seconds, an agent turns for
   DETOUR_TIME, then rests DETOUR_REST. Its clock (w->orca_clock) stays in
   [-(DETOUR_TIME + DETOUR_REST), DETOUR_AFTER). */
#define DETOUR_AFTER 2.0
#define DETOUR_TIME 4.0
#define DETOUR_REST 16.0

/* ORCA's push (orca_push.c), after a step's moves and sort: bodies of
   agents whose program has orca.push that overlap by more than a slop are
   pushed apart. Returns whether any moved (the agents need sorting again). */
int orca_push(steer_world *w);
/* Whether a step's push needs its pair search (orca_push.c): before the
   step's forces of dt, orca_push_prepare readies w->push_near (NULL when
   it cannot tell); during them, each pusher's ORCA hands orca_push_record
   its m neighbors (nearest first); after the moves, before the sort,
   orca_push_far_apart: can no pusher have ended closer to any body than
   the push keeps them? Then orca_push skips its pair search. */
void orca_push_prepare(steer_world *w, double dt);
void orca_push_record(const steer_world *w, size_t i,
                      const nearest_found *near, size_t m,
                      const steer_orca *o, double dt);
int orca_push_far_apart(const steer_world *w);

#endif
