/* geo_halo.h - per cell, the items any feeler from that cell can meet
 * (internal).
 *
 * A feeler query in a geo_index works out a cell range, looks up one to four
 * cells and passes over the entries it met in an earlier cell: a fixed cost
 * per query even when nothing is near. A halo keeps, for each cell of a
 * uniform grid, every item whose shape comes within `reach` of the cell, in
 * one contiguous run: a query whose box lies within `reach` of a point needs
 * the point's cell (a floor per axis), one run, no dedup. Runs are longer
 * than a geo_index cell's (the reach is in them).
 *
 * It is a cache of the owner's shapes, built whole (geo_halo_build) in a
 * serial phase and dropped (geo_halo_drop) whenever a shape changes;
 * queries read it only while it is live. Queries that find it missing or too
 * short record the reach they wanted (geo_halo_want, safe from any thread),
 * and the owner builds it for that reach before the next step.
 */
#ifndef STEER_GEO_HALO_H
#define STEER_GEO_HALO_H

#include "geo_index.h"

typedef struct geo_halo {
  int live;            /* built for the current shapes */
  int calm;            /* the shapes have not changed since the last
                          geo_halo_settle: a level edited every step never
                          pays for a build */
  int tried;           /* the first build was tried (geometry_after_step):
                          later ones wait for calm shapes */
  int wrap;            /* cells tile the torus width x height */
  double reach;        /* what the runs cover around each cell */
  double want;         /* the reach queries asked for (geo_halo_want) */
  double ox, oy;       /* off a torus: the grid's corner */
  double inv_x, inv_y; /* cells per unit length */
  int32_t ncx, ncy;
  int small;           /* a cell's number fits an int32 (the lanes') */
  uint32_t *start;     /* cell c's run: ref[start[c] .. start[c + 1]) */
  size_t start_cap;
  /* the runs name shapes by their number (4 bytes an entry: the runs
     repeat each item in several cells, its numbers are held once and stay
     in cache); + GEO_POOL_PAD zeros (4-wide loads) */
  uint32_t *ref;
  size_t ref_cap;
  double (*shape)[4];  /* the items' four numbers, bit for bit, in space
                          order (cell by cell) */
  size_t shape_cap;
  int32_t *item;       /* the item whose numbers are shape[k] */
  size_t item_cap;
} geo_halo;

/* Gives item k's box and shape (the four numbers a query reads). */
typedef void (*geo_halo_item_fn)(const void *owner, size_t k, geo_box *b,
                                 double v[4]);

/* What an item's four numbers are: a segment's ends (ax, ay, bx, by), or
   a disc's centre and radius (x, y, r, 0). */
typedef enum { GEO_HALO_SEGMENT, GEO_HALO_DISC } geo_halo_shape;

/* Builds h for items 0..n-1, each in every cell of size about `cell` that
   its shape comes within `reach` of (on a torus of width x height when
   wrap). Returns 0 when it gave up (out of memory, or too many entries:
   then the queries keep the index). */
int geo_halo_build(geo_halo *h, steer_allocator *a, size_t n,
                   geo_halo_item_fn item, geo_halo_shape kind,
                   const void *owner, double reach, double cell, int wrap,
                   double width, double height);
/* The shapes changed: queries stop reading h until it is built again. */
static inline void geo_halo_drop(geo_halo *h) {
  h->live = 0;
  h->calm = 0;
}
void geo_halo_free(geo_halo *h, steer_allocator *a);

/* A query wanted reach r (from any thread: a relaxed store, and a lost
   store only delays the build by a step). */
static inline void geo_halo_want(const geo_halo *h, double r) {
  geo_halo *m = (geo_halo *)h;
#if defined(__GNUC__)
  double now;
  __atomic_load(&m->want, &now, __ATOMIC_RELAXED);
  if (r > now) __atomic_store(&m->want, &r, __ATOMIC_RELAXED);
#else
  if (r > m->want) m->want = r;
#endif
}

/* Does h need building before queries can use it? */
static inline int geo_halo_stale(const geo_halo *h) {
  return h->want > 0 && (!h->live || h->want > h->reach);
}

/* Called once a step, before geo_halo_stale: is it worth building h now,
   i.e. have the shapes stayed put since the last call? (A build costs
   about as much as a few steps' feelers save: levels that move a shape
   every step keep the index.) */
static inline int geo_halo_settle(geo_halo *h) {
  int calm = h->calm;
  h->calm = 1;
  return calm;
}

/* Point (x, y)'s cell: its number (>= 0), GEO_HALO_EMPTY off a torus for
   a point outside the grid (farther than `reach` from every item: an empty
   run), -1 when the halo cannot say (not a finite point within reach of
   its grid: the caller queries the index). Apart from its run
   (geo_halo_cell_run), so that a batch can ask for many cells' starts
   before it reads the first. */
#define GEO_HALO_EMPTY (-2L)
GEO_HOT long geo_halo_cell(const geo_halo *h, double x, double y) {
  int32_t i, j;
  if (h->wrap) {
    /* one period either side (a point inside the torus plus half a
       feeler), shifted by a period so that truncating is flooring: a
       point within rounding of a cell's edge may get the cell beside,
       which the build's slack covers */
    double fx = x * h->inv_x + h->ncx, fy = y * h->inv_y + h->ncy;
    if (!(fx > 0 && fx < 3.0 * h->ncx && fy > 0 && fy < 3.0 * h->ncy))
      return -1;
    i = (int32_t)fx;
    j = (int32_t)fy;
    i -= (i >= h->ncx ? h->ncx : 0) + (i >= 2 * h->ncx ? h->ncx : 0);
    j -= (j >= h->ncy ? h->ncy : 0) + (j >= 2 * h->ncy ? h->ncy : 0);
  } else {
    double fx = (x - h->ox) * h->inv_x, fy = (y - h->oy) * h->inv_y;
    if (!(fx >= 0 && fx < h->ncx && fy >= 0 && fy < h->ncy)) {
      if (!(fabs(fx) < 1e300 && fabs(fy) < 1e300)) return -1;
      return GEO_HALO_EMPTY;
    }
    i = (int32_t)fx;
    j = (int32_t)fy;
  }
  return (long)((size_t)j * (size_t)h->ncx + (size_t)i);
}

/* The run of cell c (geo_halo_cell, not -1): returns its length, *refs
   its first entry. */
GEO_HOT long geo_halo_cell_run(const geo_halo *h, long c,
                               const uint32_t **refs) {
  if (c == GEO_HALO_EMPTY) {
    *refs = h->ref;
    return 0;
  }
  *refs = h->ref + h->start[c];
  return (long)(h->start[c + 1] - h->start[c]);
}

/* The run of point (x, y)'s cell: returns its length, *refs its first
   entry; -1 when the halo cannot say (geo_halo_cell). */
GEO_HOT long geo_halo_run(const geo_halo *h, double x, double y,
                          const uint32_t **refs) {
  long c = geo_halo_cell(h, x, y);
  return c == -1 ? -1 : geo_halo_cell_run(h, c, refs);
}

#endif
