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

#endif
