/* world.c - world lifetime, agent storage, ids and field access. */
#include <math.h>
#include <string.h>
#include "neighbor_filter.h"
#include "orientation.h"
#include "formation.h"
#include "states.h"
#include "threads.h"
#include "world.h"
#include "collide.h"

steer_world_def steer_world_def_default(void) {
  steer_world_def d;
  memset(&d, 0, sizeof d);
  d.cell_size = 5;
  d.seed = 1;
  d.threads = 1;
  return d;
}

steer_agent_def steer_agent_def_default(void) {
  steer_agent_def d;
  memset(&d, 0, sizeof d);
  d.max_speed = 1;
  d.max_force = 1;
  d.radius = 0.5;
  d.wander_radius = STEER_WANDER_RADIUS_DEFAULT;
  d.wander_distance = STEER_WANDER_DISTANCE_DEFAULT;
  d.wander_jitter = STEER_WANDER_JITTER_DEFAULT;
  d.max_turn_rate = STEER_LIMIT;
  d.max_angular_acceleration = STEER_LIMIT;
  return d;
}

/* 1..STEER_MAX_THREADS, as a world's def.threads always is */
static int threads_in_range(int threads) {
  return threads < 1 ? 1 : threads > STEER_MAX_THREADS ? STEER_MAX_THREADS : threads;
}

steer_world *steer_world_create(const steer_world_def *def) {
  steer_world_def d = def ? *def : steer_world_def_default();
  if (!d.alloc) {
    steer_allocator process = alloc_process();
    d.alloc = process.fn;
    d.alloc_ud = process.ud;
  }
  steer_world *w = d.alloc(d.alloc_ud, NULL, 0, sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  d.threads = threads_in_range(d.threads);
  w->def = d;
  w->alloc.fn = d.alloc;
  w->alloc.ud = d.alloc_ud;
  w->alloc.bytes = sizeof *w;
  w->free_slot = SLOT_NONE;
  grid_init(&w->grid, d.cell_size, d.wrap, d.width, d.height);
  geometry_init(&w->geo, &w->alloc, d.cell_size, d.wrap, d.width, d.height);
  /* a crowd of known size gets exactly the room it needs, once */
  if (d.capacity > 0 &&
      (world_reserve_agents(w, d.capacity) ||
       world_grow(w, (void **)&w->slots, sizeof(slot_info), &w->slot_cap,
                  d.capacity) ||
       grid_reserve(&w->grid, &w->alloc, d.capacity, w->x, w->y, 0) ||
       world_grow(w, (void **)&w->order, sizeof(uint32_t), &w->order_cap,
                  d.capacity))) {
    steer_world_destroy(w);
    return NULL;
  }
  return w;
}

void ext_free(steer_world *w, agent_ext *e) {
  if (!e) return;
  steer_path_release(e->follow_path);
  world_alloc(w, e, sizeof *e, 0);
}

void steer_world_destroy(steer_world *w) {
  if (!w) return;
  for (size_t i = 0; i < w->count; i++) {
    ext_free(w, w->ext[i]);
    formation_world_gone(w->program[i]);
    steer_program_release(w->program[i]);
  }
  world_alloc(w, w->forces, w->forces_cap * sizeof(steer_vec2), 0);
  world_alloc(w, w->order, w->order_cap * sizeof(uint32_t), 0);
  world_alloc(w, w->near_seeds,
              w->near_seeds_cap * NEAREST_SEEDS * sizeof(uint32_t), 0);
  world_alloc(w, w->shape_cells.block, w->shape_cells.bytes, 0);
  world_alloc(w, w->push_pairs, w->push_pairs_cap * sizeof(push_pair), 0);
  world_alloc(w, w->push_shapes, w->push_shapes_cap, 0);
  world_alloc(w, w->push_near_buf, w->push_near_cap * sizeof(push_near), 0);
  collide_free(w);
  pool_destroy(w->pool);
  grid_free(&w->grid, &w->alloc);
  world_alloc(w, w->agent_block, w->capacity * AGENT_BYTES, 0);
  states_free(w);
  world_alloc(w, w->slots, w->slot_cap * sizeof(slot_info), 0);
  geometry_free(&w->geo);
  w->def.alloc(w->def.alloc_ud, w, sizeof *w, 0);
}

size_t steer_world_memory(const steer_world *w) { return w->alloc.bytes; }
steer_world_def steer_world_get_def(const steer_world *w) { return w->def; }

void steer_world_set_threads(steer_world *w, int threads) {
  threads = threads_in_range(threads);
  if (threads == w->def.threads) return;
  /* the pool was made for the old count: step.c makes the next one */
  pool_destroy(w->pool);
  w->pool = NULL;
  w->def.threads = threads;
}
void steer_world_set_max_step(steer_world *w, double max_step) {
  w->def.max_step = max_step;
}
size_t steer_world_count(const steer_world *w) { return w->count; }

/* ---- agent arrays ----------------------------------------------------- */

/* Each column's array in turn, from one block of cap agents. */
static void carve(steer_world *w, char *block, size_t cap) {
#define CARVE(name, type, snap)          \
  w->name = (type *)(void *)block;       \
  block += cap * sizeof(type);
  AGENT_COLUMNS(CARVE)
#undef CARVE
}

steer_status world_reserve_agents(steer_world *w, size_t need) {
  if (need <= w->capacity) return STEER_OK;
  size_t cap = w->capacity < 8 ? 16 : w->capacity + w->capacity / 2;
  if (cap < need) cap = need;
  if (cap > SIZE_MAX / AGENT_BYTES) return STEER_ENOMEM;
  if (w->state_stride && states_reserve(w, cap, 0)) return STEER_ENOMEM;
  char *block = world_alloc(w, NULL, 0, cap * AGENT_BYTES);
  if (!block) return STEER_ENOMEM;
  steer_world old = *w;
  carve(w, block, cap);
  size_t n = w->count;
  if (n > 0) { /* the first growth has no old arrays: memcpy(NULL) is UB */
#define COPY_COLUMN(name, type, snap) memcpy(w->name, old.name, n * sizeof(type));
    AGENT_COLUMNS(COPY_COLUMN)
#undef COPY_COLUMN
  }
  world_alloc(w, old.agent_block, old.capacity * AGENT_BYTES, 0);
  w->agent_block = block;
  w->capacity = cap;
  return STEER_OK;
}

/* ---- ids ---------------------------------------------------------------- */

static steer_id make_id(uint32_t slot, uint32_t gen) {
  return (steer_id)gen * SLOT_MAX + slot + 1;
}

static int slot_live(const steer_world *w, uint32_t slot) {
  uint32_t i = w->slots[slot].index;
  return i < w->count && w->slot_of[i] == slot;
}

long steer_world_index(const steer_world *w, steer_id id) {
  if (id == 0) return -1;
  uint32_t slot = (uint32_t)((id - 1) % SLOT_MAX);
  uint64_t gen = (id - 1) / SLOT_MAX;
  if (slot >= w->slot_count || w->slots[slot].gen != gen ||
      !slot_live(w, slot))
    return -1;
  return (long)w->slots[slot].index;
}

steer_id steer_world_id_at(const steer_world *w, size_t index) {
  uint32_t slot = w->slot_of[index];
  return make_id(slot, w->slots[slot].gen);
}

steer_id steer_world_next_id(const steer_world *w, steer_id after) {
  size_t slot = after == 0 ? 0 : (size_t)((after - 1) % SLOT_MAX) + 1;
  for (; slot < w->slot_count; slot++)
    if (slot_live(w, (uint32_t)slot))
      return make_id((uint32_t)slot, w->slots[slot].gen);
  return 0;
}

/* ---- positions ---------------------------------------------------------- */

static double wrap_coord(double v, double extent) {
  /* one lap either way, the common case, is exact without fmod (for v in
     [extent, 2 extent) the subtraction is exact, as fmod is) */
  if (v >= extent && v < 2 * extent)
    v -= extent;
  else if (v < 0 || v >= extent)
    v = fmod(v, extent);
  if (v < 0) v += extent;
  return v < extent ? v : 0; /* -tiny + extent can round up to extent */
}

static double clamp_coord(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

steer_vec2 world_contain_any(const steer_world *w, steer_vec2 p) {
  switch (w->grid.mode) {
  case GRID_WRAP:
    return v2(wrap_coord(p.x, w->def.width), wrap_coord(p.y, w->def.height));
  case GRID_CLAMP:
    return v2(clamp_coord(p.x, 0, w->def.width),
              clamp_coord(p.y, 0, w->def.height));
  default:
    return v2(clamp_coord(p.x, -STEER_LIMIT, STEER_LIMIT),
              clamp_coord(p.y, -STEER_LIMIT, STEER_LIMIT));
  }
}

void world_place(steer_world *w, size_t i, steer_vec2 p) {
  if (grid_move(&w->grid, (int32_t)i, w->x[i], w->y[i], p.x, p.y))
    w->grid.sorted = 0;
  w->x[i] = p.x;
  w->y[i] = p.y;
}

steer_vec2 steer_world_offset(const steer_world *w, steer_vec2 a,
                              steer_vec2 b) {
  return geo_offset(&w->geo, a, b); /* the geometry has the same torus */
}

static void ext_init(steer_world *w, size_t i, agent_ext *e);

/* ---- adding and removing ---------------------------------------------- */

/* Room for k more agents - slots beyond the free ones, the arrays -
   so that placing them cannot fail (the grid: reserve_grid, last). */
static steer_status reserve_more(steer_world *w, size_t k) {
  size_t reused = 0;
  for (uint32_t s = w->free_slot; s != SLOT_NONE && reused < k;
       s = w->slots[s].index)
    reused++;
  size_t fresh = k - reused;
  if (fresh > SLOT_MAX - w->slot_count) return STEER_ENOMEM;
  if ((fresh && world_grow(w, (void **)&w->slots, sizeof(slot_info),
                           &w->slot_cap, w->slot_count + fresh)) ||
      world_reserve_agents(w, w->count + k))
    return STEER_ENOMEM;
  return STEER_OK;
}

/* The grid's room for k more agents: the last step that may fail, since
   growing its buckets relinks it (the order the next sort gives). */
static steer_status reserve_grid(steer_world *w, size_t k) {
  return grid_reserve(&w->grid, &w->alloc, w->count + k, w->x, w->y,
                      w->count);
}

#ifdef STEER_DEBUG
/* The numbers of a definition are within the API's limits. */
static int agent_def_valid(const steer_agent_def *d) {
  const double any[] = {d->x, d->y, d->vx, d->vy};
  const double sizes[] = {d->max_speed, d->max_force, d->radius,
                          d->wander_radius, d->wander_distance,
                          d->wander_jitter};
  for (int k = 0; k < 4; k++)
    if (!STEER_IN_LIMIT(any[k])) return 0;
  for (int k = 0; k < 6; k++)
    if (!(sizes[k] >= 0 && sizes[k] <= STEER_LIMIT)) return 0;
  return 1;
}
#endif

/* Does the definition need cold state (wander or body parameters)? */
static int custom_wander(const steer_agent_def *d) {
  return d->wander_radius != STEER_WANDER_RADIUS_DEFAULT ||
         d->wander_distance != STEER_WANDER_DISTANCE_DEFAULT ||
         d->wander_jitter != STEER_WANDER_JITTER_DEFAULT || d->angle != 0 ||
         d->angular_velocity != 0 || d->max_turn_rate != STEER_LIMIT ||
         d->max_angular_acceleration != STEER_LIMIT || d->min_speed != 0 ||
         d->turn_velocity || d->ghost;
}

/* Adds an agent into reserved room; ext (or NULL) becomes its cold state. */
static steer_id place(steer_world *w, const steer_agent_def *d,
                      agent_ext *ext) {
  uint32_t slot = w->free_slot;
  if (slot == SLOT_NONE) {
    slot = (uint32_t)w->slot_count++;
    w->slots[slot].gen = 0;
  } else {
    w->free_slot = w->slots[slot].index;
  }
  size_t i = w->count++;
  w->slots[slot].index = (uint32_t)i;
  w->slot_of[i] = slot;
  steer_vec2 p = world_contain(w, v2(d->x, d->y));
  w->x[i] = p.x;
  w->y[i] = p.y;
  w->vx[i] = d->vx;
  w->vy[i] = d->vy;
  w->max_speed[i] = d->max_speed;
  w->max_force[i] = d->max_force;
  w->radius[i] = d->radius;
  if (d->radius > w->radius_bound) w->radius_bound = d->radius;
  w->orca_clock[i] = 0;
  w->orca_settled[i] = w->orca_settle_next[i] = 0;
  w->ext[i] = NULL;
  w->program[i] = NULL;
  states_clear(w, i);
  if (ext) {
    ext_init(w, i, ext);
    ext->wander_radius = d->wander_radius;
    ext->wander_distance = d->wander_distance;
    ext->wander_jitter = d->wander_jitter;
    ext->body.angle = angle_wrap(d->angle);
    ext->body.angular_velocity = d->angular_velocity;
    ext->body.max_turn_rate = d->max_turn_rate;
    ext->body.max_angular_acceleration = d->max_angular_acceleration;
    ext->body.min_speed = d->min_speed;
    ext->body.turn_velocity = d->turn_velocity != 0;
    ext->body.ghost_group = d->group & 31;
    w->ext[i] = ext;
    /* body_moves's own test: a wander-only ext keeps integration free of
       per-agent loads (programs that turn set it in set_behaviors) */
    if (ext->body.angular_velocity != 0 || ext->body.min_speed > 0 ||
        ext->body.turn_velocity)
      w->bodies = 1;
  }
  w->group_bit[i] = d->ghost ? 0 : (uint32_t)1 << (d->group & 31);
  w->ghosts += d->ghost != 0;
  grid_insert(&w->grid, (int32_t)i, p.x, p.y);
  w->grid.sorted = 0;
  return make_id(slot, w->slots[slot].gen);
}

steer_status steer_world_add(steer_world *w, const steer_agent_def *def,
                             steer_id *id) {
  steer_agent_def d = def ? *def : steer_agent_def_default();
  STEER_ASSERT(agent_def_valid(&d));
  /* every allocation first, so that a failure changes nothing */
  if (reserve_more(w, 1)) return STEER_ENOMEM;
  agent_ext *ext = NULL;
  if (custom_wander(&d) && !(ext = world_alloc(w, NULL, 0, sizeof *ext)))
    return STEER_ENOMEM;
  if (reserve_grid(w, 1)) {
    world_alloc(w, ext, sizeof *ext, 0);
    return STEER_ENOMEM;
  }
  steer_id added = place(w, &d, ext);
  if (id) *id = added;
  return STEER_OK;
}

steer_status steer_world_add_many(steer_world *w, size_t n,
                                  steer_def_fn def, void *ud, steer_program *p,
                                  steer_id *ids) {
  if (n == 0) return STEER_OK;
  if (n > SIZE_MAX / (2 * sizeof(void *))) return STEER_ENOMEM;
  /* the room, and every agent's cold state and program state, first */
  if (reserve_more(w, n) || formation_reserve(p, n)) return STEER_ENOMEM;
  int stateful = p && p->needs_state;
  if (stateful && states_reserve(w, w->capacity, state_bytes(p)))
    return STEER_ENOMEM;
  size_t bytes = n * sizeof(void *);
  agent_ext **exts = world_alloc(w, NULL, 0, bytes);
  if (!exts) return STEER_ENOMEM;
  size_t made = 0;
  int failed = 0;
  for (; made < n && !failed; made++) {
    steer_agent_def d;
    def(ud, made, &d);
    exts[made] = NULL;
    if ((custom_wander(&d) || (p && p->needs_ext)) &&
        !(exts[made] = world_alloc(w, NULL, 0, sizeof(agent_ext))))
      failed = 1;
  }
  if (failed || reserve_grid(w, n)) {
    for (size_t k = 0; k < made; k++)
      world_alloc(w, exts[k], sizeof(agent_ext), 0);
    world_alloc(w, exts, bytes, 0);
    return STEER_ENOMEM;
  }
  for (size_t k = 0; k < n; k++) {
    steer_agent_def d;
    def(ud, k, &d);
    STEER_ASSERT(agent_def_valid(&d));
    steer_id id = place(w, &d, exts[k]);
    if (ids) ids[k] = id;
    if (!p) continue;
    size_t i = w->count - 1;
    if (stateful) states_start(w, i, p);
    steer_program_retain(p);
    w->program[i] = p;
    if (p->turns) w->bodies = 1;
    if (p->pushes) w->pushes = 1;
    if (p->collide) w->collides = 1;
    program_state_begin(w, i); /* its path entries' start waypoints */
    formation_program_switch(w, i, NULL, p); /* room reserved above */
  }
  world_alloc(w, exts, bytes, 0);
  return STEER_OK;
}

void world_set_radius(steer_world *w, size_t i, double r) {
  w->radius_loose |= w->radius[i] >= w->radius_bound && r < w->radius[i];
  w->radius[i] = r;
  if (r > w->radius_bound) w->radius_bound = r;
}

void world_radius_refresh(steer_world *w) {
  if (!w->radius_loose) return;
  double most = 0;
  for (size_t i = 0; i < w->count; i++)
    if (w->radius[i] > most) most = w->radius[i];
  w->radius_bound = most;
  w->radius_loose = 0;
}

steer_status steer_world_remove(steer_world *w, steer_id id) {
  long found = steer_world_index(w, id);
  if (found < 0) return STEER_EINVAL;
  size_t i = (size_t)found, last = w->count - 1;
  uint32_t slot = w->slot_of[i];
  STEER_ASSERT(w->slots[slot].index == i);
  formation_program_switch(w, i, w->program[i], NULL); /* leaves them */
  ext_free(w, w->ext[i]);
  steer_program_release(w->program[i]);
  w->ghosts -= w->group_bit[i] == 0;
  w->radius_loose |= w->radius[i] >= w->radius_bound;
  grid_remove(&w->grid, (int32_t)i, w->x[i], w->y[i]);
  w->grid.sorted = 0;
  if (i != last) {
#define MOVE_LAST(name, type, snap) w->name[i] = w->name[last];
    AGENT_COLUMNS(MOVE_LAST)
#undef MOVE_LAST
    states_move(w, i, last);
    w->slots[w->slot_of[i]].index = (uint32_t)i;
    grid_relocate(&w->grid, (int32_t)last, (int32_t)i, w->x[i], w->y[i]);
  }
  states_clear(w, last); /* moved, or this agent's */
  w->count--;
  /* a slot whose generation would overflow is retired, never reused */
  if (++w->slots[slot].gen < GEN_MAX) {
    w->slots[slot].index = w->free_slot;
    w->free_slot = slot;
  } else {
    w->slots[slot].index = SLOT_NONE;
  }
  return STEER_OK;
}

/* ---- fields ------------------------------------------------------------ */

static void ext_init(steer_world *w, size_t i, agent_ext *e) {
  e->wander_radius = STEER_WANDER_RADIUS_DEFAULT;
  e->wander_distance = STEER_WANDER_DISTANCE_DEFAULT;
  e->wander_jitter = STEER_WANDER_JITTER_DEFAULT;
  e->wander_angle = 0;
  e->rng = steer_rng_seed_for(w->def.seed, steer_world_id_at(w, i));
  e->follow_path = NULL;
  e->follow_index = 0;
  body_init(&e->body);
}

agent_ext *ext_create(steer_world *w, size_t i) {
  agent_ext *e = world_alloc(w, NULL, 0, sizeof *e);
  if (e) ext_init(w, i, e);
  return e;
}

agent_ext *world_ext(steer_world *w, size_t i) {
  if (!w->ext[i]) w->ext[i] = ext_create(w, i);
  return w->ext[i];
}

double steer_agent_get(const steer_world *w, size_t i, steer_field f) {
  STEER_ASSERT(i < w->count);
  const agent_ext *e = w->ext[i];
  switch (f) {
  case STEER_X: return w->x[i];
  case STEER_Y: return w->y[i];
  case STEER_VX: return w->vx[i];
  case STEER_VY: return w->vy[i];
  case STEER_MAX_SPEED: return w->max_speed[i];
  case STEER_MAX_FORCE: return w->max_force[i];
  case STEER_RADIUS: return w->radius[i];
  case STEER_WANDER_RADIUS:
    return e ? e->wander_radius : STEER_WANDER_RADIUS_DEFAULT;
  case STEER_WANDER_DISTANCE:
    return e ? e->wander_distance : STEER_WANDER_DISTANCE_DEFAULT;
  case STEER_WANDER_JITTER:
    return e ? e->wander_jitter : STEER_WANDER_JITTER_DEFAULT;
  case STEER_WANDER_ANGLE: return e ? e->wander_angle : 0;
  case STEER_ANGLE: return body_of(w, i).angle;
  case STEER_ANGULAR_VELOCITY: return body_of(w, i).angular_velocity;
  case STEER_MAX_TURN_RATE: return body_of(w, i).max_turn_rate;
  case STEER_MAX_ANGULAR_ACCELERATION:
    return body_of(w, i).max_angular_acceleration;
  case STEER_MIN_SPEED: return body_of(w, i).min_speed;
  case STEER_TURN_VELOCITY: return body_of(w, i).turn_velocity;
  case STEER_GROUP: { /* a ghost's bit is 0: its body keeps the group */
    uint32_t bit = w->group_bit[i];
    int g = 0;
    if (!bit) return e ? e->body.ghost_group : 0;
    while (bit > 1) bit >>= 1, g++;
    return g;
  }
  case STEER_GHOST: return w->group_bit[i] == 0;
  default: return 0;
  }
}

steer_status steer_agent_set(steer_world *w, size_t i, steer_field f,
                             double value) {
  agent_ext *e;
  STEER_ASSERT(i < w->count && STEER_IN_LIMIT(value));
  if ((unsigned)f >= STEER_FIELD_COUNT) return STEER_EINVAL;
  switch (f) {
  case STEER_X:
    world_place(w, i, world_contain(w, v2(value, w->y[i])));
    return STEER_OK;
  case STEER_Y:
    world_place(w, i, world_contain(w, v2(w->x[i], value)));
    return STEER_OK;
  case STEER_VX: w->vx[i] = value; return STEER_OK;
  case STEER_VY: w->vy[i] = value; return STEER_OK;
  case STEER_MAX_SPEED: w->max_speed[i] = value; return STEER_OK;
  case STEER_MAX_FORCE: w->max_force[i] = value; return STEER_OK;
  case STEER_RADIUS: world_set_radius(w, i, value); return STEER_OK;
  case STEER_GROUP:
    if (!(value >= 0 && value <= 31 && value == (int)value))
      return STEER_EINVAL;
    if (w->group_bit[i]) {
      w->group_bit[i] = (uint32_t)1 << (int)value;
      return STEER_OK;
    }
    w->ext[i]->body.ghost_group = (int)value; /* a ghost has cold state */
    return STEER_OK;
  case STEER_GHOST: {
    int ghost = value != 0, was = w->group_bit[i] == 0;
    if (ghost == was) return STEER_OK;
    if (!(e = world_ext(w, i))) return STEER_ENOMEM;
    if (ghost) {
      e->body.ghost_group = (int)steer_agent_get(w, i, STEER_GROUP);
      w->group_bit[i] = 0;
      w->ghosts++;
    } else {
      w->group_bit[i] = (uint32_t)1 << e->body.ghost_group;
      w->ghosts--;
    }
    return STEER_OK;
  }
  default: break;
  }
  if (!(e = world_ext(w, i))) return STEER_ENOMEM;
  if (f == STEER_ANGULAR_VELOCITY || f == STEER_MIN_SPEED ||
      f == STEER_TURN_VELOCITY)
    w->bodies = 1;
  switch (f) {
  case STEER_WANDER_RADIUS: e->wander_radius = value; break;
  case STEER_WANDER_DISTANCE: e->wander_distance = value; break;
  case STEER_WANDER_JITTER: e->wander_jitter = value; break;
  case STEER_WANDER_ANGLE: e->wander_angle = value; break;
  case STEER_ANGLE: e->body.angle = angle_wrap(value); break;
  case STEER_ANGULAR_VELOCITY: e->body.angular_velocity = value; break;
  case STEER_MAX_TURN_RATE: e->body.max_turn_rate = value; break;
  case STEER_MAX_ANGULAR_ACCELERATION:
    e->body.max_angular_acceleration = value;
    break;
  case STEER_MIN_SPEED: e->body.min_speed = value; break;
  case STEER_TURN_VELOCITY: e->body.turn_velocity = value != 0; break;
  default: return STEER_EINVAL;
  }
  return STEER_OK;
}

size_t steer_world_columns(const steer_world *w, const double **x,
                           const double **y, const double **vx,
                           const double **vy) {
  if (x) *x = w->x;
  if (y) *y = w->y;
  if (vx) *vx = w->vx;
  if (vy) *vy = w->vy;
  return w->count;
}

steer_vec2 steer_agent_position(const steer_world *w, size_t i) {
  return world_pos(w, i);
}

steer_vec2 steer_agent_velocity(const steer_world *w, size_t i) {
  return world_vel(w, i);
}

double steer_agent_speed(const steer_world *w, size_t i) {
  return steer_length(world_vel(w, i));
}

double steer_agent_heading(const steer_world *w, size_t i) {
  return atan2(w->vy[i], w->vx[i]);
}

steer_status steer_agent_seed(steer_world *w, size_t i, uint32_t state) {
  agent_ext *e = world_ext(w, i);
  if (!e) return STEER_ENOMEM;
  e->rng = state;
  return STEER_OK;
}

/* ---- queries ------------------------------------------------------------ */

void steer_world_query(const steer_world *w, double x, double y,
                       double radius, long exclude, steer_visit_fn visit,
                       void *ud) {
  steer_world_query_filtered(w, x, y, radius, exclude, STEER_ALL_GROUPS, 360,
                             0, visit, ud);
}

void steer_world_query_filtered(const steer_world *w, double x, double y,
                                double radius, long exclude, uint32_t groups,
                                double fov, double angle,
                                steer_visit_fn visit, void *ud) {
  neighbor_filter f;
  neighbor_filter_init(&f, groups, fov, angle);
  int filtered = w->ghosts || groups != STEER_ALL_GROUPS || f.cone;
  steer_vec2 q = v2(x, y);
  if (w->grid.mode == GRID_WRAP) q = world_contain(w, q);
  double r2 = radius * radius;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, q.x, q.y, radius);
  for (int32_t j; (j = grid_cursor_next(&c)) >= 0;) {
    if (j == exclude) continue;
    steer_vec2 d = world_offset(w, q, world_pos(w, (size_t)j));
    if (v2_len2(d) > r2 ||
        (filtered && !neighbor_filter_pass(&f, w->group_bit[j], d.x, d.y)))
      continue;
    if (visit(ud, (size_t)j)) return;
  }
}

/* ---- where path entries start ------------------------------------------ */

/* "nearest" heads for the waypoint that ends the path's segment nearest the
   agent: an agent beside a segment (a path replanned from where it stands)
   goes on along it instead of turning back to the waypoint behind it. Only
   an open path's very start (projection at or before its first point) or a
   one-point path begins at the first waypoint. */
size_t path_start(const steer_world *w, size_t i, const steer_path *path,
                  long start) {
  size_t n = steer_path_count(path);
  if (start >= 0) return (size_t)start < n ? (size_t)start : n - 1;
  size_t segments = steer_path_loops(path) ? n : n - 1;
  if (n < 2) return 0;
  steer_vec2 p = world_pos(w, i);
  size_t best = 0;
  double best2 = 0;
  for (size_t k = 0; k < segments; k++) {
    steer_vec2 a = world_offset(w, p, steer_path_point(path, k));
    steer_vec2 ab = v2_sub(steer_path_point(path, (k + 1) % n),
                           steer_path_point(path, k));
    double len2 = v2_len2(ab), t = len2 > 0 ? -v2_dot(a, ab) / len2 : 0;
    if (t > 1) t = 1;
    if (!(t > 0)) t = 0; /* also NaN from an overflowing segment */
    double d2 = v2_len2(v2_add(a, v2_scale(ab, t)));
    size_t next = t == 0 && k == 0 && segments == n - 1 ? 0 : (k + 1) % n;
    if (k == 0 || d2 < best2) {
      best = next;
      best2 = d2;
    }
  }
  return best;
}

void program_state_begin(steer_world *w, size_t i) {
  const steer_program *p = w->program[i];
  program_state *s = world_state(w, i);
  if (!p || !s) return;
  for (size_t k = 0; k < p->count; k++)
    if (p->entries[k].target.kind == STEER_TARGET_PATH)
      s->entries[k].waypoint =
          path_start(w, i, p->entries[k].target.path, p->entries[k].start);
}
