/* crowd.c - the step's fast path for crowds whose programs flock (at most
 * one separation, alignment and cohesion entry each, besides any others),
 * on a dense grid with agents sorted by cell.
 *
 * All agents of a cell share the same candidates: the cells around it, a
 * few contiguous index ranges. Agents are taken two at a time, one per
 * SIMD lane, each lane walking the candidates in the same order as the
 * scalar walk (flocking.c), so its sums - and its force - are the same bit
 * for bit (up to the sign of a zero sum). */
#include "vec.h"
#include "world.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* One candidate j for both lanes. SHIFT adds the span's torus shift (or
   nothing); MASK leaves a lane out (or nothing): spelled out per use so the
   common loop carries neither. `shared`: alignment and cohesion have one
   radius, so one mask and one count serve both. Each lane performs the
   scalar walk's operations in the scalar walk's order. */
#define PAIR_TAKE(j, SHIFT_X, SHIFT_Y, MASK, shared)                          \
  do {                                                                        \
    __m128d dx = SHIFT_X(_mm_sub_pd(_mm_set1_pd(x[j]), px));                  \
    __m128d dy = SHIFT_Y(_mm_sub_pd(_mm_set1_pd(y[j]), py));                  \
    __m128d d2 = _mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy));         \
    __m128d in_sep = MASK(_mm_and_pd(_mm_cmple_pd(d2, sep_hi),                \
                                     _mm_cmpgt_pd(d2, sep_lo)));              \
    __m128d in_ali = MASK(_mm_cmple_pd(d2, ali2));                            \
    __m128d in_coh = (shared) ? in_ali : MASK(_mm_cmple_pd(d2, coh2));        \
    __m128d inv = _mm_and_pd(in_sep, _mm_div_pd(one, d2));                    \
    sepx = _mm_sub_pd(sepx, _mm_mul_pd(dx, inv));                             \
    sepy = _mm_sub_pd(sepy, _mm_mul_pd(dy, inv));                             \
    sepn = _mm_add_pd(sepn, _mm_and_pd(in_sep, one));                         \
    velx = _mm_add_pd(velx, _mm_and_pd(in_ali, _mm_set1_pd(vx[j])));          \
    vely = _mm_add_pd(vely, _mm_and_pd(in_ali, _mm_set1_pd(vy[j])));          \
    alin = _mm_add_pd(alin, _mm_and_pd(in_ali, one));                         \
    offx = _mm_add_pd(offx, _mm_and_pd(in_coh, dx));                          \
    offy = _mm_add_pd(offy, _mm_and_pd(in_coh, dy));                          \
    if (!(shared)) cohn = _mm_add_pd(cohn, _mm_and_pd(in_coh, one));          \
  } while (0)

#define NO_SHIFT(v) (v)
#define SHIFT_SX(v) _mm_add_pd((v), sx)
#define SHIFT_SY(v) _mm_add_pd((v), sy)
#define NO_MASK(m) (m)
#define NOT_FIRST(m) _mm_and_pd((m), not_first)
#define NOT_SECOND(m) _mm_and_pd((m), not_second)

#define PAIR_RANGE(from, to, shared)                                          \
  do {                                                                        \
    if (unshifted)                                                            \
      for (size_t j = (from); j < (to); j++)                                  \
        PAIR_TAKE(j, NO_SHIFT, NO_SHIFT, NO_MASK, shared);                    \
    else                                                                      \
      for (size_t j = (from); j < (to); j++)                                  \
        PAIR_TAKE(j, SHIFT_SX, SHIFT_SY, NO_MASK, shared);                    \
  } while (0)

/* Every span; in the one holding the pair itself, candidates i and i + 1
   leave out the lane that is that agent. */
#define PAIR_WALK(shared)                                                     \
  for (int k = 0; k < n; k++) {                                               \
    __m128d sx = _mm_set1_pd(spans[k].sx), sy = _mm_set1_pd(spans[k].sy);     \
    int unshifted = spans[k].sx == 0 && spans[k].sy == 0;                     \
    size_t from = spans[k].from, to = spans[k].to;                            \
    if (i < from || i >= to) {                                                \
      PAIR_RANGE(from, to, shared);                                           \
      continue;                                                               \
    }                                                                         \
    PAIR_RANGE(from, i, shared);                                              \
    PAIR_TAKE(i, SHIFT_SX, SHIFT_SY, NOT_FIRST, shared);                      \
    PAIR_TAKE(i + 1, SHIFT_SX, SHIFT_SY, NOT_SECOND, shared);                 \
    PAIR_RANGE(i + 2, to, shared);                                            \
  }

static double lane(__m128d v, int l) {
  double out[2];
  _mm_storeu_pd(out, v);
  return out[l];
}

/* Sums for agents i and i + 1 (same cell, same rules) over the spans;
   returns the candidates per agent. */
static size_t gather_pair(const steer_world *w, size_t i,
                          const flock_rules *q, const flock_span *spans,
                          int n, flock_sums out[2]) {
  const double *x = w->x, *y = w->y, *vx = w->vx, *vy = w->vy;
  __m128d px = _mm_set_pd(x[i + 1], x[i]), py = _mm_set_pd(y[i + 1], y[i]);
  __m128d sep_hi = _mm_set1_pd(q->sep_hi), sep_lo = _mm_set1_pd(q->sep_lo);
  __m128d ali2 = _mm_set1_pd(q->ali2), coh2 = _mm_set1_pd(q->coh2);
  __m128d one = _mm_set1_pd(1);
  __m128d sepx = _mm_setzero_pd(), sepy = sepx, velx = sepx, vely = sepx,
          offx = sepx, offy = sepx, sepn = sepx, alin = sepx, cohn = sepx;
  /* lane 0 is agent i, lane 1 agent i + 1 */
  __m128d all = _mm_cmpeq_pd(one, one);
  __m128d not_first = _mm_unpackhi_pd(sepx, all);  /* {0, all ones} */
  __m128d not_second = _mm_unpacklo_pd(all, sepx); /* {all ones, 0} */
  if (q->ali2 == q->coh2) {
    PAIR_WALK(1)
    cohn = alin;
  } else {
    PAIR_WALK(0)
  }
  size_t len = 0;
  for (int k = 0; k < n; k++) len += spans[k].to - spans[k].from;
  for (int l = 0; l < 2; l++) {
    out[l].sep = v2(lane(sepx, l), lane(sepy, l));
    out[l].vel = v2(lane(velx, l), lane(vely, l));
    out[l].off = v2(lane(offx, l), lane(offy, l));
    out[l].sep_n = (size_t)lane(sepn, l);
    out[l].ali_n = (size_t)lane(alin, l);
    out[l].coh_n = (size_t)lane(cohn, l);
  }
  return len - 1; /* not itself */
}
#endif

/* Does program p flock in a way the kernel can walk for it? Asked once
   per run of agents sharing p. */
static int walkable(const steer_world *w, const steer_program *p) {
  return p && p->fused && p->flocking && flock_fast_ok(w, &p->flock);
}

/* The force of a pure flocking program (weighted separation, alignment,
   cohesion, unsmoothed) from its sums: what program_force computes for it,
   operation for operation, without the general combiner's dispatch. */
static steer_vec2 pure_flock_force(const steer_world *w, size_t i,
                                   const steer_program *p,
                                   const flock_sums *s) {
  steer_vec2 f = {0, 0};
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    steer_vec2 r = e->behavior == STEER_SEPARATION  ? flock_separation_force(s)
                   : e->behavior == STEER_ALIGNMENT ? flock_alignment_force(w, i, s)
                                                    : flock_cohesion_force(w, i, s);
    f = v2_add(f, v2_scale(r, e->weight));
  }
  return v2_clamp(f, w->max_force[i]);
}

void crowd_cell_forces(steer_world *w, size_t b, double dt,
                       steer_vec2 *forces, size_t base, steer_stats *stats) {
  const steer_grid *g = &w->grid;
  size_t from = g->starts[b], to = g->starts[b + 1];
  if (from == to) return;
  flock_span spans[9];
  int n = flock_spans(w, (int32_t)(b % (size_t)g->ncx),
                      (int32_t)(b / (size_t)g->ncx), spans);
  const steer_program *known = NULL; /* the last program asked about */
  int known_walkable = 0;
  for (size_t i = from; i < to;) {
    const steer_program *p = w->program[i];
    if (p != known) {
      known = p;
      known_walkable = walkable(w, p);
    }
    if (!known_walkable) { /* the general path */
      forces[i - base] = p ? program_force(w, i, dt, NULL, stats) : v2(0, 0);
      stats->programs += p != NULL;
      i++;
      continue;
    }
    flock_sums s[2];
    size_t candidates;
    int took = 1;
#if defined(__SSE2__)
    if (i + 1 < to && w->program[i + 1] == p) {
      candidates = gather_pair(w, i, &p->flock, spans, n, s);
      took = 2;
    } else
#endif
    {
      flock_sums zero = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
      s[0] = zero;
      candidates = flock_span_walk(w, i, &p->flock, spans, n, &s[0]);
    }
    for (int l = 0; l < took; l++, i++) {
      forces[i - base] = p->pure_flock ? pure_flock_force(w, i, p, &s[l])
                                       : program_force(w, i, dt, &s[l], stats);
      stats->candidates += candidates;
      stats->neighbors += s[l].sep_n + s[l].ali_n + s[l].coh_n;
    }
    stats->programs += (size_t)took;
  }
}
