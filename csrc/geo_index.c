/* geo_index.c - the spatial hash of static geometry (geo_index.h). */
#include <math.h>
#include <string.h>
#include "geo_index.h"

#define AXIS_CELLS_MAX 1048576      /* cells per axis of a torus */
#define INV_MAX 1e150               /* v * inv stays finite (see grid.c) */
#define MIN_SLOTS 64
#define PROBES_MAX 24 /* a longer probe run: the window hashes badly */
#define EMPTY INT32_MIN

static double clampd(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

void geo_index_init(geo_index *x, double cell, int wrap, double width,
                    double height) {
  memset(x, 0, sizeof *x);
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
  if (x->pool)
    alloc(a, x->pool, (x->pool_cap + GEO_POOL_PAD) * sizeof(geo_item), 0);
  alloc(a, x->cells, x->cell_slots * sizeof(geo_cell), 0);
  alloc(a, x->large, x->large_cap * sizeof(geo_item), 0);
  alloc(a, x->spans, x->item_cap * sizeof(geo_span), 0);
  x->cells = NULL;
  x->pool = NULL;
  x->large = NULL;
  x->spans = NULL;
  x->pool_cap = x->pool_used = x->pool_held = 0;
  x->cell_slots = x->cell_live = x->large_count = x->large_cap = 0;
  x->item_cap = x->entries = 0;
}

/* ---- cells along an axis -------------------------------------------------- */

static geo_span span_of(const geo_index *x, geo_box b) {
  geo_span s;
  geo_index_axis(x, 0, b.x0, b.x1, &s.x0, &s.nx);
  geo_index_axis(x, 1, b.y0, b.y1, &s.y0, &s.ny);
  if ((double)s.nx * s.ny > GEO_LARGE_CELLS) s.nx = s.ny = -1;
  return s;
}

/* The k-th cell of a span along an axis of n cells (wrapped: n > 0). */
static int32_t step_cell(const geo_index *x, int32_t first, int32_t k,
                         int32_t n) {
  int32_t c = first + k;
  return x->wrap && c >= n ? c - n : c;
}

/* ---- the table of cells --------------------------------------------------- */

static size_t home_of(const geo_index *x, int32_t cx, int32_t cy) {
  return geo_index_home(x, cx, cy);
}

/* The slot of cell (cx, cy), or of the empty slot where it would go. */
static size_t slot_of(const geo_index *x, int32_t cx, int32_t cy) {
  size_t mask = x->cell_slots - 1;
  size_t s = home_of(x, cx, cy);
  while (x->cells[s].cx != EMPTY &&
         (x->cells[s].cx != cx || x->cells[s].cy != cy))
    s = (s + 1) & mask;
  return s;
}

/* Puts the table's cells into `slots` fresh slots, the window chosen
   anew around them and span s (mixed: hashed); STEER_ENOMEM changes
   nothing. */
static steer_status rehash(geo_index *x, steer_allocator *a, size_t slots,
                           geo_span s, int mixed) {
  /* the window: the cells' bounding box, rows one slot wider than it
     (a run of full rows never reaches past its own row) */
  int64_t x0 = INT32_MAX, x1 = INT32_MIN, y0 = INT32_MAX, y1 = INT32_MIN;
  if (s.nx > 0) {
    x0 = s.x0;
    x1 = (int64_t)s.x0 + s.nx - 1;
    y0 = s.y0;
    y1 = (int64_t)s.y0 + s.ny - 1;
  }
  for (size_t k = 0; k < x->cell_slots; k++) {
    const geo_cell *c = &x->cells[k];
    if (c->cx == EMPTY) continue;
    if (c->cx < x0) x0 = c->cx;
    if (c->cx > x1) x1 = c->cx;
    if (c->cy < y0) y0 = c->cy;
    if (c->cy > y1) y1 = c->cy;
  }
  unsigned shift = 0;
  while (shift < 31 && ((int64_t)1 << shift) < x1 - x0 + 2) shift++;
  /* room for the whole window when it costs at most 4 times the slots:
     no row then lands on another */
  double window = (double)(y1 - y0 + 1) * (double)((int64_t)1 << shift);
  if (window > 4.0 * (double)slots) mixed = 1; /* sparse: rows would collide */
  if (!mixed && window > (double)slots)
    while ((double)slots < window) slots *= 2;
  if (slots > SIZE_MAX / sizeof(geo_cell)) return STEER_ENOMEM;
  geo_cell *cells = alloc(a, NULL, 0, slots * sizeof(geo_cell));
  if (!cells) return STEER_ENOMEM;
  geo_cell *old = x->cells;
  size_t old_slots = x->cell_slots;
  for (size_t k = 0; k < slots; k++) {
    cells[k].cx = EMPTY;
    cells[k].cy = 0;
    cells[k].count = cells[k].cap = cells[k].start = 0;
  }
  x->cells = cells;
  x->cell_slots = slots;
  x->mixed = mixed;
  x->ox = x1 >= x0 ? (int32_t)x0 : 0;
  x->oy = x1 >= x0 ? (int32_t)y0 : 0;
  x->row_shift = shift;
  for (size_t k = 0; k < old_slots; k++)
    if (old[k].cx != EMPTY) x->cells[slot_of(x, old[k].cx, old[k].cy)] = old[k];
  alloc(a, old, old_slots * sizeof(geo_cell), 0);
  return STEER_OK;
}

/* Room in the table for the cells of span s (at most half full). */
static steer_status reserve_cells(geo_index *x, steer_allocator *a,
                                  geo_span s) {
  size_t k = (size_t)s.nx * (size_t)s.ny;
  size_t want = x->cell_slots ? x->cell_slots : MIN_SLOTS;
  while (want < 2 * (x->cell_live + k)) want *= 2;
  if (want == x->cell_slots) return STEER_OK;
  return rehash(x, a, want, s, 0);
}

/* Deletes the cell in slot s (linear probing: later cells of its probe
   run move back, so that no lookup stops early). */
static void delete_slot(geo_index *x, size_t s) {
  size_t mask = x->cell_slots - 1;
  x->pool_held -= x->cells[s].cap; /* its run is garbage now */
  x->cell_live--;
  for (size_t j = (s + 1) & mask; x->cells[j].cx != EMPTY; j = (j + 1) & mask) {
    size_t home = home_of(x, x->cells[j].cx, x->cells[j].cy);
    /* does cell j stay reachable from its home without slot s? */
    int stays = s <= j ? (home > s && home <= j) : (home > s || home <= j);
    if (stays) continue;
    x->cells[s] = x->cells[j];
    s = j;
  }
  x->cells[s].cx = EMPTY;
  x->cells[s].count = x->cells[s].cap = x->cells[s].start = 0;
}

/* Moves every cell's run into a fresh pool, in slot order (row by row),
   the garbage left behind; each run keeps room for one more entry (an
   insert may have reserved it already), and the pool room for `extra`
   more plus a quarter again. STEER_ENOMEM changes nothing. */
static steer_status repack(geo_index *x, steer_allocator *a, size_t extra) {
  size_t tight = 0;
  for (size_t k = 0; k < x->cell_slots; k++)
    if (x->cells[k].cx != EMPTY) tight += x->cells[k].count + 1;
  size_t cap = tight + extra;
  cap += cap / 4 + 64;
  if (cap > UINT32_MAX || cap > SIZE_MAX / sizeof(geo_item) - GEO_POOL_PAD)
    return STEER_ENOMEM;
  geo_item *pool = alloc(a, NULL, 0, (cap + GEO_POOL_PAD) * sizeof(geo_item));
  if (!pool) return STEER_ENOMEM;
  /* every byte defined: lanes past a run read whatever follows it */
  memset(pool, 0, (cap + GEO_POOL_PAD) * sizeof(geo_item));
  size_t used = 0;
  for (size_t k = 0; k < x->cell_slots; k++) {
    geo_cell *c = &x->cells[k];
    if (c->cx == EMPTY) continue;
    if (c->count)
      memcpy(pool + used, x->pool + c->start, c->count * sizeof(geo_item));
    c->start = (uint32_t)used;
    c->cap = c->count + 1;
    used += c->cap;
  }
  if (x->pool)
    alloc(a, x->pool, (x->pool_cap + GEO_POOL_PAD) * sizeof(geo_item), 0);
  x->pool = pool;
  x->pool_cap = cap;
  x->pool_used = x->pool_held = used;
  return STEER_OK;
}

/* Room for one more entry in cell (cx, cy), creating it; the table must
   have room for a new cell (reserve_cells). */
static steer_status reserve_entry(geo_index *x, steer_allocator *a,
                                  int32_t cx, int32_t cy) {
  size_t s = slot_of(x, cx, cy);
  if (!x->mixed && ((s - home_of(x, cx, cy)) & (x->cell_slots - 1)) > PROBES_MAX) {
    /* the window lines cells up badly (a level far wider than when it was
       chosen, or a pattern): hash them instead, same size (a failure
       leaves the long run, which is only slower) */
    geo_span none = {0, 0, 0, 0};
    if (rehash(x, a, x->cell_slots, none, 1) == STEER_OK) s = slot_of(x, cx, cy);
  }
  geo_cell *c = &x->cells[s];
  if (c->cx == EMPTY) {
    c->cx = cx;
    c->cy = cy;
    x->cell_live++;
  }
  if (c->count < c->cap) return STEER_OK;
  /* the run moves to the pool's end with twice the room; a full pool is
     repacked first */
  size_t cap = c->cap ? 2 * (size_t)c->cap : 2;
  if (x->pool_used + cap > x->pool_cap && repack(x, a, cap)) return STEER_ENOMEM;
  if (c->count)
    memcpy(x->pool + x->pool_used, x->pool + c->start,
           c->count * sizeof(geo_item));
  x->pool_held += cap - c->cap;
  c->start = (uint32_t)x->pool_used;
  c->cap = (uint32_t)cap;
  x->pool_used += cap;
  return STEER_OK;
}

/* Drops the cells of span s that hold nothing. */
static void drop_empty(geo_index *x, geo_span s) {
  for (int32_t j = 0; j < s.ny; j++)
    for (int32_t i = 0; i < s.nx; i++) {
      int32_t cx = step_cell(x, s.x0, i, x->ncx);
      int32_t cy = step_cell(x, s.y0, j, x->ncy);
      size_t slot = slot_of(x, cx, cy);
      if (x->cells[slot].cx != EMPTY && x->cells[slot].count == 0)
        delete_slot(x, slot);
    }
}

/* ---- items -------------------------------------------------------------------- */

steer_status geo_index_reserve(geo_index *x, steer_allocator *a,
                               size_t items) {
  size_t old = x->item_cap;
  if (alloc_grow(a, (void **)&x->spans, sizeof(geo_span), &x->item_cap, items))
    return STEER_ENOMEM;
  for (size_t i = old; i < x->item_cap; i++) {
    geo_span none = {0, 0, 0, 0};
    x->spans[i] = none;
  }
  return STEER_OK;
}

/* The entry of `item` in an array of n, or NULL. */
static geo_item *find(geo_item *items, size_t n, int32_t item) {
  for (size_t k = 0; k < n; k++)
    if (items[k].item == item) return &items[k];
  return NULL;
}

/* Calls fn on the entry of `item` in each cell (or the large array) of
   span s. */
typedef void (*entry_fn)(geo_index *x, geo_item *items, uint32_t *count,
                         geo_item *e, int32_t arg);

static void each_entry(geo_index *x, geo_span s, int32_t item, entry_fn fn,
                       int32_t arg) {
  if (s.nx < 0) {
    uint32_t n = (uint32_t)x->large_count;
    fn(x, x->large, &n, find(x->large, n, item), arg);
    x->large_count = n;
    return;
  }
  for (int32_t j = 0; j < s.ny; j++)
    for (int32_t i = 0; i < s.nx; i++) {
      geo_cell *c = &x->cells[slot_of(x, step_cell(x, s.x0, i, x->ncx),
                                      step_cell(x, s.y0, j, x->ncy))];
      geo_item *items = x->pool + c->start;
      fn(x, items, &c->count, find(items, c->count, item), arg);
    }
}

/* A cell's entries (and the large ones) stay in the order of their items'
   numbers whatever the history of edits, as a world restored from a
   snapshot adds them: walks that meet equals (ORCA's lines, a tie
   between two shapes) then take them in the same order in both. */
static void put_in_order(geo_item *items, uint32_t *count, geo_item e) {
  uint32_t at = *count;
  while (at > 0 && items[at - 1].item > e.item) {
    items[at] = items[at - 1];
    at--;
  }
  items[at] = e;
  ++*count;
}

/* Entry e out of its cell, the later ones moved up (the order kept). */
static void close_gap(geo_item *items, uint32_t *count, geo_item *e) {
  size_t at = (size_t)(e - items);
  --*count;
  memmove(e, e + 1, (*count - at) * sizeof *e);
}

static void take_out(geo_index *x, geo_item *items, uint32_t *count,
                     geo_item *e, int32_t arg) {
  (void)arg;
  close_gap(items, count, e);
  x->entries--;
}

static void rename_to(geo_index *x, geo_item *items, uint32_t *count,
                      geo_item *e, int32_t to) {
  (void)x;
  geo_item moved = *e;
  moved.item = to;
  /* out and back in at its new number's place */
  close_gap(items, count, e);
  put_in_order(items, count, moved);
}

steer_status geo_index_insert(geo_index *x, steer_allocator *a,
                              int32_t item, geo_box b, const double v[4]) {
  geo_span s = span_of(x, b);
  if (geo_index_reserve(x, a, (size_t)item + 1)) return STEER_ENOMEM;
  /* first the room for every new entry, so that nothing changes on a
     failure; then the old entries out and the new ones in */
  if (s.nx < 0) {
    if (alloc_grow(a, (void **)&x->large, sizeof(geo_item), &x->large_cap,
                   x->large_count + 1))
      return STEER_ENOMEM;
  } else {
    if (reserve_cells(x, a, s)) return STEER_ENOMEM;
    for (int32_t j = 0; j < s.ny; j++)
      for (int32_t i = 0; i < s.nx; i++)
        if (reserve_entry(x, a, step_cell(x, s.x0, i, x->ncx),
                          step_cell(x, s.y0, j, x->ncy))) {
          drop_empty(x, s);
          return STEER_ENOMEM;
        }
  }
  geo_span old = x->spans[item];
  if (old.nx != 0) each_entry(x, old, item, take_out, 0);
  geo_item e;
  memcpy(e.v, v, sizeof e.v);
  e.item = item;
  e.seen = 0;
  if (s.nx < 0) {
    uint32_t n = (uint32_t)x->large_count;
    put_in_order(x->large, &n, e);
    x->large_count = n;
    x->entries++;
  } else {
    /* on a torus an item all round an axis covers the cell before its
       first one too */
    uint32_t round = (x->wrap && s.nx == x->ncx ? GEO_LEFT : 0) |
                     (x->wrap && s.ny == x->ncy ? GEO_BELOW : 0);
    for (int32_t j = 0; j < s.ny; j++)
      for (int32_t i = 0; i < s.nx; i++) {
        geo_cell *c = &x->cells[slot_of(x, step_cell(x, s.x0, i, x->ncx),
                                        step_cell(x, s.y0, j, x->ncy))];
        e.seen = round | (i > 0 ? GEO_LEFT : 0) | (j > 0 ? GEO_BELOW : 0);
        put_in_order(x->pool + c->start, &c->count, e);
        x->entries++;
      }
  }
  x->spans[item] = s;
  if (old.nx > 0) drop_empty(x, old);
  return STEER_OK;
}

void geo_index_remove(geo_index *x, int32_t item) {
  if ((size_t)item >= x->item_cap || x->spans[item].nx == 0) return;
  geo_span s = x->spans[item];
  each_entry(x, s, item, take_out, 0);
  if (s.nx > 0) drop_empty(x, s);
  geo_span none = {0, 0, 0, 0};
  x->spans[item] = none;
}

void geo_index_rename(geo_index *x, int32_t from, int32_t to) {
  each_entry(x, x->spans[from], from, rename_to, to);
  x->spans[to] = x->spans[from];
  geo_span none = {0, 0, 0, 0};
  x->spans[from] = none;
}

/* ---- cursors ------------------------------------------------------------------ */

void geo_cursor_init(geo_cursor *c, const geo_index *x, geo_box q,
                     size_t count) {
  c->x = x;
  c->run = NULL;
  c->left = 0;
  c->skip = 0;
  c->i = c->j = 0;
  c->cell = 0;
  c->count = count;
  geo_index_axis(x, 0, q.x0, q.x1, &c->x0, &c->nx);
  geo_index_axis(x, 1, q.y0, q.y1, &c->y0, &c->ny);
  if (!x->entries)
    c->phase = 2; /* the index is empty */
  else
    c->phase = (double)c->nx * c->ny > (double)count + 8 ? 3 : 0;
}

size_t geo_cursor_next_run(geo_cursor *c, const geo_item **items) {
  const geo_index *x = c->x;
  while (c->phase == 0) {
    if (c->j >= c->ny) {
      c->phase = 1;
      c->skip = 0;
      if (!x->large_count) break;
      *items = x->large;
      return x->large_count;
    }
    int32_t cx = c->x0 + c->i, cy = c->y0 + c->j;
    /* an item covering the cell left of (below) this one, which the walk
       took before, came there */
    c->skip = (c->i > 0 ? GEO_LEFT : 0) | (c->j > 0 ? GEO_BELOW : 0);
    if (++c->i >= c->nx) {
      c->i = 0;
      c->j++;
    }
    const geo_cell *cell = geo_index_cell(x, cx, cy);
    if (cell) {
      *items = geo_cell_items(x, cell);
      return cell->count;
    }
  }
  if (c->phase == 3) {
    c->phase = 2;
    c->skip = 0;
    *items = NULL;
    return c->count;
  }
  c->phase = 2;
  return 0;
}

int32_t geo_cursor_next(geo_cursor *c) {
  for (;;) {
    while (c->left > 0) {
      c->left--;
      const geo_item *e = c->run++;
      if (!(e->seen & c->skip)) return e->item;
    }
    if (c->phase == 3) { /* the scan, one item at a time */
      if (c->cell < c->count) return (int32_t)c->cell++;
      c->phase = 2;
      return -1;
    }
    const geo_item *items;
    size_t n = geo_cursor_next_run(c, &items);
    if (n == 0) return -1;
    c->run = items;
    c->left = n;
  }
}
