/* crowd_quad.c - the crowd kernel four agents at a time with AVX: the walk
 * for the agents of dense cells (clusters), and the forces of pure
 * flocking programs from a batch of sums (crowd.c).
 *
 * The same walk as crowd.c's pairs, one agent per lane of a 256-bit
 * register: each lane performs the scalar walk's operations in the scalar
 * walk's order, so its sums are the scalar walk's bit for bit. Compiled for
 * AVX by a function attribute and called only when the CPU has AVX
 * (crowd_quad_available), so the library needs no -march flag. */
#include "vec.h"
#include "world.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX __attribute__((target("avx")))

int crowd_quad_available(void) { return __builtin_cpu_supports("avx") != 0; }

/* One candidate j for the four lanes; as PAIR_TAKE in crowd.c. */
#define QUAD_TAKE(j, SHIFT_X, SHIFT_Y, MASK, shared)                          \
  do {                                                                        \
    __m256d dx = SHIFT_X(_mm256_sub_pd(_mm256_set1_pd(x[j]), px));           \
    __m256d dy = SHIFT_Y(_mm256_sub_pd(_mm256_set1_pd(y[j]), py));           \
    __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)); \
    __m256d in_sep = MASK(_mm256_and_pd(_mm256_cmp_pd(d2, sep_hi, _CMP_LE_OQ), \
                                        _mm256_cmp_pd(d2, sep_lo, _CMP_GT_OQ))); \
    __m256d in_ali = MASK(_mm256_cmp_pd(d2, ali2, _CMP_LE_OQ));               \
    __m256d in_coh =                                                          \
        (shared) ? in_ali : MASK(_mm256_cmp_pd(d2, coh2, _CMP_LE_OQ));        \
    __m256d inv = _mm256_and_pd(in_sep, _mm256_div_pd(one, d2));              \
    sepx = _mm256_sub_pd(sepx, _mm256_mul_pd(dx, inv));                       \
    sepy = _mm256_sub_pd(sepy, _mm256_mul_pd(dy, inv));                       \
    sepn = _mm256_add_pd(sepn, _mm256_and_pd(in_sep, one));                   \
    velx = _mm256_add_pd(velx, _mm256_and_pd(in_ali, _mm256_set1_pd(vx[j]))); \
    vely = _mm256_add_pd(vely, _mm256_and_pd(in_ali, _mm256_set1_pd(vy[j]))); \
    alin = _mm256_add_pd(alin, _mm256_and_pd(in_ali, one));                   \
    offx = _mm256_add_pd(offx, _mm256_and_pd(in_coh, dx));                    \
    offy = _mm256_add_pd(offy, _mm256_and_pd(in_coh, dy));                    \
    if (!(shared)) cohn = _mm256_add_pd(cohn, _mm256_and_pd(in_coh, one));    \
  } while (0)

#define NO_SHIFT(v) (v)
#define SHIFT_SX(v) _mm256_add_pd((v), sx)
#define SHIFT_SY(v) _mm256_add_pd((v), sy)
#define NO_MASK(m) (m)
#define NOT_0(m) _mm256_and_pd((m), not_lane[0])
#define NOT_1(m) _mm256_and_pd((m), not_lane[1])
#define NOT_2(m) _mm256_and_pd((m), not_lane[2])
#define NOT_3(m) _mm256_and_pd((m), not_lane[3])

#define QUAD_RANGE(from, to, shared)                                          \
  do {                                                                        \
    if (unshifted)                                                            \
      for (size_t j = (from); j < (to); j++)                                  \
        QUAD_TAKE(j, NO_SHIFT, NO_SHIFT, NO_MASK, shared);                    \
    else                                                                      \
      for (size_t j = (from); j < (to); j++)                                  \
        QUAD_TAKE(j, SHIFT_SX, SHIFT_SY, NO_MASK, shared);                    \
  } while (0)

/* Every span; in the one holding the four agents (one cell: all or none of
   them), candidate i + k leaves out lane k. */
#define QUAD_WALK(shared)                                                     \
  for (int k = 0; k < n; k++) {                                               \
    __m256d sx = _mm256_set1_pd(spans[k].sx), sy = _mm256_set1_pd(spans[k].sy); \
    int unshifted = spans[k].sx == 0 && spans[k].sy == 0;                     \
    size_t from = spans[k].from, to = spans[k].to;                            \
    if (i < from || i >= to) {                                                \
      QUAD_RANGE(from, to, shared);                                           \
      continue;                                                               \
    }                                                                         \
    QUAD_RANGE(from, i, shared);                                              \
    QUAD_TAKE(i, SHIFT_SX, SHIFT_SY, NOT_0, shared);                          \
    QUAD_TAKE(i + 1, SHIFT_SX, SHIFT_SY, NOT_1, shared);                      \
    QUAD_TAKE(i + 2, SHIFT_SX, SHIFT_SY, NOT_2, shared);                      \
    QUAD_TAKE(i + 3, SHIFT_SX, SHIFT_SY, NOT_3, shared);                      \
    QUAD_RANGE(i + 4, to, shared);                                            \
  }

void crowd_quad_gather(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, double *out,
                       size_t stride) AVX;
void crowd_quad_gather(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, double *out,
                       size_t stride) {
  const double *x = w->x, *y = w->y, *vx = w->vx, *vy = w->vy;
  __m256d px = _mm256_loadu_pd(x + i), py = _mm256_loadu_pd(y + i);
  __m256d sep_hi = _mm256_set1_pd(q->sep_hi);
  __m256d sep_lo = _mm256_set1_pd(q->sep_lo);
  __m256d ali2 = _mm256_set1_pd(q->ali2), coh2 = _mm256_set1_pd(q->coh2);
  __m256d one = _mm256_set1_pd(1);
  __m256d sepx = _mm256_setzero_pd(), sepy = sepx, velx = sepx, vely = sepx,
          offx = sepx, offy = sepx, sepn = sepx, alin = sepx, cohn = sepx;
  __m256d not_lane[4];
  for (int l = 0; l < 4; l++) {
    double m[4] = {1, 1, 1, 1};
    m[l] = 0;
    not_lane[l] = _mm256_cmp_pd(_mm256_loadu_pd(m), one, _CMP_EQ_OQ);
  }
  if (q->ali2 == q->coh2) {
    QUAD_WALK(1)
    cohn = alin;
  } else {
    QUAD_WALK(0)
  }
  __m256d sums[9] = {sepx, sepy, velx, vely, offx, offy, sepn, alin, cohn};
  for (int k = 0; k < 9; k++) _mm256_storeu_pd(out + (size_t)k * stride, sums[k]);
}

static double lane(__m256d v, int l) AVX;
static double lane(__m256d v, int l) {
  double out[4];
  _mm256_storeu_pd(out, v);
  return out[l];
}

static int any(__m256d m) AVX;
static int any(__m256d m) { return _mm256_movemask_pd(m) != 0; }

#define LANES_FORCE quad_force
#define LANES_ATTR AVX
#define LANES 4
#define VEC __m256d
#define V_LOAD _mm256_loadu_pd
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
#define V_GT(a, b) _mm256_cmp_pd((a), (b), _CMP_GT_OQ)
#define V_GE(a, b) _mm256_cmp_pd((a), (b), _CMP_GE_OQ)
#define V_LT(a, b) _mm256_cmp_pd((a), (b), _CMP_LT_OQ)
#define V_NEQ(a, b) _mm256_cmp_pd((a), (b), _CMP_NEQ_UQ)
#define V_ANY any
#define V_LANE lane
#include "flock_lanes.h"

int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]) {
  return quad_force(w, p, sums, stride, index, out);
}

#else

int crowd_quad_available(void) { return 0; }

int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]) {
  (void)w, (void)p, (void)sums, (void)stride, (void)index, (void)out;
  return 0;
}

void crowd_quad_gather(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, double *out,
                       size_t stride) {
  (void)w, (void)i, (void)q, (void)spans, (void)n, (void)out, (void)stride;
}

#endif
