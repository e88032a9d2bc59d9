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
   0 when none (off a torus: outside the grid). */
static int axis_cells(int wrap, double origin, double inv, int32_t cells,
                      double v0, double v1, int32_t *lo, int32_t *n) {
  double a = floor((v0 - origin) * inv), b = floor((v1 - origin) * inv);
  if (!(a <= b)) return 0; /* NaN */
  if (wrap) {
    if (b - a + 1 >= cells) {
      *lo = 0;
      *n = cells;
      return 1;
    }
    double first = fmod(a, cells);
    if (first < 0) first += cells;
    *lo = (int32_t)first;
    *n = (int32_t)(b - a + 1);
    return 1;
  }
  if (b < 0 || a >= cells) return 0;
  a = a < 0 ? 0 : a;
  b = b >= cells ? cells - 1 : b;
  *lo = (int32_t)a;
  *n = (int32_t)(b - a + 1);
  return 1;
}

/* Item k's cells: its box grown by the reach and by slack against the
   rounding of the queries' points and floors. */
static int item_cells(const geo_halo *h, geo_box b, double slack,
                      int32_t r[4]) {
  double g = h->reach + slack;
  return axis_cells(h->wrap, h->ox, h->inv_x, h->ncx, b.x0 - g, b.x1 + g,
                    &r[0], &r[1]) &&
         axis_cells(h->wrap, h->oy, h->inv_y, h->ncy, b.y0 - g, b.y1 + g,
                    &r[2], &r[3]);
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
                       const void *owner, int32_t (*span)[4], double slack) {
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
   taken in place order so that a run's shapes are in memory order. */
static int fill_runs(geo_halo *h, steer_allocator *a, size_t n,
                     const int32_t (*span)[4]) {
  size_t cells = (size_t)h->ncx * (size_t)h->ncy;
  h->small = cells < ((size_t)1 << 31);
  memset(h->start, 0, (cells + 1) * sizeof(uint32_t));
  size_t total = 0;
  for (size_t at = 0; at < n; at++) {
    const int32_t *r = span[h->item[at]];
    total += (size_t)r[1] * (size_t)r[3];
    EACH_CELL(h, r, h->start[c + 1]++);
  }
  for (size_t c = 0; c < cells; c++) h->start[c + 1] += h->start[c];
  if (!room(a, (void **)&h->ref, sizeof(uint32_t), &h->ref_cap, total,
            GEO_POOL_PAD))
    return 0;
  /* start[c] walks up to start[c + 1]'s old value, then is put back */
  for (size_t at = 0; at < n; at++) {
    const int32_t *r = span[h->item[at]];
    EACH_CELL(h, r, h->ref[h->start[c]++] = (uint32_t)at);
  }
  for (size_t c = cells; c > 0; c--) h->start[c] = h->start[c - 1];
  h->start[0] = 0;
  return 1;
}

int geo_halo_build(geo_halo *h, steer_allocator *a, size_t n,
                   geo_halo_item_fn item, const void *owner, double reach,
                   double cell, int wrap, double width, double height) {
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
  size_t spans = (n ? n : 1) * sizeof(int32_t[4]);
  int32_t (*span)[4] = mem(a, NULL, 0, spans);
  if (!span) return 0;
  int ok = room(a, (void **)&h->start, sizeof(uint32_t), &h->start_cap,
                cells + 1, 0) &&
           room(a, (void **)&h->shape, sizeof *h->shape, &h->shape_cap,
                n ? n : 1, 0) &&
           room(a, (void **)&h->item, sizeof(int32_t), &h->item_cap,
                n ? n : 1, 0) &&
           place_items(h, n, item, owner, span, slack) &&
           fill_runs(h, a, n, (const int32_t(*)[4])span);
  mem(a, span, spans, 0);
  if (!ok) return 0;
  h->live = 1;
  return 1;
}
