/* snapshot.c - the complete state of a world as bytes, and back.
 *
 * Format (version 15, every number little-endian, doubles as IEEE-754 bits;
 * docs/SNAPSHOT.md describes it field by field): magic, version, world
 * definition, slots, paths, shared points, formations, navigation grids
 * and flow fields, the entries that keep their slot as given, the
 * avoid_walls entries with whiskers, programs, agents,
 * shapes (handle slots, obstacles, walls), later versions' flags and the
 * formations' members, then a 64-bit FNV-1a checksum of everything before
 * it. Restoring checks every
 * count, index and number, so a corrupt or truncated snapshot is refused
 * with a message, never trusted.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "formation.h"
#include "navgrid.h"
#include "orca.h"
#include "orientation.h"
#include "tactics.h"
#include "sort.h"
#include "states.h"
#include "world.h"

#define MAGIC "STEERSNP"
#define VERSION 15u
/* version 2 has no orca margin: read as 0; version 3 no push; version 4 no
   detour nor standstill clock (its worlds ran without: detour 0, clock 0);
   version 5 no personal space (avoid_agents ran without one: 0); version 6
   no table of shared points (each entry's own position: a point apiece);
   version 7 no collide flag (programs) nor solid side (walls): read as 0;
   version 8 no orca settle (programs) nor settled flag (agents): 0;
   version 9 no tactics entries, version 10 no formations, version 11 no
   flow fields, version 12 no fit of offset_pursuit entries (they ran
   without: 0), version 13 no fit of follow_leader entries (the same),
   version 14 no whiskers (avoid_walls ran without: 0) */
#define OLDEST 2u

/* ---- writing ------------------------------------------------------------ */

typedef struct writer {
  steer_write_fn write;
  void *ud;
  uint64_t hash;
  int failed;
  unsigned char buf[4096];
  size_t used;
} writer;

static void hash_bytes(uint64_t *h, const unsigned char *p, size_t n) {
  for (size_t k = 0; k < n; k++) {
    *h ^= p[k];
    *h *= 0x100000001B3ull;
  }
}

static void flush(writer *wr) {
  if (wr->used && !wr->failed && wr->write(wr->ud, wr->buf, wr->used))
    wr->failed = 1;
  wr->used = 0;
}

static void put_bytes(writer *wr, const void *p, size_t n) {
  hash_bytes(&wr->hash, p, n);
  const unsigned char *b = p;
  while (n) {
    if (wr->used == sizeof wr->buf) flush(wr);
    size_t room = sizeof wr->buf - wr->used, k = n < room ? n : room;
    memcpy(wr->buf + wr->used, b, k);
    wr->used += k;
    b += k;
    n -= k;
  }
}

static void put_u64(writer *wr, uint64_t v) {
  unsigned char b[8];
  for (int k = 0; k < 8; k++) b[k] = (unsigned char)(v >> (8 * k));
  put_bytes(wr, b, 8);
}

static void put_u32(writer *wr, uint32_t v) {
  unsigned char b[4];
  for (int k = 0; k < 4; k++) b[k] = (unsigned char)(v >> (8 * k));
  put_bytes(wr, b, 4);
}

static void put_f64(writer *wr, double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  put_u64(wr, bits);
}

/* Tables that number the paths, shared points and programs the world refers
   to: items in
   numbering order, and an open-addressing hash of them (a power-of-two
   size at most half full; number 0: empty) so that each lookup is O(1) and
   a snapshot is linear in agents, programs and paths. */
typedef struct ref_slot {
  const void *item;
  size_t number; /* 1-based */
} ref_slot;

typedef struct refs {
  const void **items;
  size_t count, cap;
  ref_slot *slots;
  size_t slot_count;
} refs;

static ref_slot *find_slot(const refs *r, const void *item) {
  uint64_t h = (uint64_t)(uintptr_t)item * 0x9E3779B97F4A7C15ull;
  size_t mask = r->slot_count - 1, k = (size_t)(h >> 32) & mask;
  while (r->slots[k].number && r->slots[k].item != item) k = (k + 1) & mask;
  return &r->slots[k];
}

static size_t ref_index(const refs *r, const void *item) {
  return r->slot_count ? find_slot(r, item)->number : 0;
}

/* Doubles the hash (or makes its first one) and re-enters every item. */
static steer_status ref_rehash(steer_world *w, refs *r) {
  size_t n = r->slot_count ? r->slot_count * 2 : 64;
  if (n > SIZE_MAX / sizeof(ref_slot)) return STEER_ENOMEM;
  ref_slot *slots = world_alloc(w, NULL, 0, n * sizeof(ref_slot));
  if (!slots) return STEER_ENOMEM;
  memset(slots, 0, n * sizeof(ref_slot));
  world_alloc(w, r->slots, r->slot_count * sizeof(ref_slot), 0);
  r->slots = slots;
  r->slot_count = n;
  for (size_t k = 0; k < r->count; k++) {
    ref_slot *slot = find_slot(r, r->items[k]);
    slot->item = r->items[k];
    slot->number = k + 1;
  }
  return STEER_OK;
}

/* Numbers item (NULL: 0) if it is new; *number (if given) receives it. */
static steer_status ref_add(steer_world *w, refs *r, const void *item,
                            size_t *number) {
  size_t known = item ? ref_index(r, item) : 0;
  if (number) *number = known;
  if (!item || known) return STEER_OK;
  if (2 * (r->count + 1) > r->slot_count && ref_rehash(w, r))
    return STEER_ENOMEM;
  if (world_grow(w, (void **)&r->items, sizeof(void *), &r->cap, r->count + 1))
    return STEER_ENOMEM;
  r->items[r->count++] = item;
  ref_slot *slot = find_slot(r, item);
  slot->item = item;
  slot->number = r->count;
  if (number) *number = r->count;
  return STEER_OK;
}

static void ref_free(steer_world *w, refs *r) {
  world_alloc(w, r->items, r->cap * sizeof(void *), 0);
  world_alloc(w, r->slots, r->slot_count * sizeof(ref_slot), 0);
}

/* The distinct programs, the distinct paths of programs and a:follow, the
   distinct shared points, formations and flow fields of programs and the
   fields' grids; program_of[i] receives the number
   of agent i's program (one lookup per agent, neighbors sharing one program
   skip even that). */
static steer_status collect(steer_world *w, refs *paths, refs *points,
                            refs *formations, refs *grids, refs *flows,
                            refs *programs, size_t *program_of) {
  for (size_t i = 0; i < w->count; i++) {
    if (i > 0 && w->program[i] == w->program[i - 1])
      program_of[i] = program_of[i - 1];
    else if (ref_add(w, programs, w->program[i], &program_of[i]))
      return STEER_ENOMEM;
    if (w->ext[i] && ref_add(w, paths, w->ext[i]->follow_path, NULL))
      return STEER_ENOMEM;
  }
  for (size_t k = 0; k < programs->count; k++) {
    const steer_program *p = programs->items[k];
    for (size_t e = 0; e < p->count; e++) {
      const steer_entry *en = &p->entries[e];
      if (en->target.kind == STEER_TARGET_FLOW &&
          (ref_add(w, flows, en->target.field, NULL) ||
           ref_add(w, grids, en->target.field->grid, NULL)))
        return STEER_ENOMEM;
      if (!program_entry_keepable(en))
        return STEER_EINVAL; /* no such program from the API */
      if (en->target.kind == STEER_TARGET_FORMATION) {
        steer_formation *f = en->target.formation;
        steer_target anchor = steer_formation_anchor(f);
        if (anchor.kind != STEER_TARGET_NONE && anchor.kind != STEER_TARGET_POINT &&
            anchor.kind != STEER_TARGET_AGENT && anchor.kind != STEER_TARGET_SHARED)
          return STEER_EINVAL; /* an anchor the API never sets */
        if (ref_add(w, formations, f, NULL) ||
            (anchor.kind == STEER_TARGET_SHARED &&
             ref_add(w, points, anchor.shared, NULL)))
          return STEER_ENOMEM;
      }
      if (en->target.kind == STEER_TARGET_PATH &&
          ref_add(w, paths, en->target.path, NULL))
        return STEER_ENOMEM;
      if (en->target.kind == STEER_TARGET_SHARED &&
          ref_add(w, points, en->target.shared, NULL))
        return STEER_ENOMEM;
      /* interpose's second end */
      if (en->other.kind == STEER_TARGET_SHARED &&
          ref_add(w, points, en->other.shared, NULL))
        return STEER_ENOMEM;
    }
  }
  return STEER_OK;
}

/* An end (interpose's second one, a formation's anchor): a target that is
   none, a point, an agent or a shared point, written as its kind, point
   (0, 0 for a shared point), agent id and shared point's number. */
static void put_end(writer *wr, const steer_target *t, const refs *points) {
  int shared = t->kind == STEER_TARGET_SHARED;
  put_u32(wr, (uint32_t)t->kind);
  put_f64(wr, shared ? 0 : t->point.x);
  put_f64(wr, shared ? 0 : t->point.y);
  put_u64(wr, t->agent);
  put_u64(wr, shared ? ref_index(points, t->shared) : 0);
}

/* A formation: its anchor, fit and slots; its members come last
   (steer_world_snapshot). */
static void put_formation(writer *wr, const steer_formation *f,
                          const refs *points) {
  steer_target anchor = steer_formation_anchor(f);
  put_end(wr, &anchor, points);
  put_u32(wr, (uint32_t)steer_formation_fit(f));
  put_u64(wr, steer_formation_slot_count(f));
  for (size_t k = 0; k < steer_formation_slot_count(f); k++) {
    put_f64(wr, steer_formation_slot(f, k).x);
    put_f64(wr, steer_formation_slot(f, k).y);
  }
}

/* A flow field's navigation grid: its size, cell, origin, version (so
   that a field stale before is stale after) and costs. */
static void put_grid(writer *wr, const steer_navgrid *g) {
  put_u32(wr, (uint32_t)g->width);
  put_u32(wr, (uint32_t)g->height);
  put_f64(wr, g->cell_size);
  put_f64(wr, g->origin.x);
  put_f64(wr, g->origin.y);
  put_u64(wr, g->version);
  for (size_t c = 0; c < g->cells; c++) put_f64(wr, g->cost[c]);
}

/* A flow field: its grid's number, version and goals. A field computed
   from its grid's costs as they are is computed again when restored (the
   same search on the same numbers: the same cells); a stale one, computed
   from costs since changed, is written cell by cell. */
static void put_flow(writer *wr, const steer_flowfield *f, const refs *grids) {
  put_u64(wr, ref_index(grids, f->grid));
  put_u64(wr, f->version);
  put_u64(wr, f->goal_count);
  for (size_t q = 0; q < f->goal_count; q++) {
    put_f64(wr, f->goals[q].x);
    put_f64(wr, f->goals[q].y);
  }
  int stale = steer_flowfield_stale(f);
  put_u32(wr, (uint32_t)stale);
  if (!stale) return;
  put_u32(wr, (uint32_t)f->reachable_any);
  for (size_t c = 0; c < f->grid->cells; c++) {
    uint32_t dx, dy;
    memcpy(&dx, &f->cells[c].dx, 4);
    memcpy(&dy, &f->cells[c].dy, 4);
    put_f64(wr, f->cells[c].dist);
    put_u32(wr, dx);
    put_u32(wr, dy);
  }
  put_bytes(wr, f->blend, f->grid->cells);
}

/* The entries `pick` chooses, as (program, entry) numbers in program then
   entry order: a flag most entries leave at its default. */
static void put_entries_where(writer *wr, const refs *programs,
                              int (*pick)(const steer_entry *)) {
  uint64_t n = 0;
  for (size_t k = 0; k < programs->count; k++) {
    const steer_program *p = programs->items[k];
    for (size_t q = 0; q < p->count; q++) n += pick(&p->entries[q]) != 0;
  }
  put_u64(wr, n);
  for (size_t k = 0; k < programs->count; k++) {
    const steer_program *p = programs->items[k];
    for (size_t q = 0; q < p->count; q++)
      if (pick(&p->entries[q])) {
        put_u64(wr, k);
        put_u64(wr, q);
      }
  }
}

/* offset_pursuit's slot, follow_leader's spot behind, as given */
static int unfitted(const steer_entry *e) { return !e->fit; }
static int whiskered(const steer_entry *e) { return e->whiskers; }

static void put_program(writer *wr, const steer_program *p,
                        const refs *paths, const refs *points,
                        const refs *formations, const refs *flows) {
  put_u32(wr, (uint32_t)p->combine);
  put_f64(wr, p->smoothing);
  put_f64(wr, p->hold);
  put_u32(wr, (uint32_t)p->turn);
  put_u32(wr, (uint32_t)p->has_orca);
  if (p->has_orca) {
    put_f64(wr, p->orca.time_horizon);
    put_f64(wr, p->orca.obstacle_time_horizon);
    put_f64(wr, p->orca.neighbor_radius);
    put_u64(wr, p->orca.max_neighbors);
    put_f64(wr, p->orca.margin);
    put_u64(wr, p->orca.push);
    put_u32(wr, (uint32_t)p->orca.detour);
  }
  put_u64(wr, p->count);
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    put_u32(wr, (uint32_t)e->behavior);
    put_u32(wr, (uint32_t)e->target.kind);
    /* a shared point is written once, in the points table, and named by
       its number: entries that shared it share it again when restored */
    int shared = e->target.kind == STEER_TARGET_SHARED;
    put_f64(wr, shared ? 0 : e->target.point.x);
    put_f64(wr, shared ? 0 : e->target.point.y);
    put_u64(wr, e->target.agent);
    /* a path's number, or (version 11) a formation's, (12) a flow field's */
    put_u64(wr, e->target.kind == STEER_TARGET_PATH
                    ? ref_index(paths, e->target.path)
                : e->target.kind == STEER_TARGET_FORMATION
                    ? ref_index(formations, e->target.formation)
                : e->target.kind == STEER_TARGET_FLOW
                    ? ref_index(flows, e->target.field)
                    : 0);
    put_u64(wr, shared ? ref_index(points, e->target.shared) : 0);
    put_f64(wr, e->weight);
    put_f64(wr, e->probability);
    put_f64(wr, e->radius);
    put_f64(wr, e->feeler_length);
    put_f64(wr, e->slowing_radius);
    put_f64(wr, e->arrival_radius);
    put_f64(wr, e->panic_radius);
    put_f64(wr, e->hysteresis);
    put_f64(wr, e->time_horizon);
    put_bytes(wr, e->tag, STEER_TAG_SIZE);
    put_u32(wr, e->groups);
    put_f64(wr, e->fov);
    put_u32(wr, (uint32_t)e->falloff);
    put_f64(wr, e->path_radius);
    put_f64(wr, e->look_ahead);
    put_u64(wr, (uint64_t)(int64_t)e->start);
    put_f64(wr, e->personal_space);
    /* version 10: the tactics' parameters and interpose's second end */
    put_f64(wr, e->offset.x);
    put_f64(wr, e->offset.y);
    put_f64(wr, e->distance);
    put_end(wr, &e->other, points);
  }
}

/* An agent column (world.h's AGENT_COLUMNS) written by its snapshot kind;
   REF columns are written with the agent's references instead. */
#define PUT_F64(v) put_f64(wr, v);
#define PUT_SIZE(v) put_f64(wr, v);
#define PUT_U32(v) put_u32(wr, v);
#define PUT_CLOCK(v) put_f64(wr, v);
#define PUT_REF(v)
#define PUT_LATE(v) /* after the geometry, in version 9's flags */
#define PUT_NONE(v)
#define PUT_COLUMN(name, type, snap) PUT_##snap(w->name[i])

/* the geometry's handle slots, then obstacles and walls with
   their handles */
static void put_geometry(writer *wr, const geometry *g) {
  put_u64(wr, g->slot_count);
  put_u32(wr, g->free_slot);
  for (size_t s = 0; s < g->slot_count; s++) {
    put_u32(wr, g->slots[s].kind);
    put_u32(wr, g->slots[s].gen);
    put_u32(wr, g->slots[s].index);
  }
  put_u64(wr, g->obstacle_count);
  for (size_t k = 0; k < g->obstacle_count; k++) {
    put_f64(wr, g->obstacles[k].x);
    put_f64(wr, g->obstacles[k].y);
    put_f64(wr, g->obstacles[k].radius);
    put_u64(wr, g->obstacles[k].handle);
  }
  put_u64(wr, g->wall_count);
  for (size_t k = 0; k < g->wall_count; k++) {
    put_f64(wr, g->walls[k].a.x);
    put_f64(wr, g->walls[k].a.y);
    put_f64(wr, g->walls[k].b.x);
    put_f64(wr, g->walls[k].b.y);
    put_u64(wr, g->walls[k].handle);
  }
}

static void put_agent(writer *wr, const steer_world *w, size_t i,
                      const refs *paths, size_t program_number) {
  AGENT_COLUMNS(PUT_COLUMN) /* in table order, then the references */
  put_u64(wr, program_number);
  const agent_ext *e = w->ext[i];
  put_u32(wr, e != NULL);
  if (!e) return;
  put_f64(wr, e->wander_radius);
  put_f64(wr, e->wander_distance);
  put_f64(wr, e->wander_jitter);
  put_f64(wr, e->wander_angle);
  put_u32(wr, e->rng);
  put_u64(wr, ref_index(paths, e->follow_path));
  put_u64(wr, e->follow_index);
  put_f64(wr, e->body.angle);
  put_f64(wr, e->body.angular_velocity);
  put_f64(wr, e->body.max_turn_rate);
  put_f64(wr, e->body.max_angular_acceleration);
  put_f64(wr, e->body.min_speed);
  put_f64(wr, e->body.angular_force);
  put_u32(wr, (uint32_t)e->body.turn_velocity);
  put_u32(wr, (uint32_t)e->body.ghost_group);
  const program_state *s = world_state(w, i);
  put_u32(wr, s != NULL);
  if (!s) return;
  const steer_program *p = w->program[i];
  /* a program that neither smooths nor holds keeps no memory: zeros */
  state_memory none = {{0, 0}, 0, {0, 0}};
  const state_memory *m = program_remembers(p) ? state_memory_of(s, p) : &none;
  put_u32(wr, (uint32_t)s->has_smoothed);
  put_f64(wr, m->smoothed.x);
  put_f64(wr, m->smoothed.y);
  put_u64(wr, (uint64_t)(int64_t)s->held);
  put_f64(wr, m->hold_left);
  put_f64(wr, m->held_force.x);
  put_f64(wr, m->held_force.y);
  put_u64(wr, (uint64_t)(int64_t)s->winner);
  size_t entries = p->count;
  for (size_t k = 0; k < entries; k++) {
    put_u64(wr, s->entries[k].waypoint);
    put_u32(wr, (uint32_t)s->entries[k].active);
  }
}

steer_status steer_world_snapshot(steer_world *w, steer_write_fn write,
                                  void *ud) {
  refs paths = {NULL, 0, 0, NULL, 0}, points = {NULL, 0, 0, NULL, 0};
  refs programs = {NULL, 0, 0, NULL, 0}, formations = {NULL, 0, 0, NULL, 0};
  refs grids = {NULL, 0, 0, NULL, 0}, flows = {NULL, 0, 0, NULL, 0};
  steer_status status = STEER_OK;
  /* the restored world sorts its agents by cell: so does this one, so both
     walk neighbors in the same order from here on; sorted first, paths and
     programs are numbered in the order the agents are written */
  if (!w->grid.sorted) status = world_sort_now(w);
  size_t *program_of = NULL;
  if (status == STEER_OK && w->count &&
      !(program_of = world_alloc(w, NULL, 0, w->count * sizeof(size_t))))
    status = STEER_ENOMEM;
  if (status == STEER_OK)
    status = collect(w, &paths, &points, &formations, &grids, &flows,
                     &programs, program_of);
  if (status == STEER_OK) {
    writer wr;
    wr.write = write;
    wr.ud = ud;
    wr.hash = 0xCBF29CE484222325ull;
    wr.failed = 0;
    wr.used = 0;
    put_bytes(&wr, MAGIC, 8);
    put_u32(&wr, VERSION);
    put_f64(&wr, w->def.cell_size);
    put_u32(&wr, w->def.seed);
    put_f64(&wr, w->def.width);
    put_f64(&wr, w->def.height);
    put_u32(&wr, (uint32_t)w->def.wrap);
    put_u64(&wr, w->slot_count);
    put_u32(&wr, w->free_slot);
    for (size_t s = 0; s < w->slot_count; s++) {
      put_u32(&wr, w->slots[s].index);
      put_u32(&wr, w->slots[s].gen);
    }
    put_u64(&wr, paths.count);
    for (size_t k = 0; k < paths.count; k++) {
      const steer_path *p = paths.items[k];
      put_u64(&wr, steer_path_count(p));
      put_u32(&wr, (uint32_t)steer_path_loops(p));
      for (size_t q = 0; q < steer_path_count(p); q++) {
        put_f64(&wr, steer_path_point(p, q).x);
        put_f64(&wr, steer_path_point(p, q).y);
      }
    }
    put_u64(&wr, points.count);
    for (size_t k = 0; k < points.count; k++) {
      steer_vec2 at = steer_point_get(points.items[k]);
      put_f64(&wr, at.x);
      put_f64(&wr, at.y);
    }
    /* version 11: the formations (their members last) */
    put_u64(&wr, formations.count);
    for (size_t k = 0; k < formations.count; k++)
      put_formation(&wr, formations.items[k], &points);
    /* version 12: the flow fields' grids, then the fields */
    put_u64(&wr, grids.count);
    for (size_t k = 0; k < grids.count; k++) put_grid(&wr, grids.items[k]);
    put_u64(&wr, flows.count);
    for (size_t k = 0; k < flows.count; k++) put_flow(&wr, flows.items[k], &grids);
    /* version 13: the entries that keep their slot as given (fit 0);
       version 15: the avoid_walls entries with whiskers */
    put_entries_where(&wr, &programs, unfitted);
    put_entries_where(&wr, &programs, whiskered);
    put_u64(&wr, programs.count);
    for (size_t k = 0; k < programs.count; k++)
      put_program(&wr, programs.items[k], &paths, &points, &formations, &flows);
    put_u64(&wr, w->count);
    for (size_t i = 0; i < w->count; i++)
      put_agent(&wr, w, i, &paths, program_of[i]);
    put_geometry(&wr, &w->geo);
    /* version 8's flags, last: each program's collide, each wall's side */
    for (size_t k = 0; k < programs.count; k++)
      put_u32(&wr, (uint32_t)((const steer_program *)programs.items[k])->collide);
    for (size_t k = 0; k < w->geo.wall_count; k++)
      put_u32(&wr, w->geo.walls[k].solid_left);
    /* version 9's: each program's orca settle, each agent's settled flag */
    for (size_t k = 0; k < programs.count; k++) {
      const steer_orca *o = steer_program_orca(programs.items[k]);
      put_u32(&wr, (uint32_t)(o ? o->settle : 0));
    }
    for (size_t i = 0; i < w->count; i++) put_u32(&wr, w->orca_settled[i]);
    /* version 11's: each formation's members in join order, their slots */
    for (size_t k = 0; k < formations.count; k++) {
      const steer_formation *f = formations.items[k];
      put_u64(&wr, steer_formation_member_count(f));
      for (size_t m = 0; m < steer_formation_member_count(f); m++) {
        steer_id id = steer_formation_member(f, m);
        put_u64(&wr, id);
        put_u64(&wr, (uint64_t)(int64_t)steer_formation_slot_of(f, id));
      }
    }
    uint64_t sum = wr.hash;
    put_u64(&wr, sum);
    flush(&wr);
    if (wr.failed) status = STEER_EINVAL;
  }
  ref_free(w, &paths);
  ref_free(w, &points);
  ref_free(w, &formations);
  ref_free(w, &grids);
  ref_free(w, &flows);
  ref_free(w, &programs);
  world_alloc(w, program_of, program_of ? w->count * sizeof(size_t) : 0, 0);
  return status;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct reader {
  const unsigned char *p;
  size_t left;
  const char *error; /* first problem found */
  uint32_t version;
} reader;

static int fail(reader *r, const char *msg) {
  if (!r->error) r->error = msg;
  return 0;
}

static const unsigned char *take(reader *r, size_t n) {
  if (r->error) return NULL;
  if (n > r->left) {
    fail(r, "snapshot is truncated");
    return NULL;
  }
  const unsigned char *p = r->p;
  r->p += n;
  r->left -= n;
  return p;
}

static uint64_t get_u64(reader *r) {
  const unsigned char *b = take(r, 8);
  uint64_t v = 0;
  for (int k = 0; b && k < 8; k++) v |= (uint64_t)b[k] << (8 * k);
  return v;
}

static uint32_t get_u32(reader *r) {
  const unsigned char *b = take(r, 4);
  uint32_t v = 0;
  for (int k = 0; b && k < 4; k++) v |= (uint32_t)b[k] << (8 * k);
  return v;
}

/* Up to 5 ulps past STEER_LIMIT: earlier versions could store such
   values (a velocity clamped to a max_speed of STEER_LIMIT rounded one or
   two ulps past it), and their snapshots still load. */
#define LIMIT_SLACK (STEER_LIMIT * (1 + 4 * DBL_EPSILON))

static double get_f64(reader *r) {
  uint64_t bits = get_u64(r);
  double v;
  memcpy(&v, &bits, 8);
  if (!isfinite(v) || fabs(v) > LIMIT_SLACK) {
    fail(r, "snapshot holds a number out of range");
    return 0;
  }
  /* the slack's values read as the limit, the world's range */
  return v > STEER_LIMIT ? STEER_LIMIT : v < -STEER_LIMIT ? -STEER_LIMIT : v;
}

/* A u32 that the format allows to be 0 or 1 only. */
static int get_flag(reader *r) {
  uint32_t v = get_u32(r);
  if (v > 1) fail(r, "snapshot holds an invalid flag");
  return (int)v;
}

static double get_size(reader *r) {
  double v = get_f64(r);
  if (v < 0) fail(r, "snapshot holds a negative size");
  return v;
}

/* A count of records of at least `record` bytes each: no larger than what
   the remaining bytes could hold, so a corrupt count never allocates. */
static size_t get_count(reader *r, size_t record) {
  uint64_t n = get_u64(r);
  if (n > r->left / record) {
    fail(r, "snapshot is truncated or corrupt (count too large)");
    return 0;
  }
  return (size_t)n;
}

/* (program, entry) numbers read from a snapshot, taken in order. */
typedef struct entry_list {
  uint64_t (*items)[2];
  size_t count, cap, read;
} entry_list;

/* What restore builds before the world owns it. */
typedef struct restoring {
  steer_world *w;
  steer_path **paths;
  size_t path_count, path_cap;
  steer_point **points; /* version 7 on: the shared points, by number */
  size_t point_count, point_cap;
  steer_program **programs;
  size_t program_count, program_cap;
  steer_formation **formations; /* version 11 on */
  size_t formation_count, formation_cap;
  steer_navgrid **grids; /* version 12 on: the flow fields' grids */
  size_t grid_count, grid_cap;
  steer_flowfield **flows; /* ... and the fields */
  size_t flow_count, flow_cap;
  entry_list unfitted;  /* version 13 on: the entries whose fit is 0 */
  entry_list whiskered; /* version 15 on: avoid_walls with whiskers */
} restoring;

/* A table's count (records of at least `record` bytes each) with room for
   that many items in *items (of `size` bytes, *cap of them); 0 once
   restoring has failed. */
static size_t read_table(reader *r, restoring *rs, void **items, size_t size,
                         size_t *cap, size_t record) {
  size_t n = get_count(r, record);
  if (r->error) return 0;
  if (world_grow(rs->w, items, size, cap, n ? n : 1)) {
    fail(r, "not enough memory");
    return 0;
  }
  return n;
}

/* n points (f64 x, f64 y each) read into a block of the world's memory
   with room for at least one, or NULL once restoring has failed (the
   caller frees it with free_point_list). */
static steer_vec2 *read_point_list(reader *r, restoring *rs, size_t n) {
  if (r->error) return NULL;
  steer_vec2 *at = world_alloc(rs->w, NULL, 0, (n ? n : 1) * sizeof(steer_vec2));
  if (!at) {
    fail(r, "not enough memory");
    return NULL;
  }
  for (size_t q = 0; q < n; q++) {
    at[q].x = get_f64(r);
    at[q].y = get_f64(r);
  }
  return at;
}

static void free_point_list(restoring *rs, steer_vec2 *at, size_t n) {
  if (at) world_alloc(rs->w, at, (n ? n : 1) * sizeof(steer_vec2), 0);
}

static void read_paths(reader *r, restoring *rs) {
  size_t n = read_table(r, rs, (void **)&rs->paths, sizeof(steer_path *),
                        &rs->path_cap, 12 + 16);
  for (size_t k = 0; k < n && !r->error; k++) {
    size_t points = get_count(r, 16);
    int loop = get_flag(r);
    if (!r->error && points == 0) fail(r, "snapshot holds an empty path");
    steer_vec2 *pts = read_point_list(r, rs, points);
    steer_path *path = r->error ? NULL : steer_path_create(pts, points, loop != 0);
    free_point_list(rs, pts, points);
    if (!r->error && !path) fail(r, "not enough memory");
    if (path) rs->paths[rs->path_count++] = path;
  }
}

/* Version 7 on: the shared points the programs' entries name by number. */
static void read_points(reader *r, restoring *rs) {
  size_t n = r->version > 6 ? read_table(r, rs, (void **)&rs->points,
                                          sizeof(steer_point *),
                                          &rs->point_cap, 16)
                             : 0;
  for (size_t k = 0; k < n && !r->error; k++) {
    double x = get_f64(r), y = get_f64(r);
    steer_point *point = r->error ? NULL : steer_point_create(x, y);
    if (!r->error && !point) fail(r, "not enough memory");
    if (point) rs->points[rs->point_count++] = point;
  }
}

/* The shared point of an entry: the one its number names (version 7 on),
   or before version 7 a fresh one where the entry's point was (sharing was
   not written then). One reference, which the caller releases. */
static steer_point *entry_point(reader *r, restoring *rs, uint64_t number,
                                steer_vec2 at) {
  if (r->error) return NULL;
  if (r->version < 7) {
    steer_point *fresh = steer_point_create(at.x, at.y);
    if (!fresh) fail(r, "not enough memory");
    return fresh;
  }
  if (number == 0 || number > rs->point_count) {
    fail(r, "snapshot refers to a missing shared point");
    return NULL;
  }
  steer_point_retain(rs->points[number - 1]);
  return rs->points[number - 1];
}

/* put_end's end into *t: `invalid` is the message for a kind no end has,
   or a point number on another kind than a shared point. A shared point
   comes with a reference the caller releases. 0 once restoring has
   failed. */
static int read_end(reader *r, restoring *rs, steer_target *t,
                    const char *invalid) {
  uint32_t kind = get_u32(r);
  steer_vec2 at;
  at.x = get_f64(r);
  at.y = get_f64(r);
  uint64_t agent = get_u64(r), point = get_u64(r);
  if (kind != STEER_TARGET_NONE && kind != STEER_TARGET_POINT &&
      kind != STEER_TARGET_AGENT && kind != STEER_TARGET_SHARED) {
    fail(r, invalid);
    return 0;
  }
  t->kind = (steer_target_kind)kind;
  t->point = at;
  t->agent = agent;
  if (kind == STEER_TARGET_SHARED)
    t->shared = entry_point(r, rs, point, at);
  else if (point != 0)
    fail(r, invalid);
  return !r->error;
}

/* Version 11 on: the formations the programs' entries name by number,
   their members left for the end (read_members). */
static void read_formations(reader *r, restoring *rs) {
  size_t n = r->version > 10 ? read_table(r, rs, (void **)&rs->formations,
                                           sizeof(steer_formation *),
                                           &rs->formation_cap, 4 + 16 + 16 + 4 + 8)
                              : 0;
  for (size_t k = 0; k < n && !r->error; k++) {
    steer_target anchor;
    memset(&anchor, 0, sizeof anchor);
    if (!read_end(r, rs, &anchor, "snapshot holds an invalid formation")) return;
    int fit = get_flag(r);
    size_t slots = get_count(r, 16);
    if (!r->error && slots > STEER_FORMATION_MAX_SLOTS)
      fail(r, "snapshot holds an invalid formation");
    steer_vec2 *at = read_point_list(r, rs, slots);
    steer_formation *f = r->error ? NULL : steer_formation_create(anchor, at, slots);
    free_point_list(rs, at, slots);
    if (anchor.kind == STEER_TARGET_SHARED)
      steer_point_release(anchor.shared); /* f holds its own */
    if (!r->error && !f) fail(r, "not enough memory");
    if (f) {
      steer_formation_set_fit(f, fit);
      rs->formations[rs->formation_count++] = f;
    }
  }
}

/* Version 12 on: the flow fields' navigation grids (put_grid), their costs
   as set_cost allows them. */
static void read_grids(reader *r, restoring *rs) {
  size_t n = r->version > 11 ? read_table(r, rs, (void **)&rs->grids,
                                           sizeof(steer_navgrid *),
                                           &rs->grid_cap, 4 + 4 + 24 + 8 + 8)
                              : 0;
  for (size_t k = 0; k < n && !r->error; k++) {
    uint32_t width = get_u32(r), height = get_u32(r);
    double cell = get_f64(r);
    steer_vec2 origin;
    origin.x = get_f64(r);
    origin.y = get_f64(r);
    uint64_t version = get_u64(r);
    if (r->error) return;
    if (!nav_size_ok(width, height, cell)) {
      fail(r, "snapshot holds an invalid navigation grid");
      return;
    }
    size_t cells = (size_t)width * height;
    if (cells > r->left / 8) { /* before allocating for them */
      fail(r, "snapshot is truncated");
      return;
    }
    steer_navgrid *g =
        steer_navgrid_create((int)width, (int)height, cell, origin, NULL);
    if (!g) {
      fail(r, "not enough memory");
      return;
    }
    rs->grids[rs->grid_count++] = g;
    for (size_t c = 0; c < cells && !r->error; c++) {
      double cost = get_f64(r);
      if (!(cost == 0 || (cost >= 1 && cost <= STEER_NAV_MAX_COST)))
        fail(r, "snapshot holds an invalid navigation grid");
      g->cost[c] = cost;
    }
    g->version = version;
  }
}

/* From version `since` on: a list of entries (put_entries_where), in
   program then entry order (the programs, read next, take them in that
   order: listed). */
static void read_entry_list(reader *r, restoring *rs, entry_list *l,
                            uint32_t since) {
  size_t n = r->version >= since
                 ? read_table(r, rs, (void **)&l->items, sizeof *l->items,
                              &l->cap, 16)
                 : 0;
  for (size_t k = 0; k < n && !r->error; k++) {
    l->items[k][0] = get_u64(r);
    l->items[k][1] = get_u64(r);
  }
  l->count = r->error ? 0 : n;
}

/* Is entry q of program k the list's next? Then it is taken. */
static int listed(entry_list *l, size_t k, size_t q) {
  if (l->read >= l->count || l->items[l->read][0] != k ||
      l->items[l->read][1] != q)
    return 0;
  l->read++;
  return 1;
}

/* Entry q of program k: its fit. Listed: 0. Before version 13
   offset_pursuit ran without (0), before version 14 follow_leader did; no
   other entry reads it (the default, 1). */
static int read_entry_fit(reader *r, restoring *rs, size_t k, size_t q,
                          const steer_entry *e) {
  if (listed(&rs->unfitted, k, q)) return 0;
  if (r->version < 13 && e->behavior == STEER_OFFSET_PURSUIT) return 0;
  return r->version > 13 || e->behavior != STEER_FOLLOW_LEADER;
}

/* Version 12 on: the flow fields (put_flow), each computed again from its
   grid, or a stale one's cells as written, checked (flow_cells_valid). */
static void read_flows(reader *r, restoring *rs) {
  size_t n = r->version > 11 ? read_table(r, rs, (void **)&rs->flows,
                                           sizeof(steer_flowfield *),
                                           &rs->flow_cap, 8 + 8 + 8 + 4)
                              : 0;
  for (size_t k = 0; k < n && !r->error; k++) {
    uint64_t grid = get_u64(r), version = get_u64(r);
    size_t goals = get_count(r, 16);
    if (!r->error && (grid == 0 || grid > rs->grid_count))
      fail(r, "snapshot refers to a missing navigation grid");
    if (r->error) return;
    steer_navgrid *g = rs->grids[grid - 1];
    steer_vec2 *at = read_point_list(r, rs, goals);
    int stale = get_flag(r);
    /* a fresh field was computed from the grid's version, a stale one not */
    if (!r->error && stale == (version == g->version))
      fail(r, "snapshot holds an invalid flow field");
    /* computed again when fresh; a stale one's cells are read below */
    steer_flowfield *f = r->error ? NULL : flow_make(g, at, goals, !stale);
    free_point_list(rs, at, goals);
    if (!r->error && !f) fail(r, "not enough memory");
    if (!f) return;
    rs->flows[rs->flow_count++] = f;
    if (!stale) continue;
    f->reachable_any = get_flag(r);
    for (size_t c = 0; c < g->cells && !r->error; c++) {
      uint32_t dx = 0, dy = 0;
      f->cells[c].dist = get_f64(r);
      dx = get_u32(r);
      dy = get_u32(r);
      memcpy(&f->cells[c].dx, &dx, 4);
      memcpy(&f->cells[c].dy, &dy, 4);
    }
    const unsigned char *blend = take(r, g->cells);
    if (blend) memcpy(f->blend, blend, g->cells);
    f->version = version;
    if (!r->error && !flow_cells_valid(f))
      fail(r, "snapshot holds an invalid flow field");
  }
}

/* Version 11's tail: each formation's members in join order and their
   slots, checked against the agents' programs. */
static void read_members(reader *r, restoring *rs) {
  for (size_t k = 0; k < rs->formation_count && !r->error; k++) {
    size_t n = get_count(r, 16);
    if (r->error) return;
    if (n > rs->w->count) {
      fail(r, "snapshot holds inconsistent formation members");
      return;
    }
    size_t bytes = (n ? n : 1) * (sizeof(steer_id) + sizeof(long));
    steer_id *ids = world_alloc(rs->w, NULL, 0, bytes);
    if (!ids) {
      fail(r, "not enough memory");
      return;
    }
    long *slots = (long *)(ids + (n ? n : 1));
    for (size_t m = 0; m < n; m++) {
      ids[m] = get_u64(r);
      slots[m] = (long)(int64_t)get_u64(r);
    }
    steer_status s = r->error ? STEER_OK
                              : formation_restore_members(rs->w, rs->formations[k],
                                                          ids, slots, n);
    world_alloc(rs->w, ids, bytes, 0);
    if (s == STEER_ENOMEM) fail(r, "not enough memory");
    if (s == STEER_EINVAL) fail(r, "snapshot holds inconsistent formation members");
  }
}

/* Version 10's tail of an entry: the tactics' offset and distance, and
   interpose's second end (a point, an agent, a shared point or none). */
static void read_tactics(reader *r, restoring *rs, steer_entry *e) {
  e->offset.x = get_f64(r);
  e->offset.y = get_f64(r);
  e->distance = get_size(r);
  /* a shared point is released by the caller */
  read_end(r, rs, &e->other, "snapshot holds an invalid entry");
}

static void read_entry(reader *r, restoring *rs, steer_entry *e) {
  uint32_t behavior = get_u32(r), kind = get_u32(r);
  /* no flow field before version 12, no tactics entry before 10, no
     formation before 11; a formation entry and only it names a formation */
  if (behavior >= STEER_BEHAVIOR_COUNT || kind > STEER_TARGET_FORMATION ||
      (r->version < 12 && kind == STEER_TARGET_FLOW) ||
      (behavior == STEER_FORMATION) != (kind == STEER_TARGET_FORMATION) ||
      (r->version < 10 && tactics_behavior((steer_behavior)behavior)) ||
      (r->version < 11 && behavior == STEER_FORMATION))
    fail(r, "snapshot holds an unknown behavior or target");
  *e = steer_entry_default((steer_behavior)(behavior % STEER_BEHAVIOR_COUNT));
  e->target.kind = (steer_target_kind)kind;
  e->target.point.x = get_f64(r);
  e->target.point.y = get_f64(r);
  e->target.agent = get_u64(r);
  uint64_t path = get_u64(r);
  uint64_t point = r->version > 6 ? get_u64(r) : 0;
  if (kind == STEER_TARGET_PATH) {
    if (path == 0 || path > rs->path_count)
      fail(r, "snapshot refers to a missing path");
    else
      e->target.path = rs->paths[path - 1];
  } else if (kind == STEER_TARGET_FORMATION) {
    if (path == 0 || path > rs->formation_count)
      fail(r, "snapshot refers to a missing formation");
    else
      e->target.formation = rs->formations[path - 1];
  } else if (kind == STEER_TARGET_FLOW) {
    if (path == 0 || path > rs->flow_count)
      fail(r, "snapshot refers to a missing flow field");
    else
      e->target.field = rs->flows[path - 1];
  } else if (path != 0) {
    fail(r, "snapshot holds an invalid entry"); /* a number, no path */
  }
  if (kind == STEER_TARGET_SHARED) /* released by the caller */
    e->target.shared = entry_point(r, rs, point, e->target.point);
  else if (point != 0)
    fail(r, "snapshot holds an invalid entry"); /* a number, no point */
  e->weight = get_f64(r);
  e->probability = get_size(r);
  e->radius = get_size(r);
  e->feeler_length = get_size(r);
  e->slowing_radius = get_size(r);
  e->arrival_radius = get_size(r);
  e->panic_radius = get_f64(r);
  e->hysteresis = get_size(r);
  e->time_horizon = get_f64(r);
  if (!(e->time_horizon > 0))
    fail(r, "snapshot holds an invalid time horizon");
  const unsigned char *tag = take(r, STEER_TAG_SIZE);
  if (tag) memcpy(e->tag, tag, STEER_TAG_SIZE);
  e->tag[STEER_TAG_SIZE - 1] = '\0';
  if (!r->error && e->target.kind == STEER_TARGET_PATH && !e->target.path)
    fail(r, "snapshot refers to a missing path");
  e->groups = get_u32(r);
  e->fov = get_size(r);
  uint32_t falloff = get_u32(r);
  e->falloff = (steer_falloff)(falloff % STEER_FALLOFF_COUNT);
  e->path_radius = get_f64(r);
  e->look_ahead = get_size(r);
  e->start = (long)(int64_t)get_u64(r);
  /* before version 6 avoid_agents kept no personal space; other entries
     keep the default they never use */
  if (r->version > 5)
    e->personal_space = get_size(r);
  else if (e->behavior == STEER_AVOID_AGENTS)
    e->personal_space = 0;
  if (r->version > 9) read_tactics(r, rs, e);
  if (falloff >= STEER_FALLOFF_COUNT || !(e->fov > 0 && e->fov <= 360) ||
      e->start < STEER_START_NEAREST || e->start > (long)SLOT_MAX)
    fail(r, "snapshot holds an invalid entry");
}

static void read_programs(reader *r, restoring *rs) {
  size_t n = read_table(r, rs, (void **)&rs->programs, sizeof(steer_program *),
                        &rs->program_cap, 32);
  for (size_t k = 0; k < n && !r->error; k++) {
    uint32_t combine = get_u32(r);
    double smoothing = get_f64(r), hold = get_size(r);
    uint32_t turn = get_u32(r);
    steer_orca orca;
    int has_orca = get_flag(r);
    if (has_orca) {
      orca.time_horizon = get_f64(r);
      orca.obstacle_time_horizon = get_f64(r);
      orca.neighbor_radius = get_f64(r);
      uint64_t most = get_u64(r);
      orca.max_neighbors = most > STEER_ORCA_MAX_NEIGHBORS ? SIZE_MAX
                                                           : (size_t)most;
      /* version 2 was written before the margin: its worlds ran without */
      orca.margin = r->version > 2 ? get_f64(r) : 0;
      uint64_t push = r->version > 3 ? get_u64(r) : 0; /* 3: none yet */
      orca.push = push > STEER_ORCA_MAX_PUSH ? SIZE_MAX : (size_t)push;
      uint32_t detour = r->version > 4 ? get_u32(r) : 0;
      orca.detour = detour > 1 ? -1 : (int)detour;
      orca.settle = 0; /* version 9: in the flags, last */
      if (steer_orca_check(&orca)) fail(r, "snapshot holds an invalid program");
    }
    size_t count = get_count(r, 8 * 18 + 8 + STEER_TAG_SIZE);
    /* smoothing 0, which Lua now refuses, restores as it was: older saves
       hold it and the C API takes it */
    if (combine >= STEER_COMBINE_COUNT || smoothing > 1 ||
        turn > STEER_TURN_TO_VELOCITY)
      fail(r, "snapshot holds an invalid program");
    if (r->error) return;
    size_t bytes = (count ? count : 1) * sizeof(steer_entry);
    steer_entry *entries = world_alloc(rs->w, NULL, 0, bytes);
    if (!entries) {
      fail(r, "not enough memory");
      return;
    }
    for (size_t e = 0; e < count; e++) {
      read_entry(r, rs, &entries[e]);
      entries[e].fit = read_entry_fit(r, rs, k, e, &entries[e]);
      entries[e].whiskers = listed(&rs->whiskered, k, e);
      if (entries[e].whiskers && entries[e].behavior != STEER_AVOID_WALLS)
        fail(r, "snapshot holds an invalid program");
    }
    steer_program *p =
        r->error ? NULL
                 : steer_program_create((steer_combine)combine,
                                        smoothing < 0 ? -1 : smoothing, hold,
                                        entries, count);
    for (size_t e = 0; e < count; e++) { /* the program holds its own */
      if (entries[e].target.kind == STEER_TARGET_SHARED)
        steer_point_release(entries[e].target.shared);
      if (entries[e].other.kind == STEER_TARGET_SHARED)
        steer_point_release(entries[e].other.shared);
    }
    world_alloc(rs->w, entries, bytes, 0);
    if (p && turn) steer_program_set_turn(p, (steer_turn)turn);
    if (!r->error && !p) fail(r, "not enough memory");
    if (p && has_orca) steer_program_set_orca(p, &orca); /* checked */
    if (p) rs->programs[rs->program_count++] = p;
  }
}

/* The waypoint an agent heads for must exist on the path it follows. */
static size_t get_waypoint(reader *r, const steer_path *path) {
  uint64_t k = get_u64(r);
  if (path ? k >= steer_path_count(path) : k != 0)
    fail(r, "snapshot holds a waypoint past the end of its path");
  return (size_t)k;
}

static int read_state(reader *r, steer_world *w, size_t i) {
  const steer_program *p = w->program[i];
  int has = get_flag(r);
  if (r->error) return 0;
  if (!has) {
    if (p && p->needs_state) return fail(r, "snapshot lacks a program state");
    return 1;
  }
  if (!p) return fail(r, "snapshot holds a state without a program");
  if (states_reserve(w, w->capacity, state_bytes(p)))
    return fail(r, "not enough memory");
  program_state *s = states_start(w, i, p);
  state_memory read, *m = program_remembers(p) ? state_memory_of(s, p) : &read;
  s->has_smoothed = get_flag(r);
  m->smoothed.x = get_f64(r);
  m->smoothed.y = get_f64(r);
  int64_t held = (int64_t)get_u64(r);
  m->hold_left = get_f64(r);
  m->held_force.x = get_f64(r);
  m->held_force.y = get_f64(r);
  int64_t winner = (int64_t)get_u64(r);
  if (held < -1 || held >= (int64_t)p->count || winner < -1 ||
      winner >= (int64_t)p->count)
    return fail(r, "snapshot holds an invalid program state");
  s->held = (int32_t)held;
  s->winner = (int32_t)winner;
  for (size_t k = 0; k < p->count; k++) {
    const steer_target *t = &p->entries[k].target;
    s->entries[k].waypoint =
        get_waypoint(r, t->kind == STEER_TARGET_PATH ? t->path : NULL);
    s->entries[k].active = get_flag(r);
  }
  return !r->error;
}

/* The fewest bytes an agent takes: its columns, its program's number and
   the flag of its cold state. */
#define SNAP_BYTES_F64 8
#define SNAP_BYTES_SIZE 8
#define SNAP_BYTES_U32 4
#define SNAP_BYTES_CLOCK 0 /* none before version 5 */
#define SNAP_BYTES_REF 0
#define SNAP_BYTES_LATE 0
#define SNAP_BYTES_NONE 0
#define COLUMN_SNAP_BYTES(name, type, snap) +SNAP_BYTES_##snap
#define AGENT_SNAPSHOT_MIN ((0 AGENT_COLUMNS(COLUMN_SNAP_BYTES)) + 8 + 4)

/* An agent column read back as PUT_COLUMN wrote it (REF columns start
   empty). */
#define GET_F64(dst) dst = get_f64(r);
#define GET_SIZE(dst) dst = get_size(r);
#define GET_U32(dst) dst = get_u32(r);
#define GET_CLOCK(dst) dst = r->version > 4 ? get_f64(r) : 0;
#define GET_REF(dst) dst = NULL;
#define GET_LATE(dst) dst = 0; /* version 9's flags, read last */
#define GET_NONE(dst) dst = 0;
#define GET_COLUMN(name, type, snap) GET_##snap(w->name[i])

static int read_agent(reader *r, restoring *rs, size_t i) {
  steer_world *w = rs->w;
  AGENT_COLUMNS(GET_COLUMN)
  states_clear(w, i);
  uint64_t program = get_u64(r);
  if (!r->error && w->slot_of[i] >= w->slot_count)
    return fail(r, "snapshot refers to a missing slot");
  if (program > rs->program_count)
    return fail(r, "snapshot refers to a missing program");
  if (r->error) return 0;
  if (program) {
    w->program[i] = rs->programs[program - 1];
    steer_program_retain(w->program[i]);
    if (w->program[i]->pushes) w->pushes = 1;
    if (w->program[i]->collide) w->collides = 1;
  }
  w->count = i + 1; /* from here on, destroying the world frees this agent */
  if (w->group_bit[i] & (w->group_bit[i] - 1))
    return fail(r, "snapshot holds an invalid group");
  /* a clock no run can reach: a detour forever, or none ever */
  if (!(w->orca_clock[i] >= -(DETOUR_TIME + DETOUR_REST) &&
        w->orca_clock[i] < DETOUR_AFTER))
    return fail(r, "snapshot holds an invalid standstill clock");
  w->ghosts += w->group_bit[i] == 0;
  steer_vec2 p = world_contain(w, v2(w->x[i], w->y[i]));
  if (p.x != w->x[i] || p.y != w->y[i])
    return fail(r, "snapshot holds a position outside the world");
  int has_ext = get_flag(r);
  if (r->error) return 0;
  if (!has_ext) {
    if (!w->group_bit[i]) /* a ghost keeps its group in its cold state */
      return fail(r, "snapshot lacks an agent's cold state");
    if (w->program[i] && w->program[i]->needs_ext)
      return fail(r, "snapshot lacks an agent's cold state");
    return 1;
  }
  agent_ext *e = ext_create(w, i);
  if (!e) return fail(r, "not enough memory");
  w->ext[i] = e;
  w->bodies = 1; /* perhaps: body_moves tells */
  e->wander_radius = get_size(r);
  e->wander_distance = get_size(r);
  e->wander_jitter = get_size(r);
  e->wander_angle = get_f64(r);
  e->rng = get_u32(r);
  uint64_t path = get_u64(r);
  if (path > rs->path_count)
    return fail(r, "snapshot refers to a missing path");
  if (r->error) return 0;
  if (path) {
    e->follow_path = rs->paths[path - 1];
    steer_path_retain(e->follow_path);
  }
  e->follow_index = get_waypoint(r, e->follow_path);
  agent_body *b = &e->body;
  b->angle = get_f64(r);
  b->angular_velocity = get_f64(r);
  b->max_turn_rate = get_size(r);
  b->max_angular_acceleration = get_size(r);
  b->min_speed = get_size(r);
  b->angular_force = get_f64(r);
  b->turn_velocity = get_flag(r);
  uint32_t ghost_group = get_u32(r);
  b->ghost_group = (int)(ghost_group & 31);
  if (!r->error && (angle_wrap(b->angle) != b->angle || ghost_group > 31))
    return fail(r, "snapshot holds an invalid orientation");
  return read_state(r, w, i);
}

/* Slots and agents must describe each other exactly: every live slot maps
   to the agent that names it, and the free list is a chain through the
   remaining slots. */
static int check_slots(reader *r, const steer_world *w) {
  size_t live = 0;
  for (size_t s = 0; s < w->slot_count; s++) {
    uint32_t i = w->slots[s].index;
    if (i < w->count && w->slot_of[i] == s) {
      if (w->slots[s].gen >= GEN_MAX)
        return fail(r, "snapshot holds an invalid slot");
      live++;
    }
  }
  if (live != w->count) return fail(r, "snapshot holds inconsistent slots");
  size_t steps = 0;
  for (uint32_t s = w->free_slot; s != SLOT_NONE; s = w->slots[s].index) {
    if (s >= w->slot_count || ++steps > w->slot_count ||
        w->slots[s].gen >= GEN_MAX)
      return fail(r, "snapshot holds an invalid free list");
    uint32_t i = w->slots[s].index;
    if (i != SLOT_NONE && i >= w->slot_count)
      return fail(r, "snapshot holds an invalid free list");
    if (w->slots[s].index < w->count &&
        w->slot_of[w->slots[s].index] == s)
      return fail(r, "snapshot lists a live slot as free");
  }
  return 1;
}

static void read_geometry(reader *r, geometry *g) {
  size_t slots = get_count(r, 12);
  uint32_t free_slot = get_u32(r);
  if (r->error) return;
  if (geometry_reserve(g, slots, 0, 0)) {
    fail(r, slots > GEO_SLOT_MAX ? "snapshot holds too many shapes"
                                 : "not enough memory");
    return;
  }
  for (size_t s = 0; s < slots; s++) {
    g->slots[s].kind = get_u32(r);
    g->slots[s].gen = get_u32(r);
    g->slots[s].index = get_u32(r);
    g->slots[s].birth = 0; /* present before any loop over the new world */
  }
  g->slot_count = slots;
  g->free_slot = free_slot;
  size_t obstacles = get_count(r, 32);
  if (r->error) return;
  if (geometry_reserve(g, slots, obstacles, 0)) {
    fail(r, "not enough memory");
    return;
  }
  for (size_t k = 0; k < obstacles; k++) {
    g->obstacles[k].x = get_f64(r);
    g->obstacles[k].y = get_f64(r);
    g->obstacles[k].radius = get_size(r);
    g->obstacles[k].handle = get_u64(r);
  }
  g->obstacle_count = r->error ? 0 : obstacles;
  size_t walls = get_count(r, 40);
  if (r->error) return;
  if (geometry_reserve(g, slots, obstacles, walls)) {
    fail(r, "not enough memory");
    return;
  }
  for (size_t k = 0; k < walls; k++) {
    g->walls[k].a.x = get_f64(r);
    g->walls[k].a.y = get_f64(r);
    g->walls[k].b.x = get_f64(r);
    g->walls[k].b.y = get_f64(r);
    g->walls[k].handle = get_u64(r);
    g->walls[k].solid_left = 0; /* version 8: in the flags, last */
  }
  g->wall_count = r->error ? 0 : walls;
  if (r->error) return;
  steer_status st = geometry_adopt(g);
  if (st == STEER_EINVAL) fail(r, "snapshot holds inconsistent shapes");
  if (st == STEER_ENOMEM) fail(r, "not enough memory");
}

static void read_world_body(reader *r, restoring *rs) {
  steer_world *w = rs->w;
  w->slot_count = get_count(r, 8);
  w->free_slot = get_u32(r);
  if (r->error) return;
  if (w->slot_count > SLOT_MAX) {
    fail(r, "snapshot holds too many slots");
    return;
  }
  if (world_grow(w, (void **)&w->slots, sizeof(slot_info), &w->slot_cap,
                 w->slot_count ? w->slot_count : 1)) {
    fail(r, "not enough memory");
    return;
  }
  for (size_t s = 0; s < w->slot_count; s++) {
    w->slots[s].index = get_u32(r);
    w->slots[s].gen = get_u32(r);
  }
  read_paths(r, rs);
  read_points(r, rs);
  read_formations(r, rs);
  read_grids(r, rs);
  read_flows(r, rs);
  read_entry_list(r, rs, &rs->unfitted, 13);
  read_entry_list(r, rs, &rs->whiskered, 15);
  read_programs(r, rs);
  /* each listed entry was met, in order: none past the programs */
  if (!r->error && (rs->unfitted.read != rs->unfitted.count ||
                    rs->whiskered.read != rs->whiskered.count))
    fail(r, "snapshot refers to a missing entry");
  size_t n = get_count(r, AGENT_SNAPSHOT_MIN);
  if (r->error) return;
  if (n > w->slot_count) {
    fail(r, "snapshot holds more agents than slots");
    return;
  }
  if (world_reserve_agents(w, n) ||
      grid_reserve(&w->grid, &w->alloc, n, w->x, w->y, w->count)) {
    fail(r, "not enough memory");
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (!read_agent(r, rs, i)) return;
  if (!check_slots(r, w)) return;
  read_geometry(r, &w->geo);
  if (r->error || r->version < 8) return;
  for (size_t k = 0; k < rs->program_count; k++) {
    uint32_t collide = get_u32(r);
    if (collide > 1) fail(r, "snapshot holds an invalid program");
    if (!r->error) steer_program_set_collide(rs->programs[k], (int)collide);
  }
  for (size_t k = 0; k < w->geo.wall_count && !r->error; k++) {
    uint32_t side = get_u32(r);
    if (side > 1) fail(r, "snapshot holds inconsistent shapes");
    if (!r->error) geometry_set_wall_solid(&w->geo, k, (int)side);
  }
  for (size_t i = 0; i < w->count; i++)
    if (w->program[i] && w->program[i]->collide) w->collides = 1;
  if (r->error || r->version < 9) return;
  for (size_t k = 0; k < rs->program_count && !r->error; k++) {
    uint32_t settle = get_u32(r);
    steer_program *p = rs->programs[k];
    const steer_orca *o = steer_program_orca(p);
    if (settle > 1 || (settle && !o)) fail(r, "snapshot holds an invalid program");
    if (r->error || !settle) continue;
    steer_orca with = *o;
    with.settle = 1;
    if (steer_program_set_orca(p, &with))
      fail(r, "snapshot holds an invalid program");
  }
  for (size_t i = 0; i < w->count && !r->error; i++) {
    uint32_t settled = get_u32(r);
    /* only an agent whose program settles can have settled */
    const steer_orca *o = w->program[i] ? steer_program_orca(w->program[i]) : NULL;
    if (settled > 1 || (settled && !(o && o->settle)))
      fail(r, "snapshot holds an invalid agent");
    w->orca_settled[i] = w->orca_settle_next[i] = (uint8_t)settled;
  }
  if (!r->error && r->version > 10) read_members(r, rs);
}

steer_world *steer_world_restore(const void *bytes, size_t n,
                                 steer_alloc_fn alloc, void *alloc_ud,
                                 const char **error) {
  reader r = {bytes, n, NULL, 0};
  const char *unread;
  if (!error) error = &unread; /* the caller wants no reason */
  /* the checksum covers everything before its own 8 bytes */
  if (n < 8 + 4 + 8 || memcmp(bytes, MAGIC, 8) != 0) {
    *error = "not a steer snapshot";
    return NULL;
  }
  uint64_t sum = 0xCBF29CE484222325ull, stored = 0;
  hash_bytes(&sum, bytes, n - 8);
  for (int k = 0; k < 8; k++)
    stored |= (uint64_t)((const unsigned char *)bytes)[n - 8 + k] << (8 * k);
  take(&r, 8);
  uint32_t version = get_u32(&r);
  r.version = version;
  if (version < OLDEST || version > VERSION) {
    *error = "unsupported snapshot version";
    return NULL;
  }
  if (sum != stored) {
    *error = "snapshot is corrupt or truncated (checksum mismatch)";
    return NULL;
  }
  r.left -= 8; /* the checksum is not part of the body */

  steer_world_def def = steer_world_def_default();
  def.alloc = alloc;
  def.alloc_ud = alloc_ud;
  def.cell_size = get_size(&r);
  def.seed = get_u32(&r);
  def.width = get_size(&r);
  def.height = get_size(&r);
  def.wrap = get_flag(&r);
  if (!r.error && (!(def.cell_size > 0) || (def.width > 0) != (def.height > 0) ||
                   (def.wrap && !(def.width > 0))))
    fail(&r, "snapshot holds an invalid world definition");
  if (r.error) {
    *error = r.error;
    return NULL;
  }
  restoring rs;
  memset(&rs, 0, sizeof rs);
  rs.w = steer_world_create(&def);
  if (!rs.w) {
    *error = "not enough memory";
    return NULL;
  }
  read_world_body(&r, &rs);
  if (!r.error && r.left != 0) fail(&r, "snapshot has trailing bytes");
  if (!r.error && world_sort_now(rs.w)) fail(&r, "not enough memory");
  rs.w->radius_loose = 1; /* the agents' radii were read as columns */
  world_radius_refresh(rs.w);
  /* the world holds its own references to paths, points and programs */
  for (size_t k = 0; k < rs.path_count; k++) steer_path_release(rs.paths[k]);
  for (size_t k = 0; k < rs.point_count; k++)
    steer_point_release(rs.points[k]);
  for (size_t k = 0; k < rs.program_count; k++)
    steer_program_release(rs.programs[k]);
  for (size_t k = 0; k < rs.formation_count; k++)
    steer_formation_release(rs.formations[k]);
  for (size_t k = 0; k < rs.flow_count; k++)
    steer_flowfield_release(rs.flows[k]);
  for (size_t k = 0; k < rs.grid_count; k++)
    steer_navgrid_release(rs.grids[k]);
  world_alloc(rs.w, rs.paths, rs.path_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.points, rs.point_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.programs, rs.program_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.formations, rs.formation_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.grids, rs.grid_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.flows, rs.flow_cap * sizeof(void *), 0);
  world_alloc(rs.w, rs.unfitted.items, rs.unfitted.cap * sizeof *rs.unfitted.items, 0);
  world_alloc(rs.w, rs.whiskered.items, rs.whiskered.cap * sizeof *rs.whiskered.items, 0);
  if (r.error) {
    steer_world_destroy(rs.w);
    *error = r.error;
    return NULL;
  }
  return rs.w;
}
