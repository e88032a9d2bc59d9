/* contain_index.c - a contain region's edges sorted into horizontal bands
   (contain.h), so that the inside test and the feeler look at the edges
   near the agent's y only. Bands rather than a grid: the inside test's
   horizontal ray then needs exactly one band, and a region (an arena, a
   room) has few edges at any one height. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "contain.h"
#include "vec.h"

#define BANDS_MAX 4096
/* beyond this many band entries per edge (tall edges listed in many
   bands), fewer bands */
#define ENTRIES_PER_EDGE 8

long contain_band(const contain_index *x, double y) {
  if (y != y) return -1;
  if (x->inv_h == 0) return 0;
  /* y0 and inv_h are finite here; monotone in y, so floor keeps order */
  double t = (y - x->y0) * x->inv_h;
  if (!(t >= 1)) return 0;
  if (t >= x->bands) return (long)x->bands - 1;
  return (long)t;
}

/* The band entries the edges take (each band's count added to count[k]
   when count is not NULL). */
static size_t entries_for(contain_index *x, const steer_vec2 *pts,
                          size_t n, uint32_t *count) {
  size_t total = 0;
  for (size_t e = 0; e < n; e++) {
    steer_vec2 a = pts[e], b = pts[(e + 1) % n];
    long lo = contain_band(x, fmin(a.y, b.y)), hi = contain_band(x, fmax(a.y, b.y));
    if (lo < 0 || hi < 0) lo = 0, hi = (long)x->bands - 1;
    total += (size_t)(hi - lo + 1);
    if (count)
      for (long k = lo; k <= hi; k++) count[k]++;
  }
  return total;
}

static void *take(size_t bytes) { return steer_alloc(NULL, 0, bytes); }

contain_index *contain_index_build(const steer_vec2 *pts, size_t n) {
  if (n == 0 || n > UINT32_MAX) return NULL;
  contain_index *x = take(sizeof *x);
  if (!x) return NULL;
  memset(x, 0, sizeof *x);
  x->n = n;
  x->unit = take(n * sizeof *x->unit);
  if (!x->unit) {
    contain_index_free(x);
    return NULL;
  }
  double y0 = INFINITY, y1 = -INFINITY;
  for (size_t e = 0; e < n; e++) {
    x->unit[e] = contain_unit(v2_sub(pts[(e + 1) % n], pts[e]));
    y0 = fmin(y0, pts[e].y);
    y1 = fmax(y1, pts[e].y);
  }
  x->y0 = y0;
  x->bands = n < BANDS_MAX ? (uint32_t)n : BANDS_MAX;
  for (;;) {
    x->inv_h = x->bands / (y1 - y0);
    if (!(x->inv_h > 0 && x->inv_h < INFINITY) || x->bands == 1) {
      x->bands = 1; /* flat, huge or not finite: one band */
      x->inv_h = 0;
      break;
    }
    if (entries_for(x, pts, n, NULL) <= ENTRIES_PER_EDGE * n) break;
    x->bands /= 2;
  }
  size_t total = entries_for(x, pts, n, NULL);
  x->start = take((x->bands + 1) * sizeof *x->start);
  x->edge = total <= UINT32_MAX ? take(total * sizeof *x->edge) : NULL;
  if (!x->start || !x->edge) {
    contain_index_free(x);
    return NULL;
  }
  memset(x->start, 0, (x->bands + 1) * sizeof *x->start);
  entries_for(x, pts, n, x->start + 1); /* counts, shifted one band */
  for (uint32_t k = 0; k < x->bands; k++) x->start[k + 1] += x->start[k];
  /* fill each band in edge order: start[k] runs ahead, then steps back */
  for (size_t e = 0; e < n; e++) {
    steer_vec2 a = pts[e], b = pts[(e + 1) % n];
    long lo = contain_band(x, fmin(a.y, b.y)), hi = contain_band(x, fmax(a.y, b.y));
    if (lo < 0 || hi < 0) lo = 0, hi = (long)x->bands - 1;
    for (long k = lo; k <= hi; k++) x->edge[x->start[k]++] = (uint32_t)e;
  }
  for (uint32_t k = x->bands; k > 0; k--) x->start[k] = x->start[k - 1];
  x->start[0] = 0;
  return x;
}

void contain_index_free(contain_index *x) {
  if (!x) return;
  size_t total = x->start ? x->start[x->bands] : 0;
  if (x->edge) steer_alloc(x->edge, total * sizeof *x->edge, 0);
  if (x->start) steer_alloc(x->start, (x->bands + 1) * sizeof *x->start, 0);
  if (x->unit) steer_alloc(x->unit, x->n * sizeof *x->unit, 0);
  steer_alloc(x, sizeof *x, 0);
}
