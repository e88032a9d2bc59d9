/* navgrid.h - navigation grids, their A* search state and flow fields
 * (internal to navgrid.c, navmap.c, navsight.c, navinflate.c, astar.c,
 * flowfield.c, flow_steer.c). */
#ifndef STEER_NAVGRID_H
#define STEER_NAVGRID_H

#include "steer.h"

/* The process-wide allocator (defined in world.c). */
void *steer_alloc(void *ptr, size_t osize, size_t nsize);

#define NAV_SQRT2 1.4142135623730951

/* The A* state of one grid, kept between searches: a generation stamp per
   cell says whether its g and parent belong to the current search, so no
   search clears anything. */
typedef struct astar_node {
  double g;          /* cost from the start (grid units) */
  int32_t parent;    /* cell it was reached from */
  uint32_t stamp;    /* 2*gen: open, 2*gen+1: closed, else untouched */
  int32_t heap_at;   /* its slot in the heap while open */
} astar_node;

typedef struct astar_item {
  double f, h;       /* f = g + h; ties go to the smaller h, then cell */
  int32_t cell;
} astar_item;

typedef struct astar_state {
  astar_node *nodes; /* one per cell */
  astar_item *heap;  /* at most one entry per cell */
  uint32_t gen;
} astar_state;

struct steer_navgrid {
  size_t refs;
  int width, height;
  size_t cells;
  double cell_size;
  steer_vec2 origin;
  uint64_t version;  /* bumped by every set_cost: older fields are stale */
  double *cost;      /* row-major, 0 = blocked, else >= 1 */
  astar_state *search; /* made by the first path search */
  int uniform_known;   /* uniform is the passable cells' one cost (0: they */
  double uniform;      /* differ) as of uniform_version */
  uint64_t uniform_version;
  uint8_t *open;       /* jump point search: passable bytes with a border */
  uint64_t open_version;
};

/* What a flow field holds per cell: the cost to the nearest goal (grid
   units; < 0 when no goal is reachable) and a unit step toward the goal,
   or for a blocked or unreachable cell toward the nearest reachable one. */
typedef struct flow_cell {
  double dist;
  float dx, dy;
} flow_cell;

struct steer_flowfield {
  size_t refs;
  steer_navgrid *grid; /* retained */
  uint64_t version;    /* the grid's version it was computed from */
  size_t goal_count;
  size_t goal_room;    /* goals and goal_cells have room for this many */
  steer_vec2 *goals;   /* world points */
  int32_t *goal_cells; /* their cells, -1 when outside the grid */
  int reachable_any;   /* some cell reaches a goal */
  flow_cell *cells;
  uint8_t *blend;      /* per cell: bit k, neighbor k joins a bilinear blend */
  /* the computation's scratch (scratch_bytes long), kept from the first
     set_goals on: goals that move are recomputed every few frames; NULL
     before */
  void *scratch;
  size_t scratch_bytes;
};

/* Does steer_navgrid_create take this size? 1..STEER_NAV_MAX_SIDE cells a
   side, at most STEER_NAV_MAX_CELLS in all, cells wider than 0. */
static inline int nav_size_ok(int64_t width, int64_t height, double cell_size) {
  return width >= 1 && height >= 1 && width <= STEER_NAV_MAX_SIDE &&
         height <= STEER_NAV_MAX_SIDE &&
         width * height <= STEER_NAV_MAX_CELLS && cell_size > 0;
}

/* Is cell (cx, cy) inside the grid? */
static inline int nav_inside(const steer_navgrid *g, long cx, long cy) {
  return cx >= 0 && cy >= 0 && cx < g->width && cy < g->height;
}

/* The continuous cell coordinates of world point p: cell (cx, cy) covers
   [cx, cx + 1) x [cy, cy + 1), and the last column and row their far edge
   too (nav_in_grid). May be huge, never NaN. */
static inline steer_vec2 nav_grid_coords(const steer_navgrid *g, steer_vec2 p) {
  steer_vec2 q;
  q.x = (p.x - g->origin.x) / g->cell_size;
  q.y = (p.y - g->origin.y) / g->cell_size;
  return q;
}

/* Is grid point q in the grid? The grid is closed, [0, W] x [0, H]: a
   world clamps agents into its closed bounds, so one pushed against the
   far edge of a grid of the world's size stands on it, in the last
   column or row. Comparisons only: q may be far beyond an int. */
static inline int nav_in_grid(const steer_navgrid *g, steer_vec2 q) {
  return q.x >= 0 && q.y >= 0 && q.x <= g->width && q.y <= g->height;
}

/* The column (or row) of a coordinate c in [0, n] (nav_in_grid): its
   floor, the far edge n in the last one. */
static inline int nav_column(double c, int n) {
  int k = (int)c; /* c >= 0: truncation is floor */
  return k < n ? k : n - 1;
}

/* The cells a bilinear sample of field f blends at offset (u, v) from the
   centre of cell `at`: the cell itself, the column and the row beside it
   on the point's side, and the diagonal one, each NULL unless the cell's
   blend mask lets it join (flow_sample; flow_steer.c's lanes). */
typedef struct flow_blend_cells {
  const flow_cell *own, *side_x, *side_y, *diag;
} flow_blend_cells;

static inline flow_blend_cells flow_blend_cells_of(const steer_flowfield *f,
                                                   long at, double u,
                                                   double v) {
  const long W = f->grid->width;
  int sx = u < 0 ? -1 : 1, sy = v < 0 ? -1 : 1;
  int kx = sx > 0 ? 0 : 1, ky = sy > 0 ? 2 : 3;
  int kd = sx > 0 ? (sy > 0 ? 4 : 6) : (sy > 0 ? 7 : 5);
  unsigned m = f->blend[at];
  flow_blend_cells c;
  c.own = &f->cells[at];
  c.side_x = m >> kx & 1 ? c.own + sx : NULL;
  c.side_y = m >> ky & 1 ? c.own + sy * W : NULL;
  c.diag = m >> kd & 1 ? c.own + sy * W + sx : NULL;
  return c;
}

/* Size of the bordered byte map of jump point search. */
static inline size_t nav_open_bytes(const steer_navgrid *g) {
  return ((size_t)g->width + 2) * ((size_t)g->height + 2);
}

/* The cell index of world point p, or -1 outside the grid. */
long nav_cell_index(const steer_navgrid *g, steer_vec2 p);

/* Is the segment between grid points a and b (grid units: cell (cx, cy)
   is the closed square [cx, cx + 1] x [cy, cy + 1]) clear: no cell it
   touches blocked or dearer than max_cost, and at least r (grid units)
   from every blocked cell and from the grid's outside edge? (navsight.c) */
int nav_segment_clear(const steer_navgrid *g, steer_vec2 a, steer_vec2 b,
                      double r, double max_cost);

/* A field toward the goals, computed (steer_flowfield_create), or with
   its cells and blend masks left for the caller to write (a stale field
   restored from a snapshot: its version is the grid's until then). */
steer_flowfield *flow_make(steer_navgrid *g, const steer_vec2 *goals,
                           size_t n, int computed);

/* Snapshots (snapshot.c): are f's cells and blend masks, written into it
   as a stale field was saved, what a computation can leave? Every
   distance -1 or at least 0, every direction part finite within [-1, 1],
   and no blend bit naming a neighbor outside the grid (flow_sample reads
   the neighbors a bit names). */
int flow_cells_valid(const steer_flowfield *f);

/* The eight moves in a fixed order (straight first): dx, dy. */
extern const int nav_dx[8], nav_dy[8];

/* May the move from cell (x, y) by direction k be taken? The target is
   inside and passable and, for a diagonal, both cells beside it are too
   (no corner cutting). */
static inline int nav_move_ok(const steer_navgrid *g, int x, int y, int k) {
  int nx = x + nav_dx[k], ny = y + nav_dy[k];
  if (!nav_inside(g, nx, ny) || g->cost[(size_t)ny * g->width + nx] <= 0)
    return 0;
  if (k < 4) return 1;
  return g->cost[(size_t)y * g->width + nx] > 0 &&
         g->cost[(size_t)ny * g->width + x] > 0;
}

/* What a flow field says at world point p: *dir (unit or zero) and *dist
   (grid units, bilinear like *dir). Returns 1 on a reachable cell, 0 on a
   blocked or unreachable one, -1 outside the grid; *cell gets its index
   (-1 outside). */
int flow_sample(const steer_flowfield *f, steer_vec2 p, steer_vec2 *dir,
                double *dist, long *cell);

/* The force of steer_agent_flow for an agent at p moving at v (what
   programs call, with the agent's fields at hand). */
steer_vec2 flow_force(const steer_flowfield *f, steer_vec2 p, steer_vec2 v,
                      double max_speed, double max_force,
                      double slowing_radius);
/* flow_force for n agents at once (out[k] for agent k), bit for bit, two
   at a time where SSE2 allows. */
void flow_force_many(const steer_flowfield *f, int n, const double *px,
                     const double *py, const double *vx, const double *vy,
                     const double *max_speed, const double *max_force,
                     double slowing_radius, steer_vec2 *out);

#endif
