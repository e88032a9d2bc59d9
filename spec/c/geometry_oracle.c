/* geometry_oracle.c - the geometry module's indexed answers against brute
 * force scans, exactly (bit for bit): random levels in free and wrapped
 * layouts (geometry across the seam, degenerate walls and obstacles, huge
 * items), interleaved with removals and moves, ray casts, handles, tile
 * maps and containment, and allocation failures. Prints "N passed, N
 * failed"; exits nonzero on a failure. Built by mk/levels.mk, run by
 * spec/levels_spec.lua. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "contain.h"
#include "geometry.h"
#include "oracle.h"

static uint32_t rng = 12345;
static double unit(void) {
  rng = rng * 1103515245u + 12345u;
  return (double)(rng >> 8) / 16777216.0;
}
static double uniform(double a, double b) { return a + (b - a) * unit(); }

static long allow = -1; /* allocations left before failing; -1 never */
static size_t live_bytes;

static void *test_alloc(void *ud, void *p, size_t o, size_t n) {
  (void)ud;
  if (n == 0) {
    live_bytes -= o;
    free(p);
    return NULL;
  }
  if (allow == 0) return NULL;
  if (allow > 0) allow--;
  void *q = realloc(p, n);
  if (q) live_bytes += n - o;
  return q;
}

static int same_vec(steer_vec2 a, steer_vec2 b) {
  return memcmp(&a.x, &b.x, sizeof a.x) == 0 &&
         memcmp(&a.y, &b.y, sizeof a.y) == 0;
}

/* ---- brute force ---------------------------------------------------------- */

static steer_vec2 brute_obstacles(const geometry *g, steer_vec2 p,
                                  steer_vec2 v, double radius, double extra,
                                  double max_force, double length) {
  geo_feeler f;
  geo_feeler_start(&f, p, v, length, radius, extra);
  for (size_t k = 0; k < g->obstacle_count; k++) geo_feeler_obstacle(g, &f, k);
  return v2_scale(f.away, max_force);
}

static steer_vec2 brute_walls(const geometry *g, steer_vec2 p, steer_vec2 v,
                              double length) {
  geo_feeler f;
  geo_feeler_start(&f, p, v, length, 0, 0);
  for (size_t k = 0; k < g->wall_count; k++) geo_feeler_wall(g, &f, k);
  return f.away;
}

/* Periods either side of a shape's own position that a brute force tries
   on a torus axis: enough for any image of a shape `extent` long to reach
   a ray (the ray spans at most half the torus). */
static int periods(const geometry *g, double extent, double period) {
  if (!g->wrap) return 0;
  return 2 + (int)ceil(extent / period);
}

/* Every image the ray's box can meet (for shapes wider than the torus,
   the ones geo_image_range keeps: two periods either side) against every
   shape, no index. */
static void brute_raycast(const geometry *g, const geo_ray *r, unsigned kinds,
                          geo_hit *hit) {
  double W = g->width, H = g->height;
  geo_box q = geo_box_around(r->s, v2_add(r->s, r->d), 0);
  double x0, x1, y0, y1;
  if (kinds & GEO_RAY_WALLS)
    for (size_t k = 0; k < g->wall_count; k++) {
      const geo_wall *s = &g->walls[k];
      geo_box b = geo_wall_box(s);
      geo_image_range(g, q.x0, q.x1, b.x0, b.x1, W, &x0, &x1);
      geo_image_range(g, q.y0, q.y1, b.y0, b.y1, H, &y0, &y1);
      for (int m = 0; m <= 4 && x0 + m <= x1; m++)
        for (int n = 0; n <= 4 && y0 + n <= y1; n++) {
          steer_vec2 sh = v2((x0 + m) * W, (y0 + n) * H);
          geo_ray_segment(r, v2_add(s->a, sh), v2_add(s->b, sh), k, hit);
        }
    }
  if (kinds & GEO_RAY_OBSTACLES)
    for (size_t k = 0; k < g->obstacle_count; k++) {
      const geo_obstacle *o = &g->obstacles[k];
      /* the rule for a ray starting inside (images may overlap): the image
         nearest the start, as geo_offset (the torus's own) picks it */
      steer_vec2 near = v2_sub(r->s, geo_offset(g, v2(o->x, o->y), r->s));
      if (g->wrap && v2_len2(v2_sub(r->s, near)) <= o->radius * o->radius) {
        geo_ray_circle(r, near, o->radius, GEO_HIT_OBSTACLE, k, hit);
        continue;
      }
      int KX = periods(g, 2 * o->radius, W);
      int KY = periods(g, 2 * o->radius, H);
      for (int i = -KX; i <= KX; i++)
        for (int j = -KY; j <= KY; j++) {
          steer_vec2 c = v2(o->x + (double)i * W, o->y + (double)j * H);
          if (!g->wrap) c = v2(o->x, o->y);
          geo_ray_circle(r, c, o->radius, GEO_HIT_OBSTACLE, k, hit);
        }
    }
}

static int same_hit(const geo_hit *a, const geo_hit *b) {
  if (a->kind != b->kind) return 0;
  if (!a->kind) return 1;
  return a->index == b->index &&
         memcmp(&a->fraction, &b->fraction, sizeof(double)) == 0 &&
         same_vec(a->point, b->point) && same_vec(a->normal, b->normal);
}

static geo_hit no_hit(void) { return geo_hit_none(); }

/* The ray cast of g, and of g without the lanes, against brute force (all
   finished): the same hit, or a failure naming `what` and ray q. Returns
   the indexed hit. */
static geo_hit check_ray(const geometry *g, const geo_ray *r, unsigned kinds,
                         const char *what, int q) {
  geometry scalar = *g;
  scalar.quad = 0;
  geo_hit h1 = no_hit(), h2 = no_hit(), h3 = no_hit();
  geometry_raycast(g, r, kinds, &h1);
  geometry_raycast(&scalar, r, kinds, &h3);
  brute_raycast(g, r, kinds, &h2);
  geo_hit_finish(r, &h1);
  geo_hit_finish(r, &h2);
  geo_hit_finish(r, &h3);
  CHECK(same_hit(&h1, &h2),
        "%s ray %d (%g %g)+(%g %g), kinds %u: %d #%zu at %.17g vs brute %d #%zu at %.17g",
        what, q, r->s.x, r->s.y, r->d.x, r->d.y, kinds, h1.kind, h1.index,
        h1.fraction, h2.kind, h2.index, h2.fraction);
  CHECK(same_hit(&h3, &h2),
        "%s ray %d, kinds %u, no lanes: %d #%zu at %.17g vs brute %d #%zu", what,
        q, kinds, h3.kind, h3.index, h3.fraction, h2.kind, h2.index);
  return h1;
}

/* ---- random levels -------------------------------------------------------- */

typedef struct layout {
  const char *name;
  int wrap;
  double w, h, cell;
  double spread; /* > 0: points in clusters this far apart (free cells) */
} layout;

static steer_vec2 random_point(const layout *L) {
  double w = L->w > 0 ? L->w : 200, h = L->h > 0 ? L->h : 200;
  steer_vec2 p = v2(uniform(-0.2 * w, 1.2 * w), uniform(-0.2 * h, 1.2 * h));
  if (L->spread > 0) { /* one of 9 clusters: a window far too wide */
    p.x += L->spread * floor(uniform(-1, 2));
    p.y += L->spread * floor(uniform(-1, 2));
  }
  return p;
}

/* ---- the index's own bookkeeping ------------------------------------------- */

/* Every item of 0..count-1 sits in exactly the cells of its span, once per
   cell, with its owner's shape; the counts, the pool's room and the
   table's cells agree; no empty cell is left in the table. */
static void check_index(const geo_index *x, size_t count, const double *shapes,
                        const char *what) {
  size_t entries = 0, held = 0, live = 0, bad = 0;
  for (size_t k = 0; k < x->cell_slots; k++) {
    const geo_cell *c = &x->cells[k];
    if (c->cx == INT32_MIN) continue;
    live++;
    held += c->cap;
    entries += c->count;
    if (c->count == 0 || c->count > c->cap || c->start + c->cap > x->pool_used ||
        geo_index_cell(x, c->cx, c->cy) != c)
      bad++;
    for (uint32_t e = 0; e < c->count; e++) {
      const geo_item *it = &geo_cell_items(x, c)[e];
      if (it->item < 0 || (size_t)it->item >= count ||
          memcmp(it->v, shapes + 4 * it->item, sizeof it->v) != 0)
        bad++;
    }
  }
  for (size_t e = 0; e < x->large_count; e++)
    if (x->large[e].item < 0 || (size_t)x->large[e].item >= count ||
        memcmp(x->large[e].v, shapes + 4 * x->large[e].item,
               sizeof x->large[e].v) != 0)
      bad++;
  size_t spanned = 0;
  for (size_t i = 0; i < count; i++) {
    geo_span s = x->spans[i];
    if (s.nx < 0) {
      spanned++;
      continue;
    }
    spanned += (size_t)s.nx * (size_t)s.ny;
    for (int32_t j = 0; j < s.ny; j++)
      for (int32_t k = 0; k < s.nx; k++) {
        int32_t cx = s.x0 + k, cy = s.y0 + j;
        if (x->wrap) {
          cx %= x->ncx;
          cy %= x->ncy;
        }
        const geo_cell *c = geo_index_cell(x, cx, cy);
        size_t found = 0;
        for (uint32_t e = 0; c && e < c->count; e++)
          found += geo_cell_items(x, c)[e].item == (int32_t)i;
        if (found != 1) bad++;
      }
  }
  CHECK(bad == 0 && live == x->cell_live && held == x->pool_held &&
            entries + x->large_count == x->entries && spanned == x->entries,
        "%s index bookkeeping: %zu bad, cells %zu/%zu, room %zu/%zu, entries "
        "%zu+%zu/%zu (spans %zu)",
        what, bad, live, x->cell_live, held, x->pool_held, entries,
        x->large_count, x->entries, spanned);
}

/* The shapes the index should hold for g's obstacles and walls. */
static void check_indexes(const geometry *g, const char *name) {
  size_t n = g->obstacle_count > g->wall_count ? g->obstacle_count
                                               : g->wall_count;
  double *v = malloc(sizeof(double) * 4 * (n + 1));
  for (size_t k = 0; k < g->obstacle_count; k++) {
    const geo_obstacle *o = &g->obstacles[k];
    double s[4] = {o->x, o->y, o->radius, 0};
    memcpy(v + 4 * k, s, sizeof s);
  }
  check_index(&g->obstacle_index, g->obstacle_count, v, name);
  for (size_t k = 0; k < g->wall_count; k++) {
    const geo_wall *w = &g->walls[k];
    double s[4] = {w->a.x, w->a.y, w->b.x, w->b.y};
    memcpy(v + 4 * k, s, sizeof s);
  }
  check_index(&g->wall_index, g->wall_count, v, name);
  free(v);
}

static void add_random(geometry *g, const layout *L, uint64_t *handles,
                       size_t *nh) {
  double kind = unit();
  double big = L->w > 0 ? fmax(L->w, L->h) : 300;
  steer_vec2 p = random_point(L);
  uint64_t id = 0;
  steer_status s;
  if (kind < 0.4) {
    double r = unit() < 0.1 ? 0 : unit() < 0.03 ? uniform(0.2, 1.5) * big
                                                : uniform(0.1, 4);
    s = geometry_add_obstacle(g, p.x, p.y, r, &id);
  } else if (kind < 0.85) {
    double len = unit() < 0.05 ? uniform(0.5, 2) * big : uniform(0, 12);
    double ang = unit() < 0.3 ? floor(uniform(0, 4)) * 1.5707963267948966
                              : uniform(0, 6.283185307179586);
    steer_vec2 q = v2(p.x + len * cos(ang), p.y + len * sin(ang));
    if (unit() < 0.05) q = p; /* degenerate: a point */
    s = geometry_add_wall(g, p, q, &id);
  } else {
    steer_vec2 pts[6];
    size_t n = 2 + (size_t)(unit() * 4);
    for (size_t i = 0; i < n; i++)
      pts[i] = unit() < 0.15 && i ? pts[i - 1]
                                  : v2(p.x + uniform(-8, 8), p.y + uniform(-8, 8));
    s = geometry_add_polygon(g, pts, n, unit() < 0.7, &id);
  }
  if (s == STEER_OK) handles[(*nh)++] = id;
}

static int fused_checked; /* batches geometry_avoid_walls_obstacles_many
                              answered */

/* Many feelers at once (a batch's, geometry_avoid_walls_many) give each
   feeler's own result bit for bit, with and without the lanes: standing
   and barely moving agents, feelers from none to many cells long. */
static void compare_many(geometry *g, const layout *L) {
  enum { N = 45 };
  steer_vec2 p[N], v[N], walls[N], obstacles[N];
  double length[N], radius[N], extra[N], max_force[N];
  int n = 1 + (int)(unit() * N);
  double len = uniform(0, 15);
  for (int k = 0; k < n; k++) {
    p[k] = random_point(L);
    if (g->wrap) p[k] = geometry_inside(g, p[k]);
    double still = unit();
    v[k] = still < 0.05   ? v2(0, 0)
           : still < 0.1 ? v2(uniform(-1e-3, 1e-3), uniform(-1e-3, 1e-3))
                         : v2(uniform(-3, 3), uniform(-3, 3));
    length[k] = unit() < 0.8 ? len : uniform(0, 15);
    radius[k] = unit() < 0.1 ? 0 : uniform(0.1, 2);
    extra[k] = unit() < 0.5 ? 0 : uniform(0, 1);
    max_force[k] = uniform(0.5, 3);
  }
  /* pass 0: the halos as the last edits left them (dropped, or built for
     shorter feelers: the index answers); then built for these feelers
     (geometry_prepare, as a step does) and asked again */
  for (int pass = 0; pass < 3; pass++) {
    if (pass == 2) { /* built for half the reach: longer feelers fall back */
      geo_halo *hs[2] = {&g->wall_halo, &g->obstacle_halo};
      for (int i = 0; i < 2; i++) {
        hs[i]->want = hs[i]->reach * 0.5;
        hs[i]->reach = 0;
        geo_halo_drop(hs[i]);
      }
    }
    if (pass) {
      /* the first prepare after an edit only notes that the shapes
         settled (geo_halo_settle); the next one builds */
      geometry_prepare(g);
      geometry_prepare(g);
      CHECK(!g->wall_count || g->wall_halo.live || g->wall_halo.want == 0,
            "%s: the wall halo was built", L->name);
    }
    for (int lanes = 0; lanes < 2; lanes++) {
      geometry h = *g;
      if (!lanes) h.quad = 0;
      geometry_avoid_walls_many(&h, n, p, v, length, walls);
      geometry_avoid_obstacles_many(&h, n, p, v, radius, extra, max_force,
                                    len, obstacles);
      /* the wants the queries recorded, for geometry_prepare */
      g->wall_halo.want = h.wall_halo.want;
      g->obstacle_halo.want = h.obstacle_halo.want;
      for (int k = 0; k < n; k++) {
        steer_vec2 a = geometry_avoid_walls(&h, p[k], v[k], length[k]);
        CHECK(same_vec(walls[k], a),
              "%s avoid_walls_many #%d pass %d (%g, %g) vs (%g, %g)", L->name,
              k, pass, walls[k].x, walls[k].y, a.x, a.y);
        a = brute_walls(&h, p[k], v[k], length[k]);
        CHECK(same_vec(walls[k], a),
              "%s avoid_walls_many #%d pass %d (%g, %g) vs brute (%g, %g)",
              L->name, k, pass, walls[k].x, walls[k].y, a.x, a.y);
        a = geometry_avoid_obstacles(&h, p[k], v[k], radius[k], extra[k],
                                     max_force[k], len);
        CHECK(same_vec(obstacles[k], a),
              "%s avoid_obstacles_many #%d pass %d (%g, %g) vs (%g, %g)",
              L->name, k, pass, obstacles[k].x, obstacles[k].y, a.x, a.y);
        a = brute_obstacles(&h, p[k], v[k], radius[k], extra[k], max_force[k],
                            len);
        CHECK(same_vec(obstacles[k], a),
              "%s avoid_obstacles_many #%d pass %d (%g, %g) vs brute (%g, %g)",
              L->name, k, pass, obstacles[k].x, obstacles[k].y, a.x, a.y);
      }
      /* walls, then obstacles where the walls stay quiet, at once: the
         same bits as the two calls above (or nothing, without halos) */
      steer_vec2 w2[N], o2[N];
      char felt[N];
      double weight = uniform(0.1, 3), loud = unit() < 0.5 ? 1e-4 : 0.5;
      int both = geometry_avoid_walls_obstacles_many(
          &h, n, p, v, length, weight, loud, radius, extra, max_force, len,
          w2, o2, felt);
      /* it answers exactly when both halos can answer every feeler */
      int able = g->wall_count && g->obstacle_count && h.wall_halo.live &&
                 h.obstacle_halo.live;
      for (int k = 0; k < n; k++)
        able = able && fabs(length[k]) * 0.5 <= h.wall_halo.reach &&
               radius[k] + extra[k] >= 0 &&
               radius[k] + extra[k] + fabs(len) * 0.5 <= h.obstacle_halo.reach;
      CHECK(both == able, "%s avoid_walls_obstacles_many answered %d pass %d",
            L->name, both, pass);
      fused_checked += both;
      for (int k = 0; both && k < n; k++) {
        steer_vec2 s = v2_scale(walls[k], weight);
        int quiet = !(v2_len2(s) > loud);
        CHECK(same_vec(w2[k], walls[k]) && felt[k] == quiet,
              "%s avoid_walls_obstacles_many walls #%d pass %d (%g, %g) vs "
              "(%g, %g)", L->name, k, pass, w2[k].x, w2[k].y, walls[k].x,
              walls[k].y);
        CHECK(!quiet || same_vec(o2[k], obstacles[k]),
              "%s avoid_walls_obstacles_many obstacles #%d pass %d (%g, %g) "
              "vs (%g, %g)", L->name, k, pass, o2[k].x, o2[k].y,
              obstacles[k].x, obstacles[k].y);
      }
    }
  }
}

static void compare_queries(geometry *g, const layout *L, int rounds) {
  compare_many(g, L);
  for (int q = 0; q < rounds; q++) {
    steer_vec2 p = random_point(L);
    if (g->wrap) p = geometry_inside(g, p);
    steer_vec2 v = v2(uniform(-3, 3), uniform(-3, 3));
    if (unit() < 0.05) v = v2(0, 0);
    double radius = unit() < 0.1 ? 0 : uniform(0.1, 2);
    double extra = unit() < 0.5 ? 0 : uniform(0, 1);
    double len = uniform(0, 15);
    steer_vec2 a = geometry_avoid_obstacles(g, p, v, radius, extra, 1.5, len);
    steer_vec2 b = brute_obstacles(g, p, v, radius, extra, 1.5, len);
    CHECK(same_vec(a, b), "%s avoid_obstacles (%g, %g) vs brute (%g, %g)",
          L->name, a.x, a.y, b.x, b.y);
    a = geometry_avoid_walls(g, p, v, len);
    b = brute_walls(g, p, v, len);
    CHECK(same_vec(a, b), "%s avoid_walls (%g, %g) vs brute (%g, %g)", L->name,
          a.x, a.y, b.x, b.y);
    geometry scalar = *g; /* the walls' walk without the lanes, too */
    scalar.quad = 0;
    a = geometry_avoid_walls(&scalar, p, v, len);
    CHECK(same_vec(a, b), "%s avoid_walls, no lanes (%g, %g) vs brute (%g, %g)",
          L->name, a.x, a.y, b.x, b.y);
    steer_vec2 e = unit() < 0.5 ? v2_add(p, v2(uniform(-20, 20), uniform(-20, 20)))
                                : random_point(L);
    geo_ray r = geometry_ray(g, p, e);
    check_ray(g, &r, 1 + (unsigned)(unit() * 3), L->name, q);
  }
}

static void check_handles(const geometry *g, const uint64_t *handles,
                          size_t nh) {
  size_t live = 0;
  for (size_t i = 0; i < nh; i++) {
    size_t k;
    geo_kind kind = geometry_kind(g, handles[i], &k);
    if (kind == GEO_FREE) continue;
    live++;
    if (kind == GEO_OBSTACLE)
      CHECK(k < g->obstacle_count && g->obstacles[k].handle == handles[i],
            "obstacle handle points at its obstacle");
    if (kind == GEO_WALL)
      CHECK(k < g->wall_count && g->walls[k].handle == handles[i],
            "wall handle points at its wall");
    if (kind == GEO_POLYGON) {
      size_t edges = 0;
      for (size_t w = 0; w < g->wall_count; w++)
        edges += g->walls[w].handle == handles[i];
      CHECK(edges == k, "polygon owns %zu edges, slot says %zu", edges, k);
    }
  }
  size_t walked = 0;
  for (uint64_t h = geometry_next_handle(g, ~0u, 0); h;
       h = geometry_next_handle(g, ~0u, h))
    walked++;
  CHECK(walked == live && walked == geometry_handle_count(g, ~0u),
        "iteration sees %zu handles, %zu live", walked, live);
}

static void random_level(const layout *L, int items, int edits) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, L->cell, L->wrap, L->w, L->h);
  uint64_t *handles = malloc(sizeof(uint64_t) * (size_t)(items + edits + 8));
  size_t nh = 0;
  for (int i = 0; i < items; i++) add_random(&g, L, handles, &nh);
  /* clusters far apart are hashed (levels spread evenly: probe_runs) */
  if (L->spread > 0)
    CHECK(g.wall_index.mixed && g.obstacle_index.mixed, "%s: hashed", L->name);
  compare_queries(&g, L, 300);
  for (int e = 0; e < edits; e++) {
    double what = unit();
    if (what < 0.35 && nh) { /* remove, then the stale handle raises */
      size_t i = (size_t)(unit() * (double)nh);
      steer_status s = geometry_remove(&g, handles[i]);
      if (s == STEER_OK)
        CHECK(geometry_remove(&g, handles[i]) == STEER_EINVAL &&
                  geometry_kind(&g, handles[i], NULL) == GEO_FREE,
              "a removed handle is stale");
    } else if (what < 0.7 && nh) { /* move */
      size_t k, i = (size_t)(unit() * (double)nh);
      geo_kind kind = geometry_kind(&g, handles[i], &k);
      steer_vec2 p = random_point(L);
      if (kind == GEO_OBSTACLE)
        geometry_set_obstacle(&g, k, p.x, p.y, uniform(0, 3));
      else if (kind == GEO_WALL)
        geometry_set_wall(&g, k, p, v2_add(p, v2(uniform(-9, 9), uniform(-9, 9))));
    } else {
      add_random(&g, L, handles, &nh);
    }
    if (e % 25 == 0) compare_queries(&g, L, 40);
    if (e % 50 == 0) check_indexes(&g, L->name);
  }
  compare_queries(&g, L, 300);
  check_indexes(&g, L->name);
  check_handles(&g, handles, nh);
  geometry_clear_walls(&g);
  CHECK(g.wall_count == 0 && geometry_handle_count(&g, 1u << GEO_WALL |
                                                       1u << GEO_POLYGON) == 0,
        "clear_walls leaves no wall handle");
  compare_queries(&g, L, 50);
  check_indexes(&g, L->name);
  geometry_free(&g);
  free(handles);
}

/* A ray along thousands of cells (fewer than the items: marched column by
   column, not scanned), and the same rays going left. */
static void long_rays(void) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, 1, 0, 0, 0);
  for (int i = 0; i < 6000; i++) {
    double x = uniform(0, 6000), y = uniform(-3, 3);
    geometry_add_wall(&g, v2(x, y), v2(x + uniform(-1, 1), y + uniform(-1, 1)),
                      NULL);
    geometry_add_obstacle(&g, uniform(0, 6000), uniform(-3, 3),
                          uniform(0.01, 0.3), NULL);
  }
  for (int q = 0; q < 200; q++) {
    /* along row 0 (y in 0..1): 5,000 cells */
    steer_vec2 s = v2(uniform(0, 10), uniform(0.1, 0.9));
    steer_vec2 e = v2(uniform(5000, 5010), uniform(0.1, 0.9));
    geo_ray r = q % 2 ? geometry_ray(&g, s, e) : geometry_ray(&g, e, s);
    check_ray(&g, &r, 1 + (unsigned)q % 3, "long", q);
  }
  geometry_free(&g);
}

/* Shapes and short rays beyond the free cells' clamp (2^29 cells out),
   where every item shares the last cell: the march must not look for
   cells that are not there. */
static void far_rays(void) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, 5, 0, 0, 0);
  const double X = 3e9, Y = -4e9; /* 6e8 and -8e8 cells */
  for (int i = 0; i < 200; i++) {
    double x = X + uniform(0, 200), y = Y + uniform(0, 200);
    if (i % 2)
      geometry_add_wall(&g, v2(x, y), v2(x + uniform(-6, 6), y + uniform(-6, 6)), NULL);
    else
      geometry_add_obstacle(&g, x, y, uniform(0.5, 3), NULL);
  }
  for (int q = 0; q < 500; q++) {
    steer_vec2 s = v2(X + uniform(0, 200), Y + uniform(0, 200));
    steer_vec2 e = v2_add(s, v2(uniform(-30, 30), uniform(-30, 30)));
    geo_ray r = geometry_ray(&g, s, e);
    check_ray(&g, &r, 1 + (unsigned)q % 3, "far", q);
  }
  geometry_free(&g);
}

/* Rays and shapes on the cells' lines: ends on cell corners and edges,
   rays along a line of cells, through corners, in all eight directions
   and of length 0; walls along the lines, circles centred on corners.
   The march's columns and rows meet the items' cells exactly there. */
static void grid_rays(const layout *L) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, L->cell, L->wrap, L->w, L->h);
  double c = L->cell, span = L->w > 0 ? L->w : 60;
  int lines = (int)(span / c * 2); /* half-cell lines over the level */
#define ON_GRID(k) ((double)(k) * c * 0.5 - (L->w > 0 ? 0 : 30))
  for (int i = 0; i < 150; i++) {
    steer_vec2 p = v2(ON_GRID((int)uniform(0, lines)), ON_GRID((int)uniform(0, lines)));
    if (unit() < 0.5) {
      int dx = (int)uniform(-3, 4), dy = unit() < 0.5 ? 0 : (int)uniform(-3, 4);
      if (unit() < 0.5) { int t = dx; dx = dy; dy = t; }
      geometry_add_wall(&g, p, v2(p.x + dx * c * 0.5, p.y + dy * c * 0.5), NULL);
    } else {
      geometry_add_obstacle(&g, p.x, p.y, (double)(int)uniform(0, 3) * c * 0.5,
                            NULL);
    }
  }
  for (int q = 0; q < 3000; q++) {
    steer_vec2 s = v2(ON_GRID((int)uniform(0, lines)), ON_GRID((int)uniform(0, lines)));
    int len = (int)uniform(0, 12), dir = (int)uniform(0, 8);
    static const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                   {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    steer_vec2 e = v2(s.x + dirs[dir][0] * len * c * 0.5,
                      s.y + dirs[dir][1] * len * c * 0.5);
    if (q % 4 == 3) /* a knight's move: through corners now and then */
      e = v2(s.x + dirs[dir][0] * len * c, s.y + dirs[(dir + 2) % 8][1] * len * c * 0.5);
    geo_ray r = geometry_ray(&g, s, e);
    check_ray(&g, &r, 1 + (unsigned)q % 3, L->name, q);
  }
#undef ON_GRID
  geometry_free(&g);
}

/* Halos list an item only in the cells its shape comes within reach of
   (geo_halo.c): feelers as long as the halos allow, their middles
   anywhere in a cell, against brute force. A filter 20% too tight fails
   hundreds of these. */
static void halo_reach(const layout *L, int items, int batches) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, L->cell, L->wrap, L->w, L->h);
  uint64_t *handles = malloc(sizeof(uint64_t) * (size_t)(items + 8));
  size_t nh = 0;
  for (int i = 0; i < items; i++) add_random(&g, L, handles, &nh);
  enum { N = 45 };
  double len = uniform(0.5, 15), rad = uniform(0, 2), ext = uniform(0, 1);
  steer_vec2 p[N], v[N], walls[N], obstacles[N];
  double length[N], radius[N], extra[N], max_force[N];
  long bad_w = 0, bad_o = 0, asked = 0;
  for (int b = 0; b < batches; b++) {
    for (int k = 0; k < N; k++) {
      p[k] = random_point(L);
      if (g.wrap) p[k] = geometry_inside(&g, p[k]);
      double ang = uniform(0, 6.283185307179586);
      v[k] = v2(cos(ang) * 2, sin(ang) * 2);
      /* most at the full reach the halos are built for */
      length[k] = unit() < 0.7 ? len : uniform(0, len);
      radius[k] = unit() < 0.7 ? rad : uniform(0, rad);
      extra[k] = unit() < 0.7 ? ext : uniform(0, ext);
      max_force[k] = 1;
    }
    geometry_avoid_walls_many(&g, N, p, v, length, walls);
    geometry_avoid_obstacles_many(&g, N, p, v, radius, extra, max_force, len,
                                  obstacles);
    if (b == 0) { /* the wants are noted: build the halos */
      geometry_prepare(&g);
      geometry_prepare(&g);
      continue;
    }
    if (!g.wall_halo.live || !g.obstacle_halo.live) break; /* given up */
    for (int k = 0; k < N; k++) {
      bad_w += !same_vec(walls[k], brute_walls(&g, p[k], v[k], length[k]));
      bad_o += !same_vec(obstacles[k],
                         brute_obstacles(&g, p[k], v[k], radius[k], extra[k],
                                         max_force[k], len));
      asked++;
    }
  }
  CHECK(bad_w == 0 && bad_o == 0,
        "%s: halo runs at full reach, %ld walls and %ld obstacles of %ld "
        "feelers differ from brute force", L->name, bad_w, bad_o, asked);
  free(handles);
  geometry_free(&g);
}

/* A window that lines cells up badly: a compact level, then a column of
   items far below it whose cells land on the same few slots (rows 2^k
   apart). The table must notice the long probe runs and hash instead;
   queries stay exact either way. */
static void probe_runs(void) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  /* first a level spread evenly: it lies row by row in its window, on a
     torus as in free cells */
  for (int wrap = 0; wrap < 2; wrap++) {
    geometry_init(&g, &a, 5, wrap, 400, 400);
    for (int i = 0; i < 3000; i++) {
      steer_vec2 p = v2(uniform(0, 400), uniform(0, 400));
      geometry_add_wall(&g, p, v2_add(p, v2(uniform(-4, 4), uniform(-4, 4))),
                        NULL);
      geometry_add_obstacle(&g, p.x, p.y, uniform(0.5, 2), NULL);
    }
    CHECK(!g.wall_index.mixed && !g.obstacle_index.mixed,
          "an even level is laid row by row (wrap %d)", wrap);
    check_indexes(&g, "even");
    layout L = {"even", wrap, 400, 400, 5, 0};
    compare_queries(&g, &L, 300);
    geometry_free(&g);
  }
  geometry_init(&g, &a, 1, 0, 0, 0);
  for (int i = 0; i < 40; i++)
    geometry_add_obstacle(&g, uniform(0, 7), uniform(0, 7), 0.1, NULL);
  /* the window is 8 slots wide: rows 64 apart share their slots mod the
     table's size */
  for (int i = 0; i < 200; i++)
    geometry_add_obstacle(&g, 0.5, 0.5 - 64.0 * (i + 1), 0.1, NULL);
  CHECK(g.obstacle_index.mixed, "long probe runs switch the table to hashing");
  check_indexes(&g, "probe-runs");
  layout L = {"probe-runs", 0, 0, 0, 1, 0};
  compare_queries(&g, &L, 200);
  for (int i = 0; i < 200; i++) {
    steer_vec2 p = v2(0.5 + uniform(-2, 2), 0.5 - 64.0 * (i + 1));
    steer_vec2 f1 = geometry_avoid_obstacles(&g, p, v2(0, 1), 0.5, 0, 1, 3);
    steer_vec2 f2 = brute_obstacles(&g, p, v2(0, 1), 0.5, 0, 1, 3);
    CHECK(same_vec(f1, f2), "probe-runs avoid_obstacles at a far item");
  }
  while (g.obstacle_count) geometry_remove(&g, g.obstacles[0].handle);
  check_indexes(&g, "probe-runs emptied");
  CHECK(g.obstacle_index.cell_live == 0 && g.obstacle_index.entries == 0,
        "an emptied index holds no cell");
  geometry_free(&g);
}

/* ---- hand-computed cases ---------------------------------------------------- */

static void hand_cases(void) {
  geometry g;
  steer_allocator a = {test_alloc, NULL, 0};
  geometry_init(&g, &a, 5, 1, 100, 100);
  uint64_t wall, rock;
  geometry_add_wall(&g, v2(98, 40), v2(104, 40), &wall); /* across the seam */
  geometry_add_obstacle(&g, -1, 50, 2, &rock);            /* kept at x = 99 */
  CHECK(g.obstacles[0].x == 99 && g.walls[0].b.x == 104,
        "positions are kept inside the torus, the far end follows");
  /* a ray from x = 1 going down crosses the wall's image at x = 2 */
  geo_ray r = geometry_ray(&g, v2(1, 45), v2(1, 35));
  geo_hit h = no_hit();
  geometry_raycast(&g, &r, GEO_RAY_WALLS | GEO_RAY_OBSTACLES, &h);
  geo_hit_finish(&r, &h);
  CHECK(h.kind == GEO_HIT_WALL && h.fraction == 0.5 && h.point.y == 40 &&
            h.normal.x == 0 && h.normal.y == 1,
        "ray meets the seam wall halfway, normal facing it: %d %g (%g %g)",
        h.kind, h.fraction, h.normal.x, h.normal.y);
  /* the obstacle at x = 99 r 2 seen from x = 3 going left (through the seam) */
  r = geometry_ray(&g, v2(3, 50), v2(-7, 50));
  h = no_hit();
  geometry_raycast(&g, &r, GEO_RAY_OBSTACLES, &h);
  geo_hit_finish(&r, &h);
  CHECK(h.kind == GEO_HIT_OBSTACLE && h.fraction == 0.2 && h.point.x == 1 &&
            h.normal.x == 1,
        "ray meets the obstacle across the seam at x = 1: %g %g", h.fraction,
        h.point.x);
  /* the feeler of an agent at x = 1 heading down touches the seam wall */
  steer_vec2 f = geometry_avoid_walls(&g, v2(1, 42), v2(0, -1), 4);
  CHECK(f.x == 0 && f.y == 2, "avoid_walls pushes up by the overshoot: %g %g",
        f.x, f.y);
  geometry_free(&g);

  /* containment: a 10 x 10 box */
  steer_vec2 box[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  CHECK(geo_inside(box, 4, v2(5, 5)) && !geo_inside(box, 4, v2(11, 5)),
        "inside the box");
  f = geo_contain(v2(8, 5), v2(1, 0), box, 4, NULL, 3, 1);
  CHECK(f.x == -1 && f.y == 0, "contain: tip 1 past x = 10: (%g, %g)", f.x, f.y);
  f = geo_contain(v2(5, 5), v2(1, 0), box, 4, NULL, 3, 1);
  CHECK(f.x == 0 && f.y == 0, "contain: tip inside, no force");
  steer_vec2 tri[3] = {{0, 0}, {10, 0}, {0, 10}};
  /* max_force 3 sqrt 2: the tip (8, 8) is pushed toward (5, 5) */
  f = geo_contain(v2(4, 4), v2(1, 1), tri, 3, NULL, 4 * 1.4142135623730951,
                  3 * 1.4142135623730951);
  CHECK(fabs(f.x + 3) < 1e-12 && fabs(f.y + 3) < 1e-12,
        "contain: back to the hypotenuse (%g, %g)", f.x, f.y);
}

/* ---- contain regions: the band index against every edge ------------------- */

/* Bit for bit the same force, or both NaN-free zeros (+0 and -0 compare
   equal: the bits are compared). */
static int same_force(steer_vec2 a, steer_vec2 b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* Random polygons of every kind (star-shaped, point soup, rectilinear
   combs whose vertices sit on band borders, flat, repeated points) at
   scales from 1e-6 to 1e140; agents inside, outside, on vertices' heights,
   at rest and fast: geo_contain with the index gives the bits it gives
   with every edge. */
static void contain_regions(void) {
  static steer_vec2 pts[2400];
  int compared = 0;
  for (int trial = 0; trial < 400; trial++) {
    int kind = trial % 5;
    size_t n = kind == 0 ? 3 + (size_t)(unit() * (trial < 100 ? 60 : 2000))
                         : 3 + (size_t)(unit() * 200);
    double scale = trial % 7 == 0 ? 1e-6 : trial % 11 == 0 ? 1e140 : uniform(1, 300);
    double ox = uniform(-2, 2) * scale, oy = uniform(-2, 2) * scale;
    if (kind == 0) { /* star-shaped, radius 0.3 to 1 */
      for (size_t i = 0; i < n; i++) {
        double a = 2 * 3.141592653589793 * (double)i / (double)n;
        double r = uniform(0.3, 1) * scale;
        pts[i] = v2(ox + r * cos(a), oy + r * sin(a));
      }
    } else if (kind == 1) { /* point soup: self-crossing */
      for (size_t i = 0; i < n; i++)
        pts[i] = v2(ox + uniform(-1, 1) * scale, oy + uniform(-1, 1) * scale);
    } else if (kind == 2) { /* a comb: teeth up from a base, integer heights */
      size_t teeth = (n - 2) / 4 + 1, k = 0;
      for (size_t t = 0; t < teeth; t++) {
        double x0 = ox + (double)(2 * t) * scale, h = (double)(1 + (size_t)(unit() * 9));
        pts[k++] = v2(x0, oy + h * scale);
        pts[k++] = v2(x0 + scale, oy + h * scale);
        pts[k++] = v2(x0 + scale, oy + scale);
        pts[k++] = v2(x0 + 2 * scale, oy + scale);
      }
      pts[k++] = v2(ox + (double)(2 * teeth) * scale, oy);
      pts[k++] = v2(ox, oy);
      n = k;
    } else if (kind == 3) { /* flat: every point at one height */
      for (size_t i = 0; i < n; i++) pts[i] = v2(ox + uniform(-1, 1) * scale, oy);
    } else { /* repeated points and a few exact duplicates of heights */
      for (size_t i = 0; i < n; i++)
        pts[i] = i % 3 == 2 ? pts[i - 1]
                            : v2(ox + uniform(-1, 1) * scale,
                                 oy + (double)(int)(uniform(-4, 4)) * 0.25 * scale);
    }
    contain_index *x = contain_index_build(pts, n);
    CHECK(x != NULL, "contain index of %zu points", n);
    if (!x) continue;
    for (int q = 0; q < 300; q++) {
      steer_vec2 p = v2(ox + uniform(-1.3, 1.3) * scale, oy + uniform(-1.3, 1.3) * scale);
      if (kind == 2) p = v2(ox + uniform(-0.2, 1.1) * (double)n * 0.5 * scale, oy + uniform(-1, 11) * scale);
      if (q % 5 == 0) p.y = pts[(size_t)(unit() * (double)n)].y; /* a vertex's height */
      if (q % 10 == 1) p = pts[(size_t)(unit() * (double)n)];    /* on a vertex */
      double a = uniform(0, 6.283185307179586);
      double speed = q % 7 == 0 ? 0 : uniform(0, 3) * (q % 13 == 0 ? 1e6 : 1) * scale;
      steer_vec2 v = v2(speed * cos(a), speed * sin(a));
      if (q % 9 == 0) v = v2(speed, 0); /* along the comb's edges */
      if (q % 11 == 3) { /* along an edge's line, to within rounding */
        size_t e = (size_t)(unit() * (double)n);
        steer_vec2 a0 = pts[e], b0 = pts[(e + 1) % n];
        double t = uniform(-0.5, 1.5);
        p = v2(a0.x + t * (b0.x - a0.x), a0.y + t * (b0.y - a0.y) + uniform(-1e-12, 1e-12) * scale);
        v = v2((b0.x - a0.x) * (1 + 1e-13), (b0.y - a0.y) + uniform(-1e-13, 1e-13) * scale);
      }
      double len = uniform(0, 2) * scale, force = q % 17 == 0 ? 1e-300 : uniform(0.1, 5);
      steer_vec2 all = geo_contain(p, v, pts, n, NULL, len, force);
      steer_vec2 banded = geo_contain(p, v, pts, n, x, len, force);
      compared++;
      CHECK(same_force(all, banded) && all.x == all.x && all.y == all.y,
            "contain, kind %d, %zu points, scale %g: p (%.17g, %.17g) v (%.17g, "
            "%.17g): every edge (%.17g, %.17g), bands (%.17g, %.17g)",
            kind, n, scale, p.x, p.y, v.x, v.y, all.x, all.y, banded.x, banded.y);
    }
    contain_index_free(x);
  }
  CHECK(compared == 400 * 300, "contain regions compared: %d", compared);
  /* a round arena of 2,000 edges: a few edges per band, so a feeler
     looks at a handful, not at 2,000 */
  for (size_t i = 0; i < 2000; i++) {
    double a = 2 * 3.141592653589793 * (double)i / 2000;
    pts[i] = v2(50 * cos(a), 50 * sin(a));
  }
  contain_index *x = contain_index_build(pts, 2000);
  CHECK(x && x->bands.rows == 2000 && x->bands.start[2000] <= 4 * 2000,
        "a round arena's bands: %u bands, %u entries", x ? x->bands.rows : 0,
        x ? x->bands.start[x->bands.rows] : 0);
  /* and its grid: cells about two edges wide, a few edges in each */
  size_t cells = x ? (size_t)x->grid.cols * x->grid.rows : 0;
  CHECK(x && cells >= 1000 && x->grid.start[cells] <= 3 * 2000,
        "a round arena's grid: %u x %u cells, %u entries", x ? x->grid.cols : 0,
        x ? x->grid.rows : 0, x ? x->grid.start[cells] : 0);
  contain_index_free(x);
}

/* ---- tile maps ---------------------------------------------------------------- */

static void tile_maps(void) {
  /* hand case: a 3 x 2 map with an L of solid tiles
       row 1: 1 0 0
       row 0: 1 1 0      -> 6 merged segments */
  unsigned char L[6] = {1, 1, 0, 1, 0, 0};
  steer_vec2 seg[32];
  size_t n = geo_walls_from_tiles(L, 3, 2, 2, 10, 20, seg, 16);
  CHECK(n == 6, "the L has 6 boundary segments, got %zu", n);
  double perimeter = 0;
  for (size_t i = 0; i < n && i < 16; i++)
    perimeter += v2_len(v2_sub(seg[2 * i + 1], seg[2 * i]));
  CHECK(perimeter == 16, "the L's perimeter is 8 tile sides of 2, got %g",
        perimeter);
  CHECK(seg[0].x == 10 && seg[0].y == 20 && seg[1].x == 14 && seg[1].y == 20,
        "bottom edge merged, solid on its left: (%g %g)-(%g %g)", seg[0].x,
        seg[0].y, seg[1].x, seg[1].y);

  /* random maps: the unit edges of the segments are exactly the boundary,
     oriented with the solid tile on the left, and no two segments could
     merge */
  for (int trial = 0; trial < 200; trial++) {
    size_t w = 1 + (size_t)(unit() * 9), h = 1 + (size_t)(unit() * 9);
    unsigned char t[100];
    for (size_t i = 0; i < w * h; i++) t[i] = unit() < 0.45 ? (unsigned char)(1 + unit() * 3) : 0;
    size_t count = geo_walls_from_tiles(t, w, h, 1, 0, 0, NULL, 0);
    steer_vec2 *s = malloc(sizeof(steer_vec2) * 2 * (count + 1));
    CHECK(geo_walls_from_tiles(t, w, h, 1, 0, 0, s, count) == count,
          "counting and filling agree");
    /* edge sets as counts per directed unit edge */
    int got = 0, want = 0, bad = 0;
    for (size_t i = 0; i < count; i++) {
      steer_vec2 a = s[2 * i], b = s[2 * i + 1];
      steer_vec2 d = v2((b.x > a.x) - (b.x < a.x), (b.y > a.y) - (b.y < a.y));
      double len = fabs(b.x - a.x) + fabs(b.y - a.y);
      for (double k = 0; k < len; k++) {
        steer_vec2 p = v2(a.x + d.x * k, a.y + d.y * k);
        /* the tiles left and right of the unit edge from p along d (y up) */
        long px = (long)p.x, py = (long)p.y, lc, lr, rc, rr;
        if (d.x > 0) { lc = px; lr = py; rc = px; rr = py - 1; }
        else if (d.x < 0) { lc = px - 1; lr = py - 1; rc = px - 1; rr = py; }
        else if (d.y > 0) { lc = px - 1; lr = py; rc = px; rr = py; }
        else { lc = px; lr = py - 1; rc = px - 1; rr = py - 1; }
        int left = lc >= 0 && lr >= 0 && (size_t)lc < w && (size_t)lr < h && t[lr * (long)w + lc];
        int right = rc >= 0 && rr >= 0 && (size_t)rc < w && (size_t)rr < h && t[rr * (long)w + rc];
        if (!left || right) bad++;
        got++;
      }
    }
    for (size_t r = 0; r <= h; r++)
      for (size_t c = 0; c <= w; c++) {
        int here = r < h && c < w && t[r * w + c];
        int below = r > 0 && c < w && t[(r - 1) * w + c];
        int left = c > 0 && r < h && t[r * w + c - 1];
        if (c < w) want += here != below;
        if (r < h) want += here != left;
      }
    CHECK(got == want && bad == 0, "map %zux%zu: %d unit edges, %d boundary, %d misplaced", w, h, got, want, bad);
    int mergeable = 0;
    for (size_t i = 0; i < count; i++)
      for (size_t j = 0; j < count; j++)
        if (i != j && s[2 * i + 1].x == s[2 * j].x && s[2 * i + 1].y == s[2 * j].y) {
          steer_vec2 d1 = v2_sub(s[2 * i + 1], s[2 * i]), d2 = v2_sub(s[2 * j + 1], s[2 * j]);
          if (d1.x * d2.y - d1.y * d2.x == 0 && v2_dot(d1, d2) > 0) mergeable++;
        }
    CHECK(mergeable == 0, "no collinear runs left unmerged (%d)", mergeable);
    free(s);
  }
}

/* ---- numbers at the limit: no overflow, still exact ------------------------ */

static int finite_vec(steer_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static void huge_numbers(void) {
  for (int wrap = 0; wrap < 2; wrap++) {
    geometry g;
    steer_allocator a = {test_alloc, NULL, 0};
    geometry_init(&g, &a, 5, wrap, wrap ? 1e150 : 0, wrap ? 3e149 : 0);
    double L = STEER_LIMIT;
    steer_vec2 pts[] = {{-L, -L}, {L, L}, {L, -L}, {0, 0}, {1e-300, 0}};
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 5; j++) {
        geometry_add_wall(&g, pts[i], pts[j], NULL);
        geometry_add_obstacle(&g, pts[i].x, pts[j].y, i == j ? L : 1, NULL);
      }
    layout lay = {"huge", wrap, wrap ? 1e150 : 0, wrap ? 3e149 : 0, 5, 0};
    for (int q = 0; q < 200; q++) {
      steer_vec2 p = pts[q % 5], v = v2(uniform(-L, L), uniform(-L, L));
      if (q % 3 == 0) p = v2(uniform(-L, L), uniform(-L, L));
      if (wrap) p = geometry_inside(&g, p);
      double len = q % 2 ? L : 3, reach = q % 4 ? L : 0.5;
      steer_vec2 f1 = geometry_avoid_obstacles(&g, p, v, reach, reach, L, len);
      steer_vec2 f2 = brute_obstacles(&g, p, v, reach, reach, L, len);
      CHECK(finite_vec(f1) && same_vec(f1, f2), "huge avoid_obstacles");
      f1 = geometry_avoid_walls(&g, p, v, len);
      f2 = brute_walls(&g, p, v, len);
      CHECK(finite_vec(f1) && same_vec(f1, f2), "huge avoid_walls");
      geo_ray r = geometry_ray(&g, p, pts[(q + 1) % 5]);
      geo_hit h1 = check_ray(&g, &r, 3, "huge", q);
      CHECK(!h1.kind || (isfinite(h1.fraction) && finite_vec(h1.point) &&
                         finite_vec(h1.normal)),
            "huge raycast finite");
    }
    (void)lay;
    geometry_free(&g);
  }
}

/* ---- allocation failures ------------------------------------------------------- */

static void failures(void) {
  layout L = {"failing", 1, 80, 80, 4, 0};
  for (long budget = 0; budget < 40; budget++) {
    geometry g;
    steer_allocator a = {test_alloc, NULL, 0};
    geometry_init(&g, &a, L.cell, L.wrap, L.w, L.h);
    uint64_t handles[400];
    size_t nh = 0;
    allow = budget;
    for (int i = 0; i < 200; i++) {
      size_t before_o = g.obstacle_count, before_w = g.wall_count;
      size_t before_h = geometry_handle_count(&g, ~0u);
      size_t had = nh;
      add_random(&g, &L, handles, &nh);
      if (nh == had)
        CHECK(g.obstacle_count == before_o && g.wall_count == before_w &&
                  geometry_handle_count(&g, ~0u) == before_h,
              "a failed add changes nothing");
    }
    allow = -1;
    compare_queries(&g, &L, 30);
    check_handles(&g, handles, nh);
    geometry_free(&g);
  }
  CHECK(live_bytes == 0, "every byte freed (%zu left)", live_bytes);
}

int main(void) {
  layout layouts[] = {
      {"free", 0, 0, 0, 5, 0},          {"free-fine", 0, 0, 0, 1.5, 0},
      {"clamped-bounds", 0, 120, 90, 5, 0}, {"torus", 1, 100, 60, 5, 0},
      {"torus-odd", 1, 97.3, 41.9, 7, 0},   {"thin-torus", 1, 30, 9, 4, 0},
      /* circles far wider than the torus on x: many images, of which the
         ray casts test only the nearest ones */
      {"needle-torus", 1, 1.5, 41, 0.5, 0},
      /* clusters a million units apart: the table hashes them */
      {"clusters", 0, 0, 0, 5, 1e6},
      {"clusters-bounded", 0, 100, 80, 2, 3e4},
  };
  hand_cases();
  probe_runs();
  long_rays();
  far_rays();
  for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
    random_level(&layouts[i], 60, 200);
    random_level(&layouts[i], 600, 300);
    grid_rays(&layouts[i]);
  }
  tile_maps();
  contain_regions();
  huge_numbers();
  failures();
  for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
    for (int l = 0; l < 3; l++) halo_reach(&layouts[i], 40 + 10 * l, 300);
  CHECK(fused_checked > 100, "walls then obstacles at once: %d batches",
        fused_checked);
  return oracle_report();
}
