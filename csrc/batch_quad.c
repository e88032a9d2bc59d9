/* batch_quad.c - program_batch.c's lanes (batch_lanes.h) four agents at a
 * time with AVX: the flocking rules' forces, wander and the clamp of a
 * batch. Compiled for AVX by a function attribute and called only when the
 * CPU has AVX (program_batch.c asks for a step SIMD width of 4, which
 * crowd.c grants only then), so the library needs no -march flag. */
#include "agent.h"
#include "neighbors.h"
#include "program.h"
#include "program_batch.h"
#include "trig.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX __attribute__((target("avx")))

static AVX int mask(__m256d m) { return _mm256_movemask_pd(m); }

#define BATCH_FLOCK quad_flock
#define BATCH_WANDER quad_wander
#define BATCH_CLAMP quad_clamp
#define LANES_ATTR AVX
#define LANES 4
#define VEC __m256d
#define V_LOAD _mm256_loadu_pd
#define V_STORE _mm256_storeu_pd
#define V_ZERO _mm256_setzero_pd
#define V_SET1 _mm256_set1_pd
#define V_ADD _mm256_add_pd
#define V_SUB _mm256_sub_pd
#define V_MUL _mm256_mul_pd
#define V_DIV _mm256_div_pd
#define V_SQRT _mm256_sqrt_pd
#define V_AND _mm256_and_pd
#define V_OR _mm256_or_pd
#define V_ANDNOT _mm256_andnot_pd
#define V_XOR _mm256_xor_pd
#define V_LE(a, b) _mm256_cmp_pd((a), (b), _CMP_LE_OQ)
#define V_GT(a, b) _mm256_cmp_pd((a), (b), _CMP_GT_OQ)
#define V_GE(a, b) _mm256_cmp_pd((a), (b), _CMP_GE_OQ)
#define V_LT(a, b) _mm256_cmp_pd((a), (b), _CMP_LT_OQ)
#define V_EQ(a, b) _mm256_cmp_pd((a), (b), _CMP_EQ_OQ)
#define V_NEQ(a, b) _mm256_cmp_pd((a), (b), _CMP_NEQ_UQ)
#define V_MASK mask
#include "batch_lanes.h"

int batch_quad_flock(const steer_world *w, const steer_entry *e,
                     const size_t *index, int n, const double *sums,
                     size_t stride, const batch_agents *a, double *fx,
                     double *fy) {
  return quad_flock(w, e, index, n, sums, stride, a, fx, fy);
}

int batch_quad_wander(const batch_agents *a, const double *angle,
                      const double *distance, const double *radius, int n,
                      double weight, double *fx, double *fy) {
  return quad_wander(a, angle, distance, radius, n, weight, fx, fy);
}

int batch_quad_clamp(const batch_agents *a, int n, const double *fx,
                     const double *fy, steer_vec2 *out) {
  return quad_clamp(a, n, fx, fy, out);
}

#else

int batch_quad_flock(const steer_world *w, const steer_entry *e,
                     const size_t *index, int n, const double *sums,
                     size_t stride, const batch_agents *a, double *fx,
                     double *fy) {
  (void)w, (void)e, (void)index, (void)n, (void)sums, (void)stride, (void)a,
      (void)fx, (void)fy;
  return 0;
}

int batch_quad_wander(const batch_agents *a, const double *angle,
                      const double *distance, const double *radius, int n,
                      double weight, double *fx, double *fy) {
  (void)a, (void)angle, (void)distance, (void)radius, (void)n, (void)weight,
      (void)fx, (void)fy;
  return 0;
}

int batch_quad_clamp(const batch_agents *a, int n, const double *fx,
                     const double *fy, steer_vec2 *out) {
  (void)a, (void)n, (void)fx, (void)fy, (void)out;
  return 0;
}

#endif
