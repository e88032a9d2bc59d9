/* binding.h - what the Lua binding's files share. The binding validates
 * every argument, then calls the core (which asserts it in -DSTEER_DEBUG
 * builds). */
#ifndef STEER_BINDING_H
#define STEER_BINDING_H

#include "../steer.h"
#include "compat.h"

#define WORLD_MT "steer.World"
#define AGENT_MT "steer.Agent"
#define PROGRAM_MT "steer.Program"
#define PATH_MT "steer.Path"
#define POINT_MT "steer.SharedPoint"

/* The world userdata. Its user value is the world's "env" table:
   env[ENV_WORLD] = the world userdata itself, env[ENV_HANDLES] = weak
   id -> handle cache, env[ENV_DATA] = id -> the agent's own Lua table,
   env[ENV_REMOVED] = weak handle -> the own table of a removed agent (read
   only, kept while the game holds the handle), env[ENV_SHAPES] = the level's
   handle caches (level.c, made on first use).
   Every agent handle carries env as its user value, which pins the world. */
enum { ENV_WORLD = 1, ENV_HANDLES, ENV_DATA, ENV_REMOVED, ENV_SHAPES };

typedef struct lworld {
  steer_world *w;     /* NULL once the world is closed */
  steer_program *last_program; /* set_behaviors' last compile, shared */
  steer_id *found;    /* scratch for queries */
  size_t found_cap;
  unsigned found_gen; /* bumped by every query that refills found (guard.c) */
  size_t accounted;   /* world memory the Lua collector was told about */
  size_t snapshot_size; /* bytes of its last snapshot: the next one's room */
} lworld;

typedef struct lagent {
  lworld *box;        /* lives as long as the pinned world userdata */
  steer_id id;
} lagent;

typedef struct lpath {
  steer_path *path;
} lpath;

typedef struct lpoint {
  steer_point *point;
} lpoint;

/* A live agent resolved from a handle. */
typedef struct agent_ref {
  lworld *box;
  steer_world *w;
  size_t i;
  steer_id id;
} agent_ref;

/* The binding is layered as lauxlib under linit: check.c and base.c at the
   bottom (arguments, memory, types, handles, iterators), one file per type
   above them (world.c, agent.c, path.c, point.c, program.c, snapshot.c,
   nav.c, turn.c for the agents' orientation fields and methods, and
   forces.c for the stateless functions), module.c on top
   (luaopen_steer_core). The
   bottom calls no type; types call the bottom and each other's method
   tables; nothing calls up into module.c. */

/* ---- errors (check.c) -------------------------------------------------
   Messages follow Lua's own: "bad argument #2 to 'seek' (...)"; argument 0
   is a method's self: "calling 'seek' on bad self (...)". */
int arg_error(lua_State *L, const char *fname, int argn, const char *fmt, ...);
int type_error(lua_State *L, int idx, const char *fname, int argn,
               const char *expected);
/* The type of the value at idx as messages name it: one of steer's own
   userdata by its type ("steer.Obstacle"), anything else as Lua does
   ("userdata", "no value"). For "got %s" in every type message. */
const char *arg_typename(lua_State *L, int idx);
/* Raises steer_status_message(status) ("not enough memory", "invalid
   argument") unless status is STEER_OK. */
void check_status(lua_State *L, steer_status status);

/* ---- numbers (check.c): finite, |x| <= STEER_LIMIT unless NUM_FINITE ---- */
typedef enum number_kind {
  NUM_ANY,      /* finite, within the limit (positions, velocities, weights) */
  NUM_NONNEG,   /* and >= 0 (sizes, radii, speeds) */
  NUM_POSITIVE, /* and > 0 (dt, cell sizes) */
  NUM_FINITE    /* finite, of any size (forces that get clamped) */
} number_kind;
double check_num(lua_State *L, int idx, const char *fname, int argn);
double check_nonneg(lua_State *L, int idx, const char *fname, int argn);
double check_positive(lua_State *L, int idx, const char *fname, int argn);
double opt_nonneg(lua_State *L, int idx, const char *fname, int argn,
                  double def);
/* An optional boolean argument (nil or none: def), named `what` in its
   error ("fit must be a boolean, got number"). */
int opt_boolean(lua_State *L, int idx, const char *fname, int argn,
                const char *what, int def);
/* Raises for any non-nil argument from stack index idx on (argument argn
   and after): a call never drops an argument silently. */
void check_no_more(lua_State *L, int idx, const char *fname, int argn);
/* An integer-valued number, |n| <= 2^53. */
double check_integral(lua_State *L, int idx, const char *fname, int argn);
/* Any finite number, however large (for forces that get clamped). */
double check_finite(lua_State *L, int idx, const char *fname, int argn);
/* The same checks on a number already read (field of a table argument);
   `what` names the field in the message. */
double validate_num(lua_State *L, double v, number_kind kind,
                    const char *fname, int argn, const char *what);
/* What is wrong with v for kind (a message in buf), or NULL. */
const char *number_problem(double v, number_kind kind, char buf[96]);

/* Field `threads` of the option table at idx (steer.world, steer.restore):
   an integer 1..STEER_MAX_THREADS, or def when absent (world.c). */
int threads_field(lua_State *L, int idx, const char *fname, int argn, int def);
/* the optional field max_step: a positive number, or 0 when absent */
double max_step_field(lua_State *L, int idx, const char *fname, int argn);

/* ---- objects (check.c) ---------------------------------------------------- */
lworld *check_world(lua_State *L, int idx, const char *fname, int argn);
agent_ref check_agent(lua_State *L, int idx, const char *fname, int argn);
/* A live agent of the same world as `self`. */
agent_ref check_peer(lua_State *L, int idx, const agent_ref *self,
                     const char *fname, int argn);
steer_path *check_path(lua_State *L, int idx, const char *fname, int argn);
/* The steer_point of a steer.SharedPoint at idx, or NULL. */
steer_point *test_point(lua_State *L, int idx);
/* The forms a point may take, wherever one is asked for: x, y numbers,
   an agent (its position now; tracked live by programs), a
   steer.SharedPoint (likewise), {x, y} or {x =, y =}. */
#define POINT_FORMS \
  "number, steer.Agent, steer.SharedPoint, {x, y} or {x =, y =}"
/* A point at idx in any of POINT_FORMS (the agent of self's world, or of
   any world when self is NULL); *used tells how many stack slots it took
   (2 for x, y, else 1). */
steer_vec2 check_point(lua_State *L, int idx, const agent_ref *self,
                       const char *fname, int argn, int *used);
/* Reads the table at idx as {x, y} (when it has [1]) or {x =, y =} into *p
   (raw reads); returns NULL, or what is wrong ("y: number expected, got
   nil") in buf. The one place a new point type would be read. */
const char *table_point(lua_State *L, int idx, steer_vec2 *p, char buf[128]);
/* Is `key` a likely misspelling of field `name` (not name itself): the
   same but for case and underscores, or, for names of 5 letters or more,
   one letter added, dropped, replaced or two swapped? */
int is_typo(const char *key, const char *name);
/* For a tile or cost array of the wrong length: a hint when the table at
   idx holds tables (map[row][col]) where a flat array is expected, else
   "". */
const char *rows_hint(lua_State *L, int idx);
/* Remembers the table at idx as one given to steer.walls_from_tiles, where
   non-zero is solid, so that steer.navgrid, where 0 blocks, refuses it as
   its 'cost' (a weak set; nav.c). */
void nav_mark_tiles(lua_State *L, int idx);
/* The first of the names in known (NULL-ended) that key misspells
   (is_typo), or NULL. */
const char *typo_of(const char *key, const char *const known[]);
/* "'a', 'b' or 'c'" of a NULL-terminated list, in buf (cap bytes). */
const char *quoted_names(const char *const names[], char *buf, size_t cap);
/* The keys of the table at idx against known (NULL-ended): an unknown one
   raises "unknown <word> 'key'" with the name it is a typo of, or the
   names expected; keys that are not strings raise too when strict, else
   they are passed over. */
void check_names(lua_State *L, int idx, const char *const known[],
                 const char *word, int strict, const char *fname, int argn);
/* check_names for fields, not strict: "unknown field 'lop': expected
   'loop'", or "unknown field 'Loop': did you mean 'loop'?"; keys that are
   not strings (a path's points) are the caller's. */
void check_keys(lua_State *L, int idx, const char *const known[],
                const char *fname, int argn);

/* ---- memory (base.c) -------------------------------------------------------
   The binding's own C scratch goes through binding_alloc (ud: the calling
   state's hooks, hooks.h), which tests can make fail
   (steer.testing.fail_allocations); worlds allocate through
   hooks_world_alloc, the host's allocator counted per Lua state. */
void *binding_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* ---- types, handles, iterators (base.c) ------------------------------------ */
/* Creates metatable `name` with __name set, leaving it on the stack. */
void new_type(lua_State *L, const char *name);
/* Pushes the handle of agent `id`; env_idx is the world's env table. */
void push_agent(lua_State *L, int env_idx, lworld *box, steer_id id);
/* Handle caches, so that a C object the game holds comes back as the very
   same handle (handles compare equal): a weak-valued registry table named
   `cache`, C pointer -> handle. Weak values are cleared before a handle's
   finalizer runs (Lua 5.1 to 5.4, LuaJIT), so a cached handle is alive
   and still retains its object. handle_cache_open makes the table;
   handle_cache_push pushes cache[obj] (nil when none); handle_cache_set
   sets cache[obj] to the value at the top of the stack, left there. */
void handle_cache_open(lua_State *L, const char *cache);
void handle_cache_push(lua_State *L, const char *cache, const void *obj);
void handle_cache_set(lua_State *L, const char *cache, const void *obj);
/* Pushes an iterator over n agent ids (the live ones when it reaches
   them), which the caller writes through the returned pointer; fname (a
   string that lives on) names the call that made it in its errors. */
steer_id *push_id_iterator(lua_State *L, int env_idx, size_t n,
                           const char *fname);
/* Registers the iterators' metatable, steer.Iterator (base.c), before any
   push_id_iterator. */
void open_id_iterators(lua_State *L);
/* Which agents a query counts (steer_world_query_filtered); angle NAN:
   the facing of the agent the query is around. */
typedef struct query_filter {
  uint32_t groups;
  double fov, angle;
} query_filter;

/* ---- the types: each open_* registers its metatable ------------------------ */
void open_world(lua_State *L);  /* leaves nothing on the stack */
int l_world_new(lua_State *L);
/* Pushes a new world userdata (its env ready, box->w still NULL). */
lworld *push_world(lua_State *L);

void open_agent(lua_State *L);
/* Is the key at idx a name agents use themselves (a method or a field)? */
int agent_known_key(lua_State *L, int idx);
/* Fills the table at the top with what lua/steer/ffi.lua needs of
   steer.Agent: its metatable, methods, field and behavior codes. */
void set_agent_ffi_codes(lua_State *L);

void open_path(lua_State *L);
int l_path_new(lua_State *L);

void open_program(lua_State *L);
/* orca.c: an orca option (true, or a table of steer_orca fields) at idx
   into *out, raising with `what` and the field named; 0 for false/nil */
int read_orca(lua_State *L, int idx, const char *fname, int argn,
              const char *what, steer_orca *out);
void push_orca(lua_State *L, const steer_orca *o);
extern const luaL_Reg orca_agent_methods[];
int l_program_new(lua_State *L);
/* The program at idx (a table to compile or a steer.Program) for agents of
   `world`, with a reference for the caller. */
steer_program *program_arg(lua_State *L, int idx, lworld *world,
                           const char *fname, int argn);
/* p (a program just compiled from a table, one reference held), or the
   world's last such program when it is the same: the reference held is
   then to that one. */
steer_program *share_program(lworld *box, steer_program *p);
extern const luaL_Reg program_agent_methods[];

int l_restore(lua_State *L);
extern const luaL_Reg snapshot_world_methods[];
int l_path_new(lua_State *L);
/* ---- group and tactical behaviors (tactics.c, formation.c) ---- */
#define FORMATION_MT "steer.Formation"
/* Installs the agent methods and the steer.Formation type. */
void open_tactics(lua_State *L);
extern const luaL_Reg tactics_functions[]; /* steer.formation */
/* The formation at idx as a target for agents of *world (set from the
   formation's world when NULL; another world raises). `where` prefixes the
   messages ("" or a program's "entry 2 ('formation'): "). */
steer_target formation_target(lua_State *L, int idx, lworld **world,
                              const char *fname, int argn, const char *where);
/* Pushes a handle of formation f of world box (env: the world's env). */
void push_formation(lua_State *L, int env, lworld *box, steer_formation *f);

/* steer.point (point.c) */
int l_point_new(lua_State *L);
void open_point(lua_State *L);
/* Pushes a steer.SharedPoint for `point` (retained). */
void push_point(lua_State *L, steer_point *point);

/* orientation, groups, paths (turn.c): agent fields and methods */
extern const luaL_Reg turn_agent_methods[];
int turn_is_body_field(int code);  /* angle ... turn_velocity */
/* Does field `code` hold a plain number (not group, ghost, turn_velocity)? */
int turn_is_number_field(int code);
/* Is key one of the body fields world:add reads? */
int turn_is_def_key(const char *key);
/* The body field key likely misspells (is_typo), or NULL. */
const char *turn_misspelled_def_key(const char *key);
void turn_push_field(lua_State *L, const agent_ref *a, int code);
/* writes the value at stack index 3 into field `code` */
void turn_set_field(lua_State *L, const agent_ref *a, int code,
                    const char *key);
/* world:add's body fields of the table at idx into *d */
void turn_read_def(lua_State *L, int idx, steer_agent_def *d);
/* The body fields as world:add_many's columns: TURN_BODY_FIELDS of them,
   k = 0 .. TURN_BODY_FIELDS - 1: the name, a check of the value at idx
   (NULL, or what is wrong with it; the value as a number in *out) and
   where it goes in a definition. */
#define TURN_BODY_FIELDS 8
const char *turn_body_name(int k);
const char *turn_body_check(lua_State *L, int idx, int k, double *out,
                            char buf[96]);
void turn_def_set(steer_agent_def *d, int k, double v);
/* The optional filter table {groups = {...}, fov = deg [, angle = rad]} at
   idx; `angle` is the facing unless the table gives one. */
query_filter turn_read_filter(lua_State *L, int idx, const char *fname,
                              int argn, double angle);
/* The same taking only the keys `options` (NULL-ended, of groups, fov and
   angle): the filters of a:separation (groups, fov) and world:query_box. */
query_filter turn_read_filter_of(lua_State *L, int idx, const char *fname,
                                 int argn, double angle,
                                 const char *const options[]);

/* steer.seek, steer.clamp, ...: the stateless functions (forces.c) */
extern const luaL_Reg force_functions[];
/* Level geometry (level.c): its world and agent methods, installed after
   open_world and open_agent; steer.walls_from_tiles. */
void open_levels(lua_State *L);
extern const luaL_Reg level_functions[];
/* A containment region at idx - {x1, y1, x2, y2} (a box), a polygon
   {x1, y1, x2, y2, x3, y3, ...} or a list of points, or a steer.Path - as
   a loop path, whose steer.Path userdata is pushed (it owns the path).
   `where` prefixes the messages ("" or a program's "entry 2 ('contain'): "). */
steer_path *region_arg(lua_State *L, int idx, const char *fname, int argn,
                       const char *where);

#endif
