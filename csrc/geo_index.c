/* geo_index.c - the spatial hash of static geometry (geo_index.h). */
#include <math.h>
#include <string.h>
#include "geo_index.h"

#define FREE_CELL_LIMIT 536870912.0 /* |cell coordinate| of free cells */
#define AXIS_CELLS_MAX 1048576      /* cells per axis of a torus */
#define INV_MAX 1e150               /* v * inv stays finite (see grid.c) */
#define MIN_BUCKETS 64
#define LARGE_CELL INT32_MIN

static double clampd(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

void geo_index_init(geo_index *x, double cell, int wrap, double width,
                    double height) {
  memset(x, 0, sizeof *x);
  x->large = -1;
  x->free_entry = -1;
  x->wrap = wrap && width > 0 && height > 0;
  if (x->wrap) {
    x->ncx = (int32_t)clampd(floor(width / cell), 1, AXIS_CELLS_MAX);
    x->ncy = (int32_t)clampd(floor(height / cell), 1, AXIS_CELLS_MAX);
    x->inv_x = fmin(x->ncx / width, INV_MAX);
    x->inv_y = fmin(x->ncy / height, INV_MAX);
    x->width = width;
    x->height = height;
  } else {
    x->inv_x = x->inv_y = fmin(1.0 / cell, INV_MAX);
  }
}

static void *alloc(steer_allocator *a, void *p, size_t o, size_t n) {
  return alloc_bytes(a, p, o, n);
}

void geo_index_free(geo_index *x, steer_allocator *a) {
  alloc(a, x->heads, x->buckets * sizeof(int32_t), 0);
  alloc(a, x->entries, x->entry_cap * sizeof(geo_entry), 0);
  alloc(a, x->item_head, x->item_cap * sizeof(int32_t), 0);
  x->heads = NULL;
  x->entries = NULL;
  x->item_head = NULL;
  x->buckets = x->entry_cap = x->item_cap = x->entry_live = 0;
  x->large = x->free_entry = -1;
}

/* The cells [lo, lo + count) that [v0, v1] meets along one axis, with
   slack against rounding; a torus axis covered all round is 0..n-1. */
static void axis_range(const geo_index *x, double v0, double v1, double inv,
                       int32_t n, int32_t *lo, int32_t *count) {
  double s = geo_slack(v0 * inv, v1 * inv);
  double a = floor(v0 * inv - s), b = floor(v1 * inv + s);
  if (!x->wrap) {
    a = clampd(a, -FREE_CELL_LIMIT, FREE_CELL_LIMIT);
    b = clampd(b, -FREE_CELL_LIMIT, FREE_CELL_LIMIT);
  } else if (b - a + 1 >= n) {
    a = 0;
    b = n - 1;
  } else { /* the first cell taken into 0..n-1: int32 holds the range */
    double first = fmod(a, n);
    if (first < 0) first += n;
    b = first + (b - a);
    a = first;
  }
  *lo = (int32_t)a;
  *count = (int32_t)(b - a + 1);
}

static int32_t wrap_cell(int32_t c, int32_t n) {
  c %= n;
  return c < 0 ? c + n : c;
}

static size_t bucket_of(const geo_index *x, int32_t cx, int32_t cy) {
  uint32_t h = (uint32_t)cx * 0x9E3779B1u ^ (uint32_t)cy * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h & (x->buckets - 1);
}

static void link_entry(geo_index *x, int32_t e) {
  geo_entry *en = &x->entries[e];
  int32_t *head = en->cx == LARGE_CELL ? &x->large
                                       : &x->heads[bucket_of(x, en->cx, en->cy)];
  en->prev = -1;
  en->next = *head;
  if (*head >= 0) x->entries[*head].prev = e;
  *head = e;
}

static void unlink_entry(geo_index *x, int32_t e) {
  geo_entry *en = &x->entries[e];
  if (en->next >= 0) x->entries[en->next].prev = en->prev;
  if (en->prev >= 0)
    x->entries[en->prev].next = en->next;
  else if (en->cx == LARGE_CELL)
    x->large = en->next;
  else
    x->heads[bucket_of(x, en->cx, en->cy)] = en->next;
}

static steer_status grow(steer_allocator *a, void **arr, size_t size,
                         size_t *cap, size_t need) {
  return alloc_grow(a, arr, size, cap, need);
}

steer_status geo_index_reserve(geo_index *x, steer_allocator *a,
                               size_t items) {
  size_t old = x->item_cap;
  if (grow(a, (void **)&x->item_head, sizeof(int32_t), &x->item_cap, items))
    return STEER_ENOMEM;
  for (size_t i = old; i < x->item_cap; i++) x->item_head[i] = -1;
  return STEER_OK;
}

/* Room for k more entries in the pool, and buckets for them (a failed
   rehash only leaves longer lists). */
static steer_status reserve_entries(geo_index *x, steer_allocator *a,
                                    size_t k) {
  size_t old = x->entry_cap;
  if (grow(a, (void **)&x->entries, sizeof(geo_entry), &x->entry_cap,
           x->entry_live + k))
    return STEER_ENOMEM;
  for (size_t e = x->entry_cap; e-- > old;) { /* new ones join the free list */
    x->entries[e].item = -1;
    x->entries[e].next = x->free_entry;
    x->free_entry = (int32_t)e;
  }
  size_t want = x->buckets ? x->buckets : MIN_BUCKETS;
  while (want < x->entry_live + k) want *= 2;
  if (want == x->buckets) return STEER_OK;
  int32_t *heads = alloc(a, NULL, 0, want * sizeof(int32_t));
  if (!heads) return x->buckets ? STEER_OK : STEER_ENOMEM;
  alloc(a, x->heads, x->buckets * sizeof(int32_t), 0);
  x->heads = heads;
  x->buckets = want;
  for (size_t b = 0; b < want; b++) heads[b] = -1;
  for (size_t e = 0; e < x->entry_cap; e++)
    if (x->entries[e].item >= 0 && x->entries[e].cx != LARGE_CELL)
      link_entry(x, (int32_t)e);
  return STEER_OK;
}

static void add_entry(geo_index *x, int32_t item, int32_t cx, int32_t cy) {
  int32_t e = x->free_entry;
  geo_entry *en = &x->entries[e];
  x->free_entry = en->next;
  en->item = item;
  en->cx = cx;
  en->cy = cy;
  en->item_next = x->item_head[item];
  x->item_head[item] = e;
  x->entry_live++;
  link_entry(x, e);
}

steer_status geo_index_insert(geo_index *x, steer_allocator *a,
                              int32_t item, geo_box b) {
  int32_t x0, y0, nx, ny;
  axis_range(x, b.x0, b.x1, x->inv_x, x->ncx, &x0, &nx);
  axis_range(x, b.y0, b.y1, x->inv_y, x->ncy, &y0, &ny);
  int large = (double)nx * ny > GEO_LARGE_CELLS;
  size_t k = large ? 1 : (size_t)nx * (size_t)ny;
  if (geo_index_reserve(x, a, (size_t)item + 1) || reserve_entries(x, a, k))
    return STEER_ENOMEM;
  if (large) {
    add_entry(x, item, LARGE_CELL, 0);
    return STEER_OK;
  }
  for (int32_t j = 0; j < ny; j++)
    for (int32_t i = 0; i < nx; i++) {
      int32_t cx = x0 + i, cy = y0 + j;
      if (x->wrap) {
        cx = wrap_cell(cx, x->ncx);
        cy = wrap_cell(cy, x->ncy);
      }
      add_entry(x, item, cx, cy);
    }
  return STEER_OK;
}

void geo_index_remove(geo_index *x, int32_t item) {
  if ((size_t)item >= x->item_cap) return;
  for (int32_t e = x->item_head[item]; e >= 0;) {
    int32_t after = x->entries[e].item_next;
    unlink_entry(x, e);
    x->entries[e].item = -1;
    x->entries[e].next = x->free_entry;
    x->free_entry = e;
    x->entry_live--;
    e = after;
  }
  x->item_head[item] = -1;
}

void geo_index_rename(geo_index *x, int32_t from, int32_t to) {
  for (int32_t e = x->item_head[from]; e >= 0; e = x->entries[e].item_next)
    x->entries[e].item = to;
  x->item_head[to] = x->item_head[from];
  x->item_head[from] = -1;
}

void geo_cursor_init(geo_cursor *c, const geo_index *x, geo_box q,
                     size_t count) {
  c->x = x;
  c->entry = -1;
  c->cell = 0;
  c->count = count;
  c->sx0 = c->sy0 = c->snx = c->sny = 0; /* nothing walked (no garbage in
                                             geo_cursor_next's subtraction) */
  c->skip_large = 0;
  axis_range(x, q.x0, q.x1, x->inv_x, x->ncx, &c->x0, &c->nx);
  axis_range(x, q.y0, q.y1, x->inv_y, x->ncy, &c->y0, &c->ny);
  if (!x->buckets)
    c->phase = 2; /* nothing was ever inserted */
  else
    c->phase = (double)c->nx * c->ny > (double)count + 8 ? 3 : 0;
}

void geo_cursor_next_box(geo_cursor *c, const geo_cursor *prev, geo_box q) {
  geo_cursor was = *prev; /* c may be prev */
  geo_cursor_init(c, was.x, q, was.count);
  if (was.phase == 3 || c->phase == 3) return; /* scans: nothing to skip */
  c->sx0 = was.x0;
  c->sy0 = was.y0;
  c->snx = was.nx;
  c->sny = was.ny;
  c->skip_large = 1;
}

int32_t geo_cursor_next(geo_cursor *c) {
  const geo_index *x = c->x;
  for (;;) {
    while (c->entry >= 0) {
      const geo_entry *en = &x->entries[c->entry];
      c->entry = en->next;
      if (c->phase == 1 || (en->cx == c->cx && en->cy == c->cy))
        return en->item;
    }
    switch (c->phase) {
    case 0:
      if (c->cell < (int64_t)c->nx * c->ny) {
        c->cx = c->x0 + (int32_t)(c->cell % c->nx);
        c->cy = c->y0 + (int32_t)(c->cell / c->nx);
        c->cell++;
        if (c->snx > 0 && (int64_t)c->cx - c->sx0 >= 0 &&
            (int64_t)c->cx - c->sx0 < c->snx &&
            (int64_t)c->cy - c->sy0 >= 0 && (int64_t)c->cy - c->sy0 < c->sny)
          continue; /* walked by the previous box */
        if (x->wrap) {
          c->cx = wrap_cell(c->cx, x->ncx);
          c->cy = wrap_cell(c->cy, x->ncy);
        }
        c->entry = x->heads[bucket_of(x, c->cx, c->cy)];
        continue;
      }
      c->phase = 1;
      c->entry = c->skip_large ? -1 : x->large;
      continue;
    case 3:
      if ((size_t)c->cell < c->count) return (int32_t)c->cell++;
      c->phase = 2;
      return -1;
    default: return -1;
    }
  }
}
