/*
 * steer.h - steering behaviors and flocking for game AI (Reynolds 1987/1999).
 *
 * This header is the whole public C API. It includes no Lua header: the Lua
 * binding in csrc/binding/ is one user of it among others.
 *
 * Conventions
 * - Everything is 2D and every number is a double.
 * - Mass is 1, so a steering force is an acceleration. Behaviors only compute a
 *   force; steer_integrate() (or steer_agent_apply()) applies it.
 * - Every number handed to steer must be finite with magnitude <= STEER_LIMIT.
 *   Inside that range no function produces NaN or infinity. The Lua binding
 *   checks this; C callers must check it themselves (a build with
 *   -DSTEER_DEBUG, as the sanitizer and fuzzing builds are, asserts it).
 * - Agents are addressed by a steer_id: a stable, 1-based, never reused
 *   number. Behavior functions take the agent's current dense index, which
 *   steer_world_index() resolves from an id; an index is valid until the next
 *   call that adds, removes or steps agents.
 */
#ifndef STEER_H
#define STEER_H

#include <stddef.h>
#include <stdint.h>

#define STEER_VERSION "0.1.0"

/* Marks the public functions: visible even in a build that hides the rest
   (-fvisibility=hidden), so LuaJIT's FFI can call them in the module. */
#if defined(__GNUC__)
#define STEER_API __attribute__((visibility("default")))
#else
#define STEER_API
#endif

/// Largest magnitude any input number may have. Squares of differences of such
/// numbers stay finite, so lengths and distance tests never overflow.
#define STEER_LIMIT 1e150

/// Most steps one steer_world_step splits a long dt into (def.max_step).
#define STEER_MAX_SUBSTEPS 64
/// Most threads a world's step may use.
#define STEER_MAX_THREADS 64

/// normalize() of a vector not longer than this is the zero vector.
#define STEER_EPSILON 1e-5

typedef struct steer_vec2 { double x, y; } steer_vec2;

typedef enum steer_status {
  STEER_OK = 0,
  STEER_ENOMEM,   /* an allocation failed; nothing was changed */
  STEER_EINVAL    /* bad argument (stale id, index out of range, ...) */
} steer_status;

/// What a status says, for messages: "not enough memory" (STEER_ENOMEM),
/// "invalid argument" (STEER_EINVAL), "ok", or "unknown status".
STEER_API const char *steer_status_message(steer_status s);

/* ------------------------------------------------------------------------ */
/* Vector helpers                                                           */

/// Length, computed without overflow or underflow for any finite vector.
STEER_API double steer_length(steer_vec2 v);
/// Unit vector along v; the zero vector when |v| <= STEER_EPSILON.
STEER_API steer_vec2 steer_normalize(steer_vec2 v);
/// v scaled down to length max when it is longer (|v|^2 > max^2).
STEER_API steer_vec2 steer_clamp(steer_vec2 v, double max);
/// a + (b - a) * t.
STEER_API steer_vec2 steer_lerp(steer_vec2 a, steer_vec2 b, double t);

/* ------------------------------------------------------------------------ */
/* Stateless behaviors (docs/API.md section 2): pure functions of their inputs.  */

/// clamp(normalize(t - p) * max_speed - v, max_force)
STEER_API steer_vec2 steer_seek(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                      double max_speed, double max_force);
/// As seek, fleeing from t.
STEER_API steer_vec2 steer_flee(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                      double max_speed, double max_force);
/// Seek whose desired speed ramps down linearly inside slowing_radius.
STEER_API steer_vec2 steer_arrive(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                        double max_speed, double max_force,
                        double slowing_radius);
/// Lookahead T = |t - p| / max_speed (0 when max_speed is 0, at most
/// STEER_LIMIT); the point pursue/evade aim at is t + tv * T.
STEER_API steer_vec2 steer_predict(steer_vec2 p, steer_vec2 t, steer_vec2 tv,
                         double max_speed);
/// seek(steer_predict(...))
STEER_API steer_vec2 steer_pursue(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                        steer_vec2 tv, double max_speed, double max_force);
/// flee(steer_predict(...))
STEER_API steer_vec2 steer_evade(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                       steer_vec2 tv, double max_speed, double max_force);
/// clamp(sum of weights[i] * forces[i], max_force)
STEER_API steer_vec2 steer_weighted(double max_force, const steer_vec2 *forces,
                          const double *weights, size_t n);
/// The first force with squared length > 1e-4, clamped; else zero.
STEER_API steer_vec2 steer_priority(double max_force, const steer_vec2 *forces, size_t n);
/// Running sum in order until its length reaches max_force; the force that
/// crosses the limit is cut to fit.
STEER_API steer_vec2 steer_prioritized_sum(double max_force, const steer_vec2 *forces,
                                 size_t n);
/// Adds f to the running total *sum without letting |*sum| pass max_force.
/// Returns 0 once the budget is used up (callers stop there).
STEER_API int steer_accumulate(steer_vec2 *sum, steer_vec2 f, double max_force);
/// forward * distance + (cos angle, sin angle) * radius, where forward is
/// normalize(v), or (1, 0) when |v|^2 <= 1e-4.
STEER_API steer_vec2 steer_wander_force(steer_vec2 v, double angle, double distance,
                              double radius);
/// The pipeline of docs/API.md section 1 (semi-implicit Euler, mass 1):
/// f = clamp(f, max_force); v = clamp(v + f dt, max_speed); p = p + v dt.
STEER_API void steer_integrate(steer_vec2 *p, steer_vec2 *v, steer_vec2 f,
                     double max_speed, double max_force, double dt);

/* ------------------------------------------------------------------------ */
/* Random numbers: the 32-bit LCG s = s * 1103515245 + 12345 (mod 2^32).   */

/// Advances *state and returns r = -1 + 2 * (s / 4294967295), in [-1, 1].
STEER_API double steer_rng_signed(uint32_t *state);
/// Advances *state and returns s / 4294967295, in [0, 1].
STEER_API double steer_rng_unit(uint32_t *state);
/// The generator state a new agent starts with, from the world seed and id.
STEER_API uint32_t steer_rng_seed_for(uint32_t world_seed, uint64_t id);

/* ------------------------------------------------------------------------ */
/* Paths: immutable polylines, reference counted (programs and agents that  */
/* follow a path keep it alive).                                            */

typedef struct steer_path steer_path;

/// NULL when n == 0 or memory runs out. The new path has one reference.
STEER_API steer_path *steer_path_create(const steer_vec2 *points, size_t n, int loop);
STEER_API void steer_path_retain(steer_path *path);
STEER_API void steer_path_release(steer_path *path);
STEER_API size_t steer_path_count(const steer_path *path);
STEER_API steer_vec2 steer_path_point(const steer_path *path, size_t i); /* 0-based */
STEER_API int steer_path_loops(const steer_path *path);

/* ------------------------------------------------------------------------ */
/* Worlds and agents                                                        */

typedef struct steer_world steer_world;
typedef struct steer_program steer_program; /* behavior programs, below */
typedef uint64_t steer_id;            /* 0 is never an agent */

/// Allocator with the shape of lua_Alloc: nsize == 0 frees, otherwise
/// returns a block of nsize bytes (NULL on failure, ptr left untouched).
typedef void *(*steer_alloc_fn)(void *ud, void *ptr, size_t osize,
                                size_t nsize);

typedef struct steer_world_def {
  double cell_size;        /* spatial grid cell side; default 5 */
  uint32_t seed;           /* seeds every agent's generator; default 1 */
  double width, height;    /* bounds; 0, 0 = unbounded (default) */
  int wrap;                /* with bounds: torus (1) or clamp inside (0) */
  int threads;             /* threads steer_world_step may use,
                              1..STEER_MAX_THREADS; results never depend
                              on it; default 1 */
  size_t capacity;         /* agents to make room for up front; default 0 */
  steer_alloc_fn alloc;    /* default: malloc/realloc/free */
  void *alloc_ud;
  double max_step;         /* steer_world_step(w, dt) with dt > max_step runs
                              n = ceil(dt / max_step) equal steps of dt / n
                              (n at most STEER_MAX_SUBSTEPS); 0 (default),
                              negative or NaN: always one step */
} steer_world_def;

typedef struct steer_agent_def {
  double x, y, vx, vy;     /* default 0 */
  double max_speed;        /* default 1 */
  double max_force;        /* default 1 */
  double radius;           /* default 0.5 */
  double wander_radius, wander_distance, wander_jitter; /* 1.2, 2, 0.5 */
  /* orientation (orientation.c): angle in (-pi, pi], default 0; rates in
     rad/s and rad/s^2, default STEER_LIMIT (unlimited); min_speed 0 */
  double angle, angular_velocity, max_turn_rate, max_angular_acceleration;
  double min_speed;
  int turn_velocity; /* the velocity turns at most max_turn_rate dt a step */
  int group;         /* 0..31, default 0 */
  int ghost;         /* never anyone's neighbor (markers, pointers) */
} steer_agent_def;

typedef enum steer_field {
  STEER_X, STEER_Y, STEER_VX, STEER_VY,
  STEER_MAX_SPEED, STEER_MAX_FORCE, STEER_RADIUS,
  STEER_WANDER_RADIUS, STEER_WANDER_DISTANCE, STEER_WANDER_JITTER,
  STEER_WANDER_ANGLE,
  STEER_ANGLE, STEER_ANGULAR_VELOCITY, STEER_MAX_TURN_RATE,
  STEER_MAX_ANGULAR_ACCELERATION, STEER_MIN_SPEED,
  STEER_GROUP,         /* integer 0..31 */
  STEER_GHOST,         /* 0 or 1 */
  STEER_TURN_VELOCITY, /* 0 or 1 */
  STEER_FIELD_COUNT
} steer_field;

/// Default wander parameters (docs/API.md section 3.5).
#define STEER_WANDER_RADIUS_DEFAULT 1.2
#define STEER_WANDER_DISTANCE_DEFAULT 2.0
#define STEER_WANDER_JITTER_DEFAULT 0.5

/// The allocator for paths, programs and worlds created without one
/// (NULL restores malloc/realloc/free). Set it before creating anything.
STEER_API void steer_set_allocator(steer_alloc_fn alloc, void *ud);

/// How many agents world steps walk at once in one SIMD register: 4 (AVX, where
/// the CPU has it), 2 (SSE2, x86-64) or 1. 0, or more than this machine offers,
/// picks the widest available; 3 means 2. Returns the width now used. Results
/// are bit-identical at every width (up to the sign of a zero): this is for tests
/// and comparisons. Set it while no world is stepping.
STEER_API int steer_set_simd(int width);

/// The allocator steer_set_allocator set (malloc/realloc/free by default), so
/// that a binding can wrap the host's allocator instead of replacing it.
STEER_API void steer_get_allocator(steer_alloc_fn *alloc, void **ud);
/// The SIMD width of this world's steps alone (as steer_set_simd; 0: the
/// process's). Each step reads it once, at its start. Returns the width used
/// (w NULL: only tells which width a request gives).
STEER_API int steer_world_set_simd(steer_world *w, int width);

STEER_API steer_world_def steer_world_def_default(void);
STEER_API steer_agent_def steer_agent_def_default(void);

/// NULL when memory runs out.
STEER_API steer_world *steer_world_create(const steer_world_def *def);
/// Frees the world (NULL is fine); the formations its agents were in lose
/// every member.
STEER_API void steer_world_destroy(steer_world *w);
/// Bytes currently allocated by the world.
STEER_API size_t steer_world_memory(const steer_world *w);
/// The definition the world was created with (cell_size as requested).
STEER_API steer_world_def steer_world_get_def(const steer_world *w);
/// Sets the threads steps may use (clamped to 1..STEER_MAX_THREADS); a
/// restored world starts with 1. Stops the current workers; the next step
/// that splits its work starts new ones. Results never depend on it.
STEER_API void steer_world_set_threads(steer_world *w, int threads);
/// Sets def.max_step (a restored world starts with 0: snapshots keep state,
/// not how the game steps it).
STEER_API void steer_world_set_max_step(steer_world *w, double max_step);

/// Adds an agent; *id receives its id. STEER_ENOMEM leaves the world as it was.
STEER_API steer_status steer_world_add(steer_world *w, const steer_agent_def *def,
                             steer_id *id);
/// Fills *out with the definition of the k-th agent of steer_world_add_many
/// (called twice per agent, with the same answer expected).
typedef void (*steer_def_fn)(void *ud, size_t k, steer_agent_def *out);
/// Adds n agents at once, each given program p (NULL: none), writing their
/// ids to ids (may be NULL). Everything is allocated first: STEER_ENOMEM
/// adds none and changes nothing. No definitions array is needed.
STEER_API steer_status steer_world_add_many(steer_world *w, size_t n,
                                            steer_def_fn def, void *ud,
                                            steer_program *p, steer_id *ids);
/// Removes a live agent (STEER_EINVAL for a stale id).
STEER_API steer_status steer_world_remove(steer_world *w, steer_id id);
/// Number of live agents.
STEER_API size_t steer_world_count(const steer_world *w);
/// Dense index 0..count-1 of a live agent, or -1 when the id is stale.
STEER_API long steer_world_index(const steer_world *w, steer_id id);
STEER_API steer_id steer_world_id_at(const steer_world *w, size_t index);
/// Iteration in a stable order that survives removals: pass 0 to start, then
/// the previous result; returns 0 at the end.
STEER_API steer_id steer_world_next_id(const steer_world *w, steer_id after);

STEER_API double steer_agent_get(const steer_world *w, size_t i, steer_field f);
/// Writes one field. Positions wrap (torus) or clamp (bounded world) and the
/// spatial grid follows. STEER_ENOMEM leaves the agent as it was.
STEER_API steer_status steer_agent_set(steer_world *w, size_t i, steer_field f,
                             double value);
STEER_API steer_vec2 steer_agent_position(const steer_world *w, size_t i);
STEER_API steer_vec2 steer_agent_velocity(const steer_world *w, size_t i);
/// |velocity|, and its direction atan2(vy, vx) in radians (0 when still).
STEER_API double steer_agent_speed(const steer_world *w, size_t i);
STEER_API double steer_agent_heading(const steer_world *w, size_t i);
/// Sets the generator state of the agent.
STEER_API steer_status steer_agent_seed(steer_world *w, size_t i, uint32_t state);

/// Direct read access to the agents' positions and velocities, indexed
/// 0..count-1 in the world's internal order (which adding, removing and
/// stepping change); returns count. Valid until the next call that adds,
/// removes or steps agents.
STEER_API size_t steer_world_columns(const steer_world *w, const double **x,
                                     const double **y, const double **vx,
                                     const double **vy);

/// The shortest offset from a to b (wrapped on a torus).
STEER_API steer_vec2 steer_world_offset(const steer_world *w, steer_vec2 a, steer_vec2 b);

/* Queries: the spatial grid answers them, never a scan of every agent. */

/// Calls visit(ud, index) for every agent whose centre is within radius of
/// (x, y), skipping the agent at index `exclude` (pass -1 for none). The
/// visitor may stop the query by returning nonzero. The world must not be
/// changed during the query.
typedef int (*steer_visit_fn)(void *ud, size_t index);
STEER_API void steer_world_query(const steer_world *w, double x, double y,
                       double radius, long exclude, steer_visit_fn visit,
                       void *ud);

/// steer_world_query counting only agents of `groups` (bit g: group g)
/// within a view cone of fov degrees around `angle` (fov 360: all round).
/// Ghost agents are never visited, by either query.
STEER_API void steer_world_query_filtered(const steer_world *w, double x,
                                          double y, double radius,
                                          long exclude, uint32_t groups,
                                          double fov, double angle,
                                          steer_visit_fn visit, void *ud);

/* Obstacles (circles) and walls (segments). Both return a 1-based number.
   In a wrapped world a wall (or polygon edge) longer than the world along
   either axis is STEER_EINVAL, for adding and for moving (it would meet
   itself). */
STEER_API steer_status steer_world_add_obstacle(steer_world *w, double x, double y,
                                      double radius, size_t *number);
STEER_API steer_status steer_world_add_wall(steer_world *w, steer_vec2 a, steer_vec2 b,
                                  size_t *number);
STEER_API size_t steer_world_obstacle_count(const steer_world *w);
STEER_API size_t steer_world_wall_count(const steer_world *w);
/// Obstacle i (0-based) as x, y, radius.
STEER_API void steer_world_obstacle(const steer_world *w, size_t i, double out[3]);
/// Wall i (0-based) as x1, y1, x2, y2.
STEER_API void steer_world_wall(const steer_world *w, size_t i, double out[4]);
STEER_API void steer_world_clear_obstacles(steer_world *w);
STEER_API void steer_world_clear_walls(steer_world *w);
/// Wall i (0-based) one-sided, solid on the left of its first end -> second
/// end (y up; steer_walls_from_tiles makes such segments), or two-sided (0,
/// the default). Collide and avoid_walls move an agent found on the solid
/// side out to the open side (docs/API.md 3.6).
STEER_API void steer_world_set_wall_solid_left(steer_world *w, size_t i,
                                               int solid_left);
STEER_API int steer_world_wall_solid_left(const steer_world *w, size_t i);

/* ------------------------------------------------------------------------ */
/* Level geometry (docs/API.md, levels): every obstacle and wall has a      */
/* handle, a polygon is walls under one handle; all of it is indexed in     */
/* space, so avoidance and queries cost what is near them. On a torus an    */
/* obstacle's centre and a wall's first end are kept inside it (the second  */
/* end follows, so a wall may cross the seam).                              */

typedef uint64_t steer_shape; /* a handle; 0 is never one */
typedef enum steer_shape_kind {
  STEER_SHAPE_NONE, STEER_SHAPE_OBSTACLE, STEER_SHAPE_WALL,
  STEER_SHAPE_POLYGON
} steer_shape_kind;

/// The handle of obstacle i / wall i (0-based; a polygon's edge gives the
/// polygon's handle).
STEER_API steer_shape steer_world_obstacle_shape(const steer_world *w, size_t i);
STEER_API steer_shape steer_world_wall_shape(const steer_world *w, size_t i);
/// The kind of a live handle (STEER_SHAPE_NONE when removed) and, for an
/// obstacle or a wall, its 0-based index in *index (a polygon: its edges).
STEER_API steer_shape_kind steer_world_shape(const steer_world *w, steer_shape h,
                                             size_t *index);
/// Removes what the handle names (STEER_EINVAL when it is stale).
STEER_API steer_status steer_world_remove_shape(steer_world *w, steer_shape h);
/// Moves or resizes obstacle i / wall i; STEER_ENOMEM leaves it as it was.
STEER_API steer_status steer_world_set_obstacle(steer_world *w, size_t i, double x,
                                                double y, double radius);
STEER_API steer_status steer_world_set_wall(steer_world *w, size_t i, steer_vec2 a,
                                            steer_vec2 b);
/// n walls, from ends[2k] to ends[2k + 1], each under its own handle (in
/// order after the walls there are): all of them, or none (STEER_EINVAL for
/// a wall too long for the torus, STEER_ENOMEM).
STEER_API steer_status steer_world_add_walls(steer_world *w, const steer_vec2 *ends,
                                             size_t n);
/// The edges of a polyline (closed: the last point joins the first) as walls
/// under one handle; zero-length edges are left out.
STEER_API steer_status steer_world_add_polygon(steer_world *w, const steer_vec2 *points,
                                               size_t n, int closed, steer_shape *h);
/// Live handles of the kinds (a mask of 1 << steer_shape_kind) in a stable
/// order that survives removals: 0 starts, 0 ends.
STEER_API steer_shape steer_world_next_shape(const steer_world *w, unsigned kinds,
                                             steer_shape after);
/// How many shapes have been added so far (restored ones count 0): pass
/// the value read when a loop begins to steer_world_next_shape_born, and
/// the loop visits only the shapes present then (it ends even when it adds
/// shapes; those removed meanwhile are skipped).
STEER_API uint64_t steer_world_shape_births(const steer_world *w);
STEER_API steer_shape steer_world_next_shape_born(const steer_world *w,
                                                  unsigned kinds,
                                                  steer_shape after,
                                                  uint64_t births);
/// The boundary of the solid (non-zero) tiles of a w x h map as segments
/// out[2k] -> out[2k + 1], collinear edges merged, each with its solid side
/// on its left (y up). Tile (c, r) = solid[r * w + c] covers [ox + c cell,
/// ox + (c + 1) cell] x [oy + r cell, oy + (r + 1) cell]. Writes at most cap
/// segments, returns how many there are (out may be NULL to count).
STEER_API size_t steer_walls_from_tiles(const unsigned char *solid, size_t w,
                                        size_t h, double cell, double ox,
                                        double oy, steer_vec2 *out, size_t cap);

/// What a ray cast looks at (a mask).
enum { STEER_RAY_WALLS = 1, STEER_RAY_OBSTACLES = 2, STEER_RAY_AGENTS = 4 };
typedef enum steer_hit_kind {
  STEER_HIT_NONE, STEER_HIT_WALL, STEER_HIT_OBSTACLE, STEER_HIT_AGENT
} steer_hit_kind;
typedef struct steer_ray_hit {
  double fraction;         /* along the ray, in [0, 1] */
  steer_vec2 point, normal; /* the normal faces the ray */
  steer_hit_kind kind;
  steer_shape shape;       /* the wall's or obstacle's handle */
  steer_id agent;          /* the agent hit */
} steer_ray_hit;
/// The nearest hit on the segment a -> b (on a torus: to the nearest image
/// of b) among `kinds`, leaving out agent `ignore` (0: none) and ghosts. A ray that
/// starts inside a circle hits it at fraction 0 (on a torus the normal is
/// from the image nearest the start). Bounded work on a torus whatever the
/// radii and the torus's size; keep walls no longer than the torus on
/// either axis (the Lua binding refuses longer ones). Ties: walls, then
/// obstacles, then agents, then the lower index. Returns 0 when nothing is
/// hit.
STEER_API int steer_world_raycast(const steer_world *w, steer_vec2 a, steer_vec2 b,
                                  unsigned kinds, steer_id ignore,
                                  steer_ray_hit *hit);
/// steer_world_raycast that also passes through every wall and obstacle of
/// shape `ignore_shape` (an obstacle's, a wall's or a polygon's handle; 0:
/// none; a removed shape's handle names nothing): a tower's own polygon, a
/// door the caller treats as open.
STEER_API int steer_world_raycast_ignoring(const steer_world *w, steer_vec2 a,
                                           steer_vec2 b, unsigned kinds,
                                           steer_id ignore,
                                           steer_shape ignore_shape,
                                           steer_ray_hit *hit);
/// 1 when no wall or obstacle lies on the segment a -> b.
STEER_API int steer_world_line_of_sight(const steer_world *w, steer_vec2 a,
                                        steer_vec2 b);
/// Calls visit(ud, index) for every agent but ghosts whose centre lies in the box
/// [x1, x2] x [y1, y2] (on a torus: any image of it); the visitor may stop
/// the query by returning nonzero.
STEER_API void steer_world_query_box(const steer_world *w, double x1, double y1,
                                     double x2, double y2, steer_visit_fn visit,
                                     void *ud);

/* ------------------------------------------------------------------------ */
/* Agent behaviors: each returns a force for agent i and changes nothing but */
/* that agent's own bookkeeping (wander angle, generator, path progress).   */
/* Targets are points; on a torus the shortest wrapped offset is used.      */

STEER_API steer_vec2 steer_agent_seek(const steer_world *w, size_t i, steer_vec2 t);
/// panic_radius < 0: no panic radius. Outside it (d > panic_radius): zero.
STEER_API steer_vec2 steer_agent_flee(const steer_world *w, size_t i, steer_vec2 t,
                            double panic_radius);
STEER_API steer_vec2 steer_agent_arrive(const steer_world *w, size_t i, steer_vec2 t,
                              double slowing_radius);
STEER_API steer_vec2 steer_agent_pursue(const steer_world *w, size_t i, size_t target);
/// panic_radius as flee's, measured to the target agent's position now.
STEER_API steer_vec2 steer_agent_evade(const steer_world *w, size_t i, size_t target,
                                       double panic_radius);
/// Advances the agent's generator and wander angle. Needs the agent's cold
/// state, so it can fail with STEER_ENOMEM (then nothing changed).
STEER_API steer_status steer_agent_wander(steer_world *w, size_t i, steer_vec2 *force);
STEER_API steer_vec2 steer_agent_avoid_obstacles(const steer_world *w, size_t i,
                                       double feeler_length);
STEER_API steer_vec2 steer_agent_avoid_walls(const steer_world *w, size_t i,
                                   double feeler_length);
/// avoid_walls with Buckland's whiskers: two more feelers of half the
/// length at 45 degrees either side of the heading; the longest of the
/// three pushes (the deepest feeler's; ties: ahead, left, right), so never
/// shorter than avoid_walls' own.
STEER_API steer_vec2 steer_agent_avoid_walls_whiskers(const steer_world *w,
                                                      size_t i,
                                                      double feeler_length);
/// Containment in the polygon points[0 .. n-1] (even-odd rule): zero or
/// max_force long. Outside: toward the nearest boundary point. Inside: when
/// the feeler along the heading, max(feeler_length, speed^2 / max_force)
/// long, crosses an edge, from its tip toward the nearest point of the
/// first edge crossed; else zero (docs/API.md section 3.6).
STEER_API steer_vec2 steer_agent_contain(const steer_world *w, size_t i,
                                         const steer_vec2 *points, size_t n,
                                         double feeler_length);
/// Path following; the agent remembers its waypoint on `path` (following a
/// different path starts that one at its first waypoint).
STEER_API steer_status steer_agent_follow(steer_world *w, size_t i, steer_path *path,
                                double arrival_radius, double slowing_radius,
                                steer_vec2 *force);
/// Path following as a corridor of half-width path_radius: steers only when
/// the position predicted look_ahead seconds ahead leaves it (corridor.c).
/// Shares steer_agent_follow's path and waypoint.
STEER_API steer_status steer_agent_follow_corridor(steer_world *w, size_t i,
                                                   steer_path *path,
                                                   double path_radius,
                                                   double look_ahead,
                                                   double slowing_radius,
                                                   steer_vec2 *force);
/// The path agent i follows - through steer_agent_follow, else through its
/// program's first entry with a path target - with, in *index, the 0-based
/// waypoint it heads for; NULL when it follows none. A non-NULL `path`
/// restricts the search to that path.
STEER_API const steer_path *steer_agent_path(const steer_world *w, size_t i,
                                   const steer_path *path, size_t *index);
STEER_API steer_vec2 steer_agent_separation(const steer_world *w, size_t i,
                                  double radius);
STEER_API steer_vec2 steer_agent_alignment(const steer_world *w, size_t i, double radius);
STEER_API steer_vec2 steer_agent_cohesion(const steer_world *w, size_t i, double radius);
/* Orientation (orientation.c): angular accelerations (rad/s^2) that turn
   agent i within one step of dt the short way round toward an angle,
   within max_turn_rate and max_angular_acceleration. */
/// Toward the direction of point t (braking when t is at the agent).
STEER_API double steer_agent_face(const steer_world *w, size_t i, steer_vec2 t,
                                  double dt);
/// Toward the direction of the velocity (braking when still).
STEER_API double steer_agent_look_where_going(const steer_world *w, size_t i,
                                              double dt);
/// Toward agent `target`'s angle.
STEER_API double steer_agent_match_orientation(const steer_world *w, size_t i,
                                               size_t target, double dt);
/// steer_agent_apply with an angular acceleration as well (it may need the
/// agent's cold state: STEER_ENOMEM, then nothing changed).
STEER_API steer_status steer_agent_apply_turning(steer_world *w, size_t i, steer_vec2 f,
                                         double angular, double dt);
/// Sets the waypoint (0-based, < the path's count) agent i heads for on the
/// path it follows (as steer_agent_path finds it); STEER_EINVAL when it
/// follows none.
STEER_API steer_status steer_agent_set_path_index(steer_world *w, size_t i,
                                                  size_t k);
/// Applies the pipeline to agent i, keeps it inside the world (wrap or
/// clamp; on a clamped world the velocity loses its component into the
/// edge) and updates the grid.
STEER_API void steer_agent_apply(steer_world *w, size_t i, steer_vec2 f, double dt);

/* ------------------------------------------------------------------------ */
/* Flat entry points for LuaJIT FFI callers (flat.c): agents by id, scalars */
/* in, results in out[0..1]; each returns STEER_OK, STEER_EINVAL (a stale */
/* id or an unknown field) or STEER_ENOMEM (nothing changed).              */

/// Read-only pseudo fields of steer_flat_get, after the steer_field codes.
enum {
  STEER_FLAT_SPEED = 100, STEER_FLAT_HEADING, STEER_FLAT_POSITION,
  STEER_FLAT_VELOCITY
};
STEER_API steer_status steer_flat_seek(steer_world *w, steer_id id, double x,
                                       double y, double out[2]);
STEER_API steer_status steer_flat_flee(steer_world *w, steer_id id, double x,
                                       double y, double panic_radius,
                                       double out[2]);
STEER_API steer_status steer_flat_arrive(steer_world *w, steer_id id, double x,
                                         double y, double slowing_radius,
                                         double out[2]);
/// Pursue (evade = 0) or evade the agent `target`.
STEER_API steer_status steer_flat_pursue(steer_world *w, steer_id id,
                                         steer_id target, int evade,
                                         double out[2]);
STEER_API steer_status steer_flat_wander(steer_world *w, steer_id id,
                                         double out[2]);
/// rule: STEER_SEPARATION, STEER_ALIGNMENT or STEER_COHESION.
STEER_API steer_status steer_flat_flock(steer_world *w, steer_id id, int rule,
                                        double radius, double out[2]);
/// Obstacles (walls = 0) or walls.
STEER_API steer_status steer_flat_avoid(steer_world *w, steer_id id, int walls,
                                        double feeler_length, double out[2]);
STEER_API steer_status steer_flat_apply(steer_world *w, steer_id id, double fx,
                                        double fy, double dt);
/// A steer_field or a STEER_FLAT_* pseudo field into out.
STEER_API steer_status steer_flat_get(const steer_world *w, steer_id id,
                                      int field, double out[2]);
STEER_API steer_status steer_flat_set(steer_world *w, steer_id id, int field,
                                      double value);

/* ------------------------------------------------------------------------ */
/* Behavior programs (docs/API.md section 4): a list of behavior entries and how */
/* to combine them, run for every agent by steer_world_step. Programs are   */
/* immutable and reference counted, so a crowd can share one.               */

typedef enum steer_behavior {
  STEER_SEEK, STEER_FLEE, STEER_ARRIVE, STEER_PURSUE, STEER_EVADE,
  STEER_WANDER, STEER_AVOID_OBSTACLES, STEER_AVOID_WALLS, STEER_FOLLOW,
  STEER_SEPARATION, STEER_ALIGNMENT, STEER_COHESION,
  STEER_FLOW, /* along a flow field (steer_agent_flow) */
  STEER_AVOID_AGENTS, /* time-to-collision force (docs/API.md section 18) */
  /* group and tactical behaviors (tactics.c, formation.c) */
  STEER_OFFSET_PURSUIT, STEER_FOLLOW_LEADER, STEER_FORMATION,
  STEER_INTERPOSE, STEER_HIDE, STEER_QUEUE,
  STEER_CONTAIN, /* target: a looped path, the region (steer_agent_contain) */
  /* angular: they steer the angle, never the velocity (orientation.c) */
  STEER_FACE, STEER_LOOK_WHERE_GOING, STEER_MATCH_ORIENTATION,
  STEER_BEHAVIOR_COUNT
} steer_behavior;

typedef enum steer_combine {
  STEER_WEIGHTED, STEER_PRIORITY, STEER_PRIORITIZED_SUM, STEER_DITHER,
  STEER_COMBINE_COUNT
} steer_combine;

typedef enum steer_target_kind {
  STEER_TARGET_NONE, STEER_TARGET_POINT, STEER_TARGET_AGENT,
  STEER_TARGET_PATH,
  STEER_TARGET_FLOW, /* a flow field: for STEER_FLOW entries */
  STEER_TARGET_SHARED, /* a steer_point: wherever it is at the step */
  STEER_TARGET_FORMATION /* formation entries: the formation joined */
} steer_target_kind;

/* Shared moving targets (point.c): one point that many programs aim at;
   steer_point_set moves every program's target at once. Reference counted
   (programs retain theirs). */
typedef struct steer_point steer_point;
/// NULL when memory runs out. The new point has one reference.
STEER_API steer_point *steer_point_create(double x, double y);
STEER_API void steer_point_retain(steer_point *p);
STEER_API void steer_point_release(steer_point *p);
STEER_API void steer_point_set(steer_point *p, double x, double y);
STEER_API steer_vec2 steer_point_get(const steer_point *p);

/// What seek/flee/arrive/pursue/evade/follow aim at. An agent target is
/// tracked live; once that agent is removed the entry yields no force. A
/// path target is followed waypoint by waypoint (arrive slows down at the
/// last waypoint, seek does not).
typedef struct steer_target {
  steer_target_kind kind;
  steer_vec2 point;
  steer_id agent;
  steer_path *path; /* not owned here: programs retain their paths */
  struct steer_flowfield *field; /* the same for flow fields */
  steer_point *shared; /* STEER_TARGET_SHARED; retained likewise */
  struct steer_formation *formation; /* retained by programs, as paths */
} steer_target;

#define STEER_TAG_SIZE 32

/// How a separation neighbor at distance d within radius r pushes:
/// inverse (mean of -offset/d^2, the textbook's), linear (sum of
/// max_force (r - d)/r along the unit direction away: the same in any unit
/// of length) or inverse_square (mean of -offset/d^3).
typedef enum steer_falloff {
  STEER_FALLOFF_INVERSE, STEER_FALLOFF_LINEAR, STEER_FALLOFF_INVERSE_SQUARE,
  STEER_FALLOFF_COUNT
} steer_falloff;

/// steer_entry.start: begin at the waypoint nearest the agent.
#define STEER_START_NEAREST (-1L)
/// steer_entry.groups: every group.
#define STEER_ALL_GROUPS 0xFFFFFFFFu

typedef struct steer_entry {
  steer_behavior behavior;
  steer_target target;
  double weight;          /* 1 */
  double probability;     /* dither: chance to be consulted; 1 */
  double radius;          /* separation, alignment, cohesion */
  double feeler_length;   /* avoidance; 3 */
  double slowing_radius;  /* arrive, follow; 2 */
  double arrival_radius;  /* path waypoints; 0.6 */
  double panic_radius;    /* flee, evade; < 0 = none (default) */
  double hysteresis;      /* avoidance: extra reach once active; 0 */
  steer_vec2 offset;      /* offset_pursuit: (ahead, left) of the target */
  int fit;                /* offset_pursuit, follow_leader: the slot (the
                             spot behind) fitted to the level (docs/API.md
                             17.1, 17.2); 1 */
  int whiskers;           /* avoid_walls: two side feelers too
                             (steer_agent_avoid_walls_whiskers); 0; a
                             program keeps it as 0 or 1, and 0 for every
                             other behavior */
  steer_target other;     /* interpose: the second of `between` */
  double distance;        /* follow_leader 2, hide 1, queue 3 */
  double time_horizon;    /* avoid_agents; 3 */
  double personal_space;  /* avoid_agents: room kept beyond touching, a
                             share of the two radii's sum, >= 0; 0.5 */
  char tag[STEER_TAG_SIZE]; /* optional name, "" for none */
  uint32_t groups;        /* flocking: bit g set = group g counts; all */
  double fov;             /* view cone in degrees around the facing
                             (angle), (0, 360]: flocking 360, queue 90 */
  steer_falloff falloff;  /* separation; STEER_FALLOFF_INVERSE */
  double path_radius;     /* follow: corridor half-width; < 0 (default):
                             waypoint by waypoint */
  double look_ahead;      /* follow in a corridor: seconds predicted; 1 */
  long start;             /* path targets: 0-based waypoint to begin at,
                             or STEER_START_NEAREST; 0 */
} steer_entry;

/// An entry of behavior b with every parameter at its default.
STEER_API steer_entry steer_entry_default(steer_behavior b);
/// The force of flocking entry e (separation, alignment or cohesion: its
/// radius, groups, fov and falloff) alone for agent i, as a program computes
/// it (a:separation(r, filter)); zero for any other behavior.
STEER_API steer_vec2 steer_agent_flock(const steer_world *w, size_t i,
                                       const steer_entry *e);
/// Copies the entries (retaining their paths). smoothing in (0, 1] (1: no
/// smoothing, smaller: smoother) or < 0 for none (read back as -1); not
/// checked: 0 keeps the first force for good, as older programs could (their
/// snapshots restore so). hold >= 0 (priority only). NULL when smoothing is
/// NaN or above 1, when an entry's targets could not be kept by a snapshot
/// (`other` not none, a point, an agent or a shared point; a
/// STEER_FORMATION entry without a formation target, or a formation target
/// on another behavior), or when memory runs out.
STEER_API steer_program *steer_program_create(steer_combine combine, double smoothing,
                                    double hold, const steer_entry *entries,
                                    size_t n);
STEER_API void steer_program_retain(steer_program *p);
STEER_API void steer_program_release(steer_program *p);
STEER_API steer_combine steer_program_combine(const steer_program *p);
STEER_API double steer_program_smoothing(const steer_program *p);
STEER_API double steer_program_hold(const steer_program *p);
STEER_API size_t steer_program_count(const steer_program *p);
STEER_API const steer_entry *steer_program_entry(const steer_program *p, size_t k);
/// How a program turns agents besides its angular entries: when it has
/// any (face, look_where_going, match_orientation), they steer the angle.
typedef enum steer_turn {
  STEER_TURN_NONE,    /* only angular entries (face, ...) steer the angle */
  STEER_TURN_TO_VELOCITY /* without angular entries: the angle follows the
                            velocity within the limits */
} steer_turn;
/// Sets the program's turn mode; call it before any agent runs p.
STEER_API void steer_program_set_turn(steer_program *p, steer_turn turn);
STEER_API steer_turn steer_program_turn(const steer_program *p);
/// Walls stop the bodies of the program's agents (docs/API.md 3.6,
/// "Walls that stop bodies: collide"): after each step's moves an agent
/// never ends across a wall it was not across before, and is moved out of
/// walls and obstacles. Call it before any agent runs p.
STEER_API void steer_program_set_collide(steer_program *p, int collide);
STEER_API int steer_program_collide(const steer_program *p);
/// Same combine mode, parameters and entries (targets included).
STEER_API int steer_program_equal(const steer_program *a, const steer_program *b);

/// Gives agent i the program (retained; NULL clears). The agent's program
/// bookkeeping starts afresh. STEER_ENOMEM leaves the old program in place.
STEER_API steer_status steer_agent_set_program(steer_world *w, size_t i,
                                     steer_program *p);
STEER_API steer_program *steer_agent_program(const steer_world *w, size_t i);
/// Changes the target or weight of entry k of the agent's program without
/// touching other agents that share it (copy on write). STEER_EINVAL for a
/// target steer_program_create would refuse (a formation on another
/// behavior, another target on a formation entry).
STEER_API steer_status steer_agent_set_target(steer_world *w, size_t i, size_t k,
                                    steer_target t);
/// Changes the second target (interpose's `between`) of entry k, as
/// steer_agent_set_target (an agent or a point).
STEER_API steer_status steer_agent_set_other(steer_world *w, size_t i, size_t k,
                                             steer_target t);
STEER_API steer_status steer_agent_set_weight(steer_world *w, size_t i, size_t k,
                                    double weight);
/// The combined force of the agent's program now, advancing its
/// bookkeeping as a step would; zero without a program.
STEER_API steer_vec2 steer_agent_steering(steer_world *w, size_t i, double dt);
/// The entry that won the last priority/dither combination, or -1.
STEER_API long steer_agent_active_entry(const steer_world *w, size_t i);

/* ORCA (docs/API.md section 18): the velocity a program asks for, made the
   closest one that avoids the neighbors and the static geometry. */
#define STEER_ORCA_MAX_NEIGHBORS 64
typedef struct steer_orca {
  double time_horizon;          /* seconds of safety against agents; 5 */
  double obstacle_time_horizon; /* ... against obstacles and walls; 2 */
  double neighbor_radius;       /* agents considered within; < 0 (the
                                   default, -1): 4 body radii, at least 10 */
  size_t max_neighbors;         /* the nearest ones, <= 64; 10 */
  double margin; /* agents keep (r_i + r_j)(1 + margin) apart, in [0, 1]; 0.02 */
  size_t push;   /* sweeps that push overlapping bodies apart after a step,
                    <= STEER_ORCA_MAX_PUSH; 0: none (the default) */
  int detour;    /* an agent held still by others for 2 s steers 60 degrees
                    right of its way for 4 s; 1 (the default) or 0 */
  int settle;    /* agents that want one goal come to rest there, leaning
                    on those nearer it (docs/API.md 18.1.4); 0 (the
                    default) or 1 */
} steer_orca;
#define STEER_ORCA_MAX_PUSH 256

/// Whether agent i's program's `orca.settle` has it at rest (as of the last
/// step: docs/API.md 18.1.4).
STEER_API int steer_agent_settled(const steer_world *w, size_t i);

/// The defaults above.
STEER_API steer_orca steer_orca_default(void);
/// STEER_EINVAL unless both horizons are > 0 and <= STEER_LIMIT, the radius
/// is negative (automatic) or in [0, STEER_LIMIT], max_neighbors <= STEER_ORCA_MAX_NEIGHBORS, the
/// margin in [0, 1], push <= STEER_ORCA_MAX_PUSH and detour is 0 or 1.
STEER_API steer_status steer_orca_check(const steer_orca *o);
/// Gives a program just created (not shared yet) ORCA (NULL: none).
STEER_API steer_status steer_program_set_orca(steer_program *p,
                                              const steer_orca *o);
/// The program's ORCA parameters, NULL when it has none.
STEER_API const steer_orca *steer_program_orca(const steer_program *p);
/// The velocity closest to `preferred` in agent i's ORCA half-planes (its
/// neighbors and the static geometry), no faster than its max_speed; dt is
/// the time in which an overlap is to be resolved (> 0).
STEER_API steer_vec2 steer_agent_orca_velocity(const steer_world *w, size_t i,
                                               steer_vec2 preferred,
                                               const steer_orca *o, double dt);
/// The anticipatory force of agent i against the agents within radius: the
/// power law of the time to collision (Karamouzas, Skinner, Guy 2014), plus
/// a push from those within personal_space (a share of the radii's sum,
/// >= 0; 0.5 in programs) beyond touching.
STEER_API steer_vec2 steer_agent_avoid_agents(const steer_world *w, size_t i,
                                              double time_horizon,
                                              double radius,
                                              double personal_space);

typedef struct steer_stats {
  size_t agents;      /* agents stepped */
  size_t programs;    /* of which ran a program */
  size_t candidates;  /* neighbor candidates tested (grid cells walked) */
  size_t neighbors;   /* candidates within the radius */
} steer_stats;

/// One step for every agent: all forces from one snapshot of the world, then
/// every integration (agents without a program coast), then the grid.
/// STEER_ENOMEM (only possible when the world grew since the last step, so
/// only in the first of def.max_step's steps, or at the first step that
/// starts threads) leaves the world untouched.
STEER_API steer_status steer_world_step(steer_world *w, double dt);
/// Counters of the last step.
STEER_API steer_stats steer_world_stats(const steer_world *w);

/* ------------------------------------------------------------------------ */
/* Group and tactical behaviors (docs/API.md section 17; tactics.c,        */
/* formation.c). A leader, a hunter or the ends of an interposition are    */
/* poses: a position, a velocity and the angle of the local frame.         */

typedef struct steer_pose {
  steer_vec2 position, velocity;
  double angle; /* radians: x of the local frame points along it */
} steer_pose;

/// Agent i's pose: its position, velocity and facing - its angle (the
/// `angle` field, section 19; docs/API.md 17).
STEER_API steer_pose steer_agent_pose(const steer_world *w, size_t i);
/// Hold the point `offset` (x ahead, y left) of the leader's frame,
/// matching its velocity (docs/API.md 17.1); `fit` non-zero: that point
/// moved onto ground the agent can stand on, as a formation's slots are.
STEER_API steer_vec2 steer_agent_offset_pursuit(const steer_world *w, size_t i,
                                                steer_pose leader,
                                                steer_vec2 offset,
                                                double slowing_radius,
                                                int fit);
/// Arrive `distance` behind the leader; step aside when within `distance`
/// of the point `distance` ahead of it; plus separation over `radius`.
/// `fit` non-zero: the spot behind moved onto ground the agent can stand
/// on, as offset_pursuit's slot is.
STEER_API steer_vec2 steer_agent_follow_leader(const steer_world *w, size_t i,
                                               steer_pose leader,
                                               double distance, double radius,
                                               double slowing_radius, int fit);
/// Arrive at the midpoint of a and b predicted |midpoint - p| / max_speed
/// ahead.
STEER_API steer_vec2 steer_agent_interpose(const steer_world *w, size_t i,
                                           steer_pose a, steer_pose b,
                                           double slowing_radius);
/// Arrive at the nearest spot `distance` behind an obstacle's boundary as
/// seen from the hunter; evade it when there is no obstacle.
STEER_API steer_vec2 steer_agent_hide(const steer_world *w, size_t i,
                                      steer_pose hunter, double distance,
                                      double slowing_radius);
/// Brake behind the nearest agent within `distance` and a view cone of fov
/// degrees that is slower or too close (docs/API.md 17.6); else zero.
STEER_API steer_vec2 steer_agent_queue(const steer_world *w, size_t i,
                                       double distance, double fov,
                                       double slowing_radius);

/* Formations: slots in the frame of an anchor (an agent or a point),     */
/* members (agents of one world) assigned to slots minimizing the total   */
/* distance - optimally up to STEER_FORMATION_OPTIMAL members, greedily   */
/* beyond (docs/API.md 17.3). Reference counted, as paths.                */

typedef struct steer_formation steer_formation;
#define STEER_FORMATION_OPTIMAL 32
#define STEER_FORMATION_MAX_SLOTS 4096
typedef enum steer_formation_shape {
  STEER_FORMATION_LINE, STEER_FORMATION_COLUMN, STEER_FORMATION_WEDGE,
  STEER_FORMATION_CIRCLE,
  STEER_FORMATION_SHAPE_COUNT
} steer_formation_shape;

/// The n slots of a shape with the given spacing into out[0 .. n-1].
STEER_API void steer_formation_shape_slots(steer_formation_shape shape,
                                           double spacing, size_t n,
                                           steer_vec2 *out);
/// anchor: a point or an agent target. NULL when memory runs out or n is
/// above STEER_FORMATION_MAX_SLOTS. One reference.
STEER_API steer_formation *steer_formation_create(steer_target anchor,
                                                  const steer_vec2 *slots,
                                                  size_t n);
STEER_API void steer_formation_retain(steer_formation *f);
STEER_API void steer_formation_release(steer_formation *f);
STEER_API steer_target steer_formation_anchor(const steer_formation *f);
/// Moves the formation onto a new anchor (a point or an agent target of
/// the members' world; docs/API.md 17.3). Members keep their slots
/// (steer_formation_reassign reassigns them).
STEER_API void steer_formation_set_anchor(steer_formation *f,
                                          steer_target anchor);
STEER_API size_t steer_formation_slot_count(const steer_formation *f);
STEER_API steer_vec2 steer_formation_slot(const steer_formation *f, size_t k);
/// Members (agents whose program has a formation entry naming f) in the
/// order they joined.
STEER_API size_t steer_formation_member_count(const steer_formation *f);
STEER_API steer_id steer_formation_member(const steer_formation *f, size_t k);
/// The 0-based slot of member `id`, or -1 (not a member, or no slot left).
STEER_API long steer_formation_slot_of(const steer_formation *f, steer_id id);
/// Reassigns every member from the positions now.
STEER_API void steer_formation_reassign(steer_world *w, steer_formation *f);
/// The world point of slot k now (fitted to the level when the formation
/// fits its slots, for the radius of the member holding slot k, 0 when
/// none does: docs/API.md 17.3).
STEER_API steer_vec2 steer_formation_slot_position(const steer_world *w,
                                                   const steer_formation *f,
                                                   size_t k);
/// Whether slots are moved out of obstacles and back from walls (`fit`,
/// on for a new formation).
STEER_API void steer_formation_set_fit(steer_formation *f, int fit);
STEER_API int steer_formation_fit(const steer_formation *f);
/// Offset pursuit of agent i's slot (zero when it has none or the anchor
/// agent is gone).
STEER_API steer_vec2 steer_agent_formation(const steer_world *w, size_t i,
                                           const steer_formation *f,
                                           double slowing_radius);

/* Snapshots: the complete simulation state as bytes (format in
   docs/SNAPSHOT.md). Restoring continues bit-identically. */
typedef int (*steer_write_fn)(void *ud, const void *bytes, size_t n);
/// Writes the snapshot through `write` (a nonzero return aborts: EINVAL).
/// Tactics entries, formations (members and slots) and the flow fields
/// programs follow (with their grids, stale or not) are kept.
STEER_API steer_status steer_world_snapshot(steer_world *w, steer_write_fn write,
                                  void *ud);
/// A new world from a snapshot, or NULL with *error set to a message
/// (corrupt, truncated, unsupported version, out of memory). alloc may be
/// NULL for malloc.
STEER_API steer_world *steer_world_restore(const void *bytes, size_t n,
                                 steer_alloc_fn alloc, void *alloc_ud,
                                 const char **error);

/* ------------------------------------------------------------------------ */
/* Navigation on tile grids (navgrid.c, navmap.c, navinflate.c, astar.c,    */
/* flowfield.c, flow_steer.c). Cell (cx, cy), both from 0, covers [ox + cx  */
/* s, ox + (cx + 1) s) x [oy + cy s, oy + (cy + 1) s); the grid is closed:  */
/* the far edges x = ox + width s and y = oy + height s belong to the last  */
/* column and row (a world's closed bounds of the same size hold agents     */
/* there); beyond them is outside. A cell's cost is 0 (blocked) or in [1,   */
/* STEER_NAV_MAX_COST]: the price of entering it, times 1 for a straight    */
/* move and sqrt(2) for a diagonal one. A diagonal move needs both cells    */
/* beside it passable (no corner cutting). Grids and flow fields are        */
/* reference counted; a field retains its grid, a program its fields.       */

typedef struct steer_navgrid steer_navgrid;

#define STEER_NAV_MAX_SIDE 65536           /* cells per row or column */
#define STEER_NAV_MAX_CELLS (1 << 26)      /* cells per grid */
#define STEER_NAV_MAX_COST 1e9

/// A grid of width x height cells; costs is row-major (cell (cx, cy) at
/// cy * width + cx) or NULL for all 1. The caller checks the limits above,
/// cell_size > 0 and finite numbers. NULL when memory runs out.
STEER_API steer_navgrid *steer_navgrid_create(int width, int height,
                                              double cell_size,
                                              steer_vec2 origin,
                                              const double *costs);
/// Moving AI's map format ("type octile", "height H", "width W", "map",
/// then H lines of W characters; '.', 'G', 'S' cost 1, '@', 'O', 'T', 'W'
/// are blocked). NULL with *error set when the text is not such a map or
/// memory runs out.
STEER_API steer_navgrid *steer_navgrid_from_map(const char *text, size_t n,
                                                double cell_size,
                                                steer_vec2 origin,
                                                const char **error);
STEER_API void steer_navgrid_retain(steer_navgrid *g);
STEER_API void steer_navgrid_release(steer_navgrid *g);
STEER_API int steer_navgrid_width(const steer_navgrid *g);
STEER_API int steer_navgrid_height(const steer_navgrid *g);
STEER_API double steer_navgrid_cell_size(const steer_navgrid *g);
STEER_API steer_vec2 steer_navgrid_origin(const steer_navgrid *g);
/// Bytes the grid holds: 8 per cell, plus 48 per cell once a path was searched
/// (the search state, kept) and 1 per cell (with a border) once a search used
/// jump points.
STEER_API size_t steer_navgrid_memory(const steer_navgrid *g);
STEER_API double steer_navgrid_cost(const steer_navgrid *g, int cx, int cy);
/// Changes a cell's cost; flow fields computed before are stale from now on.
STEER_API void steer_navgrid_set_cost(steer_navgrid *g, int cx, int cy, double c);
/// The cell holding world point p: 1 and *cx, *cy, or 0 outside the grid.
STEER_API int steer_navgrid_cell_of(const steer_navgrid *g, steer_vec2 p,
                                    int *cx, int *cy);
STEER_API steer_vec2 steer_navgrid_center_of(const steer_navgrid *g, int cx, int cy);
/// A new grid of g's size, cell size and origin for a unit of the given
/// radius (world units, >= 0): a cell whose centre lies closer than radius
/// to the square of a blocked cell is blocked, and with edges so is one
/// whose centre lies closer than radius to the grid's outside edge; the
/// other cells keep their costs. g is unchanged; radius 0 gives a copy. An
/// exact Euclidean distance transform: O(cells) time and O(width) scratch
/// whatever the radius. NULL when memory runs out.
STEER_API steer_navgrid *steer_navgrid_inflated(const steer_navgrid *g,
                                                double radius, int edges);

/// Why steer_navgrid_path found no path.
typedef enum steer_nav_failure {
  STEER_NAV_FOUND = 0, STEER_NAV_START_OUTSIDE, STEER_NAV_GOAL_OUTSIDE,
  STEER_NAV_START_BLOCKED, STEER_NAV_GOAL_BLOCKED, STEER_NAV_UNREACHABLE
} steer_nav_failure;

/// A* from the cell of `from` to the cell of `to` (octile moves when
/// diagonal, else 4-neighbor moves; the heuristic is the octile or Manhattan
/// distance; ties go to the smaller heuristic, then the smaller cell
/// index; when every passable cell costs the same, the successors are jump
/// points: the same optimal cost). *path receives the cell centres of its
/// turning points (smooth: string-pulled through line of sight that touches
/// no blocked and no dearer cell), with `from` in place of the first centre
/// when the segment from `from` to the second point touches no blocked cell,
/// else before it, and `to` in place of or after the last centre in the
/// same way (an endpoint at its cell's centre changes nothing; one cell:
/// from, to, or one point when equal). *length is the returned path's
/// length and *cost the grid path's cost, both in world units (equal
/// without cell costs and with endpoints at cell centres). STEER_OK with *failure set tells why there is
/// no path (then *path is NULL); STEER_ENOMEM changes nothing.
STEER_API steer_status steer_navgrid_path(steer_navgrid *g, steer_vec2 from,
                                          steer_vec2 to, int smooth,
                                          int diagonal, steer_path **path,
                                          double *length, double *cost,
                                          steer_nav_failure *failure);
/// steer_navgrid_path with a clearance (world units, >= 0): with smooth, a
/// sight line must also keep at least `clearance` from every blocked cell
/// and from the grid's outside edge; so must the segments to the exact
/// endpoints (smooth or not). The unsmoothed grid path is the same whatever
/// the clearance (its cell centres keep half a cell from blocked cells).
STEER_API steer_status steer_navgrid_path_clearance(
    steer_navgrid *g, steer_vec2 from, steer_vec2 to, int smooth, int diagonal,
    double clearance, steer_path **path, double *length, double *cost,
    steer_nav_failure *failure);
/// Is the straight segment between the centres of two cells clear: every
/// cell it touches passable (at a grid corner, all four cells around it)?
STEER_API int steer_navgrid_line_of_sight(const steer_navgrid *g, int x0, int y0,
                                          int x1, int y1);

/* Flow fields: the cost to the nearest of several goals for every cell
   (Dijkstra over the octile moves above) and a direction per cell. */
typedef struct steer_flowfield steer_flowfield;

/// A field toward the goals (world points; those outside the grid or on
/// blocked cells reach nothing). 17 bytes per cell, plus 14 per cell while
/// it is computed (kept from the first steer_flowfield_set_goals on). NULL
/// when memory runs out.
STEER_API steer_flowfield *steer_flowfield_create(steer_navgrid *g,
                                                  const steer_vec2 *goals,
                                                  size_t n);
STEER_API void steer_flowfield_retain(steer_flowfield *f);
STEER_API void steer_flowfield_release(steer_flowfield *f);
STEER_API steer_navgrid *steer_flowfield_grid(const steer_flowfield *f);
/// Has a cost of its grid changed since the field was computed?
STEER_API int steer_flowfield_stale(const steer_flowfield *f);
/// Recomputes the field from the grid's costs now. STEER_ENOMEM changes nothing.
STEER_API steer_status steer_flowfield_update(steer_flowfield *f);
/// Gives the field new goals (as steer_flowfield_create's) and recomputes it
/// in place, as steer_flowfield_update: programs following it follow the new
/// goals from their next step. The first call keeps the computation's 14
/// bytes per cell, and the goals' room only grows, so that moving the goals
/// every frame allocates nothing. STEER_ENOMEM changes nothing.
STEER_API steer_status steer_flowfield_set_goals(steer_flowfield *f,
                                                 const steer_vec2 *goals,
                                                 size_t n);
/// The cost (world units) from the cell of p to the nearest goal; -1 when p
/// is outside the grid, on a blocked cell or cannot reach any goal.
STEER_API double steer_flowfield_distance(const steer_flowfield *f, steer_vec2 p);
/// The direction to move at p: bilinear between the four nearest cell
/// centres of the same kind (reachable or not), normalized; zero in a goal
/// cell and where no cell reaches a goal.
STEER_API steer_vec2 steer_flowfield_direction(const steer_flowfield *f, steer_vec2 p);
/// Agent i's force along the field: desired velocity = direction * max_speed,
/// slowed down linearly inside slowing_radius of the goal (by the field's
/// distance), arrive at the goal point in a goal cell; on a blocked or
/// unreachable cell, or outside the grid, the direction leads to the
/// nearest reachable cell at full speed; zero when no cell reaches a goal.
STEER_API steer_vec2 steer_agent_flow(const steer_world *w, size_t i,
                                      const steer_flowfield *f,
                                      double slowing_radius);

#endif
