/* flocking.h - separation, alignment and cohesion as sums over neighbors
 * (internal). The rules say which neighbors count; a walk over them
 * (neighbors.h, the crowd kernel) gathers the sums; each rule's force
 * follows from the sums and the agent's own velocity and speed.
 */
#ifndef STEER_FLOCKING_H
#define STEER_FLOCKING_H

#include <stddef.h>
#include "neighbor_filter.h"
#include "steer.h"
#include "vec.h"

/* The rules a neighbor walk gathers sums for. */
typedef struct flock_rules {
  double sep_hi, sep_lo; /* separation: sep_lo < d2 <= sep_hi; -1: none */
  double ali2, coh2;     /* alignment, cohesion: d2 <= r^2; -1: none */
  double reach;          /* the widest radius */
  /* which neighbors each rule counts (separation, alignment, cohesion)
     and how separation falls off; `filtered` when any of it differs from
     "every group, 360 degrees, inverse" - otherwise walks skip it all */
  int filtered;
  uint32_t groups[3];
  double fov[3];
  steer_falloff falloff;
  double sep_radius;
} flock_rules;

/* The sums a neighbor walk gathers. */
typedef struct flock_sums {
  steer_vec2 sep, vel, off; /* separation, velocities, offsets q - p */
  size_t sep_n, ali_n, coh_n;
} flock_sums;

/* The sums of one agent in the lanes' layout (crowd.h): sum f at
   at[f * stride], for f = sep.x, sep.y, vel.x, vel.y, off.x, off.y, sep_n,
   ali_n, coh_n. */
static inline flock_sums flock_sums_strided(const double *at, size_t stride) {
  flock_sums s = {{at[0], at[stride]},
                  {at[2 * stride], at[3 * stride]},
                  {at[4 * stride], at[5 * stride]},
                  (size_t)at[6 * stride], (size_t)at[7 * stride],
                  (size_t)at[8 * stride]};
  return s;
}

/* The inverse: s into the nine slots at[0], at[stride], ... */
static inline void flock_sums_store(const flock_sums *s, double *at,
                                    size_t stride) {
  double all[9] = {s->sep.x, s->sep.y, s->vel.x, s->vel.y, s->off.x,
                   s->off.y, (double)s->sep_n, (double)s->ali_n,
                   (double)s->coh_n};
  for (int f = 0; f < 9; f++) at[(size_t)f * stride] = all[f];
}

/* Radii < 0 leave a rule out. */
void flock_rules_init(flock_rules *q, double separation, double alignment,
                      double cohesion);

/* Rule k (0 separation, 1 alignment, 2 cohesion) counts neighbors of
   `groups` within `fov` degrees; separation falls off by `falloff`. */
void flock_rules_filter(flock_rules *q, int k, uint32_t groups, double fov,
                        steer_falloff falloff);

/* One candidate at offset (dx, dy) moving at (vx, vy). */
static inline void flock_take(const flock_rules *q, flock_sums *s, double dx,
                              double dy, double vx, double vy) {
  double d2 = dx * dx + dy * dy;
  if (d2 <= q->sep_hi && d2 > q->sep_lo) {
    /* normalize(p - q) / d = -(q - p) / d^2: one reciprocal */
    double inv = 1.0 / d2;
    s->sep.x -= dx * inv;
    s->sep.y -= dy * inv;
    s->sep_n++;
  }
  if (d2 <= q->ali2) {
    s->vel.x += vx;
    s->vel.y += vy;
    s->ali_n++;
  }
  if (d2 <= q->coh2) {
    s->off.x += dx;
    s->off.y += dy;
    s->coh_n++;
  }
}

/* flock_take for filtered rules: the candidate has group bit `bit`; view[k]
   is rule k's filter as the walking agent sees it. The inverse falloff
   performs flock_take's operations. */
static inline void flock_take_filtered(const flock_rules *q,
                                       const neighbor_filter view[3],
                                       flock_sums *s, double dx, double dy,
                                       double vx, double vy, uint32_t bit) {
  double d2 = dx * dx + dy * dy;
  if (d2 <= q->sep_hi && d2 > q->sep_lo && (bit & view[0].groups) &&
      (!view[0].cone || neighbor_in_cone(&view[0], dx, dy, d2))) {
    if (q->falloff == STEER_FALLOFF_INVERSE) {
      double inv = 1.0 / d2;
      s->sep.x -= dx * inv;
      s->sep.y -= dy * inv;
    } else if (q->falloff == STEER_FALLOFF_LINEAR) {
      /* (r - d) / r along the unit direction away; times max_force later */
      double d = sqrt(d2), push = (q->sep_radius - d) / q->sep_radius / d;
      s->sep.x -= dx * push;
      s->sep.y -= dy * push;
    } else { /* -offset / d^3 */
      double inv = 1.0 / (d2 * sqrt(d2));
      s->sep.x -= dx * inv;
      s->sep.y -= dy * inv;
    }
    s->sep_n++;
  }
  if (d2 <= q->ali2 && (bit & view[1].groups) &&
      (!view[1].cone || neighbor_in_cone(&view[1], dx, dy, d2))) {
    s->vel.x += vx;
    s->vel.y += vy;
    s->ali_n++;
  }
  if (d2 <= q->coh2 && (bit & view[2].groups) &&
      (!view[2].cone || neighbor_in_cone(&view[2], dx, dy, d2))) {
    s->off.x += dx;
    s->off.y += dy;
    s->coh_n++;
  }
}

/* Each rule's force from the sums, for an agent moving at v with top speed
   max_speed (inline: the step calls them per agent). */
static inline steer_vec2 flock_separation_force(const flock_sums *s) {
  steer_vec2 f = {0, 0};
  if (s->sep_n) {
    f.x = s->sep.x / s->sep_n;
    f.y = s->sep.y / s->sep_n;
  }
  return f;
}

static inline steer_vec2 flock_alignment_force(const flock_sums *s,
                                               steer_vec2 v) {
  steer_vec2 f = {0, 0};
  if (s->ali_n) {
    f.x = s->vel.x / s->ali_n - v.x;
    f.y = s->vel.y / s->ali_n - v.y;
  }
  return f;
}

static inline steer_vec2 flock_cohesion_force(const flock_sums *s,
                                              steer_vec2 v, double max_speed) {
  steer_vec2 f = {0, 0};
  if (!s->coh_n) return f;
  steer_vec2 to_centre = {s->off.x / s->coh_n, s->off.y / s->coh_n};
  steer_vec2 desired = v2_scale(v2_normalize(to_centre), max_speed);
  f.x = desired.x - v.x;
  f.y = desired.y - v.y;
  return f;
}

/* Separation with the linear falloff: the sum of the pushes, each
   max_force (r - d) / r (not their mean). */
static inline steer_vec2 flock_separation_linear(const flock_sums *s,
                                                 double max_force) {
  return v2_scale(s->sep, max_force);
}

/* The force of flocking behavior b (separation, alignment or cohesion). */
static inline steer_vec2 flock_rule_force(steer_behavior b,
                                          const flock_sums *s, steer_vec2 v,
                                          double max_speed) {
  return b == STEER_SEPARATION  ? flock_separation_force(s)
         : b == STEER_ALIGNMENT ? flock_alignment_force(s, v)
                                : flock_cohesion_force(s, v, max_speed);
}

#endif
