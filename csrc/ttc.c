/* ttc.c - avoid_agents: an anticipatory force from the time to collision
 * with each neighbor (Karamouzas, Skinner, Guy, "Universal power law
 * governing pedestrian interactions", PRL 113, 238701, 2014).
 *
 * With x = agent minus neighbor (shortest offset), v = the agent's velocity
 * minus the neighbor's and R = the radii's sum, the bodies touch when
 * |x + v t| = R; tau is the first such t >= 0. The interaction energy is
 * E = k / tau^2 * exp(-tau / t0) (t0 the time horizon), and the force
 * -dE/dx = k exp(-tau/t0) / tau^2 (2/tau + 1/t0) (x + v tau) / sqrt(disc),
 * pointing from the neighbor's body to the agent's at the moment of
 * contact. Agents already overlapping push apart at full strength.
 *
 * Head-on, that force lies along the line of centres: it slows both and
 * turns neither, and a crowd meeting head-on jams. So its direction is
 * turned towards the right of the closing velocity v: the direction plus
 * SIDE_K cos^16(angle between -v and the line of centres) times that right,
 * normalized, at the law's size. Head-on that is 72 degrees of turn, 28
 * degrees off it 23, crossing paths next to none. The two of a pair turn
 * to opposite sides (their v are opposite) and pass left shoulder to left
 * shoulder.
 *
 * The law only sees collisions to come: bodies side by side, or pressed
 * together by their goals, get nothing until they overlap and then the
 * full push, which throws them apart and back step after step. So each
 * agent also keeps a personal space: a neighbor within personal_space times
 * the radii's sum (0.5 by default) beyond touching pushes it apart along
 * the centres, from the full push at contact down to nothing at the
 * space's edge. */
#include <math.h>
#include "neighbor_filter.h"
#include "orca.h"

#define POWER_K 1.5 /* the law's scale k, the paper's value */
/* The force is capped, as in the paper: near grazing contacts (disc -> 0)
   the law diverges. At most max_force, and at most POWER_CAP * max_speed
   (reaching full speed from rest in 1 / POWER_CAP s). */
#define POWER_CAP 4.0
/* The sideways share head-on (bench/crowd: circle 100 and 250 and blocks
   measured at 0.5-3 and powers 0-16; 3 with cos^16 gave the fewest
   overlaps in all three at about the same smoothness) */
#define SIDE_K 3.0

/* The law's force on the agent from a neighbor it does not overlap (c =
   |x|^2 - radius^2 >= 0), at most `cap` long. */
static steer_vec2 anticipation(steer_vec2 x, steer_vec2 v, double c,
                               double radius, double horizon, double cap) {
  double b = v2_dot(x, v); /* < 0 while closing in */
  double a = v2_len2(v);
  if (!(b < 0) || radius <= 0) return v2(0, 0);
  double disc = b * b - a * c;
  if (!(disc > 0)) return v2(0, 0); /* they pass without touching */
  double root = sqrt(disc);
  double tau = c / (root - b); /* the smaller root, without cancellation */
  double num = POWER_K * exp(-tau / horizon) * (2 / tau + 1 / horizon) * radius;
  double den = tau * tau * root;
  double size = num < cap * den ? num / den : cap; /* also tau -> 0 */
  /* a contact too far off to matter: no force, and no contact point (a
     far neighbor closing very slowly has an infinite tau, and the point
     x + v tau a NaN part: 0 * inf) */
  if (!(size > 0)) return v2(0, 0);
  steer_vec2 contact = v2_add(x, v2_scale(v, tau)); /* length R */
  double l = v2_len(contact);
  if (!(l > 0)) return v2(0, 0);
  steer_vec2 away = v2_direction(contact, l), f = v2_scale(away, size);
  /* v may be so slow that v.v underflows: no side to speak of then */
  double speed = sqrt(a);
  if (!(speed > 0)) return f;
  double head_on = -b / (v2_len(x) * speed); /* |x| >= radius > 0 */
  if (head_on > 1) head_on = 1; /* rounding */
  double h2 = head_on * head_on, h4 = h2 * h2, h8 = h4 * h4;
  steer_vec2 right = v2(v.y / speed, -v.x / speed);
  steer_vec2 turned = v2_add(away, v2_scale(right, SIDE_K * (h8 * h8)));
  double tl = v2_len(turned);
  return tl > 0 ? v2_scale(turned, size / tl) : f;
}

/* The force on the agent from one neighbor: the law's, plus the personal
   space's push (`share` of the radii's sum beyond touching); overlapping,
   the full push alone. */
static steer_vec2 pair_force(steer_vec2 x, steer_vec2 v, double radius,
                             double horizon, double cap, double share,
                             int side) {
  double l2 = v2_len2(x), c = l2 - radius * radius;
  /* overlapping: apart, along the centres (the second test for radii so
     small that both squares underflow to 0, agents on one point among
     them: c is 0 then, and the personal space below has no direction) */
  if (c < 0 || (l2 == 0 && v2_len(x) < radius)) {
    double l = v2_len(x); /* not sqrt(l2): exact for tiny offsets too */
    return l > 0 ? v2_scale(v2_direction(x, l), cap) : v2(side * cap, 0);
  }
  steer_vec2 f = anticipation(x, v, c, radius, horizon, cap);
  /* finite: radii and shares are at most STEER_LIMIT */
  double space = share * radius, reach = radius + space;
  if (space > 0 && l2 < reach * reach) { /* l >= radius > 0 */
    double l = v2_len(x);
    f = v2_add(f, v2_scale(v2_direction(x, l), cap * ((reach - l) / space)));
  }
  return f;
}

/* What agent i's force sums up: over its neighbors j, in the grid
   cursor's order. */
typedef struct avoid_sum {
  const steer_world *w;
  size_t i;
  steer_vec2 p, v, f;
  double r2, cap, horizon, space;
  const neighbor_filter *nf;
} avoid_sum;

static inline void add_neighbor(avoid_sum *s, size_t j) {
  const steer_world *w = s->w;
  if (j == s->i) return;
  steer_vec2 d = world_offset(w, s->p, world_pos(w, j));
  if (v2_len2(d) > s->r2 ||
      !neighbor_filter_pass(s->nf, w->group_bit[j], d.x, d.y))
    return;
  s->f = v2_add(s->f, pair_force(v2_scale(d, -1), v2_sub(s->v, world_vel(w, j)),
                                 w->radius[s->i] + w->radius[j], s->horizon,
                                 s->cap, s->space, s->i < j ? -1 : 1));
}

steer_vec2 avoid_agents_filtered(const steer_world *w, size_t i,
                                 double time_horizon, double radius,
                                 double personal_space,
                                 const neighbor_filter *nf) {
  /* a C caller's share beyond STEER_LIMIT, infinite or NaN: no space
     rather than a NaN */
  if (!(personal_space <= STEER_LIMIT)) personal_space = 0;
  avoid_sum s = {w, i, world_pos(w, i), world_vel(w, i), {0, 0},
                 radius * radius, POWER_CAP * w->max_speed[i], time_horizon,
                 personal_space, nf};
  if (w->max_force[i] < s.cap) s.cap = w->max_force[i];
  grid_runs runs; /* a sorted grid: runs of indices, in the cursor's order */
  if (grid_runs_init(&runs, &w->grid, w->count, s.p.x, s.p.y, radius)) {
    size_t from, to;
    while (grid_runs_next(&runs, &from, &to))
      for (size_t j = from; j < to; j++) add_neighbor(&s, j);
  } else {
    grid_cursor c;
    grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, s.p.x, s.p.y, radius);
    for (int32_t j; (j = grid_cursor_next(&c)) >= 0;) add_neighbor(&s, (size_t)j);
  }
  return v2_clamp(s.f, s.cap);
}

steer_vec2 steer_agent_avoid_agents(const steer_world *w, size_t i,
                                    double time_horizon, double radius,
                                    double personal_space) {
  neighbor_filter all; /* every agent but ghosts */
  neighbor_filter_init(&all, STEER_ALL_GROUPS, 360, 0);
  return avoid_agents_filtered(w, i, time_horizon, radius, personal_space, &all);
}
