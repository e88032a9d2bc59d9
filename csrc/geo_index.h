/* geo_index.h - a spatial hash of boxes for static geometry (internal).
 *
 * Items (numbered 0..n-1 by their owner) are boxes. Each item gets one entry
 * per grid cell its box covers; a cell's entries hang in a doubly linked
 * list off the cell's hash bucket, so inserting, removing and moving an item
 * cost O(cells it covers), whatever the level holds. An item that would
 * cover more than GEO_LARGE_CELLS cells sits in one "large" list that every
 * query walks instead.
 *
 * Two ways of laying cells: free (unbounded cells, coordinates clamped to
 * +-2^29 so that any finite box has cells) and wrapped (ncx x ncy cells
 * tiling a torus of width x height; boxes may stick out of it, their cells
 * are taken modulo the torus).
 *
 * Why a grid and not a BVH: levels are spread fairly evenly over a known
 * area, queries are small boxes (a feeler, a ray chunk) whose cells are
 * found by arithmetic, and an edit touches only the cells of one item,
 * never a tree to refit; wrapped worlds need only a modulo. The index knows
 * nothing of the world: its owner passes an allocator (alloc.h).
 */
#ifndef STEER_GEO_INDEX_H
#define STEER_GEO_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include "alloc.h"
#include "steer.h"

#define GEO_LARGE_CELLS 1024

typedef struct geo_box {
  double x0, y0, x1, y1; /* x0 <= x1, y0 <= y1 */
} geo_box;

typedef struct geo_entry {
  int32_t item;
  int32_t cx, cy;        /* the cell; INT32_MIN for the large list */
  int32_t next, prev;    /* in the bucket's list (prev -1: the head) */
  int32_t item_next;     /* the item's next entry */
} geo_entry;

typedef struct geo_index {
  int wrap;
  double inv_x, inv_y;   /* cells per unit length */
  int32_t ncx, ncy;      /* wrapped: cells per axis */
  double width, height;  /* wrapped: the torus */
  int32_t *heads;        /* bucket -> first entry, -1 when empty */
  size_t buckets;        /* a power of two (0 until the first insert) */
  int32_t large;         /* first entry of the large list */
  geo_entry *entries;    /* the pool; free entries chain through next */
  size_t entry_cap, entry_live;
  int32_t free_entry;
  int32_t *item_head;    /* item -> its first entry, -1 none */
  size_t item_cap;
} geo_index;

/* Sets the cell layout; no memory is owned until the first insert.
   width/height > 0 with wrap: a torus; otherwise free cells. */
void geo_index_init(geo_index *x, double cell, int wrap, double width,
                    double height);
void geo_index_free(geo_index *x, steer_allocator *a);

/* Adds item `item` (< 2^31) covering box b. On STEER_ENOMEM nothing
   changed. An item must not be added twice. */
steer_status geo_index_insert(geo_index *x, steer_allocator *a,
                              int32_t item, geo_box b);
/* Takes item `item` out (nothing when it is not in). Never fails. */
void geo_index_remove(geo_index *x, int32_t item);
/* Item `from` (in the index) is now called `to` (not in it). */
void geo_index_rename(geo_index *x, int32_t from, int32_t to);
/* Makes sure that items 0..n-1 can be named (geo_index_rename's target). */
steer_status geo_index_reserve(geo_index *x, steer_allocator *a,
                               size_t items);

/* A walk over the items whose cells meet a query box, each at least once
   (an item covering several of those cells comes once per cell), then the
   large items. When the box covers more cells than `scan_limit`, the
   walk is every item 0..count-1 instead. */
typedef struct geo_cursor {
  const geo_index *x;
  int32_t x0, y0, nx, ny; /* first cell and size in cells */
  int64_t cell;           /* next box cell to open */
  int32_t cx, cy;         /* the cell being walked */
  int32_t entry;          /* next entry of that cell's bucket, -1 none */
  int phase;              /* 0 cells, 1 large list, 2 done, 3 every item */
  size_t count;           /* items, for the scan */
  int32_t sx0, sy0, snx, sny; /* cells walked already (snx = 0: none) */
  int skip_large;         /* the large list was walked already */
} geo_cursor;

void geo_cursor_init(geo_cursor *c, const geo_index *x, geo_box q,
                     size_t count);
/* The same for the next box of a march (a ray's chunks): the cells and the
   large list that `prev` walked are not walked again. */
void geo_cursor_next_box(geo_cursor *c, const geo_cursor *prev, geo_box q);
/* The next candidate, or -1 once the walk is over. */
int32_t geo_cursor_next(geo_cursor *c);

/* The slack added to a query or an item box so that rounding never loses
   an item whose exact test succeeds. */
static inline double geo_slack(double a, double b) {
  double m = (a < 0 ? -a : a) + (b < 0 ? -b : b);
  return 1e-9 * m + 1e-290;
}

#endif
