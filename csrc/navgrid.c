/* navgrid.c - navigation grids: cells, costs and the world geometry. */
#include <math.h>
#include <string.h>
#include "navgrid.h"

const int nav_dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
const int nav_dy[8] = {0, 0, 1, -1, 1, -1, -1, 1}; /* k ^ 1 is the opposite of k */

steer_navgrid *steer_navgrid_create(int width, int height, double cell_size,
                                    steer_vec2 origin, const double *costs) {
  if (!nav_size_ok(width, height, cell_size)) return NULL;
  size_t cells = (size_t)width * (size_t)height;
  steer_navgrid *g = steer_alloc(NULL, 0, sizeof *g);
  if (!g) return NULL;
  g->cost = steer_alloc(NULL, 0, cells * sizeof(double));
  if (!g->cost) {
    steer_alloc(g, sizeof *g, 0);
    return NULL;
  }
  g->refs = 1;
  g->width = width;
  g->height = height;
  g->cells = cells;
  g->cell_size = cell_size;
  g->origin = origin;
  g->version = 0;
  g->search = NULL;
  g->uniform_known = 0;
  g->open = NULL;
  for (size_t k = 0; k < cells; k++) g->cost[k] = costs ? costs[k] : 1;
  return g;
}

void steer_navgrid_retain(steer_navgrid *g) { g->refs++; }

void steer_navgrid_release(steer_navgrid *g) {
  if (!g || --g->refs > 0) return;
  if (g->search) {
    steer_alloc(g->search->nodes, g->cells * sizeof(astar_node), 0);
    steer_alloc(g->search->heap, g->cells * sizeof(astar_item), 0);
    steer_alloc(g->search, sizeof *g->search, 0);
  }
  if (g->open) steer_alloc(g->open, nav_open_bytes(g), 0);
  steer_alloc(g->cost, g->cells * sizeof(double), 0);
  steer_alloc(g, sizeof *g, 0);
}

int steer_navgrid_width(const steer_navgrid *g) { return g->width; }
int steer_navgrid_height(const steer_navgrid *g) { return g->height; }
double steer_navgrid_cell_size(const steer_navgrid *g) { return g->cell_size; }
steer_vec2 steer_navgrid_origin(const steer_navgrid *g) { return g->origin; }

size_t steer_navgrid_memory(const steer_navgrid *g) {
  size_t bytes = sizeof *g + g->cells * sizeof(double);
  if (g->search)
    bytes += sizeof *g->search +
             g->cells * (sizeof(astar_node) + sizeof(astar_item));
  if (g->open) bytes += nav_open_bytes(g);
  return bytes;
}

double steer_navgrid_cost(const steer_navgrid *g, int cx, int cy) {
  return g->cost[(size_t)cy * g->width + cx];
}

void steer_navgrid_set_cost(steer_navgrid *g, int cx, int cy, double c) {
  g->cost[(size_t)cy * g->width + cx] = c;
  g->version++;
}

long nav_cell_index(const steer_navgrid *g, steer_vec2 p) {
  steer_vec2 q = nav_grid_coords(g, p);
  if (!nav_in_grid(g, q)) return -1;
  return (long)nav_column(q.y, g->height) * g->width +
         nav_column(q.x, g->width);
}

int steer_navgrid_cell_of(const steer_navgrid *g, steer_vec2 p, int *cx,
                          int *cy) {
  long k = nav_cell_index(g, p);
  if (k < 0) return 0;
  *cx = (int)(k % g->width);
  *cy = (int)(k / g->width);
  return 1;
}

steer_vec2 steer_navgrid_center_of(const steer_navgrid *g, int cx, int cy) {
  steer_vec2 c;
  c.x = g->origin.x + (cx + 0.5) * g->cell_size;
  c.y = g->origin.y + (cy + 0.5) * g->cell_size;
  return c;
}
