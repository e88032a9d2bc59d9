/* lanes_sse2.h - the lane templates' vocabulary (crowd_lanes.h,
 * batch_lanes.h, orca_lanes.h) in two SSE2 lanes: VEC and the V_*
 * operations on it. Included by a .c file before its template. */
#include <emmintrin.h>

static inline int lanes_sse2_mask(__m128d m) { return _mm_movemask_pd(m); }

#define LANES_ATTR
#define LANES 2
#define VEC __m128d
#define V_LOAD _mm_loadu_pd
#define V_STORE _mm_storeu_pd
#define V_ZERO _mm_setzero_pd
#define V_SET1 _mm_set1_pd
#define V_ADD _mm_add_pd
#define V_SUB _mm_sub_pd
#define V_MUL _mm_mul_pd
#define V_DIV _mm_div_pd
#define V_SQRT _mm_sqrt_pd
#define V_AND _mm_and_pd
#define V_OR _mm_or_pd
#define V_ANDNOT _mm_andnot_pd
#define V_XOR _mm_xor_pd
#define V_LE _mm_cmple_pd
#define V_GT _mm_cmpgt_pd
#define V_GE _mm_cmpge_pd
#define V_LT _mm_cmplt_pd
#define V_EQ _mm_cmpeq_pd
#define V_NEQ _mm_cmpneq_pd
#define V_MASK lanes_sse2_mask
