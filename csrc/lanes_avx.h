/* lanes_avx.h - the lane templates' vocabulary (crowd_lanes.h,
 * batch_lanes.h, orca_lanes.h) in four AVX lanes: VEC and the V_*
 * operations on it, the functions compiled for AVX by a target attribute
 * (LANES_ATTR). Included by a .c file before its template. */
#include <immintrin.h>

#define LANES_ATTR __attribute__((target("avx")))

static inline LANES_ATTR int lanes_avx_mask(__m256d m) {
  return _mm256_movemask_pd(m);
}

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
#define V_MASK lanes_avx_mask
