/* geo_quad.h - index entries four at a time with AVX, for the walks that
 * test them in lanes (geometry.c's wall feelers, raycast.c's rays). Only
 * for x86 GCC or Clang: include it inside such a block; the functions that
 * use it carry AVX and run only where the CPU has it (geometry_init). */
#ifndef STEER_GEO_QUAD_H
#define STEER_GEO_QUAD_H
#include <immintrin.h>
#include "geo_index.h"

#define AVX __attribute__((target("avx")))

/* The first four numbers of entries it[0..3], one vector per number. */
static inline AVX void geo_quad_load(const geo_item *it, __m256d v[4]) {
  __m256d r0 = _mm256_loadu_pd(it[0].v), r1 = _mm256_loadu_pd(it[1].v);
  __m256d r2 = _mm256_loadu_pd(it[2].v), r3 = _mm256_loadu_pd(it[3].v);
  __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  v[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
  v[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  v[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
  v[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

#endif
