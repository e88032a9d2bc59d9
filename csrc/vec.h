/* vec.h - inline 2D vector math shared by the core (internal). */
#ifndef STEER_VEC_H
#define STEER_VEC_H

#include <math.h>
#include "steer.h"

static inline steer_vec2 v2(double x, double y) {
  steer_vec2 v = {x, y};
  return v;
}
static inline steer_vec2 v2_add(steer_vec2 a, steer_vec2 b) {
  return v2(a.x + b.x, a.y + b.y);
}
static inline steer_vec2 v2_sub(steer_vec2 a, steer_vec2 b) {
  return v2(a.x - b.x, a.y - b.y);
}
static inline steer_vec2 v2_scale(steer_vec2 a, double s) {
  return v2(a.x * s, a.y * s);
}
static inline double v2_dot(steer_vec2 a, steer_vec2 b) {
  return a.x * b.x + a.y * b.y;
}
/* The z of the 3-D cross product: > 0 when b turns left of a. */
static inline double v2_cross(steer_vec2 a, steer_vec2 b) {
  return a.x * b.y - a.y * b.x;
}
static inline double v2_len2(steer_vec2 a) { return a.x * a.x + a.y * a.y; }

/* sqrt(x^2 + y^2) is exact enough and fast while the square neither
   overflows nor underflows; hypot() covers the rest. */
static inline double v2_len(steer_vec2 a) {
  double l2 = a.x * a.x + a.y * a.y;
  if (l2 > 1e-290 && l2 < 1e300) return sqrt(l2);
  return hypot(a.x, a.y);
}

/* a / l for l = |a| > 0, also when |a| is too long for a double (then
   l is inf and half of a has a length) or subnormal (then l has lost
   bits: a (63, 4)-ulp vector measures 63 ulps, and a / l was 0.2% longer
   than 1; scaled up, it is measured again exactly). */
static inline steer_vec2 v2_direction(steer_vec2 a, double l) {
  if (l <= 1.7976931348623157e308 && l >= 0x1p-960)
    return v2(a.x / l, a.y / l);
  if (l < 0x1p-960)
    a = v2(a.x * 0x1p960, a.y * 0x1p960);
  else
    a = v2(a.x * 0.5, a.y * 0.5);
  l = hypot(a.x, a.y);
  return v2(a.x / l, a.y / l);
}

static inline steer_vec2 v2_normalize(steer_vec2 a) {
  /* far below the threshold (zero included): no need to measure exactly */
  if (a.x * a.x + a.y * a.y < 1e-12) return v2(0, 0);
  double l = v2_len(a);
  if (l <= STEER_EPSILON) return v2(0, 0);
  return v2_direction(a, l);
}

static inline steer_vec2 v2_clamp(steer_vec2 a, double max) {
  double l2 = a.x * a.x + a.y * a.y, m2 = max * max;
  double l;
  if (a.x == 0 && a.y == 0) return a; /* at rest: skip hypot */
  if (l2 > 1e-290 && l2 < 1e300 && m2 < 1e300) {
    if (l2 <= m2) return a;
    l = sqrt(l2);
  } else {
    l = hypot(a.x, a.y);
    if (l <= max) return a;
  }
  double s = max / l;
  /* a subnormal ratio keeps too few digits: divide first then */
  if (s < 2.2250738585072014e-308) return v2_scale(v2_direction(a, l), max);
  return v2_scale(a, s);
}

/* v with each component kept within +-STEER_LIMIT, the range of every
   number the world stores: v2_clamp to a max_speed or max_force of
   STEER_LIMIT can round a component one ulp beyond it. A no-op for every
   other value (NaN included), so no ordinary result changes by a bit. */
static inline double limit_coord(double v) {
  return v < -STEER_LIMIT ? -STEER_LIMIT : v > STEER_LIMIT ? STEER_LIMIT : v;
}
static inline steer_vec2 v2_limit(steer_vec2 v) {
  return v2(limit_coord(v.x), limit_coord(v.y));
}

/* Heading used by wander and the feelers: normalize(v), or (1, 0) when the
   agent is (nearly) at rest. */
static inline steer_vec2 v2_forward(steer_vec2 v) {
  if (v2_len2(v) <= 1e-4) return v2(1, 0);
  return v2_normalize(v);
}

/* Is t beyond a panic radius from p (flee and evade: radius < 0 is none)?
   Both within the limit, so the squares stay finite. */
static inline int v2_beyond(steer_vec2 p, steer_vec2 t, double radius) {
  return radius >= 0 && v2_len2(v2_sub(t, p)) > radius * radius;
}

/* The pipeline of docs/API.md section 1 (steer_integrate). */
/* The force that turns velocity v toward direction dir at `speed`, at
   most max_force (seek, flee and arrive share it; behaviors.c). */
static inline steer_vec2 v2_toward(steer_vec2 dir, steer_vec2 v, double speed,
                                   double max_force) {
  steer_vec2 desired = v2_scale(v2_normalize(dir), speed);
  return v2_clamp(v2_sub(desired, v), max_force);
}

/* Arrive's force for offset `to` from the agent to its target: full speed
   outside the slowing radius, then slower in proportion (behaviors.c). */
static inline steer_vec2 v2_arrive(steer_vec2 to, steer_vec2 v,
                                   double max_speed, double max_force,
                                   double slowing_radius) {
  double d = v2_len(to);
  /* d / slowing_radius < 1 here, so the product cannot overflow */
  double speed = d < slowing_radius ? max_speed * (d / slowing_radius)
                                    : max_speed;
  return v2_toward(to, v, speed, max_force);
}

static inline void v2_integrate(steer_vec2 *p, steer_vec2 *v, steer_vec2 f,
                                double max_speed, double max_force,
                                double dt) {
  f = v2_clamp(f, max_force);
  *v = v2_limit(v2_clamp(v2_add(*v, v2_scale(f, dt)), max_speed));
  *p = v2_add(*p, v2_scale(*v, dt));
}

#endif
