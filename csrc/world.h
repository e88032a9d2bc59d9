/* world.h - the world's layout, shared by the core's files (internal).
 *
 * Agents live in dense arrays, one per field (index 0..count-1), carved out
 * of one allocation so that growing them either fully succeeds or changes
 * nothing. Removing an agent moves the last one into its place.
 *
 * Ids are stable: id = gen * 2^26 + slot + 1. A slot maps to the agent's
 * current dense index; its generation counts how often it was reused, so a
 * stale id never matches a live agent.
 *
 * The core's files call only into files below them, bottom first:
 *   alloc, vec.h, invariant.h, threads, random, behaviors, status
 *   grid, path, flocking           (know nothing of worlds)
 *   geo_index, geometry, raycast,  (level geometry: know nothing of
 *     contain, tiles                worlds either)
 *   program                        (programs and their per-agent state)
 *   world                          (this layout: storage, ids, fields)
 *   agent, obstacles, neighbors    (one agent's behaviors)
 *   level                          (the world's geometry: handles, rays)
 *   agent_program                  (an agent's program and its force)
 *   crowd (crowd_quad), sort       (the step's kernel, the order by cell)
 *   step, snapshot, flat           (the whole world; FFI entry points)
 */
#ifndef STEER_WORLD_H
#define STEER_WORLD_H

#include "alloc.h"
#include "geometry.h"
#include "grid.h"
#include "invariant.h"
#include "program.h"
#include "steer.h"
#include "vec.h"

#define SLOT_BITS 26
#define SLOT_MAX ((uint32_t)1 << SLOT_BITS) /* slots per world */
#define GEN_MAX ((uint32_t)1 << 27)         /* keeps ids below 2^53 */
#define SLOT_NONE UINT32_MAX
#define NEAREST_SEEDS 16 /* a row of near_seeds: one cache line */

typedef struct slot_info {
  uint32_t index; /* dense index when live; next free slot when free */
  uint32_t gen;
} slot_info;

/* How an agent faces and turns (orientation.h); an agent without cold
   state has the defaults: angle 0, still, unlimited, no minimum speed. */
typedef struct agent_body {
  double angle;            /* (-pi, pi] */
  double angular_velocity; /* rad/s */
  double max_turn_rate, max_angular_acceleration, min_speed;
  double angular_force;    /* the program's angular steering this step */
  int turn_velocity;       /* the velocity turns at most max_turn_rate dt */
  int ghost_group;         /* a ghost's group (its group_bit is 0) */
} agent_body;

/* Cold per-agent state, allocated the first time an agent needs it. */
typedef struct agent_ext {
  double wander_radius, wander_distance, wander_jitter, wander_angle;
  uint32_t rng;
  steer_path *follow_path; /* the path a:follow last used, retained */
  size_t follow_index;     /* 0-based waypoint it heads for */
  agent_body body;         /* orientation and turn limits */
} agent_ext;

/* The per-agent columns, one dense array each, carved in this order out of
   one block (so wider elements come first, for alignment): X(name, element
   type, how a snapshot keeps it). Storing, growing, moving, sorting and
   snapshotting agents all walk this list, so a new per-agent field is one
   line here (a snapshotted one also bumps snapshot.c's VERSION and
   docs/SNAPSHOT.md). Snapshot kinds: F64 any number, SIZE a number >= 0,
   U32, REF a pointer snapshot.c writes with the agent's references, CLOCK
   a finite number that versions before 5 lack (read as 0), LATE a flag
   written after the geometry (versions before 9 lack it: 0), NONE step
   scratch, not kept (0 on restore). */
#define AGENT_COLUMNS(X)                                          \
  X(x, double, F64)                                               \
  X(y, double, F64)                                               \
  X(vx, double, F64)                                              \
  X(vy, double, F64)                                              \
  X(max_speed, double, SIZE)                                      \
  X(max_force, double, SIZE)                                      \
  X(radius, double, SIZE)                                         \
  X(orca_clock, double, CLOCK) /* ORCA's standstill (orca_agent.c) */ \
  X(ext, agent_ext *, REF)         /* cold state or NULL */       \
  X(program, steer_program *, REF) /* behavior program or NULL */ \
  X(slot_of, uint32_t, U32)        /* index -> slot */            \
  X(group_bit, uint32_t, U32) /* 1 << group; 0: a ghost, no one's neighbor */ \
  X(orca_settled, uint8_t, LATE) /* ORCA's settle as the step began */ \
  X(orca_settle_next, uint8_t, NONE) /* ... as the step decides */

#define AGENT_COLUMN_POINTER(name, type, snap) type *name;
/* bytes per agent over all columns */
#define AGENT_COLUMN_SIZE(name, type, snap) +sizeof(type)
#define AGENT_BYTES (0 AGENT_COLUMNS(AGENT_COLUMN_SIZE))

/* ORCA's static shapes per grid cell, built before a step's threads start
   (orca_cells.c): step scratch, live during the step only. block holds
   the cells' starts, their lists, then the shapes' coordinates as built. */
typedef struct shape_cells {
  uint32_t *block;
  size_t bytes;
  double *coords;
  size_t obstacles, walls; /* the geometry's counts as built */
  double lim;              /* the reach + body the lists hold for */
  double x0, y0, inv;      /* cell of p: (p - (x0, y0)) * inv */
  size_t nx, ny;
  int live;
  unsigned age; /* steps prepared (orca_cells_prepare) */
} shape_cells;

/* A pair of bodies ORCA's push may part (orca_push.c): i pushes; both:
   j pushes too (each takes half), else i takes all of it. */
typedef struct push_pair {
  uint32_t i, j;
  int both;
} push_pair;

/* The bodies a pusher's ORCA search found, at a step's start, near enough
   that the step's moves may bring them closer than the push keeps them
   (orca_push_far_apart): n of them, nearest first (PUSH_NEAR_UNKNOWN: not
   known); every other body was too far for that. */
#define PUSH_NEAR_KEPT 8
#define PUSH_NEAR_UNKNOWN UINT32_MAX
typedef struct push_near {
  uint32_t n;
  uint32_t j[PUSH_NEAR_KEPT];
} push_near;

struct steer_world {
  steer_world_def def;
  steer_allocator alloc; /* def's allocator; counts the world's bytes */

  /* agents, dense; all columns live in agent_block */
  size_t count, capacity;
  void *agent_block;
  /* program states, a slot per agent in agent order (states.h) */
  unsigned char *states, *states_spare;
  size_t state_stride, state_cap;
  AGENT_COLUMNS(AGENT_COLUMN_POINTER)

  slot_info *slots;
  size_t slot_count, slot_cap;
  uint32_t free_slot; /* head of the free list, SLOT_NONE when empty */

  steer_grid grid;  /* grid.sorted: agents ordered by bucket */

  geometry geo;      /* obstacles and walls, indexed (geometry.h) */

  struct steer_pool *pool; /* the step's threads, made at the first step */
  steer_vec2 *forces; /* step scratch: one force per agent */
  size_t forces_cap;
  uint32_t *order;    /* sort scratch: one index per agent */
  size_t order_cap;
  uint32_t *near_seeds; /* per slot, NEAREST_SEEDS slots: the agents its
                           last nearest_agents found (nearest.c) */
  size_t near_seeds_cap; /* slots that have a row of near_seeds */
  steer_stats stats;  /* of the last step */
  size_t ghosts;      /* agents with group_bit 0: neighbor walks skip them */
  int bodies;         /* an agent's body may have moved (a spin, a turn
                         limit, a minimum speed, a turning program) since
                         the world began: integration checks (body_moves) */
  int simd;           /* steer_world_set_simd's width; 0: the process's */
  int step_simd;      /* the width of the running step, read once at its start */
  int unsorted_steps; /* steps since the last sort of a world whose programs
                         read no other agents (step.c) */
  double radius_bound; /* at least every agent's radius: how far from a ray
                          an agent it hits can stand (level.c); raised as
                          radii grow, made exact by world_radius_refresh */
  int radius_loose;    /* a removal or a smaller radius may have left
                          radius_bound above every radius */
  shape_cells shape_cells; /* ORCA's shapes near each cell (orca_cells.c) */
  push_pair *push_pairs;   /* step scratch of ORCA's push (orca_push.c) */
  size_t push_pairs_cap;
  void *push_shapes;       /* the push's shapes near each agent (orca_push.c) */
  size_t push_shapes_cap;  /* in bytes */
  /* during a step: each pusher's near bodies at its start; NULL outside
     it, or when the step cannot tell (orca_push_prepare) */
  push_near *push_near;
  push_near *push_near_buf;
  size_t push_near_cap;
  double push_reach; /* a pusher's body takes farther ones than this plus
                        (1 - PUSH_SLOP) r_i + its own move */
  double push_slack; /* for the roundings of positions and distances */
  int push_skip; /* the step's moves cannot have brought a pusher's pair
                    closer than the push keeps them: no pair search */
  int pushes; /* an agent may have had a program with ORCA's push since the
                 world began: the step looks for pairs to push */
  /* collide.c: an agent may have had a program with `collide` since the
     world began; the step's start positions by slot; the pass's walls and
     obstacles near one agent */
  int collides;
  steer_vec2 *collide_from;
  size_t collide_from_cap;
  struct collide_shape *collide_near;
  size_t collide_near_cap;
};

/* Allocation through the world's allocator (alloc.h), bytes counted. */
static inline void *world_alloc(steer_world *w, void *ptr, size_t osize,
                                size_t nsize) {
  return alloc_bytes(&w->alloc, ptr, osize, nsize);
}
static inline steer_status world_grow(steer_world *w, void **arr, size_t size,
                                      size_t *cap, size_t need) {
  return alloc_grow(&w->alloc, arr, size, cap, need);
}

/* steer_world_offset inlined: the exported function is called through the
   PLT and returns its pair through memory, a stall in every walk. */
static inline steer_vec2 world_offset(const steer_world *w, steer_vec2 a,
                                      steer_vec2 b) {
  return geo_offset(&w->geo, a, b);
}

/* On a torus a wall spans at most the world along each axis: a longer one
   would meet itself (the Lua binding says so in its error). */
static inline int world_wall_fits(const steer_world *w, steer_vec2 a,
                                  steer_vec2 b) {
  return !w->def.wrap || (fabs(b.x - a.x) <= w->def.width &&
                          fabs(b.y - a.y) <= w->def.height);
}

static inline steer_vec2 world_pos(const steer_world *w, size_t i) {
  STEER_ASSERT(i < w->count);
  steer_vec2 p = {w->x[i], w->y[i]};
  return p;
}
static inline steer_vec2 world_vel(const steer_world *w, size_t i) {
  STEER_ASSERT(i < w->count);
  steer_vec2 v = {w->vx[i], w->vy[i]};
  return v;
}

/* Room for `need` agents in the agent arrays (nothing else changes). */
steer_status world_reserve_agents(steer_world *w, size_t need);

/* The agent's cold state, created on first use (NULL: out of memory). */
agent_ext *world_ext(steer_world *w, size_t i);
/* A new cold state for agent i, not attached yet (NULL: out of memory). */
agent_ext *ext_create(steer_world *w, size_t i);
void ext_free(steer_world *w, agent_ext *e);

/* The 0-based waypoint an entry with `start` (steer_entry.start) begins at
   for agent i: start itself (at most the last), or the nearest one. */
size_t path_start(const steer_world *w, size_t i, const steer_path *path,
                  long start);
/* Starts agent i's path entries at their `start` waypoints (its program
   and program state set: steer_agent_set_program, add_many). */
void program_state_begin(steer_world *w, size_t i);

/* Brings a position inside the world: wrapped on a torus, clamped into a
   bounded world, limited to +-STEER_LIMIT otherwise. */
steer_vec2 world_contain_any(const steer_world *w, steer_vec2 p);
/* world_contain_any, without its call for a bounded world's inside points
   (returned as they are; most positions a step moves are such points). */
static inline steer_vec2 world_contain(const steer_world *w, steer_vec2 p) {
  if (w->grid.mode == GRID_CLAMP && p.x >= 0 && p.x <= w->def.width &&
      p.y >= 0 && p.y <= w->def.height)
    return p;
  return world_contain_any(w, p);
}
/* A moved position *p, velocity *v inside the world's bounds: in a clamped
   world the velocity components that left it stop. */
static inline void world_keep_inside(const steer_world *w, steer_vec2 *p,
                                     steer_vec2 *v) {
  if (w->grid.mode == GRID_CLAMP) {
    if (p->x < 0 || p->x > w->def.width) v->x = 0;
    if (p->y < 0 || p->y > w->def.height) v->y = 0;
  }
  *p = world_contain(w, *p);
}

/* Agent i's position *p and velocity *v after force f for dt: docs/API.md
   section 1's pipeline (v2_integrate), then the world's bounds - in a
   clamped world the velocity components that left it stop. The agent is
   not changed (steer_agent_apply and the step's integration write it). */
static inline void world_integrate(const steer_world *w, size_t i,
                                   steer_vec2 f, double dt, steer_vec2 *p,
                                   steer_vec2 *v) {
  *p = world_pos(w, i);
  *v = world_vel(w, i);
  v2_integrate(p, v, f, w->max_speed[i], w->max_force[i], dt);
  world_keep_inside(w, p, v);
}

/* Writes agent i's position (already contained) and moves it in the grid. */
void world_place(steer_world *w, size_t i, steer_vec2 p);

/* Agent i's radius is r from now on: radius_bound follows. */
void world_set_radius(steer_world *w, size_t i, double r);
/* radius_bound made the largest radius again (a pass over the agents),
   when radius_loose: at the end of a step, and of a restore. */
void world_radius_refresh(steer_world *w);

#endif
