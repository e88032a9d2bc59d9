/* astar.c - shortest paths on a navigation grid: A* over the flat cell
 * array with a binary heap, and string pulling through line of sight. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "navgrid.h"

/* ---- the search state, kept by the grid --------------------------------- */

static astar_state *search_state(steer_navgrid *g) {
  if (g->search) return g->search;
  astar_state *s = steer_alloc(NULL, 0, sizeof *s);
  if (!s) return NULL;
  s->nodes = steer_alloc(NULL, 0, g->cells * sizeof(astar_node));
  s->heap = steer_alloc(NULL, 0, g->cells * sizeof(astar_item));
  if (!s->nodes || !s->heap) {
    if (s->nodes) steer_alloc(s->nodes, g->cells * sizeof(astar_node), 0);
    if (s->heap) steer_alloc(s->heap, g->cells * sizeof(astar_item), 0);
    steer_alloc(s, sizeof *s, 0);
    return NULL;
  }
  memset(s->nodes, 0, g->cells * sizeof(astar_node));
  s->gen = 0;
  g->search = s;
  return s;
}

/* A fresh generation: stamps of earlier searches mean "untouched". */
static void next_generation(steer_navgrid *g, astar_state *s) {
  if (s->gen >= 0x7ffffffe) { /* 2 * gen + 1 must fit: start over */
    for (size_t k = 0; k < g->cells; k++) s->nodes[k].stamp = 0;
    s->gen = 0;
  }
  s->gen++;
}

/* ---- the open list: a binary heap of (f, h, cell) ----------------------- */

static int before(const astar_item *a, const astar_item *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->h != b->h) return a->h < b->h;
  return a->cell < b->cell;
}

static void heap_place(astar_state *s, size_t k, astar_item it) {
  s->heap[k] = it;
  s->nodes[it.cell].heap_at = (int32_t)k;
}

static void sift_up(astar_state *s, size_t k, astar_item it) {
  while (k > 0) {
    size_t parent = (k - 1) / 2;
    if (!before(&it, &s->heap[parent])) break;
    heap_place(s, k, s->heap[parent]);
    k = parent;
  }
  heap_place(s, k, it);
}

static astar_item heap_pop(astar_state *s, size_t *n) {
  astar_item top = s->heap[0], it = s->heap[--*n];
  size_t k = 0;
  for (;;) {
    size_t c = 2 * k + 1;
    if (c >= *n) break;
    if (c + 1 < *n && before(&s->heap[c + 1], &s->heap[c])) c++;
    if (!before(&s->heap[c], &it)) break;
    heap_place(s, k, s->heap[c]);
    k = c;
  }
  if (*n > 0) heap_place(s, k, it);
  return top;
}

/* ---- A* ------------------------------------------------------------------ */

static double heuristic(int dx, int dy, int diagonal) {
  dx = abs(dx);
  dy = abs(dy);
  if (!diagonal) return dx + dy;
  int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (hi - lo) + NAV_SQRT2 * lo;
}

/* What one search needs besides the grid. */
typedef struct search_ctx {
  steer_navgrid *g;
  astar_state *s;
  int32_t goal;
  int gx, gy, diagonal;
  size_t n; /* heap size */
} search_ctx;

/* Offers cell v = (vx, vy), reached from u at cost gv. */
static void relax(search_ctx *c, int32_t u, int vx, int vy, double gv) {
  astar_state *s = c->s;
  int32_t v = vy * c->g->width + vx;
  astar_node *nv = &s->nodes[v];
  const uint32_t open = 2 * s->gen;
  if (nv->stamp == open + 1) return; /* closed */
  if (nv->stamp == open) {
    if (!(gv < nv->g)) return;
    astar_item it = s->heap[nv->heap_at];
    nv->g = gv;
    nv->parent = u;
    it.f = gv + it.h;
    sift_up(s, (size_t)nv->heap_at, it);
    return;
  }
  nv->stamp = open;
  nv->g = gv;
  nv->parent = u;
  astar_item it;
  it.h = heuristic(vx - c->gx, vy - c->gy, c->diagonal);
  it.f = gv + it.h;
  it.cell = v;
  sift_up(s, c->n++, it);
}

/* ---- jump point search (uniform costs, octile moves, no corner cutting) - */

/* The grid's passable cells as bytes with a blocked border one cell wide,
   so the jumps below test one byte per cell and no bounds (row stride
   width + 2; rebuilt after set_cost). NULL when memory runs out. */
static const uint8_t *open_map(steer_navgrid *g) {
  size_t stride = (size_t)g->width + 2, bytes = stride * ((size_t)g->height + 2);
  if (!g->open) {
    g->open = steer_alloc(NULL, 0, bytes);
    if (!g->open) return NULL;
    g->open_version = g->version + 1;
  }
  if (g->open_version != g->version) {
    memset(g->open, 0, bytes);
    for (int y = 0; y < g->height; y++)
      for (int x = 0; x < g->width; x++)
        g->open[(size_t)(y + 1) * stride + x + 1] =
            g->cost[(size_t)y * g->width + x] > 0;
    g->open_version = g->version;
  }
  return g->open;
}

/* Steps from padded cell i by `step` (+-1: a row, +-stride: a column) until
   a jump point: the goal, or a cell with a side cell open where the one
   behind that is not (a forced neighbor). -1 at a wall. */
static long jump_straight(const uint8_t *open, long i, long step, long side,
                          long goal) {
  for (;; i += step) {
    if (!open[i]) return -1;
    if (i == goal) return i;
    if ((open[i - side] && !open[i - side - step]) ||
        (open[i + side] && !open[i + side - step]))
      return i;
  }
}

/* Jumps from padded cell i (included) in direction (dx, dy); diagonally,
   a cell from which a straight jump finds a jump point is one. Diagonal
   steps need both cells beside them open (no corner cutting). */
static long jump(const uint8_t *open, long stride, long i, int dx, int dy,
                 long goal) {
  if (!dy) return jump_straight(open, i, dx, stride, goal);
  if (!dx) return jump_straight(open, i, dy * stride, 1, goal);
  long vertical = dy * stride;
  for (;; i += vertical + dx) {
    if (!open[i]) return -1;
    if (i == goal) return i;
    if (jump_straight(open, i + dx, dx, stride, goal) >= 0 ||
        jump_straight(open, i + vertical, vertical, 1, goal) >= 0)
      return i;
    if (!open[i + dx] || !open[i + vertical]) return -1;
  }
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* The directions worth trying from u, given the direction it was entered
   in (0, 0 at the start: all eight); returns how many. Cells are tested in
   the byte map (one byte each, a blocked border): the cost array is 8
   bytes a cell and its misses dominated the search. */
static int pruned_directions(const steer_navgrid *g, const uint8_t *open,
                             int x, int y, int dx, int dy, int out[8][2]) {
  const long stride = (long)g->width + 2;
#define is_open(cx, cy) open[(long)((cy) + 1) * stride + (cx) + 1]
  int n = 0;
#define NAV_PUSH(a, b) (out[n][0] = (a), out[n][1] = (b), n++)
  if (!dx && !dy) {
    for (int k = 0; k < 8; k++)
      if (nav_move_ok(g, x, y, k)) NAV_PUSH(nav_dx[k], nav_dy[k]);
  } else if (dx && dy) {
    int side_x = is_open(x + dx, y), side_y = is_open(x, y + dy);
    if (side_x) NAV_PUSH(dx, 0);
    if (side_y) NAV_PUSH(0, dy);
    if (side_x && side_y) NAV_PUSH(dx, dy);
  } else if (dx) {
    int ahead = is_open(x + dx, y);
    int up = is_open(x, y - 1), down = is_open(x, y + 1);
    if (ahead) NAV_PUSH(dx, 0);
    if (ahead && up) NAV_PUSH(dx, -1);
    if (ahead && down) NAV_PUSH(dx, 1);
    if (up) NAV_PUSH(0, -1);
    if (down) NAV_PUSH(0, 1);
  } else {
    int ahead = is_open(x, y + dy);
    int left = is_open(x - 1, y), right = is_open(x + 1, y);
    if (ahead) NAV_PUSH(0, dy);
    if (ahead && left) NAV_PUSH(-1, dy);
    if (ahead && right) NAV_PUSH(1, dy);
    if (left) NAV_PUSH(-1, 0);
    if (right) NAV_PUSH(1, 0);
  }
#undef NAV_PUSH
#undef is_open
  return n;
}

/* Searches from cell `start` to cell `goal`; 1 when the goal was reached
   (its g and the parents then hold the path). With `cost` > 0 (every
   passable cell costs that) the successors are jump points: the same
   optimal costs with far fewer heap operations. */
static int search(steer_navgrid *g, astar_state *s, int32_t start,
                  int32_t goal, int diagonal, double cost,
                  const uint8_t *open) {
  const int W = g->width;
  search_ctx c = {g, s, goal, goal % W, goal / W, diagonal, 0};
  const int moves = diagonal ? 8 : 4;
  astar_node *nodes = s->nodes;
  nodes[start].g = 0;
  nodes[start].parent = -1;
  nodes[start].stamp = 2 * s->gen;
  astar_item first = {0, 0, start};
  first.h = first.f = heuristic(start % W - c.gx, start / W - c.gy, diagonal);
  heap_place(s, 0, first);
  c.n = 1;
  while (c.n > 0) {
    astar_item cur = heap_pop(s, &c.n);
    int32_t u = cur.cell;
    nodes[u].stamp = 2 * s->gen + 1;
    if (u == goal) return 1;
    int x = u % W, y = u / W;
    double gu = nodes[u].g;
    if (cost > 0) {
      int dirs[8][2], dx = 0, dy = 0;
      if (nodes[u].parent >= 0) {
        dx = sign(x - nodes[u].parent % W);
        dy = sign(y - nodes[u].parent / W);
      }
      const long stride = W + 2;
      const long pgoal = (long)(c.gy + 1) * stride + c.gx + 1;
      int m = pruned_directions(g, open, x, y, dx, dy, dirs);
      for (int k = 0; k < m; k++) {
        long from = (long)(y + 1 + dirs[k][1]) * stride + x + 1 + dirs[k][0];
        long v = jump(open, stride, from, dirs[k][0], dirs[k][1], pgoal);
        if (v < 0) continue;
        int vx = (int)(v % stride) - 1, vy = (int)(v / stride) - 1;
        relax(&c, u, vx, vy, gu + cost * heuristic(vx - x, vy - y, 1));
      }
      continue;
    }
    for (int k = 0; k < moves; k++) {
      if (!nav_move_ok(g, x, y, k)) continue;
      int nx = x + nav_dx[k], ny = y + nav_dy[k];
      double step = g->cost[ny * W + nx] * (k < 4 ? 1.0 : NAV_SQRT2);
      relax(&c, u, nx, ny, gu + step);
    }
  }
  return 0;
}

/* The cost every passable cell has, or 0 when they differ (cached until
   the next set_cost). */
static double uniform_cost(steer_navgrid *g) {
  if (g->uniform_known && g->uniform_version == g->version) return g->uniform;
  double c = 0;
  for (size_t k = 0; k < g->cells; k++) {
    if (g->cost[k] <= 0) continue;
    if (c == 0) c = g->cost[k];
    else if (g->cost[k] != c) {
      c = 0;
      break;
    }
  }
  g->uniform = c;
  g->uniform_version = g->version;
  g->uniform_known = 1;
  return c;
}

/* ---- line of sight -------------------------------------------------------- */

/* Does the segment between the centres of cells (x0, y0) and (x1, y1) touch
   only cells that are passable and cost at most max_cost? Through a grid
   corner it touches all four cells around it. Crossings are compared in
   integers: the k-th vertical line is crossed at t = (2k - 1) / (2 dx). */
static int clear_between(const steer_navgrid *g, int x0, int y0, int x1,
                         int y1, double max_cost) {
  if (!nav_inside(g, x0, y0) || !nav_inside(g, x1, y1)) return 0;
  const int W = g->width;
  long long dx = llabs((long long)x1 - x0), dy = llabs((long long)y1 - y0);
  int sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  long long kx = 1, ky = 1;
  int x = x0, y = y0;
#define NAV_CLEAR(cx, cy)                                             \
  do {                                                                \
    double c_ = g->cost[(size_t)(cy) * W + (cx)];                     \
    if (c_ <= 0 || c_ > max_cost) return 0;                           \
  } while (0)
  NAV_CLEAR(x, y);
  while (x != x1 || y != y1) {
    long long ex = kx <= dx ? (2 * kx - 1) * dy : -1;
    long long ey = ky <= dy ? (2 * ky - 1) * dx : -1;
    if (ey < 0 || (ex >= 0 && ex < ey)) {
      x += sx;
      kx++;
    } else if (ex < 0 || ey < ex) {
      y += sy;
      ky++;
    } else { /* through a corner: the two cells beside it count too */
      NAV_CLEAR(x + sx, y);
      NAV_CLEAR(x, y + sy);
      x += sx;
      y += sy;
      kx++;
      ky++;
    }
    NAV_CLEAR(x, y);
  }
#undef NAV_CLEAR
  return 1;
}

int steer_navgrid_line_of_sight(const steer_navgrid *g, int x0, int y0, int x1,
                                int y1) {
  return clear_between(g, x0, y0, x1, y1, HUGE_VAL);
}

/* ---- turning the parents into waypoints ----------------------------------- */

/* Keeps cells[0], the last cell, and every cell where the direction turns
   (the cells in order along the path, neighbors or not); returns how many
   remain. */
static size_t turning_points(int32_t *cells, size_t n, int W) {
  if (n <= 2) return n;
  size_t out = 1;
  for (size_t k = 1; k + 1 < n; k++) {
    int32_t a = cells[out - 1], b = cells[k], c = cells[k + 1];
    int dx1 = b % W - a % W, dy1 = b / W - a / W;
    int dx2 = c % W - b % W, dy2 = c / W - b / W;
    /* a to b may span several steps: compare directions, not offsets */
    if ((long long)dx1 * dy2 != (long long)dy1 * dx2 ||
        (long long)dx1 * dx2 + (long long)dy1 * dy2 < 0)
      cells[out++] = b;
  }
  cells[out++] = cells[n - 1];
  return out;
}

/* The centre of cell k in grid units. */
static steer_vec2 grid_centre(int32_t k, int W) {
  steer_vec2 c = {k % W + 0.5, k / W + 0.5};
  return c;
}

/* String pulling: from each kept cell, the farthest later cell of the grid
   path in clear sight (touching no cell dearer than the ones it replaces,
   and with clearance r > 0, in grid units, keeping r from blocked cells
   and the outside edge) comes next. Returns how many cells remain. */
static size_t pull_string(const steer_navgrid *g, int32_t *cells, size_t n,
                          double r) {
  const int W = g->width;
  size_t out = 0, anchor = 0;
  cells[out++] = cells[0];
  while (anchor + 1 < n) {
    int ax = cells[anchor] % W, ay = cells[anchor] / W;
    size_t next = anchor + 1;
    double dearest = g->cost[cells[next]];
    for (size_t j = anchor + 2; j < n; j++) {
      double c = g->cost[cells[j]];
      if (c > dearest) dearest = c;
      int clear = r > 0 ? nav_segment_clear(g, grid_centre(cells[anchor], W),
                                            grid_centre(cells[j], W), r,
                                            dearest)
                        : clear_between(g, ax, ay, cells[j] % W,
                                        cells[j] / W, dearest);
      if (!clear) break;
      next = j;
    }
    cells[out++] = cells[next];
    anchor = next;
  }
  return out;
}

static int same_point(steer_vec2 p, steer_vec2 q) {
  return p.x == q.x && p.y == q.y;
}

/* The exact endpoints (docs/API.md 16): the waypoints pts[1..m], cell
   centres in grid units, become from, pts[2], ... when the segment from
   `from` to pts[2] is clear, else from, pts[1], pts[2], ...; the same at
   the goal end. An endpoint that is its cell's centre changes nothing.
   One cell: from, to (one point when equal). pts has room for m + 2
   points; returns where the path lies in it and which ends are exact. */
typedef struct path_ends {
  size_t first, last;
  int from, to; /* pts[first] is `from`, pts[last] is `to` */
} path_ends;

static path_ends exact_ends(const steer_navgrid *g, steer_vec2 *pts, size_t m,
                            int32_t c0, int32_t c1, steer_vec2 from,
                            steer_vec2 to, double r) {
  path_ends e = {1, m, 0, 0};
  const int W = g->width;
  steer_vec2 a = nav_grid_coords(g, from), b = nav_grid_coords(g, to);
  if (m == 1) {
    pts[1] = a;
    pts[2] = b;
    e.from = 1;
    e.to = !same_point(from, to);
    e.last = e.to ? 2 : 1;
    return e;
  }
  if (!same_point(from, steer_navgrid_center_of(g, c0 % W, c0 / W))) {
    e.from = 1;
    if (nav_segment_clear(g, a, pts[2], r, HUGE_VAL))
      pts[1] = a;
    else
      pts[e.first = 0] = a;
  }
  if (!same_point(to, steer_navgrid_center_of(g, c1 % W, c1 / W))) {
    e.to = 1;
    if (nav_segment_clear(g, pts[e.last - 1], b, r, HUGE_VAL))
      pts[e.last] = b;
    else
      pts[++e.last] = b;
  }
  return e;
}

steer_status steer_navgrid_path(steer_navgrid *g, steer_vec2 from,
                                steer_vec2 to, int smooth, int diagonal,
                                steer_path **path, double *length,
                                double *cost, steer_nav_failure *failure) {
  return steer_navgrid_path_clearance(g, from, to, smooth, diagonal, 0, path,
                                      length, cost, failure);
}

steer_status steer_navgrid_path_clearance(steer_navgrid *g, steer_vec2 from,
                                          steer_vec2 to, int smooth,
                                          int diagonal, double clearance,
                                          steer_path **path, double *length,
                                          double *cost,
                                          steer_nav_failure *failure) {
  *path = NULL;
  *length = *cost = 0;
  long start = nav_cell_index(g, from), goal = nav_cell_index(g, to);
  *failure = start < 0                 ? STEER_NAV_START_OUTSIDE
             : goal < 0                ? STEER_NAV_GOAL_OUTSIDE
             : g->cost[start] <= 0     ? STEER_NAV_START_BLOCKED
             : g->cost[goal] <= 0      ? STEER_NAV_GOAL_BLOCKED
                                       : STEER_NAV_FOUND;
  if (*failure) return STEER_OK;
  astar_state *s = search_state(g);
  if (!s) return STEER_ENOMEM;
  next_generation(g, s);
  double uniform = diagonal ? uniform_cost(g) : 0;
  const uint8_t *open = uniform > 0 ? open_map(g) : NULL;
  if (uniform > 0 && !open) return STEER_ENOMEM;
  if (!search(g, s, (int32_t)start, (int32_t)goal, diagonal != 0, uniform,
              open)) {
    *failure = STEER_NAV_UNREACHABLE;
    return STEER_OK;
  }
  /* the parents are neighbors, or jump points in a straight or diagonal
     line: count the unit steps between them */
  const int W = g->width;
  size_t n = 1;
  for (int32_t c = (int32_t)goal; s->nodes[c].parent >= 0; c = s->nodes[c].parent) {
    int32_t p = s->nodes[c].parent;
    int dx = abs(c % W - p % W), dy = abs(c / W - p / W);
    n += (size_t)(dx > dy ? dx : dy);
  }
  /* room for the exact endpoints: two more points */
  size_t bytes = (n + 2) * sizeof(steer_vec2) + n * sizeof(int32_t);
  void *block = steer_alloc(NULL, 0, bytes);
  if (!block) return STEER_ENOMEM;
  steer_vec2 *points = block;
  int32_t *cells = (int32_t *)(points + n + 2);
  size_t k = n;
  cells[--k] = (int32_t)goal;
  for (int32_t c = (int32_t)goal; s->nodes[c].parent >= 0; c = s->nodes[c].parent) {
    int32_t p = s->nodes[c].parent;
    int sx = sign(p % W - c % W), sy = sign(p / W - c / W);
    for (int32_t q = c; q != p;) {
      q += sy * W + sx;
      cells[--k] = q;
    }
  }
  double r = clearance / g->cell_size; /* grid units from here on */
  /* smoothed: the cells string pulling keeps in a straight line (where no
     sight line keeps r it goes cell by cell) merged as the grid path's */
  size_t m = turning_points(cells, smooth ? pull_string(g, cells, n, r) : n,
                            g->width);
  for (size_t q = 0; q < m; q++) points[q + 1] = grid_centre(cells[q], W);
  path_ends e = exact_ends(g, points, m, cells[0], cells[m - 1], from, to, r);
  /* the length in grid units (sums between centres exact as before), then
     the points in the world: the endpoints as given, centres as center_of */
  double len = 0;
  for (size_t q = e.first + 1; q <= e.last; q++) {
    double dx = points[q].x - points[q - 1].x;
    double dy = points[q].y - points[q - 1].y;
    len += sqrt(dx * dx + dy * dy);
  }
  for (size_t q = e.first; q <= e.last; q++) {
    int cx = (int)points[q].x, cy = (int)points[q].y;
    points[q] = q == e.first && e.from ? from
                : q == e.last && e.to  ? to
                                       : steer_navgrid_center_of(g, cx, cy);
  }
  steer_path *p = steer_path_create(points + e.first, e.last - e.first + 1, 0);
  steer_alloc(block, bytes, 0);
  if (!p) return STEER_ENOMEM;
  *path = p;
  *length = len * g->cell_size;
  *cost = s->nodes[goal].g * g->cell_size;
  return STEER_OK;
}
