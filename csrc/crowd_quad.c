/* crowd_quad.c - the crowd kernel four agents at a time with AVX
 * (crowd_lanes.h): the neighbor walk of the agents of dense cells
 * (clusters) and the forces of pure flocking programs from crowd.c's batch.
 * Compiled for AVX by a function attribute and called only when the CPU
 * has AVX (crowd_quad_available), so the library needs no -march flag. */
#include "crowd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX __attribute__((target("avx")))

int crowd_quad_available(void) { return __builtin_cpu_supports("avx") != 0; }

static AVX double lane(__m256d v, int l) {
  double out[4];
  _mm256_storeu_pd(out, v);
  return out[l];
}

static AVX int any(__m256d m) { return _mm256_movemask_pd(m) != 0; }

#define LANES_WALK quad_walk
#define LANES_FORCE quad_force
#include "lanes_avx.h"
#define V_ANY any
#define V_LANE lane
#include "crowd_lanes.h"

void crowd_quad_walk(const steer_world *w, size_t i, int m,
                     const flock_rules *q, const flock_span *spans, int n,
                     double *sums, size_t stride) {
  quad_walk(w, i, m, q, spans, n, sums, stride);
}

int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]) {
  return quad_force(w, p, sums, stride, index, out);
}

/* Lanes l < k of row 4 - k are all ones: the mask of a group of k. */
static const int64_t group_mask[8] = {-1, -1, -1, -1, 0, 0, 0, 0};

AVX void crowd_quad_separation(const steer_world *w, size_t i,
                               const flock_rules *q, const flock_span *spans,
                               int n, flock_sums *s) {
  const double *x = w->x, *y = w->y;
  __m256d px = _mm256_set1_pd(x[i]), py = _mm256_set1_pd(y[i]);
  __m256d hi = _mm256_set1_pd(q->sep_hi), lo = _mm256_set1_pd(q->sep_lo);
  __m256d one = _mm256_set1_pd(1.0);
  double sx = s->sep.x, sy = s->sep.y;
  size_t count = s->sep_n;
  for (int k = 0; k < n; k++) {
    __m256d shx = _mm256_set1_pd(spans[k].sx);
    __m256d shy = _mm256_set1_pd(spans[k].sy);
    for (size_t j = spans[k].from; j < spans[k].to; j += 4) {
      size_t left = spans[k].to - j;
      __m256i in = _mm256_loadu_si256(
          (const __m256i *)(group_mask + 4 - (left < 4 ? left : 4)));
      /* masked loads: nothing read past the group */
      __m256d dx = _mm256_add_pd(
          _mm256_sub_pd(_mm256_maskload_pd(x + j, in), px), shx);
      __m256d dy = _mm256_add_pd(
          _mm256_sub_pd(_mm256_maskload_pd(y + j, in), py), shy);
      __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
      /* agent i itself is at d2 = 0, never above lo (>= 0) */
      __m256d near = _mm256_and_pd(
          _mm256_and_pd(_mm256_cmp_pd(d2, hi, _CMP_LE_OQ),
                        _mm256_cmp_pd(d2, lo, _CMP_GT_OQ)),
          _mm256_castsi256_pd(in));
      __m256d inv = _mm256_div_pd(one, d2);
      /* a far lane's term is +0: x - +0 is x, bit for bit */
      double tx[4], ty[4];
      _mm256_storeu_pd(tx, _mm256_and_pd(_mm256_mul_pd(dx, inv), near));
      _mm256_storeu_pd(ty, _mm256_and_pd(_mm256_mul_pd(dy, inv), near));
      sx = sx - tx[0] - tx[1] - tx[2] - tx[3];
      sy = sy - ty[0] - ty[1] - ty[2] - ty[3];
      count += (size_t)__builtin_popcount(
          (unsigned)_mm256_movemask_pd(near));
    }
  }
  s->sep.x = sx;
  s->sep.y = sy;
  s->sep_n = count;
}

#else

int crowd_quad_available(void) { return 0; }

void crowd_quad_walk(const steer_world *w, size_t i, int m,
                     const flock_rules *q, const flock_span *spans, int n,
                     double *sums, size_t stride) {
  (void)w, (void)i, (void)m, (void)q, (void)spans, (void)n, (void)sums,
      (void)stride;
}

int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]) {
  (void)w, (void)p, (void)sums, (void)stride, (void)index, (void)out;
  return 0;
}

void crowd_quad_separation(const steer_world *w, size_t i,
                           const flock_rules *q, const flock_span *spans,
                           int n, flock_sums *s) {
  (void)w, (void)i, (void)q, (void)spans, (void)n, (void)s;
}

#endif
