/* trig.h - steer's sine and cosine (internal; behaviors.c's wander force
 * and program_batch.c's wander lanes).
 *
 * wander needs sin and cos of its angle for every agent every step; libm's
 * sincos is a call per agent that no loop can overlap. trig_sincos is the
 * same computation written once in scalar C and once for two SSE2 lanes
 * (pair_sincos), operation for operation, so that every path gives the
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
  double big = t * TRIG_2_OVER_PI + TRIG_ROUND;
  double k = big - TRIG_ROUND;
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

#if defined(__SSE2__)
#include <emmintrin.h>

/* trig_sincos of both lanes of t; returns the mask (bit l for lane l) of
   the lanes beyond TRIG_REDUCE_MAX (or NaN), whose results are wrong: the
   caller computes those with trig_sincos. */
static inline int pair_sincos(__m128d t, __m128d *sin_t, __m128d *cos_t) {
  __m128d sign = _mm_set1_pd(-0.0);
  int rare = _mm_movemask_pd(_mm_cmpnle_pd(_mm_andnot_pd(sign, t),
                                           _mm_set1_pd(TRIG_REDUCE_MAX)));
  __m128d round = _mm_set1_pd(TRIG_ROUND);
  __m128d big = _mm_add_pd(_mm_mul_pd(t, _mm_set1_pd(TRIG_2_OVER_PI)), round);
  __m128d k = _mm_sub_pd(big, round);
  __m128d a = _mm_sub_pd(t, _mm_mul_pd(k, _mm_set1_pd(TRIG_PIO2_1)));
  __m128d b = _mm_mul_pd(k, _mm_set1_pd(TRIG_PIO2_2));
  __m128d hi = _mm_sub_pd(a, b), bv = _mm_sub_pd(hi, a);
  __m128d av = _mm_sub_pd(hi, bv);
  __m128d lo = _mm_sub_pd(_mm_sub_pd(_mm_sub_pd(a, av), _mm_add_pd(b, bv)),
                          _mm_mul_pd(k, _mm_set1_pd(TRIG_PIO2_3)));
  __m128d r = _mm_add_pd(hi, lo);
  bv = _mm_sub_pd(r, hi);
  av = _mm_sub_pd(r, bv);
  __m128d r_lo = _mm_add_pd(_mm_sub_pd(hi, av), _mm_sub_pd(lo, bv));
  __m128d z = _mm_mul_pd(r, r), hz = _mm_mul_pd(_mm_set1_pd(0.5), z);
  __m128d one = _mm_set1_pd(1.0), one_hz = _mm_sub_pd(one, hz);
  __m128d poly_s, poly_c;
#define TRIG_HORNER(acc, c) acc = _mm_add_pd(_mm_set1_pd(c), _mm_mul_pd(z, acc))
  poly_s = _mm_set1_pd(1.0 / 355687428096000.0);
  TRIG_HORNER(poly_s, -1.0 / 1307674368000.0);
  TRIG_HORNER(poly_s, 1.0 / 6227020800.0);
  TRIG_HORNER(poly_s, -1.0 / 39916800);
  TRIG_HORNER(poly_s, 1.0 / 362880);
  TRIG_HORNER(poly_s, -1.0 / 5040);
  TRIG_HORNER(poly_s, 1.0 / 120);
  TRIG_HORNER(poly_s, -1.0 / 6);
  poly_c = _mm_set1_pd(1.0 / 20922789888000.0);
  TRIG_HORNER(poly_c, -1.0 / 87178291200.0);
  TRIG_HORNER(poly_c, 1.0 / 479001600.0);
  TRIG_HORNER(poly_c, -1.0 / 3628800);
  TRIG_HORNER(poly_c, 1.0 / 40320);
  TRIG_HORNER(poly_c, -1.0 / 720);
  TRIG_HORNER(poly_c, 1.0 / 24);
#undef TRIG_HORNER
  __m128d s = _mm_add_pd(
      r, _mm_add_pd(_mm_mul_pd(_mm_mul_pd(r, z), poly_s), r_lo));
  __m128d c = _mm_add_pd(
      one_hz,
      _mm_add_pd(_mm_sub_pd(_mm_sub_pd(one, one_hz), hz),
                 _mm_sub_pd(_mm_mul_pd(_mm_mul_pd(z, z), poly_c),
                            _mm_mul_pd(r, r_lo))));
  /* the quadrant: big's low bits hold k (its unit is 1) */
  __m128i q = _mm_castpd_si128(big);
  __m128i odd = _mm_sub_epi64(_mm_setzero_si128(),
                              _mm_and_si128(q, _mm_set_epi32(0, 1, 0, 1)));
  __m128d swap = _mm_castsi128_pd(odd);
  __m128d sq = _mm_or_pd(_mm_and_pd(swap, c), _mm_andnot_pd(swap, s));
  __m128d cq = _mm_or_pd(_mm_and_pd(swap, s), _mm_andnot_pd(swap, c));
  /* sign flips: bit 1 of k for sin, bit 1 of k + 1 for cos, moved to 63 */
  __m128i two = _mm_set_epi32(0, 2, 0, 2);
  __m128i flip_s = _mm_slli_epi64(_mm_and_si128(q, two), 62);
  __m128i flip_c = _mm_slli_epi64(
      _mm_and_si128(_mm_add_epi64(q, _mm_set_epi32(0, 1, 0, 1)), two), 62);
  *sin_t = _mm_xor_pd(sq, _mm_castsi128_pd(flip_s));
  *cos_t = _mm_xor_pd(cq, _mm_castsi128_pd(flip_c));
  return rare;
}
#endif

#endif
