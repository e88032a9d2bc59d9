/* geometry.c - obstacles, walls and their handles in spatial indexes, and
 * feeler avoidance against them (geometry.h). */
#include "no_slp.h" /* first: it applies to all that follows */
#include <string.h>
#include "geometry.h"

static const steer_vec2 zero = {0, 0};
/* the halo's cells against the index's: with items kept only where their
   shape is within reach (geo_halo.c), 0.5 gave the dense bench level
   about 3% over 0.7 (0.7 and 0.35 about nothing; session 47) */
#define HALO_CELL 0.5
static int quad_available(void); /* feelers' lanes, below */

void geometry_init(geometry *g, steer_allocator *alloc, double cell,
                   int wrap, double width, double height) {
  memset(g, 0, sizeof *g);
  g->alloc = alloc;
  g->wrap = wrap && width > 0 && height > 0;
  g->width = width;
  g->height = height;
  g->free_slot = GEO_NONE;
  g->quad = quad_available();
  geo_index_init(&g->obstacle_index, cell, g->wrap, width, height);
  geo_index_init(&g->wall_index, cell, g->wrap, width, height);
  g->halo_cell = cell * HALO_CELL;
}

static void *gmem(geometry *g, void *p, size_t o, size_t n) {
  return alloc_bytes(g->alloc, p, o, n);
}

void geometry_free(geometry *g) {
  geo_index_free(&g->obstacle_index, g->alloc);
  geo_index_free(&g->wall_index, g->alloc);
  geo_halo_free(&g->wall_halo, g->alloc);
  geo_halo_free(&g->obstacle_halo, g->alloc);
  gmem(g, g->obstacles, g->obstacle_cap * sizeof(geo_obstacle), 0);
  gmem(g, g->walls, g->wall_cap * sizeof(geo_wall), 0);
  gmem(g, g->slots, g->slot_cap * sizeof(geo_slot), 0);
  g->obstacles = NULL;
  g->walls = NULL;
  g->slots = NULL;
  g->obstacle_count = g->wall_count = g->slot_count = 0;
  g->obstacle_cap = g->wall_cap = g->slot_cap = 0;
  g->free_slot = GEO_NONE;
}

static steer_status grow(geometry *g, void **arr, size_t size, size_t *cap,
                         size_t need) {
  return alloc_grow(g->alloc, arr, size, cap, need);
}

/* ---- positions on a torus ----------------------------------------------- */

static double wrap_coord(double v, double extent) {
  v = fmod(v, extent);
  if (v < 0) v += extent;
  return v < extent ? v : 0; /* -tiny + extent can round up to extent */
}

steer_vec2 geometry_inside(const geometry *g, steer_vec2 p) {
  if (!g->wrap) return p;
  return v2(wrap_coord(p.x, g->width), wrap_coord(p.y, g->height));
}

geo_box geo_obstacle_box(const geo_obstacle *o) {
  geo_box b = {o->x - o->radius, o->y - o->radius, o->x + o->radius,
               o->y + o->radius};
  return b;
}

geo_box geo_wall_box(const geo_wall *s) {
  geo_box b = {fmin(s->a.x, s->b.x), fmin(s->a.y, s->b.y),
               fmax(s->a.x, s->b.x), fmax(s->a.y, s->b.y)};
  return b;
}

/* Puts obstacle / wall k in its index (moving it when it is in), its
   shape copied into the index's cells. */
static steer_status index_obstacle(geometry *g, size_t k,
                                   const geo_obstacle *o) {
  double v[4] = {o->x, o->y, o->radius, 0};
  geo_halo_drop(&g->obstacle_halo);
  return geo_index_insert(&g->obstacle_index, g->alloc, (int32_t)k,
                          geo_obstacle_box(o), v);
}

static steer_status index_wall(geometry *g, size_t k, const geo_wall *s) {
  double v[4] = {s->a.x, s->a.y, s->b.x, s->b.y};
  geo_halo_drop(&g->wall_halo);
  return geo_index_insert(&g->wall_index, g->alloc, (int32_t)k,
                          geo_wall_box(s), v);
}

/* ---- handles ------------------------------------------------------------ */

static uint64_t handle_of(const geometry *g, uint32_t slot) {
  return (uint64_t)g->slots[slot].gen * GEO_SLOT_MAX + slot + 1;
}

/* The slot of a live handle, or GEO_NONE. */
static uint32_t slot_of(const geometry *g, uint64_t handle) {
  if (handle == 0) return GEO_NONE;
  uint32_t slot = geo_handle_slot(handle);
  uint64_t gen = (handle - 1) / GEO_SLOT_MAX;
  if (slot >= g->slot_count || g->slots[slot].kind == GEO_FREE ||
      g->slots[slot].gen != gen)
    return GEO_NONE;
  return slot;
}

/* Room for n more slots (taking them cannot fail afterwards). */
static steer_status reserve_slots(geometry *g, size_t n) {
  size_t free = 0;
  for (uint32_t s = g->free_slot; s != GEO_NONE && free < n;
       s = g->slots[s].index)
    free++;
  if (free == n) return STEER_OK;
  if (n - free > GEO_SLOT_MAX - g->slot_count) return STEER_ENOMEM;
  return grow(g, (void **)&g->slots, sizeof(geo_slot), &g->slot_cap,
              g->slot_count + (n - free));
}

static uint32_t take_slot(geometry *g, geo_kind kind, uint32_t index) {
  uint32_t s;
  if (g->free_slot != GEO_NONE) {
    s = g->free_slot;
    g->free_slot = g->slots[s].index;
  } else {
    s = (uint32_t)g->slot_count++;
    g->slots[s].gen = 0;
  }
  g->slots[s].birth = ++g->births;
  g->slots[s].kind = kind;
  g->slots[s].index = index;
  g->slots[s].side = GEO_TWO_SIDED;
  return s;
}

static void free_slot(geometry *g, uint32_t s) {
  g->slots[s].kind = GEO_FREE;
  /* a slot whose generation is used up is retired, never reused */
  if (++g->slots[s].gen >= GEO_GEN_MAX) return;
  g->slots[s].index = g->free_slot;
  g->free_slot = s;
}

geo_kind geometry_kind(const geometry *g, uint64_t handle, size_t *index) {
  uint32_t s = slot_of(g, handle);
  if (s == GEO_NONE) return GEO_FREE;
  if (index) *index = g->slots[s].index;
  return (geo_kind)g->slots[s].kind;
}

uint64_t geometry_next_handle_born(const geometry *g, unsigned kinds,
                                   uint64_t after, uint64_t births) {
  size_t s = after ? (size_t)geo_handle_slot(after) + 1 : 0;
  for (; s < g->slot_count; s++)
    if (g->slots[s].kind != GEO_FREE && (kinds >> g->slots[s].kind & 1) &&
        g->slots[s].birth <= births)
      return handle_of(g, (uint32_t)s);
  return 0;
}

uint64_t geometry_next_handle(const geometry *g, unsigned kinds,
                              uint64_t after) {
  return geometry_next_handle_born(g, kinds, after, UINT64_MAX);
}

size_t geometry_handle_count(const geometry *g, unsigned kinds) {
  size_t n = 0;
  for (size_t s = 0; s < g->slot_count; s++)
    if (g->slots[s].kind != GEO_FREE && (kinds >> g->slots[s].kind & 1)) n++;
  return n;
}

/* ---- adding ------------------------------------------------------------- */

steer_status geometry_add_obstacle(geometry *g, double x, double y,
                                   double radius, uint64_t *handle) {
  size_t k = g->obstacle_count;
  steer_vec2 c = geometry_inside(g, v2(x, y));
  geo_obstacle o = {c.x, c.y, radius, 0};
  if (reserve_slots(g, 1) ||
      grow(g, (void **)&g->obstacles, sizeof(geo_obstacle), &g->obstacle_cap,
           k + 1) ||
      index_obstacle(g, k, &o))
    return STEER_ENOMEM;
  uint32_t s = take_slot(g, GEO_OBSTACLE, (uint32_t)k);
  o.handle = handle_of(g, s);
  g->obstacles[k] = o;
  g->obstacle_count++;
  if (handle) *handle = o.handle;
  return STEER_OK;
}

static geo_wall make_wall(const geometry *g, steer_vec2 a, steer_vec2 b) {
  geo_wall s;
  s.a = geometry_inside(g, a);
  s.b = g->wrap ? v2_add(s.a, v2_sub(b, a)) : b;
  s.handle = 0;
  s.solid_left = 0;
  /* a wall too long to move inside the torus within the limit stays put */
  if (!(fabs(s.b.x) <= STEER_LIMIT && fabs(s.b.y) <= STEER_LIMIT)) {
    s.a = a;
    s.b = b;
  }
  return s;
}

steer_status geometry_add_wall(geometry *g, steer_vec2 a, steer_vec2 b,
                               uint64_t *handle) {
  steer_vec2 ends[2] = {a, b};
  if (geometry_add_walls(g, ends, 1)) return STEER_ENOMEM;
  if (handle) *handle = g->walls[g->wall_count - 1].handle;
  return STEER_OK;
}

steer_status geometry_add_walls(geometry *g, const steer_vec2 *ends,
                                size_t n) {
  size_t first = g->wall_count;
  if (reserve_slots(g, n) || grow(g, (void **)&g->walls, sizeof(geo_wall),
                                  &g->wall_cap, first + n))
    return STEER_ENOMEM;
  for (size_t k = 0; k < n; k++) {
    g->walls[first + k] = make_wall(g, ends[2 * k], ends[2 * k + 1]);
    if (index_wall(g, first + k, &g->walls[first + k])) {
      while (k > 0) geo_index_remove(&g->wall_index, (int32_t)(first + --k));
      return STEER_ENOMEM; /* no slot taken: the handles to come unchanged */
    }
  }
  for (size_t k = 0; k < n; k++) {
    uint32_t slot = take_slot(g, GEO_WALL, (uint32_t)(first + k));
    g->walls[first + k].handle = handle_of(g, slot);
  }
  g->wall_count += n;
  return STEER_OK;
}

steer_status geometry_add_polygon(geometry *g, const steer_vec2 *points,
                                  size_t n, int closed, uint64_t *handle) {
  size_t edges = n < 2 ? 0 : closed && n > 2 ? n : n - 1;
  size_t first = g->wall_count, added = 0;
  if (reserve_slots(g, 1) || grow(g, (void **)&g->walls, sizeof(geo_wall),
                                  &g->wall_cap, first + edges))
    return STEER_ENOMEM;
  for (size_t e = 0; e < edges; e++) {
    steer_vec2 a = points[e], b = points[(e + 1) % n];
    if (a.x == b.x && a.y == b.y) continue;
    geo_wall s = make_wall(g, a, b);
    if (index_wall(g, first + added, &s)) {
      while (added > 0)
        geo_index_remove(&g->wall_index, (int32_t)(first + --added));
      return STEER_ENOMEM;
    }
    g->walls[first + added++] = s;
  }
  uint32_t slot = take_slot(g, GEO_POLYGON, (uint32_t)added);
  g->slots[slot].side = geo_polygon_side(g, g->walls + first, added);
  uint64_t id = handle_of(g, slot);
  for (size_t e = 0; e < added; e++) g->walls[first + e].handle = id;
  g->wall_count += added;
  if (handle) *handle = id;
  return STEER_OK;
}

/* ---- removing and moving ------------------------------------------------ */

/* Takes dense item k out, moving the last one into its place. */
static void remove_obstacle_at(geometry *g, size_t k) {
  size_t last = --g->obstacle_count;
  geo_halo_drop(&g->obstacle_halo);
  geo_index_remove(&g->obstacle_index, (int32_t)k);
  if (k != last) {
    geo_index_rename(&g->obstacle_index, (int32_t)last, (int32_t)k);
    g->obstacles[k] = g->obstacles[last];
    uint32_t s = slot_of(g, g->obstacles[k].handle);
    g->slots[s].index = (uint32_t)k;
  }
}

static void remove_wall_at(geometry *g, size_t k) {
  size_t last = --g->wall_count;
  geo_halo_drop(&g->wall_halo);
  geo_index_remove(&g->wall_index, (int32_t)k);
  if (k != last) {
    geo_index_rename(&g->wall_index, (int32_t)last, (int32_t)k);
    g->walls[k] = g->walls[last];
    uint32_t s = slot_of(g, g->walls[k].handle);
    if (g->slots[s].kind == GEO_WALL) g->slots[s].index = (uint32_t)k;
  }
}

steer_status geometry_remove(geometry *g, uint64_t handle) {
  uint32_t s = slot_of(g, handle);
  if (s == GEO_NONE) return STEER_EINVAL;
  switch (g->slots[s].kind) {
  case GEO_OBSTACLE: remove_obstacle_at(g, g->slots[s].index); break;
  case GEO_WALL: remove_wall_at(g, g->slots[s].index); break;
  default: /* a polygon: its edges, from the back so none is skipped */
    for (size_t k = g->wall_count; k-- > 0;)
      if (g->walls[k].handle == handle) remove_wall_at(g, k);
    break;
  }
  free_slot(g, s);
  return STEER_OK;
}

steer_status geometry_set_obstacle(geometry *g, size_t k, double x, double y,
                                   double radius) {
  geo_obstacle o = g->obstacles[k];
  steer_vec2 c = geometry_inside(g, v2(x, y));
  o.x = c.x;
  o.y = c.y;
  o.radius = radius;
  if (index_obstacle(g, k, &o)) return STEER_ENOMEM; /* nothing moved */
  g->obstacles[k] = o;
  return STEER_OK;
}

steer_status geometry_set_wall(geometry *g, size_t k, steer_vec2 a,
                               steer_vec2 b) {
  geo_wall s = make_wall(g, a, b);
  s.handle = g->walls[k].handle;
  s.solid_left = g->walls[k].solid_left;
  if (index_wall(g, k, &s)) return STEER_ENOMEM; /* nothing moved */
  g->walls[k] = s;
  /* a polygon's edge moved (the C API's dense numbers reach them): its
     side as a restored snapshot would work it out */
  uint32_t slot = geo_handle_slot(s.handle);
  if (g->slots[slot].kind == GEO_POLYGON)
    g->slots[slot].side = geo_polygon_side_of(g, s.handle);
  return STEER_OK;
}

void geometry_set_wall_solid(geometry *g, size_t k, int solid_left) {
  g->walls[k].solid_left = solid_left != 0;
}

/* Removes every handle of the kinds (a mask of 1 << geo_kind). */
static void clear_kinds(geometry *g, unsigned kinds) {
  for (uint64_t h = geometry_next_handle(g, kinds, 0); h;
       h = geometry_next_handle(g, kinds, h))
    geometry_remove(g, h);
}

void geometry_clear_obstacles(geometry *g) {
  clear_kinds(g, 1u << GEO_OBSTACLE);
}

void geometry_clear_walls(geometry *g) {
  clear_kinds(g, 1u << GEO_WALL | 1u << GEO_POLYGON);
}

/* ---- restoring ------------------------------------------------------------ */

steer_status geometry_reserve(geometry *g, size_t slots, size_t obstacles,
                              size_t walls) {
  if (slots > GEO_SLOT_MAX ||
      grow(g, (void **)&g->slots, sizeof(geo_slot), &g->slot_cap, slots) ||
      grow(g, (void **)&g->obstacles, sizeof(geo_obstacle), &g->obstacle_cap,
           obstacles) ||
      grow(g, (void **)&g->walls, sizeof(geo_wall), &g->wall_cap, walls))
    return STEER_ENOMEM;
  return STEER_OK;
}

/* Does item handle h name a live slot of `kind` whose index is k (any
   index for polygons, which count their edges)? */
static int owned(const geometry *g, uint64_t h, geo_kind kind, size_t k) {
  uint32_t s = slot_of(g, h);
  if (s == GEO_NONE || g->slots[s].kind != (uint32_t)kind) return 0;
  return kind == GEO_POLYGON || g->slots[s].index == k;
}

steer_status geometry_adopt(geometry *g) {
  size_t n = g->slot_count, listed = 0;
  for (size_t s = 0; s < n; s++) {
    const geo_slot *sl = &g->slots[s];
    if (sl->kind > GEO_POLYGON || sl->gen >= GEO_GEN_MAX + (sl->kind == GEO_FREE))
      return STEER_EINVAL;
    if (sl->kind == GEO_OBSTACLE &&
        (sl->index >= g->obstacle_count ||
         g->obstacles[sl->index].handle != handle_of(g, (uint32_t)s)))
      return STEER_EINVAL;
    if (sl->kind == GEO_WALL &&
        (sl->index >= g->wall_count ||
         g->walls[sl->index].handle != handle_of(g, (uint32_t)s)))
      return STEER_EINVAL;
  }
  /* the free list: free slots only, no cycle (at most n steps) */
  for (uint32_t s = g->free_slot; s != GEO_NONE; s = g->slots[s].index) {
    if (s >= n || g->slots[s].kind != GEO_FREE ||
        g->slots[s].gen >= GEO_GEN_MAX || ++listed > n)
      return STEER_EINVAL;
  }
  for (size_t k = 0; k < g->obstacle_count; k++) {
    const geo_obstacle *o = &g->obstacles[k];
    steer_vec2 c = v2(o->x, o->y), in = geometry_inside(g, c);
    if (!owned(g, o->handle, GEO_OBSTACLE, k) || in.x != c.x || in.y != c.y)
      return STEER_EINVAL;
  }
  for (size_t k = 0; k < g->wall_count; k++) {
    uint64_t h = g->walls[k].handle;
    geo_wall made = make_wall(g, g->walls[k].a, g->walls[k].b);
    if ((!owned(g, h, GEO_WALL, k) && !owned(g, h, GEO_POLYGON, k)) ||
        made.a.x != g->walls[k].a.x || made.a.y != g->walls[k].a.y ||
        !(fabs(g->walls[k].b.x) <= STEER_LIMIT &&
          fabs(g->walls[k].b.y) <= STEER_LIMIT))
      return STEER_EINVAL;
    if (owned(g, h, GEO_POLYGON, k)) g->slots[slot_of(g, h)].index--;
  }
  /* every polygon's count of edges was used up exactly */
  for (size_t s = 0; s < n; s++)
    if (g->slots[s].kind == GEO_POLYGON && g->slots[s].index != 0)
      return STEER_EINVAL;
  for (size_t k = 0; k < g->wall_count; k++)
    if (owned(g, g->walls[k].handle, GEO_POLYGON, k))
      g->slots[slot_of(g, g->walls[k].handle)].index++;
  for (size_t k = 0; k < g->wall_count; k++)
    if (g->walls[k].solid_left > 1) return STEER_EINVAL;
  if (geo_sides_adopt(g)) return STEER_ENOMEM;
  for (size_t k = 0; k < g->obstacle_count; k++)
    if (index_obstacle(g, k, &g->obstacles[k])) return STEER_ENOMEM;
  for (size_t k = 0; k < g->wall_count; k++)
    if (index_wall(g, k, &g->walls[k])) return STEER_ENOMEM;
  return STEER_OK;
}

/* ---- halos ---------------------------------------------------------------- */

static void halo_wall(const void *owner, size_t k, geo_box *b, double v[4]) {
  const geo_wall *s = &((const geometry *)owner)->walls[k];
  *b = geo_wall_box(s);
  v[0] = s->a.x;
  v[1] = s->a.y;
  v[2] = s->b.x;
  v[3] = s->b.y;
}

static void halo_obstacle(const void *owner, size_t k, geo_box *b,
                          double v[4]) {
  const geo_obstacle *o = &((const geometry *)owner)->obstacles[k];
  *b = geo_obstacle_box(o);
  v[0] = o->x;
  v[1] = o->y;
  v[2] = o->radius;
  v[3] = 0;
}

/* Builds h over the reach the queries want; gives up on it (until a query
   asks again) when it cannot. */
static void build(geometry *g, geo_halo *h, size_t n, geo_halo_item_fn fn) {
  double reach = h->want > h->reach ? h->want : h->reach;
  geo_halo_shape kind = fn == halo_wall ? GEO_HALO_SEGMENT : GEO_HALO_DISC;
  if (!geo_halo_build(h, g->alloc, n, fn, kind, g, reach, g->halo_cell,
                      g->wrap, g->width, g->height))
    h->want = 0;
}

/* Builds h when the queries want it and the shapes are calm. */
static void prepare(geometry *g, geo_halo *h, size_t n, geo_halo_item_fn fn) {
  if (!geo_halo_settle(h) || !geo_halo_stale(h) || !n) return;
  build(g, h, n, fn);
}

/* An obstacle's box is its disc's only for a radius >= 0. */
static int radii_ok(const geometry *g) {
  for (size_t k = 0; k < g->obstacle_count; k++)
    if (!(g->obstacles[k].radius >= 0)) return 0;
  return 1;
}

void geometry_prepare(geometry *g) {
  prepare(g, &g->wall_halo, g->wall_count, halo_wall);
  if (g->obstacle_halo.calm && geo_halo_stale(&g->obstacle_halo) &&
      !radii_ok(g))
    return;
  prepare(g, &g->obstacle_halo, g->obstacle_count, halo_obstacle);
}

/* The first build, right after the step whose queries asked for it (no
   wait for calm shapes): tried once, so a level edited every step pays
   for one build at most. */
static void first_build(geometry *g, geo_halo *h, size_t n,
                        geo_halo_item_fn fn) {
  if (h->tried || !geo_halo_stale(h) || !n) return;
  h->tried = 1;
  build(g, h, n, fn);
}

void geometry_after_step(geometry *g) {
  first_build(g, &g->wall_halo, g->wall_count, halo_wall);
  if (!g->obstacle_halo.tried && geo_halo_stale(&g->obstacle_halo) &&
      !radii_ok(g))
    return;
  first_build(g, &g->obstacle_halo, g->obstacle_count, halo_obstacle);
}

/* ---- feeler avoidance --------------------------------------------------- */

/* v2_forward(v), its usual case first: a squared length in (1e-4, 1e300)
   takes none of the other branches of v2_forward, v2_normalize, v2_len and
   v2_direction, and this is what they compute then, operation for
   operation (the same bits). */
static inline steer_vec2 feeler_ahead(steer_vec2 v) {
  double l2 = v.x * v.x + v.y * v.y;
  if (l2 > 1e-4 && l2 < 1e300) {
    double l = sqrt(l2);
    return v2(v.x / l, v.y / l);
  }
  return v2_forward(v);
}

/* A feeler of `length` from p along heading `ahead` (feeler_ahead). */
GEO_HOT void feeler_from(geo_feeler *f, steer_vec2 p, steer_vec2 ahead,
                         double length, double radius, double extra) {
  f->p = p;
  f->ahead = ahead;
  f->feeler = v2_scale(f->ahead, length);
  f->tip = v2_add(p, f->feeler);
  f->length = length;
  f->radius = radius;
  f->extra = extra;
  f->best = INFINITY;
  f->index = SIZE_MAX;
  f->away = zero;
}

GEO_HOT void feeler_start(geo_feeler *f, steer_vec2 p, steer_vec2 v,
                          double length, double radius, double extra) {
  feeler_from(f, p, feeler_ahead(v), length, radius, extra);
}

/* The middle of the feeler from p (feeler: its tip less p), p + feeler *
   0.5: a halo run there holds what the feeler can touch (the same bits as
   the pair pass's lanes). */
static inline steer_vec2 middle_of(steer_vec2 p, steer_vec2 feeler) {
  return v2(p.x + feeler.x * 0.5, p.y + feeler.y * 0.5);
}

static inline steer_vec2 feeler_middle(const geo_feeler *f) {
  return middle_of(f->p, f->feeler);
}

/* Halo h's cell at the middle of the feeler of `length` from p along
   `ahead` (feeler_from makes its feeler so: the same bits). */
static inline long feeler_cell(const geo_halo *h, steer_vec2 p,
                               steer_vec2 ahead, double length) {
  steer_vec2 m = middle_of(p, v2_scale(ahead, length));
  return geo_halo_cell(h, m.x, m.y);
}

void geo_feeler_start(geo_feeler *f, steer_vec2 p, steer_vec2 v,
                      double length, double radius, double extra) {
  feeler_start(f, p, v, length, radius, extra);
}

/* Is (key, k) before the best so far (ties: the lower dense number)? */
static int better(const geo_feeler *f, double key, size_t k) {
  return key < f->best || (key == f->best && k < f->index);
}

/* The obstacle whose centre lies at offset (dx, dy) from the agent (the
   centre less p), against the feeler from p to its tip: the vector from
   the centre to the feeler's nearest point. A centre beside the feeler
   gets a push straight across it (the textbook's lateral push), one past
   the tip the push from the tip, one behind the agent the push from p. */
static inline steer_vec2 feeler_gap(const geo_feeler *f, double dx,
                                    double dy) {
  double t = dx * f->ahead.x + dy * f->ahead.y; /* along the feeler */
  int ahead = f->length >= 0; /* the tip is at t = length */
  if (ahead ? t <= 0 : t >= 0) return v2(-dx, -dy);
  if (ahead ? t >= f->length : t <= f->length)
    return v2(f->feeler.x - dx, f->feeler.y - dy);
  double across = f->ahead.x * dy - f->ahead.y * dx; /* > 0: on the left */
  return v2(across * f->ahead.y, -across * f->ahead.x);
}

/* Does the feeler touch an obstacle of radius r at offset (dx, dy) from
   the agent (feeler_gap)? Its nearest point is closer than r + the
   agent's radius + extra. */
static inline int obstacle_touch(const geo_feeler *f, double dx, double dy,
                                 double r) {
  /* the nearest point at t along the feeler, t clamped to its ends (no
     branch: most candidates miss) */
  double t = dx * f->ahead.x + dy * f->ahead.y;
  double lo = f->length < 0 ? f->length : 0, hi = f->length < 0 ? 0 : f->length;
  t = t < lo ? lo : t;
  t = t > hi ? hi : t;
  double gx = f->ahead.x * t - dx, gy = f->ahead.y * t - dy;
  double reach = r + f->radius + f->extra;
  return gx * gx + gy * gy < reach * reach;
}

/* The push of the best obstacle, at offset (dx, dy) from the agent. */
GEO_HOT void obstacle_away(geo_feeler *f, steer_vec2 offset) {
  steer_vec2 gap = feeler_gap(f, offset.x, offset.y);
  f->away = v2_normalize(gap);
  /* a centre on the feeler's line (the agent heads straight at it): the
     gap would brake the agent to a standstill in front of the obstacle
     for good (or be zero), and any offset at all grows until it slips
     by; turn left */
  if (v2_cross(f->ahead, gap) == 0)
    f->away = v2(-f->ahead.y, f->ahead.x);
}

/* Is touched obstacle k, at squared distance d2 from the agent, better
   than the best so far? Then it becomes the best. */
static inline int obstacle_better(geo_feeler *f, size_t k, double d2) {
  /* of the obstacles the feeler touches, the one nearest the agent */
  if (!better(f, d2, k)) return 0;
  f->best = d2;
  f->index = k;
  return 1;
}

void geo_feeler_obstacle(const geometry *g, geo_feeler *f, size_t k) {
  const geo_obstacle *o = &g->obstacles[k];
  steer_vec2 d = geo_offset(g, f->p, v2(o->x, o->y)); /* centre - p */
  if (obstacle_touch(f, d.x, d.y, o->radius) &&
      obstacle_better(f, k, v2_len2(d)))
    obstacle_away(f, d);
}


/* The feeler against the wall from a to b: the numbers its test divides. */
typedef struct wall_cut {
  double denom;  /* 0: parallel, no crossing */
  double num_t;  /* over denom: the crossing along the feeler, 0..1 */
  double num_on; /* over denom: the crossing along the wall, 0..1 */
} wall_cut;

static inline wall_cut wall_cut_of(const geometry *g, const geo_feeler *f,
                                   steer_vec2 a, steer_vec2 b) {
  steer_vec2 along = v2_sub(b, a);
  steer_vec2 to_a = geo_offset(g, f->p, a);
  wall_cut c = {v2_cross(f->feeler, along), v2_cross(to_a, along),
                v2_cross(to_a, f->feeler)};
  return c;
}

/* Does the feeler cross the wall? *at gets the crossing along the feeler
   (0..1). */
static inline int wall_cross_at(wall_cut c, double *at) {
  double d = c.denom != 0 ? c.denom : 1;
  double t = c.num_t / d, on = c.num_on / d;
  *at = t;
  return (c.denom != 0) & (t >= 0) & (t <= 1) & (on >= 0) & (on <= 1);
}

static inline int wall_cross(const geometry *g, const geo_feeler *f,
                             steer_vec2 a, steer_vec2 b, double *at) {
  return wall_cross_at(wall_cut_of(g, f, a, b), at);
}

/* A necessary condition for wall_cross_at, without its two divisions
   (most candidates miss): both quotients within [0, 1] means both
   numerators within denom / 2 of denom / 2, and the margin here, 2^-50
   relative plus 1e-300, is wider than any rounding of the quotients, of
   the halving and of the subtraction. */
static inline int wall_may_cross(wall_cut c) {
  double half = 0.5 * c.denom;
  double room = fabs(half) * (1 + 0x1p-50) + 1e-300;
  return (fabs(c.num_t - half) <= room) & (fabs(c.num_on - half) <= room);
}

/* The push of the best wall, from a to b, crossed at `at`. */
GEO_HOT void wall_away(geo_feeler *f, steer_vec2 a, steer_vec2 b, double at) {
  steer_vec2 along = v2_sub(b, a);
  /* not normalize(): a wall shorter than 1e-5 still has a normal */
  double wall_len = v2_len(along);
  steer_vec2 normal = v2(-along.y / wall_len, along.x / wall_len);
  /* turned to the side the feeler comes from: a sign flip in bits, not a
     branch (which side a hit wall faces is a coin toss) */
  uint64_t flip = (uint64_t)(v2_dot(normal, f->feeler) > 0) << 63, bx, by;
  memcpy(&bx, &normal.x, sizeof bx);
  memcpy(&by, &normal.y, sizeof by);
  bx ^= flip;
  by ^= flip;
  memcpy(&normal.x, &bx, sizeof bx);
  memcpy(&normal.y, &by, sizeof by);
  f->away = v2_scale(normal, (1 - at) * f->length);
}

/* The feeler's push, read part by part: feeler_from and wall_away store
   its parts one by one, and a copy of the whole (one 16-byte load) would
   wait until both stores retire. */
static inline steer_vec2 feeler_push(const geo_feeler *f) {
  return v2(f->away.x, f->away.y);
}

/* Wall k from a to b, crossed at `at`, against the best so far. */
static void wall_take(geo_feeler *f, size_t k, steer_vec2 a, steer_vec2 b,
                      double at) {
  if (!better(f, at, k)) return;
  f->best = at;
  f->index = k;
  wall_away(f, a, b, at);
}

void geo_feeler_wall(const geometry *g, geo_feeler *f, size_t k) {
  const geo_wall *s = &g->walls[k];
  double at;
  if (wall_cross(g, f, s->a, s->b, &at)) wall_take(f, k, s->a, s->b, at);
}

geo_box geo_box_around(steer_vec2 a, steer_vec2 b, double pad) {
  /* not fmin / fmax (calls, and no NaN comes here) */
  geo_box q = {(a.x < b.x ? a.x : b.x) - pad, (a.y < b.y ? a.y : b.y) - pad,
               (a.x > b.x ? a.x : b.x) + pad, (a.y > b.y ? a.y : b.y) + pad};
  return q;
}

/* The cells of query box q in index x: *r gets them; 0 when the walk is
   those cells (then the large items), 1 when it is every item instead
   (a box wider than the level holds), 2 when the index is empty. */
typedef struct cell_range {
  int32_t x0, y0, nx, ny;
} cell_range;

GEO_HOT int cells_of(const geo_index *x, geo_box q, size_t count,
                     cell_range *r) {
  if (!x->entries) return 2;
  geo_index_axis(x, 0, q.x0, q.x1, &r->x0, &r->nx);
  geo_index_axis(x, 1, q.y0, q.y1, &r->y0, &r->ny);
  /* in integers: both sides are below 2^62 */
  return (int64_t)r->nx * r->ny > (int64_t)count + 8;
}

/* The skip mask of cell (i, j) of a walk: an entry whose item also covers
   the cell left of (below) it came in that cell already (geo_index.h). */
GEO_HOT uint32_t skip_at(int32_t i, int32_t j) {
  return (i > 0 ? GEO_LEFT : 0) | (j > 0 ? GEO_BELOW : 0);
}

/* Cell n of an axis of a walk that starts at `first`: taken into the torus
   (period: the axis' cells; INT32_MAX off a torus, never reached). */
GEO_HOT int32_t walk_cell(int32_t first, int32_t n, int32_t period) {
  int32_t c = first + n;
  return c >= period ? c - period : c;
}

/* Half the torus along x and y (infinite off a torus): an offset longer
   than that needs wrapping. The feeler loops take it once, not per
   candidate. */
static inline steer_vec2 wrap_limits(const geometry *g) {
  if (!g->wrap) return v2(INFINITY, INFINITY);
  return v2(g->width * 0.5, g->height * 0.5);
}

/* The shortest offset d = b - a, its parts passed in: geo_offset's
   numbers, one branch for both parts in the common case (lim:
   wrap_limits). */
static inline void offset_parts(const geometry *g, steer_vec2 lim, double *dx,
                                double *dy) {
  if ((fabs(*dx) > lim.x) | (fabs(*dy) > lim.y)) {
    *dx = geo_wrap_delta(*dx, g->width);
    *dy = geo_wrap_delta(*dy, g->height);
  }
}

GEO_HOT void feel_obstacles(const geometry *g, geo_feeler *f,
                            const geo_item *it, size_t n, uint32_t skip) {
  double px = f->p.x, py = f->p.y;
  steer_vec2 lim = wrap_limits(g);
  for (size_t e = 0; e < n; e++) {
    double dx = it[e].v[0] - px, dy = it[e].v[1] - py; /* centre - p */
    offset_parts(g, lim, &dx, &dy);
    if (obstacle_touch(f, dx, dy, it[e].v[2]) & !(it[e].seen & skip) &&
        obstacle_better(f, (size_t)it[e].item, dx * dx + dy * dy))
      f->hit_a = v2(dx, dy); /* the push: obstacle_away, at the end */
  }
}

/* The number of m's lowest set bit (m != 0). */
static inline unsigned lowest_bit(unsigned m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctz(m);
#else
  unsigned e = 0;
  while (!(m >> e & 1)) e++;
  return e;
#endif
}

/* feel_obstacles over a halo's run: entries name shapes (geo_halo.h). */
GEO_HOT void feel_obstacles_refs(const geometry *g, geo_feeler *f,
                                 const uint32_t *ref, size_t n,
                                 const double (*shape)[4], const int32_t *item) {
  double px = f->p.x, py = f->p.y;
  steer_vec2 lim = wrap_limits(g);
  /* eight candidates' tests first, no branch on each (which touch is not
     predictable), then the few that touch */
  for (size_t e0 = 0; e0 < n; e0 += 8) {
    size_t m = n - e0 < 8 ? n - e0 : 8;
    double ddx[8], ddy[8];
    unsigned touch = 0;
    for (size_t e = 0; e < m; e++) {
      const double *v = shape[ref[e0 + e]];
      double dx = v[0] - px, dy = v[1] - py; /* centre - p */
      offset_parts(g, lim, &dx, &dy);
      ddx[e] = dx;
      ddy[e] = dy;
      touch |= (unsigned)obstacle_touch(f, dx, dy, v[2]) << e;
    }
    while (touch) {
      unsigned e = lowest_bit(touch);
      touch &= touch - 1;
      double dx = ddx[e], dy = ddy[e];
      if (obstacle_better(f, (size_t)item[ref[e0 + e]], dx * dx + dy * dy))
        f->hit_a = v2(dx, dy); /* the push: obstacle_away, at the end */
    }
  }
}

/* The obstacles of r's cells, all inlined: the feeler stays in registers
   and the index's numbers are loaded once per query. */
GEO_HOT void obstacles_in_cells(const geometry *g, geo_feeler *f,
                                const cell_range *r) {
  const geo_index *x = &g->obstacle_index;
  int32_t px = x->wrap ? x->ncx : INT32_MAX, py = x->wrap ? x->ncy : INT32_MAX;
  if (x->cell_live)
    for (int32_t j = 0; j < r->ny; j++) {
      int32_t cy = walk_cell(r->y0, j, py);
      for (int32_t i = 0; i < r->nx; i++) {
        const geo_cell *c = geo_index_find(x, walk_cell(r->x0, i, px), cy);
        if (c)
          feel_obstacles(g, f, geo_cell_items(x, c), c->count, skip_at(i, j));
      }
    }
  if (x->large_count) /* most levels have none */
    feel_obstacles(g, f, x->large, x->large_count, 0);
}

/* Index entry x, a wall the feeler crosses at `at`: the best so far when
   it is better (its push: wall_away, once the walk is over). */
static inline void keep_wall(geo_feeler *f, const geo_item *x, double at) {
  if (!better(f, at, (size_t)x->item)) return;
  f->best = at;
  f->index = (size_t)x->item;
  f->hit_a = v2(x->v[0], x->v[1]);
  f->hit_b = v2(x->v[2], x->v[3]);
}

static void feel_walls(const geometry *g, geo_feeler *f, const geo_item *it,
                       size_t n, uint32_t skip) {
  /* wall_cut_of's arithmetic on plain numbers (nothing through memory) */
  double px = f->p.x, py = f->p.y, fx = f->feeler.x, fy = f->feeler.y;
  steer_vec2 lim = wrap_limits(g);
  for (size_t e = 0; e < n; e++) {
    double ax = it[e].v[0], ay = it[e].v[1], bx = it[e].v[2], by = it[e].v[3];
    double lx = bx - ax, ly = by - ay, tx = ax - px, ty = ay - py;
    offset_parts(g, lim, &tx, &ty);
    wall_cut c = {fx * ly - fy * lx, tx * ly - ty * lx, tx * fy - ty * fx};
    double at;
    if (wall_may_cross(c) & !(it[e].seen & skip) && wall_cross_at(c, &at))
      keep_wall(f, &it[e], at);
  }
}

/* Wall k (its four numbers v), crossed at `at`: keep_wall for a halo. */
static inline void keep_wall_at(geo_feeler *f, size_t k, const double *v,
                                double at) {
  if (!better(f, at, k)) return;
  f->best = at;
  f->index = k;
  f->hit_a = v2(v[0], v[1]);
  f->hit_b = v2(v[2], v[3]);
}

/* feel_walls over a halo's run: entries name shapes (geo_halo.h). */
static void feel_walls_refs(const geometry *g, geo_feeler *f,
                            const uint32_t *ref, size_t n,
                            const double (*shape)[4], const int32_t *item) {
  double px = f->p.x, py = f->p.y, fx = f->feeler.x, fy = f->feeler.y;
  steer_vec2 lim = wrap_limits(g);
  for (size_t e = 0; e < n; e++) {
    const double *v = shape[ref[e]];
    double ax = v[0], ay = v[1], bx = v[2], by = v[3];
    double lx = bx - ax, ly = by - ay, tx = ax - px, ty = ay - py;
    offset_parts(g, lim, &tx, &ty);
    wall_cut c = {fx * ly - fy * lx, tx * ly - ty * lx, tx * fy - ty * fx};
    double at;
    if (wall_may_cross(c) && wall_cross_at(c, &at))
      keep_wall_at(f, (size_t)item[ref[e]], v, at);
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* feel_walls four entries at a time with AVX (used only where the CPU has
   it: geometry_init asks): a run is loaded four entries at a time (the
   pool's padding makes the loads past its end safe), the lanes past it
   masked; each lane does the scalar loop's operations on the same
   numbers, so its results are the same bits, and the few lanes that pass
   go through the scalar loop's exact tests. A chunk that needs a wrap
   goes through the scalar loop whole. Chunks of four also keep the loop's
   trip count predictable. (The same for obstacles measured no faster:
   their test is a few operations.) */
#include "geo_quad.h"

/* The lanes of the run's entries from e (of n) on. */
static AVX int quad_live(size_t e, size_t n) {
  return n - e >= 4 ? 15 : (1 << (n - e)) - 1;
}

/* The lanes whose offset (dx, dy) offset_parts would change (hw, hh:
   wrap_limits in every lane). */
static AVX int quad_wraps(__m256d hw, __m256d hh, __m256d dx, __m256d dy) {
  __m256d sign = _mm256_set1_pd(-0.0);
  return _mm256_movemask_pd(_mm256_or_pd(
      _mm256_cmp_pd(_mm256_andnot_pd(sign, dx), hw, _CMP_GT_OQ),
      _mm256_cmp_pd(_mm256_andnot_pd(sign, dy), hh, _CMP_GT_OQ)));
}

/* wall_cut and wall_may_cross for four walls (feeler fx, fy; offsets to
   their starts tx, ty; their directions lx, ly), as feel_walls computes
   them: the lanes that may cross, the cuts' numbers into d, t, o. */
static AVX int quad_cut(__m256d fx, __m256d fy, __m256d tx, __m256d ty,
                        __m256d lx, __m256d ly, double d[4], double t[4],
                        double o[4]) {
  __m256d sign = _mm256_set1_pd(-0.0), margin = _mm256_set1_pd(1 + 0x1p-50);
  __m256d denom = _mm256_sub_pd(_mm256_mul_pd(fx, ly), _mm256_mul_pd(fy, lx));
  __m256d num_t = _mm256_sub_pd(_mm256_mul_pd(tx, ly), _mm256_mul_pd(ty, lx));
  __m256d num_on = _mm256_sub_pd(_mm256_mul_pd(tx, fy), _mm256_mul_pd(ty, fx));
  __m256d half = _mm256_mul_pd(_mm256_set1_pd(0.5), denom);
  __m256d room =
      _mm256_add_pd(_mm256_mul_pd(_mm256_andnot_pd(sign, half), margin),
                    _mm256_set1_pd(1e-300));
  __m256d off_t = _mm256_andnot_pd(sign, _mm256_sub_pd(num_t, half));
  __m256d off_on = _mm256_andnot_pd(sign, _mm256_sub_pd(num_on, half));
  __m256d ok = _mm256_and_pd(_mm256_cmp_pd(off_t, room, _CMP_LE_OQ),
                             _mm256_cmp_pd(off_on, room, _CMP_LE_OQ));
  _mm256_storeu_pd(d, denom);
  _mm256_storeu_pd(t, num_t);
  _mm256_storeu_pd(o, num_on);
  return _mm256_movemask_pd(ok);
}

static AVX void feel_walls_quad(const geometry *g, geo_feeler *f,
                                const geo_item *it, size_t n, uint32_t skip) {
  __m256d px = _mm256_set1_pd(f->p.x), py = _mm256_set1_pd(f->p.y);
  __m256d fx = _mm256_set1_pd(f->feeler.x), fy = _mm256_set1_pd(f->feeler.y);
  steer_vec2 lim = wrap_limits(g);
  __m256d hw = _mm256_set1_pd(lim.x), hh = _mm256_set1_pd(lim.y);
  for (size_t e = 0; e < n; e += 4) {
    int live = quad_live(e, n);
    __m256d v[4];
    geo_quad_load(it + e, v);
    __m256d lx = _mm256_sub_pd(v[2], v[0]), ly = _mm256_sub_pd(v[3], v[1]);
    __m256d tx = _mm256_sub_pd(v[0], px), ty = _mm256_sub_pd(v[1], py);
    if (quad_wraps(hw, hh, tx, ty) & live) {
      feel_walls(g, f, it + e, n - e < 4 ? n - e : 4, skip);
      continue;
    }
    double d[4], t[4], o[4];
    int pass = quad_cut(fx, fy, tx, ty, lx, ly, d, t, o) & live;
    if (!pass) continue;
    for (int l = 0; l < 4; l++) {
      const geo_item *x = &it[e + (size_t)l];
      wall_cut c = {d[l], t[l], o[l]};
      double at;
      if ((pass >> l & 1) && !(x->seen & skip) && wall_cross_at(c, &at))
        keep_wall(f, x, at);
    }
  }
}

/* feel_walls_quad over a halo's run: the four shapes gathered by their
   refs, then the same lanes. */
static AVX void feel_walls_refs_quad(const geometry *g, geo_feeler *f,
                                     const uint32_t *ref, size_t n,
                                     const double (*shape)[4], const int32_t *item) {
  __m256d px = _mm256_set1_pd(f->p.x), py = _mm256_set1_pd(f->p.y);
  __m256d fx = _mm256_set1_pd(f->feeler.x), fy = _mm256_set1_pd(f->feeler.y);
  steer_vec2 lim = wrap_limits(g);
  __m256d hw = _mm256_set1_pd(lim.x), hh = _mm256_set1_pd(lim.y);
  for (size_t e = 0; e < n; e += 4) {
    int live = quad_live(e, n);
    __m256d r0 = _mm256_loadu_pd(shape[ref[e]]);
    __m256d r1 = _mm256_loadu_pd(shape[ref[e + 1]]);
    __m256d r2 = _mm256_loadu_pd(shape[ref[e + 2]]);
    __m256d r3 = _mm256_loadu_pd(shape[ref[e + 3]]);
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    __m256d ax = _mm256_permute2f128_pd(t0, t2, 0x20);
    __m256d ay = _mm256_permute2f128_pd(t1, t3, 0x20);
    __m256d bx = _mm256_permute2f128_pd(t0, t2, 0x31);
    __m256d by = _mm256_permute2f128_pd(t1, t3, 0x31);
    __m256d lx = _mm256_sub_pd(bx, ax), ly = _mm256_sub_pd(by, ay);
    __m256d tx = _mm256_sub_pd(ax, px), ty = _mm256_sub_pd(ay, py);
    if (quad_wraps(hw, hh, tx, ty) & live) {
      feel_walls_refs(g, f, ref + e, n - e < 4 ? n - e : 4, shape, item);
      continue;
    }
    double d[4], t[4], o[4];
    int pass = quad_cut(fx, fy, tx, ty, lx, ly, d, t, o) & live;
    if (!pass) continue;
    for (int l = 0; l < 4; l++) {
      wall_cut c = {d[l], t[l], o[l]};
      double at;
      if ((pass >> l & 1) && wall_cross_at(c, &at))
        keep_wall_at(f, (size_t)item[ref[e + (size_t)l]],
                     shape[ref[e + (size_t)l]], at);
    }
  }
}

/* feeler_ahead for v[0 .. n - 1], four at a time: the usual case's
   operations in each lane (IEEE square roots and divisions: the same
   bits), the other lanes through feeler_ahead. */
static AVX void headings_quad(const steer_vec2 *v, int n, steer_vec2 *ahead) {
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    __m256d a = _mm256_loadu_pd(&v[k].x), b = _mm256_loadu_pd(&v[k + 2].x);
    /* a: x0 y0 x1 y1, b: x2 y2 x3 y3 -> x0 x2 x1 x3 and y0 y2 y1 y3 */
    __m256d x = _mm256_unpacklo_pd(a, b), y = _mm256_unpackhi_pd(a, b);
    __m256d l2 = _mm256_add_pd(_mm256_mul_pd(x, x), _mm256_mul_pd(y, y));
    int usual = _mm256_movemask_pd(_mm256_and_pd(
        _mm256_cmp_pd(l2, _mm256_set1_pd(1e-4), _CMP_GT_OQ),
        _mm256_cmp_pd(l2, _mm256_set1_pd(1e300), _CMP_LT_OQ)));
    __m256d l = _mm256_sqrt_pd(l2);
    __m256d ax = _mm256_div_pd(x, l), ay = _mm256_div_pd(y, l);
    /* back to pairs: x0 y0 x1 y1 (lanes 0, 2) and x2 y2 x3 y3 */
    _mm256_storeu_pd(&ahead[k].x, _mm256_unpacklo_pd(ax, ay));
    _mm256_storeu_pd(&ahead[k + 2].x, _mm256_unpackhi_pd(ax, ay));
    if (usual != 15) /* lane l holds agent k + (0, 2, 1, 3)[l] */
      for (int l = 0; l < 4; l++)
        if (!(usual >> l & 1)) {
          int j = k + (l == 1 ? 2 : l == 2 ? 1 : l);
          ahead[j] = feeler_ahead(v[j]);
        }
  }
  for (; k < n; k++) ahead[k] = feeler_ahead(v[k]);
}

/* A halo's numbers as geo_halo_cell takes them, in lanes. */
typedef struct halo_lanes {
  const geo_halo *h;
  __m256d inv_x, inv_y, add_x, add_y, hi_x, hi_y; /* hi: the grid's end */
  __m256d from; /* the grid's start, an inclusive bound: see halo_lanes_of */
  __m128i ncx, ncy, one_x, one_y, two_x, two_y;   /* ncx - 1, 2 ncx - 1 */
} halo_lanes;

static AVX void halo_lanes_of(const geo_halo *h, halo_lanes *l) {
  l->h = h;
  l->inv_x = _mm256_set1_pd(h->inv_x);
  l->inv_y = _mm256_set1_pd(h->inv_y);
  /* on a torus fx = x * inv_x + ncx, in (0, 3 ncx); off it
     fx = (x - ox) * inv_x, in [0, ncx) */
  l->add_x = _mm256_set1_pd(h->wrap ? h->ncx : h->ox);
  l->add_y = _mm256_set1_pd(h->wrap ? h->ncy : h->oy);
  l->hi_x = _mm256_set1_pd(h->wrap ? 3.0 * h->ncx : h->ncx);
  l->hi_y = _mm256_set1_pd(h->wrap ? 3.0 * h->ncy : h->ncy);
  /* on a torus the start is open (fx > 0), off it closed (fx >= 0): for
     one compare, the open bound is the smallest double above 0 */
  l->from = _mm256_set1_pd(h->wrap ? 0x1p-1074 : 0.0);
  l->ncx = _mm_set1_epi32(h->ncx);
  l->ncy = _mm_set1_epi32(h->ncy);
  l->one_x = _mm_set1_epi32(h->ncx - 1);
  l->one_y = _mm_set1_epi32(h->ncy - 1);
  l->two_x = _mm_set1_epi32(2 * h->ncx - 1);
  l->two_y = _mm_set1_epi32(2 * h->ncy - 1);
}

/* geo_halo_cell for the four points (x, y) of the lanes (lane l the
   point of agent (0, 2, 1, 3)[l], as in headings_quad) into cell[agent]:
   each lane its arithmetic (the same cell), the lanes it cannot say for
   (outside the grid, not finite) through geo_halo_cell itself. */
static inline AVX __attribute__((always_inline)) void
halo_cells_quad(const halo_lanes *l, __m256d x, __m256d y, long cell[4]) {
  const geo_halo *h = l->h;
  __m256d fx, fy;
  if (h->wrap) {
    fx = _mm256_add_pd(_mm256_mul_pd(x, l->inv_x), l->add_x);
    fy = _mm256_add_pd(_mm256_mul_pd(y, l->inv_y), l->add_y);
  } else {
    fx = _mm256_mul_pd(_mm256_sub_pd(x, l->add_x), l->inv_x);
    fy = _mm256_mul_pd(_mm256_sub_pd(y, l->add_y), l->inv_y);
  }
  __m256d ok = _mm256_and_pd(
      _mm256_and_pd(_mm256_cmp_pd(fx, l->from, _CMP_GE_OQ),
                    _mm256_cmp_pd(fx, l->hi_x, _CMP_LT_OQ)),
      _mm256_and_pd(_mm256_cmp_pd(fy, l->from, _CMP_GE_OQ),
                    _mm256_cmp_pd(fy, l->hi_y, _CMP_LT_OQ)));
  int good = _mm256_movemask_pd(ok);
  /* the ok lanes truncate within int32 (fx, fy below 3 x the cells) */
  __m128i i = _mm256_cvttpd_epi32(fx), j = _mm256_cvttpd_epi32(fy);
  if (h->wrap) { /* i -= (i >= ncx ? ncx : 0) + (i >= 2 ncx ? ncx : 0) */
    __m128i ix =
        _mm_add_epi32(_mm_and_si128(_mm_cmpgt_epi32(i, l->one_x), l->ncx),
                      _mm_and_si128(_mm_cmpgt_epi32(i, l->two_x), l->ncx));
    __m128i jy =
        _mm_add_epi32(_mm_and_si128(_mm_cmpgt_epi32(j, l->one_y), l->ncy),
                      _mm_and_si128(_mm_cmpgt_epi32(j, l->two_y), l->ncy));
    i = _mm_sub_epi32(i, ix);
    j = _mm_sub_epi32(j, jy);
  }
  if (good == 15 && h->small) { /* j * ncx + i in 32 bits, agents' order */
    int32_t c[4]; /* (a long is 32 or 64 bits: copied one by one) */
    _mm_storeu_si128((__m128i *)c,
                     _mm_shuffle_epi32(
                         _mm_add_epi32(_mm_mullo_epi32(j, l->ncx), i),
                         _MM_SHUFFLE(3, 1, 2, 0)));
    for (int k = 0; k < 4; k++) cell[k] = c[k];
    return;
  }
  int32_t ci[4], cj[4];
  double sx[4], sy[4];
  _mm_storeu_si128((__m128i *)ci, i);
  _mm_storeu_si128((__m128i *)cj, j);
  _mm256_storeu_pd(sx, x);
  _mm256_storeu_pd(sy, y);
  for (int k = 0; k < 4; k++) {
    int a = k == 1 ? 2 : k == 2 ? 1 : k;
    cell[a] = (good >> k & 1)
                  ? (long)((size_t)cj[k] * (size_t)h->ncx + (size_t)ci[k])
                  : geo_halo_cell(h, sx[k], sy[k]);
  }
}

/* The pair pass's headings (headings_quad) and both halos' cells: of each
   wall feeler's middle (cw) and each obstacle feeler's middle (co), four
   agents at a time, each lane the scalar pass's operations. */
static AVX void pair_cells_quad(const geo_halo *hw, const geo_halo *ho,
                                const steer_vec2 *p, const steer_vec2 *v,
                                const double *wall_length, double length,
                                int n, steer_vec2 *ahead, long *cw,
                                long *co) {
  halo_lanes lw, lo;
  halo_lanes_of(hw, &lw);
  halo_lanes_of(ho, &lo);
  headings_quad(v, n, ahead);
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    /* x0 x2 x1 x3 and y0 y2 y1 y3, as headings_quad's lanes */
    __m256d a = _mm256_loadu_pd(&ahead[k].x), b = _mm256_loadu_pd(&ahead[k + 2].x);
    __m256d ax = _mm256_unpacklo_pd(a, b), ay = _mm256_unpackhi_pd(a, b);
    a = _mm256_loadu_pd(&p[k].x);
    b = _mm256_loadu_pd(&p[k + 2].x);
    __m256d px = _mm256_unpacklo_pd(a, b), py = _mm256_unpackhi_pd(a, b);
    __m256d len = _mm256_set_pd(wall_length[k + 3], wall_length[k + 1],
                                wall_length[k + 2], wall_length[k]);
    /* wall = ahead * length, its middle p + wall * 0.5 */
    __m256d half = _mm256_set1_pd(0.5);
    __m256d mx = _mm256_add_pd(px, _mm256_mul_pd(_mm256_mul_pd(ax, len), half));
    __m256d my = _mm256_add_pd(py, _mm256_mul_pd(_mm256_mul_pd(ay, len), half));
    /* the obstacle feeler's middle, p + ahead * length * 0.5 */
    __m256d l = _mm256_set1_pd(length);
    __m256d ox = _mm256_add_pd(px, _mm256_mul_pd(_mm256_mul_pd(ax, l), half));
    __m256d oy = _mm256_add_pd(py, _mm256_mul_pd(_mm256_mul_pd(ay, l), half));
    halo_cells_quad(&lw, mx, my, cw + k);
    halo_cells_quad(&lo, ox, oy, co + k);
  }
  for (; k < n; k++) {
    cw[k] = feeler_cell(hw, p[k], ahead[k], wall_length[k]);
    co[k] = feeler_cell(ho, p[k], ahead[k], length);
  }
}

static int quad_available(void) { return __builtin_cpu_supports("avx") != 0; }
#else
static void pair_cells_quad(const geo_halo *hw, const geo_halo *ho,
                            const steer_vec2 *p, const steer_vec2 *v,
                            const double *wall_length, double length,
                            int n, steer_vec2 *ahead, long *cw, long *co) {
  (void)hw, (void)ho, (void)p, (void)v, (void)wall_length, (void)length;
  (void)n, (void)ahead, (void)cw, (void)co;
}
static void headings_quad(const steer_vec2 *v, int n, steer_vec2 *ahead) {
  for (int k = 0; k < n; k++) ahead[k] = feeler_ahead(v[k]);
}
static void feel_walls_quad(const geometry *g, geo_feeler *f,
                            const geo_item *it, size_t n, uint32_t skip) {
  feel_walls(g, f, it, n, skip);
}
static int quad_available(void) { return 0; }
static void feel_walls_refs_quad(const geometry *g, geo_feeler *f,
                                 const uint32_t *ref, size_t n,
                                 const double (*shape)[4], const int32_t *item) {
  feel_walls_refs(g, f, ref, n, shape, item);
}

#endif

steer_vec2 geometry_avoid_obstacles(const geometry *g, steer_vec2 p,
                                    steer_vec2 v, double radius, double extra,
                                    double max_force, double length) {
  if (!g->obstacle_count) return zero;
  geo_feeler f;
  feeler_start(&f, p, v, length, radius, extra);
  const geo_index *x = &g->obstacle_index;
  cell_range r;
  switch (cells_of(x, geo_box_around(p, f.tip, radius + extra),
                   g->obstacle_count, &r)) {
  case 0:
    obstacles_in_cells(g, &f, &r);
    if (f.index != SIZE_MAX) obstacle_away(&f, f.hit_a);
    break;
  case 1:
    for (size_t k = 0; k < g->obstacle_count; k++)
      geo_feeler_obstacle(g, &f, k);
    break;
  }
  return v2_scale(f.away, max_force);
}

steer_vec2 geometry_avoid_walls(const geometry *g, steer_vec2 p, steer_vec2 v,
                                double length) {
  if (!g->wall_count) return zero;
  /* the feeler's start a call, the lanes a call per cell: inlined, as
     the obstacles' walk is, this measured slower */
  geo_feeler f;
  geo_feeler_start(&f, p, v, length, 0, 0);
  const geo_index *x = &g->wall_index;
  cell_range r;
  switch (cells_of(x, geo_box_around(p, f.tip, 0), g->wall_count, &r)) {
  case 0:
    for (int32_t j = 0; j < r.ny; j++)
      for (int32_t i = 0; i < r.nx; i++) {
        const geo_cell *c = geo_index_cell(x, r.x0 + i, r.y0 + j);
        if (!c) continue;
        if (g->quad)
          feel_walls_quad(g, &f, geo_cell_items(x, c), c->count,
                          skip_at(i, j));
        else
          feel_walls(g, &f, geo_cell_items(x, c), c->count, skip_at(i, j));
      }
    if (x->large_count) feel_walls(g, &f, x->large, x->large_count, 0);
    if (f.index != SIZE_MAX) wall_away(&f, f.hit_a, f.hit_b, f.best);
    break;
  case 1:
    for (size_t k = 0; k < g->wall_count; k++) geo_feeler_wall(g, &f, k);
    break;
  }
  return f.away;
}

/* The whiskers' headings: 45 degrees left and right of the feeler's. */
static void whisker_heads(steer_vec2 v, steer_vec2 *left, steer_vec2 *right) {
  const double c = 0.70710678118654752440;
  steer_vec2 a = feeler_ahead(v);
  *left = v2(c * a.x - c * a.y, c * a.x + c * a.y);
  *right = v2(c * a.x + c * a.y, c * a.y - c * a.x);
}

/* The longest of the three pushes (ties: ahead, left, right). Each is a
   unit normal times its feeler's overshoot: the deepest feeler's. */
static steer_vec2 longest_push(steer_vec2 ahead, steer_vec2 left,
                               steer_vec2 right) {
  steer_vec2 best = ahead;
  if (v2_len2(left) > v2_len2(best)) best = left;
  if (v2_len2(right) > v2_len2(best)) best = right;
  return best;
}

steer_vec2 geometry_avoid_walls_whiskers(const geometry *g, steer_vec2 p,
                                         steer_vec2 v, double length) {
  if (!g->wall_count) return zero;
  steer_vec2 left, right;
  whisker_heads(v, &left, &right);
  return longest_push(geometry_avoid_walls(g, p, v, length),
                      geometry_avoid_walls(g, p, left, length * 0.5),
                      geometry_avoid_walls(g, p, right, length * 0.5));
}

void geometry_avoid_walls_whiskers_many(const geometry *g, int n,
                                        const steer_vec2 *p,
                                        const steer_vec2 *v,
                                        const double *length,
                                        steer_vec2 *out) {
  enum { CHUNK = 64 };
  steer_vec2 left[CHUNK], right[CHUNK], pl[CHUNK], pr[CHUNK];
  double half[CHUNK];
  for (int k0 = 0; k0 < n; k0 += CHUNK) {
    int m = n - k0 < CHUNK ? n - k0 : CHUNK;
    for (int k = 0; k < m; k++) {
      whisker_heads(v[k0 + k], &left[k], &right[k]);
      half[k] = length[k0 + k] * 0.5;
    }
    /* the same feelers as one agent's, batched: the same bits */
    geometry_avoid_walls_many(g, m, p + k0, v + k0, length + k0, out + k0);
    geometry_avoid_walls_many(g, m, p + k0, left, half, pl);
    geometry_avoid_walls_many(g, m, p + k0, right, half, pr);
    for (int k = 0; k < m; k++)
      out[k0 + k] = longest_push(out[k0 + k], pl[k], pr[k]);
  }
}

/* ---- many feelers at once ------------------------------------------------
 * One agent's feeler is a chain of waits: the heading's square root and
 * divisions, then the cell range, then the cells' lookups, with the walk's
 * loop exits mispredicted in between, and the next agent's feeler cannot
 * start before they resolve. Here a group of agents goes through three
 * passes, one agent after another with nothing to wait on between them in
 * the first two: heading, tip, cell range (the table slots of its rows
 * asked for); in an index laid out row by row, the cells looked up (their
 * runs asked for); then each agent's walk, its inputs there. The same
 * functions on the same numbers as one feeler at a time: the same bits. */

#define MANY_GROUP 16
#define MANY_CELLS 4 /* a feeler's cells listed ahead of its walk, at most */

/* The cells of a feeler's walk that hold entries, looked up ahead of the
   walk (their entries asked for); n < 0: more than MANY_CELLS cells, the
   walk looks them up itself. */
typedef struct cell_list {
  int n;
  uint32_t count[MANY_CELLS], skip[MANY_CELLS];
  const geo_item *items[MANY_CELLS];
} cell_list;

/* Asks for the cache line at p. */
GEO_HOT void ask_for(const void *p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

/* Asks for the table slots where r's first and last rows start (the
   first only in a hashed index). */
GEO_HOT void ask_for_rows(const geo_index *x, const cell_range *r) {
  if (!x->cell_live) return;
  ask_for(&x->cells[geo_index_home(x, r->x0, r->y0)]);
  if (x->mixed) return;
  int32_t py = x->wrap ? x->ncy : INT32_MAX;
  ask_for(&x->cells[geo_index_home(x, r->x0, walk_cell(r->y0, r->ny - 1, py))]);
}

/* The first four shapes of a run that has any, without a loop (its trip
   count would be mispredicted): the refs' padding (GEO_POOL_PAD) makes
   reading four safe, and a ref past the run names some other shape. */
GEO_HOT void ask_for_four(const uint32_t *ref, long n,
                          const double (*shape)[4]) {
  if (n <= 0) return;
  ask_for(shape[ref[0]]);
  ask_for(shape[ref[1]]);
  ask_for(shape[ref[2]]);
  ask_for(shape[ref[3]]);
}

/* r's cells that hold entries, in the walk's order (rows, then columns),
   into l, their entries' first and last lines asked for. */
GEO_HOT void list_cells(const geo_index *x, const cell_range *r,
                        cell_list *l) {
  l->n = 0;
  if ((int64_t)r->nx * r->ny > MANY_CELLS) {
    l->n = -1;
    return;
  }
  if (!x->cell_live) return;
  int32_t px = x->wrap ? x->ncx : INT32_MAX, py = x->wrap ? x->ncy : INT32_MAX;
  for (int32_t j = 0; j < r->ny; j++) {
    int32_t cy = walk_cell(r->y0, j, py);
    for (int32_t i = 0; i < r->nx; i++) {
      const geo_cell *c = geo_index_find(x, walk_cell(r->x0, i, px), cy);
      if (!c) continue;
      const geo_item *it = geo_cell_items(x, c);
      ask_for(it);
      ask_for(it + c->count - 1);
      l->items[l->n] = it;
      l->count[l->n] = c->count;
      l->skip[l->n] = skip_at(i, j);
      l->n++;
    }
  }
}

/* r's cells listed ahead of the walk (list_cells) when the index is laid
   out row by row (a dense level: the runs are waited for); a hashed index
   (a sparse level: few cells, warm) is looked up by the walk itself, as
   one feeler does (listing measured slower there). */
GEO_HOT void list_ahead(const geo_index *x, const cell_range *r,
                        cell_list *l) {
  if (x->mixed)
    l->n = -1;
  else
    list_cells(x, r, l);
}

/* The walls of r's cells for feeler f, as geometry_avoid_walls walks
   them (the cells of l when it lists them). */
static void walls_in_cells(const geometry *g, geo_feeler *f,
                           const cell_range *r, const cell_list *l) {
  const geo_index *x = &g->wall_index;
  if (l->n >= 0) {
    for (int c = 0; c < l->n; c++)
      if (g->quad)
        feel_walls_quad(g, f, l->items[c], l->count[c], l->skip[c]);
      else
        feel_walls(g, f, l->items[c], l->count[c], l->skip[c]);
  } else {
    for (int32_t j = 0; j < r->ny; j++)
      for (int32_t i = 0; i < r->nx; i++) {
        const geo_cell *c = geo_index_cell(x, r->x0 + i, r->y0 + j);
        if (!c) continue;
        if (g->quad)
          feel_walls_quad(g, f, geo_cell_items(x, c), c->count, skip_at(i, j));
        else
          feel_walls(g, f, geo_cell_items(x, c), c->count, skip_at(i, j));
      }
  }
  if (x->large_count) feel_walls(g, f, x->large, x->large_count, 0);
}

/* How a batch's feeler f is walked: 3, halo h's run at its middle (*run
   candidates from *refs, asked for); else index x's cells (0, asked for;
   1: every one of the `count` shapes instead; 2: none). need: how far from
   its middle a shape it can touch may lie; pad: how far from the feeler
   (negative or NaN: no halo serves it, and none is asked for). */
static inline int plan_feeler(const geo_index *x, const geo_halo *h,
                              size_t count, const geo_feeler *f, double need,
                              double pad, long *run, const uint32_t **refs,
                              cell_range *r) {
  if (h->live && pad >= 0 && need <= h->reach) {
    steer_vec2 mid = feeler_middle(f);
    *run = geo_halo_run(h, mid.x, mid.y, refs);
    if (*run >= 0) {
      if (*run > 0) ask_for(*refs);
      return 3;
    }
  } else if (pad >= 0) {
    geo_halo_want(h, need);
  }
  int walk = cells_of(x, geo_box_around(f->p, f->tip, pad), count, r);
  if (walk == 0) ask_for_rows(x, r);
  return walk;
}

void geometry_avoid_walls_many(const geometry *g, int n, const steer_vec2 *p,
                               const steer_vec2 *v, const double *length,
                               steer_vec2 *out) {
  geo_feeler f[MANY_GROUP];
  cell_range r[MANY_GROUP];
  cell_list l[MANY_GROUP];
  int walk[MANY_GROUP];
  long run[MANY_GROUP];
  const uint32_t *refs[MANY_GROUP];
  const geo_index *x = &g->wall_index;
  const geo_halo *h = &g->wall_halo;
  for (int k0 = 0; k0 < n; k0 += MANY_GROUP) {
    int m = n - k0 < MANY_GROUP ? n - k0 : MANY_GROUP;
    if (!g->wall_count) {
      for (int k = 0; k < m; k++) out[k0 + k] = zero;
      continue;
    }
    for (int k = 0; k < m; k++) {
      feeler_start(&f[k], p[k0 + k], v[k0 + k], length[k0 + k], 0, 0);
      /* the halo: the feeler lies within half its length of its middle */
      walk[k] = plan_feeler(x, h, g->wall_count, &f[k],
                            fabs(length[k0 + k]) * 0.5, 0, &run[k], &refs[k],
                            &r[k]);
    }
    for (int k = 0; k < m; k++)
      if (walk[k] == 0) list_ahead(x, &r[k], &l[k]);
    for (int k = 0; k < m; k++) {
      switch (walk[k]) {
      case 3:
        if (g->quad)
          feel_walls_refs_quad(g, &f[k], refs[k], (size_t)run[k], h->shape,
                               h->item);
        else
          feel_walls_refs(g, &f[k], refs[k], (size_t)run[k], h->shape,
                               h->item);
        if (f[k].index != SIZE_MAX)
          wall_away(&f[k], f[k].hit_a, f[k].hit_b, f[k].best);
        break;
      case 0:
        walls_in_cells(g, &f[k], &r[k], &l[k]);
        if (f[k].index != SIZE_MAX)
          wall_away(&f[k], f[k].hit_a, f[k].hit_b, f[k].best);
        break;
      case 1:
        for (size_t i = 0; i < g->wall_count; i++)
          geo_feeler_wall(g, &f[k], i);
        break;
      }
      out[k0 + k] = feeler_push(&f[k]);
    }
  }
}

void geometry_avoid_obstacles_many(const geometry *g, int n,
                                   const steer_vec2 *p, const steer_vec2 *v,
                                   const double *radius, const double *extra,
                                   const double *max_force, double length,
                                   steer_vec2 *out) {
  geo_feeler f[MANY_GROUP];
  cell_range r[MANY_GROUP];
  cell_list l[MANY_GROUP];
  int walk[MANY_GROUP];
  long run[MANY_GROUP];
  const uint32_t *refs[MANY_GROUP];
  const geo_index *x = &g->obstacle_index;
  const geo_halo *h = &g->obstacle_halo;
  for (int k0 = 0; k0 < n; k0 += MANY_GROUP) {
    int m = n - k0 < MANY_GROUP ? n - k0 : MANY_GROUP;
    if (!g->obstacle_count) {
      for (int k = 0; k < m; k++) out[k0 + k] = zero;
      continue;
    }
    for (int k = 0; k < m; k++) {
      double pad = radius[k0 + k] + extra[k0 + k];
      feeler_start(&f[k], p[k0 + k], v[k0 + k], length, radius[k0 + k],
                   extra[k0 + k]);
      /* the halo: a touched obstacle's box is within pad of the feeler,
         so within need of its middle */
      walk[k] = plan_feeler(x, h, g->obstacle_count, &f[k],
                            pad + fabs(length) * 0.5, pad, &run[k], &refs[k],
                            &r[k]);
    }
    for (int k = 0; k < m; k++)
      if (walk[k] == 0) list_ahead(x, &r[k], &l[k]);
    for (int k = 0; k < m; k++) {
      switch (walk[k]) {
      case 3:
        feel_obstacles_refs(g, &f[k], refs[k], (size_t)run[k], h->shape,
                               h->item);
        if (f[k].index != SIZE_MAX) obstacle_away(&f[k], f[k].hit_a);
        break;
      case 0:
        if (l[k].n >= 0) {
          for (int c = 0; c < l[k].n; c++)
            feel_obstacles(g, &f[k], l[k].items[c], l[k].count[c],
                           l[k].skip[c]);
          if (x->large_count)
            feel_obstacles(g, &f[k], x->large, x->large_count, 0);
        } else {
          obstacles_in_cells(g, &f[k], &r[k]);
        }
        if (f[k].index != SIZE_MAX) obstacle_away(&f[k], f[k].hit_a);
        break;
      case 1:
        for (size_t i = 0; i < g->obstacle_count; i++)
          geo_feeler_obstacle(g, &f[k], i);
        break;
      }
      out[k0 + k] = v2_scale(f[k].away, max_force[k0 + k]);
    }
  }
}

/* Feelers taken at once by the walls-then-obstacles walk: its passes ask
   for memory a pass ahead, and the more feelers a pass has, the more time
   the memory has. */
#define PAIR_GROUP 64
#define PAIR_AHEAD 8

/* Walls, then obstacles for the agents the walls leave quiet, in one pass
   over the batch: both feelers from one heading, both halos' cells and
   runs asked for before the first walk, the obstacles' shapes while the
   walls are walked. Each feeler is the same function on the same numbers
   as in the two calls above. */
int geometry_avoid_walls_obstacles_many(
    const geometry *g, int n, const steer_vec2 *p, const steer_vec2 *v,
    const double *wall_length, double weight, double loud,
    const double *radius, const double *extra, const double *max_force,
    double length, steer_vec2 *walls, steer_vec2 *obstacles, char *felt) {
  const geo_halo *hw = &g->wall_halo, *ho = &g->obstacle_halo;
  if (!g->wall_count || !g->obstacle_count || !hw->live || !ho->live)
    return 0;
  for (int k = 0; k < n; k++) {
    double pad = radius[k] + extra[k];
    if (!(fabs(wall_length[k]) * 0.5 <= hw->reach) ||
        !(pad >= 0 && pad + fabs(length) * 0.5 <= ho->reach))
      return 0; /* the two calls ask for longer halos */
  }
  long cw[PAIR_GROUP], co[PAIR_GROUP], rw[PAIR_GROUP], ro[PAIR_GROUP];
  const uint32_t *refw[PAIR_GROUP], *refo[PAIR_GROUP];
  for (int k0 = 0; k0 < n; k0 += PAIR_GROUP) {
    int m = n - k0 < PAIR_GROUP ? n - k0 : PAIR_GROUP;
    steer_vec2 ahead[PAIR_GROUP];
    /* the feelers themselves are made where they are walked (arrays of
       them here measured more stores missing the cache) */
    if (g->quad) {
      pair_cells_quad(hw, ho, p + k0, v + k0, wall_length + k0, length, m,
                      ahead, cw, co);
    } else {
      for (int k = 0; k < m; k++) {
        int i = k0 + k;
        ahead[k] = feeler_ahead(v[i]);
        cw[k] = feeler_cell(hw, p[i], ahead[k], wall_length[i]);
        co[k] = feeler_cell(ho, p[i], ahead[k], length);
      }
    }
    for (int k = 0; k < m; k++) {
      if (cw[k] >= 0) ask_for(&hw->start[cw[k]]);
      if (co[k] >= 0) ask_for(&ho->start[co[k]]);
    }
    for (int k = 0; k < m; k++) {
      if (cw[k] != -1) {
        rw[k] = geo_halo_cell_run(hw, cw[k], &refw[k]);
        if (rw[k] > 0) ask_for(refw[k]);
      }
      if (co[k] != -1) {
        ro[k] = geo_halo_cell_run(ho, co[k], &refo[k]);
        if (ro[k] > 0) ask_for(refo[k]);
      }
    }
    /* a wall run's shapes are asked for PAIR_AHEAD walks before its own
       (its refs have arrived by then) */
    for (int k = 0; k < m && k < PAIR_AHEAD; k++)
      if (cw[k] != -1) ask_for_four(refw[k], rw[k], hw->shape);
    for (int k = 0; k < m; k++) {
      int i = k0 + k, a = k + PAIR_AHEAD;
      if (a < m && cw[a] != -1) ask_for_four(refw[a], rw[a], hw->shape);
      if (cw[k] == -1) { /* far outside the halo's grid: as one feeler */
        walls[i] = geometry_avoid_walls(g, p[i], v[i], wall_length[i]);
      } else {
        geo_feeler fw;
        feeler_from(&fw, p[i], ahead[k], wall_length[i], 0, 0);
        if (g->quad)
          feel_walls_refs_quad(g, &fw, refw[k], (size_t)rw[k], hw->shape,
                               hw->item);
        else
          feel_walls_refs(g, &fw, refw[k], (size_t)rw[k], hw->shape,
                          hw->item);
        if (fw.index != SIZE_MAX) wall_away(&fw, fw.hit_a, fw.hit_b, fw.best);
        walls[i] = feeler_push(&fw);
      }
      felt[i] = !(v2_len2(v2_scale(walls[i], weight)) > loud);
      /* whether felt or not: a branch on felt would wait for the wall's
         push, and mispredict where walls are dense */
      if (co[k] != -1) ask_for_four(refo[k], ro[k], ho->shape);
    }
    /* the agents whose walls are quiet enough for the obstacles to be felt
       (felt), listed without a branch, then walked */
    int quiet[PAIR_GROUP], nq = 0;
    for (int k = 0; k < m; k++) {
      quiet[nq] = k;
      nq += felt[k0 + k] != 0;
    }
    for (int j = 0; j < nq; j++) {
      int k = quiet[j], i = k0 + k;
      if (co[k] == -1) {
        obstacles[i] = geometry_avoid_obstacles(g, p[i], v[i], radius[i],
                                                extra[i], max_force[i],
                                                length);
        continue;
      }
      geo_feeler fo;
      feeler_from(&fo, p[i], ahead[k], length, radius[i], extra[i]);
      feel_obstacles_refs(g, &fo, refo[k], (size_t)ro[k], ho->shape,
                          ho->item);
      if (fo.index != SIZE_MAX) obstacle_away(&fo, fo.hit_a);
      obstacles[i] = v2_scale(fo.away, max_force[i]);
    }
  }
  return 1;
}
