/* nearest.c - the k agents nearest an agent within a radius (ORCA's
 * neighbors), on the world's grid.
 *
 * The list is kept sorted by insertion. Once it is full, only agents nearer
 * than its last can enter, so on a sorted dense grid the search visits the
 * agent's own row of cells first and then the rows outward, each over the
 * columns the current bound still reaches: in a dense crowd the ten
 * nearest lie within a cell or two and most of the radius is never opened.
 */
#include <math.h>
#include "nearest.h"

/* The list entries stay small while they are shifted about: the offsets
   of the chosen few are worked out at the end. */
typedef struct candidate {
  double d2;
  size_t j;
} candidate;

/* The order of nearness: distance, then index. */
static int nearer(double d2, size_t j, const candidate *than) {
  return d2 < than->d2 || (d2 == than->d2 && j < than->j);
}

typedef struct list {
  candidate out[STEER_ORCA_MAX_NEIGHBORS];
  size_t n, max;
  double bound2; /* a candidate farther than this cannot enter */
} list;

static void list_insert(list *l, double d2, size_t j) {
  if (l->n == l->max && !nearer(d2, j, &l->out[l->n - 1])) return;
  size_t k = l->n < l->max ? l->n++ : l->n - 1;
  for (; k > 0 && nearer(d2, j, &l->out[k - 1]); k--) l->out[k] = l->out[k - 1];
  candidate c = {d2, j};
  l->out[k] = c;
  if (l->n == l->max) l->bound2 = l->out[l->n - 1].d2;
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

/* floor() without a libm call where the value fits an int32 */
static inline double floor_fast(double v) {
  if (!(v > -2147483647.0 && v < 2147483647.0)) return floor(v);
  double t = (double)(int32_t)v; /* truncates toward zero */
  return t > v ? t - 1 : t;
}

/* The cells [*lo, *hi] along one axis where points within r of v can lie:
   with slack against rounding, clamped to the grid when it does not wrap
   (edge cells hold the agents beyond), unwrapped on a torus. */
static void cell_range(const steer_grid *g, double v, double r, double inv,
                       int32_t n, int32_t *lo, int32_t *hi) {
  double slack = 1e-9 * (1.0 + fabs(v * inv) + r * inv);
  double a = floor_fast((v - r) * inv - slack);
  double b = floor_fast((v + r) * inv + slack);
  /* a torus keeps any range that fits it (from -n to 2n - 1, the agent
     being inside); wider ones only need to say so in an int32 */
  double first = g->mode == GRID_WRAP ? -2.0 * n : 0;
  double last = g->mode == GRID_WRAP ? 3.0 * n : n - 1;
  a = a < first ? first : a > last ? last : a;
  b = b < first ? first : b > last ? last : b;
  *lo = (int32_t)a;
  *hi = (int32_t)b;
}

/* The candidates of columns lo..hi (unwrapped) of grid row `row`. */
static void walk_row(const steer_world *w, size_t i, steer_vec2 p,
                     int32_t row, int32_t lo, int32_t hi, list *l) {
  const steer_grid *g = &w->grid;
  int32_t n = g->ncx;
  if (lo < 0) { /* a torus: [lo, hi] starts on the far side */
    lo += n;
    hi += n;
  }
  size_t base = (size_t)row * (size_t)n;
  for (int part = 0; part < 2; part++) {
    int32_t a = part ? 0 : lo, b = part ? hi - n : (hi < n ? hi : n - 1);
    if (a >= n || b < a) continue;
    size_t from = g->starts[base + (size_t)a], to = g->starts[base + (size_t)b + 1];
    for (size_t j = from; j < to; j++) {
      if (j == i || !w->group_bit[j]) continue;
      steer_vec2 d = world_offset(w, p, world_pos(w, j));
      list_take(l, v2_len2(d), j);
    }
  }
}

/* A sorted dense grid: rows outward from the agent's own, each over the
   columns the current bound reaches, until no row is within it. */
static void walk_sorted(const steer_world *w, size_t i, list *l) {
  const steer_grid *g = &w->grid;
  steer_vec2 p = world_pos(w, i);
  int32_t own = 0, own_x = 0, lo = 0, hi = 0, clo = 0, chi = 0;
  double ranged = -1; /* the bound the ranges were computed for */
  for (int32_t d = 0;; d++) {
    if (l->bound2 != ranged) {
      ranged = l->bound2;
      double reach = sqrt(ranged);
      reach += 1e-12 * reach; /* sqrt rounds: never cut a point on the bound */
      cell_range(g, p.y, reach, g->inv_y, g->ncy, &lo, &hi);
      cell_range(g, p.x, reach, g->inv_x, g->ncx, &clo, &chi);
    }
    if (d == 0) { /* the agent's own cell first: the bound tightens */
      double c = floor_fast(p.y * g->inv_y), cx = floor_fast(p.x * g->inv_x);
      own = c < lo ? lo : c > hi ? hi : (int32_t)c;
      own_x = cx < clo ? clo : cx > chi ? chi : (int32_t)cx;
      int32_t r = own < 0 ? own + g->ncy : own >= g->ncy ? own - g->ncy : own;
      walk_row(w, i, p, r, own_x, own_x, l);
      walk_row(w, i, p, r, clo, own_x - 1, l);
      walk_row(w, i, p, r, own_x + 1, chi, l);
      continue;
    }
    int32_t up = own - d, down = own + d;
    if (up < lo && down > hi) return;
    for (int side = 0; side < 2; side++) {
      int32_t r = side ? down : up;
      if (r < lo || r > hi) continue;
      if (r < 0) r += g->ncy; /* only on a torus: rows are clamped else */
      if (r >= g->ncy) r -= g->ncy;
      walk_row(w, i, p, r, clo, chi, l);
    }
  }
}

/* Can the sorted walk answer a query of this radius? A torus query must
   stay narrower than the world, so that no cell is opened twice. */
static int sorted_ok(const steer_world *w, size_t i, double radius) {
  const steer_grid *g = &w->grid;
  if (!g->dense || !g->sorted || g->buckets == 0) return 0;
  int32_t lo, hi, clo, chi;
  steer_vec2 p = world_pos(w, i);
  cell_range(g, p.y, radius, g->inv_y, g->ncy, &lo, &hi);
  cell_range(g, p.x, radius, g->inv_x, g->ncx, &clo, &chi);
  double cells = ((double)hi - lo + 1) * ((double)chi - clo + 1);
  if (cells > (double)w->count + 8) return 0; /* a scan is cheaper */
  return g->mode != GRID_WRAP || (hi - lo + 1 < g->ncy && chi - clo + 1 < g->ncx);
}

size_t nearest_agents(const steer_world *w, size_t i, double radius,
                      size_t max, int sorted_walk, nearest_agent *out) {
  if (max == 0 || !(radius >= 0)) return 0;
  list l;
  l.n = 0;
  l.max = max < STEER_ORCA_MAX_NEIGHBORS ? max : STEER_ORCA_MAX_NEIGHBORS;
  l.bound2 = radius * radius;
  if (sorted_walk && sorted_ok(w, i, radius))
    walk_sorted(w, i, &l);
  else
    walk_cursor(w, i, radius, &l);
  steer_vec2 p = world_pos(w, i);
  for (size_t k = 0; k < l.n; k++) {
    nearest_agent a = {l.out[k].d2, l.out[k].j,
                       world_offset(w, p, world_pos(w, l.out[k].j))};
    out[k] = a;
  }
  return l.n;
}
