/* flocking.c - the flocking rules: which neighbors each rule counts. */
#include <math.h>
#include "flocking.h"

/* The largest t with sqrt(t) < r (strictly), so that d2 <= t is exactly
   docs/API.md's test d < r (section 3.4) without a square root per candidate; -1 if none. */
static double below_sqrt(double r) {
  if (!(r > 0)) return -1;
  double t = r * r;
  while (t > 0 && !(sqrt(t) < r)) t = nextafter(t, 0);
  while (sqrt(nextafter(t, INFINITY)) < r) t = nextafter(t, INFINITY);
  return t;
}

/* The largest t with sqrt(t) <= r. */
static double at_most_sqrt(double r) {
  double t = r * r;
  while (t > 0 && sqrt(t) > r) t = nextafter(t, 0);
  while (sqrt(nextafter(t, INFINITY)) <= r) t = nextafter(t, INFINITY);
  return t;
}

void flock_rules_init(flock_rules *q, double separation, double alignment,
                      double cohesion) {
  q->sep_hi = separation >= 0 ? below_sqrt(separation) : -1;
  q->sep_lo = at_most_sqrt(STEER_EPSILON);
  q->ali2 = alignment >= 0 ? alignment * alignment : -1;
  q->coh2 = cohesion >= 0 ? cohesion * cohesion : -1;
  q->reach = separation;
  if (alignment > q->reach) q->reach = alignment;
  if (cohesion > q->reach) q->reach = cohesion;
  q->filtered = 0;
  for (int k = 0; k < 3; k++) {
    q->groups[k] = STEER_ALL_GROUPS;
    q->fov[k] = 360;
  }
  q->falloff = STEER_FALLOFF_INVERSE;
  q->sep_radius = separation;
}

void flock_rules_filter(flock_rules *q, int k, uint32_t groups, double fov,
                        steer_falloff falloff) {
  q->groups[k] = groups;
  q->fov[k] = fov;
  if (k == 0) q->falloff = falloff;
  if (groups != STEER_ALL_GROUPS || fov < 360 ||
      (k == 0 && falloff != STEER_FALLOFF_INVERSE))
    q->filtered = 1;
}
