/* pair_math.h - vec.h's common paths for two agents at once in SSE2 lanes
 * (internal; flow_steer.c, program_batch.c). Each function performs its
 * scalar model's operations in the same order, so a lane's result is the
 * same bits, and adds to *rare the lanes where the model would take a
 * rare branch (hypot, a subnormal ratio, a near-zero vector): the caller
 * redoes those agents with the scalar code. */
#ifndef STEER_PAIR_MATH_H
#define STEER_PAIR_MATH_H

#if defined(__SSE2__)
#include <emmintrin.h>
#include "steer.h"

static inline __m128d pair_select(__m128d mask, __m128d yes, __m128d no) {
  return _mm_or_pd(_mm_and_pd(mask, yes), _mm_andnot_pd(mask, no));
}

/* v2_normalize(x, y) where |(x, y)|^2 lies in [1e-12, 1e300) and its
   length beyond STEER_EPSILON; *l2 gets x*x + y*y. */
static inline void pair_normalize(__m128d *x, __m128d *y, __m128d *l2,
                                  __m128d *rare) {
  *l2 = _mm_add_pd(_mm_mul_pd(*x, *x), _mm_mul_pd(*y, *y));
  __m128d l = _mm_sqrt_pd(*l2);
  __m128d plain = _mm_and_pd(
      _mm_and_pd(_mm_cmpge_pd(*l2, _mm_set1_pd(1e-12)),
                 _mm_cmplt_pd(*l2, _mm_set1_pd(1e300))),
      _mm_cmpgt_pd(l, _mm_set1_pd(STEER_EPSILON)));
  *rare = _mm_or_pd(*rare, _mm_andnot_pd(plain, _mm_castsi128_pd(
                                                    _mm_set1_epi32(-1))));
  *x = _mm_div_pd(*x, l);
  *y = _mm_div_pd(*y, l);
}

/* v2_clamp((x, y), max): zero and short vectors stay, long ones scale by
   max / length. */
static inline void pair_clamp(__m128d *x, __m128d *y, __m128d max,
                              __m128d *rare) {
  __m128d zero = _mm_setzero_pd();
  __m128d l2 = _mm_add_pd(_mm_mul_pd(*x, *x), _mm_mul_pd(*y, *y));
  __m128d m2 = _mm_mul_pd(max, max);
  __m128d moving = _mm_or_pd(_mm_cmpneq_pd(*x, zero), _mm_cmpneq_pd(*y, zero));
  __m128d ordinary = _mm_and_pd(
      _mm_and_pd(_mm_cmpgt_pd(l2, _mm_set1_pd(1e-290)),
                 _mm_cmplt_pd(l2, _mm_set1_pd(1e300))),
      _mm_cmplt_pd(m2, _mm_set1_pd(1e300)));
  *rare = _mm_or_pd(*rare, _mm_andnot_pd(ordinary, moving));
  __m128d cut = _mm_and_pd(_mm_and_pd(moving, ordinary), _mm_cmpgt_pd(l2, m2));
  if (!_mm_movemask_pd(cut)) return; /* often: no square root, no division */
  __m128d s = _mm_div_pd(max, _mm_sqrt_pd(l2));
  __m128d tiny = _mm_cmplt_pd(s, _mm_set1_pd(2.2250738585072014e-308));
  *rare = _mm_or_pd(*rare, _mm_and_pd(cut, tiny));
  *x = pair_select(cut, _mm_mul_pd(*x, s), *x);
  *y = pair_select(cut, _mm_mul_pd(*y, s), *y);
}
#endif

#endif
