/* flowfield.c - flow fields: Dijkstra from the goals over a navigation
 * grid (exact octile costs), a direction per cell, and reading them. */
#include <math.h>
#include <string.h>
#include "navgrid.h"
#include "vec.h"

/* ---- computing ---------------------------------------------------------- */

/* A cell's search state while the field is computed, in one byte: 0 not
   reached yet, TAG_OPEN or TAG_DONE plus its step (the move k, in
   nav_dx/nav_dy order, toward the cell it is reached from; NO_STEP for a
   goal). */
enum { NO_STEP = 8, STEP_BITS = 15, TAG_OPEN = 16, TAG_DONE = 32 };

/* An open cell's links (buckets: its neighbors in its bucket's list; heap:
   next is its slot in the heap). Its cost is in the field, as it goes. */
typedef struct flow_link {
  int32_t next, prev;
} flow_link;

/* What a computation needs besides the field: 14 bytes per cell, plus 2
   per row and per column and 20 (the map's border and slack). */
typedef struct flow_scratch {
  flow_link *link; /* per cell */
  int32_t *heap;   /* the heap's cells; then the escape's queue */
  uint8_t *tag;    /* per cell */
  uint8_t *map;    /* (W + 2) x (H + 2) and 8 bytes of slack each side:
                      the passable cells, then the escape */
  size_t bytes;
} flow_scratch;

/* The index offsets of the eight moves in a grid of rows `stride` wide. */
static void move_offsets(int32_t *off, int32_t stride) {
  for (int k = 0; k < 8; k++) off[k] = nav_dy[k] * stride + nav_dx[k];
}

/* Bytes read and written eight at a time ("SWAR": each byte of the word is
   a cell, 0 or 1 before shifts of up to 7, so no bit crosses into the next
   byte; the byte order does not matter, it goes back the way it came). */
static uint64_t load8(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}
static uint64_t load1(const uint8_t *p) { return *p; }

/* The moves of the cells at x of row o (n above, s below) of the map of
   passable cells, one per byte, read with `load`. */
#define MOVES_AT(load, n, o, s, x)                                       \
  ((load(o + x + 1) | load(o + x - 1) << 1 | load(s + x) << 2 |         \
    load(n + x) << 3 |                                                  \
    (load(o + x + 1) & load(s + x) & load(s + x + 1)) << 4 |            \
    (load(o + x - 1) & load(n + x) & load(n + x - 1)) << 5 |            \
    (load(o + x + 1) & load(n + x) & load(n + x + 1)) << 6 |            \
    (load(o + x - 1) & load(s + x) & load(s + x - 1)) << 7) &           \
   (load(o + x) * 0xFF))

/* Each cell's moves as bits (a reachable cell's blend mask: the searches
   below test one bit instead of bounds and three costs), in the order of
   nav_dx / nav_dy: E W S N, SE NW NE SW. They come from `open`, the map of
   the passable cells with a border. Returns the dearest cost. */
static double find_moves(const steer_navgrid *g, uint8_t *moves,
                         uint8_t *open) {
  const int W = g->width, H = g->height;
  const size_t BW = (size_t)W + 2;
  const double *cost = g->cost;
  double dearest = 1;
  memset(open, 0, BW);
  memset(open + (H + 1) * BW, 0, BW);
  for (int y = 0; y < H; y++) {
    uint8_t *row = open + (y + 1) * BW + 1;
    const double *c = cost + (size_t)y * W;
    row[-1] = row[W] = 0;
    for (int x = 0; x < W; x++) {
      row[x] = c[x] > 0;
      if (c[x] > dearest) dearest = c[x];
    }
  }
  for (int y = 0; y < H; y++) {
    const uint8_t *n = open + y * BW + 1, *o = n + BW, *s = o + BW;
    uint8_t *m = moves + (size_t)y * W;
    if (W < 8) {
      for (int x = 0; x < W; x++) m[x] = (uint8_t)MOVES_AT(load1, n, o, s, x);
      continue;
    }
    /* eight at a time, the last eight overlapping the ones before */
    for (int x = 0;; x += 8) {
      if (x > W - 8) x = W - 8;
      uint64_t w = MOVES_AT(load8, n, o, s, x);
      memcpy(m + x, &w, 8);
      if (x == W - 8) break;
    }
  }
  return dearest;
}

/* The body runs for the cell c of each goal on a passable cell, once per
   cell: the body tags it. */
#define FOR_EACH_GOAL(f, s, c)                                         \
  for (size_t q_ = 0; q_ < (f)->goal_count; q_++)                      \
    for (int32_t c = (f)->goal_cells[q_];                              \
         c >= 0 && (f)->grid->cost[c] > 0 && !(s)->tag[c]; c = -1)

/* ---- the heap (costs too far apart for buckets) ---- */

static int before(const flow_cell *cells, int32_t a, int32_t b) {
  return cells[a].dist < cells[b].dist ||
         (cells[a].dist == cells[b].dist && a < b);
}

static void place(flow_scratch *s, size_t k, int32_t cell) {
  s->heap[k] = cell;
  s->link[cell].next = (int32_t)k;
}

static void sift_up(const flow_cell *cells, flow_scratch *s, size_t k,
                    int32_t cell) {
  while (k > 0) {
    size_t parent = (k - 1) / 2;
    if (!before(cells, cell, s->heap[parent])) break;
    place(s, k, s->heap[parent]);
    k = parent;
  }
  place(s, k, cell);
}

static int32_t pop(const flow_cell *cells, flow_scratch *s, size_t *n) {
  int32_t top = s->heap[0], it = s->heap[--*n];
  size_t k = 0;
  for (;;) {
    size_t c = 2 * k + 1;
    if (c >= *n) break;
    if (c + 1 < *n && before(cells, s->heap[c + 1], s->heap[c])) c++;
    if (!before(cells, s->heap[c], it)) break;
    place(s, k, s->heap[c]);
    k = c;
  }
  if (*n > 0) place(s, k, it);
  return top;
}

/* Cost from every cell to the nearest goal. A move from v into u costs
   cost(u) * (1 or sqrt 2); the corner rule is symmetric, so the search
   runs outward from the goals over the same moves. This one keeps the open
   cells in a binary heap, ordered by cost, then cell. */
static void dijkstra_heap(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  const double *cost = g->cost;
  flow_cell *cells = f->cells;
  uint8_t *tag = s->tag;
  int32_t off[8];
  move_offsets(off, g->width);
  size_t n = 0;
  FOR_EACH_GOAL(f, s, c) {
    cells[c].dist = 0;
    tag[c] = TAG_OPEN | NO_STEP;
    sift_up(cells, s, n++, c);
  }
  while (n > 0) {
    int32_t u = pop(cells, s, &n);
    tag[u] += TAG_DONE - TAG_OPEN;
    double du = cells[u].dist;
    for (unsigned m = f->blend[u], k = 0; m; m >>= 1, k++) {
      if (!(m & 1)) continue;
      int32_t v = u + off[k];
      if (tag[v] & TAG_DONE) continue;
      double d = du + cost[u] * (k < 4 ? 1.0 : NAV_SQRT2);
      if (!tag[v] || d < cells[v].dist) {
        cells[v].dist = d;
        sift_up(cells, s, tag[v] ? (size_t)s->link[v].next : n++, v);
        tag[v] = (uint8_t)(TAG_OPEN | (k ^ 1)); /* back along the move: to u */
      }
    }
  }
}

/* ---- the buckets ---- */

/* The same with a bucket queue: bucket b holds the open cells whose cost
   has floor b. Every move costs at least 1, so a cell settled from bucket b
   can only offer b + 1 or more to the others: every cell of the current
   bucket is final, in any order, and the costs come out exactly as with
   the heap. The buckets are circular: `nb` exceeds the dearest move + 1.
   Each bucket is a stack: its order settles the ties between equal costs
   (which neighbor a cell's step leads to), so it is part of the result.
   `unit`: every passable cell costs 1 (the search reads no costs). */
#define FLOW_MAX_BUCKETS 256
static void dijkstra_buckets(steer_flowfield *f, flow_scratch *s, int nb,
                             int unit) {
  const steer_navgrid *g = f->grid;
  const double *cost = g->cost;
  const uint8_t *moves = f->blend;
  flow_cell *cells = f->cells;
  flow_link *link = s->link;
  uint8_t *tag = s->tag;
  int32_t head[FLOW_MAX_BUCKETS], off[8];
  move_offsets(off, g->width);
  const size_t mask = (size_t)nb - 1; /* nb is a power of two */
  for (int b = 0; b < nb; b++) head[b] = -1;
#define BUCKET(d) ((int)((size_t)(d) & mask))
#define PUSH(v, b)                                                     \
  do {                                                                 \
    link[v].next = head[b];                                            \
    link[v].prev = -1;                                                 \
    if (head[b] >= 0) link[head[b]].prev = (v);                        \
    head[b] = (v);                                                     \
  } while (0)
  size_t open = 0;
  FOR_EACH_GOAL(f, s, c) {
    cells[c].dist = 0;
    tag[c] = TAG_OPEN | NO_STEP;
    PUSH(c, 0);
    open++;
  }
  for (size_t level = 0; open > 0; level++) {
    int b = (int)(level & mask);
    /* nothing joins or leaves this bucket while it is settled */
    int32_t u = head[b];
    head[b] = -1;
    while (u >= 0) {
      int32_t after = link[u].next;
      tag[u] += TAG_DONE - TAG_OPEN;
      open--;
      double du = cells[u].dist;
      double cu = unit ? 1.0 : cost[u];
      double straight = du + cu, diagonal = du + cu * NAV_SQRT2;
      for (unsigned m = moves[u], k = 0; m; m >>= 1, k++) {
        if (!(m & 1)) continue;
        int32_t v = u + off[k];
        unsigned t = tag[v];
        if (t & TAG_DONE) continue;
        double d = k < 4 ? straight : diagonal;
        if (!t) {
          cells[v].dist = d;
          PUSH(v, BUCKET(d));
          open++;
        } else if (d < cells[v].dist) {
          int bv = BUCKET(d), bold = BUCKET(cells[v].dist);
          cells[v].dist = d;
          if (bv != bold) { /* unlink from its old bucket, push on the new */
            flow_link *lv = &link[v];
            if (lv->prev < 0) head[bold] = lv->next;
            else link[lv->prev].next = lv->next;
            if (lv->next >= 0) link[lv->next].prev = lv->prev;
            PUSH(v, bv);
          }
        } else {
          continue;
        }
        tag[v] = (uint8_t)(TAG_OPEN | (k ^ 1)); /* back along the move: to u */
      }
      u = after;
    }
  }
#undef BUCKET
#undef PUSH
}

/* ---- the rest of the field ---- */

/* Blocked and unreachable cells point toward the nearest reachable cell in
   8-neighbor steps: a breadth-first search outward from every reachable
   cell (in index order; blocked cells are crossed, corners may be cut). It
   runs on the map: 0 for the cells not seen yet, SEEN + step for the ones
   it reached, REACHED for the ones a goal reaches, BORDER around. */
enum { SEEN = 0x10, BORDER = 0x40, REACHED = 0x80 };
#define LANES UINT64_C(0x0101010101010101) /* 1 in every byte */
/* per byte of map word w: 1 if it is REACHED, 1 if it is a cell goals do
   not reach (not REACHED, not BORDER) */
#define REACHED_LANES(w) ((w) >> 7 & LANES)
#define UNREACHED_LANES(w) (~((w) >> 6 | (w) >> 7) & LANES)
/* the number of 1 lanes of a word of 0 and 1 lanes */
#define LANE_COUNT(w) ((size_t)(((w) * LANES) >> 56))

/* The first level: a cell next to reachable ones is reached from the first
   of them in index order, which it steps to. Eight cells at a time over
   `bytes` of the map (whole rows, their border included). Returns how
   many. */
static size_t escape_first_level(uint8_t *map, size_t bytes,
                                 const int32_t *off) {
  size_t count = 0;
  for (size_t p = 0; p < bytes; p += 8) {
    const uint8_t *q = map + p;
    uint64_t step = 0, any = 0, r, keep;
    /* the last in index order first: the first overrides them */
#define TRY(k)                                                         \
  r = REACHED_LANES(load8(q + off[k]));                                \
  keep = r * 0xFF;                                                     \
  step = (step & ~keep) | ((uint64_t)(k) * LANES & keep);              \
  any |= r;
    TRY(4) TRY(2) TRY(7) TRY(0) TRY(1) TRY(6) TRY(3) TRY(5) /* SE ... NW */
#undef TRY
    uint64_t own = load8(q), pick = any & UNREACHED_LANES(own);
    own |= (step | SEEN * LANES) & (pick * 0xFF);
    memcpy(map + p, &own, 8);
    count += LANE_COUNT(pick);
  }
  return count;
}

/* The deeper levels: the first level in the order the search meets it
   (by the reachable cell it steps to, then by move), then outward. */
static void escape_deeper(const steer_flowfield *f, flow_scratch *s,
                          const int32_t *off, size_t left) {
  const int W = f->grid->width, H = f->grid->height;
  const int32_t MS = W + 2;
  uint8_t *map = s->map;
  int32_t *queue = s->heap;
  size_t tail = 0;
  /* reachable cells in index order, eight at a time: most have no first
     level cell around */
  for (int32_t p = MS; p < (H + 1) * MS; p += 8) {
    if (!REACHED_LANES(load8(map + p))) continue;
    uint64_t around = 0;
    for (int k = 0; k < 8; k++) around |= load8(map + p + off[k]);
    if (!(around >> 4 & LANES)) continue; /* no SEEN */
    for (int32_t b = p; b < p + 8; b++) {
      if (map[b] != REACHED) continue;
      for (int k = 0; k < 8; k++)
        if (map[b + off[k]] == (SEEN | (k ^ 1))) queue[tail++] = b + off[k];
    }
  }
  for (size_t head = 0; left > 0; head++) {
    int32_t u = queue[head];
    for (int k = 0; k < 8; k++) {
      int32_t v = u + off[k];
      if (map[v]) continue;
      map[v] = (uint8_t)(SEEN | (k ^ 1)); /* the step back leads out */
      queue[tail++] = v;
      left--;
    }
  }
}

/* The blend masks of the unreachable cells at x of map row o: their
   unreachable neighbors, any, corners too; the others keep theirs (a
   reachable cell's mask is its moves, which all lead to reachable cells and
   never across a blocked corner). */
#define BLEND_AT(load, o, x, off, old)                                     \
  (((UNREACHED_LANES(load(o + x + off[0])) |                               \
     UNREACHED_LANES(load(o + x + off[1])) << 1 |                          \
     UNREACHED_LANES(load(o + x + off[2])) << 2 |                          \
     UNREACHED_LANES(load(o + x + off[3])) << 3 |                          \
     UNREACHED_LANES(load(o + x + off[4])) << 4 |                          \
     UNREACHED_LANES(load(o + x + off[5])) << 5 |                          \
     UNREACHED_LANES(load(o + x + off[6])) << 6 |                          \
     UNREACHED_LANES(load(o + x + off[7])) << 7) &                         \
    (UNREACHED_LANES(load(o + x)) * 0xFF)) |                               \
   ((old) & (REACHED_LANES(load(o + x)) * 0xFF)))

/* Every cell's cost, direction and blend mask from the search's results. */
static void finish(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  const int W = g->width, H = g->height;
  const int32_t MS = W + 2;
  flow_cell *cells = f->cells;
  uint8_t *map = s->map, *blend = f->blend;
  const uint8_t *tag = s->tag;
  /* the map: which cells a goal reaches */
  size_t unreached = 0;
  memset(map - 8, BORDER, (size_t)MS + 8);
  memset(map + (size_t)(H + 1) * MS, BORDER, (size_t)MS + 8);
  for (int y = 0; y < H; y++) {
    uint8_t *row = map + (size_t)(y + 1) * MS + 1;
    const uint8_t *t = tag + (size_t)y * W;
    row[-1] = row[W] = BORDER;
    for (int x = 0; x < W; x++) {
      int reached = (t[x] & TAG_DONE) != 0;
      row[x] = (uint8_t)(reached * REACHED);
      unreached += (size_t)!reached;
    }
  }
  f->reachable_any = unreached < g->cells;
  if (!f->reachable_any) { /* nothing to lead to: no blending either */
    for (size_t c = 0; c < g->cells; c++) {
      cells[c].dist = -1;
      cells[c].dx = cells[c].dy = 0;
    }
    memset(blend, 0, g->cells);
    return;
  }
  int32_t off[8];
  move_offsets(off, MS);
  if (unreached > 0) {
    size_t first = escape_first_level(map + MS, (size_t)H * MS, off);
    if (first < unreached) escape_deeper(f, s, off, unreached - first);
  }
  float dir_x[NO_STEP + 1], dir_y[NO_STEP + 1];
  for (int k = 0; k < 8; k++) {
    double scale = k < 4 ? 1.0 : 1.0 / NAV_SQRT2;
    dir_x[k] = (float)(nav_dx[k] * scale);
    dir_y[k] = (float)(nav_dy[k] * scale);
  }
  dir_x[NO_STEP] = dir_y[NO_STEP] = 0;
  const double unreachable = -1;
  uint64_t minus_one;
  memcpy(&minus_one, &unreachable, 8);
  for (int y = 0; y < H; y++) {
    const uint8_t *o = map + (size_t)(y + 1) * MS + 1;
    const uint8_t *t = tag + (size_t)y * W;
    uint8_t *m = blend + (size_t)y * W;
    flow_cell *c = cells + (size_t)y * W;
    if (W < 8) {
      for (int x = 0; x < W; x++)
        m[x] = (uint8_t)BLEND_AT(load1, o, x, off, m[x]);
    } else {
      /* eight at a time, the last eight overlapping the ones before */
      for (int x = 0;; x += 8) {
        if (x > W - 8) x = W - 8;
        uint64_t w = BLEND_AT(load8, o, x, off, load8(m + x));
        memcpy(m + x, &w, 8);
        if (x == W - 8) break;
      }
    }
    /* without branches: in a maze, reached and not alternate at random */
    for (int x = 0; x < W; x++) {
      uint64_t keep = 0u - (uint64_t)(o[x] == REACHED), dist;
      unsigned step = (unsigned)((t[x] & keep) | (o[x] & ~keep)) & STEP_BITS;
      memcpy(&dist, &c[x].dist, 8);
      dist = (dist & keep) | (minus_one & ~keep);
      memcpy(&c[x].dist, &dist, 8);
      c[x].dx = dir_x[step];
      c[x].dy = dir_y[step];
    }
  }
}

/* Recomputes everything from the grid's costs; no allocation needed. */
static void compute(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  /* the reachable cells' blend masks are their moves */
  double dearest = find_moves(g, f->blend, s->map);
  memset(s->tag, 0, g->cells);
  /* buckets (a power of two) beyond the dearest move + 1 */
  int nb = 4;
  while (nb < FLOW_MAX_BUCKETS && nb < dearest * NAV_SQRT2 + 3) nb *= 2;
  if (nb >= dearest * NAV_SQRT2 + 3)
    dijkstra_buckets(f, s, nb, dearest == 1); /* costs: 0 or at least 1 */
  else
    dijkstra_heap(f, s);
  finish(f, s);
  f->version = g->version;
}

/* The scratch's size: 14 bytes per cell and the map (scratch_carve). */
static size_t scratch_bytes(const steer_navgrid *g) {
  size_t map = ((size_t)g->width + 2) * ((size_t)g->height + 2) + 16;
  return g->cells * (sizeof(flow_link) + sizeof(int32_t) + 1) + map;
}

/* Points the scratch's parts into block (scratch_bytes long). */
static void scratch_carve(flow_scratch *s, void *block, const steer_navgrid *g) {
  size_t cells = g->cells;
  s->bytes = scratch_bytes(g);
  s->link = (flow_link *)block;
  s->heap = (int32_t *)(s->link + cells);
  s->tag = (uint8_t *)(s->heap + cells);
  s->map = s->tag + cells + 8; /* slack for reading eight at a time */
}

/* The scratch of one computation: the field's own when it keeps one, else
   a block of its own (scratch_free gives it back). */
static int scratch_alloc(flow_scratch *s, const steer_flowfield *f) {
  void *block = f->scratch;
  if (!block) block = steer_alloc(NULL, 0, scratch_bytes(f->grid));
  if (!block) return 0;
  scratch_carve(s, block, f->grid);
  return 1;
}

static void scratch_free(flow_scratch *s, const steer_flowfield *f) {
  if ((void *)s->link != f->scratch) steer_alloc(s->link, s->bytes, 0);
}

static void field_free(steer_flowfield *f) {
  size_t cells = f->grid->cells;
  if (f->cells) steer_alloc(f->cells, cells * sizeof(flow_cell), 0);
  if (f->blend) steer_alloc(f->blend, cells, 0);
  if (f->goals) steer_alloc(f->goals, f->goal_room * sizeof(steer_vec2), 0);
  if (f->goal_cells)
    steer_alloc(f->goal_cells, f->goal_room * sizeof(int32_t), 0);
  if (f->scratch) steer_alloc(f->scratch, f->scratch_bytes, 0);
  steer_navgrid_release(f->grid);
  steer_alloc(f, sizeof *f, 0);
}

/* Copies the goals in and finds their cells. */
static void place_goals(steer_flowfield *f, const steer_vec2 *goals,
                        size_t n) {
  for (size_t q = 0; q < n; q++) {
    f->goals[q] = goals[q];
    f->goal_cells[q] = (int32_t)nav_cell_index(f->grid, goals[q]);
  }
  f->goal_count = n;
}

steer_flowfield *flow_make(steer_navgrid *g, const steer_vec2 *goals,
                           size_t n, int computed) {
  if (n > SIZE_MAX / sizeof(steer_vec2)) return NULL;
  steer_flowfield *f = steer_alloc(NULL, 0, sizeof *f);
  if (!f) return NULL;
  memset(f, 0, sizeof *f);
  f->refs = 1;
  f->grid = g;
  steer_navgrid_retain(g);
  f->goal_room = n;
  size_t cells = g->cells;
  flow_scratch s;
  f->cells = steer_alloc(NULL, 0, cells * sizeof(flow_cell));
  f->blend = steer_alloc(NULL, 0, cells);
  if (n) {
    f->goals = steer_alloc(NULL, 0, n * sizeof(steer_vec2));
    f->goal_cells = steer_alloc(NULL, 0, n * sizeof(int32_t));
  }
  if (!f->cells || !f->blend || (n && (!f->goals || !f->goal_cells)) ||
      (computed && !scratch_alloc(&s, f))) {
    field_free(f);
    return NULL;
  }
  place_goals(f, goals, n);
  if (computed) {
    compute(f, &s);
    scratch_free(&s, f);
  }
  return f;
}

steer_flowfield *steer_flowfield_create(steer_navgrid *g,
                                        const steer_vec2 *goals, size_t n) {
  return flow_make(g, goals, n, 1);
}

void steer_flowfield_retain(steer_flowfield *f) { f->refs++; }

void steer_flowfield_release(steer_flowfield *f) {
  if (f && --f->refs == 0) field_free(f);
}

steer_navgrid *steer_flowfield_grid(const steer_flowfield *f) {
  return f->grid;
}

int steer_flowfield_stale(const steer_flowfield *f) {
  return f->version != f->grid->version;
}

steer_status steer_flowfield_update(steer_flowfield *f) {
  flow_scratch s;
  if (!scratch_alloc(&s, f)) return STEER_ENOMEM;
  compute(f, &s);
  scratch_free(&s, f);
  return STEER_OK;
}

steer_status steer_flowfield_set_goals(steer_flowfield *f,
                                       const steer_vec2 *goals, size_t n) {
  if (n > SIZE_MAX / sizeof(steer_vec2)) return STEER_ENOMEM;
  /* everything that may fail first, so that failing changes nothing */
  int grow = n > f->goal_room;
  steer_vec2 *points = f->goals;
  int32_t *cells = f->goal_cells;
  if (grow) {
    points = steer_alloc(NULL, 0, n * sizeof(steer_vec2));
    cells = steer_alloc(NULL, 0, n * sizeof(int32_t));
  }
  /* a field whose goals move is recomputed often: it keeps its scratch */
  void *scratch = f->scratch;
  if (!scratch) scratch = steer_alloc(NULL, 0, scratch_bytes(f->grid));
  if ((grow && (!points || !cells)) || !scratch) {
    if (grow && points) steer_alloc(points, n * sizeof(steer_vec2), 0);
    if (grow && cells) steer_alloc(cells, n * sizeof(int32_t), 0);
    if (scratch && scratch != f->scratch)
      steer_alloc(scratch, scratch_bytes(f->grid), 0);
    return STEER_ENOMEM;
  }
  if (grow) {
    if (f->goals) steer_alloc(f->goals, f->goal_room * sizeof(steer_vec2), 0);
    if (f->goal_cells)
      steer_alloc(f->goal_cells, f->goal_room * sizeof(int32_t), 0);
    f->goals = points;
    f->goal_cells = cells;
    f->goal_room = n;
  }
  f->scratch = scratch;
  f->scratch_bytes = scratch_bytes(f->grid);
  place_goals(f, goals, n);
  flow_scratch s;
  scratch_alloc(&s, f); /* the field's own: cannot fail */
  compute(f, &s);
  return STEER_OK;
}

/* ---- reading ------------------------------------------------------------ */

int flow_sample(const steer_flowfield *f, steer_vec2 p, steer_vec2 *dir,
                double *dist, long *cell) {
  const steer_navgrid *g = f->grid;
  const int W = g->width;
  steer_vec2 q = nav_grid_coords(g, p);
  *dist = -1;
  if (!nav_in_grid(g, q)) {
    /* outside: toward the centre of the nearest cell */
    *cell = -1;
    double tx = fmin(fmax(q.x, 0.5), W - 0.5);
    double ty = fmin(fmax(q.y, 0.5), g->height - 0.5);
    /* measured in world units: with a tiny cell q itself may be infinite */
    steer_vec2 t = v2(g->origin.x + tx * g->cell_size,
                      g->origin.y + ty * g->cell_size);
    *dir = v2_normalize(v2_sub(t, p));
    return -1;
  }
  int x = nav_column(q.x, W), y = nav_column(q.y, g->height);
  long c = (long)y * W + x;
  *cell = c;
  const flow_cell *fc = f->cells;
  int reachable = fc[c].dist >= 0;
  if (reachable && fc[c].dist == 0) { /* a goal cell */
    *dir = v2(0, 0);
    *dist = 0;
    return 1;
  }
  /* bilinear between the centres of this cell, the column and the row
     beside it on p's side, and the diagonal one; wx, wy are p's distances
     from this centre toward them */
  double u = q.x - x - 0.5, v = q.y - y - 0.5;
  double wx = fabs(u), wy = fabs(v);
  flow_blend_cells near = flow_blend_cells_of(f, c, u, v);
  const flow_cell *own = near.own;
  double w0 = (1 - wx) * (1 - wy);
  double bx = w0 * own->dx, by = w0 * own->dy, bd = w0 * own->dist, bw = w0;
#define FLOW_BLEND(cellp, weight)                                        \
  if (cellp) {                                                           \
    double w_ = (weight);                                                \
    bx += w_ * (cellp)->dx;                                              \
    by += w_ * (cellp)->dy;                                              \
    bd += w_ * (cellp)->dist;                                            \
    bw += w_;                                                            \
  }
  FLOW_BLEND(near.side_x, wx * (1 - wy))
  FLOW_BLEND(near.side_y, (1 - wx) * wy)
  FLOW_BLEND(near.diag, wx * wy)
#undef FLOW_BLEND
  steer_vec2 blend = {bx, by};
  if (bx * bx + by * by <= 1e-12) /* opposite directions cancel out */
    blend = v2(own->dx, own->dy);
  *dir = v2_normalize(blend);
  if (reachable) *dist = bd / bw;
  return reachable;
}

double steer_flowfield_distance(const steer_flowfield *f, steer_vec2 p) {
  long c = nav_cell_index(f->grid, p);
  if (c < 0 || f->cells[c].dist < 0) return -1;
  return f->cells[c].dist * f->grid->cell_size;
}

steer_vec2 steer_flowfield_direction(const steer_flowfield *f, steer_vec2 p) {
  steer_vec2 dir;
  double dist;
  long cell;
  flow_sample(f, p, &dir, &dist, &cell);
  if (!f->reachable_any) dir.x = dir.y = 0;
  return dir;
}

/* ---- snapshots ---------------------------------------------------------- */

int flow_cells_valid(const steer_flowfield *f) {
  const steer_navgrid *g = f->grid;
  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++) {
      size_t c = (size_t)y * g->width + x;
      const flow_cell *fc = &f->cells[c];
      if (!(fc->dist == -1 || fc->dist >= 0) || !(fabsf(fc->dx) <= 1) ||
          !(fabsf(fc->dy) <= 1))
        return 0;
      for (int k = 0; k < 8; k++)
        if ((f->blend[c] >> k & 1) && !nav_inside(g, x + nav_dx[k], y + nav_dy[k]))
          return 0;
    }
  return 1;
}
