/* orca_quad.c - orca_agent_lines' half-planes four neighbors at a time with
 * AVX: each lane orca_agent_line's operations (as the SSE2 pairs in
 * orca.c), so the lines are the same bits at any width. Compiled for AVX
 * by a function attribute and called only when the step's SIMD width is 4
 * (crowd_simd_width: the CPU has AVX), so the library needs no -march
 * flag. A packed division or square root costs about what a scalar one
 * does: four lanes halve the pairs' share of them. And the walls' box
 * test (orca_shapes.c) two walls at a time. */
#include "no_slp.h" /* first: it applies to all that follows */
#include "orca.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX __attribute__((target("avx")))

/* The lanes' lines, (point.x, point.y, dir.x, dir.y) per neighbor. */
static AVX void quad_store_lines(__m256d pointx, __m256d pointy, __m256d dirx,
                                 __m256d diry, orca_line *out) {
  __m256d lo_p = _mm256_unpacklo_pd(pointx, pointy); /* x0 y0 x2 y2 */
  __m256d hi_p = _mm256_unpackhi_pd(pointx, pointy); /* x1 y1 x3 y3 */
  __m256d lo_d = _mm256_unpacklo_pd(dirx, diry);
  __m256d hi_d = _mm256_unpackhi_pd(dirx, diry);
  double *at = (double *)out; /* orca_line: four doubles, no padding */
  _mm256_storeu_pd(at, _mm256_permute2f128_pd(lo_p, lo_d, 0x20));
  _mm256_storeu_pd(at + 4, _mm256_permute2f128_pd(hi_p, hi_d, 0x20));
  _mm256_storeu_pd(at + 8, _mm256_permute2f128_pd(lo_p, lo_d, 0x31));
  _mm256_storeu_pd(at + 12, _mm256_permute2f128_pd(hi_p, hi_d, 0x31));
}

/* orca_lanes.h in four AVX lanes: orca_lines_quad (orca.h) */
#define ORCA_LINES orca_lines_quad
#define ORCA_LINES_SCOPE
#include "lanes_avx.h"
#define V_PICK quad_pick
#define V_STORE_LINES quad_store_lines
#include "orca_lanes.h"

/* note_walls' filter (orca_shapes.c) two walls at a time: walls from,
   from + 2, ... while a pair fits before end, the near ones' numbers into
   id[0 ..]; returns how many, and *next the first wall not looked at.
   Each lane beyond_lanes' operations for its wall's x or y (the larger of
   a wall's two lanes as maxpd gives it there), so the same walls. */
AVX size_t orca_walls_quad(const geo_wall *l, size_t from, size_t end,
                           steer_vec2 p, double lim, size_t *id, size_t *next) {
  const __m256d sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd();
  const __m256d at = _mm256_set_pd(p.y, p.x, p.y, p.x);
  const __m256d lim4 = _mm256_set1_pd(lim), one = _mm256_set1_pd(1);
  const __m256d tiny = _mm256_set1_pd(1e-9);
  size_t m = 0, e = from;
  for (; e + 1 < end; e += 2) {
    __m256d la = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&l[e].a.x)),
                                      _mm_loadu_pd(&l[e + 1].a.x), 1);
    __m256d lb = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&l[e].b.x)),
                                      _mm_loadu_pd(&l[e + 1].b.x), 1);
    __m256d a = _mm256_sub_pd(la, at); /* world_offset */
    __m256d b = _mm256_add_pd(a, _mm256_sub_pd(lb, la));
    __m256d big2 = _mm256_max_pd(_mm256_andnot_pd(sign, a), _mm256_andnot_pd(sign, b));
    __m256d big = _mm256_max_pd(big2, _mm256_permute_pd(big2, 5)); /* x, y swapped */
    __m256d wall_lim = _mm256_add_pd(
        lim4, _mm256_mul_pd(tiny, _mm256_add_pd(_mm256_add_pd(one, big), lim4)));
    __m256d near = _mm256_max_pd(
        zero, _mm256_max_pd(_mm256_min_pd(a, b),
                            _mm256_xor_pd(_mm256_max_pd(a, b), sign)));
    int out = _mm256_movemask_pd(_mm256_cmp_pd(near, wall_lim, _CMP_GT_OQ));
    id[m] = e;
    m += (out & 3) == 0;
    id[m] = e + 1;
    m += (out & 12) == 0;
  }
  *next = e;
  return m;
}

#else

int orca_lines_quad(const orca_neighbors *nb, size_t k, steer_vec2 vel,
                    double horizon, orca_line *out) {
  (void)nb, (void)k, (void)vel, (void)horizon, (void)out;
  return 15;
}

size_t orca_walls_quad(const geo_wall *l, size_t from, size_t end,
                       steer_vec2 p, double lim, size_t *id, size_t *next) {
  (void)l, (void)end, (void)p, (void)lim, (void)id;
  *next = from;
  return 0;
}

#endif
