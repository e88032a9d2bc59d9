/* nearest.c - the k agents nearest an agent within a radius (ORCA's
 * neighbors), on the world's grid.
 *
 * The list is kept sorted by insertion. Once it is full, only agents nearer
 * than its last can enter, so on a grid sorted by cell (every step sorts
 * it) the search visits the agent's own row of cells first and then the
 * rows outward, each over the columns the current bound still reaches: in
 * a dense crowd the ten nearest lie within a cell or two and most of the
 * radius is never opened. The bound starts from the agents the last search
 * found (the warm start below). Other grids walk the grid cursor.
 */
#include "no_slp.h" /* first: it applies to all that follows */
#include <math.h>
#include "nearest.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The list entries stay small while they are shifted about: the offsets
   of the chosen few are worked out at the end (by the caller of
   nearest_found_agents). */
typedef nearest_found candidate;

/* The order of nearness: distance, then index. */
static int nearer(double d2, size_t j, const candidate *than) {
  return d2 < than->d2 || (d2 == than->d2 && j < than->j);
}

typedef struct list {
  candidate *out; /* the caller's, room for STEER_ORCA_MAX_NEIGHBORS */
  size_t n, max;
  double bound2; /* a candidate farther than this cannot enter */
  int twice;     /* a candidate may come twice (hashed buckets) */
  /* the warm start's agents, where they are now (seeded_bound) */
  candidate seeds[NEAREST_SEEDS];
  size_t seeds_n;
} list;

static void list_insert(list *l, double d2, size_t j) {
  if (l->n == l->max && !nearer(d2, j, &l->out[l->n - 1])) return;
  if (l->twice)
    for (size_t k = 0; k < l->n; k++)
      if (l->out[k].j == j) return;
  size_t k = l->n < l->max ? l->n++ : l->n - 1;
  for (; k > 0 && nearer(d2, j, &l->out[k - 1]); k--) l->out[k] = l->out[k - 1];
  candidate c = {d2, j};
  l->out[k] = c;
  if (l->n == l->max) l->bound2 = l->out[l->n - 1].d2;
}

/* Candidates c[0 .. n - 1], distinct and at most max, into the empty
   list: what list_take would make of them one by one (all enter, in order
   of nearness), without a call and its tests per candidate. The warm
   start's seeds come in last step's order: the sort hardly shifts. */
static void list_fill(list *l, const candidate *c, size_t n) {
  for (size_t k = 0; k < n; k++) {
    size_t at = k;
    for (; at > 0 && nearer(c[k].d2, c[k].j, &l->out[at - 1]); at--)
      l->out[at] = l->out[at - 1];
    l->out[at] = c[k];
  }
  l->n = n;
  if (n == l->max) l->bound2 = l->out[n - 1].d2;
}

/* Most candidates are beyond the bound: that test stays inline. */
static inline void list_take(list *l, double d2, size_t j) {
  if (!(d2 > l->bound2)) list_insert(l, d2, j);
}

/* Any grid: every candidate of the cells the radius touches. */
static void walk_cursor(const steer_world *w, size_t i, double radius,
                        list *l) {
  steer_vec2 p = world_pos(w, i);
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, radius);
  for (int32_t jj; (jj = grid_cursor_next(&c)) >= 0;) {
    size_t j = (size_t)jj;
    if (j == i || !w->group_bit[j]) continue; /* ghosts are no neighbors */
    steer_vec2 d = world_offset(w, p, world_pos(w, j));
    list_take(l, v2_len2(d), j);
  }
}

/* How a sorted grid's buckets hold rows of cells: a dense grid's cells
   0..n-1 per axis (a torus wraps; a clamped world's edge cells hold the
   agents beyond the bounds), or the box of a hashed grid (the crowd's
   cells at the last sort, in row-major buckets; outside it no agent lies,
   grid_move sees to that), or a hashed grid without a box (too sparse for
   one): each cell's bucket is looked up, and a bucket may hold other
   cells' agents too, so a candidate can come twice. In rows, the bucket of
   cell (cx, cy) is (cy - y0) * nx + cx - x0. */
typedef struct sheet {
  int32_t x0, y0, nx, ny;
  int wrap, clamp;
  int hashed; /* no box: every cell its own bucket lookup, buckets shared */
} sheet;

static int sheet_of(const steer_grid *g, sheet *s) {
  if (!g->sorted || g->buckets == 0) return 0;
  if (g->dense) {
    sheet d = {0, 0, g->ncx, g->ncy, g->mode == GRID_WRAP,
               g->mode != GRID_WRAP, 0};
    *s = d;
    return 1;
  }
  if (g->mode != GRID_FREE && g->box_w <= 0) {
    /* a bounded world with too many cells for dense buckets: its cells
       clamp or wrap as a dense grid's do, each bucket looked up */
    sheet h = {0, 0, g->ncx, g->ncy, g->mode == GRID_WRAP,
               g->mode == GRID_CLAMP, 1};
    *s = h;
    return 1;
  }
  if (g->box_w <= 0) { /* too sparse for a box: all hashed */
    double L = GRID_FREE_CELL_LIMIT;
    sheet h = {-(int32_t)L, -(int32_t)L, 2 * (int32_t)L + 1, 2 * (int32_t)L + 1,
               0, 0, 1};
    *s = h;
    return 1;
  }
  sheet b = {g->box_x0, g->box_y0, g->box_w, g->box_h, 0, 0, 0};
  *s = b;
  return 1;
}

/* The cells [*lo, *hi] along one axis (y: axis 1) where points within r of
   v can lie, with slack against rounding; *lo > *hi when none. On a torus
   unwrapped (the agent being inside, a range that fits the torus lies in
   -n .. 2n - 1; wider ones only need to say so in an int32). */
static void cell_range(const steer_grid *g, const sheet *s, int axis,
                       double v, double r, int32_t *lo, int32_t *hi) {
  double inv = axis ? g->inv_y : g->inv_x;
  double first = axis ? s->y0 : s->x0, n = axis ? s->ny : s->nx;
  double slack = 1e-9 * (1.0 + fabs(v * inv) + r * inv);
  double a = grid_floor((v - r) * inv - slack);
  double b = grid_floor((v + r) * inv + slack);
  double min = first, max = first + n - 1;
  if (s->wrap) {
    min = -2 * n;
    max = 3 * n;
  } else if (!s->clamp) { /* a box: cells are clamped as grid.c does */
    const double L = GRID_FREE_CELL_LIMIT;
    a = a < -L ? -L : a > L ? L : a;
    b = b < -L ? -L : b > L ? L : b;
    if (a > max || b < min) {
      *lo = 1;
      *hi = 0;
      return;
    }
  }
  a = a < min ? min : a > max ? max : a;
  b = b < min ? min : b > max ? max : b;
  *lo = (int32_t)a;
  *hi = (int32_t)b;
}

/* Candidates from .. to - 1 of a sorted grid. Which ones are within the
   bound is unpredictable: a first pass notes them without a branch, a
   chunk at a time, and only they are offered to the list. */
#define CHUNK 32

/* Candidate j at d2 from agent i, noted at c[m]: returns m + 1
   when it counts (not i itself, in a group, within the bound), else m (so
   the next one overwrites it). */
static inline size_t note(size_t i, size_t j, double d2, double bound2,
                          const uint32_t *bit, candidate *c, size_t m) {
  c[m].d2 = d2;
  c[m].j = j;
  return m + ((j != i) & (bit[j] != 0) & !(d2 > bound2));
}

/* note() in a world without ghosts. */
static inline size_t note_solid(size_t i, size_t j, double d2, double bound2,
                                candidate *c, size_t m) {
  c[m].d2 = d2;
  c[m].j = j;
  return m + ((j != i) & !(d2 > bound2));
}

static void walk_span(const steer_world *w, size_t i, steer_vec2 p,
                      size_t from, size_t to, list *l) {
  candidate c[CHUNK];
  const double *x = w->x, *y = w->y;
  const uint32_t *bit = w->group_bit;
  int wrap = w->geo.wrap;
  while (from < to) {
    size_t end = to - from > CHUNK ? from + CHUNK : to, m = 0;
    double bound2 = l->bound2;
    if (!wrap) { /* world_offset's plain difference, in a tight loop */
      for (size_t j = from; j < end; j++) {
        double dx = x[j] - p.x, dy = y[j] - p.y;
        m = note(i, j, dx * dx + dy * dy, bound2, bit, c, m);
      }
    } else {
      for (size_t j = from; j < end; j++) {
        double d2 = v2_len2(world_offset(w, p, world_pos(w, j)));
        m = note(i, j, d2, bound2, bit, c, m);
      }
    }
    for (size_t k = 0; k < m; k++) list_take(l, c[k].d2, c[k].j);
    from = end;
  }
}

/* The candidates of columns lo..hi (unwrapped) of sheet row `row`. */
static void walk_row(const steer_world *w, const sheet *s, size_t i,
                     steer_vec2 p, int32_t row, int32_t lo, int32_t hi,
                     list *l) {
  const uint32_t *starts = w->grid.starts;
  if (s->hashed) {
    for (int32_t c = lo; c <= hi; c++) {
      int32_t cx = !s->wrap ? c : c < 0 ? c + s->nx : c >= s->nx ? c - s->nx : c;
      size_t b = grid_bucket_of_cell(&w->grid, cx, row);
      walk_span(w, i, p, starts[b], starts[b + 1], l);
    }
    return;
  }
  int32_t n = s->nx;
  lo -= s->x0;
  hi -= s->x0;
  if (lo < 0) { /* a torus: [lo, hi] starts on the far side */
    lo += n;
    hi += n;
  }
  size_t base = (size_t)(row - s->y0) * (size_t)n;
  for (int part = 0; part < 2; part++) {
    int32_t a = part ? 0 : lo, b = part ? hi - n : (hi < n ? hi : n - 1);
    if (a >= n || b < a) continue;
    walk_span(w, i, p, starts[base + (size_t)a], starts[base + (size_t)b + 1],
              l);
  }
}

/* The cells a bound reaches from p: rows lo..hi, columns clo..chi
   (unwrapped); 0 when none (beyond the box). */
typedef struct reach {
  int32_t lo, hi, clo, chi;
} reach;

#if defined(__SSE2__)
/* cell_range for both axes at once, x in lane 0 and y in lane 1, on a
   sheet that clamps to cells 0 .. n - 1: the same cells. Clamping before
   the truncation makes it a floor (every value is >= 0 then) and saves
   grid_floor's conversion back and its test; an agent's search waits on
   these cells. */
static inline void clamped_reach(const steer_grid *g, const sheet *s,
                                 steer_vec2 p, double d, reach *r) {
  __m128d v = _mm_set_pd(p.y, p.x), inv = _mm_set_pd(g->inv_y, g->inv_x);
  __m128d rd = _mm_set1_pd(d);
  __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
  __m128d slack = _mm_mul_pd(
      _mm_set1_pd(1e-9),
      _mm_add_pd(_mm_add_pd(_mm_set1_pd(1.0),
                            _mm_and_pd(_mm_mul_pd(v, inv), magnitude)),
                 _mm_mul_pd(rd, inv)));
  __m128d a = _mm_sub_pd(_mm_mul_pd(_mm_sub_pd(v, rd), inv), slack);
  __m128d b = _mm_add_pd(_mm_mul_pd(_mm_add_pd(v, rd), inv), slack);
  __m128d zero = _mm_setzero_pd();
  __m128d last = _mm_set_pd(s->ny - 1, s->nx - 1);
  /* a NaN would become 0 (max_pd returns its second operand) */
  a = _mm_min_pd(_mm_max_pd(a, zero), last);
  b = _mm_min_pd(_mm_max_pd(b, zero), last);
  int32_t lo[4], hi[4];
  _mm_storeu_si128((__m128i *)lo, _mm_cvttpd_epi32(a));
  _mm_storeu_si128((__m128i *)hi, _mm_cvttpd_epi32(b));
  r->clo = lo[0];
  r->lo = lo[1];
  r->chi = hi[0];
  r->hi = hi[1];
}
#endif

/* The reach of bound2 = d * d: d its square root, or the radius whose
   square it is (a sparse search: no square root to wait for; sqrt(r * r)
   is r within a rounding, far inside the slack). */
static int reach_at(const steer_grid *g, const sheet *s, steer_vec2 p,
                    double d, reach *r) {
  d += 1e-12 * d; /* sqrt rounds: never cut a point on the bound */
#if defined(__SSE2__)
  if (s->clamp && s->x0 == 0 && s->y0 == 0) {
    clamped_reach(g, s, p, d, r);
  } else
#endif
  {
    cell_range(g, s, 1, p.y, d, &r->lo, &r->hi);
    cell_range(g, s, 0, p.x, d, &r->clo, &r->chi);
  }
  return r->lo <= r->hi && r->clo <= r->chi;
}

static int reach_of(const steer_grid *g, const sheet *s, steer_vec2 p,
                    double bound2, reach *r) {
  return reach_at(g, s, p, sqrt(bound2), r);
}

/* Is the sorted walk over these cells the way? Not when it would open more
   cells than a scan reads agents; on a torus they must be narrower than
   the world, so that no cell is opened twice. */
static int sorted_fits(const steer_world *w, const sheet *s, const reach *r) {
  /* in integers (each side at most 2^32 cells): no conversion of the
     count to wait for */
  uint64_t cells = (uint64_t)((int64_t)r->hi - r->lo + 1) *
                   (uint64_t)((int64_t)r->chi - r->clo + 1);
  if (cells > (uint64_t)w->count + 8) return 0; /* a scan is cheaper */
  return !s->wrap || (r->hi - r->lo + 1 < s->ny && r->chi - r->clo + 1 < s->nx);
}

/* A sorted grid: the cells `r` of the starting bound, the agent's own row
   first and then rows outward, each over the columns the current bound
   reaches, until no row is within it. */
static void walk_sorted(const steer_world *w, const sheet *s, size_t i,
                        reach r, list *l) {
  const steer_grid *g = &w->grid;
  steer_vec2 p = world_pos(w, i);
  double c = grid_floor(p.y * g->inv_y);
  int32_t own = c < r.lo ? r.lo : c > r.hi ? r.hi : (int32_t)c;
  int32_t y1 = s->y0 + s->ny; /* rows taken into the sheet (a torus only) */
  double ranged = l->bound2; /* the bound r was computed for */
  for (int32_t d = 0;; d++) {
    if (l->bound2 != ranged) {
      ranged = l->bound2;
      if (!reach_of(g, s, p, ranged, &r)) return;
    }
    int32_t up = own - d, down = own + d;
    if (up < r.lo && down > r.hi) return;
    for (int side = 0; side < (d ? 2 : 1); side++) {
      int32_t row = side ? down : up;
      if (row < r.lo || row > r.hi) continue;
      if (row < s->y0) row += s->ny;
      if (row >= y1) row -= s->ny;
      walk_row(w, s, i, p, row, r.clo, r.chi, l);
    }
  }
}

/* The warm start's agents as a set that a candidate is tested against in
   one go (indices fit 32 bits: slots number the agents in 32). The unused
   places hold the searching agent, never a candidate. */
typedef struct seed_set {
  uint32_t j[NEAREST_SEEDS];
} seed_set;

static void seed_set_init(seed_set *set, const list *l, size_t i) {
  for (size_t k = 0; k < NEAREST_SEEDS; k++) set->j[k] = (uint32_t)i;
  for (size_t k = 0; k < l->seeds_n; k++) set->j[k] = (uint32_t)l->seeds[k].j;
}

/* The set of l's seeds in *set, made the first time it is asked for
   (made: what an earlier call returned, or NULL). */
static const seed_set *seed_set_once(seed_set *set, const seed_set *made,
                                     const list *l, size_t i) {
  if (made) return made;
  seed_set_init(set, l, i);
  return set;
}

static int seed_set_has(const seed_set *set, size_t j) {
#if defined(__SSE2__) && NEAREST_SEEDS == 16
  const __m128i *at = (const __m128i *)set->j;
  __m128i q = _mm_set1_epi32((int)(uint32_t)j);
  __m128i hit = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi32(q, _mm_loadu_si128(at)),
                   _mm_cmpeq_epi32(q, _mm_loadu_si128(at + 1))),
      _mm_or_si128(_mm_cmpeq_epi32(q, _mm_loadu_si128(at + 2)),
                   _mm_cmpeq_epi32(q, _mm_loadu_si128(at + 3))));
  return _mm_movemask_epi8(hit) != 0;
#else
  int hit = 0;
  for (size_t k = 0; k < NEAREST_SEEDS; k++) hit |= set->j[k] == (uint32_t)j;
  return hit;
#endif
}

/* Candidates 0 .. m - 1 to the list, but those of the set (in it already). */
static void offer_unseeded(list *l, const seed_set *set, const candidate *c,
                           size_t m) {
  for (size_t k = 0; k < m; k++)
    if (!set || !seed_set_has(set, c[k].j)) list_take(l, c[k].d2, c[k].j);
}

/* Candidates c[0 .. m - 1] (distinct, new to the list, within its bound)
   to a list with room for them all: each enters where list_insert would
   put it, without its call and tests (a sparse search, where the list
   never fills). */
static inline void list_append(list *l, const candidate *c, size_t m) {
  candidate *out = l->out;
  size_t n = l->n;
  for (size_t k = 0; k < m; k++, n++) {
    size_t at = n;
    for (; at > 0 && nearer(c[k].d2, c[k].j, &out[at - 1]); at--)
      out[at] = out[at - 1];
    out[at] = c[k];
  }
  l->n = n;
  if (n == l->max) l->bound2 = out[n - 1].d2;
}

/* The noted candidates to the list: all at once when no seed is among
   them and they all fit, else one by one. */
static inline void offer(list *l, const seed_set *set, const candidate *c,
                         size_t m) {
  if (!set && l->n + m <= l->max)
    list_append(l, c, m);
  else
    offer_unseeded(l, set, c, m);
}

/* A search whose starting bound is about as tight as it will get - warm
   (the seeds bound it) or sparse (the last search found fewer than max, and
   the list will hardly fill) - on a sheet that neither wraps nor hashes:
   the rows' spans go through one filter loop, top row to bottom, at the
   starting bound. The outward order and the narrowing as the list fills
   (walk_sorted) pay only when the bound starts loose; the list's answer is
   the same in any order (the nearest by distance, then index, of all
   agents within the starting bound). So a warm search takes the seeds'
   agents first, in the order the last search found them (about the order
   they go in: the insertions hardly shift or mispredict), and then the
   rows' other candidates. */
static void walk_rows(const steer_world *w, const sheet *s, size_t i,
                      reach r, list *l) {
  const uint32_t *starts = w->grid.starts;
  const double *x = w->x, *y = w->y;
  const uint32_t *bit = w->group_bit;
  steer_vec2 p = world_pos(w, i);
  candidate c[CHUNK];
  size_t m = 0;
  seed_set set;
  const seed_set *seeds = NULL; /* the set, made when first offered to */
  int seeded = l->seeds_n > 0;
  if (seeded) list_fill(l, l->seeds, l->seeds_n);
  double bound2 = l->bound2;
  size_t first = (size_t)(r.clo - s->x0), last = (size_t)(r.chi - s->x0);
  for (int32_t row = r.lo; row <= r.hi; row++) {
    size_t base = (size_t)(row - s->y0) * (size_t)s->nx;
    size_t j = starts[base + first], end = starts[base + last + 1];
    while (j < end) {
      /* no more than there are places left (each is written): the loops
         need not test for a full chunk */
      size_t stop = end - j < CHUNK - m ? end : j + (CHUNK - m);
      if (w->ghosts) {
        for (; j < stop; j++) {
          double dx = x[j] - p.x, dy = y[j] - p.y;
          m = note(i, j, dx * dx + dy * dy, bound2, bit, c, m);
        }
      } else { /* no ghosts: no group bit to read */
        for (; j < stop; j++) {
          double dx = x[j] - p.x, dy = y[j] - p.y;
          m = note_solid(i, j, dx * dx + dy * dy, bound2, c, m);
        }
      }
      if (m == CHUNK) { /* rare: offer them, the bound may have shrunk */
        if (seeded) seeds = seed_set_once(&set, seeds, l, i);
        offer(l, seeds, c, m);
        m = 0;
        bound2 = l->bound2;
      }
    }
  }
  /* every seed is a candidate (within the bound they gave, d2 worked out
     the same way): as many candidates as seeds, none offered yet, are the
     seeds, listed already (a crowd that keeps its neighbors: no set test
     for each) */
  if (seeded && !seeds && m == l->seeds_n) return;
  if (seeded) seeds = seed_set_once(&set, seeds, l, i);
  offer(l, seeds, c, m);
}

/* ---- warm start ---------------------------------------------------------
 * Agents move little between steps: the `max` agents an agent found last
 * time, where they are now, are within d2 of it, d2 the farthest of them,
 * so its `max` nearest are too and the search starts with that bound
 * instead of the radius. The answer is the same (every agent within the
 * bound is still a candidate, ties included); the search opens fewer cells
 * and inserts fewer candidates. The seeds are kept by slot, which sorts do
 * not move; a slot freed or reused since only costs the bound. */

static uint32_t *seeds_of(const steer_world *w, size_t i) {
  uint32_t slot = w->slot_of[i];
  return slot < w->near_seeds_cap ? w->near_seeds + (size_t)slot * NEAREST_SEEDS
                                  : NULL;
}

/* The bound the seeds give a search for `max` agents within bound2; *tight
   when it will hardly shrink: the seeds bound it, or the last search found
   fewer than max (most likely fewer now too). */
static double seeded_bound(const steer_world *w, size_t i, size_t max,
                           double bound2, int *tight, list *l) {
  const uint32_t *seed = seeds_of(w, i);
  if (!seed || max > NEAREST_SEEDS) return bound2;
  if (seed[max - 1] == SLOT_NONE) { /* fewer last time: a sparse search */
    *tight = 1;
    return bound2;
  }
  steer_vec2 p = world_pos(w, i);
  double worst = 0;
  size_t found = 0;
  for (size_t k = 0; k < max && seed[k] < w->slot_count; k++) {
    size_t j = w->slots[seed[k]].index;
    if (j >= w->count || w->slot_of[j] != seed[k] || j == i ||
        !w->group_bit[j])
      continue; /* gone, or a ghost now */
    double d2 = v2_len2(world_offset(w, p, world_pos(w, j)));
    if (!(d2 <= bound2)) continue; /* out of reach now */
    if (d2 > worst) worst = d2;
    candidate c = {d2, j};
    l->seeds[found++] = c;
  }
  *tight = found == max;
  l->seeds_n = found;
  return found == max ? worst : bound2;
}

static inline void keep_seeds(const steer_world *w, size_t i, const list *l) {
  uint32_t *seed = seeds_of(w, i);
  if (!seed) return;
  size_t k = 0;
  for (; k < l->n && k < NEAREST_SEEDS; k++) seed[k] = w->slot_of[l->out[k].j];
  /* the row's end, and its place max - 1, where seeded_bound looks first
     (the places between are never read: the row ends at the first NONE;
     a search for another max reads a stale place there at worst, which
     costs it the sparse walk, never its answer) */
  if (k < NEAREST_SEEDS) seed[k] = SLOT_NONE;
  if (l->max - 1 > k && l->max <= NEAREST_SEEDS) seed[l->max - 1] = SLOT_NONE;
}

void nearest_reserve_seeds(steer_world *w) {
  size_t need = w->slot_count, old = w->near_seeds_cap;
  if (need <= old) return;
  if (world_grow(w, (void **)&w->near_seeds, NEAREST_SEEDS * sizeof(uint32_t),
                 &w->near_seeds_cap, need))
    return; /* no memory: the searches start cold, same answers */
  for (size_t k = old * NEAREST_SEEDS; k < w->near_seeds_cap * NEAREST_SEEDS;
       k++)
    w->near_seeds[k] = SLOT_NONE;
}

void nearest_prepare(steer_world *w) {
  if (w->slot_count <= w->near_seeds_cap) return;
  for (size_t i = 0; i < w->count; i++) /* only ORCA asks for them */
    if (w->program[i] && w->program[i]->has_orca) {
      nearest_reserve_seeds(w);
      return;
    }
}

/* ---- the sparse search, on its own --------------------------------------- */

/* offer for candidates that come in rising index, as a sorted grid's rows
   hand them, top to bottom, to a list that holds only earlier ones: at
   the same distance as a listed one a candidate has the higher index and
   goes after it (nearer's tie test never holds), so the insertion compares
   the distances alone. */
static inline void offer_rising(list *l, const candidate *c, size_t m) {
  if (l->n + m > l->max) {
    offer_unseeded(l, NULL, c, m);
    return;
  }
  candidate *out = l->out;
  size_t n = l->n;
  for (size_t k = 0; k < m; k++, n++) {
    size_t at = n;
    for (; at > 0 && c[k].d2 < out[at - 1].d2; at--) out[at] = out[at - 1];
    out[at] = c[k];
  }
  l->n = n;
  if (n == l->max) l->bound2 = out[n - 1].d2;
}

#if defined(__SSE2__)
/* A sparse search's m candidates (all within its bound, none flushed on
   the way) in the order the last search listed them: its seeds, which end
   at the first SLOT_NONE. When there are m of them, each still an agent
   other than i within the bound, they are the candidates (distinct slots
   are distinct agents), and when their distances, worked out as the walk
   does, still rise in that order (ties by index), it is the order the
   insertion would give: out takes them as they are, without it (agents
   that walk together keep their order from step to step). 0 when not. */
static int last_order(const steer_world *w, size_t i, const uint32_t *seed,
                      size_t m, double bound2, nearest_found *out) {
  if (m == 0 || m >= NEAREST_SEEDS || seed[m] != SLOT_NONE) return 0;
  const double *x = w->x, *y = w->y;
  const slot_info *slots = w->slots;
  const uint32_t *slot_of = w->slot_of;
  size_t count = w->count, slot_count = w->slot_count;
  double px = x[i], py = y[i];
  int ok = 1;
  double prev = 0;
  size_t prev_j = 0;
  /* no branch but the loop's: a stale seed (NONE, gone) reads agent i's
     place instead and fails */
  for (size_t k = 0; k < m; k++) {
    uint32_t slot = seed[k];
    int live = slot < slot_count;
    size_t j = slots[live ? slot : slot_of[i]].index;
    live &= j < count;
    j = live ? j : i;
    live &= slot_of[j] == slot;
    double dx = x[j] - px, dy = y[j] - py, d2 = dx * dx + dy * dy;
    /* as note_solid counts it, and after the one before it */
    ok &= live & (j != i) & !(d2 > bound2);
    if (k) ok &= (prev < d2) | ((prev == d2) & (prev_j < j));
    out[k].d2 = d2;
    out[k].j = j;
    prev = d2;
    prev_j = j;
  }
  return ok;
}

/* The common sparse search (the last one found fewer than max) on a dense
   grid that clamps, in a world without ghosts that does not wrap: what
   nearest_found_agents does for it (seeded_bound's early answer, reach_at,
   sorted_fits, walk_rows without seeds, keep_seeds), in a function of its
   own, without the general search's cases and its register spills around
   them. A sparse crowd pays this setup per agent as much as its
   candidates. Returns SIZE_MAX when the search is not that one. */
static size_t sparse_search(const steer_world *w, size_t i, double radius,
                            size_t max, const uint32_t *seed,
                            nearest_found *out) {
  const steer_grid *g = &w->grid;
  if (!g->sorted || !g->dense || g->buckets == 0 || g->mode != GRID_CLAMP ||
      w->geo.wrap || w->ghosts)
    return SIZE_MAX;
  sheet s = {0, 0, g->ncx, g->ncy, 0, 1, 0};
  steer_vec2 p = world_pos(w, i);
  reach r;
  double d = radius + 1e-12 * radius; /* reach_at's */
  clamped_reach(g, &s, p, d, &r);
  list l;
  l.out = out;
  l.n = 0;
  l.max = max;
  l.bound2 = radius * radius;
  l.twice = 0;
  l.seeds_n = 0;
  if (!(r.lo <= r.hi && r.clo <= r.chi)) { /* as reach_at: nobody */
    keep_seeds(w, i, &l);
    return 0;
  }
  if (!sorted_fits(w, &s, &r)) return SIZE_MAX; /* the general walk */
  const uint32_t *starts = g->starts;
  const double *x = w->x, *y = w->y;
  double bound2 = l.bound2;
  candidate c[CHUNK];
  size_t m = 0;
  size_t first = (size_t)r.clo, last = (size_t)r.chi + 1, nx = (size_t)s.nx;
  for (int32_t row = r.lo; row <= r.hi; row++) {
    size_t base = (size_t)row * nx;
    size_t j = starts[base + first], end = starts[base + last];
    while (j < end) {
      size_t stop = end - j < CHUNK - m ? end : j + (CHUNK - m);
      for (; j < stop; j++) {
        double dx = x[j] - p.x, dy = y[j] - p.y;
        m = note_solid(i, j, dx * dx + dy * dy, bound2, c, m);
      }
      if (m == CHUNK) {
        offer_rising(&l, c, m);
        m = 0;
        bound2 = l.bound2;
      }
    }
  }
  if (l.n == 0 && m <= max && last_order(w, i, seed, m, bound2, out)) {
    return m; /* the seeds stand as they are: keep_seeds would rewrite them */
  }
  offer_rising(&l, c, m);
  keep_seeds(w, i, &l);
  return l.n;
}
#endif

/* ---- the query ---------------------------------------------------------- */

/* Any search: the bound the seeds give, then the walk that suits the grid. */
static size_t search(const steer_world *w, size_t i, double radius,
                     size_t max, int sorted_walk, nearest_found *out) {
  list l;
  l.out = out;
  l.n = 0;
  l.max = max < STEER_ORCA_MAX_NEIGHBORS ? max : STEER_ORCA_MAX_NEIGHBORS;
  int tight = 0;
  l.seeds_n = 0;
  l.bound2 = seeded_bound(w, i, l.max, radius * radius, &tight, &l);
  l.twice = 0;
  sheet sh;
  reach r;
  steer_vec2 p = world_pos(w, i);
  if (!sorted_walk || !sheet_of(&w->grid, &sh)) {
    walk_cursor(w, i, radius, &l);
  } else if (!reach_at(&w->grid, &sh, p,
                       l.bound2 == radius * radius ? radius : sqrt(l.bound2),
                       &r)) {
    /* beyond the box: nobody */
  } else if (sorted_fits(w, &sh, &r)) {
    l.twice = sh.hashed;
    if (tight && !sh.hashed && !sh.wrap && !w->geo.wrap)
      walk_rows(w, &sh, i, r, &l);
    else
      walk_sorted(w, &sh, i, r, &l);
  } else {
    walk_cursor(w, i, radius, &l);
  }
  keep_seeds(w, i, &l);
  return l.n;
}

size_t nearest_found_agents(const steer_world *w, size_t i, double radius,
                            size_t max, int sorted_walk, nearest_found *out) {
  if (max == 0 || !(radius >= 0)) return 0;
#if defined(__SSE2__)
  if (sorted_walk && max <= STEER_ORCA_MAX_NEIGHBORS) {
    const uint32_t *seed = seeds_of(w, i);
    if (seed && max <= NEAREST_SEEDS && seed[max - 1] == SLOT_NONE) {
      size_t n = sparse_search(w, i, radius, max, seed, out);
      if (n != SIZE_MAX) return n;
    }
  }
#endif
  return search(w, i, radius, max, sorted_walk, out);
}

size_t nearest_agents(const steer_world *w, size_t i, double radius,
                      size_t max, int sorted_walk, nearest_agent *out) {
  nearest_found found[STEER_ORCA_MAX_NEIGHBORS];
  size_t n = nearest_found_agents(w, i, radius, max, sorted_walk, found);
  steer_vec2 p = world_pos(w, i);
  for (size_t k = 0; k < n; k++) {
    nearest_agent a = {found[k].d2, found[k].j,
                       world_offset(w, p, world_pos(w, found[k].j))};
    out[k] = a;
  }
  return n;
}
