/* program_batch.c - the forces of many agents running one weighted program
 * of simple entries (program.c's `batched`), computed entry by entry.
 *
 * program_force takes one agent through all of its entries, dispatching on
 * each; here one entry goes through all the agents of a batch, in a loop
 * with its parameters hoisted and its arithmetic inlined, so that the
 * square roots and divisions of consecutive agents overlap. Each agent
 * still adds its entries' weighted forces in program order, then clamps:
 * the same operations as program_force, so the same bits. */
#include "agent.h"
#include "agent_program.h"
#include "pair_math.h"
#include "navgrid.h"
#include "neighbors.h"
#include "program.h"
#include "program_batch.h"
#include "trig.h"

/* Where the target of a point entry is now. */
static steer_vec2 entry_point(const steer_entry *e) {
  return e->target.kind == STEER_TARGET_SHARED
             ? steer_point_get(e->target.shared)
             : e->target.point;
}

#if defined(__SSE2__)
/* Seek or arrive at t for agents i0 and i1 at once, as point_forces' loop
   computes them; 0, writing nothing, when a lane needs a rare branch (a
   wrap beyond one lap, the target reached, hypot, a subnormal ratio). */
static int pair_point(const steer_world *w, const steer_entry *e, steer_vec2 t,
                      size_t i0, size_t i1, double *fx, double *fy) {
  __m128d rare = _mm_setzero_pd();
  __m128d px = _mm_set_pd(w->x[i1], w->x[i0]), py = _mm_set_pd(w->y[i1], w->y[i0]);
  __m128d dx = _mm_sub_pd(_mm_set1_pd(t.x), px), dy = _mm_sub_pd(_mm_set1_pd(t.y), py);
  if (w->geo.wrap) { /* geo_wrap_delta: within half the world, unchanged */
    __m128d hx = _mm_set1_pd(w->geo.width * 0.5), hy = _mm_set1_pd(w->geo.height * 0.5);
    __m128d sign = _mm_set1_pd(-0.0);
    rare = _mm_or_pd(_mm_cmpgt_pd(_mm_andnot_pd(sign, dx), hx),
                     _mm_cmpgt_pd(_mm_andnot_pd(sign, dy), hy));
  }
  /* seen = p + offset, then offset again as seek/arrive take it */
  __m128d tox = _mm_sub_pd(_mm_add_pd(px, dx), px);
  __m128d toy = _mm_sub_pd(_mm_add_pd(py, dy), py);
  __m128d ms = _mm_set_pd(w->max_speed[i1], w->max_speed[i0]), speed = ms;
  __m128d dirx = tox, diry = toy, l2;
  pair_normalize(&dirx, &diry, &l2, &rare);
  if (e->behavior == STEER_ARRIVE) { /* v2_arrive: slower within the radius */
    __m128d sr = _mm_set1_pd(e->slowing_radius), d = _mm_sqrt_pd(l2);
    __m128d near = _mm_cmplt_pd(d, sr);
    if (_mm_movemask_pd(near))
      speed = pair_select(near, _mm_mul_pd(ms, _mm_div_pd(d, sr)), ms);
  }
  __m128d f_x = _mm_sub_pd(_mm_mul_pd(dirx, speed), _mm_set_pd(w->vx[i1], w->vx[i0]));
  __m128d f_y = _mm_sub_pd(_mm_mul_pd(diry, speed), _mm_set_pd(w->vy[i1], w->vy[i0]));
  pair_clamp(&f_x, &f_y, _mm_set_pd(w->max_force[i1], w->max_force[i0]), &rare);
  if (_mm_movemask_pd(rare)) return 0;
  __m128d weight = _mm_set1_pd(e->weight);
  _mm_storeu_pd(fx, _mm_add_pd(_mm_loadu_pd(fx), _mm_mul_pd(f_x, weight)));
  _mm_storeu_pd(fy, _mm_add_pd(_mm_loadu_pd(fy), _mm_mul_pd(f_y, weight)));
  return 1;
}
#endif

/* Seek, arrive or flee at point t for agent i, added with its weight. */
static void point_one(const steer_world *w, const steer_entry *e, steer_vec2 t,
                      size_t i, double *fx, double *fy) {
  steer_vec2 p = world_pos(w, i), v = world_vel(w, i), f;
  /* the target as agent.c sees it: along the shortest offset */
  steer_vec2 seen = v2_add(p, geo_offset(&w->geo, p, t));
  double max_speed = w->max_speed[i], max_force = w->max_force[i];
  double panic = e->panic_radius;
  if (e->behavior == STEER_SEEK)
    f = v2_toward(v2_sub(seen, p), v, max_speed, max_force);
  else if (e->behavior == STEER_ARRIVE)
    f = v2_arrive(v2_sub(seen, p), v, max_speed, max_force, e->slowing_radius);
  else if (panic >= 0 && v2_len2(v2_sub(seen, p)) > panic * panic)
    f = v2(0, 0); /* flee: the target is beyond the panic radius */
  else
    f = v2_toward(v2_sub(p, seen), v, max_speed, max_force);
  *fx += f.x * e->weight;
  *fy += f.y * e->weight;
}

/* Seek, arrive or flee at the entry's point for every agent of the batch:
   seek and arrive two at a time where they can. */
static void point_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, double *fx, double *fy) {
  steer_vec2 t = entry_point(e);
  int k = 0;
#if defined(__SSE2__)
  if (e->behavior != STEER_FLEE && w->step_simd >= 2)
    for (; k + 1 < n; k += 2)
      if (!pair_point(w, e, t, index[k], index[k + 1], fx + k, fy + k)) {
        point_one(w, e, t, index[k], fx + k, fy + k);
        point_one(w, e, t, index[k + 1], fx + k + 1, fy + k + 1);
      }
#endif
  for (; k < n; k++) point_one(w, e, t, index[k], fx + k, fy + k);
}

static void flow_forces(const steer_world *w, const steer_entry *e,
                        const size_t *index, int n, double *fx, double *fy) {
  if (e->target.kind != STEER_TARGET_FLOW) return; /* no field: no force */
  double px[BATCH_MAX], py[BATCH_MAX], vx[BATCH_MAX], vy[BATCH_MAX];
  double max_speed[BATCH_MAX], max_force[BATCH_MAX];
  steer_vec2 f[BATCH_MAX];
  for (int k = 0; k < n; k++) {
    size_t i = index[k];
    px[k] = w->x[i];
    py[k] = w->y[i];
    vx[k] = w->vx[i];
    vy[k] = w->vy[i];
    max_speed[k] = w->max_speed[i];
    max_force[k] = w->max_force[i];
  }
  flow_force_many(e->target.field, n, px, py, vx, vy, max_speed, max_force,
                  e->slowing_radius, f);
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    fx[k] += f[k].x * weight;
    fy[k] += f[k].y * weight;
  }
}

/* The columns of a batch's agents that the entries read, gathered once. */
typedef struct batch_agents {
  double vx[BATCH_MAX], vy[BATCH_MAX], max_speed[BATCH_MAX];
} batch_agents;

#if defined(__SSE2__)
/* The wander forces of agents k and k + 1 of the batch, whose angles are
   already advanced: steer_wander_force's operations in lanes (trig.h's
   sine and cosine, the forward direction of v2_forward); scalar for the
   lanes that need a rare branch. */
static void pair_wander(const batch_agents *a, const double *angle,
                        const double *distance, const double *radius, int k,
                        double weight, double *fx, double *fy) {
  __m128d s, c, zero = _mm_setzero_pd();
  int rare = pair_sincos(_mm_loadu_pd(angle + k), &s, &c);
  __m128d vx = _mm_loadu_pd(a->vx + k), vy = _mm_loadu_pd(a->vy + k);
  __m128d ux = vx, uy = vy, l2, odd = zero;
  pair_normalize(&ux, &uy, &l2, &odd);
  __m128d slow = _mm_cmple_pd(l2, _mm_set1_pd(1e-4)); /* forward (1, 0) */
  rare |= _mm_movemask_pd(_mm_andnot_pd(slow, odd));
  ux = pair_select(slow, _mm_set1_pd(1), ux);
  uy = pair_select(slow, zero, uy);
  __m128d d = _mm_loadu_pd(distance + k), r = _mm_loadu_pd(radius + k);
  double out_x[2], out_y[2];
  _mm_storeu_pd(out_x, _mm_add_pd(_mm_mul_pd(ux, d), _mm_mul_pd(c, r)));
  _mm_storeu_pd(out_y, _mm_add_pd(_mm_mul_pd(uy, d), _mm_mul_pd(s, r)));
  for (int l = 0; l < 2; l++) {
    if (rare & (1 << l)) {
      steer_vec2 f = steer_wander_force(v2(a->vx[k + l], a->vy[k + l]),
                                        angle[k + l], distance[k + l],
                                        radius[k + l]);
      out_x[l] = f.x;
      out_y[l] = f.y;
    }
    fx[k + l] += out_x[l] * weight;
    fy[k + l] += out_y[l] * weight;
  }
}
#endif

/* Wander for every agent of the batch: the angles advanced agent by agent
   (their cold state prefetched ahead), then the forces two at a time. */
static void wander_forces(steer_world *w, const steer_entry *e,
                          const size_t *index, int n, const batch_agents *a,
                          double *fx, double *fy) {
  double angle[BATCH_MAX], distance[BATCH_MAX], radius[BATCH_MAX];
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    if (k + 8 < n) program_prefetch(w, index[k + 8], 0);
    agent_ext *x = w->ext[index[k]]; /* exists: the program needs it */
    angle[k] = wander_advance(x);
    distance[k] = x->wander_distance;
    radius[k] = x->wander_radius;
  }
  int k = 0;
#if defined(__SSE2__)
  if (w->step_simd >= 2)
    for (; k + 1 < n; k += 2)
      pair_wander(a, angle, distance, radius, k, weight, fx, fy);
#endif
  for (; k < n; k++) {
    steer_vec2 f = steer_wander_force(v2(a->vx[k], a->vy[k]), angle[k],
                                      distance[k], radius[k]);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

#if defined(__SSE2__)
/* flock_force of entry e (inverse falloff) for agents k and k + 1 of the
   batch, added with its weight: flocking.h's rule forces in lanes, as
   crowd_lanes.h computes them; 0, adding nothing, when a lane needs
   v2_normalize's rare branch. */
static int pair_flock(const steer_entry *e, const double *sums,
                      size_t stride, const batch_agents *a, int k,
                      double *fx, double *fy) {
  const double *at = sums + k;
  __m128d zero = _mm_setzero_pd(), rare = zero, rx, ry;
  __m128d vx = _mm_loadu_pd(a->vx + k), vy = _mm_loadu_pd(a->vy + k);
  if (e->behavior == STEER_SEPARATION) { /* sep / n, or 0 */
    __m128d n = _mm_loadu_pd(at + 6 * stride), has = _mm_cmpgt_pd(n, zero);
    rx = _mm_and_pd(has, _mm_div_pd(_mm_loadu_pd(at), n));
    ry = _mm_and_pd(has, _mm_div_pd(_mm_loadu_pd(at + stride), n));
  } else if (e->behavior == STEER_ALIGNMENT) { /* vel / n - v, or 0 */
    __m128d n = _mm_loadu_pd(at + 7 * stride), has = _mm_cmpgt_pd(n, zero);
    rx = _mm_and_pd(has, _mm_sub_pd(_mm_div_pd(_mm_loadu_pd(at + 2 * stride), n), vx));
    ry = _mm_and_pd(has, _mm_sub_pd(_mm_div_pd(_mm_loadu_pd(at + 3 * stride), n), vy));
  } else { /* normalize(off / n) * max_speed - v, or 0 */
    __m128d n = _mm_loadu_pd(at + 8 * stride), has = _mm_cmpgt_pd(n, zero);
    __m128d cx = _mm_div_pd(_mm_loadu_pd(at + 4 * stride), n);
    __m128d cy = _mm_div_pd(_mm_loadu_pd(at + 5 * stride), n);
    __m128d l2 = _mm_add_pd(_mm_mul_pd(cx, cx), _mm_mul_pd(cy, cy));
    __m128d l = _mm_sqrt_pd(l2);
    __m128d unit = _mm_and_pd(_mm_cmpge_pd(l2, _mm_set1_pd(1e-12)),
                              _mm_cmpgt_pd(l, _mm_set1_pd(STEER_EPSILON)));
    rare = _mm_and_pd(has, _mm_cmpge_pd(l2, _mm_set1_pd(1e300)));
    if (_mm_movemask_pd(rare)) return 0;
    __m128d speed = _mm_loadu_pd(a->max_speed + k);
    __m128d dx = _mm_and_pd(unit, _mm_mul_pd(_mm_div_pd(cx, l), speed));
    __m128d dy = _mm_and_pd(unit, _mm_mul_pd(_mm_div_pd(cy, l), speed));
    rx = _mm_and_pd(has, _mm_sub_pd(dx, vx));
    ry = _mm_and_pd(has, _mm_sub_pd(dy, vy));
  }
  __m128d weight = _mm_set1_pd(e->weight);
  _mm_storeu_pd(fx + k, _mm_add_pd(_mm_loadu_pd(fx + k), _mm_mul_pd(rx, weight)));
  _mm_storeu_pd(fy + k, _mm_add_pd(_mm_loadu_pd(fy + k), _mm_mul_pd(ry, weight)));
  return 1;
}
#endif

static void flock_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, const double *sums,
                         size_t stride, const batch_agents *a, double *fx,
                         double *fy) {
  double weight = e->weight;
  int k = 0;
#if defined(__SSE2__)
  if (w->step_simd >= 2 && !(e->behavior == STEER_SEPARATION &&
                             e->falloff == STEER_FALLOFF_LINEAR))
    for (; k + 1 < n; k += 2)
      if (!pair_flock(e, sums, stride, a, k, fx, fy))
        for (int l = k; l < k + 2; l++) {
          flock_sums s = flock_sums_strided(sums + l, stride);
          steer_vec2 f = flock_force(w, index[l], e, &s);
          fx[l] += f.x * weight;
          fy[l] += f.y * weight;
        }
#endif
  for (; k < n; k++) {
    flock_sums s = flock_sums_strided(sums + k, stride);
    steer_vec2 f = flock_force(w, index[k], e, &s);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

/* v2_clamp of every agent's sum, two at a time where the lanes can. */
static void clamp_forces(const steer_world *w, const size_t *index, int n,
                         const double *fx, const double *fy,
                         steer_vec2 *out) {
  int k = 0;
#if defined(__SSE2__)
  if (w->step_simd >= 2)
    for (; k + 1 < n; k += 2) {
      __m128d x = _mm_loadu_pd(fx + k), y = _mm_loadu_pd(fy + k);
      __m128d max = _mm_set_pd(w->max_force[index[k + 1]],
                               w->max_force[index[k]]);
      __m128d rare = _mm_setzero_pd();
      pair_clamp(&x, &y, max, &rare);
      if (_mm_movemask_pd(rare)) {
        out[k] = v2_clamp(v2(fx[k], fy[k]), w->max_force[index[k]]);
        out[k + 1] =
            v2_clamp(v2(fx[k + 1], fy[k + 1]), w->max_force[index[k + 1]]);
        continue;
      }
      double ox[2], oy[2];
      _mm_storeu_pd(ox, x);
      _mm_storeu_pd(oy, y);
      out[k] = v2(ox[0], oy[0]);
      out[k + 1] = v2(ox[1], oy[1]);
    }
#endif
  for (; k < n; k++)
    out[k] = v2_clamp(v2(fx[k], fy[k]), w->max_force[index[k]]);
}

void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, steer_vec2 *out) {
  double fx[BATCH_MAX], fy[BATCH_MAX];
  batch_agents a;
  STEER_ASSERT(p->batched && n <= BATCH_MAX && (sums || !p->flocking));
  for (int k = 0; k < n; k++) {
    size_t i = index[k];
    fx[k] = fy[k] = 0;
    a.vx[k] = w->vx[i];
    a.vy[k] = w->vy[i];
    a.max_speed[k] = w->max_speed[i];
  }
  for (size_t q = 0; q < p->count; q++) {
    const steer_entry *e = &p->entries[q];
    switch (e->behavior) {
    case STEER_SEEK: case STEER_ARRIVE: case STEER_FLEE:
      point_forces(w, e, index, n, fx, fy);
      break;
    case STEER_FLOW: flow_forces(w, e, index, n, fx, fy); break;
    case STEER_WANDER: wander_forces(w, e, index, n, &a, fx, fy); break;
    default: flock_forces(w, e, index, n, sums, stride, &a, fx, fy); break;
    }
  }
  clamp_forces(w, index, n, fx, fy, out);
}
