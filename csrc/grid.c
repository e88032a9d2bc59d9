/* grid.c - spatial grid: bucketed cell lists and disc queries. */
#include <math.h>
#include <string.h>
#include "grid.h"
#include "invariant.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define AXIS_CELLS_MAX 1048576         /* cells per axis of bounded worlds */
#define DENSE_CELLS_MAX 4194304        /* larger bounded grids are hashed */
#define MIN_BUCKETS 64
/* At most this many cells per unit length: v * inv then stays finite for
   every |v| <= STEER_LIMIT however tiny the cell size or the bounds (an
   infinite or NaN cell coordinate cannot be cast to int). Coarser cells
   only cost speed. */
#define INV_MAX 1e150

static double clampd(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static int32_t axis_cells(double extent, double cell) {
  double n = fmin(floor(extent / cell), floor(extent * INV_MAX));
  return (int32_t)clampd(n, 1, AXIS_CELLS_MAX);
}

void grid_init(steer_grid *g, double cell, int wrap, double width,
               double height) {
  memset(g, 0, sizeof *g);
  g->linked = 1; /* no buckets yet: nothing to link */
  if (width > 0 && height > 0) {
    g->mode = wrap ? GRID_WRAP : GRID_CLAMP;
    g->ncx = axis_cells(width, cell);
    g->ncy = axis_cells(height, cell);
    /* whole cells tile the world: each is at least `cell` wide */
    g->inv_x = fmin(g->ncx / width, INV_MAX); /* lowers it only for 1 cell */
    g->inv_y = fmin(g->ncy / height, INV_MAX);
    g->dense = (double)g->ncx * g->ncy <= DENSE_CELLS_MAX;
  } else {
    g->mode = GRID_FREE;
    g->inv_x = g->inv_y = fmin(1.0 / cell, INV_MAX);
  }
}

void grid_free(steer_grid *g, steer_allocator *a) {
  alloc_bytes(a, g->heads, g->buckets * sizeof(int32_t), 0);
  alloc_bytes(a, g->starts, (g->buckets + 1) * sizeof(uint32_t), 0);
  g->starts = NULL;
  alloc_bytes(a, g->next, g->agents_cap * sizeof(int32_t), 0);
  g->heads = NULL;
  g->next = NULL;
  g->buckets = g->agents_cap = 0;
}

/* Cell coordinate along one axis; bounded modes stay inside 0..n-1 (also
   guarding against rounding at the far edge). */
static inline int32_t axis_cell(const steer_grid *g, double v, double inv,
                                int32_t n) {
  double c = grid_floor(v * inv);
  if (g->mode == GRID_FREE)
    return (int32_t)clampd(c, -GRID_FREE_CELL_LIMIT, GRID_FREE_CELL_LIMIT);
  return (int32_t)clampd(c, 0, n - 1);
}

void grid_cell_of(const steer_grid *g, double x, double y, int32_t *cx,
                  int32_t *cy) {
  *cx = axis_cell(g, x, g->inv_x, g->ncx);
  *cy = axis_cell(g, y, g->inv_y, g->ncy);
}

static inline size_t bucket_of_cell(const steer_grid *g, int32_t cx,
                                    int32_t cy) {
  if (g->dense) return (size_t)cy * (size_t)g->ncx + (size_t)cx;
  /* |cx|, |box_x0| <= 2^29: the differences fit */
  uint32_t dx = (uint32_t)(cx - g->box_x0), dy = (uint32_t)(cy - g->box_y0);
  if (dx < (uint32_t)g->box_w && dy < (uint32_t)g->box_h)
    return (size_t)dy * (size_t)g->box_w + dx;
  uint32_t h = (uint32_t)cx * 0x9E3779B1u ^ (uint32_t)cy * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h & (g->buckets - 1);
}

size_t grid_bucket_of_cell(const steer_grid *g, int32_t cx, int32_t cy) {
  return bucket_of_cell(g, cx, cy);
}

static inline size_t bucket_at(const steer_grid *g, double x, double y) {
  return bucket_of_cell(g, axis_cell(g, x, g->inv_x, g->ncx),
                        axis_cell(g, y, g->inv_y, g->ncy));
}

size_t grid_bucket_of(const steer_grid *g, double x, double y) {
  return bucket_at(g, x, y);
}

void grid_fit_box(steer_grid *g, const double *x, const double *y, size_t n) {
  g->box_w = g->box_h = 0;
  /* not on a torus: walks of the box's rows (grid_runs, nearest.c) would
     stop at its edges, where the torus goes on across the seam */
  if (g->dense || n == 0 || g->mode == GRID_WRAP) return;
  /* a cell grows with its coordinate (the product, floor and clamp all
     keep order): the extreme cells are the extreme positions' cells, so
     one pass of compares, not a floor per agent */
  double lx = x[0], hx = x[0], ly = y[0], hy = y[0];
  for (size_t i = 1; i < n; i++) {
    lx = x[i] < lx ? x[i] : lx;
    hx = x[i] > hx ? x[i] : hx;
    ly = y[i] < ly ? y[i] : ly;
    hy = y[i] > hy ? y[i] : hy;
  }
  int32_t x0, y0, x1, y1;
  grid_cell_of(g, lx, ly, &x0, &y0);
  grid_cell_of(g, hx, hy, &x1, &y1);
  double w = (double)x1 - x0 + 1, h = (double)y1 - y0 + 1;
  if (w * h > (double)g->buckets) return; /* too sparse: everything hashes */
  g->box_x0 = x0;
  g->box_y0 = y0;
  g->box_w = (int32_t)w;
  g->box_h = (int32_t)h;
}

#if defined(__SSE2__)
/* bucket_at for agents i and i + 1 of a dense bounded grid (a torus's
   cells are clamped too, against rounding at the seam): x in
   lane 0 and y in lane 1 of each. The same cells: clamping v * inv to
   0 .. n - 1 before the truncation makes it the floor axis_cell takes (the
   clamp of a floor below 0 or above n - 1 is the bound either way). A NaN
   (which axis_cell would not clamp) is left to it. */
static int dense_pair(const steer_grid *g, const double *x, const double *y,
                      size_t i, uint32_t *dest) {
  __m128d inv = _mm_set_pd(g->inv_y, g->inv_x);
  __m128d a = _mm_mul_pd(_mm_set_pd(y[i], x[i]), inv);
  __m128d b = _mm_mul_pd(_mm_set_pd(y[i + 1], x[i + 1]), inv);
  if (_mm_movemask_pd(_mm_cmpunord_pd(a, b))) return 0;
  __m128d zero = _mm_setzero_pd();
  __m128d last = _mm_set_pd(g->ncy - 1, g->ncx - 1);
  a = _mm_min_pd(_mm_max_pd(a, zero), last);
  b = _mm_min_pd(_mm_max_pd(b, zero), last);
  int32_t ca[4], cb[4];
  _mm_storeu_si128((__m128i *)ca, _mm_cvttpd_epi32(a));
  _mm_storeu_si128((__m128i *)cb, _mm_cvttpd_epi32(b));
  dest[i] = (uint32_t)((size_t)ca[1] * (size_t)g->ncx + (size_t)ca[0]);
  dest[i + 1] = (uint32_t)((size_t)cb[1] * (size_t)g->ncx + (size_t)cb[0]);
  return 1;
}
#endif

void grid_buckets_of(const steer_grid *g, const double *x, const double *y,
                     size_t from, size_t to, uint32_t *dest) {
  size_t i = from;
#if defined(__SSE2__)
  /* the sort's key pass: a sparse crowd on a big level pays it per agent
     as much as a search's set-up */
  if (g->dense && g->mode != GRID_FREE)
    for (; i + 1 < to && dense_pair(g, x, y, i, dest); i += 2) {
    }
#endif
  for (; i < to; i++) dest[i] = (uint32_t)bucket_at(g, x[i], y[i]);
}

/* The lists, for the edits that change them (a sort leaves them unlinked) */
static void need_lists(steer_grid *g) {
  if (!g->linked) grid_link_sorted(g);
}

static void link(steer_grid *g, int32_t i, size_t b) {
  g->next[i] = g->heads[b];
  g->heads[b] = i;
}

/* Where the index of agent i is kept in bucket b's list: the head or its
   predecessor's next. */
static int32_t *link_to(steer_grid *g, int32_t i, size_t b) {
  int32_t *at = &g->heads[b];
  while (*at != i) {
    STEER_ASSERT(*at >= 0); /* agent i is in bucket b */
    at = &g->next[*at];
  }
  return at;
}

static void unlink_from(steer_grid *g, int32_t i, size_t b) {
  *link_to(g, i, b) = g->next[i];
}

void grid_insert(steer_grid *g, int32_t i, double x, double y) {
  need_lists(g);
  g->starts_current = 0;
  link(g, i, grid_bucket_of(g, x, y));
}

void grid_remove(steer_grid *g, int32_t i, double x, double y) {
  need_lists(g);
  g->starts_current = 0;
  unlink_from(g, i, grid_bucket_of(g, x, y));
}

/* Is (x, y) outside a hashed grid's box? Sorted walks (nearest.c) read
   only the box's cells, so leaving it counts as a move even when the new
   cell hashes to the old bucket. */
static int leaves_box(const steer_grid *g, double x, double y) {
  if (g->dense || g->box_w <= 0) return 0;
  int32_t cx, cy;
  grid_cell_of(g, x, y, &cx, &cy);
  return (uint32_t)(cx - g->box_x0) >= (uint32_t)g->box_w ||
         (uint32_t)(cy - g->box_y0) >= (uint32_t)g->box_h;
}

int grid_move(steer_grid *g, int32_t i, double ox, double oy, double nx,
              double ny) {
  size_t from = grid_bucket_of(g, ox, oy), to = grid_bucket_of(g, nx, ny);
  if (from == to) return leaves_box(g, nx, ny);
  need_lists(g);
  unlink_from(g, i, from);
  link(g, i, to);
  return 1;
}

void grid_relocate(steer_grid *g, int32_t from, int32_t to, double x,
                   double y) {
  need_lists(g);
  g->starts_current = 0;
  *link_to(g, from, grid_bucket_of(g, x, y)) = to;
  g->next[to] = g->next[from];
}

void grid_link_sorted(steer_grid *g) {
  for (size_t b = 0; b < g->buckets; b++) {
    int32_t from = (int32_t)g->starts[b], to = (int32_t)g->starts[b + 1];
    g->heads[b] = from < to ? from : -1;
    for (int32_t i = from; i < to; i++) g->next[i] = i + 1 < to ? i + 1 : -1;
  }
  g->linked = 1;
}

void grid_mark_sorted(steer_grid *g) {
  g->sorted = 1;
  g->linked = 0;
  g->starts_current = 1;
}

static size_t buckets_for(const steer_grid *g, size_t agents) {
  if (g->dense) return (size_t)g->ncx * (size_t)g->ncy;
  size_t b = MIN_BUCKETS;
  while (b < agents) b *= 2;
  return b;
}

steer_status grid_reserve(steer_grid *g, steer_allocator *a, size_t agents,
                          const double *x, const double *y, size_t count) {
  if (alloc_grow(a, (void **)&g->next, sizeof(int32_t), &g->agents_cap,
                 agents))
    return STEER_ENOMEM;
  size_t want = buckets_for(g, agents);
  if (want > g->buckets) {
    int32_t *heads = alloc_bytes(a, NULL, 0, want * sizeof(int32_t));
    uint32_t *starts =
        heads ? alloc_bytes(a, NULL, 0, (want + 1) * sizeof(uint32_t)) : NULL;
    if (!starts) {
      alloc_bytes(a, heads, want * sizeof(int32_t), 0);
      return STEER_ENOMEM;
    }
    alloc_bytes(a, g->heads, g->buckets * sizeof(int32_t), 0);
    alloc_bytes(a, g->starts, (g->buckets + 1) * sizeof(uint32_t), 0);
    g->heads = heads;
    g->starts = starts;
    g->buckets = want;
    g->starts_current = 0;
    grid_relink(g, x, y, count); /* every bucket moved */
  }
  return STEER_OK;
}

void grid_relink(steer_grid *g, const double *x, const double *y,
                 size_t count) {
  for (size_t b = 0; b < g->buckets; b++) g->heads[b] = -1;
  for (size_t i = count; i-- > 0;)
    link(g, (int32_t)i, grid_bucket_of(g, x[i], y[i]));
  g->sorted = 0;
  g->linked = 1;
}

/* ---- queries ---------------------------------------------------------- */

/* The cells [lo, lo + count) along one axis that a disc's extent touches.
   A little slack absorbs rounding, so no agent within the radius is missed. */
static void axis_range(const steer_grid *g, double v, double r, double inv,
                       int32_t n, int32_t *lo, int32_t *count) {
  double slack = 1e-9 * (1.0 + fabs(v * inv) + r * inv);
  double a = floor((v - r) * inv - slack), b = floor((v + r) * inv + slack);
  if (g->mode == GRID_FREE) {
    a = clampd(a, -GRID_FREE_CELL_LIMIT, GRID_FREE_CELL_LIMIT);
    b = clampd(b, -GRID_FREE_CELL_LIMIT, GRID_FREE_CELL_LIMIT);
  } else if (g->mode == GRID_CLAMP || b - a + 1 >= n) {
    /* clamped, or a torus query that wraps all the way round */
    a = g->mode == GRID_WRAP ? 0 : clampd(a, 0, n - 1);
    b = g->mode == GRID_WRAP ? n - 1 : clampd(b, 0, n - 1);
  } else { /* a torus range narrower than the world, perhaps far outside it:
              start it in [0, n) so the cell numbers fit an int32 */
    double shift = n * floor(a / n);
    a -= shift;
    b -= shift;
  }
  *lo = (int32_t)a;
  *count = (int32_t)(b - a + 1);
}

static int32_t wrap_cell(int32_t c, int32_t n) {
  c %= n;
  return c < 0 ? c + n : c;
}

void grid_cursor_init(grid_cursor *c, const steer_grid *g, const double *x,
                      const double *y, size_t n, double qx, double qy,
                      double radius) {
  c->g = g;
  c->x = x;
  c->y = y;
  c->n = n;
  c->agent = -1;
  c->cell = 0;
  axis_range(g, qx, radius, g->inv_x, g->ncx, &c->x0, &c->nx);
  axis_range(g, qy, radius, g->inv_y, g->ncy, &c->y0, &c->ny);
  /* opening more cells than there are agents costs more than a scan */
  c->all = g->buckets == 0 || (double)c->nx * c->ny > (double)n + 8;
}

int32_t grid_cursor_next(grid_cursor *c) {
  const steer_grid *g = c->g;
  if (c->all) {
    if ((size_t)c->cell >= c->n) return -1;
    return (int32_t)c->cell++;
  }
  for (;;) {
    while (c->agent >= 0) {
      int32_t i = c->agent;
      if (g->linked)
        c->agent = g->next[i];
      else /* a sorted grid's bucket: a run of indices, the lists' order */
        c->agent = i + 1 < c->end ? i + 1 : -1;
      if (!g->dense) { /* the bucket may hold other cells too */
        int32_t cx, cy;
        grid_cell_of(g, c->x[i], c->y[i], &cx, &cy);
        if (cx != c->cx || cy != c->cy) continue;
      }
      return i;
    }
    if (c->cell >= (int64_t)c->nx * c->ny) return -1;
    c->cx = c->x0 + (int32_t)(c->cell % c->nx);
    c->cy = c->y0 + (int32_t)(c->cell / c->nx);
    c->cell++;
    if (g->mode == GRID_WRAP) {
      c->cx = wrap_cell(c->cx, g->ncx);
      c->cy = wrap_cell(c->cy, g->ncy);
    }
    size_t b = bucket_of_cell(g, c->cx, c->cy);
    if (g->linked) {
      c->agent = g->heads[b];
    } else {
      c->agent = g->starts[b] < g->starts[b + 1] ? (int32_t)g->starts[b] : -1;
      c->end = (int32_t)g->starts[b + 1];
    }
  }
}

/* ---- runs of a sorted grid ------------------------------------------------ */

int grid_runs_init(grid_runs *r, const steer_grid *g, size_t n, double qx,
                   double qy, double radius) {
  if (!g->sorted || g->buckets == 0 || (!g->dense && g->box_w <= 0)) return 0;
  r->g = g;
  r->n = n;
  r->row = 0;
  r->part = 0;
  axis_range(g, qx, radius, g->inv_x, g->ncx, &r->x0, &r->nx);
  axis_range(g, qy, radius, g->inv_y, g->ncy, &r->y0, &r->ny);
  r->all = (double)r->nx * r->ny > (double)n + 8; /* as the cursor decides */
  return 1;
}

int grid_runs_next(grid_runs *r, size_t *from, size_t *to) {
  const steer_grid *g = r->g;
  if (r->all) {
    if (r->row++ > 0) return 0;
    *from = 0;
    *to = r->n;
    return 1;
  }
  if (r->row >= r->ny) return 0;
  int32_t cy = r->y0 + r->row, c0 = r->x0, c1 = r->x0 + r->nx - 1;
  *from = *to = 0;
  if (g->dense) {
    if (g->mode == GRID_WRAP) { /* x0 lies in 0..ncx-1: a row wraps once */
      cy = wrap_cell(cy, g->ncy);
      if (r->part) {
        c0 = 0;
        c1 -= g->ncx;
      } else if (c1 >= g->ncx) {
        c1 = g->ncx - 1;
        r->part = 1; /* the row's wrapped part comes next */
        size_t base = (size_t)cy * (size_t)g->ncx;
        *from = g->starts[base + (size_t)c0];
        *to = g->starts[base + (size_t)c1 + 1];
        return 1;
      }
    }
    size_t base = (size_t)cy * (size_t)g->ncx;
    *from = g->starts[base + (size_t)c0];
    *to = g->starts[base + (size_t)c1 + 1];
  } else { /* the box's part of the row: cells outside it hold nobody */
    int32_t b0 = g->box_x0, b1 = g->box_x0 + g->box_w - 1;
    c0 = c0 < b0 ? b0 : c0;
    c1 = c1 > b1 ? b1 : c1;
    if ((uint32_t)(cy - g->box_y0) < (uint32_t)g->box_h && c0 <= c1) {
      size_t base = (size_t)(cy - g->box_y0) * (size_t)g->box_w - (size_t)b0;
      *from = g->starts[base + (size_t)c0];
      *to = g->starts[base + (size_t)c1 + 1];
    }
  }
  r->part = 0;
  r->row++;
  return 1;
}
