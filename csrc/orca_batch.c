/* orca_batch.c - the step's pass over a run of agents whose program is
 * one arrive at a point with ORCA (bench/crowd's program, a crowd walking
 * to its goals): the force program_force gives each, bit for bit, without
 * its dispatch per agent (the combiner's switch, the entry's switch, the
 * target's kind), which cost as much as the ORCA step's own arithmetic in a
 * sparse crowd. */
#include "no_slp.h" /* first: it applies to all that follows */
#include "agent.h"
#include "orca.h"
#include "orca_batch.h"
#include "program.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int orca_plain(const steer_program *p) {
  if (!p || !p->has_orca || p->combine != STEER_WEIGHTED ||
      p->smoothing >= 0 || p->angular || p->count != 1)
    return 0;
  const steer_entry *e = &p->entries[0];
  return (e->behavior == STEER_ARRIVE || e->behavior == STEER_FOLLOW) &&
         e->target.kind == STEER_TARGET_POINT;
}

/* The lines of a program the pass reads (its orca_plain flag beside the
   orca parameters, the arrive entry): each agent has its own program (its
   own target), nine lines apart from the others', and the search waits for
   its orca parameters. Fetched an agent or two ahead, they arrive in time. */
static void prefetch_plain(const steer_program *p) {
#if defined(__GNUC__)
  if (!p) return;
  __builtin_prefetch(&p->orca_plain);
  __builtin_prefetch(&p->orca.margin);
  __builtin_prefetch(&p->entries[0].target);
  __builtin_prefetch(&p->entries[0].slowing_radius);
#else
  (void)p;
#endif
}

/* program_force's weighted sum of agent i's one entry, then its clamp */
static steer_vec2 plain_force(const steer_world *w, size_t i,
                              const steer_entry *e) {
  const steer_vec2 zero = {0, 0};
  steer_vec2 f = v2_scale(
      agent_arrive(w, i, e->target.point, e->slowing_radius), e->weight);
  return v2_clamp(v2_add(zero, f), w->max_force[i]);
}

#if defined(__SSE2__)
static __m128d len2(__m128d x, __m128d y) {
  return _mm_add_pd(_mm_mul_pd(x, x), _mm_mul_pd(y, y));
}

/* The lanes whose squared length l2 is one v2_clamp and v2_len take on
   their common path (no rescaling): 1e-290 < l2 < 1e300. */
static __m128d squarable(__m128d l2) {
  return _mm_and_pd(_mm_cmpgt_pd(l2, _mm_set1_pd(1e-290)),
                    _mm_cmplt_pd(l2, _mm_set1_pd(1e300)));
}

/* The lanes where (x, y) is (0, 0). */
static __m128d at_rest(__m128d x, __m128d y) {
  const __m128d zero = _mm_setzero_pd();
  return _mm_and_pd(_mm_cmpeq_pd(x, zero), _mm_cmpeq_pd(y, zero));
}

/* v2_clamp in two lanes where it does not bind: a at rest, or |a| <= max
   with lengths a double squares. The lanes where it binds (or lengths out
   of range) are set in the mask returned: v2_clamp works them out. */
static int clamp_keeps(__m128d ax, __m128d ay, __m128d max) {
  __m128d l2 = len2(ax, ay), m2 = _mm_mul_pd(max, max);
  __m128d fits = _mm_and_pd(
      squarable(l2),
      _mm_and_pd(_mm_cmplt_pd(m2, _mm_set1_pd(1e300)), _mm_cmple_pd(l2, m2)));
  return _mm_movemask_pd(_mm_or_pd(at_rest(ax, ay), fits)) ^ 3;
}

static __m128d pick(__m128d mask, __m128d a, __m128d b) {
  return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}

/* plain_force for agents i and i + 1 of a world that does not wrap, one
   per lane: the same operations in the same order (a packed square root or
   division rounds as the scalar one), so the same bits. Returns 0 when a
   lane leaves the common path (a clamp that binds, a length a double
   cannot square): plain_force then. Glue that cost a tenth of a sparse
   crowd's step, its square roots and divisions now serve two agents. */
static int plain_pair(const steer_world *w, size_t i, const steer_entry *e0,
                      const steer_entry *e1, steer_vec2 *f0, steer_vec2 *f1) {
  __m128d px = _mm_loadu_pd(&w->x[i]), py = _mm_loadu_pd(&w->y[i]);
  __m128d vx = _mm_loadu_pd(&w->vx[i]), vy = _mm_loadu_pd(&w->vy[i]);
  __m128d ms = _mm_loadu_pd(&w->max_speed[i]);
  __m128d mf = _mm_loadu_pd(&w->max_force[i]);
  __m128d tx = _mm_set_pd(e1->target.point.x, e0->target.point.x);
  __m128d ty = _mm_set_pd(e1->target.point.y, e0->target.point.y);
  __m128d sr = _mm_set_pd(e1->slowing_radius, e0->slowing_radius);
  __m128d wt = _mm_set_pd(e1->weight, e0->weight);
  /* agent_arrive: seen = p + (t - p), to = seen - p */
  __m128d tox = _mm_sub_pd(_mm_add_pd(px, _mm_sub_pd(tx, px)), px);
  __m128d toy = _mm_sub_pd(_mm_add_pd(py, _mm_sub_pd(ty, py)), py);
  /* v2_arrive: d = v2_len(to), in range */
  __m128d l2 = len2(tox, toy);
  if (_mm_movemask_pd(squarable(l2)) != 3) return 0;
  __m128d d = _mm_sqrt_pd(l2);
  __m128d speed = pick(_mm_cmplt_pd(d, sr), _mm_mul_pd(ms, _mm_div_pd(d, sr)),
                       ms);
  /* v2_toward: v2_normalize(to) (its length is d again), scaled */
  __m128d dir_zero = _mm_or_pd(_mm_cmplt_pd(l2, _mm_set1_pd(1e-12)),
                               _mm_cmple_pd(d, _mm_set1_pd(STEER_EPSILON)));
  __m128d dx = _mm_andnot_pd(dir_zero, _mm_div_pd(tox, d));
  __m128d dy = _mm_andnot_pd(dir_zero, _mm_div_pd(toy, d));
  __m128d ax = _mm_sub_pd(_mm_mul_pd(dx, speed), vx);
  __m128d ay = _mm_sub_pd(_mm_mul_pd(dy, speed), vy);
  if (clamp_keeps(ax, ay, mf)) return 0;
  /* the weight, then program_force's clamp of 0 + f */
  const __m128d zero = _mm_setzero_pd();
  __m128d fx = _mm_add_pd(zero, _mm_mul_pd(ax, wt));
  __m128d fy = _mm_add_pd(zero, _mm_mul_pd(ay, wt));
  if (clamp_keeps(fx, fy, mf)) return 0;
  double lx[2], ly[2];
  _mm_storeu_pd(lx, fx);
  _mm_storeu_pd(ly, fy);
  *f0 = v2(lx[0], ly[0]);
  *f1 = v2(lx[1], ly[1]);
  return 1;
}

/* orca_force's preferred velocity for the pair (dt > 0), forces f0, f1:
   v2_clamp(v + v2_clamp(f, max_force) * dt, max_speed) in two lanes. The
   speed clamp binds about every other time (the goal's direction at
   max_speed, give or take the last bit): both answers are worked out and
   one picked. 0 when a lane leaves the common path. */
static int pair_preferred(const steer_world *w, size_t i, steer_vec2 f0,
                          steer_vec2 f1, double dt, steer_vec2 *p0,
                          steer_vec2 *p1) {
  __m128d fx = _mm_set_pd(f1.x, f0.x), fy = _mm_set_pd(f1.y, f0.y);
  __m128d mf = _mm_loadu_pd(&w->max_force[i]);
  if (clamp_keeps(fx, fy, mf)) return 0;
  __m128d step = _mm_set1_pd(dt);
  __m128d ux = _mm_add_pd(_mm_loadu_pd(&w->vx[i]), _mm_mul_pd(fx, step));
  __m128d uy = _mm_add_pd(_mm_loadu_pd(&w->vy[i]), _mm_mul_pd(fy, step));
  __m128d ms = _mm_loadu_pd(&w->max_speed[i]);
  const __m128d zero = _mm_setzero_pd();
  __m128d l2 = len2(ux, uy), m2 = _mm_mul_pd(ms, ms);
  __m128d rest = at_rest(ux, uy);
  __m128d in = _mm_and_pd(squarable(l2), _mm_cmplt_pd(m2, _mm_set1_pd(1e300)));
  __m128d s = _mm_div_pd(ms, _mm_sqrt_pd(l2));
  /* off the path: a nonzero length out of range, or (binding) a ratio
     below the smallest normal, where v2_clamp divides first */
  __m128d bind = _mm_andnot_pd(_mm_cmple_pd(l2, m2), in);
  __m128d odd = _mm_or_pd(
      _mm_andnot_pd(_mm_or_pd(rest, in), _mm_cmpeq_pd(zero, zero)),
      _mm_and_pd(bind, _mm_cmplt_pd(s, _mm_set1_pd(2.2250738585072014e-308))));
  if (_mm_movemask_pd(_mm_andnot_pd(rest, odd))) return 0;
  __m128d px = pick(bind, _mm_mul_pd(ux, s), ux);
  __m128d py = pick(bind, _mm_mul_pd(uy, s), uy);
  double lx[2], ly[2];
  _mm_storeu_pd(lx, px);
  _mm_storeu_pd(ly, py);
  *p0 = v2(lx[0], ly[0]);
  *p1 = v2(lx[1], ly[1]);
  return 1;
}
#endif

size_t orca_batch_run(steer_world *w, size_t i, size_t to, double dt,
                      steer_stats *stats) {
  const steer_program *plain = NULL; /* the last program seen plain */
  for (; i < to; i++) {
    const steer_program *p = w->program[i];
    if (i + 2 < to) prefetch_plain(w->program[i + 2]);
    if (p != plain) { /* a crowd shares a program: look once per run */
      if (!p || !p->orca_plain) break;
      plain = p;
    }
    const steer_entry *e = &p->entries[0];
#if defined(__SSE2__)
    if (w->step_simd >= 2 && !w->geo.wrap && i + 1 < to) {
      const steer_program *q = w->program[i + 1];
      steer_vec2 f0, f1;
      if ((q == p || (q && q->orca_plain)) &&
          plain_pair(w, i, e, &q->entries[0], &f0, &f1)) {
        if (i + 3 < to) prefetch_plain(w->program[i + 3]);
        steer_vec2 v0, v1;
        if (dt > 0 && pair_preferred(w, i, f0, f1, dt, &v0, &v1)) {
          w->forces[i] = orca_force_from(w, i, v0, &p->orca, dt);
          w->forces[i + 1] = orca_force_from(w, i + 1, v1, &q->orca, dt);
        } else {
          w->forces[i] = orca_force(w, i, f0, &p->orca, dt);
          w->forces[i + 1] = orca_force(w, i + 1, f1, &q->orca, dt);
        }
        stats->programs += 2;
        plain = q;
        i++;
        continue;
      }
    }
#endif
    w->forces[i] = orca_force(w, i, plain_force(w, i, e), &p->orca, dt);
    stats->programs++;
  }
  return i;
}
