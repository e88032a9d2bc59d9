/* crowd.c - the step's fast path for crowds whose programs flock (at most
 * one separation, alignment and cohesion entry each, besides any others),
 * on a dense grid with agents sorted by cell.
 *
 * All agents of a cell share the same candidates: the cells around it, a
 * few contiguous index ranges. The agents of a cell with the same program
 * walk them four (AVX, crowd_quad.c) or two (SSE2) at a time, one per SIMD
 * lane (crowd_lanes.h), each lane in the scalar walk's order (neighbors.c),
 * so its sums are the same bit for bit (up to the sign of a zero sum); a
 * lone agent fills the spare lanes, so that it too walks without branches.
 * A row's sums wait in a batch, then pure flocking programs turn them into
 * forces four or two at a time, the others one by one. Integration on a
 * torus goes two at a time too. */
#include "agent_program.h"
#include "crowd.h"
#include "orientation.h"
#include "program_batch.h"

static size_t spans_length(const flock_span *spans, int n) {
  size_t len = 0;
  for (int k = 0; k < n; k++) len += spans[k].to - spans[k].from;
  return len;
}

#if defined(__SSE2__)
#include <emmintrin.h>

static double lane(__m128d v, int l) {
  double out[2];
  _mm_storeu_pd(out, v);
  return out[l];
}

static int any(__m128d m) { return _mm_movemask_pd(m) != 0; }

#define LANES_WALK pair_walk
#define LANES_FORCE pair_force
#include "lanes_sse2.h"
#define V_ANY any
#define V_LANE lane
#include "crowd_lanes.h"
#endif

/* Can the lanes walk rules q? They filter by groups (and ghosts), not by
   view cones, and separate with the inverse falloff only. */
static int lanes_walk_ok(const flock_rules *q) {
  return q->fov[0] >= 360 && q->fov[1] >= 360 && q->fov[2] >= 360 &&
         q->falloff == STEER_FALLOFF_INVERSE;
}

/* Does program p flock in a way the kernel can walk for it? Asked once
   per run of agents sharing p. */
static int walkable(const steer_world *w, const steer_program *p) {
  return p && p->fused && p->flocking && flock_fast_ok(w, &p->flock);
}

/* Does program p walk its neighbors late, agent by agent (batch_priority,
   only the agents that reach a flocking entry), rather than ahead in the
   lanes? Priority programs that put other entries first: in a level most
   agents are decided by avoiding walls and obstacles before they get to
   separation (make bench-level: 57% of them). */
static int walks_late(const steer_program *p) {
  steer_behavior first = p->count ? p->entries[0].behavior : STEER_SEEK;
  return p->batched && p->flocking && p->combine == STEER_PRIORITY &&
         !(first >= STEER_SEPARATION && first <= STEER_COHESION);
}

/* The force of a pure flocking program (weighted separation, alignment,
   cohesion, unsmoothed) from its sums: what program_force computes for it,
   operation for operation, without the general combiner's dispatch. */
static steer_vec2 pure_flock_force(const steer_world *w, size_t i,
                                   const steer_program *p,
                                   const flock_sums *s) {
  steer_vec2 f = {0, 0}, v = world_vel(w, i);
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    steer_vec2 r = flock_rule_force(e->behavior, s, v, w->max_speed[i]);
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
static int process_width; /* steer_set_simd's; 0: the widest */

static int best_width(void) {
  return crowd_quad_available() ? 4 : NARROW_WIDTH;
}

/* A width this machine offers for a request (0 or too wide: the widest). */
static int usable_width(int width) {
  int best = best_width();
  return width <= 0 || width >= best ? best : width >= 4 ? 4
                                        : width >= 2 ? 2 : 1;
}

int crowd_simd_width(void) {
  return process_width ? process_width : best_width();
}

int steer_set_simd(int width) {
  process_width = usable_width(width);
  return process_width;
}

int steer_world_set_simd(steer_world *w, int width) {
  if (!w) return width <= 0 ? crowd_simd_width() : usable_width(width);
  w->simd = width <= 0 ? 0 : usable_width(width);
  return w->simd ? w->simd : crowd_simd_width();
}

/* An agent whose program the kernel cannot walk. */
static void general_force(steer_world *w, size_t i, double dt,
                          steer_vec2 *forces, size_t base,
                          steer_stats *stats) {
  const steer_program *p = w->program[i];
  if (i + 8 < w->count) program_prefetch(w, i + 8, 0);
  if (i + 4 < w->count) program_prefetch(w, i + 4, 1);
  forces[i - base] = p ? program_force(w, i, dt, NULL, stats) : v2(0, 0);
  stats->programs += p != NULL;
}

/* Sums waiting for their forces, all of one program: a force is a chain
   of divisions and square roots, cheaper when several are in flight and
   when lanes share them, so a row's forces are computed after its walks,
   BATCH agents at a time. sum[f][k]: f as in crowd_quad_walk (crowd.h). */
#define BATCH BATCH_MAX
typedef struct batch {
  double sum[9][BATCH];
  size_t index[BATCH], candidates[BATCH];
  const steer_program *program;
  int n;
} batch;

/* The statistics of an agent the lanes walked: its candidates, and its
   neighbors (the three counts of its sums at `at`, crowd.h's layout). */
static void count_walk(steer_stats *stats, size_t candidates,
                       const double *at, size_t stride) {
  stats->candidates += candidates;
  stats->neighbors +=
      (size_t)(at[6 * stride] + at[7 * stride] + at[8 * stride]);
}

static void flush(steer_world *w, batch *bt, double dt, steer_vec2 *forces,
                  size_t base, steer_stats *stats) {
  const steer_program *p = bt->program;
  int n = bt->n, k = 0;
  if (!n) return;
  bt->n = 0;
  int walked = p->flocking && !walks_late(p); /* ahead, in the lanes */
  for (int l = 0; l < n && walked; l++) /* the lanes' statistics */
    count_walk(stats, bt->candidates[l], &bt->sum[0][l], BATCH);
  stats->programs += (size_t)n;
  if (p->batched && !p->pure_flock) { /* entry by entry */
    steer_vec2 out[BATCH];
    batch_forces(w, p, bt->index, n, walked ? &bt->sum[0][0] : NULL,
                 BATCH, dt, out, stats);
    for (int l = 0; l < n; l++) forces[bt->index[l] - base] = out[l];
    return;
  }
  int simd_width = w->step_simd;
  while (k < n) {
    steer_vec2 f[4];
    int width = simd_width >= 4 && k + 4 <= n ? 4
                : simd_width >= 2 && k + 2 <= n ? 2 : 1;
    int done = 0;
    if (p->pure_flock && width == 4)
      done = crowd_quad_force(w, p, &bt->sum[0][k], BATCH, bt->index + k, f);
#if defined(__SSE2__)
    else if (p->pure_flock && width == 2)
      done = pair_force(w, p, &bt->sum[0][k], BATCH, bt->index + k, f);
#endif
    for (int l = 0; l < width; l++, k++) {
      size_t i = bt->index[k];
      if (done) {
        forces[i - base] = f[l];
        continue;
      }
      flock_sums s = flock_sums_strided(&bt->sum[0][k], BATCH);
      if (p->pure_flock) {
        forces[i - base] = pure_flock_force(w, i, p, &s);
        continue;
      }
      /* the general combiner, one agent at a time */
      if (k + 8 < n) program_prefetch(w, bt->index[k + 8], 0);
      if (k + 4 < n) program_prefetch(w, bt->index[k + 4], 1);
      forces[i - base] = program_force(w, i, dt, &s, stats);
    }
  }
}

/* Room in the batch for `want` agents of program p at index bt->n. */
static void make_room(steer_world *w, batch *bt, const steer_program *p,
                      int want, double dt, steer_vec2 *forces, size_t base,
                      steer_stats *stats) {
  if (bt->n && (bt->program != p || bt->n + want > BATCH))
    flush(w, bt, dt, forces, base, stats);
  bt->program = p;
}

static void cell_forces(steer_world *w, size_t b, double dt,
                        steer_vec2 *forces, size_t base, steer_stats *stats,
                        batch *bt) {
  const steer_grid *g = &w->grid;
  size_t from = g->starts[b], to = g->starts[b + 1];
  if (from == to) return;
  flock_span spans[9];
  int n = -1; /* the spans, once a program walks them */
  size_t candidates = 0;
  const steer_program *known = NULL; /* the last program asked about */
  int known_walkable = 0;
  int simd_width = w->step_simd, width = simd_width;
  for (size_t i = from; i < to;) {
    const steer_program *p = w->program[i];
    if (p != known) {
      known = p;
      known_walkable = walkable(w, p) && !walks_late(p);
      /* view cones and other falloffs: the scalar walk */
      width = known_walkable && !lanes_walk_ok(&p->flock) ? 1 : simd_width;
    }
    if (!known_walkable && p && p->batched &&
        (!p->flocking || walks_late(p))) {
      /* no neighbors to walk now: it joins the batch with empty sums */
      make_room(w, bt, p, 1, dt, forces, base, stats);
      bt->index[bt->n++] = i++;
      continue;
    }
    if (!known_walkable) {
      general_force(w, i, dt, forces, base, stats);
      i++;
      continue;
    }
    if (n < 0) {
      int32_t cx, cy;
      grid_sheet_cell(g, b, &cx, &cy);
      n = flock_spans(w, cx, cy, spans);
      candidates = spans_length(spans, n) - 1; /* not itself */
    }
    /* up to simd_width agents of this cell with program p, one per lane */
    int take = 1;
    while (take < width && i + (size_t)take < to &&
           w->program[i + (size_t)take] == p)
      take++;
    /* the lanes' stores fill `width` slots, even for fewer agents */
    make_room(w, bt, p, width, dt, forces, base, stats);
    double *out = &bt->sum[0][bt->n];
    if (width == 4) {
      crowd_quad_walk(w, i, take, &p->flock, spans, n, out, BATCH);
#if defined(__SSE2__)
    } else if (width == 2) {
      pair_walk(w, i, take, &p->flock, spans, n, out, BATCH);
#endif
    } else {
      flock_sums s = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
      flock_span_walk(w, i, &p->flock, spans, n, &s);
      flock_sums_store(&s, out, BATCH);
    }
    for (int l = 0; l < take; l++, i++) {
      bt->index[bt->n] = i;
      bt->candidates[bt->n++] = candidates;
      /* the batch reads its cold state (wander's fields) when it
         flushes: asked for now, one agent per walk, it is there by then
         (asked for all at once, the misses queue) */
      if (p->needs_ext && w->ext[i]) ext_prefetch(w->ext[i]);
    }
  }
}

void crowd_row_forces(steer_world *w, size_t r, double dt, steer_vec2 *forces,
                      size_t base, steer_stats *stats) {
  const steer_grid *g = &w->grid;
  size_t ncx = grid_sheet_cols(g), end = (r + 1) * ncx;
  batch bt;
  bt.n = 0;
  bt.program = NULL;
  /* the row's cells that hold agents: a big level's empty cells are
     passed over, not visited */
  for (size_t b = r * ncx; b < end && g->starts[b] < g->starts[end]; b++) {
    b = grid_bucket_holding(g, b, g->starts[b]);
    cell_forces(w, b, dt, forces, base, stats, &bt);
  }
  flush(w, &bt, dt, forces, base, stats);
}

/* Cell (cx, cy) in a sheet of buckets laid out row by row, a dense grid's
   or a hashed grid's box (an unbounded world's crowd, grid_fit_box, which
   no agent lies outside), with its 8 neighbors in the sheet too: its
   bucket, the sheet's row length and the largest cell number along each
   axis (for rounding margins). 0 when the cell is not so placed. */
typedef struct sheet_cell {
  size_t bucket, cols;
  double extent_x, extent_y;
} sheet_cell;

static int sheet_inner(const steer_grid *g, int32_t cx, int32_t cy,
                       sheet_cell *c) {
  int32_t u = cx, v = cy, cols = g->ncx, rows = g->ncy;
  c->extent_x = g->ncx;
  c->extent_y = g->ncy;
  if (!g->dense) {
    if (g->box_w <= 0) return 0;
    /* |cx|, |box_x0| <= 2^29: the differences fit */
    u = cx - g->box_x0;
    v = cy - g->box_y0;
    cols = g->box_w;
    rows = g->box_h;
    c->extent_x = fabs((double)g->box_x0) + g->box_w;
    c->extent_y = fabs((double)g->box_y0) + g->box_h;
  }
  if (!(u > 0 && u < cols - 1 && v > 0 && v < rows - 1)) return 0;
  c->bucket = (size_t)v * (size_t)cols + (size_t)u;
  c->cols = (size_t)cols;
  return 1;
}

/* The 3 x 3 spans of agents i .. i + m - 1, all in cell (cx, cy), inner
   in its sheet (sheet_inner; one span per row, no shift), cut down
   to the rows and columns that hold candidates within `reach` of one of
   them: a candidate beyond every rule's radius adds nothing to any sum
   (a sum never holds -0), and the others keep their order, so the sums
   are the same bits. A neighbor column is left out when every agent is
   farther than reach (and a margin far above rounding) from that edge of
   the cell: the candidates there are farther still along x. Returns how
   many spans are left. */
static int near_spans(const steer_grid *g, const steer_world *w, size_t i,
                      int m, int32_t cx, int32_t cy, const sheet_cell *c,
                      double reach, flock_span spans[3]) {
  double lo_x = 1, hi_x = 0, lo_y = 1, hi_y = 0; /* within the cell, 0..1 */
  for (int k = 0; k < m; k++) {
    double u = w->x[i + (size_t)k] * g->inv_x - cx;
    double v = w->y[i + (size_t)k] * g->inv_y - cy;
    lo_x = u < lo_x ? u : lo_x;
    hi_x = u > hi_x ? u : hi_x;
    lo_y = v < lo_y ? v : lo_y;
    hi_y = v > hi_y ? v : hi_y;
  }
  /* the margin, in cells: a millionth of the reach and of a unit, and far
     more than the rounding of positions of up to extent cells */
  double rx = (reach + 1e-6 * (1 + reach)) * g->inv_x + 1e-12 * c->extent_x;
  double ry = (reach + 1e-6 * (1 + reach)) * g->inv_y + 1e-12 * c->extent_y;
  int32_t c0 = lo_x > rx ? 0 : -1, c1 = 1 - hi_x > rx ? 0 : 1;
  int32_t r0 = lo_y > ry ? 0 : -1, r1 = 1 - hi_y > ry ? 0 : 1;
  int n = 0;
  for (int32_t r = r0; r <= r1; r++) {
    size_t row = c->bucket + (size_t)((ptrdiff_t)r * (ptrdiff_t)c->cols);
    flock_span s = {g->starts[row + (size_t)(ptrdiff_t)c0],
                    g->starts[row + (size_t)c1 + 1], 0, 0};
    spans[n++] = s;
  }
  return n;
}

int crowd_walk_run(const steer_world *w, const steer_program *p, size_t i,
                   int m, double *sums, size_t stride, steer_stats *stats) {
  const steer_grid *g = &w->grid;
  int32_t cx, cy;
  flock_span spans[9];
  sheet_cell c;
  grid_cell_of(g, w->x[i], w->y[i], &cx, &cy);
  int inner = sheet_inner(g, cx, cy, &c);
  size_t cell_end =
      g->starts[(inner ? c.bucket : grid_bucket_of_cell(g, cx, cy)) + 1];
  if ((size_t)m > cell_end - i) m = (int)(cell_end - i); /* this cell's */
  int n;
  size_t candidates;
  if (inner) {
    /* away from the sheet's edges, only the cells the rules reach (the
       3 x 3 cells' agents still counted as candidates, as elsewhere) */
    size_t b = c.bucket, cols = c.cols;
    candidates = g->starts[b - cols + 2] - g->starts[b - cols - 1] +
                 g->starts[b + 2] - g->starts[b - 1] +
                 g->starts[b + cols + 2] - g->starts[b + cols - 1] - 1;
    n = near_spans(g, w, i, m, cx, cy, &c, p->flock.reach, spans);
  } else {
    n = flock_spans(w, cx, cy, spans);
    candidates = spans_length(spans, n) - 1; /* not itself */
  }
  int width = lanes_walk_ok(&p->flock) ? w->step_simd : 1;
  /* one agent, separation alone: the scalar walk (its sums in registers)
     costs less than four lanes' set-up for the few candidates left */
  const flock_rules *q = &p->flock;
  int sep_quad = 0;
  if (m == 1 && q->ali2 < 0 && q->coh2 < 0) {
    width = 1;
    /* its candidates four at a time: no branch on which are near */
    sep_quad = w->step_simd >= 4 && !q->filtered && !w->ghosts;
  }
  for (int k = 0; k < m;) {
    int take = m - k < width ? m - k : width;
    double *out = sums + k;
    if (width == 4) {
      crowd_quad_walk(w, i + (size_t)k, take, &p->flock, spans, n, out, stride);
#if defined(__SSE2__)
    } else if (width == 2) {
      pair_walk(w, i + (size_t)k, take, &p->flock, spans, n, out, stride);
#endif
    } else {
      flock_sums f = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
      if (sep_quad)
        crowd_quad_separation(w, i + (size_t)k, q, spans, n, &f);
      else
        flock_span_walk(w, i + (size_t)k, &p->flock, spans, n, &f);
      flock_sums_store(&f, out, stride);
      /* its statistics from the counts at hand, not read back */
      stats->candidates += candidates;
      stats->neighbors += f.sep_n + f.ali_n + f.coh_n;
      k += take;
      continue;
    }
    for (int l = k; l < k + take; l++)
      count_walk(stats, candidates, sums + l, stride);
    k += take;
  }
  return m;
}

/* Agent i moves by force f (the grid is relinked when the step sorts). */
static void integrate_one(steer_world *w, size_t i, steer_vec2 f, double dt) {
  steer_vec2 p, v;
  if (body_moves(w, i)) /* turning: its program's angular steering too */
    body_integrate(w, i, f,
                   w->program[i] && w->program[i]->angular
                       ? w->ext[i]->body.angular_force
                       : 0,
                   dt, &p, &v);
  else
    world_integrate(w, i, f, dt, &p, &v);
  w->x[i] = p.x;
  w->y[i] = p.y;
  w->vx[i] = v.x;
  w->vy[i] = v.y;
}

void crowd_integrate(steer_world *w, size_t from, size_t to,
                     const steer_vec2 *forces, double dt) {
  size_t i = from;
  int simd_width = w->step_simd;
  (void)simd_width; /* used with SSE2 only */
#if defined(__SSE2__)
  /* two agents at a time while both stay inside [lo, hi) on both axes,
     where world_keep_inside leaves them as they are, and no clamp takes a
     rare branch */
  if (simd_width >= 2) {
    int bounded = w->grid.mode != GRID_FREE;
    __m128d step = _mm_set1_pd(dt), zero = _mm_setzero_pd();
    __m128d limit = _mm_set1_pd(STEER_LIMIT);
    __m128d nlimit = _mm_set1_pd(-STEER_LIMIT);
    __m128d lo = _mm_set1_pd(bounded ? 0 : -STEER_LIMIT);
    __m128d width = _mm_set1_pd(bounded ? w->def.width : STEER_LIMIT);
    __m128d height = _mm_set1_pd(bounded ? w->def.height : STEER_LIMIT);
    for (; i + 1 < to; i += 2) {
      __m128d f0 = _mm_loadu_pd(&forces[i - from].x);
      __m128d f1 = _mm_loadu_pd(&forces[i + 1 - from].x);
      __m128d fx = _mm_unpacklo_pd(f0, f1), fy = _mm_unpackhi_pd(f0, f1);
      __m128d rare = zero;
      lanes_clamp(&fx, &fy, _mm_loadu_pd(w->max_force + i), &rare);
      __m128d vx = _mm_add_pd(_mm_loadu_pd(w->vx + i), _mm_mul_pd(fx, step));
      __m128d vy = _mm_add_pd(_mm_loadu_pd(w->vy + i), _mm_mul_pd(fy, step));
      lanes_clamp(&vx, &vy, _mm_loadu_pd(w->max_speed + i), &rare);
      /* v2_limit: within +-STEER_LIMIT (NaN kept: max/min return their
         second operand then) */
      vx = _mm_min_pd(limit, _mm_max_pd(nlimit, vx));
      vy = _mm_min_pd(limit, _mm_max_pd(nlimit, vy));
      __m128d px = _mm_add_pd(_mm_loadu_pd(w->x + i), _mm_mul_pd(vx, step));
      __m128d py = _mm_add_pd(_mm_loadu_pd(w->y + i), _mm_mul_pd(vy, step));
      __m128d inside =
          _mm_and_pd(_mm_and_pd(_mm_cmpge_pd(px, lo), _mm_cmplt_pd(px, width)),
                     _mm_and_pd(_mm_cmpge_pd(py, lo), _mm_cmplt_pd(py, height)));
      if (any(rare) || _mm_movemask_pd(inside) != 3 || body_moves(w, i) ||
          body_moves(w, i + 1)) {
        integrate_one(w, i, forces[i - from], dt);
        integrate_one(w, i + 1, forces[i + 1 - from], dt);
        continue;
      }
      _mm_storeu_pd(w->x + i, px);
      _mm_storeu_pd(w->y + i, py);
      _mm_storeu_pd(w->vx + i, vx);
      _mm_storeu_pd(w->vy + i, vy);
    }
  }
#endif
  for (; i < to; i++) integrate_one(w, i, forces[i - from], dt);
}
