/* contain_index.c - a contain region's edges bucketed twice (contain.h):
   into horizontal bands for the inside test, whose horizontal ray then
   needs exactly one band, and into a grid for the feeler, which then looks
   at the edges near it only. An arena of 4,096 edges answers as fast as a
   box. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "contain.h"
#include "vec.h"

#define CELLS_MAX 1024 /* per axis */
/* beyond this many entries per edge (long edges listed in many cells),
   fewer cells */
#define ENTRIES_PER_EDGE 8

long contain_cell(const contain_cells *c, int axis, double v) {
  if (v != v) return -1;
  double inv = axis ? c->inv_h : c->inv_w;
  uint32_t count = axis ? c->rows : c->cols;
  if (inv == 0) return 0;
  /* the origin and inv are finite here; monotone in v, so floor keeps
     order */
  double t = (v - (axis ? c->y0 : c->x0)) * inv;
  if (!(t >= 1)) return 0;
  if (t >= count) return (long)count - 1;
  return (long)t;
}

/* The cells edge e's box meets, as column and row ranges (every cell when
   a coordinate is not a number). */
static void edge_cells(const contain_cells *c, const steer_vec2 *pts,
                       size_t n, size_t e, long r[4]) {
  steer_vec2 a = pts[e], b = pts[(e + 1) % n];
  r[0] = contain_cell(c, 0, fmin(a.x, b.x));
  r[1] = contain_cell(c, 0, fmax(a.x, b.x));
  r[2] = contain_cell(c, 1, fmin(a.y, b.y));
  r[3] = contain_cell(c, 1, fmax(a.y, b.y));
  if (r[0] < 0 || r[1] < 0) r[0] = 0, r[1] = (long)c->cols - 1;
  if (r[2] < 0 || r[3] < 0) r[2] = 0, r[3] = (long)c->rows - 1;
}

/* The entries the edges take (each cell's count added to count[cell + 1]
   when count is not NULL). */
static size_t entries_for(const contain_cells *c, const steer_vec2 *pts,
                          size_t n, uint32_t *count) {
  size_t total = 0;
  for (size_t e = 0; e < n; e++) {
    long r[4];
    edge_cells(c, pts, n, e, r);
    total += (size_t)(r[1] - r[0] + 1) * (size_t)(r[3] - r[2] + 1);
    if (count)
      for (long cy = r[2]; cy <= r[3]; cy++)
        for (long cx = r[0]; cx <= r[1]; cx++) count[cy * (long)c->cols + cx + 1]++;
  }
  return total;
}

/* cells across a span: inv = cells / span, or one cell (inv 0) for a flat,
   huge or not finite span */
static void set_axis(double span, uint32_t cells, double *inv, uint32_t *count) {
  *inv = cells / span;
  *count = cells;
  if (!(*inv > 0 && *inv < INFINITY) || cells <= 1) *inv = 0, *count = 1;
}

static void *take(size_t bytes) { return steer_alloc(NULL, 0, bytes); }

/* Buckets the edges into c (origin set) with about cols x rows cells,
   fewer while the edges would take more than ENTRIES_PER_EDGE entries
   each. 0 when memory runs out. */
static int bucket(contain_cells *c, const steer_vec2 *pts, size_t n,
                  double w, double h, uint32_t cols, uint32_t rows) {
  size_t total;
  for (;;) {
    set_axis(w, cols, &c->inv_w, &c->cols);
    set_axis(h, rows, &c->inv_h, &c->rows);
    total = entries_for(c, pts, n, NULL);
    if ((c->cols == 1 && c->rows == 1) || total <= ENTRIES_PER_EDGE * n + 64)
      break;
    cols = (cols + 1) / 2;
    rows = (rows + 1) / 2;
  }
  size_t cells = (size_t)c->cols * c->rows;
  c->start = take((cells + 1) * sizeof *c->start);
  if (!c->start) return 0;
  c->edge = total <= UINT32_MAX ? take(total * sizeof *c->edge) : NULL;
  if (!c->edge) return 0;
  memset(c->start, 0, (cells + 1) * sizeof *c->start);
  entries_for(c, pts, n, c->start); /* counts, shifted one cell */
  for (size_t k = 0; k < cells; k++) c->start[k + 1] += c->start[k];
  /* each cell filled in edge order: start[k] runs ahead, then steps back */
  for (size_t e = 0; e < n; e++) {
    long r[4];
    edge_cells(c, pts, n, e, r);
    for (long cy = r[2]; cy <= r[3]; cy++)
      for (long cx = r[0]; cx <= r[1]; cx++)
        c->edge[c->start[cy * (long)c->cols + cx]++] = (uint32_t)e;
  }
  for (size_t k = cells; k > 0; k--) c->start[k] = c->start[k - 1];
  c->start[0] = 0;
  return 1;
}

static void free_cells(contain_cells *c) {
  size_t cells = (size_t)c->cols * c->rows;
  /* edge is only taken after start, and filled at once */
  if (c->edge) steer_alloc(c->edge, c->start[cells] * sizeof *c->edge, 0);
  if (c->start) steer_alloc(c->start, (cells + 1) * sizeof *c->start, 0);
}

contain_index *contain_index_build(const steer_vec2 *pts, size_t n) {
  if (n == 0 || n > UINT32_MAX / ENTRIES_PER_EDGE) return NULL;
  contain_index *x = take(sizeof *x);
  if (!x) return NULL;
  memset(x, 0, sizeof *x);
  x->n = n;
  x->unit = take(n * sizeof *x->unit);
  if (!x->unit) {
    contain_index_free(x);
    return NULL;
  }
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, length = 0;
  for (size_t e = 0; e < n; e++) {
    steer_vec2 d = v2_sub(pts[(e + 1) % n], pts[e]);
    x->unit[e] = contain_unit(d);
    length += fabs(d.x) + fabs(d.y);
    x0 = fmin(x0, pts[e].x), x1 = fmax(x1, pts[e].x);
    y0 = fmin(y0, pts[e].y), y1 = fmax(y1, pts[e].y);
  }
  double w = x1 - x0, h = y1 - y0;
  x->bands.x0 = x->grid.x0 = x0;
  x->bands.y0 = x->grid.y0 = y0;
  /* the feeler's cells: about two edges across (so a cell on the rim holds
     a few), at most 16 n cells and CELLS_MAX per axis */
  double side = fmax(2 * length / (double)n, sqrt(w * h / (16.0 * (double)n)));
  side = fmax(side, fmax(w, h) / CELLS_MAX);
  double cols = ceil(w / side), rows = ceil(h / side);
  int built = bucket(&x->bands, pts, n, w, h, 1,
                     n < CELLS_MAX * 4 ? (uint32_t)n : CELLS_MAX * 4) &&
              bucket(&x->grid, pts, n, w, h,
                     cols >= 1 && cols <= CELLS_MAX ? (uint32_t)cols : 1,
                     rows >= 1 && rows <= CELLS_MAX ? (uint32_t)rows : 1);
  if (!built) {
    contain_index_free(x);
    return NULL;
  }
  return x;
}

void contain_index_free(contain_index *x) {
  if (!x) return;
  free_cells(&x->bands);
  free_cells(&x->grid);
  if (x->unit) steer_alloc(x->unit, x->n * sizeof *x->unit, 0);
  steer_alloc(x, sizeof *x, 0);
}
