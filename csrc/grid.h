/* grid.h - the spatial grid that answers neighbor queries (internal).
 *
 * Space is cut into square cells. Every cell maps to a bucket that heads a
 * list of agent indices threaded through the per-agent `next` array, so
 * inserting an agent is O(1) and never allocates; moving or removing one
 * walks its bucket to find its predecessor (buckets hold a few agents).
 *
 * Bounded worlds (torus or clamped) with a manageable number of cells give
 * every cell its own bucket (dense). Unbounded worlds hash cell coordinates
 * into a power-of-two number of buckets (at least one per agent); cells that
 * share a bucket are told apart by recomputing each candidate's cell.
 */
#ifndef STEER_GRID_H
#define STEER_GRID_H

#include <math.h>
#include <stdint.h>
#include "alloc.h"
#include "steer.h"

typedef enum grid_mode { GRID_FREE, GRID_WRAP, GRID_CLAMP } grid_mode;

#define GRID_FREE_CELL_LIMIT 536870912.0 /* |cell coordinate| of unbounded worlds */

/* floor() without a libm call where the value fits an int32 */
static inline double grid_floor(double v) {
  if (!(v > -2147483647.0 && v < 2147483647.0)) return floor(v);
  double t = (double)(int32_t)v; /* truncates toward zero */
  return t > v ? t - 1 : t;
}

typedef struct steer_grid {
  grid_mode mode;
  double inv_x, inv_y;   /* cells per unit length */
  int32_t ncx, ncy;      /* cells per axis (bounded modes) */
  int dense;             /* one bucket per cell */
  int32_t *heads;        /* bucket -> first agent, -1 when empty */
  uint32_t *starts;      /* bucket -> first index once sorted (buckets + 1) */
  size_t buckets;        /* length of heads; a power of two when hashed */
  int32_t *next;         /* per agent: the next in its bucket, -1 at the end */
  size_t agents_cap;     /* length of next */
  int sorted; /* agents ordered by bucket, lists in index order */
  /* heads and next hold the buckets' lists. A sort leaves them unlinked
     (its walks read starts); the first edit links them (grid_link_sorted) */
  int linked;
  /* starts hold the buckets of the last sort in the agents' current index
     order (no agent added, removed or relocated since): a sort can mend
     them where agents changed bucket (sort.c) */
  int starts_current;
  /* hashed grids: the cells of this box (the crowd's extent when it was
     last sorted) take buckets row by row, as a dense grid's would, so that
     sorted agents lie in space order; other cells hash. box_w = 0: none */
  int32_t box_x0, box_y0, box_w, box_h;
} steer_grid;

/* The bucket b >= from that holds index `index` of a sorted grid
   (starts[b] <= index < starts[b + 1]; it needs starts[from] <= index <
   starts[buckets]). A gallop then a binary search: next door in a dense
   crowd, a few probes across a big level's empty cells. */
static inline size_t grid_bucket_holding(const steer_grid *g, size_t from,
                                         size_t index) {
  const uint32_t *starts = g->starts;
  if (starts[from + 1] > index) return from;
  size_t lo = from + 1, step = 1; /* starts[lo] <= index */
  while (lo + step < g->buckets && starts[lo + step] <= index) {
    lo += step;
    step *= 2;
  }
  size_t hi = lo + step < g->buckets ? lo + step : g->buckets;
  while (hi - lo > 1) { /* starts[lo] <= index < starts[hi] */
    size_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= index) lo = mid; else hi = mid;
  }
  return lo;
}

/* Far more buckets than agents (a big level, a small crowd): work that
   follows the agents beats a pass over every bucket. */
static inline int grid_sparse(const steer_grid *g, size_t agents) {
  return (double)g->buckets >= 8.0 * (double)agents;
}

/* Sets the geometry; the grid owns no memory until grid_reserve. */
void grid_init(steer_grid *g, double cell, int wrap, double width,
               double height);
void grid_free(steer_grid *g, steer_allocator *a);

/* Makes room for `agents` agents, relinking the `count` agents at (x, y)
   (unsorted) when the bucket count grows. On failure nothing changed. */
steer_status grid_reserve(steer_grid *g, steer_allocator *a, size_t agents,
                          const double *x, const double *y, size_t count);

/* The cell of a point (bounded modes: inside 0..n-1) and its bucket. */
void grid_cell_of(const steer_grid *g, double x, double y, int32_t *cx,
                  int32_t *cy);
size_t grid_bucket_of(const steer_grid *g, double x, double y);
/* The bucket of cell (cx, cy) (bounded modes: inside 0..n-1). */
size_t grid_bucket_of_cell(const steer_grid *g, int32_t cx, int32_t cy);
/* The rows of cells whose buckets a sorted grid keeps in row-major order:
   a dense grid's ncx x ncy cells, or a hashed grid's box (box_w x box_h,
   from cell (box_x0, box_y0); none when box_w is 0). */
static inline size_t grid_sheet_cols(const steer_grid *g) {
  return (size_t)(g->dense ? g->ncx : g->box_w);
}
static inline size_t grid_sheet_rows(const steer_grid *g) {
  return (size_t)(g->dense ? g->ncy : g->box_h);
}
/* The cell of bucket b of the sheet. */
static inline void grid_sheet_cell(const steer_grid *g, size_t b, int32_t *cx,
                                   int32_t *cy) {
  size_t cols = grid_sheet_cols(g);
  *cx = (int32_t)(b % cols) + (g->dense ? 0 : g->box_x0);
  *cy = (int32_t)(b / cols) + (g->dense ? 0 : g->box_y0);
}
/* A hashed grid's box (above) around the cells of agents 0..n-1 at
   (x[i], y[i]), when it holds no more cells than there are buckets. The
   agents must be rebucketed after (world_sort does). */
void grid_fit_box(steer_grid *g, const double *x, const double *y, size_t n);
/* The buckets of points from .. to - 1 into dest[from .. to - 1] (one call
   for the whole crowd: the per-point work stays inlined). */
void grid_buckets_of(const steer_grid *g, const double *x, const double *y,
                     size_t from, size_t to, uint32_t *dest);

void grid_insert(steer_grid *g, int32_t i, double x, double y);
void grid_remove(steer_grid *g, int32_t i, double x, double y);
/* Moves agent i from the cell of (ox, oy) to the cell of (nx, ny); returns
   whether its bucket changed (or it left a hashed grid's box). */
int grid_move(steer_grid *g, int32_t i, double ox, double oy, double nx,
              double ny);
/* The agent at index `from` (position (x, y)) now lives at index `to`. */
void grid_relocate(steer_grid *g, int32_t from, int32_t to, double x,
                   double y);
/* Links agents 0..n-1, which are sorted by bucket with starts[] counted,
   into their buckets' lists in index order. */
void grid_link_sorted(steer_grid *g);
/* A sort's end: the agents are sorted by bucket with starts[] counted; the
   lists are linked when an edit first needs them. */
void grid_mark_sorted(steer_grid *g);
/* Links agents 0..count-1 at (x[i], y[i]), in any order, into their
   buckets' lists (in index order); they count as unsorted. */
void grid_relink(steer_grid *g, const double *x, const double *y,
                 size_t count);

/* A walk over the candidate agents of every cell that a disc touches; when
   that box holds more cells than there are agents, over every agent. */
typedef struct grid_cursor {
  const steer_grid *g;
  const double *x, *y;
  size_t n;
  int all;                 /* walk every agent 0..n-1 */
  int32_t x0, y0, nx, ny;  /* the box: first cell and size in cells */
  int64_t cell;            /* next box cell to open */
  int32_t cx, cy;          /* the cell whose list is being walked */
  int32_t agent;           /* next candidate in that list, or -1 */
  int32_t end;             /* unlinked (sorted) grids: the bucket's end */
} grid_cursor;

void grid_cursor_init(grid_cursor *c, const steer_grid *g, const double *x,
                      const double *y, size_t n, double qx, double qy,
                      double radius);
/* The next candidate index, or -1 when the walk is over. */
int32_t grid_cursor_next(grid_cursor *c);

/* The same walk over a sorted grid as runs of agent indices: the agents
   the cursor would hand out, in its order (so that sums over them add up
   bit for bit as the cursor's), a run per row of cells (two where a torus
   row wraps) - a dense grid's rows, or a hashed grid's box (every agent
   lies in it while the grid is sorted). Not for a hashed grid without a
   box, or an unsorted grid: grid_runs_init returns 0 then. */
typedef struct grid_runs {
  const steer_grid *g;
  size_t n;
  int all;                /* every agent 0..n-1, one run */
  int32_t x0, y0, nx, ny; /* the box of cells, as the cursor's */
  int32_t row;            /* the next row, 0..ny - 1 */
  int part;               /* 1: the wrapped part of the row is next */
} grid_runs;

int grid_runs_init(grid_runs *r, const steer_grid *g, size_t n, double qx,
                   double qy, double radius);
/* The next run [*from, *to) (perhaps empty); 0 when the walk is over. */
int grid_runs_next(grid_runs *r, size_t *from, size_t *to);

#endif
