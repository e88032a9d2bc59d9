/* binding.h - what the Lua binding's files share. The binding validates
 * every argument, then calls the core (which asserts it in -DSTEER_DEBUG
 * builds). */
#ifndef STEER_BINDING_H
#define STEER_BINDING_H

#include "../steer.h"
#include "compat.h"

#define WORLD_MT "steer.World"
#define AGENT_MT "steer.Agent"
#define PATH_MT "steer.Path"
#define POINT_MT "steer.SharedPoint"

/* The world userdata. Its user value is the world's "env" table:
   env[ENV_WORLD] = the world userdata itself, env[ENV_HANDLES] = weak
   id -> handle cache, env[ENV_DATA] = id -> the agent's own Lua table.
   Every agent handle carries env as its user value, which pins the world. */
enum { ENV_WORLD = 1, ENV_HANDLES, ENV_DATA };

typedef struct lworld {
  steer_world *w;     /* NULL once the world is closed */
  steer_program *last_program; /* set_behaviors' last compile, shared */
  steer_id *found;    /* scratch for queries */
  size_t found_cap;
} lworld;

typedef struct lagent {
  lworld *box;        /* lives as long as the pinned world userdata */
  steer_id id;
} lagent;

typedef struct lpath {
  steer_path *path;
} lpath;

/* A live agent resolved from a handle. */
typedef struct agent_ref {
  lworld *box;
  steer_world *w;
  size_t i;
  steer_id id;
} agent_ref;

/* ---- errors (check.c) -------------------------------------------------
   Messages follow Lua's own: "bad argument #2 to 'seek' (...)"; argument 0
   is a method's self: "calling 'seek' on bad self (...)". */
int arg_error(lua_State *L, const char *fname, int argn, const char *fmt, ...);
int type_error(lua_State *L, int idx, const char *fname, int argn,
               const char *expected);
/* Raises steer_status_message(status) ("not enough memory", "invalid
   argument") unless status is STEER_OK. */
void check_status(lua_State *L, steer_status status);

/* ---- numbers: finite, |x| <= STEER_LIMIT ------------------------------- */
double check_num(lua_State *L, int idx, const char *fname, int argn);
double check_nonneg(lua_State *L, int idx, const char *fname, int argn);
double check_positive(lua_State *L, int idx, const char *fname, int argn);
double opt_nonneg(lua_State *L, int idx, const char *fname, int argn,
                  double def);
/* An integer-valued number, |n| <= 2^53. */
double check_integral(lua_State *L, int idx, const char *fname, int argn);
/* Any finite number, however large (for forces that get clamped). */
double check_finite(lua_State *L, int idx, const char *fname, int argn);
/* The same checks on a number already read (field of a table argument);
   `what` names the field in the message. kind: 0 within the limit, 1 >= 0,
   2 > 0, 3 finite of any size. */
double validate_num(lua_State *L, double v, int kind, const char *fname,
                    int argn, const char *what);
/* What is wrong with v for kind (a message in buf), or NULL. */
const char *number_problem(double v, int kind, char buf[96]);
/* Is the key at idx a name agents use themselves (a method or a field)? */
int agent_known_key(lua_State *L, int idx);

/* ---- objects ------------------------------------------------------------ */
lworld *check_world(lua_State *L, int idx, const char *fname, int argn);
agent_ref check_agent(lua_State *L, int idx, const char *fname, int argn);
/* A live agent of the same world as `self`. */
agent_ref check_peer(lua_State *L, int idx, const agent_ref *self,
                     const char *fname, int argn);
steer_path *check_path(lua_State *L, int idx, const char *fname, int argn);
/* A point given as x, y numbers or as an agent (its position) at idx;
   *used tells how many stack slots it took (1 or 2). */
steer_vec2 check_point(lua_State *L, int idx, const agent_ref *self,
                       const char *fname, int argn, int *used);

/* Pushes the handle of agent `id`; env_idx is the world's env table. */
void push_agent(lua_State *L, int env_idx, lworld *box, steer_id id);
/* Pushes an iterator over the agents in box->found[0..n). */
void push_found_iterator(lua_State *L, int env_idx, lworld *box, size_t n);
/* Which agents a query counts (steer_world_query_filtered). */
typedef struct query_filter {
  uint32_t groups;
  double fov, angle;
} query_filter;
/* Collects into box->found the agents within radius of (x, y). */
size_t collect_query(lua_State *L, lworld *box, double x, double y,
                     double radius, long exclude, const query_filter *f);

/* ---- memory --------------------------------------------------------------
   Every allocation of the core and the binding goes through binding_alloc,
   which tests can make fail (steer.testing.fail_allocations). */
void *binding_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* ---- registration --------------------------------------------------------- */
void open_world(lua_State *L);  /* leaves nothing on the stack */
void open_agent(lua_State *L);
void open_path(lua_State *L);
void open_program(lua_State *L);
int l_program_new(lua_State *L);
/* The program at idx (a table to compile or a steer.Program) for agents of
   `world`, with a reference for the caller. */
steer_program *program_arg(lua_State *L, int idx, lworld *world,
                           const char *fname, int argn);
extern const luaL_Reg program_agent_methods[];
extern const luaL_Reg program_world_methods[];
int l_world_new(lua_State *L);
/* Pushes a new world userdata (its env ready, box->w still NULL). */
lworld *push_world(lua_State *L);
int l_restore(lua_State *L);
extern const luaL_Reg snapshot_world_methods[];
int l_path_new(lua_State *L);
/* ---- shared points (point.c) ---- */
int l_point_new(lua_State *L);
void open_point(lua_State *L);
/* The steer_point of a steer.Point at idx, or NULL. */
steer_point *test_point(lua_State *L, int idx);
/* Pushes a steer.Point for `point` (retained). */
void push_point(lua_State *L, steer_point *point);
/* ---- orientation, groups, paths (turn.c) ---- */
extern const luaL_Reg turn_agent_methods[];
int turn_is_body_field(int code);  /* angle ... turn_velocity */
int turn_is_def_key(const char *key);
void turn_push_field(lua_State *L, const agent_ref *a, int code);
/* writes the value at stack index 3 into field `code` */
void turn_set_field(lua_State *L, const agent_ref *a, int code,
                    const char *key);
/* world:add's body fields of the table at idx into *d */
void turn_read_def(lua_State *L, int idx, steer_agent_def *d);
/* The optional filter table {groups = {...}, fov = deg [, angle = rad]} at
   idx; `angle` is the facing unless the table gives one. */
query_filter turn_read_filter(lua_State *L, int idx, const char *fname,
                              int argn, double angle);
/* Creates metatable `name` with __name set, leaving it on the stack. */
void new_type(lua_State *L, const char *name);

#endif
