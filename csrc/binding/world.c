/* world.c - the steer.World type: creation, agents, queries, steps and
 * their counters (the level's geometry is binding/level.c's). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"
#include "guard.h"
#include "hooks.h"

/* ---- steer.world{...} ----------------------------------------------------- */

/* Reads optional field `key` of the table at idx (a number or nil), raw. */
static int opt_field(lua_State *L, int idx, const char *key) {
  raw_field(L, idx, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

static double field_number(lua_State *L, number_kind kind, const char *fname,
                           int argn, const char *key) {
  if (lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "field '%s': number expected, got %s", key,
              arg_typename(L, -1));
  char what[64];
  snprintf(what, sizeof what, "field '%s'", key);
  double v = validate_num(L, lua_tonumber(L, -1), kind, fname, argn, what);
  lua_pop(L, 1);
  return v;
}

int threads_field(lua_State *L, int idx, const char *fname, int argn, int def) {
  if (!opt_field(L, idx, "threads")) return def;
  double t = field_number(L, NUM_POSITIVE, fname, argn, "threads");
  if (t != (double)(int)t || t > STEER_MAX_THREADS)
    arg_error(L, fname, argn, "field 'threads': integer 1..%d expected, got %.14g",
              STEER_MAX_THREADS, t);
  return (int)t;
}

double max_step_field(lua_State *L, int idx, const char *fname, int argn) {
  if (!opt_field(L, idx, "max_step")) return 0;
  return field_number(L, NUM_POSITIVE, fname, argn, "max_step");
}

static steer_world_def read_world_def(lua_State *L) {
  steer_world_def d = steer_world_def_default();
  if (lua_isnoneornil(L, 1)) return d;
  if (!lua_istable(L, 1)) type_error(L, 1, "world", 1, "table");
  /* a misspelt option would leave a world unbounded or single-threaded */
  static const char *const options[] = {"cell_size", "seed",     "bounds",
                                        "wrap",      "capacity", "threads",
                                        "max_step",  NULL};
  check_keys(L, 1, options, "world", 1);
  if (opt_field(L, 1, "cell_size"))
    d.cell_size = field_number(L, NUM_POSITIVE, "world", 1, "cell_size");
  if (opt_field(L, 1, "seed")) {
    double s = field_number(L, NUM_ANY, "world", 1, "seed");
    /* range first: (long long)s is undefined beyond 2^63 */
    if (s > 9007199254740992.0 || s < -9007199254740992.0 || s != floor(s))
      arg_error(L, "world", 1, "field 'seed': integer expected, got %.14g", s);
    d.seed = (uint32_t)(uint64_t)(long long)s; /* mod 2^32 */
  }
  if (opt_field(L, 1, "bounds")) {
    if (!lua_istable(L, -1))
      arg_error(L, "world", 1, "field 'bounds': table {w, h} expected, got %s",
                arg_typename(L, -1));
    lua_rawgeti(L, -1, 1);
    d.width = field_number(L, NUM_POSITIVE, "world", 1, "bounds[1]");
    lua_rawgeti(L, -1, 2);
    d.height = field_number(L, NUM_POSITIVE, "world", 1, "bounds[2]");
    int values = 0; /* a third value would be ignored: say so */
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pop(L, 1);
      values++;
    }
    if (values != 2)
      arg_error(L, "world", 1,
                "field 'bounds': {w, h} expected (2 numbers), got %d values",
                values);
    lua_pop(L, 1);
  }
  /* a boolean, like ghost: wrap = 0 or "no" would make a torus */
  raw_field(L, 1, "wrap");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    arg_error(L, "world", 1, "field 'wrap': boolean expected, got %s",
              arg_typename(L, -1));
  d.wrap = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (opt_field(L, 1, "capacity")) {
    double n = field_number(L, NUM_NONNEG, "world", 1, "capacity");
    if (n != (double)(size_t)n || n > 67108864.0)
      arg_error(L, "world", 1, "field 'capacity': integer 0..2^26 expected, got %.14g", n);
    d.capacity = (size_t)n;
  }
  d.threads = threads_field(L, 1, "world", 1, d.threads);
  d.max_step = max_step_field(L, 1, "world", 1);
  if (d.wrap && d.width == 0)
    arg_error(L, "world", 1, "field 'wrap': needs bounds = {w, h}");
  return d;
}

int l_world_new(lua_State *L) {
  steer_world_def def = read_world_def(L);
  def.alloc = hooks_world_alloc; /* the host's, counted per state */
  def.alloc_ud = hooks_of(L);
  lworld *box = push_world(L);
  box->w = steer_world_create(&def);
  if (!box->w) return luaL_error(L, "not enough memory");
  account_world_memory(L, box);
  return 1;
}

static void push_weak_table(lua_State *L, const char *mode) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
}

lworld *push_world(lua_State *L) {
  lworld *box = new_userdata(L, sizeof *box);
  memset(box, 0, sizeof *box);
  luaL_getmetatable(L, WORLD_MT);
  lua_setmetatable(L, -2);
  /* env = { world, handles (weak values), data, removed (weak keys) } */
  lua_createtable(L, 4, 0);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, ENV_WORLD);
  push_weak_table(L, "v");
  lua_rawseti(L, -2, ENV_HANDLES);
  lua_newtable(L);
  lua_rawseti(L, -2, ENV_DATA);
  push_weak_table(L, "k");
  lua_rawseti(L, -2, ENV_REMOVED);
  lua_setuservalue(L, -2);
  return box;
}

/* ---- methods ----------------------------------------------------------- */

/* The fields world:add and add_many read, in the order of their slots in
   steer_agent_def (def_slots), and what their values must be. */
enum { DEF_FIELDS = 10 };
static const struct def_field {
  const char *name;
  number_kind kind;
} def_fields[DEF_FIELDS + 1] = {
    {"x", NUM_ANY},          {"y", NUM_ANY},
    {"vx", NUM_ANY},         {"vy", NUM_ANY},
    {"max_speed", NUM_NONNEG}, {"max_force", NUM_NONNEG},
    {"radius", NUM_NONNEG},  {"wander_radius", NUM_NONNEG},
    {"wander_distance", NUM_NONNEG}, {"wander_jitter", NUM_NONNEG},
    {NULL, NUM_ANY}};

/* Where def_fields go in d. */
static void def_slots(steer_agent_def *d, double *slots[DEF_FIELDS]) {
  double *all[DEF_FIELDS] = {&d->x, &d->y, &d->vx, &d->vy, &d->max_speed,
                             &d->max_force, &d->radius, &d->wander_radius,
                             &d->wander_distance, &d->wander_jitter};
  memcpy(slots, all, sizeof all);
}

/* add_many's columns: def_fields, then turn.c's body fields. */
enum { COLUMNS = DEF_FIELDS + TURN_BODY_FIELDS };
static const char *column_name(int f) {
  return f < DEF_FIELDS ? def_fields[f].name : turn_body_name(f - DEF_FIELDS);
}
/* Is the key at idx one of the fields world:add reads (def_fields and
   turn.c's body fields)? */
static int is_field_key(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  for (int f = 0; f < COLUMNS; f++)
    if (strcmp(lua_tostring(L, idx), column_name(f)) == 0) return 1;
  return 0;
}
/* Raises when the string key at idx, not a field itself, misspells one of
   the fields world:add reads ("did you mean 'max_speed'?"): stored as the
   game's own data, it would leave the field at its default. */
static void check_misspelling(lua_State *L, int idx, const char *fname) {
  if (lua_type(L, idx) != LUA_TSTRING || is_field_key(L, idx)) return;
  const char *key = lua_tostring(L, idx);
  /* a program's own fields, which an agent would keep as data, unread */
  static const char *const program_only[] = {"collide", "orca", "combine", NULL};
  for (int k = 0; program_only[k]; k++)
    if (strcmp(key, program_only[k]) == 0)
      arg_error(L, fname, 1,
                "field '%s' is a program's field: put it in the program "
                "(program = { %s = ..., ... })",
                key, key);
  const char *meant = turn_misspelled_def_key(key);
  for (int k = 0; !meant && def_fields[k].name; k++)
    if (is_typo(key, def_fields[k].name)) meant = def_fields[k].name;
  if (meant)
    arg_error(L, fname, 1, "field '%s': did you mean '%s'?", key, meant);
}

/* world:add{...}: fields of steer_agent_def plus wander parameters; other
   string keys become the agent's own data, unless they misspell a field.
   Everything is validated before the agent exists. */
/* Is the key at idx world:add's `program`? */
static int is_program_key(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TSTRING &&
         strcmp(lua_tostring(L, idx), "program") == 0;
}

/* steer_world_add_many's definition of the one agent world:add adds */
static void one_def(void *ud, size_t k, steer_agent_def *d) {
  (void)k;
  *d = *(const steer_agent_def *)ud;
}

static int w_add(lua_State *L) {
  lworld *box = check_world(L, 1, "add", 0);
  steer_agent_def d = steer_agent_def_default();
  double *slots[DEF_FIELDS];
  def_slots(&d, slots);
  int custom = 0, program_at = 0;
  if (!lua_isnoneornil(L, 2)) {
    if (!lua_istable(L, 2)) type_error(L, 2, "add", 1, "table");
    for (int k = 0; def_fields[k].name; k++) {
      if (!opt_field(L, 2, def_fields[k].name)) continue;
      *slots[k] =
          field_number(L, def_fields[k].kind, "add", 1, def_fields[k].name);
    }
    turn_read_def(L, 2, &d);
    if (opt_field(L, 2, "program")) program_at = lua_gettop(L); /* kept */
    lua_pushnil(L);
    while (lua_next(L, 2)) {
      lua_pop(L, 1);
      custom |= !is_field_key(L, -1) && !is_program_key(L, -1);
    }
  }
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  /* the data table is made before the agent, so that once the core has
     added it nothing can fail; it is checked while it is copied, after the
     allocation (which may run Lua code that changes the argument) */
  if (custom) {
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, 2)) {
      if (is_field_key(L, -2) || is_program_key(L, -2)) {
        lua_pop(L, 1);
        continue;
      }
      /* a name the agent uses itself would be stored but never read back */
      if (agent_known_key(L, -2))
        arg_error(L, "add", 1,
                  "field '%s' is the agent's own (set it on the agent)",
                  lua_tostring(L, -2));
      check_misspelling(L, -2, "add");
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, env + 1);
    }
    lua_rawgeti(L, env, ENV_DATA);
  }
  /* the program last: compiling it raises on a bad entry, and from here
     on nothing raises until it is released */
  steer_program *p = NULL;
  if (program_at) {
    int given = luaL_testudata(L, program_at, PROGRAM_MT) != NULL;
    if (!given && !lua_istable(L, program_at))
      arg_error(L, "add", 1, "field 'program': steer.Program or table "
                "expected, got %s", arg_typename(L, program_at));
    p = program_arg(L, program_at, box, "add", 1);
    if (!box->w) steer_program_release(p); /* and live_world raises */
    else if (!given) p = share_program(box, p);
  }
  /* the data table's allocation or compiling may have run Lua code (a
     finalizer) that closed the world */
  steer_world *w = live_world(L, box, "add");
  steer_id id;
  steer_status s = p ? steer_world_add_many(w, 1, one_def, &d, p, &id)
                     : steer_world_add(w, &d, &id);
  steer_program_release(p);
  check_status(L, s);
  if (custom) {
    lua_pushinteger(L, (lua_Integer)id);
    lua_pushvalue(L, env + 1);
    lua_rawset(L, -3);
  }
  push_agent(L, env, box, id);
  account_world_memory(L, box);
  return 1;
}

static int w_remove(lua_State *L) {
  lworld *box = check_world(L, 1, "remove", 0);
  agent_ref a = check_agent(L, 2, "remove", 1);
  if (a.box != box) arg_error(L, "remove", 1, "agent belongs to another world");
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  /* the agent's own table moves to env[ENV_REMOVED][handle], where its
     handle still reads it; first the allocation, then the world changes */
  lua_rawgeti(L, env, ENV_DATA);
  lua_pushinteger(L, (lua_Integer)a.id);
  lua_rawget(L, -2);
  if (!lua_isnil(L, -1)) {
    lua_rawgeti(L, env, ENV_REMOVED);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  /* the stores above may have run Lua code (guard.h): resolve again; an
     agent a finalizer removed meanwhile is simply gone */
  steer_world_remove(live_world(L, box, "remove"), a.id);
  lua_pushinteger(L, (lua_Integer)a.id);
  lua_pushnil(L);
  lua_rawset(L, env + 1);
  return 0;
}

static int w_get(lua_State *L) {
  lworld *box = check_world(L, 1, "get", 0);
  double id = check_integral(L, 2, "get", 1);
  if (id < 1 || steer_world_index(box->w, (steer_id)id) < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_getuservalue(L, 1);
  push_agent(L, -1, box, (steer_id)id);
  return 1;
}

static int w_len(lua_State *L) {
  /* not "calling '__len' on bad self": the user wrote #world */
  lworld *box = luaL_testudata(L, 1, WORLD_MT);
  if (box && !box->w)
    return luaL_error(L, "attempt to get the length of a closed world (world is closed)");
  box = check_world(L, 1, "__len", 0);
  lua_pushinteger(L, (lua_Integer)steer_world_count(box->w));
  return 1;
}

/* for a in world:agents(): the agents present when the loop starts, in id
   slot order (a snapshot of their ids, as world:query takes): agents removed
   meanwhile are skipped, agents added meanwhile are not visited, so the loop
   ends whatever its body adds. */
static int w_agents(lua_State *L) {
  lworld *box = check_world(L, 1, "agents", 0);
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  for (;;) {
    size_t n = steer_world_count(live_world(L, box, "agents"));
    steer_id *ids = push_id_iterator(L, env, n, "agents");
    /* the allocation may have run Lua code: resolve again (guard.h) */
    steer_world *w = live_world(L, box, "agents");
    if (steer_world_count(w) == n) {
      steer_id id = 0;
      for (size_t k = 0; k < n; k++) ids[k] = id = steer_world_next_id(w, id);
      return 1;
    }
    lua_pop(L, 1); /* added or removed meanwhile */
  }
}

static int w_query(lua_State *L) {
  lworld *box = check_world(L, 1, "query", 0);
  /* the centre in any of POINT_FORMS: x, y, or one value (an agent, a
     shared point, a table); the arguments after it move up */
  int used;
  steer_vec2 c = check_point(L, 2, NULL, "query", 1, &used);
  int at = 2 + used;
  double r = check_nonneg(L, at, "query", at - 1);
  query_filter f = turn_read_filter(L, at + 1, "query", at, 0);
  check_no_more(L, at + 2, "query", at + 1);
  lua_getuservalue(L, 1);
  push_query_iterator(L, -1, box, 0, c.x, c.y, r, &f, "query");
  return 1;
}

/* world:nearest's visitor: the agent nearest the centre so far (ties: the
   lower id, so the answer does not depend on the grid's order). */
typedef struct nearest_hit {
  const steer_world *w;
  steer_vec2 centre;
  int visible; /* only agents the centre sees (world:line_of_sight) */
  double d2;
  steer_id id; /* 0: none yet */
} nearest_hit;

static int nearer(void *ud, size_t index) {
  nearest_hit *h = ud;
  steer_vec2 p = steer_agent_position(h->w, index);
  steer_vec2 d = steer_world_offset(h->w, h->centre, p);
  double d2 = d.x * d.x + d.y * d.y;
  steer_id id = steer_world_id_at(h->w, index);
  /* the sight line last: only for an agent that would be the nearest */
  if ((!h->id || d2 < h->d2 || (d2 == h->d2 && id < h->id)) &&
      (!h->visible || steer_world_line_of_sight(h->w, h->centre, p))) {
    h->d2 = d2;
    h->id = id;
  }
  return 0;
}

/* world:nearest(p, radius [, filter]) -> agent, distance | nil: the agent
   world:query(p, radius, filter) would yield nearest p, p itself left out
   when it is an agent of this world (whose facing a filter's fov turns
   with, as a:neighbors' does). */
static int w_nearest(lua_State *L) {
  lworld *box = check_world(L, 1, "nearest", 0);
  int used;
  steer_vec2 c = check_point(L, 2, NULL, "nearest", 1, &used);
  int at = 2 + used;
  double r = check_nonneg(L, at, "nearest", at - 1);
  steer_world *w = live_world(L, box, "nearest");
  long exclude = -1;
  double facing = 0;
  lagent *self = luaL_testudata(L, 2, AGENT_MT);
  if (self && self->box == box) {
    exclude = steer_world_index(w, self->id); /* live: check_point said so */
    facing = steer_agent_get(w, (size_t)exclude, STEER_ANGLE);
  }
  static const char *const options[] = {"groups", "fov", "angle", "visible",
                                        NULL};
  query_filter f = turn_read_filter_of(L, at + 1, "nearest", at, facing, options);
  int visible = 0;
  if (lua_istable(L, at + 1)) {
    raw_field(L, at + 1, "visible");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
      arg_error(L, "nearest", at, "field 'visible': boolean expected, got %s",
                arg_typename(L, -1));
    visible = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  check_no_more(L, at + 2, "nearest", at + 1);
  /* reading the filter may run Lua (an __index): resolve again */
  w = live_world(L, box, "nearest");
  if (exclude >= 0) exclude = steer_world_index(w, self->id);
  /* on a torus, the centre's image near the origin (the offset from it
     is exact): offsets from a centre far outside lose every digit */
  c = steer_world_offset(w, (steer_vec2){0, 0}, c);
  nearest_hit h = {w, c, visible, 0, 0};
  steer_world_query_filtered(w, c.x, c.y, r, exclude, f.groups, f.fov,
                             f.angle, nearer, &h);
  if (!h.id) {
    lua_pushnil(L);
    return 1;
  }
  lua_getuservalue(L, 1);
  push_agent(L, -1, box, h.id);
  lua_pushnumber(L, sqrt(h.d2));
  return 2;
}

/* The table to fill: argument 2 when given (reused), else a new one. */
static int fill_target(lua_State *L, const char *fname, size_t slots) {
  if (lua_isnoneornil(L, 2)) {
    lua_createtable(L, (int)slots, 0);
  } else {
    if (!lua_istable(L, 2)) type_error(L, 2, fname, 1, "table");
    lua_pushvalue(L, 2);
  }
  return lua_gettop(L);
}

/* Drops entries after the first `used` of a reused table. */
static void truncate(lua_State *L, int t, size_t used) {
  for (int k = (int)used + 1;; k++) {
    lua_rawgeti(L, t, k);
    int more = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!more) break;
    lua_pushnil(L);
    lua_rawseti(L, t, k);
  }
}

/* Fills the table at argument 2 (or a new one) with {a1, b1, a2, b2, ...}
   from the position (or velocity) columns; pushes it and n. */
static int push_pairs(lua_State *L, const char *fname, lworld *box,
                      int velocities) {
  int t = fill_target(L, fname, 2 * steer_world_count(box->w));
  /* making the table may run Lua code: the columns are read after it, and
     the raw stores below run none */
  steer_world *w = live_world(L, box, fname);
  const double *a, *b;
  size_t n = velocities ? steer_world_columns(w, NULL, NULL, &a, &b)
                        : steer_world_columns(w, &a, &b, NULL, NULL);
  for (size_t i = 0; i < n; i++) {
    lua_pushnumber(L, a[i]);
    lua_rawseti(L, t, (int)(2 * i + 1));
    lua_pushnumber(L, b[i]);
    lua_rawseti(L, t, (int)(2 * i + 2));
  }
  truncate(L, t, 2 * n);
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

/* world:positions([t]) -> {x1, y1, x2, y2, ...}, n: every position in one
   call (for drawing), reusing t; the order is the world's internal order,
   the same as world:ids() until agents are added, removed or stepped */
static int w_positions(lua_State *L) {
  lworld *box = check_world(L, 1, "positions", 0);
  return push_pairs(L, "positions", box, 0);
}

/* world:ids([t]) -> {id1, id2, ...}, n in the order of world:positions() */
static int w_ids(lua_State *L) {
  lworld *box = check_world(L, 1, "ids", 0);
  int t = fill_target(L, "ids", steer_world_count(box->w));
  steer_world *w = live_world(L, box, "ids"); /* after the allocation */
  size_t n = steer_world_count(w);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)steer_world_id_at(w, i));
    lua_rawseti(L, t, (int)(i + 1));
  }
  truncate(L, t, n);
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

/* world:add_many{ x = xs, y = ys, ..., max_speed = 2.5 } [, behaviors]:
   columns of numbers (arrays of one length, or one number for every
   agent) for the fields of world:add, n = the array length (or field n);
   behaviors: a program table or steer.Program for all of them. Checks
   every value, then adds them all or, out of memory, none. Makes no
   handles: returns how many agents it added. */
typedef struct columns {
  const double *column[COLUMNS]; /* per column: the copied array, or */
  double fixed[COLUMNS];         /* NULL and this value (NaN: not given) */
  double spread;                 /* the disc agents are spread over, or 0 */
  size_t count;
} columns;

/* Agent k of n spread evenly over a disc of radius r (a sunflower
   spiral: equal areas per agent, no two on one point): its offset from
   its own x, y. Agents added on one point would never part under
   separation, which ignores a neighbor on the agent's own point. */
static steer_vec2 spread_offset(size_t k, size_t n, double r) {
  const double golden_angle = 2.39996322972865332; /* pi (3 - sqrt 5) */
  double d = r * sqrt(((double)k + 0.5) / (double)n);
  double a = golden_angle * (double)k;
  steer_vec2 v = {d * cos(a), d * sin(a)};
  return v;
}

static void column_def(void *ud, size_t k, steer_agent_def *d) {
  const columns *c = ud;
  *d = steer_agent_def_default();
  double *slots[DEF_FIELDS];
  def_slots(d, slots);
  for (int f = 0; f < COLUMNS; f++) {
    double v = c->column[f] ? c->column[f][k] : c->fixed[f];
    if (v != v) continue; /* not given */
    if (f < DEF_FIELDS)
      *slots[f] = v;
    else
      turn_def_set(d, f - DEF_FIELDS, v);
  }
  if (c->spread > 0) {
    steer_vec2 o = spread_offset(k, c->count, c->spread);
    d->x += o.x;
    d->y += o.y;
  }
}

/* Column f's value at the top of the stack, checked (what: its name for
   messages); pops it. */
static double column_value(lua_State *L, int f, const char *what) {
  double v;
  if (f < DEF_FIELDS) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, "add_many", 1, "%s: number expected, got %s", what,
                arg_typename(L, -1));
    v = lua_tonumber(L, -1);
    validate_num(L, v, def_fields[f].kind, "add_many", 1, what);
  } else {
    char buf[96];
    const char *problem = turn_body_check(L, -1, f - DEF_FIELDS, &v, buf);
    if (problem)
      arg_error(L, "add_many", 1, "%s: %s", what, problem);
  }
  lua_pop(L, 1);
  return v;
}

/* Raises for a key of column table t (named `name`) other than 1 ..
   count: the length of a table with holes is any of its borders, so {1,
   nil, 3} could otherwise add one agent here and three elsewhere. */
static void check_sequence(lua_State *L, int t, size_t count,
                           const char *name) {
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TNUMBER) {
      lua_Number k = lua_tonumber(L, -1);
      if (k >= 1 && k <= (lua_Number)count && k == floor(k)) continue;
      arg_error(L, "add_many", 1,
                "field '%s': a value at [%.14g], past the column's length, %d "
                "(a hole before it?)", name, k, (int)count);
    }
    arg_error(L, "add_many", 1, "field '%s': unexpected %s key", name,
              arg_typename(L, -1));
  }
}

/* Each column is read once, raw, into a Lua-owned copy: the core reads the
   copies, so no Lua code runs while it adds, and an error frees them. */
static int w_add_many(lua_State *L) {
  lworld *box = check_world(L, 1, "add_many", 0);
  if (!lua_istable(L, 2)) type_error(L, 2, "add_many", 1, "table");
  lua_settop(L, 3); /* the column tables go above the arguments */
  columns c;
  int table_at[COLUMNS]; /* stack index of each array column's table, or 0 */
  int arrays = 0;
  double n = -1;
  if (opt_field(L, 2, "n")) n = field_number(L, NUM_NONNEG, "add_many", 1, "n");
  c.spread = 0;
  if (opt_field(L, 2, "spread"))
    c.spread = field_number(L, NUM_NONNEG, "add_many", 1, "spread");
  for (int f = 0; f < COLUMNS; f++) {
    c.column[f] = NULL;
    c.fixed[f] = 0.0 / 0.0; /* NaN: not given */
    table_at[f] = 0;
    raw_field(L, 2, column_name(f));
    if (lua_istable(L, -1)) {
      double len = (double)lua_rawlen(L, -1);
      if (n >= 0 && len != n)
        arg_error(L, "add_many", 1, "field '%s': %.0f values, expected %.0f",
                  column_name(f), len, n);
      n = len;
      table_at[f] = lua_gettop(L); /* kept on the stack: read once below */
      arrays++;
      continue;
    } else if (!lua_isnil(L, -1)) {
      char what[64];
      snprintf(what, sizeof what, "field '%s'", column_name(f));
      c.fixed[f] = column_value(L, f, what);
      continue;
    }
    lua_pop(L, 1);
  }
  /* no own data here: any other key is a mistake */
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    lua_pop(L, 1);
    if (is_field_key(L, -1)) continue;
    if (lua_type(L, -1) == LUA_TSTRING && (strcmp(lua_tostring(L, -1), "n") == 0 ||
                                           strcmp(lua_tostring(L, -1), "spread") == 0))
      continue;
    check_misspelling(L, -1, "add_many");
    if (lua_type(L, -1) == LUA_TSTRING && is_typo(lua_tostring(L, -1), "spread"))
      arg_error(L, "add_many", 1, "unknown field '%s': did you mean 'spread'?",
                lua_tostring(L, -1));
    if (lua_type(L, -1) != LUA_TSTRING)
      arg_error(L, "add_many", 1, "unexpected %s key", arg_typename(L, -1));
    arg_error(L, "add_many", 1, "unknown field '%s' (columns: the fields of "
              "world:add; n, spread)", lua_tostring(L, -1));
  }
  if (n < 0) arg_error(L, "add_many", 1, "give n or columns of values");
  if (n != (double)(size_t)n || n > 67108864.0) /* 2^26: a world's slots */
    arg_error(L, "add_many", 1, "field 'n': count out of range, got %.14g", n);
  size_t count = (size_t)n;
  double *copy =
      new_userdata(L, arrays && count ? arrays * count * sizeof *copy : 1);
  /* every value of every column, checked and copied before anything is
     added */
  for (int f = 0; f < COLUMNS; f++) {
    if (!table_at[f]) continue;
    c.column[f] = copy;
    for (size_t k = 0; k < count; k++) {
      lua_rawgeti(L, table_at[f], (int)k + 1);
      double v = lua_tonumber(L, -1);
      char problem[96];
      int bad = f < DEF_FIELDS
                    ? lua_type(L, -1) != LUA_TNUMBER ||
                          number_problem(v, def_fields[f].kind, problem)
                    : turn_body_check(L, -1, f - DEF_FIELDS, &v, problem) != NULL;
      if (bad) { /* column_value says what is wrong */
        char what[64];
        snprintf(what, sizeof what, "field '%s'[%d]", column_name(f),
                 (int)k + 1);
        column_value(L, f, what);
      }
      copy[k] = v;
      lua_pop(L, 1);
    }
    check_sequence(L, table_at[f], count, column_name(f));
    copy += count;
  }
  c.count = count;
  /* a spread position must stay a number steer takes (it sums two) */
  for (size_t k = 0; c.spread > 0 && k < count; k++) {
    steer_agent_def d;
    column_def(&c, k, &d);
    if (!(fabs(d.x) <= STEER_LIMIT && fabs(d.y) <= STEER_LIMIT))
      arg_error(L, "add_many", 1,
                "field 'spread': %.14g puts agent %d beyond 1e150", c.spread,
                (int)k + 1);
  }
  steer_program *p = NULL;
  if (!lua_isnoneornil(L, 3)) p = program_arg(L, 3, box, "add_many", 2);
  /* compiling may have run Lua code; from here on none runs until p is
     released */
  if (!box->w) {
    steer_program_release(p);
    live_world(L, box, "add_many");
  }
  steer_status s = steer_world_add_many(box->w, count, column_def, &c, p,
                                        NULL);
  steer_program_release(p);
  check_status(L, s);
  lua_pushinteger(L, (lua_Integer)n);
  account_world_memory(L, box);
  return 1;
}

/* world:velocities([t]) -> {vx1, vy1, ...}, n in the order of positions() */
static int w_velocities(lua_State *L) {
  lworld *box = check_world(L, 1, "velocities", 0);
  return push_pairs(L, "velocities", box, 1);
}

/* world:bounds() -> w, h, wrap; nil for an unbounded world */
static int w_bounds(lua_State *L) {
  lworld *box = check_world(L, 1, "bounds", 0);
  steer_world_def d = steer_world_get_def(box->w);
  if (d.width == 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, d.width);
  lua_pushnumber(L, d.height);
  lua_pushboolean(L, d.wrap);
  return 3;
}

/* ---- steps -------------------------------------------------------------- */

static int w_step(lua_State *L) {
  lworld *box = check_world(L, 1, "step", 0);
  double dt = check_positive(L, 2, "step", 1);
  check_no_more(L, 3, "step", 2);
  steer_world_set_simd(box->w, hooks_of(L)->simd); /* this state's width */
  check_status(L, steer_world_step(box->w, dt));
  account_world_memory(L, box); /* a first step allocates its scratch */
  return 0;
}

static void set_integer(lua_State *L, const char *key, size_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, key);
}

/* world:stats(): integers. agents, programs and memory are counted now;
   stepped, candidates and neighbors are the last step's counters. */
static int w_stats(lua_State *L) {
  lworld *box = check_world(L, 1, "stats", 0);
  steer_stats s = steer_world_stats(box->w);
  size_t n = steer_world_count(box->w), programs = 0;
  for (size_t i = 0; i < n; i++) programs += steer_agent_program(box->w, i) != NULL;
  size_t memory = steer_world_memory(box->w);
  /* everything is read before the table is made (it may run Lua code) */
  lua_createtable(L, 0, 6);
  set_integer(L, "agents", n);
  set_integer(L, "programs", programs);
  set_integer(L, "memory", memory);
  set_integer(L, "stepped", s.agents);
  set_integer(L, "candidates", s.candidates);
  set_integer(L, "neighbors", s.neighbors);
  return 1;
}

/* world:close(), __gc and __close: frees the world; idempotent. Handles
   and iterators of a closed world raise "world is closed". */
static int w_close(lua_State *L) {
  lworld *box = luaL_testudata(L, 1, WORLD_MT);
  if (!box) return type_error(L, 1, "close", 0, WORLD_MT);
  steer_world_destroy(box->w);
  box->w = NULL;
  steer_program_release(box->last_program);
  box->last_program = NULL;
  binding_alloc(NULL, box->found, box->found_cap * sizeof *box->found, 0);
  box->found = NULL;
  box->found_cap = 0;
  return 0;
}

static int w_tostring(lua_State *L) {
  lworld *box = luaL_testudata(L, 1, WORLD_MT);
  if (!box || !box->w)
    lua_pushliteral(L, WORLD_MT " (closed)");
  else
    lua_pushfstring(L, WORLD_MT " (%d agents)",
                    (int)steer_world_count(box->w));
  return 1;
}

void open_world(lua_State *L) {
  static const luaL_Reg methods[] = {
      {"add", w_add},
      {"remove", w_remove},
      {"get", w_get},
      {"agents", w_agents},
      {"query", w_query},
      {"nearest", w_nearest},
      {"close", w_close},
      {"positions", w_positions},
      {"ids", w_ids},
      {"velocities", w_velocities},
      {"add_many", w_add_many},
      {"bounds", w_bounds},
      {"step", w_step},
      {"stats", w_stats},
      {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__len", w_len},
                                  {"__gc", w_close},
#if LUA_VERSION_NUM >= 504
                                  {"__close", w_close},
#endif
                                  {"__tostring", w_tostring},
                                  {NULL, NULL}};
  new_type(L, WORLD_MT);
  luaL_setfuncs(L, meta, 0);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  luaL_setfuncs(L, snapshot_world_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}
