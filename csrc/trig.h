/* trig.h - steer's sine and cosine (internal; behaviors.c's wander force,
 * batch_lanes.h's wander lanes).
 *
 * wander needs sin and cos of its angle for every agent every step; libm's
 * sincos is a call per agent that no loop can overlap. trig_sincos is the
 * same computation written once in scalar C and once for SIMD lanes
 * (batch_lanes.h's lanes_sincos), operation for operation, so that every path gives the
 * same bits: a:wander(), a program entry agent by agent and a batch.
 *
 * Method: reduce t to r = t - k pi/2 (|r| <= pi/4 or a hair beyond) with
 * pi/2 in three pieces (Cody and Waite; the first two short enough that
 * k times them is exact for |t| <= TRIG_REDUCE_MAX, the rest of r kept as
 * a second double), then the Taylor series of sin and cos on r (through
 * r^17 and r^16: the next terms are below 1e-18 on |r| <= pi/4), then the
 * quadrant k mod 4 picks and signs them. Error within 1 ulp or so of the
 * true values (spec/trig_spec.lua measures it against math.sin/math.cos).
 * Beyond TRIG_REDUCE_MAX (never reached by a wander angle in practice:
 * agent.c folds |t| > 1e15 by fmod) libm's sin and cos take over. */
#ifndef STEER_TRIG_H
#define STEER_TRIG_H

#include <float.h>
#include <math.h>

/* the largest |t| reduced here: k <= 2^16, so k * TRIG_PIO2_1 (33 bits)
   and k * TRIG_PIO2_2 (33 bits) are exact */
#define TRIG_REDUCE_MAX 65536.0
#define TRIG_2_OVER_PI 0x1.45f306dc9c883p-1
#define TRIG_PIO2_1 0x1.921fb544p0 /* pi/2: its first 33 bits */
#define TRIG_PIO2_2 0x1.0b4611a6p-34 /* the next 33 */
#define TRIG_PIO2_3 0x1.3198a2e037073p-69 /* the next 53 */
#define TRIG_ROUND 0x1.8p52 /* x + this - this: x rounded to an integer */

/* sin(r) = r + r z S(z) and cos(r) = 1 - z/2 + z^2 C(z), z = r^2: the
   Taylor coefficients 1/n! with their signs */
#define TRIG_S(z)                                                          \
  (-1.0 / 6 + (z) * (1.0 / 120 + (z) * (-1.0 / 5040 + (z) * (1.0 / 362880 \
  + (z) * (-1.0 / 39916800 + (z) * (1.0 / 6227020800.0                    \
  + (z) * (-1.0 / 1307674368000.0 + (z) * (1.0 / 355687428096000.0))))))))
#define TRIG_C(z)                                                          \
  (1.0 / 24 + (z) * (-1.0 / 720 + (z) * (1.0 / 40320                      \
  + (z) * (-1.0 / 3628800 + (z) * (1.0 / 479001600.0                       \
  + (z) * (-1.0 / 87178291200.0 + (z) * (1.0 / 20922789888000.0)))))))

/* sin t and cos t (see above). */
static inline void trig_sincos(double t, double *sin_t, double *cos_t) {
  if (!(fabs(t) <= TRIG_REDUCE_MAX)) { /* NaN too */
    *sin_t = sin(t);
    *cos_t = cos(t);
    return;
  }
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
  /* excess precision (x87): adding TRIG_ROUND would not round; no lanes
     there, so no path needs the same bits as another */
  double k = rint(t * TRIG_2_OVER_PI);
#else
  double k = t * TRIG_2_OVER_PI + TRIG_ROUND - TRIG_ROUND;
#endif
  /* t - k pi/2 as hi + lo: the first piece exactly (Sterbenz), the second
     with its rounding error recovered (two-sum), the third into lo */
  double a = t - k * TRIG_PIO2_1, b = k * TRIG_PIO2_2;
  double hi = a - b, bv = hi - a, av = hi - bv;
  double lo = ((a - av) - (b + bv)) - k * TRIG_PIO2_3;
  double r = hi + lo;
  bv = r - hi;
  av = r - bv;
  double r_lo = (hi - av) + (lo - bv);
  double z = r * r, hz = 0.5 * z, one_hz = 1 - hz;
  double s = r + (r * z * TRIG_S(z) + r_lo);
  /* 1 - z/2 loses its rounding error: it comes back in the tail */
  double c = one_hz + (((1 - one_hz) - hz) + (z * z * TRIG_C(z) - r * r_lo));
  int q = (int)k & 3; /* two's complement: k mod 4 for negative k too */
  double sq = q & 1 ? c : s, cq = q & 1 ? s : c;
  *sin_t = q & 2 ? -sq : sq;
  *cos_t = (q + 1) & 2 ? -cq : cq;
}

#endif
