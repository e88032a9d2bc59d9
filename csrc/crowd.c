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

#if defined(__GNUC__)
typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16)));

static inline v2d splat(double v) { return (v2d){v, v}; }
/* lanes where mask is set keep v, the others become +0 */
static inline v2d keep(v2l mask, v2d v) {
  union { v2d d; v2l l; } u = {v};
  u.l &= mask;
  return u.d;
}

/* The pair walk, once per rule set: `shared` when alignment and cohesion
   have one radius (their mask and count are then one), which leaves enough
   registers for the loop. */
#define PAIR_WALK(shared)                                                     \
  for (int k = 0; k < n; k++) {                                               \
    v2d sx = splat(spans[k].sx), sy = splat(spans[k].sy);                     \
    v2d jj = splat((double)spans[k].from);                                    \
    for (size_t j = spans[k].from; j < spans[k].to; j++, jj += one) {         \
      v2d dx = (splat(x[j]) - px) + sx, dy = (splat(y[j]) - py) + sy;         \
      v2d d2 = dx * dx + dy * dy;                                             \
      v2l other = me != jj;                                                   \
      v2l in_sep = (d2 <= sep_hi) & (d2 > sep_lo) & other;                    \
      v2l in_ali = (d2 <= ali2) & other;                                      \
      v2l in_coh = in_ali;                                                    \
      if (!shared) in_coh = (d2 <= coh2) & other;                             \
      v2d inv = keep(in_sep, one / d2);                                       \
      sepx -= dx * inv;                                                       \
      sepy -= dy * inv;                                                       \
      sepn += keep(in_sep, one);                                              \
      velx += keep(in_ali, splat(vx[j]));                                     \
      vely += keep(in_ali, splat(vy[j]));                                     \
      alin += keep(in_ali, one);                                              \
      offx += keep(in_coh, dx);                                               \
      offy += keep(in_coh, dy);                                               \
      if (!shared) cohn += keep(in_coh, one);                                 \
    }                                                                         \
  }

/* Sums for agents i and i + 1 (same cell, same rules) over the spans. */
static size_t gather_pair(const steer_world *w, size_t i,
                          const flock_rules *q, const flock_span *spans,
                          int n, flock_sums out[2]) {
  const double *x = w->x, *y = w->y, *vx = w->vx, *vy = w->vy;
  v2d px = {x[i], x[i + 1]}, py = {y[i], y[i + 1]};
  v2d sep_hi = splat(q->sep_hi), sep_lo = splat(q->sep_lo);
  v2d ali2 = splat(q->ali2), coh2 = splat(q->coh2), one = splat(1);
  v2d sepx = splat(0), sepy = sepx, velx = sepx, vely = sepx, offx = sepx,
      offy = sepx, sepn = sepx, alin = sepx, cohn = sepx;
  /* lane l is agent i + l; indices as doubles compare in one SSE2 op */
  v2d me = {(double)i, (double)(i + 1)};
  if (q->ali2 == q->coh2) {
    PAIR_WALK(1)
    cohn = alin;
  } else {
    PAIR_WALK(0)
  }
  for (int l = 0; l < 2; l++) {
    out[l].sep = v2(sepx[l], sepy[l]);
    out[l].vel = v2(velx[l], vely[l]);
    out[l].off = v2(offx[l], offy[l]);
    out[l].sep_n = (size_t)sepn[l];
    out[l].ali_n = (size_t)alin[l];
    out[l].coh_n = (size_t)cohn[l];
  }
  size_t len = 0;
  for (int k = 0; k < n; k++) len += spans[k].to - spans[k].from;
  return len - 1; /* candidates per agent: not itself */
}
#endif

/* Does agent i's program flock in a way the kernel can walk for it? */
static int crowd_member(const steer_world *w, size_t i) {
  const steer_program *p = w->program[i];
  return p && p->fused && p->flocking && flock_fast_ok(w, &p->flock);
}

void crowd_cell_forces(steer_world *w, size_t b, double dt,
                       steer_vec2 *forces, size_t base, steer_stats *stats) {
  const steer_grid *g = &w->grid;
  size_t from = g->starts[b], to = g->starts[b + 1];
  if (from == to) return;
  flock_span spans[9];
  int n = flock_spans(w, (int32_t)(b % (size_t)g->ncx),
                      (int32_t)(b / (size_t)g->ncx), spans);
  for (size_t i = from; i < to;) {
    const steer_program *p = w->program[i];
    if (!p || !crowd_member(w, i)) { /* the general path */
      forces[i - base] = p ? program_force(w, i, dt, NULL, stats) : v2(0, 0);
      stats->programs += p != NULL;
      i++;
      continue;
    }
    flock_sums s[2] = {{{0, 0}, {0, 0}, {0, 0}, 0, 0, 0},
                       {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0}};
    size_t candidates;
    int took = 1;
#if defined(__GNUC__)
    if (i + 1 < to && w->program[i + 1] == p) {
      candidates = gather_pair(w, i, &p->flock, spans, n, s);
      took = 2;
    } else
#endif
      candidates = flock_span_walk(w, i, &p->flock, spans, n, &s[0]);
    for (int l = 0; l < took; l++, i++) {
      forces[i - base] = program_force(w, i, dt, &s[l], stats);
      stats->candidates += candidates;
      stats->neighbors += s[l].sep_n + s[l].ali_n + s[l].coh_n;
      stats->programs++;
    }
  }
}
