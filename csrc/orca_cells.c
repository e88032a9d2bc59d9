/* orca_cells.c - for a world with few walls and obstacles (where the
 * geometry index scans them all for every agent), the shapes that can lie
 * within ORCA's static reach of any point of a grid cell, prepared once per
 * step before the threads start (rebuilt only when the geometry or the
 * reach asked grows), so that an agent tests the two or three near a cell
 * instead of every one (blocks: 16 walls, 0-2 near an agent).
 *
 * A cell's list holds its shapes in dense order, obstacles then walls:
 * orca_shapes.c takes them in the order its scan would, and keeps the
 * same shapes (a listed shape still passes the scan's box test and its
 * exact gap test), so the lines come out the same, bit for bit. */
#include <math.h>
#include <string.h>
#include "orca.h"

/* Above this many shapes the index walks cells, not every shape: no list. */
#define CELLS_MAX_SHAPES 256
/* At most this many cells along an axis. */
#define CELLS_MAX_SIDE 64
#define RECHECK 8

static double larger(double a, double b) { return a > b ? a : b; }

/* The coordinates the lists were built from, each shape's box: obstacles
   (x - r, y - r, x + r, y + r), then walls (their ends' box). */
static void shape_box(const geometry *g, size_t k, double *b) {
  if (k < g->obstacle_count) {
    const geo_obstacle *o = &g->obstacles[k];
    b[0] = o->x - o->radius;
    b[1] = o->y - o->radius;
    b[2] = o->x + o->radius;
    b[3] = o->y + o->radius;
  } else {
    const geo_wall *l = &g->walls[k - g->obstacle_count];
    b[0] = l->a.x < l->b.x ? l->a.x : l->b.x;
    b[1] = l->a.y < l->b.y ? l->a.y : l->b.y;
    b[2] = l->a.x > l->b.x ? l->a.x : l->b.x;
    b[3] = l->a.y > l->b.y ? l->a.y : l->b.y;
  }
}

/* The geometry as the lists knew it: its shapes' exact coordinates. */
static int same_geometry(const steer_world *w, const shape_cells *c) {
  const geometry *g = &w->geo;
  if (c->obstacles != g->obstacle_count || c->walls != g->wall_count)
    return 0;
  const double *kept = c->coords;
  for (size_t k = 0; k < g->obstacle_count; k++, kept += 3) {
    const geo_obstacle *o = &g->obstacles[k];
    if (memcmp(kept, &o->x, 3 * sizeof(double))) return 0;
  }
  for (size_t k = 0; k < g->wall_count; k++, kept += 4)
    if (memcmp(kept, &g->walls[k].a, 4 * sizeof(double))) return 0;
  return 1;
}

/* Builds the lists for reach + body up to lim; 0 on failure (no room, or
   a geometry too large or too far out for a grid of doubles). */
static int build(steer_world *w, double lim) {
  shape_cells *c = &w->shape_cells;
  const geometry *g = &w->geo;
  size_t shapes = g->obstacle_count + g->wall_count;
  double box[4], x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (size_t k = 0; k < shapes; k++) {
    shape_box(g, k, box);
    if (box[0] < x0) x0 = box[0];
    if (box[1] < y0) y0 = box[1];
    if (box[2] > x1) x1 = box[2];
    if (box[3] > y1) y1 = box[3];
  }
  double big = larger(larger(fabs(x0), fabs(x1)), larger(fabs(y0), fabs(y1)));
  if (!(big < 1e15 && lim < 1e15)) return 0;
  /* a margin far above the rounding of the cell arithmetic and of the
     scan's own box test (a billionth of the coordinates) */
  double pad = lim + 1e-6 * (1 + big + lim);
  x0 -= pad, y0 -= pad, x1 += pad, y1 += pad;
  double side = larger(larger(x1 - x0, y1 - y0) / CELLS_MAX_SIDE, lim / 4);
  if (!(side > 0)) return 0;
  size_t nx = (size_t)((x1 - x0) / side) + 1, ny = (size_t)((y1 - y0) / side) + 1;
  if (nx > CELLS_MAX_SIDE) nx = CELLS_MAX_SIDE;
  if (ny > CELLS_MAX_SIDE) ny = CELLS_MAX_SIDE;
  double inv = 1 / side;
  /* one pass to count, one to fill: starts[2 * cell] obstacles,
     starts[2 * cell + 1] walls, starts[2 * cells] the end */
  size_t cells = nx * ny, count = 0;
  for (int fill = 0; fill < 2; fill++) {
    uint32_t *starts = fill ? c->block : NULL;
    uint32_t *items = fill ? c->block + 2 * cells + 1 : NULL;
    for (size_t cy = 0; cy < ny; cy++)
      for (size_t cx = 0; cx < nx; cx++) {
        double ax = x0 + (double)cx * side, bx = ax + side;
        double ay = y0 + (double)cy * side, by = ay + side;
        size_t cell = cy * nx + cx;
        for (size_t k = 0; k < shapes; k++) {
          if (fill && k == 0) starts[2 * cell] = (uint32_t)count;
          if (fill && k == g->obstacle_count)
            starts[2 * cell + 1] = (uint32_t)count;
          shape_box(g, k, box);
          double gx = larger(0, larger(box[0] - bx, ax - box[2]));
          double gy = larger(0, larger(box[1] - by, ay - box[3]));
          if (gx <= pad && gy <= pad) {
            if (fill)
              items[count] = (uint32_t)(k < g->obstacle_count
                                            ? k
                                            : k - g->obstacle_count);
            count++;
          }
        }
        if (fill && g->obstacle_count == shapes)
          starts[2 * cell + 1] = (uint32_t)count;
      }
    if (fill) {
      starts[2 * cells] = (uint32_t)count;
      break;
    }
    /* room: the starts, the items, the coordinates (doubles last) */
    size_t words = 2 * cells + 1 + count;
    words += words & 1;
    size_t bytes = words * sizeof(uint32_t) +
                   (3 * g->obstacle_count + 4 * g->wall_count) * sizeof(double);
    if (bytes > c->bytes) {
      void *block = world_alloc(w, c->block, c->bytes, bytes);
      if (!block) return 0;
      c->block = block;
      c->bytes = bytes;
    }
    c->coords = (double *)(void *)(c->block + words);
    count = 0;
  }
  double *kept = c->coords;
  for (size_t k = 0; k < g->obstacle_count; k++, kept += 3)
    memcpy(kept, &g->obstacles[k].x, 3 * sizeof(double));
  for (size_t k = 0; k < g->wall_count; k++, kept += 4)
    memcpy(kept, &g->walls[k].a, 4 * sizeof(double));
  c->obstacles = g->obstacle_count;
  c->walls = g->wall_count;
  c->lim = lim;
  c->x0 = x0;
  c->y0 = y0;
  c->inv = inv;
  c->nx = nx;
  c->ny = ny;
  return 1;
}

void orca_cells_ready(steer_world *w, double lim) {
  shape_cells *c = &w->shape_cells;
  const geometry *g = &w->geo;
  c->live = 0;
  size_t shapes = g->obstacle_count + g->wall_count;
  if (!shapes || shapes > CELLS_MAX_SHAPES || g->wrap) return;
  if (!(lim >= 0 && lim < 1e15)) return;
  if (c->bytes && lim <= c->lim && lim >= c->lim * 0.5 && same_geometry(w, c)) {
    c->live = 1;
    return;
  }
  c->live = build(w, lim);
}

void orca_cells_prepare(steer_world *w) {
  shape_cells *c = &w->shape_cells;
  const geometry *g = &w->geo;
  c->live = 0;
  size_t shapes = g->obstacle_count + g->wall_count;
  if (!shapes || shapes > CELLS_MAX_SHAPES || g->wrap) return;
  /* the reach asked is looked up every RECHECK steps only (it reads every
     agent's program, a cache miss each): in between, the lists stand if
     the geometry does, and an agent that asks more than they hold scans
     as before, with the same result */
  if (c->age++ % RECHECK) {
    c->live = c->bytes && same_geometry(w, c);
    return;
  }
  /* the largest reach + body an agent's ORCA asks (orca_velocity's) */
  double lim = -1;
  for (size_t i = 0; i < w->count; i++) {
    const steer_program *p = w->program[i];
    if (p && p->has_orca) {
      double l = p->orca.obstacle_time_horizon * w->max_speed[i] + w->radius[i];
      if (!(l <= lim)) lim = l; /* NaN too: no lists then */
    }
  }
  orca_cells_ready(w, lim);
}

const uint32_t *orca_cells_list(const steer_world *w, steer_vec2 p,
                                double lim, int walls, size_t *n) {
  const shape_cells *c = &w->shape_cells;
  if (!c->live || !(lim <= c->lim)) return NULL;
  double fx = (p.x - c->x0) * c->inv, fy = (p.y - c->y0) * c->inv;
  if (!(fx >= 0 && fx < (double)c->nx && fy >= 0 && fy < (double)c->ny)) {
    /* beyond the grid, which spans every shape's box grown by more than
       lim: none passes the box test (NaN: the scan decides) */
    *n = 0;
    return fx == fx && fy == fy ? c->block : NULL;
  }
  size_t cell = (size_t)fy * c->nx + (size_t)fx;
  const uint32_t *starts = c->block;
  size_t from = starts[2 * cell + walls], to = starts[2 * cell + walls + 1];
  *n = to - from;
  return c->block + 2 * c->nx * c->ny + 1 + from;
}
