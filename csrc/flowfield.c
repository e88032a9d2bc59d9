/* flowfield.c - flow fields: Dijkstra from the goals over a navigation
 * grid (exact octile costs), a direction per cell, and reading them. */
#include <math.h>
#include <string.h>
#include "navgrid.h"
#include "vec.h"

/* ---- computing ---------------------------------------------------------- */

typedef struct flow_item {
  double d;
  int32_t cell;
} flow_item;

/* What a computation needs besides the field: 20 bytes per cell. */
typedef struct flow_scratch {
  int32_t *at;     /* heap: slot, FLOW_NEW or FLOW_DONE; escape: seen */
  flow_item *heap; /* heap: the heap; buckets: the links; escape: queue */
  size_t n;
} flow_scratch;

enum { FLOW_NEW = -1, FLOW_DONE = -2 };

/* The moves every cell allows, as bits, so the searches below test one
   bit instead of bounds and three costs. */
static void find_moves(const steer_navgrid *g, uint8_t *moves) {
  const int W = g->width, H = g->height;
  const double *cost = g->cost;
  size_t c = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++, c++) {
      if (cost[c] <= 0) {
        moves[c] = 0;
        continue;
      }
      int e = x + 1 < W && cost[c + 1] > 0, w = x > 0 && cost[c - 1] > 0;
      int s = y + 1 < H && cost[c + W] > 0, n = y > 0 && cost[c - W] > 0;
      /* the order of nav_dx / nav_dy: E W S N, SE NW NE SW */
      unsigned m = (unsigned)(e | w << 1 | s << 2 | n << 3);
      if (e && s && cost[c + W + 1] > 0) m |= 1u << 4;
      if (w && n && cost[c - W - 1] > 0) m |= 1u << 5;
      if (e && n && cost[c - W + 1] > 0) m |= 1u << 6;
      if (w && s && cost[c + W - 1] > 0) m |= 1u << 7;
      moves[c] = (uint8_t)m;
    }
}

static void set_dir(steer_flowfield *f, size_t c, int k) {
  double scale = k < 4 ? 1.0 : 1.0 / NAV_SQRT2;
  f->cells[c].dx = k < 0 ? 0.0f : (float)(nav_dx[k] * scale);
  f->cells[c].dy = k < 0 ? 0.0f : (float)(nav_dy[k] * scale);
}

static int before(const flow_item *a, const flow_item *b) {
  return a->d < b->d || (a->d == b->d && a->cell < b->cell);
}

static void place(flow_scratch *s, size_t k, flow_item it) {
  s->heap[k] = it;
  s->at[it.cell] = (int32_t)k;
}

static void sift_up(flow_scratch *s, size_t k, flow_item it) {
  while (k > 0) {
    size_t parent = (k - 1) / 2;
    if (!before(&it, &s->heap[parent])) break;
    place(s, k, s->heap[parent]);
    k = parent;
  }
  place(s, k, it);
}

static flow_item pop(flow_scratch *s) {
  flow_item top = s->heap[0], it = s->heap[--s->n];
  size_t k = 0;
  for (;;) {
    size_t c = 2 * k + 1;
    if (c >= s->n) break;
    if (c + 1 < s->n && before(&s->heap[c + 1], &s->heap[c])) c++;
    if (!before(&s->heap[c], &it)) break;
    place(s, k, s->heap[c]);
    k = c;
  }
  if (s->n > 0) place(s, k, it);
  return top;
}

/* Is goal q on a passable cell of the grid (its dist was set to 0)? */
static int32_t goal_cell(const steer_flowfield *f, size_t q) {
  int32_t c = f->goal_cells[q];
  return c >= 0 && f->cells[c].dist == 0 ? c : -1;
}

/* Cost from every cell to the nearest goal. A move from v into u costs
   cost(u) * (1 or sqrt 2); the corner rule is symmetric, so the search
   runs outward from the goals over the same moves. This one keeps the open
   cells in a binary heap (for costs too far apart for buckets). */
static void dijkstra_heap(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  const int W = g->width;
  flow_cell *cells = f->cells;
  for (size_t k = 0; k < g->cells; k++) s->at[k] = FLOW_NEW;
  s->n = 0;
  for (size_t q = 0; q < f->goal_count; q++) {
    int32_t c = goal_cell(f, q);
    if (c < 0 || s->at[c] != FLOW_NEW) continue; /* twice the same cell */
    flow_item it = {0, c};
    sift_up(s, s->n++, it);
  }
  while (s->n > 0) {
    flow_item cur = pop(s);
    int32_t u = cur.cell;
    s->at[u] = FLOW_DONE;
    unsigned m = f->blend[u];
    for (int k = 0; k < 8; k++) {
      if (!(m >> k & 1)) continue;
      int32_t v = u + nav_dy[k] * W + nav_dx[k];
      int32_t at = s->at[v];
      if (at == FLOW_DONE) continue;
      double d = cur.d + g->cost[u] * (k < 4 ? 1.0 : NAV_SQRT2);
      if (at == FLOW_NEW || d < cells[v].dist) {
        cells[v].dist = d;
        set_dir(f, (size_t)v, k ^ 1); /* back along the move: toward u */
        flow_item it = {d, v};
        sift_up(s, at == FLOW_NEW ? s->n++ : (size_t)at, it);
      }
    }
  }
}

/* The same with a bucket queue: bucket b holds the open cells whose cost
   has floor b. Every move costs at least 1, so a cell settled from bucket b
   can only offer b + 1 or more to the others: every cell of the current
   bucket is final, in any order, and the costs come out exactly as with
   the heap. The buckets are circular: `nb` exceeds the dearest move + 1. */
#define FLOW_MAX_BUCKETS 256
static void dijkstra_buckets(steer_flowfield *f, flow_scratch *s, int nb) {
  const steer_navgrid *g = f->grid;
  const int W = g->width;
  flow_cell *cells = f->cells;
  /* each cell's list links side by side, in the heap's room */
  int32_t *link = (int32_t *)s->heap;
  int32_t head[FLOW_MAX_BUCKETS];
  const size_t mask = (size_t)nb - 1; /* nb is a power of two */
  enum { HEAD = -1, DONE = -2, OUT = -3 };
  for (int b = 0; b < nb; b++) head[b] = -1;
  for (size_t k = 0; k < g->cells; k++) link[2 * k + 1] = OUT;
#define next(v) link[2 * (size_t)(v)]
#define prev(v) link[2 * (size_t)(v) + 1]
#define BUCKET(d) ((int)((size_t)(d) & mask))
#define PUSH(v)                                                        \
  do {                                                                 \
    int b_ = BUCKET(cells[v].dist);                                    \
    next(v) = head[b_];                                                \
    prev(v) = HEAD;                                                    \
    if (head[b_] >= 0) prev(head[b_]) = (v);                           \
    head[b_] = (v);                                                    \
  } while (0)
#define UNLINK(v)                                                      \
  do {                                                                 \
    if (prev(v) == HEAD) head[BUCKET(cells[v].dist)] = next(v);        \
    else next(prev(v)) = next(v);                                      \
    if (next(v) >= 0) prev(next(v)) = prev(v);                         \
  } while (0)
  size_t open = 0;
  for (size_t q = 0; q < f->goal_count; q++) {
    int32_t c = goal_cell(f, q);
    if (c < 0 || prev(c) != OUT) continue;
    PUSH(c);
    open++;
  }
  for (size_t level = 0; open > 0; level++) {
    int b = (int)(level & mask);
    while (head[b] >= 0) {
      int32_t u = head[b];
      UNLINK(u);
      prev(u) = DONE;
      open--;
      double du = cells[u].dist, cu = g->cost[u];
      unsigned m = f->blend[u];
      for (int k = 0; k < 8; k++) {
        if (!(m >> k & 1)) continue;
        int32_t v = u + nav_dy[k] * W + nav_dx[k];
        if (prev(v) == DONE) continue;
        double d = du + cu * (k < 4 ? 1.0 : NAV_SQRT2);
        if (prev(v) == OUT) {
          cells[v].dist = d;
          set_dir(f, (size_t)v, k ^ 1); /* back along the move: toward u */
          PUSH(v);
          open++;
        } else if (d < cells[v].dist) {
          set_dir(f, (size_t)v, k ^ 1);
          if ((size_t)d != (size_t)cells[v].dist) {
            UNLINK(v);
            cells[v].dist = d;
            PUSH(v);
          } else {
            cells[v].dist = d;
          }
        }
      }
    }
  }
#undef next
#undef prev
#undef BUCKET
#undef PUSH
#undef UNLINK
}

static void dijkstra(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  double dearest = 1;
  for (size_t k = 0; k < g->cells; k++) {
    f->cells[k].dist = -1;
    if (g->cost[k] > dearest) dearest = g->cost[k];
  }
  for (size_t q = 0; q < f->goal_count; q++) {
    int32_t c = f->goal_cells[q];
    if (c >= 0 && g->cost[c] > 0) f->cells[c].dist = 0;
  }
  /* buckets (a power of two) beyond the dearest move + 1 */
  int nb = 4;
  while (nb < FLOW_MAX_BUCKETS && nb < dearest * NAV_SQRT2 + 3) nb *= 2;
  if (nb >= dearest * NAV_SQRT2 + 3)
    dijkstra_buckets(f, s, nb);
  else
    dijkstra_heap(f, s);
}

/* The blend mask of an unreachable cell: its unreachable neighbors (any,
   corners too), in nav_dx/nav_dy order. */
static uint8_t unreachable_mask(const steer_flowfield *f, int x, int y) {
  const int W = f->grid->width, H = f->grid->height;
  const flow_cell *c = &f->cells[(size_t)y * W + x];
  int e = x + 1 < W, w = x > 0, s = y + 1 < H, n = y > 0;
  unsigned m = 0;
  if (e && c[1].dist < 0) m |= 1u << 0;
  if (w && c[-1].dist < 0) m |= 1u << 1;
  if (s && c[W].dist < 0) m |= 1u << 2;
  if (n && c[-W].dist < 0) m |= 1u << 3;
  if (e && s && c[W + 1].dist < 0) m |= 1u << 4;
  if (w && n && c[-W - 1].dist < 0) m |= 1u << 5;
  if (e && n && c[-W + 1].dist < 0) m |= 1u << 6;
  if (w && s && c[W - 1].dist < 0) m |= 1u << 7;
  return (uint8_t)m;
}

/* Blocked and unreachable cells point toward the nearest reachable cell in
   8-neighbor steps (a breadth-first search outward from every reachable
   cell; blocked cells are crossed, corners may be cut) and get their blend
   masks: their unreachable neighbors (a reachable cell's mask is its moves,
   which all lead to reachable cells and never across a blocked corner). */
static void escape_directions(steer_flowfield *f, flow_scratch *s) {
  const steer_navgrid *g = f->grid;
  const int W = g->width, H = g->height;
  int32_t *seen = s->at, *queue = (int32_t *)s->heap;
  size_t head = 0, tail = 0;
  for (size_t c = 0; c < g->cells; c++) {
    seen[c] = f->cells[c].dist >= 0;
    if (seen[c]) queue[tail++] = (int32_t)c;
  }
  f->reachable_any = tail > 0;
  if (!f->reachable_any) /* nothing to lead to: no blending either */
    memset(f->blend, 0, g->cells);
  while (head < tail && tail < g->cells) {
    int32_t u = queue[head++];
    int x = u % W, y = u / W;
    for (int k = 0; k < 8; k++) {
      int nx = x + nav_dx[k], ny = y + nav_dy[k];
      if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
      int32_t v = ny * W + nx;
      if (seen[v]) continue;
      seen[v] = 1;
      queue[tail++] = v;
      set_dir(f, (size_t)v, k ^ 1); /* the step back from v to u leads out */
      f->blend[v] = unreachable_mask(f, nx, ny);
    }
  }
}

/* Recomputes everything from the grid's costs; no allocation needed. */
static void compute(steer_flowfield *f, flow_scratch *s) {
  for (size_t c = 0; c < f->grid->cells; c++) f->cells[c].dx = f->cells[c].dy = 0;
  find_moves(f->grid, f->blend); /* the reachable cells' blend masks */
  dijkstra(f, s);
  escape_directions(f, s);
  f->version = f->grid->version;
}

static int scratch_alloc(flow_scratch *s, size_t cells) {
  s->at = steer_alloc(NULL, 0, cells * sizeof(int32_t));
  s->heap = s->at ? steer_alloc(NULL, 0, cells * sizeof(flow_item)) : NULL;
  if (s->heap) return 1;
  if (s->at) steer_alloc(s->at, cells * sizeof(int32_t), 0);
  return 0;
}

static void scratch_free(flow_scratch *s, size_t cells) {
  steer_alloc(s->at, cells * sizeof(int32_t), 0);
  steer_alloc(s->heap, cells * sizeof(flow_item), 0);
}

static void field_free(steer_flowfield *f) {
  size_t cells = f->grid->cells;
  if (f->cells) steer_alloc(f->cells, cells * sizeof(flow_cell), 0);
  if (f->blend) steer_alloc(f->blend, cells, 0);
  if (f->goals) steer_alloc(f->goals, f->goal_count * sizeof(steer_vec2), 0);
  if (f->goal_cells)
    steer_alloc(f->goal_cells, f->goal_count * sizeof(int32_t), 0);
  steer_navgrid_release(f->grid);
  steer_alloc(f, sizeof *f, 0);
}

steer_flowfield *steer_flowfield_create(steer_navgrid *g,
                                        const steer_vec2 *goals, size_t n) {
  if (n > SIZE_MAX / sizeof(steer_vec2)) return NULL;
  steer_flowfield *f = steer_alloc(NULL, 0, sizeof *f);
  if (!f) return NULL;
  memset(f, 0, sizeof *f);
  f->refs = 1;
  f->grid = g;
  steer_navgrid_retain(g);
  f->goal_count = n;
  size_t cells = g->cells;
  flow_scratch s;
  f->cells = steer_alloc(NULL, 0, cells * sizeof(flow_cell));
  f->blend = steer_alloc(NULL, 0, cells);
  if (n) {
    f->goals = steer_alloc(NULL, 0, n * sizeof(steer_vec2));
    f->goal_cells = steer_alloc(NULL, 0, n * sizeof(int32_t));
  }
  if (!f->cells || !f->blend || (n && (!f->goals || !f->goal_cells)) ||
      !scratch_alloc(&s, cells)) {
    field_free(f);
    return NULL;
  }
  for (size_t q = 0; q < n; q++) {
    f->goals[q] = goals[q];
    f->goal_cells[q] = (int32_t)nav_cell_index(g, goals[q]);
  }
  compute(f, &s);
  scratch_free(&s, cells);
  return f;
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
  if (!scratch_alloc(&s, f->grid->cells)) return STEER_ENOMEM;
  compute(f, &s);
  scratch_free(&s, f->grid->cells);
  return STEER_OK;
}

/* ---- reading ------------------------------------------------------------ */

int flow_sample(const steer_flowfield *f, steer_vec2 p, steer_vec2 *dir,
                double *dist, long *cell) {
  const steer_navgrid *g = f->grid;
  const int W = g->width;
  steer_vec2 q = nav_grid_coords(g, p);
  *dist = -1;
  if (!(q.x >= 0 && q.y >= 0 && q.x < W && q.y < g->height)) {
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
  int x = (int)q.x, y = (int)q.y; /* q >= 0: truncation is floor */
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
  int sx = u < 0 ? -1 : 1, sy = v < 0 ? -1 : 1;
  double wx = fabs(u), wy = fabs(v);
  int kx = sx > 0 ? 0 : 1, ky = sy > 0 ? 2 : 3;
  int kd = sx > 0 ? (sy > 0 ? 4 : 6) : (sy > 0 ? 7 : 5);
  unsigned m = f->blend[c];
  const flow_cell *own = &fc[c], *side_x = own + sx, *side_y = own + (long)sy * W;
  const flow_cell *diag = side_y + sx;
  double w0 = (1 - wx) * (1 - wy);
  double bx = w0 * own->dx, by = w0 * own->dy, bd = w0 * own->dist, bw = w0;
#define FLOW_BLEND(bit, cellp, weight)                                   \
  if (m >> (bit) & 1) {                                                  \
    double w_ = (weight);                                                \
    bx += w_ * (cellp)->dx;                                              \
    by += w_ * (cellp)->dy;                                              \
    bd += w_ * (cellp)->dist;                                            \
    bw += w_;                                                            \
  }
  FLOW_BLEND(kx, side_x, wx * (1 - wy))
  FLOW_BLEND(ky, side_y, (1 - wx) * wy)
  FLOW_BLEND(kd, diag, wx * wy)
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
