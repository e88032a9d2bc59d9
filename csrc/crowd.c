/* crowd.c - the step's fast path for crowds whose programs flock (at most
 * one separation, alignment and cohesion entry each, besides any others),
 * on a dense grid with agents sorted by cell.
 *
 * All agents of a cell share the same candidates: the cells around it, a
 * few contiguous index ranges. Agents are taken four (AVX, crowd_quad.c)
 * or two at a time, one per SIMD lane, each lane walking the candidates in
 * the same order as the scalar walk (flocking.c), so its sums - and its
 * force - are the same bit for bit (up to the sign of a zero sum); a lone
 * agent fills both lanes of a pair, so that it too walks without branches.
 * Pure flocking programs then combine their forces two at a time. */
#include "vec.h"
#include "world.h"

static size_t spans_length(const flock_span *spans, int n) {
  size_t len = 0;
  for (int k = 0; k < n; k++) len += spans[k].to - spans[k].from;
  return len;
}

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
   leave out the lane that is that agent (a lone agent in both lanes leaves
   out candidate i). */
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
    if (!lone) {                                                              \
      PAIR_TAKE(i, SHIFT_SX, SHIFT_SY, NOT_FIRST, shared);                    \
      PAIR_TAKE(i + 1, SHIFT_SX, SHIFT_SY, NOT_SECOND, shared);               \
    }                                                                         \
    PAIR_RANGE(i + 2 - lone, to, shared);                                     \
  }

static double lane(__m128d v, int l) {
  double out[2];
  _mm_storeu_pd(out, v);
  return out[l];
}

/* Agents i and i + 1, or agent i alone in both lanes (lone): the lone
   agents of a sparse crowd then take the branch-free walk too. */
static __m128d load2(const double *a, int lone) {
  return lone ? _mm_load1_pd(a) : _mm_loadu_pd(a);
}

/* The flocking sums of agents i (lane 0) and i + 1 (lane 1). */
typedef struct pair_sums {
  __m128d sepx, sepy, velx, vely, offx, offy, sepn, alin, cohn;
} pair_sums;

/* Sums for agents i and i + 1 (same cell, same rules), or i alone, over
   the spans; returns the candidates per agent. */
static size_t gather_pair(const steer_world *w, size_t i, int lone,
                          const flock_rules *q, const flock_span *spans,
                          int n, pair_sums *out) {
  const double *x = w->x, *y = w->y, *vx = w->vx, *vy = w->vy;
  __m128d px = load2(x + i, lone), py = load2(y + i, lone);
  __m128d sep_hi = _mm_set1_pd(q->sep_hi), sep_lo = _mm_set1_pd(q->sep_lo);
  __m128d ali2 = _mm_set1_pd(q->ali2), coh2 = _mm_set1_pd(q->coh2);
  __m128d one = _mm_set1_pd(1);
  __m128d sepx = _mm_setzero_pd(), sepy = sepx, velx = sepx, vely = sepx,
          offx = sepx, offy = sepx, sepn = sepx, alin = sepx, cohn = sepx;
  __m128d all = _mm_cmpeq_pd(one, one);
  __m128d not_first = _mm_unpackhi_pd(sepx, all);  /* {0, all ones} */
  __m128d not_second = _mm_unpacklo_pd(all, sepx); /* {all ones, 0} */
  if (q->ali2 == q->coh2) {
    PAIR_WALK(1)
    cohn = alin;
  } else {
    PAIR_WALK(0)
  }
  pair_sums r = {sepx, sepy, velx, vely, offx, offy, sepn, alin, cohn};
  *out = r;
  return spans_length(spans, n) - 1; /* not itself */
}

static flock_sums lane_sums(const pair_sums *p, int l) {
  flock_sums s;
  s.sep = v2(lane(p->sepx, l), lane(p->sepy, l));
  s.vel = v2(lane(p->velx, l), lane(p->vely, l));
  s.off = v2(lane(p->offx, l), lane(p->offy, l));
  s.sep_n = (size_t)lane(p->sepn, l);
  s.ali_n = (size_t)lane(p->alin, l);
  s.coh_n = (size_t)lane(p->cohn, l);
  return s;
}

/* a where mask, else b */
static __m128d pick(__m128d mask, __m128d a, __m128d b) {
  return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}

/* pure_flock_force for agents i and i + 1 at once, operation for
   operation, while their numbers stay where v2_normalize and v2_clamp take
   a plain square root; 0 (nothing written) when a lane needs one of their
   rare branches (hypot, a subnormal ratio). A force is mostly divisions
   and square roots: two per instruction halve their cost. */
static int pair_flock_force(const steer_world *w, size_t i, int lone,
                            const steer_program *p, const pair_sums *s,
                            steer_vec2 *out) {
  __m128d zero = _mm_setzero_pd();
  __m128d vx = load2(w->vx + i, lone), vy = load2(w->vy + i, lone);
  __m128d fx = zero, fy = zero;
  __m128d rare = zero; /* lanes that need the scalar code */
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    __m128d rx, ry;
    if (e->behavior == STEER_SEPARATION) { /* sep / n, or 0 */
      __m128d has = _mm_cmpgt_pd(s->sepn, zero);
      rx = _mm_and_pd(has, _mm_div_pd(s->sepx, s->sepn));
      ry = _mm_and_pd(has, _mm_div_pd(s->sepy, s->sepn));
    } else if (e->behavior == STEER_ALIGNMENT) { /* vel / n - v, or 0 */
      __m128d has = _mm_cmpgt_pd(s->alin, zero);
      rx = _mm_and_pd(has, _mm_sub_pd(_mm_div_pd(s->velx, s->alin), vx));
      ry = _mm_and_pd(has, _mm_sub_pd(_mm_div_pd(s->vely, s->alin), vy));
    } else { /* normalize(off / n) * max_speed - v, or 0 */
      __m128d has = _mm_cmpgt_pd(s->cohn, zero);
      __m128d cx = _mm_div_pd(s->offx, s->cohn);
      __m128d cy = _mm_div_pd(s->offy, s->cohn);
      __m128d l2 = _mm_add_pd(_mm_mul_pd(cx, cx), _mm_mul_pd(cy, cy));
      __m128d l = _mm_sqrt_pd(l2);
      __m128d unit = _mm_and_pd(_mm_cmpge_pd(l2, _mm_set1_pd(1e-12)),
                                _mm_cmpgt_pd(l, _mm_set1_pd(STEER_EPSILON)));
      __m128d huge = _mm_cmpge_pd(l2, _mm_set1_pd(1e300));
      rare = _mm_or_pd(rare, _mm_and_pd(has, huge));
      __m128d speed = load2(w->max_speed + i, lone);
      __m128d dx = _mm_and_pd(unit, _mm_mul_pd(_mm_div_pd(cx, l), speed));
      __m128d dy = _mm_and_pd(unit, _mm_mul_pd(_mm_div_pd(cy, l), speed));
      rx = _mm_and_pd(has, _mm_sub_pd(dx, vx));
      ry = _mm_and_pd(has, _mm_sub_pd(dy, vy));
    }
    __m128d weight = _mm_set1_pd(e->weight);
    fx = _mm_add_pd(fx, _mm_mul_pd(rx, weight));
    fy = _mm_add_pd(fy, _mm_mul_pd(ry, weight));
  }
  /* v2_clamp(f, max_force) */
  __m128d max = load2(w->max_force + i, lone);
  __m128d l2 = _mm_add_pd(_mm_mul_pd(fx, fx), _mm_mul_pd(fy, fy));
  __m128d m2 = _mm_mul_pd(max, max);
  __m128d moving = _mm_or_pd(_mm_cmpneq_pd(fx, zero), _mm_cmpneq_pd(fy, zero));
  __m128d plain = _mm_and_pd(
      _mm_cmpgt_pd(l2, _mm_set1_pd(1e-290)),
      _mm_and_pd(_mm_cmplt_pd(l2, _mm_set1_pd(1e300)),
                 _mm_cmplt_pd(m2, _mm_set1_pd(1e300))));
  __m128d cut = _mm_and_pd(moving, _mm_cmpgt_pd(l2, m2));
  __m128d ratio = _mm_div_pd(max, _mm_sqrt_pd(l2));
  __m128d tiny = _mm_cmplt_pd(ratio, _mm_set1_pd(2.2250738585072014e-308));
  rare = _mm_or_pd(rare, _mm_andnot_pd(plain, moving));
  rare = _mm_or_pd(rare, _mm_and_pd(cut, tiny));
  if (_mm_movemask_pd(rare)) return 0;
  fx = pick(cut, _mm_mul_pd(fx, ratio), fx);
  fy = pick(cut, _mm_mul_pd(fy, ratio), fy);
  out[0] = v2(lane(fx, 0), lane(fy, 0));
  if (!lone) out[1] = v2(lane(fx, 1), lane(fy, 1));
  return 1;
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

/* The SIMD width the kernel uses: 4 (AVX), 2 (SSE2) or 1. */
#if defined(__SSE2__)
#define NARROW_WIDTH 2
#else
#define NARROW_WIDTH 1
#endif
static int simd_width;

static int best_width(void) {
  return crowd_quad_available() ? 4 : NARROW_WIDTH;
}

int crowd_simd_width(void) {
  if (!simd_width) simd_width = best_width();
  return simd_width;
}

int steer_set_simd(int width) {
  int best = best_width();
  simd_width = width <= 0 || width >= best ? best : width >= 4 ? 4
                                                 : width >= 2 ? 2 : 1;
  return simd_width;
}

/* An agent whose program the kernel cannot walk. */
static void general_force(steer_world *w, size_t i, double dt,
                          steer_vec2 *forces, size_t base,
                          steer_stats *stats) {
  const steer_program *p = w->program[i];
  forces[i - base] = p ? program_force(w, i, dt, NULL, stats) : v2(0, 0);
  stats->programs += p != NULL;
}

/* An agent's force from the sums the kernel gathered for it. */
static void flock_force(steer_world *w, size_t i, const steer_program *p,
                        const flock_sums *s, size_t candidates, double dt,
                        steer_vec2 *forces, size_t base,
                        steer_stats *stats) {
  forces[i - base] = p->pure_flock ? pure_flock_force(w, i, p, s)
                                   : program_force(w, i, dt, s, stats);
  stats->programs++;
  stats->candidates += candidates;
  stats->neighbors += s->sep_n + s->ali_n + s->coh_n;
}

#if defined(__SSE2__)
/* Sums waiting for their forces. A force is a chain of divisions and
   square roots whose latency a walk hides only when several forces are in
   flight, so a row's forces are computed together after its walks. */
#define BATCH 32
typedef struct pending {
  pair_sums s;
  const steer_program *p;
  size_t i, candidates;
  int lone;
} pending;

typedef struct batch {
  pending item[BATCH];
  int n;
} batch;

/* The forces of agents i and i + 1 (or i alone) from their sums. */
static void pair_forces(steer_world *w, const pending *e, double dt,
                        steer_vec2 *forces, size_t base, steer_stats *stats) {
  size_t i = e->i, took = 2 - (size_t)e->lone;
  if (e->p->pure_flock &&
      pair_flock_force(w, i, e->lone, e->p, &e->s, forces + (i - base))) {
    __m128d found = _mm_add_pd(_mm_add_pd(e->s.sepn, e->s.alin), e->s.cohn);
    stats->programs += took;
    stats->candidates += took * e->candidates;
    stats->neighbors += (size_t)lane(found, 0);
    if (!e->lone) stats->neighbors += (size_t)lane(found, 1);
    return;
  }
  for (size_t l = 0; l < took; l++) {
    flock_sums s = lane_sums(&e->s, (int)l);
    flock_force(w, i + l, e->p, &s, e->candidates, dt, forces, base, stats);
  }
}

static void flush(steer_world *w, batch *bt, double dt, steer_vec2 *forces,
                  size_t base, steer_stats *stats) {
  for (int k = 0; k < bt->n; k++)
    pair_forces(w, &bt->item[k], dt, forces, base, stats);
  bt->n = 0;
}

static pending *add(steer_world *w, batch *bt, double dt, steer_vec2 *forces,
                    size_t base, steer_stats *stats) {
  if (bt->n == BATCH) flush(w, bt, dt, forces, base, stats);
  return &bt->item[bt->n++];
}
#else
typedef struct batch {
  int n;
} batch;

static void flush(steer_world *w, batch *bt, double dt, steer_vec2 *forces,
                  size_t base, steer_stats *stats) {
  (void)w, (void)bt, (void)dt, (void)forces, (void)base, (void)stats;
}
#endif

static void cell_forces(steer_world *w, size_t b, double dt,
                        steer_vec2 *forces, size_t base, steer_stats *stats,
                        batch *bt) {
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
    if (!known_walkable) {
      general_force(w, i, dt, forces, base, stats);
      i++;
      continue;
    }
#if defined(__SSE2__)
    if (simd_width >= 4 && i + 3 < to && w->program[i + 1] == p &&
        w->program[i + 2] == p && w->program[i + 3] == p) {
      double sums[9][4];
      crowd_quad_gather(w, i, &p->flock, spans, n, sums);
      size_t candidates = spans_length(spans, n) - 1;
      for (int half = 0; half < 2; half++, i += 2) {
        const double *at[9];
        for (int k = 0; k < 9; k++) at[k] = sums[k] + 2 * half;
        pending *e = add(w, bt, dt, forces, base, stats);
        pair_sums ps = {_mm_loadu_pd(at[0]), _mm_loadu_pd(at[1]),
                        _mm_loadu_pd(at[2]), _mm_loadu_pd(at[3]),
                        _mm_loadu_pd(at[4]), _mm_loadu_pd(at[5]),
                        _mm_loadu_pd(at[6]), _mm_loadu_pd(at[7]),
                        _mm_loadu_pd(at[8])};
        e->s = ps;
        e->p = p;
        e->i = i;
        e->candidates = candidates;
        e->lone = 0;
      }
      continue;
    }
    if (simd_width >= 2) {
      pending *e = add(w, bt, dt, forces, base, stats);
      e->lone = !(i + 1 < to && w->program[i + 1] == p);
      e->p = p;
      e->i = i;
      e->candidates = gather_pair(w, i, e->lone, &p->flock, spans, n, &e->s);
      i += 2 - (size_t)e->lone;
      continue;
    }
#endif
    flock_sums s = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
    size_t candidates = flock_span_walk(w, i, &p->flock, spans, n, &s);
    flock_force(w, i, p, &s, candidates, dt, forces, base, stats);
    i++;
  }
}

void crowd_row_forces(steer_world *w, size_t r, double dt, steer_vec2 *forces,
                      size_t base, steer_stats *stats) {
  size_t ncx = (size_t)w->grid.ncx;
  batch bt;
  bt.n = 0;
  for (size_t b = r * ncx; b < (r + 1) * ncx; b++)
    cell_forces(w, b, dt, forces, base, stats, &bt);
  flush(w, &bt, dt, forces, base, stats);
}
