/* world.h - the world's layout, shared by the core's files (internal).
 *
 * Agents live in dense arrays, one per field (index 0..count-1), carved out
 * of one allocation so that growing them either fully succeeds or changes
 * nothing. Removing an agent moves the last one into its place.
 *
 * Ids are stable: id = gen * 2^26 + slot + 1. A slot maps to the agent's
 * current dense index; its generation counts how often it was reused, so a
 * stale id never matches a live agent.
 */
#ifndef STEER_WORLD_H
#define STEER_WORLD_H

#include "grid.h"
#include "vec.h"
#include "program.h"
#include "steer.h"

#define SLOT_BITS 26
#define SLOT_MAX ((uint32_t)1 << SLOT_BITS) /* slots per world */
#define GEN_MAX ((uint32_t)1 << 27)         /* keeps ids below 2^53 */
#define SLOT_NONE UINT32_MAX

typedef struct slot_info {
  uint32_t index; /* dense index when live; next free slot when free */
  uint32_t gen;
} slot_info;

/* Cold per-agent state, allocated the first time an agent needs it. */
typedef struct agent_ext {
  double wander_radius, wander_distance, wander_jitter, wander_angle;
  uint32_t rng;
  steer_path *follow_path; /* the path a:follow last used, retained */
  size_t follow_index;     /* 0-based waypoint it heads for */
  program_state *program;  /* bookkeeping of the agent's program */
} agent_ext;

typedef struct obstacle {
  double x, y, radius;
} obstacle;

typedef struct wall {
  steer_vec2 a, b;
} wall;

struct steer_world {
  steer_world_def def;
  size_t memory;

  /* agents, dense; all arrays live in agent_block */
  size_t count, capacity;
  void *agent_block;
  double *x, *y, *vx, *vy, *max_speed, *max_force, *radius;
  agent_ext **ext;   /* cold state or NULL */
  steer_program **program; /* behavior program or NULL */
  uint32_t *slot_of; /* index -> slot */

  slot_info *slots;
  size_t slot_count, slot_cap;
  uint32_t free_slot; /* head of the free list, SLOT_NONE when empty */

  steer_grid grid;
  int grid_sorted;   /* agents ordered by bucket, lists in index order */

  obstacle *obstacles;
  size_t obstacle_count, obstacle_cap;
  wall *walls;
  size_t wall_count, wall_cap;

  struct steer_pool *pool; /* the step's threads, made at the first step */
  steer_vec2 *forces; /* step scratch: one force per agent */
  size_t forces_cap;
  uint32_t *order;    /* sort scratch: one index per agent */
  size_t order_cap;
  steer_stats stats;  /* of the last step */
  int simd;           /* steer_world_set_simd's width; 0: the process's */
  int step_simd;      /* the width of the running step, read once at its start */
};

/* Allocation through the process-wide allocator (steer_set_allocator). */
void *steer_alloc(void *ptr, size_t osize, size_t nsize);

/* Allocation through the world's allocator, with byte accounting. */
void *world_alloc(steer_world *w, void *ptr, size_t osize, size_t nsize);
/* Grows *arr (elements of `size` bytes) so that it holds at least `need`;
   on failure *arr and *cap are unchanged. */
steer_status world_grow(steer_world *w, void **arr, size_t size, size_t *cap,
                        size_t need);

static inline steer_vec2 world_pos(const steer_world *w, size_t i) {
  steer_vec2 p = {w->x[i], w->y[i]};
  return p;
}
static inline steer_vec2 world_vel(const steer_world *w, size_t i) {
  steer_vec2 v = {w->vx[i], w->vy[i]};
  return v;
}

/* Orders the agents by grid bucket (stable) and relinks the grid: from then
   on every walk over neighbors depends only on the agents' order and state.
   dest: scratch of one uint32 per agent. world_sort_now uses w->order,
   growing it first (the only way it can fail). */
struct steer_pool;
/* (the key pass may be split between `parts` threads of `pool`) */
void world_sort(steer_world *w, uint32_t *dest, struct steer_pool *pool,
                int parts);
steer_status world_sort_now(steer_world *w);

/* Room for `need` agents in the agent arrays (nothing else changes). */
steer_status world_reserve_agents(steer_world *w, size_t need);

/* The agent's cold state, created on first use (NULL: out of memory). */
agent_ext *world_ext(steer_world *w, size_t i);
/* A new cold state for agent i, not attached yet (NULL: out of memory). */
agent_ext *ext_create(steer_world *w, size_t i);
void ext_free(steer_world *w, agent_ext *e);

/* Brings a position inside the world: wrapped on a torus, clamped into a
   bounded world, limited to +-STEER_LIMIT otherwise. */
steer_vec2 world_contain(const steer_world *w, steer_vec2 p);
/* The force toward the waypoint *waypoint of `path`, advancing it when the
   agent is within arrival_radius (not past the last one of an open path).
   The last waypoint is arrived at when arrive_last, else sought. */
steer_vec2 path_force(const steer_world *w, size_t i, const steer_path *path,
                      size_t *waypoint, double arrival_radius,
                      double slowing_radius, int arrive_last);
/* Flocking: the sums a neighbor walk gathers (rules in program.h). */
typedef struct flock_sums {
  steer_vec2 sep, vel, off; /* separation, velocities, offsets q - p */
  size_t sep_n, ali_n, coh_n;
} flock_sums;

/* One candidate at offset (dx, dy) moving at (vx, vy). */
static inline void flock_take(const flock_rules *q, flock_sums *s, double dx,
                              double dy, double vx, double vy) {
  double d2 = dx * dx + dy * dy;
  if (d2 <= q->sep_hi && d2 > q->sep_lo) {
    /* normalize(p - q) / d = -(q - p) / d^2: one reciprocal */
    double inv = 1.0 / d2;
    s->sep.x -= dx * inv;
    s->sep.y -= dy * inv;
    s->sep_n++;
  }
  if (d2 <= q->ali2) {
    s->vel.x += vx;
    s->vel.y += vy;
    s->ali_n++;
  }
  if (d2 <= q->coh2) {
    s->off.x += dx;
    s->off.y += dy;
    s->coh_n++;
  }
}

/* A run of candidate indices seen shifted by (sx, sy) (torus images). */
typedef struct flock_span {
  size_t from, to;
  double sx, sy;
} flock_span;

/* The spans of the 3 x 3 cells around cell (cx, cy) of a sorted dense
   grid, row by row; returns how many (at most 9). */
int flock_spans(const steer_world *w, int32_t cx, int32_t cy,
                flock_span out[9]);
/* Adds to s the candidates of the spans (agent i itself left out);
   returns their number. */
size_t flock_span_walk(const steer_world *w, size_t i, const flock_rules *q,
                       const flock_span *spans, int n, flock_sums *s);

/* Radii < 0 leave a rule out. */
void flock_rules_init(flock_rules *q, double separation, double alignment,
                      double cohesion);
/* Can flock_gather take the sorted dense-grid path for these rules? */
int flock_fast_ok(const steer_world *w, const flock_rules *q);
void flock_gather(const steer_world *w, size_t i, const flock_rules *q,
                  int fast, flock_sums *s, steer_stats *stats);
/* Each rule's force from the sums (inline: the step calls them per agent). */
static inline steer_vec2 flock_separation_force(const flock_sums *s) {
  steer_vec2 f = {0, 0};
  if (s->sep_n) {
    f.x = s->sep.x / s->sep_n;
    f.y = s->sep.y / s->sep_n;
  }
  return f;
}

static inline steer_vec2 flock_alignment_force(const steer_world *w, size_t i,
                                               const flock_sums *s) {
  steer_vec2 f = {0, 0};
  if (s->ali_n) {
    f.x = s->vel.x / s->ali_n - w->vx[i];
    f.y = s->vel.y / s->ali_n - w->vy[i];
  }
  return f;
}

static inline steer_vec2 flock_cohesion_force(const steer_world *w, size_t i,
                                              const flock_sums *s) {
  steer_vec2 f = {0, 0};
  if (!s->coh_n) return f;
  steer_vec2 to_centre = {s->off.x / s->coh_n, s->off.y / s->coh_n};
  steer_vec2 desired = v2_scale(v2_normalize(to_centre), w->max_speed[i]);
  f.x = desired.x - w->vx[i];
  f.y = desired.y - w->vy[i];
  return f;
}

/* Forces of the agents of dense-grid row r (agents sorted by cell), into
   forces[i - base]: the crowd kernel walks the neighbors of programs with
   flocking entries (several agents at a time), then each program combines
   its entries as usual. */
void crowd_row_forces(steer_world *w, size_t r, double dt, steer_vec2 *forces,
                      size_t base, steer_stats *stats);
/* With AVX (crowd_quad.c; only where crowd_quad_available()): the sums of
   agents i .. i + m - 1 (m <= 4) of one cell sharing rules q, as
   flock_span_walk would give them, into sums[f * stride + lane] for
   f = sep.x, sep.y, vel.x, vel.y, off.x, off.y, sep_n, ali_n, coh_n (four
   slots each); and the forces of four agents index[0..3] of pure flocking
   program p from such sums (0 when a lane needs the scalar code). */
int crowd_quad_available(void);
void crowd_quad_walk(const steer_world *w, size_t i, int m,
                     const flock_rules *q, const flock_span *spans, int n,
                     double *sums, size_t stride);
int crowd_quad_force(const steer_world *w, const steer_program *p,
                     const double *sums, size_t stride, const size_t *index,
                     steer_vec2 out[4]);
/* Agents from .. to - 1 move by forces[0 .. to - from - 1]: the pipeline
   of API.md section 1 (v2_integrate), then the world's bounds. */
void crowd_integrate(steer_world *w, size_t from, size_t to,
                     const steer_vec2 *forces, double dt);
/* The process's SIMD width (steer_set_simd; else the widest). A step uses
   w->step_simd, chosen before its threads start. */
int crowd_simd_width(void);

/* Obstacle avoidance whose reach is obstacle + agent radius + extra. */
steer_vec2 avoid_obstacles(const steer_world *w, size_t i,
                           double feeler_length, double extra);

/* In a clamped world, zeroes the velocity components of a new position p
   that left the bounds (world_contain then clamps p). */
void world_stop_at_edges(const steer_world *w, steer_vec2 *p, steer_vec2 *v);

/* Writes agent i's position (already contained) and moves it in the grid. */
void world_place(steer_world *w, size_t i, steer_vec2 p);

#endif
