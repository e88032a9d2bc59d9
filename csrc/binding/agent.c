/* agent.c - the steer.Agent type: fields, the agent's own data and its
 * behavior methods. */
#include <math.h>
#include <stdio.h>
#include "binding.h"
#include "guard.h"

/* Keys of the __index/__newindex lookup table: a field's code (a number),
   or the method itself (a function). */
enum {
  F_ID = STEER_FIELD_COUNT, /* read-only ones follow the writable fields */
  F_SPEED,
  F_HEADING,
  F_ALIVE,
  F_SETTLED
};

/* Every field of a handle; a write must be a number of `kind` (read-only
   fields have none). */
static const struct field_name {
  const char *name;
  int code;
  number_kind kind;
} field_names[] = {
    {"x", STEER_X, NUM_ANY},
    {"y", STEER_Y, NUM_ANY},
    {"vx", STEER_VX, NUM_ANY},
    {"vy", STEER_VY, NUM_ANY},
    {"max_speed", STEER_MAX_SPEED, NUM_NONNEG},
    {"max_force", STEER_MAX_FORCE, NUM_NONNEG},
    {"radius", STEER_RADIUS, NUM_NONNEG},
    {"wander_radius", STEER_WANDER_RADIUS, NUM_NONNEG},
    {"wander_distance", STEER_WANDER_DISTANCE, NUM_NONNEG},
    {"wander_jitter", STEER_WANDER_JITTER, NUM_NONNEG},
    {"wander_angle", STEER_WANDER_ANGLE, NUM_ANY},
    /* issue 14's body fields: turn.c reads and writes them */
    {"angle", STEER_ANGLE, NUM_ANY},
    {"angular_velocity", STEER_ANGULAR_VELOCITY, NUM_ANY},
    {"max_turn_rate", STEER_MAX_TURN_RATE, NUM_NONNEG},
    {"max_angular_acceleration", STEER_MAX_ANGULAR_ACCELERATION, NUM_NONNEG},
    {"min_speed", STEER_MIN_SPEED, NUM_NONNEG},
    {"group", STEER_GROUP, NUM_NONNEG},
    {"ghost", STEER_GHOST, NUM_ANY},
    {"turn_velocity", STEER_TURN_VELOCITY, NUM_ANY},
    {"id", F_ID, NUM_ANY},
    {"speed", F_SPEED, NUM_ANY},
    {"heading", F_HEADING, NUM_ANY},
    {"alive", F_ALIVE, NUM_ANY},
    {"settled", F_SETTLED, NUM_ANY},
    {NULL, 0, NUM_ANY}};

/* The field whose code is `code`. */
static const struct field_name *field_of_code(int code) {
  for (int k = 0; field_names[k].name; k++)
    if (field_names[k].code == code) return &field_names[k];
  return NULL;
}

static int push_vec(lua_State *L, steer_vec2 v) {
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

/* ---- fields ----------------------------------------------------------- */

/* Pushes the agent's own data table (creating it when `create`), or nil. */
static void push_data(lua_State *L, int self, steer_id id, int create) {
  lua_getuservalue(L, self);
  lua_rawgeti(L, -1, ENV_DATA);
  lua_pushinteger(L, (lua_Integer)id);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1) && create) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushinteger(L, (lua_Integer)id);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* The name of the key at idx for messages: the string, or NULL. */
static const char *key_name(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
}

/* The live agent whose field `key` (NULL: its own data) is accessed. */
static agent_ref field_owner(lua_State *L, int idx, const char *key) {
  lagent *h = luaL_checkudata(L, idx, AGENT_MT);
  const char *what = key ? key : "(agent data)";
  if (!h->box->w)
    luaL_error(L, "cannot access field '%s' of " AGENT_MT ": world is closed",
               what);
  long i = steer_world_index(h->box->w, h->id);
  if (i < 0)
    luaL_error(L,
               "cannot access field '%s' of " AGENT_MT
               ": agent has been removed",
               what);
  agent_ref a = {h->box, h->box->w, (size_t)i, h->id};
  return a;
}

static int a_index(lua_State *L) {
  lagent *h = luaL_checkudata(L, 1, AGENT_MT);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  if (lua_isfunction(L, -1)) return 1; /* a method */
  if (lua_isnumber(L, -1)) {
    int code = (int)lua_tointeger(L, -1);
    if (code == F_ALIVE) {
      lua_pushboolean(L, h->box->w && steer_world_index(h->box->w, h->id) >= 0);
      return 1;
    }
    if (code == F_ID) {
      lua_pushinteger(L, (lua_Integer)h->id);
      return 1;
    }
    agent_ref a = field_owner(L, 1, lua_tostring(L, 2));
    if (code == F_SPEED)
      lua_pushnumber(L, steer_agent_speed(a.w, a.i));
    else if (code == F_HEADING)
      lua_pushnumber(L, steer_agent_heading(a.w, a.i));
    else if (code == F_SETTLED)
      lua_pushboolean(L, steer_agent_settled(a.w, a.i));
    else if (turn_is_body_field(code))
      turn_push_field(L, &a, code);
    else
      lua_pushnumber(L, steer_agent_get(a.w, a.i, (steer_field)code));
    return 1;
  }
  /* the game's own keys stay readable after the agent is removed or its
     world closed: a death handler may read them after world:remove */
  lua_getuservalue(L, 1);
  lua_rawgeti(L, -1, ENV_DATA);
  lua_pushinteger(L, (lua_Integer)h->id);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) {
    lua_rawgeti(L, -3, ENV_REMOVED);
    lua_pushvalue(L, 1);
    lua_rawget(L, -2);
    if (lua_isnil(L, -1)) return 1;
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

/* The writable field `key` is a likely misspelling of, or NULL. */
static const char *misspelled_field(const char *key) {
  for (int k = 0; field_names[k].code < STEER_FIELD_COUNT; k++)
    if (is_typo(key, field_names[k].name)) return field_names[k].name;
  return NULL;
}

static int a_newindex(lua_State *L) {
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  /* only string keys are found in the key table */
  const char *key = lua_isnil(L, -1) ? NULL : lua_tostring(L, 2);
  if (lua_isfunction(L, -1))
    return luaL_error(L, "cannot assign to method '%s' of " AGENT_MT, key);
  if (lua_isnumber(L, -1)) {
    int code = (int)lua_tointeger(L, -1);
    if (code >= STEER_FIELD_COUNT)
      return luaL_error(L, "field '%s' of " AGENT_MT " is read-only", key);
    agent_ref a = field_owner(L, 1, key);
    if (turn_is_body_field(code)) {
      turn_set_field(L, &a, code, key);
      return 0;
    }
    if (lua_type(L, 3) != LUA_TNUMBER)
      return luaL_error(L,
                        "cannot set field '%s' of " AGENT_MT
                        ": number expected, got %s",
                        key, arg_typename(L, 3));
    char buf[96];
    const char *problem =
        number_problem(lua_tonumber(L, 3), field_of_code(code)->kind, buf);
    if (problem)
      return luaL_error(L, "cannot set field '%s' of " AGENT_MT ": %s", key,
                        problem);
    check_status(L, steer_agent_set(a.w, a.i, (steer_field)code,
                                    lua_tonumber(L, 3)));
    return 0;
  }
  agent_ref a = field_owner(L, 1, key_name(L, 2));
  int assigning = !lua_isnil(L, 3);
  push_data(L, 1, a.id, 0);
  /* a new key that misspells a field would leave the field unchanged (a
     misspelt key is never stored, so only new keys need the check) */
  int fresh = lua_isnil(L, -1);
  if (!fresh && assigning) {
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    fresh = lua_isnil(L, -1);
    lua_pop(L, 1);
  }
  const char *meant =
      assigning && fresh && key_name(L, 2) ? misspelled_field(key_name(L, 2))
                                           : NULL;
  if (meant)
    return luaL_error(L,
                      "cannot set field '%s' of " AGENT_MT
                      ": did you mean '%s'?",
                      key_name(L, 2), meant);
  if (lua_isnil(L, -1)) {
    if (!assigning) return 0; /* assigning nil to an absent key */
    lua_pop(L, 1);
    push_data(L, 1, a.id, 1);
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, -3);
  return 0;
}

static int a_tostring(lua_State *L) {
  lagent *h = luaL_checkudata(L, 1, AGENT_MT);
  long i = h->box->w ? steer_world_index(h->box->w, h->id) : -1;
  char buf[128]; /* ids reach 2^53: %llu, never (int) */
  if (i < 0) { /* as its fields would say */
    snprintf(buf, sizeof buf, AGENT_MT " %llu (%s)", (unsigned long long)h->id,
             h->box->w ? "removed" : "world closed");
  } else {
    steer_vec2 p = steer_agent_position(h->box->w, (size_t)i);
    snprintf(buf, sizeof buf, AGENT_MT " %llu (%.3f, %.3f)",
             (unsigned long long)h->id, p.x, p.y);
  }
  lua_pushstring(L, buf);
  return 1;
}

/* ---- behaviors ---------------------------------------------------------- */

static int a_seek(lua_State *L) {
  agent_ref a = check_agent(L, 1, "seek", 0);
  int used;
  steer_vec2 t = check_point(L, 2, &a, "seek", 1, &used);
  check_no_more(L, 2 + used, "seek", 1 + used);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "seek");
  return push_vec(L, steer_agent_seek(a.w, a.i, t));
}

static int a_flee(lua_State *L) {
  agent_ref a = check_agent(L, 1, "flee", 0);
  int used;
  steer_vec2 t = check_point(L, 2, &a, "flee", 1, &used);
  double panic = opt_nonneg(L, 2 + used, "flee", 1 + used, -1);
  check_no_more(L, 3 + used, "flee", 2 + used);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "flee");
  return push_vec(L, steer_agent_flee(a.w, a.i, t, panic));
}

static int a_arrive(lua_State *L) {
  agent_ref a = check_agent(L, 1, "arrive", 0);
  int used;
  steer_vec2 t = check_point(L, 2, &a, "arrive", 1, &used);
  double slowing = opt_nonneg(L, 2 + used, "arrive", 1 + used, 2);
  check_no_more(L, 3 + used, "arrive", 2 + used);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "arrive");
  return push_vec(L, steer_agent_arrive(a.w, a.i, t, slowing));
}

static int a_pursue(lua_State *L) {
  agent_ref a = check_agent(L, 1, "pursue", 0);
  agent_ref b = check_peer(L, 2, &a, "pursue", 1);
  check_no_more(L, 3, "pursue", 2);
  return push_vec(L, steer_agent_pursue(a.w, a.i, b.i));
}

static int a_evade(lua_State *L) {
  agent_ref a = check_agent(L, 1, "evade", 0);
  agent_ref b = check_peer(L, 2, &a, "evade", 1);
  double panic = opt_nonneg(L, 3, "evade", 2, -1);
  check_no_more(L, 4, "evade", 3);
  return push_vec(L, steer_agent_evade(a.w, a.i, b.i, panic));
}

static int a_wander(lua_State *L) {
  agent_ref a = check_agent(L, 1, "wander", 0);
  check_no_more(L, 2, "wander", 1);
  steer_vec2 f;
  check_status(L, steer_agent_wander(a.w, a.i, &f));
  return push_vec(L, f);
}

static int a_avoid_obstacles(lua_State *L) {
  agent_ref a = check_agent(L, 1, "avoid_obstacles", 0);
  double feeler = opt_nonneg(L, 2, "avoid_obstacles", 1, 3);
  check_no_more(L, 3, "avoid_obstacles", 2);
  return push_vec(L, steer_agent_avoid_obstacles(a.w, a.i, feeler));
}

/* a:avoid_walls([feeler_length [, whiskers]]) */
static int a_avoid_walls(lua_State *L) {
  agent_ref a = check_agent(L, 1, "avoid_walls", 0);
  double feeler = opt_nonneg(L, 2, "avoid_walls", 1, 3);
  int whiskers = opt_boolean(L, 3, "avoid_walls", 2, "whiskers", 0);
  check_no_more(L, 4, "avoid_walls", 3);
  return push_vec(L, whiskers
                         ? steer_agent_avoid_walls_whiskers(a.w, a.i, feeler)
                         : steer_agent_avoid_walls(a.w, a.i, feeler));
}

/* optional number field `key` of the options table at idx (kind: as
   validate_num's, a size or a positive number) */
static double opt_option(lua_State *L, int idx, const char *fname, int argn,
                         const char *key, double def, number_kind kind) {
  if (lua_isnoneornil(L, idx)) return def;
  raw_field(L, idx, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "field '%s': number expected, got %s", key,
              arg_typename(L, -1));
  double v = validate_num(L, lua_tonumber(L, -1), kind, fname, argn, key);
  lua_pop(L, 1);
  return v;
}

static int a_follow(lua_State *L) {
  agent_ref a = check_agent(L, 1, "follow", 0);
  steer_path *path = check_path(L, 2, "follow", 1);
  if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3))
    type_error(L, 3, "follow", 2, "table");
  static const char *const keys[] = {"arrival_radius", "slowing_radius",
                                     "path_radius", "look_ahead", NULL};
  if (lua_istable(L, 3)) check_keys(L, 3, keys, "follow", 2);
  check_no_more(L, 4, "follow", 3);
  double arrival =
      opt_option(L, 3, "follow", 2, "arrival_radius", 0.6, NUM_NONNEG);
  double slowing =
      opt_option(L, 3, "follow", 2, "slowing_radius", 2, NUM_NONNEG);
  double corridor = opt_option(L, 3, "follow", 2, "path_radius", -1, NUM_NONNEG);
  /* 0 would predict no motion: the corridor would never steer */
  double look_ahead =
      opt_option(L, 3, "follow", 2, "look_ahead", 1, NUM_POSITIVE);
  a = live_agent(L, a.box, a.id, "follow"); /* reading options may run Lua */
  steer_vec2 f;
  check_status(L, corridor >= 0
                      ? steer_agent_follow_corridor(a.w, a.i, path, corridor,
                                                    look_ahead, slowing, &f)
                      : steer_agent_follow(a.w, a.i, path, arrival, slowing,
                                           &f));
  return push_vec(L, f);
}

/* a:path_index([path]): the 1-based waypoint the agent heads for on the
   path it follows (by its program or by a:follow); on `path`: 1 when it
   does not follow that one; nil when it follows no path. */
static int a_path_index(lua_State *L) {
  agent_ref a = check_agent(L, 1, "path_index", 0);
  const steer_path *only =
      lua_isnoneornil(L, 2) ? NULL : check_path(L, 2, "path_index", 1);
  check_no_more(L, 3, "path_index", 2);
  size_t k;
  if (!steer_agent_path(a.w, a.i, only, &k) && !only) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, (lua_Integer)k + 1);
  return 1;
}

/* a:separation/alignment/cohesion(radius [, {groups =, fov =}]): the
   filter a program entry of the rule takes (its other defaults) */
static int flock_method(lua_State *L, steer_behavior b, const char *fname) {
  agent_ref a = check_agent(L, 1, fname, 0);
  double r = check_nonneg(L, 2, fname, 1);
  static const char *const options[] = {"groups", "fov", NULL};
  query_filter f = turn_read_filter_of(L, 3, fname, 2, 0, options);
  check_no_more(L, 4, fname, 3);
  if (!lua_isnoneornil(L, 3)) /* reading the filter may run Lua */
    a = live_agent(L, a.box, a.id, fname);
  steer_entry e = steer_entry_default(b); /* default filter: the plain rule */
  e.radius = r;
  e.groups = f.groups;
  e.fov = f.fov;
  return push_vec(L, steer_agent_flock(a.w, a.i, &e));
}

static int a_separation(lua_State *L) {
  return flock_method(L, STEER_SEPARATION, "separation");
}

static int a_alignment(lua_State *L) {
  return flock_method(L, STEER_ALIGNMENT, "alignment");
}

static int a_cohesion(lua_State *L) {
  return flock_method(L, STEER_COHESION, "cohesion");
}

static int a_apply(lua_State *L) {
  agent_ref a = check_agent(L, 1, "apply", 0);
  steer_vec2 f;
  /* any finite force: it is clamped to max_force first */
  f.x = check_finite(L, 2, "apply", 1);
  f.y = check_finite(L, 3, "apply", 2);
  double dt = check_positive(L, 4, "apply", 3);
  double angular = lua_isnoneornil(L, 5) ? 0 : check_finite(L, 5, "apply", 4);
  check_no_more(L, 6, "apply", 5);
  check_status(L, steer_agent_apply_turning(a.w, a.i, f, angular, dt));
  return 0;
}

static int a_neighbors(lua_State *L) {
  agent_ref a = check_agent(L, 1, "neighbors", 0);
  double r = check_nonneg(L, 2, "neighbors", 1);
  /* angle NAN: the agent's facing, read once the query resolves it */
  query_filter f = turn_read_filter(L, 3, "neighbors", 2, NAN);
  check_no_more(L, 4, "neighbors", 3);
  lua_getuservalue(L, 1);
  push_query_iterator(L, -1, a.box, a.id, 0, 0, r, &f, "neighbors");
  return 1;
}

static int a_seed(lua_State *L) {
  agent_ref a = check_agent(L, 1, "seed", 0);
  double s = check_integral(L, 2, "seed", 1);
  check_no_more(L, 3, "seed", 2);
  check_status(L, steer_agent_seed(a.w, a.i, (uint32_t)(uint64_t)(long long)s));
  return 0;
}

static int a_position(lua_State *L) {
  agent_ref a = check_agent(L, 1, "position", 0);
  check_no_more(L, 2, "position", 1);
  return push_vec(L, steer_agent_position(a.w, a.i));
}

static int a_velocity(lua_State *L) {
  agent_ref a = check_agent(L, 1, "velocity", 0);
  check_no_more(L, 2, "velocity", 1);
  return push_vec(L, steer_agent_velocity(a.w, a.i));
}

/* a:world() -> the world the agent belongs to (even after removal) */
static int a_world(lua_State *L) {
  if (!luaL_testudata(L, 1, AGENT_MT)) type_error(L, 1, "world", 0, AGENT_MT);
  lua_getuservalue(L, 1);
  lua_rawgeti(L, -1, ENV_WORLD);
  return 1;
}

static void set_code(lua_State *L, const char *name, int code) {
  lua_pushinteger(L, code);
  lua_setfield(L, -2, name);
}

/* For lua/steer/ffi.lua, which calls the flat C API on the same agents: the
   metatable, the classic methods, the steer_field codes with the ones whose
   writes must be >= 0 (sized), the flat pseudo fields and flocking rules. */
void set_agent_ffi_codes(lua_State *L) {
  luaL_getmetatable(L, AGENT_MT);
  lua_setfield(L, -2, "agent_mt");
  lua_newtable(L); /* methods */
  lua_getfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -5);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_setfield(L, -2, "methods");
  lua_newtable(L); /* fields */
  lua_newtable(L); /* sized */
  for (int k = 0; field_names[k].name; k++) {
    /* numbers only: group, ghost and turn_velocity stay classic */
    if (field_names[k].code >= STEER_FIELD_COUNT ||
        !turn_is_number_field(field_names[k].code))
      continue;
    lua_pushboolean(L, field_names[k].kind == NUM_NONNEG);
    lua_setfield(L, -2, field_names[k].name);
    lua_pushinteger(L, field_names[k].code);
    lua_setfield(L, -3, field_names[k].name);
  }
  lua_setfield(L, -3, "sized");
  lua_setfield(L, -2, "fields");
  lua_newtable(L);
  set_code(L, "speed", STEER_FLAT_SPEED);
  set_code(L, "heading", STEER_FLAT_HEADING);
  set_code(L, "position", STEER_FLAT_POSITION);
  set_code(L, "velocity", STEER_FLAT_VELOCITY);
  lua_setfield(L, -2, "flat");
  lua_newtable(L);
  set_code(L, "separation", STEER_SEPARATION);
  set_code(L, "alignment", STEER_ALIGNMENT);
  set_code(L, "cohesion", STEER_COHESION);
  lua_setfield(L, -2, "rules");
}

int agent_known_key(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  int known = !lua_isnil(L, -1);
  lua_pop(L, 2);
  return known;
}

void open_agent(lua_State *L) {
  static const luaL_Reg methods[] = {
      {"seek", a_seek},
      {"flee", a_flee},
      {"arrive", a_arrive},
      {"pursue", a_pursue},
      {"evade", a_evade},
      {"wander", a_wander},
      {"avoid_obstacles", a_avoid_obstacles},
      {"avoid_walls", a_avoid_walls},
      {"follow", a_follow},
      {"path_index", a_path_index},
      {"separation", a_separation},
      {"alignment", a_alignment},
      {"cohesion", a_cohesion},
      {"apply", a_apply},
      {"neighbors", a_neighbors},
      {"seed", a_seed},
      {"position", a_position},
      {"velocity", a_velocity},
      {"world", a_world},
      {NULL, NULL}};
  new_type(L, AGENT_MT);
  lua_pushcfunction(L, a_tostring);
  lua_setfield(L, -2, "__tostring");
  /* the key table shared by __index and __newindex */
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  luaL_setfuncs(L, program_agent_methods, 0);
  luaL_setfuncs(L, turn_agent_methods, 0);
  luaL_setfuncs(L, orca_agent_methods, 0);
  for (int k = 0; field_names[k].name; k++) {
    lua_pushinteger(L, field_names[k].code);
    lua_setfield(L, -2, field_names[k].name);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, a_index, 1);
  lua_setfield(L, -3, "__index");
  lua_pushcclosure(L, a_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pop(L, 1);
}
