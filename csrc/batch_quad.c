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

#define BATCH_FLOCK quad_flock
#define BATCH_WANDER quad_wander
#define BATCH_CLAMP quad_clamp
#include "lanes_avx.h"
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
