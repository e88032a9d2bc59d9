/* geo_halo.c - per cell candidate runs for feelers (geo_halo.h). */
#include <math.h>
#include <string.h>
#include "geo_halo.h"

#define HALO_CELLS_MIN 4096  /* a grid may always have this many cells */
#define HALO_CELLS_PER_ITEM 8
#define HALO_ENTRIES_PER_ITEM 64 /* more: the index serves better */

static void *mem(steer_allocator *a, void *p, size_t o, size_t n) {
  return alloc_bytes(a, p, o, n);
}

void geo_halo_free(geo_halo *h, steer_allocator *a) {
  mem(a, h->start, h->start_cap * sizeof(uint32_t), 0);
  if (h->ref) mem(a, h->ref, (h->ref_cap + GEO_POOL_PAD) * sizeof(uint32_t), 0);
  mem(a, h->shape, h->shape_cap * sizeof *h->shape, 0);
  mem(a, h->item, h->item_cap * sizeof(int32_t), 0);
  double want = h->want;
  memset(h, 0, sizeof *h);
  h->want = want;
}

/* Makes *p hold n elements of `size` bytes (+ pad zeroed ones): 0 when out
   of memory (*p and *cap unchanged). */
static int room(steer_allocator *a, void **p, size_t size, size_t *cap,
                size_t n, size_t pad) {
  if (n <= *cap && *p) {
    memset((char *)*p + n * size, 0, pad * size);
    return 1;
  }
  void *q = mem(a, *p, *p ? (*cap + pad) * size : 0, (n + pad) * size);
  if (!q) return 0;
  *p = q;
  *cap = n;
  memset((char *)q + n * size, 0, pad * size);
  return 1;
}

/* The cells [*lo, *lo + *n) of [v0, v1] along an axis of `cells` cells of
   1 / inv from `origin` (wrap: modulo the axis, all of it at most once);
   0 when none (off a torus: outside the grid). *u: the first cell's number
   before wrapping (its edges are in v0's coordinates), HALO_UNWRAPPED_NONE
   when the cells cannot be told apart that way (the whole axis, or too far
   off the torus for an int32). */
#define HALO_UNWRAPPED_NONE INT32_MIN
static int axis_cells(int wrap, double origin, double inv, int32_t cells,
                      double v0, double v1, int32_t *lo, int32_t *n,
                      int32_t *u) {
  double a = floor((v0 - origin) * inv), b = floor((v1 - origin) * inv);
  if (!(a <= b)) return 0; /* NaN */
  if (wrap) {
    if (b - a + 1 >= cells) {
      *lo = 0;
      *n = cells;
      *u = HALO_UNWRAPPED_NONE;
      return 1;
    }
    double first = fmod(a, cells);
    if (first < 0) first += cells;
    *lo = (int32_t)first;
    *n = (int32_t)(b - a + 1);
    *u = fabs(a) < 4.0 * cells ? (int32_t)a : HALO_UNWRAPPED_NONE;
    return 1;
  }
  if (b < 0 || a >= cells) return 0;
  a = a < 0 ? 0 : a;
  b = b >= cells ? cells - 1 : b;
  *lo = (int32_t)a;
  *n = (int32_t)(b - a + 1);
  *u = *lo;
  return 1;
}

/* Item k's cells: its box grown by the reach and by slack against the
   rounding of the queries' points and floors. r: x's first cell and
   count, y's, then x's and y's first cell unwrapped (axis_cells). */
static int item_cells(const geo_halo *h, geo_box b, double slack,
                      int32_t r[6]) {
  double g = h->reach + slack;
  return axis_cells(h->wrap, h->ox, h->inv_x, h->ncx, b.x0 - g, b.x1 + g,
                    &r[0], &r[1], &r[4]) &&
         axis_cells(h->wrap, h->oy, h->inv_y, h->ncy, b.y0 - g, b.y1 + g,
                    &r[2], &r[3], &r[5]);
}

/* Squared distance from (px, py) to the rectangle [x0, x1] x [y0, y1]. */
static double rect_dist2(double px, double py, const double c[4]) {
  double dx = fmax(fmax(c[0] - px, px - c[2]), 0);
  double dy = fmax(fmax(c[1] - py, py - c[3]), 0);
  return dx * dx + dy * dy;
}

/* Squared distance from (px, py) to the segment a b. */
static double segment_dist2(double px, double py, double ax, double ay,
                            double bx, double by) {
  double lx = bx - ax, ly = by - ay, l2 = lx * lx + ly * ly;
  double t = l2 > 0 ? ((px - ax) * lx + (py - ay) * ly) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double dx = ax + lx * t - px, dy = ay + ly * t - py;
  return dx * dx + dy * dy;
}

/* Is the shape v (a segment's ends, or a disc's centre and radius) within
   g of the rectangle c ([x0, y0, x1, y1])? A query whose point lies in the
   rectangle can meet the shape only then: a disc's centre within its
   radius + g; a segment that crosses the rectangle, or else (two convex
   shapes apart) has its nearest pair at an end or a corner. Unsure (NaN):
   yes. */
static int near_rect(geo_halo_shape kind, const double v[4], const double c[4],
                     double g) {
  if (kind == GEO_HALO_DISC) {
    double r = v[2] + g;
    return !(rect_dist2(v[0], v[1], c) > r * r);
  }
  double ax = v[0], ay = v[1], bx = v[2], by = v[3], g2 = g * g;
  if (!(rect_dist2(ax, ay, c) > g2) || !(rect_dist2(bx, by, c) > g2))
    return 1;
  double lx = bx - ax, ly = by - ay;
  int above = 0, below = 0;
  for (int k = 0; k < 4; k++) {
    double px = c[k & 1 ? 2 : 0], py = c[k & 2 ? 3 : 1];
    if (!(segment_dist2(px, py, ax, ay, bx, by) > g2)) return 1;
    double side = lx * (py - ay) - ly * (px - ax);
    above += side > 0;
    below += side < 0;
  }
  /* both ends outside the rectangle: the segment crosses it when its box
     meets the rectangle and its line parts the corners */
  int boxes = fmin(ax, bx) <= c[2] && fmax(ax, bx) >= c[0] &&
              fmin(ay, by) <= c[3] && fmax(ay, by) >= c[1];
  return boxes && above < 4 && below < 4;
}

/* Does item v (cells r, item_cells) belong in its cell (ii, jj) of r, its
   shape within reach g of the cell? Cells are told apart in the item's own
   coordinates (r[4], r[5]); when they cannot be, every cell of r. */
static int in_cell(const geo_halo *h, geo_halo_shape kind, const double v[4],
                   const int32_t r[6], int32_t ii, int32_t jj, double g) {
  if (r[4] == HALO_UNWRAPPED_NONE || r[5] == HALO_UNWRAPPED_NONE) return 1;
  double i = (double)r[4] + ii, j = (double)r[5] + jj;
  double c[4] = {h->ox + i / h->inv_x, h->oy + j / h->inv_y,
                 h->ox + (i + 1) / h->inv_x, h->oy + (j + 1) / h->inv_y};
  return near_rect(kind, v, c, g);
}

/* Calls fn(h, c, ctx) for each cell of r (taken into the torus). */
#define EACH_CELL(h, r, body)                                                \
  for (int32_t jj = 0; jj < (r)[3]; jj++) {                                  \
    int32_t cy = (r)[2] + jj;                                                \
    if (cy >= (h)->ncy) cy -= (h)->ncy;                                      \
    for (int32_t ii = 0; ii < (r)[1]; ii++) {                                \
      int32_t cx = (r)[0] + ii;                                              \
      if (cx >= (h)->ncx) cx -= (h)->ncx;                                    \
      size_t c = (size_t)cy * (size_t)(h)->ncx + (size_t)cx;                 \
      body;                                                                  \
    }                                                                        \
  }

/* Each item's cells (span[k]; span[k][1] == 0: none), and the items in
   the order of their cells' centre (row by row), so that a run's shapes
   sit near each other: h->item and h->shape the items and their numbers
   in that order. */
static int place_items(geo_halo *h, size_t n, geo_halo_item_fn item,
                       const void *owner, int32_t (*span)[6], double slack) {
  size_t cells = (size_t)h->ncx * (size_t)h->ncy;
  h->small = cells < ((size_t)1 << 31);
  double total = 0, most = (double)n * HALO_ENTRIES_PER_ITEM + 65536;
  if (most > (double)UINT32_MAX - 16) most = (double)UINT32_MAX - 16;
  memset(h->start, 0, (cells + 1) * sizeof(uint32_t));
  for (size_t k = 0; k < n; k++) {
    geo_box b;
    double v[4];
    int32_t *r = span[k];
    item(owner, k, &b, v);
    if (!item_cells(h, b, slack, r)) {
      r[0] = r[2] = 0;
      r[1] = r[3] = 0;
    }
    total += (double)r[1] * r[3];
    if (total > most) return 0;
    int32_t cx = r[0] + r[1] / 2, cy = r[2] + r[3] / 2;
    cx -= cx >= h->ncx ? h->ncx : 0;
    cy -= cy >= h->ncy ? h->ncy : 0;
    h->start[(size_t)cy * (size_t)h->ncx + (size_t)cx + 1]++;
  }
  for (size_t c = 0; c < cells; c++) h->start[c + 1] += h->start[c];
  for (size_t k = 0; k < n; k++) {
    const int32_t *r = span[k];
    int32_t cx = r[0] + r[1] / 2, cy = r[2] + r[3] / 2;
    cx -= cx >= h->ncx ? h->ncx : 0;
    cy -= cy >= h->ncy ? h->ncy : 0;
    uint32_t at = h->start[(size_t)cy * (size_t)h->ncx + (size_t)cx]++;
    h->item[at] = (int32_t)k;
    geo_box b;
    item(owner, k, &b, h->shape[at]);
  }
  return 1;
}

/* Each cell's run of places (counting sort: count, then place), the items
   taken in place order so that a run's shapes are in memory order; an item
   only in the cells of its span its shape is within g of (in_cell). */
static int fill_runs(geo_halo *h, steer_allocator *a, size_t n,
                     const int32_t (*span)[6], geo_halo_shape kind,
                     double g) {
  size_t cells = (size_t)h->ncx * (size_t)h->ncy;
  h->small = cells < ((size_t)1 << 31);
  memset(h->start, 0, (cells + 1) * sizeof(uint32_t));
  size_t total = 0;
  for (size_t at = 0; at < n; at++) {
    const int32_t *r = span[h->item[at]];
    EACH_CELL(h, r, if (in_cell(h, kind, h->shape[at], r, ii, jj, g)) {
      h->start[c + 1]++;
      total++;
    });
  }
  for (size_t c = 0; c < cells; c++) h->start[c + 1] += h->start[c];
  if (!room(a, (void **)&h->ref, sizeof(uint32_t), &h->ref_cap, total,
            GEO_POOL_PAD))
    return 0;
  /* start[c] walks up to start[c + 1]'s old value, then is put back */
  for (size_t at = 0; at < n; at++) {
    const int32_t *r = span[h->item[at]];
    EACH_CELL(h, r, if (in_cell(h, kind, h->shape[at], r, ii, jj, g))
                      h->ref[h->start[c]++] = (uint32_t)at);
  }
  for (size_t c = cells; c > 0; c--) h->start[c] = h->start[c - 1];
  h->start[0] = 0;
  return 1;
}

int geo_halo_build(geo_halo *h, steer_allocator *a, size_t n,
                   geo_halo_item_fn item, geo_halo_shape kind,
                   const void *owner, double reach, double cell, int wrap,
                   double width, double height) {
  h->live = 0;
  h->wrap = wrap;
  h->reach = reach;
  double limit = n * (double)HALO_CELLS_PER_ITEM;
  if (limit < HALO_CELLS_MIN) limit = HALO_CELLS_MIN;
  /* the extent the slack is relative to */
  double extent = 0;
  if (wrap) {
    if (width / cell * (height / cell) > limit)
      cell = sqrt(width * height / limit);
    /* a needle torus (one side far longer than the other) would need more
       cells along it than an int holds: give up, the index answers */
    if (!(width / cell < 1e6 && height / cell < 1e6)) return 0;
    double nx = floor(width / cell), ny = floor(height / cell);
    h->ncx = (int32_t)(nx < 1 ? 1 : nx);
    h->ncy = (int32_t)(ny < 1 ? 1 : ny);
    h->inv_x = h->ncx / width;
    h->inv_y = h->ncy / height;
    h->ox = h->oy = 0;
    extent = width + height;
  } else {
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < n; k++) {
      geo_box b;
      double v[4];
      item(owner, k, &b, v);
      x0 = fmin(x0, b.x0);
      y0 = fmin(y0, b.y0);
      x1 = fmax(x1, b.x1);
      y1 = fmax(y1, b.y1);
    }
    if (!(x0 <= x1 && y0 <= y1)) return 0;
    extent = fmax(fmax(fabs(x0), fabs(x1)), fmax(fabs(y0), fabs(y1)));
    double g = reach * 2 + 1e-6 * (1 + extent);
    double w = x1 - x0 + 2 * g, t = y1 - y0 + 2 * g;
    if (w / cell * (t / cell) > limit) cell = sqrt(w * t / limit);
    if (!(w / cell < 1e6 && t / cell < 1e6)) return 0;
    h->ox = x0 - g;
    h->oy = y0 - g;
    h->ncx = (int32_t)floor(w / cell) + 1;
    h->ncy = (int32_t)floor(t / cell) + 1;
    h->inv_x = h->inv_y = 1 / cell;
  }
  double slack = 1e-9 * (1 + reach + extent);
  size_t cells = (size_t)h->ncx * (size_t)h->ncy;
  h->small = cells < ((size_t)1 << 31);
  size_t spans = (n ? n : 1) * sizeof(int32_t[6]);
  int32_t (*span)[6] = mem(a, NULL, 0, spans);
  if (!span) return 0;
  int ok = room(a, (void **)&h->start, sizeof(uint32_t), &h->start_cap,
                cells + 1, 0) &&
           room(a, (void **)&h->shape, sizeof *h->shape, &h->shape_cap,
                n ? n : 1, 0) &&
           room(a, (void **)&h->item, sizeof(int32_t), &h->item_cap,
                n ? n : 1, 0) &&
           place_items(h, n, item, owner, span, slack) &&
           fill_runs(h, a, n, (const int32_t(*)[6])span, kind,
                     reach + slack);
  mem(a, span, spans, 0);
  if (!ok) return 0;
  h->live = 1;
  return 1;
}
