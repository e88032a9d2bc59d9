/* neighbor_filter.h - which neighbors count: a set of groups and a view
 * cone around the facing (internal). Ghosts have no group bit, so no
 * filter counts them. Flocking walks, queries and any other neighbor
 * search (avoid_agents, orca) call neighbor_filter_pass per candidate.
 *
 * The cone test is dot(d, forward) >= cos(fov / 2) |d|, with |d| =
 * sqrt(d2): the crowd kernel's lanes perform the same operations. */
#ifndef STEER_NEIGHBOR_FILTER_H
#define STEER_NEIGHBOR_FILTER_H

#include <math.h>
#include <stdint.h>
#include "steer.h"

typedef struct neighbor_filter {
  uint32_t groups;    /* bit g set: group g counts */
  int cone;           /* fov < 360: the cone test applies */
  double cos_half;    /* cos(fov / 2) */
  steer_vec2 forward; /* (cos angle, sin angle) of the looking agent */
} neighbor_filter;

/* groups as steer_entry.groups, fov in degrees (0, 360], angle the
   looking agent's facing. */
static inline void neighbor_filter_init(neighbor_filter *f, uint32_t groups,
                                        double fov, double angle) {
  f->groups = groups;
  f->cone = fov < 360;
  f->cos_half = cos(fov * (3.14159265358979323846 / 360));
  f->forward.x = f->cone ? cos(angle) : 1;
  f->forward.y = f->cone ? sin(angle) : 0;
}

/* Is the candidate at offset (dx, dy), squared length d2, inside the
   cone? (A candidate at the very spot is.) */
static inline int neighbor_in_cone(const neighbor_filter *f, double dx,
                                   double dy, double d2) {
  double dot = dx * f->forward.x + dy * f->forward.y;
  return dot >= f->cos_half * sqrt(d2);
}

/* Does a candidate with group bit `bit` at offset (dx, dy) count? */
static inline int neighbor_filter_pass(const neighbor_filter *f,
                                       uint32_t bit, double dx, double dy) {
  if (!(bit & f->groups)) return 0;
  return !f->cone || neighbor_in_cone(f, dx, dy, dx * dx + dy * dy);
}

#endif
