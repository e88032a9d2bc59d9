/* nearest_oracle.c - ORCA's nearest-neighbor search (csrc/nearest.c)
 * against brute force, exactly: the sorted row-by-row walk and the grid
 * cursor give the same agents, distances and offsets, bit for bit, as a
 * scan of every agent with the world's shortest offset. Random crowds in
 * clamped, wrapped and unbounded worlds; clusters, duplicate positions
 * (ties broken by index), ghosts, agents outside a clamped world's bounds,
 * huge coordinates, radii from zero to wider than the world and list
 * lengths from 1 to STEER_ORCA_MAX_NEIGHBORS. Also grid_runs (avoid_agents'
 * walk): the cursor's candidates in the cursor's order. And the sort of a
 * sparse grid, which mends its starts, against a count from scratch.
 * And ORCA's half-planes in lanes against one at a time (check_lines).
 * Prints "N passed, N failed";
 * exits nonzero on a failure. Built by mk/crowd.mk, run by spec/orca_spec.lua. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crowd.h"
#include "nearest.h"
#include "orca.h"
#include "sort.h"
#include "oracle.h"

static long runs_used; /* queries grid_runs answered */
static long warm_queries; /* queries the seeds could bound */
static long ghost_free_queries; /* queries in worlds without ghosts */

static uint32_t rng = 2024;
static double unit(void) {
  rng = rng * 1103515245u + 12345u;
  return (double)(rng >> 8) / 16777216.0;
}
static double uniform(double a, double b) { return a + (b - a) * unit(); }

/* The brute-force answer: every agent but i and the ghosts, by (d2, j). */
static size_t brute(const steer_world *w, size_t i, double radius, size_t max,
                    nearest_agent *out) {
  size_t n = 0;
  steer_vec2 p = world_pos(w, i);
  for (size_t j = 0; j < w->count; j++) {
    if (j == i || !w->group_bit[j]) continue;
    steer_vec2 d = steer_world_offset(w, p, world_pos(w, j));
    double d2 = d.x * d.x + d.y * d.y;
    if (d2 > radius * radius) continue;
    /* insertion into a full sorted list, the plain way */
    size_t k = n;
    while (k > 0 && (out[k - 1].d2 > d2 || (out[k - 1].d2 == d2 && out[k - 1].j > j)))
      k--;
    if (k >= max) continue;
    size_t last = n < max ? n : max - 1;
    memmove(&out[k + 1], &out[k], (last - k) * sizeof *out);
    nearest_agent a = {d2, j, d};
    out[k] = a;
    if (n < max) n++;
  }
  return n;
}

/* grid_runs hands out exactly the cursor's candidates, in its order. */
static int runs_match_cursor(const steer_world *w, size_t i, double radius,
                             int *used) {
  steer_vec2 p = world_pos(w, i);
  grid_runs r;
  *used = grid_runs_init(&r, &w->grid, w->count, p.x, p.y, radius);
  if (!*used) return 1;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, radius);
  size_t from, to;
  while (grid_runs_next(&r, &from, &to))
    for (size_t j = from; j < to; j++)
      if (grid_cursor_next(&c) != (int32_t)j) return 0;
  return grid_cursor_next(&c) < 0;
}

static int same(const nearest_agent *a, const nearest_agent *b, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (a[k].j != b[k].j || memcmp(&a[k].d2, &b[k].d2, sizeof a[k].d2) ||
        memcmp(&a[k].offset, &b[k].offset, sizeof a[k].offset))
      return 0;
  return 1;
}

typedef struct layout {
  const char *name;
  double width, height, cell;
  int wrap, moves;
  double spread; /* unbounded: the crowd's extent (0: 200, with far ones) */
  int seam;      /* the crowd stands around the corner (0, 0) */
} layout;

/* Removes a few agents and adds a few (into the freed slots, some ghosts):
   seeds that name a removed agent, or a slot reused since, bound nothing. */
static void churn(steer_world *w, double span, int ghosts) {
  steer_id id = 0;
  for (int k = 0; k < 4 && (id = steer_world_next_id(w, id)) != 0; k++)
    if (unit() < 0.5) steer_world_remove(w, id);
  for (int k = 0; k < 3; k++) {
    steer_agent_def a = steer_agent_def_default();
    a.x = uniform(0, span);
    a.y = uniform(0, span);
    a.ghost = k == 0 && ghosts;
    steer_world_add(w, &a, &id);
  }
}

/* Would agent i's seeds bound a search for `max` within radius? (The warm
   start nearest.c tries first.) */
static int warm(const steer_world *w, size_t i, double radius, size_t max) {
  uint32_t slot = w->slot_of[i];
  if (slot >= w->near_seeds_cap || max > NEAREST_SEEDS) return 0;
  const uint32_t *seed = w->near_seeds + (size_t)slot * NEAREST_SEEDS;
  size_t found = 0;
  for (size_t k = 0; k < max && seed[k] < w->slot_count; k++) {
    size_t j = w->slots[seed[k]].index;
    if (j >= w->count || w->slot_of[j] != seed[k] || j == i || !w->group_bit[j])
      continue;
    steer_vec2 d = steer_world_offset(w, world_pos(w, i), world_pos(w, j));
    found += d.x * d.x + d.y * d.y <= radius * radius;
  }
  return found == max;
}

/* Did agent i's last search find fewer than `max` (its seeds' row ends
   early)? Then nearest.c walks the rows in one loop (walk_rows), as it
   does for a warm search. */
static long sparse_queries; /* of those, on worlds that do not wrap */
static int sparse(const steer_world *w, size_t i, size_t max) {
  uint32_t slot = w->slot_of[i];
  if (slot >= w->near_seeds_cap || max > NEAREST_SEEDS) return 0;
  return w->near_seeds[(size_t)slot * NEAREST_SEEDS + max - 1] == SLOT_NONE;
}

/* After a query agent i's seeds name the agents it found, nearest first. */
static int seeds_kept(const steer_world *w, size_t i, const nearest_agent *a,
                      size_t n) {
  const uint32_t *seed = w->near_seeds + (size_t)w->slot_of[i] * NEAREST_SEEDS;
  size_t k = 0;
  for (; k < n && k < NEAREST_SEEDS; k++)
    if (seed[k] != w->slot_of[a[k].j]) return 0;
  return k == NEAREST_SEEDS || seed[k] == SLOT_NONE;
}

/* Every agent's query, sorted walk and cursor, against brute force. */
static void check_queries(steer_world *w, const layout *L, int round,
                          int pass) {
  static const double radii[] = {0, 0.5, 3, 15, 40, 1e3, 1e200};
  nearest_agent fast[STEER_ORCA_MAX_NEIGHBORS], slow[STEER_ORCA_MAX_NEIGHBORS],
      truth[STEER_ORCA_MAX_NEIGHBORS];
  for (size_t i = 0; i < w->count; i++) {
    double radius = radii[(size_t)(unit() * 7)];
    if (unit() < 0.3) radius = uniform(0, 25);
    size_t max = unit() < 0.7 ? 10 : 1 + (size_t)(unit() * STEER_ORCA_MAX_NEIGHBORS);
    size_t nt = brute(w, i, radius, max, truth);
    warm_queries += warm(w, i, radius, max);
    ghost_free_queries += w->ghosts == 0;
    sparse_queries += !L->wrap && sparse(w, i, max);
    size_t nf = nearest_agents(w, i, radius, max, 1, fast);
    size_t ns = nearest_agents(w, i, radius, max, 0, slow);
    CHECK(nf == nt && same(fast, truth, nt),
          "%s round %d pass %d agent %zu radius %g max %zu: sorted walk %zu, brute %zu",
          L->name, round, pass, i, radius, max, nf, nt);
    if (radius < 1e100) { /* a cursor over every cell of 1e200 is too slow */
      int used;
      CHECK(runs_match_cursor(w, i, radius, &used),
            "%s round %d pass %d agent %zu radius %g: grid runs differ from the cursor",
            L->name, round, pass, i, radius);
      runs_used += used;
    }
    CHECK(seeds_kept(w, i, truth, nt),
          "%s round %d pass %d agent %zu: seeds are not the agents found",
          L->name, round, pass, i);
    CHECK(ns == nt && same(slow, truth, nt),
          "%s round %d pass %d agent %zu radius %g max %zu: cursor %zu, brute %zu",
          L->name, round, pass, i, radius, max, ns, nt);
  }
}

/* ---- ORCA's nearby shapes ----------------------------------------------
 * orca_nearby_shapes drops, before working out its gap, a shape whose box
 * lies beyond the reach; the reference here works out every shape the
 * index offers, in the index's order, exactly, and takes those of least gap
 * by a stable sort: the answers must agree bit for bit (same shapes, same
 * order, same offsets). */

/* Every shape within reach, each once (the index offers a shape once per
   cell it covers; all its offers have the same gap), in the order of their
   first offers. */
typedef struct ref_shape {
  orca_shape s;
  double gap;
  size_t id;
} ref_shape;
#define REF_SHAPES_MAX 256

static void ref_offer(ref_shape *all, size_t *n, orca_shape s, double gap,
                      size_t id) {
  for (size_t k = 0; k < *n; k++)
    if (all[k].id == id) return;
  if (*n == REF_SHAPES_MAX) return; /* the layouts stay far below */
  ref_shape r = {s, gap, id};
  all[(*n)++] = r;
}

/* The `max` of least gap: a stable sort (ties keep the offer order), then
   the first ones. */
static size_t ref_nearest(ref_shape *all, size_t n, orca_shape *out,
                          size_t max) {
  for (size_t k = 1; k < n; k++)
    for (size_t q = k; q > 0 && all[q].gap < all[q - 1].gap; q--) {
      ref_shape t = all[q];
      all[q] = all[q - 1];
      all[q - 1] = t;
    }
  size_t kept = n < max ? n : max;
  for (size_t k = 0; k < kept; k++) out[k] = all[k].s;
  return kept;
}

/* The polygons check_shapes added and the side it built solid: 1 left of
   every edge (counter-clockwise), -1 right (clockwise), 0 neither
   (concave, open, or on a torus). */
#define REF_POLYGONS 8
static uint64_t ref_polygon[REF_POLYGONS];
static int ref_solid[REF_POLYGONS], ref_polygons;

/* Does wall k (ends at offsets a, b from the agent) face away from it:
   a convex polygon's edge with the agent on its solid side? */
static int ref_faces_away(const geo_wall *l, steer_vec2 a, steer_vec2 b) {
  double c = a.x * b.y - a.y * b.x; /* > 0: the agent left of a -> b */
  for (int q = 0; q < ref_polygons; q++)
    if (ref_polygon[q] == l->handle)
      return (ref_solid[q] > 0 && c > 0) || (ref_solid[q] < 0 && c < 0);
  return 0;
}

static size_t ref_shapes(const steer_world *w, size_t i, double reach,
                         int facing, orca_shape *out, size_t max) {
  ref_shape all[REF_SHAPES_MAX];
  size_t n = 0;
  const geometry *g = &w->geo;
  steer_vec2 p = world_pos(w, i);
  double body = w->radius[i];
  geo_box q = geo_box_around(p, p, reach + body);
  geo_cursor c;
  if (g->obstacle_count) {
    geo_cursor_init(&c, &g->obstacle_index, q, g->obstacle_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_obstacle *o = &g->obstacles[k];
      steer_vec2 d = steer_world_offset(w, p, v2(o->x, o->y));
      double gap = v2_len(d) - o->radius - body;
      orca_shape s = {d, d, o->radius, 0, v2_len(d)};
      if (gap <= reach) ref_offer(all, &n, s, gap, 2 * (size_t)k);
    }
  }
  if (g->wall_count) {
    geo_cursor_init(&c, &g->wall_index, q, g->wall_count);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      const geo_wall *l = &g->walls[k];
      steer_vec2 a = steer_world_offset(w, p, l->a);
      orca_shape s = {a, v2_add(a, v2_sub(l->b, l->a)), 0, 0, 0};
      if (facing && ref_faces_away(l, s.a, s.b)) continue;
      steer_vec2 ab = v2_sub(s.b, s.a);
      double len2 = v2_len2(ab);
      double t = len2 > 0 ? -v2_dot(s.a, ab) / len2 : 0;
      s.t = t; /* unclamped, as orca_shape_line asks */
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      s.dist = v2_len(v2_add(s.a, v2_scale(ab, t)));
      double gap = s.dist - body;
      if (gap <= reach) ref_offer(all, &n, s, gap, 2 * (size_t)k + 1);
    }
  }
  return ref_nearest(all, n, out, max);
}

static int same_shapes(const orca_shape *a, const orca_shape *b, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (memcmp(&a[k].a, &b[k].a, sizeof a[k].a) ||
        memcmp(&a[k].b, &b[k].b, sizeof a[k].b) ||
        memcmp(&a[k].radius, &b[k].radius, sizeof a[k].radius) ||
        memcmp(&a[k].t, &b[k].t, sizeof a[k].t) ||
        memcmp(&a[k].dist, &b[k].dist, sizeof a[k].dist))
      return 0;
  return 1;
}

/* An empty world of the layout's bounds, wrap and cell size. */
static steer_world *world_of(const layout *L) {
  steer_world_def d = steer_world_def_default();
  d.width = L->width;
  d.height = L->height;
  d.wrap = L->wrap;
  d.cell_size = L->cell;
  return steer_world_create(&d);
}

static long shapes_kept, shapes_near; /* answers with a shape; a wall at the reach */
static long shapes_quad; /* queries at width 4 with walls to pair */
static long shapes_listed; /* queries through orca_cells.c's lists */

static void check_shapes(const layout *L, int round) {
  steer_world *w = world_of(L);
  double span = L->width > 0 ? L->width : 200;
  /* few walls in every other round: the index scans them all (the
     walls' filter of orca_shapes.c, in AVX lanes at width 4) */
  size_t walls = round % 2 ? 2 + (size_t)(unit() * 8) : (size_t)(unit() * 60);
  size_t obstacles = (size_t)(unit() * 30);
  for (size_t k = 0; k < walls; k++) {
    steer_vec2 a = v2(uniform(-0.1 * span, 1.1 * span), uniform(-0.1 * span, 1.1 * span));
    double len = unit() < 0.2 ? uniform(0, 0.5 * span) : uniform(0, 12);
    double turn = uniform(0, 6.283185307179586);
    if (unit() < 0.2) turn = 1.5707963267948966 * (double)(int)(unit() * 4);
    steer_vec2 b = v2(a.x + len * cos(turn), a.y + len * sin(turn));
    if (unit() < 0.05) b = a; /* a point */
    if (!L->wrap && !L->width && unit() < 0.05) { a.x *= 1e140; b.x = a.x + 1e141; }
    steer_world_add_wall(w, a, b, NULL); /* too long for a torus: refused */
  }
  for (size_t k = 0; k < obstacles; k++)
    steer_world_add_obstacle(w, uniform(0, span), uniform(0, span),
                             unit() < 0.1 ? 0 : uniform(0.1, 6), NULL);
  /* polygons: regular ones either way round (convex: one-sided for ORCA
     unless on a torus), an arrow head (concave) and an open one */
  ref_polygons = round % 3 ? 1 + (int)(unit() * (REF_POLYGONS - 1)) : 0;
  for (int q = 0; q < ref_polygons; q++) {
    steer_vec2 pts[8], c = v2(uniform(0, span), uniform(0, span));
    int n = 3 + (int)(unit() * 6), kind = (int)(unit() * 4);
    double r = uniform(0.5, 15), turn = uniform(0, 6.283185307179586);
    double way = kind == 1 ? -1 : 1; /* clockwise */
    for (int e = 0; e < n; e++) {
      double t = turn + way * 6.283185307179586 * e / n;
      double rr = kind == 2 && e == 1 ? 0.2 * r : r; /* the arrow's notch */
      pts[e] = v2(c.x + rr * cos(t), c.y + rr * sin(t));
    }
    /* the notch is a reflex corner from 5 corners on (at 4 the chord from
       corner 0 to 2 runs through the centre: a kite, convex) */
    int concave = kind == 2 && n >= 5, closed = kind != 3;
    steer_world_add_polygon(w, pts, (size_t)n, closed, &ref_polygon[q]);
    ref_solid[q] = L->wrap || !closed || concave ? 0 : (int)way;
  }
  for (int k = 0; k < 60; k++) {
    steer_agent_def a = steer_agent_def_default();
    a.x = uniform(-0.1 * span, 1.1 * span);
    a.y = uniform(-0.1 * span, 1.1 * span);
    a.radius = unit() < 0.1 ? 0 : uniform(0.2, 2);
    steer_id id;
    steer_world_add(w, &a, &id);
  }
  orca_shape got[STEER_ORCA_MAX_NEIGHBORS], want[STEER_ORCA_MAX_NEIGHBORS];
  for (size_t i = 0; i < w->count; i++) {
    double reach = unit() < 0.2 ? 0 : uniform(0, 30);
    size_t max = unit() < 0.5 ? 10 : 1 + (size_t)(unit() * STEER_ORCA_MAX_NEIGHBORS);
    /* every other agent at SIMD width 4: the walls' filter in AVX lanes */
    w->step_simd = crowd_quad_available() && i % 2 ? 4 : 2;
    shapes_quad += w->step_simd == 4 && w->geo.wall_count > 1;
    int facing = unit() < 0.7; /* ORCA's lines; the push asks for every side */
    size_t nw = ref_shapes(w, i, reach, facing, want, max);
    size_t ng = orca_nearby_shapes(w, i, reach, facing, got, max);
    CHECK(ng == nw && same_shapes(got, want, nw),
          "%s round %d agent %zu reach %g max %zu: shapes %zu, reference %zu",
          L->name, round, i, reach, max, ng, nw);
    /* the same through a step's lists of the shapes near each cell
       (orca_cells.c), built for this reach or more: the same answer */
    orca_cells_ready(w, (reach + w->radius[i]) * (1 + unit()));
    ng = orca_nearby_shapes(w, i, reach, facing, got, max);
    shapes_listed += w->shape_cells.live;
    orca_cells_end(w);
    CHECK(ng == nw && same_shapes(got, want, nw),
          "%s round %d agent %zu reach %g max %zu: listed shapes %zu, reference %zu",
          L->name, round, i, reach, max, ng, nw);
    shapes_kept += nw > 0;
    /* the reach exactly some wall's gap, or a hair less: the edge */
    const geometry *g = &w->geo;
    if (g->wall_count) {
      const geo_wall *l = &g->walls[(size_t)(unit() * (double)g->wall_count)];
      steer_vec2 a = steer_world_offset(w, world_pos(w, i), l->a);
      steer_vec2 ab = v2_sub(v2_add(a, v2_sub(l->b, l->a)), a);
      double len2 = v2_len2(ab);
      double t = len2 > 0 ? -v2_dot(a, ab) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      double gap = v2_len(v2_add(a, v2_scale(ab, t))) - w->radius[i];
      if (unit() < 0.5) gap = nextafter(gap, -1e300);
      if (gap >= 0 && gap < 1e100) {
        nw = ref_shapes(w, i, gap, facing, want, max);
        ng = orca_nearby_shapes(w, i, gap, facing, got, max);
        CHECK(ng == nw && same_shapes(got, want, nw),
              "%s round %d agent %zu reach %.17g (a wall's gap): shapes %zu, reference %zu",
              L->name, round, i, gap, ng, nw);
        shapes_near++;
      }
    }
  }
  steer_world_destroy(w);
}

static void one_world(const layout *L, int round) {
  steer_world *w = world_of(L);
  size_t count = 1 + (size_t)(unit() * 300);
  double span = L->width > 0 ? L->width : L->spread > 0 ? L->spread : 200;
  double cx = uniform(0, span), cy = uniform(0, span);
  if (L->seam) { /* a crowd around a huge torus's corner: across the seams */
    cx = cy = 0;
    span = 60;
  }
  for (size_t k = 0; k < count; k++) {
    steer_agent_def a = steer_agent_def_default();
    double kind = unit();
    if (kind < 0.4) { /* a cluster: many within a cell or two */
      a.x = cx + uniform(-6, 6);
      a.y = cy + uniform(-6, 6);
    } else if (kind < 0.5 && k > 0) { /* on top of an earlier one: a tie */
      steer_vec2 q = world_pos(w, (size_t)(unit() * (double)w->count));
      a.x = q.x;
      a.y = q.y;
    } else if (kind < 0.55 && !L->wrap && !L->spread) { /* far, or huge */
      double far = L->width > 0 ? 3 * L->width : 1e150;
      a.x = uniform(-far, far);
      a.y = uniform(-far, far);
    } else {
      a.x = uniform(-0.1 * span, 1.1 * span);
      a.y = uniform(-0.1 * span, 1.1 * span);
    }
    /* odd rounds without ghosts: the search's filter skips the group
       bits then (nearest.c) */
    a.ghost = unit() < 0.05 && round % 2 == 0;
    steer_id id;
    if (steer_world_add(w, &a, &id) != STEER_OK) {
      CHECK(0, "%s: add failed", L->name);
      steer_world_destroy(w);
      return;
    }
  }
  int sorted = world_sort_now(w) == STEER_OK && w->grid.sorted;
  CHECK(sorted, "%s round %d: world sorted", L->name, round);
  if (L->moves) { /* after the sort (lists unlinked): removals, an addition,
                     moves, some far away */
    steer_id id = 0;
    for (int k = 0; k < 3 && (id = steer_world_next_id(w, id)) != 0; k++)
      if (unit() < 0.5) steer_world_remove(w, id);
    steer_agent_def a = steer_agent_def_default();
    a.x = uniform(0, span);
    a.y = uniform(0, span);
    steer_world_add(w, &a, &id);
    for (size_t k = 0; k < w->count / 8 + 1; k++) {
      size_t i = (size_t)(unit() * (double)w->count);
      double far = unit() < 0.5 ? 200 : 8;
      steer_agent_set(w, i, STEER_X, w->x[i] + uniform(-far, far));
      steer_agent_set(w, i, STEER_Y, w->y[i] + uniform(-far, far));
    }
  }
  nearest_reserve_seeds(w);
  check_queries(w, L, round, 0);
  /* a step's worth of change, then the searches again, warm: every agent
     moved a little (some far), a few gone and a few new in their slots;
     sorted again, or (the layouts with moves) not */
  for (size_t i = 0; i < w->count; i++) {
    double far = unit() < 0.05 ? 30 : 1;
    steer_agent_set(w, i, STEER_X, w->x[i] + uniform(-far, far));
    steer_agent_set(w, i, STEER_Y, w->y[i] + uniform(-far, far));
  }
  churn(w, span, round % 2 == 0);
  if (!L->moves)
    CHECK(world_sort_now(w) == STEER_OK, "%s round %d: sorted", L->name, round);
  nearest_reserve_seeds(w); /* the new slots */
  check_queries(w, L, round, 1);
  steer_world_destroy(w);
}

/* The sorted grid against a count from scratch: every bucket's start,
   the agents in bucket order, and a stable order (agents of one bucket
   keep the order they had: prev[slot] is each agent's index before). */
static int sorted_as_counted(const steer_world *w, const size_t *prev) {
  const steer_grid *g = &w->grid;
  size_t n = w->count, below = 0, b = 0;
  for (size_t i = 0; i < n; i++) {
    size_t key = grid_bucket_of(g, w->x[i], w->y[i]);
    if (i > 0) {
      size_t last = grid_bucket_of(g, w->x[i - 1], w->y[i - 1]);
      if (key < last) return 0;
      if (key == last && prev[w->slot_of[i - 1]] > prev[w->slot_of[i]]) return 0;
    }
    for (; b <= key; b++) /* buckets up to key start after `below` agents */
      if (g->starts[b] != below) return 0;
    below++;
  }
  for (; b <= g->buckets; b++)
    if (g->starts[b] != n) return 0;
  return 1;
}

/* A sparse grid (a big level, a few agents) mends its starts where agents
   changed bucket instead of counting every bucket again (sort.c): after
   moves of all sizes, by setting positions and by steps, the grid is as a
   count from scratch makes it, and the neighbors still match brute force. */
static void sparse_sorts(int wrap, int round) {
  steer_world_def d = steer_world_def_default();
  d.width = d.height = 2000;
  d.wrap = wrap;
  d.cell_size = 5;
  steer_world *w = steer_world_create(&d);
  size_t count = 1 + (size_t)(unit() * 300);
  for (size_t k = 0; k < count; k++) {
    steer_agent_def a = steer_agent_def_default();
    double c = 100 + 400 * (double)(k % 4); /* four groups */
    a.x = c + uniform(-20, 20);
    a.y = c + uniform(-20, 20);
    a.vx = uniform(-8, 8);
    a.vy = uniform(-8, 8);
    a.max_speed = 40;
    steer_id id;
    steer_world_add(w, &a, &id);
  }
  CHECK(world_sort_now(w) == STEER_OK, "sparse round %d: sorted", round);
  size_t *prev = malloc(sizeof *prev * (w->count + 1) * 2);
  for (int pass = 0; pass < 8; pass++) {
    for (size_t i = 0; i < w->count; i++) prev[w->slot_of[i]] = i;
    if (pass % 2) { /* a step: every agent moves by its velocity */
      steer_world_step(w, 0.5 * unit());
    } else { /* set positions: most by under a cell, some far */
      for (size_t k = 0; k < w->count / 3 + 1; k++) {
        size_t i = (size_t)(unit() * (double)w->count);
        double far = pass == 0 && unit() < 0.1 ? 1500 : 4; /* far: counted */
        steer_agent_set(w, i, STEER_X, w->x[i] + uniform(-far, far));
        steer_agent_set(w, i, STEER_Y, w->y[i] + uniform(-far, far));
      }
      world_sort_now(w);
    }
    CHECK(w->grid.sorted && sorted_as_counted(w, prev),
          "sparse %s round %d pass %d: the grid is not as counted",
          wrap ? "torus" : "clamped", round, pass);
    for (size_t i = 0; i < w->count; i += 7) {
      nearest_agent fast[10], truth[10];
      size_t nt = brute(w, i, 12, 10, truth);
      size_t nf = nearest_agents(w, i, 12, 10, 1, fast);
      CHECK(nf == nt && same(fast, truth, nt),
            "sparse round %d pass %d agent %zu: neighbors differ", round, pass, i);
    }
  }
  free(prev);
  steer_world_destroy(w);
}

/* ---- half-planes in lanes ------------------------------------------------
 * orca_agent_lines (two neighbors at a time where SSE2 is there) against
 * orca_agent_line for each neighbor alone, bit for bit: neighbors whose
 * nearest way out is the cut-off circle, the left or the right leg, an
 * overlap (at one spot with one velocity too), a vanishing or an
 * overflowing w, zero radii, both shares, lists of odd and even length.
 * The kinds mix within a pair, so that a lane that needs the scalar code
 * sits beside one that does not. */
static double pick_of(const double *v, size_t n) { return v[(size_t)(unit() * n) % n]; }

static long line_kinds[4]; /* cut-off, leg, overlap, odd values */
static long lines_checked[2]; /* at width 2, at width 4 */

static void random_neighbor(orca_neighbors *nb, size_t k, double horizon) {
  static const double scales[] = {1e-160, 1e-3, 1, 10, 1e3, 1e150};
  double s = unit() < 0.8 ? 1 : pick_of(scales, 6);
  double r = unit() < 0.1 ? 0 : uniform(0.1, 3) * (s > 1 ? 1 : s);
  nb->radius[k] = r;
  nb->share[k] = unit() < 0.5 ? 0.5 : 1;
  nb->side[k] = unit() < 0.5 ? -1 : 1;
  double kind = unit();
  if (kind < 0.15) { /* overlapping, maybe at one spot with one velocity */
    double at = unit() < 0.3 ? 0 : uniform(0, r);
    double a = uniform(0, 6.283185307179586);
    nb->px[k] = at * cos(a);
    nb->py[k] = at * sin(a);
    nb->vx[k] = unit() < 0.3 ? 0 : uniform(-2, 2);
    nb->vy[k] = unit() < 0.3 ? 0 : uniform(-2, 2);
    line_kinds[2]++;
    return;
  }
  nb->px[k] = uniform(-15, 15) * s;
  nb->py[k] = uniform(-15, 15) * s;
  if (kind < 0.25) { /* w = 0: the velocity that reaches the centre at the horizon */
    nb->vx[k] = nb->px[k] * (1 / horizon);
    nb->vy[k] = nb->py[k] * (1 / horizon);
    line_kinds[3]++;
  } else {
    nb->vx[k] = uniform(-4, 4) * s;
    nb->vy[k] = uniform(-4, 4) * s;
  }
  double wx = nb->vx[k] - nb->px[k] * (1 / horizon);
  double wy = nb->vy[k] - nb->py[k] * (1 / horizon);
  double along = wx * nb->px[k] + wy * nb->py[k];
  line_kinds[along < 0 && along * along > r * r * (wx * wx + wy * wy) ? 0 : 1]++;
}

static void check_lines(int round) {
  orca_neighbors nb;
  orca_line lanes[STEER_ORCA_MAX_NEIGHBORS], alone;
  for (int t = 0; t < 200; t++) {
    size_t n = (size_t)(unit() * (STEER_ORCA_MAX_NEIGHBORS + 1));
    if (n > STEER_ORCA_MAX_NEIGHBORS) n = STEER_ORCA_MAX_NEIGHBORS;
    double horizon = unit() < 0.5 ? 10 : uniform(0.01, 20);
    double dt = unit() < 0.5 ? 0.25 : uniform(1e-3, 1);
    steer_vec2 vel = {uniform(-2, 2), uniform(-2, 2)};
    for (size_t k = 0; k < n; k++) random_neighbor(&nb, k, horizon);
    /* width 2: SSE2 pairs; width 4: AVX quads (then pairs for the rest) */
    for (int width = 2; width <= (crowd_quad_available() ? 4 : 2); width += 2) {
      orca_agent_lines(&nb, n, vel, horizon, dt, lanes, width);
      for (size_t k = 0; k < n; k++) {
        orca_agent_line(v2(nb.px[k], nb.py[k]), v2(nb.vx[k], nb.vy[k]), vel,
                        nb.radius[k], horizon, dt, nb.share[k], nb.side[k],
                        &alone);
        CHECK(memcmp(&alone, &lanes[k], sizeof alone) == 0,
              "round %d set %d width %d neighbor %zu of %zu: lanes (%a, %a)"
              " along (%a, %a), alone (%a, %a) along (%a, %a)",
              round, t, width, k, n, lanes[k].point.x, lanes[k].point.y,
              lanes[k].dir.x, lanes[k].dir.y, alone.point.x, alone.point.y,
              alone.dir.x, alone.dir.y);
      }
      lines_checked[width / 4] += (long)n;
    }
  }
}

int main(void) {
  static const layout layouts[] = {
      {"clamped 200", 200, 200, 8, 0, 0, 0, 0},
      {"clamped 200 cell 3", 200, 200, 3, 0, 0, 0, 0},
      {"torus 200", 200, 200, 8, 1, 0, 0, 0},
      {"torus 100 x 60", 100, 60, 4, 1, 0, 0, 0},
      {"torus 40 (narrow)", 40, 40, 8, 1, 0, 0, 0},
      {"torus 17", 17, 17, 5, 1, 0, 0, 0},
      {"unbounded", 0, 0, 8, 0, 0, 0, 0},
      {"unbounded, a compact crowd (a box)", 0, 0, 4, 0, 0, 40, 0},
      {"unbounded, a box, then moves", 0, 0, 4, 0, 1, 40, 0},
      {"clamped, then moves", 100, 100, 5, 0, 1, 0, 0},
      {"torus, then moves", 100, 100, 5, 1, 1, 0, 0},
      {"clamped 20,000 (hashed)", 20000, 20000, 8, 0, 0, 0, 0},
      {"torus 20,000 (hashed) across the seams", 20000, 20000, 8, 1, 0, 0, 1},
      {"torus 20,000 (hashed), then moves", 20000, 20000, 8, 1, 1, 0, 1},
  };
  for (int round = 0; round < 40; round++)
    for (size_t k = 0; k < sizeof layouts / sizeof *layouts; k++)
      one_world(&layouts[k], round);
  for (int round = 0; round < 20; round++) sparse_sorts(round % 2, round);
  CHECK(runs_used > 10000, "grid runs answered only %ld queries", runs_used);
  CHECK(warm_queries > 10000, "only %ld queries started warm", warm_queries);
  printf("%ld warm queries\n", warm_queries);
  CHECK(sparse_queries > 10000, "only %ld sparse queries", sparse_queries);
  printf("%ld sparse queries\n", sparse_queries);
  CHECK(ghost_free_queries > 10000, "only %ld queries without ghosts",
        ghost_free_queries);
  printf("%ld queries in worlds without ghosts\n", ghost_free_queries);
  for (int round = 0; round < 40; round++)
    for (size_t k = 0; k < sizeof layouts / sizeof *layouts; k++)
      if (!layouts[k].moves && !layouts[k].spread && layouts[k].width <= 1000)
        check_shapes(&layouts[k], round);
  CHECK(shapes_kept > 2000, "only %ld shape queries found a shape", shapes_kept);
  CHECK(shapes_near > 2000, "only %ld queries had a wall at the reach", shapes_near);
  printf("%ld shape queries found one\n", shapes_kept);
  CHECK(shapes_listed > 5000, "only %ld shape queries had lists", shapes_listed);
  printf("%ld shape queries with the lists of each cell's shapes\n", shapes_listed);
  CHECK(!crowd_quad_available() || shapes_quad > 5000,
        "only %ld shape queries at width 4", shapes_quad);
  for (int round = 0; round < 40; round++) check_lines(round);
  CHECK(line_kinds[0] > 5000 && line_kinds[1] > 5000 && line_kinds[2] > 5000 &&
            line_kinds[3] > 2000,
        "half-planes: %ld cut-off, %ld leg, %ld overlap, %ld w = 0", line_kinds[0],
        line_kinds[1], line_kinds[2], line_kinds[3]);
  printf("%ld cut-off, %ld leg, %ld overlapping half-planes checked in lanes\n",
         line_kinds[0], line_kinds[1], line_kinds[2]);
  /* the AVX quads wherever the CPU has them (crowd_quad_available) */
  CHECK(!crowd_quad_available() || lines_checked[1] > 100000,
        "only %ld half-planes checked in AVX lanes", lines_checked[1]);
  printf("%ld half-planes in SSE2 pairs, %ld in AVX quads\n", lines_checked[0],
         lines_checked[1]);
  return oracle_report();
}
