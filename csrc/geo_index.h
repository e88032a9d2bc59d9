/* geo_index.h - a spatial hash of boxes for static geometry (internal).
 *
 * Items (numbered 0..n-1 by their owner) are boxes, each with a copy of its
 * owner's shape (four doubles: a wall's ends, a circle's centre and
 * radius). Each item gets one entry per grid cell its box covers, and a
 * cell keeps its entries in one run of a shared pool, shapes inline: a
 * query reads a few contiguous runs, never the owner's arrays in random
 * order (which was what made a query slow: one cache miss per candidate).
 * Cells sit in an open-addressing hash table keyed by their coordinates,
 * row by row; the pool is repacked in that order when it fills, so that
 * neighboring cells' runs sit side by side too. Inserting, removing and
 * moving an item cost O(cells it covers) (amortized: a run that outgrows
 * its room moves to the pool's end), whatever the level holds. An item that would cover more than GEO_LARGE_CELLS cells sits in
 * one "large" array that every query walks instead.
 *
 * Two ways of laying cells: free (unbounded cells, coordinates clamped to
 * +-2^29 so that any finite box has cells) and wrapped (ncx x ncy cells
 * tiling a torus of width x height; boxes may stick out of it, their cells
 * are taken modulo the torus).
 *
 * Why a grid and not a BVH: levels are spread fairly evenly over a known
 * area, queries are small boxes (a feeler, a ray's cells) whose cells are
 * found by arithmetic, and an edit touches only the cells of one item,
 * never a tree to refit; wrapped worlds need only a modulo. The index knows
 * nothing of the world: its owner passes an allocator (alloc.h).
 */
#ifndef STEER_GEO_INDEX_H
#define STEER_GEO_INDEX_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "alloc.h"
#include "steer.h"

#define GEO_LARGE_CELLS 1024
/* Entries the pool holds beyond its capacity, zeroed: a walk may read up
   to GEO_POOL_PAD - 1 entries past the end of any run (geometry.c's lanes
   load four at a time, then mask the lanes past the run). */
#define GEO_POOL_PAD 4

typedef struct geo_box {
  double x0, y0, x1, y1; /* x0 <= x1, y0 <= y1 */
} geo_box;

/* An entry: the owner's shape, copied bit for bit, and its number. */
typedef struct geo_item {
  double v[4];
  int32_t item;
  uint32_t seen; /* GEO_LEFT: the item also covers the cell left of this
                    one; GEO_BELOW: the cell below */
} geo_item;

enum { GEO_LEFT = 1, GEO_BELOW = 2 };

typedef struct geo_cell {
  int32_t cx, cy;   /* cx == INT32_MIN: an empty slot of the table */
  uint32_t count, cap;
  uint32_t start;   /* the cell's run: pool[start .. start + cap) */
} geo_cell;

/* The cells an item covers: x0, y0 (on a torus: inside it) and nx x ny;
   nx == 0: not in the index; nx < 0: in the large array. */
typedef struct geo_span {
  int32_t x0, y0, nx, ny;
} geo_span;

typedef struct geo_index {
  int wrap;
  double inv_x, inv_y;   /* cells per unit length */
  int32_t ncx, ncy;      /* wrapped: cells per axis */
  /* Where a cell goes first: row by row in a window of the plane, rows
     2^row_shift slots apart, so that the cells of a neighborhood sit side
     by side in memory (and a level that fills its window never collides);
     `mixed`: hashed instead, when the window made long probe runs. The
     window is chosen again whenever the table grows. */
  int32_t ox, oy;
  unsigned row_shift;
  int mixed;
  double width, height;  /* wrapped: the torus */
  geo_cell *cells;       /* the table: a power of two slots, or 0 */
  size_t cell_slots, cell_live;
  geo_item *pool;        /* the cells' runs */
  size_t pool_cap, pool_used, pool_held; /* held: the runs' room */
  geo_item *large;       /* the large items */
  size_t large_count, large_cap;
  geo_span *spans;       /* item -> its cells */
  size_t item_cap;
  size_t entries;        /* entries in all cells (none: nothing inserted) */
} geo_index;

/* Sets the cell layout; no memory is owned until the first insert.
   width/height > 0 with wrap: a torus; otherwise free cells. */
void geo_index_init(geo_index *x, double cell, int wrap, double width,
                    double height);
void geo_index_free(geo_index *x, steer_allocator *a);

/* Puts item `item` (< 2^31) in the index with box b and shape v, moving it
   when it is in already. On STEER_ENOMEM nothing changed. */
steer_status geo_index_insert(geo_index *x, steer_allocator *a,
                              int32_t item, geo_box b, const double v[4]);
/* Takes item `item` out (nothing when it is not in). Never fails. */
void geo_index_remove(geo_index *x, int32_t item);
/* Item `from` (in the index) is now called `to` (not in it). */
void geo_index_rename(geo_index *x, int32_t from, int32_t to);
/* Makes sure that items 0..n-1 can be named (geo_index_rename's target). */
steer_status geo_index_reserve(geo_index *x, steer_allocator *a,
                               size_t items);

/* The slack added to a query or an item box so that rounding never loses
   an item whose exact test succeeds. */
static inline double geo_slack(double a, double b) {
  double m = fabs(a) + fabs(b); /* one AND each, not a compare and blend */
  return 1e-9 * m + 1e-290;
}

#define GEO_FREE_CELL_LIMIT 536870912.0 /* |cell coordinate| of free cells */

/* floor(v), without a libm call while v fits an int64 (queries are many
   and small) */
static inline double geo_floor(double v) {
  if (!(v > -4e15 && v < 4e15)) return floor(v);
  double t = (double)(int64_t)v; /* toward zero */
  return t > v ? t - 1 : t;
}

/* Small functions every feeler query calls, inlined whatever the
   compiler's size estimate says (a call costs them as much as their
   work). */
#if defined(__GNUC__)
#define GEO_HOT static inline __attribute__((always_inline))
#else
#define GEO_HOT static inline
#endif

/* The cells [*lo, *lo + *count) that [v0, v1] meets along the x (axis 0)
   or y (axis 1) axis, with slack against rounding; on a torus *lo is
   inside it and an axis covered all round is 0..n-1. */
GEO_HOT void geo_index_axis(const geo_index *x, int axis, double v0,
                            double v1, int32_t *lo, int32_t *count) {
  double inv = axis ? x->inv_y : x->inv_x;
  int32_t n = axis ? x->ncy : x->ncx;
  double s = geo_slack(v0 * inv, v1 * inv);
  double fa = v0 * inv - s, fb = v1 * inv + s;
  if (x->wrap && fa >= 0 && fb < n) {
    /* the usual query on a torus: within its first period (fa <= fb),
       where truncating is flooring and no cell wraps; the general path
       below gives the same cells (all round only when they are 0..n-1
       already) */
    int32_t a = (int32_t)fa;
    *lo = a;
    *count = (int32_t)fb - a + 1;
    return;
  }
  if (fabs(fa) < 1e15 && fabs(fb) < 1e15) {
    /* the usual case, the same cells in integers (no floor() on
       doubles, no fmod): every query computes four of these */
    int64_t a = (int64_t)fa, b = (int64_t)fb; /* toward zero */
    a -= (double)a > fa;
    b -= (double)b > fb;
    if (!x->wrap) {
      const int64_t L = (int64_t)GEO_FREE_CELL_LIMIT;
      a = a < -L ? -L : a > L ? L : a;
      b = b < -L ? -L : b > L ? L : b;
    } else if (b - a + 1 >= n) {
      a = 0;
      b = n - 1;
    } else { /* the first cell taken into 0..n-1 */
      int64_t first = a >= 0 && a < n ? a : a < 0 && a >= -n ? a + n : a % n;
      if (first < 0) first += n;
      b = first + (b - a);
      a = first;
    }
    *lo = (int32_t)a;
    *count = (int32_t)(b - a + 1);
    return;
  }
  double a = geo_floor(fa), b = geo_floor(fb);
  if (!x->wrap) {
    const double L = GEO_FREE_CELL_LIMIT;
    a = a < -L ? -L : a > L ? L : a;
    b = b < -L ? -L : b > L ? L : b;
  } else if (b - a + 1 >= n) {
    a = 0;
    b = n - 1;
  } else { /* the first cell taken into 0..n-1: int32 holds the range */
    double first = a >= 0 && a < n ? a : a < 0 && a >= -n ? a + n : fmod(a, n);
    if (first < 0) first += n;
    b = first + (b - a);
    a = first;
  }
  *lo = (int32_t)a;
  *count = (int32_t)(b - a + 1);
}

/* The slot where the table looks for cell (cx, cy) first. */
static inline size_t geo_index_home(const geo_index *x, int32_t cx,
                                    int32_t cy) {
  uint32_t h;
  if (!x->mixed) {
    h = ((uint32_t)cy - (uint32_t)x->oy) << x->row_shift;
    h += (uint32_t)cx - (uint32_t)x->ox;
  } else {
    h = (uint32_t)cx * 0x9E3779B1u ^ (uint32_t)cy * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
  }
  return h & (x->cell_slots - 1);
}

/* The entries of cell c. */
static inline const geo_item *geo_cell_items(const geo_index *x,
                                             const geo_cell *c) {
  return x->pool + c->start;
}

/* The cell (cx, cy) of an index that holds cells (cell_live), (cx, cy)
   inside the torus on a wrapped one; NULL when it holds nothing. */
GEO_HOT const geo_cell *geo_index_find(const geo_index *x, int32_t cx,
                                       int32_t cy) {
  size_t mask = x->cell_slots - 1;
  for (size_t s = geo_index_home(x, cx, cy);; s = (s + 1) & mask) {
    const geo_cell *c = &x->cells[s];
    if (c->cx == cx && c->cy == cy) return c->count ? c : NULL;
    if (c->cx == INT32_MIN) return NULL;
  }
}

/* The cell (cx, cy), taken into the torus on a wrapped index; NULL when it
   holds nothing. */
static inline const geo_cell *geo_index_cell(const geo_index *x, int32_t cx,
                                             int32_t cy) {
  if (!x->cell_live) return NULL;
  if (x->wrap) {
    if (cx >= x->ncx) cx -= x->ncx; /* callers stay within one period */
    if (cy >= x->ncy) cy -= x->ncy;
  }
  return geo_index_find(x, cx, cy);
}

/* A walk over the items whose cells meet a query box, each at least once
   (geo_cursor_next: once, or twice when it wraps round a torus), then the
   large items. When the box covers more cells than `scan_limit`, the
   walk is every item 0..count-1 instead. */
typedef struct geo_cursor {
  const geo_index *x;
  int32_t x0, y0, nx, ny; /* first cell and size in cells */
  int32_t i, j;           /* the next cell: (x0 + i, y0 + j) */
  const geo_item *run;    /* the entries left in the current run */
  size_t left;
  uint32_t skip;          /* entries of the run to pass over: seen & skip */
  int phase;              /* 0 cells, 1 large list, 2 done, 3 every item */
  size_t cell;            /* scan: the next item */
  size_t count;           /* items, for the scan */
} geo_cursor;

void geo_cursor_init(geo_cursor *c, const geo_index *x, geo_box q,
                     size_t count);
/* The next candidate, or -1 once the walk is over. */
int32_t geo_cursor_next(geo_cursor *c);
/* The next run of candidates, their shapes inline: returns how many, 0
   once the walk is over. In a scan *items is NULL and the run is items
   0..count-1 (read from the owner's arrays). Entries with (seen & c->skip)
   come in a cell of the walk before this one: passing over them keeps
   every item once per walk (twice at most on a torus). Do not mix with
   geo_cursor_next on one cursor. */
size_t geo_cursor_next_run(geo_cursor *c, const geo_item **items);

#endif
