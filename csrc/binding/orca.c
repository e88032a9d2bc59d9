/* orca.c - ORCA and avoid_agents from Lua: the `orca` program field,
 * a:orca_velocity and a:avoid_agents (docs/API.md section 18). */
#include <stdio.h>
#include <string.h>
#include "binding.h"
#include "guard.h"

/* orca.push = true: sweeps enough to part the crowds of bench/crowd (16
   leave a few pairs deeper than 0.1 in its circles, 32 fewer, 64 none) */
#define ORCA_PUSH_SWEEPS 64
#define PUSH_EXPECTED "true, false or an integer in [0, 256] expected"
#if STEER_ORCA_MAX_PUSH != 256
#error "PUSH_EXPECTED names STEER_ORCA_MAX_PUSH"
#endif

static const char *const orca_fields[] = {
    "time_horizon", "obstacle_time_horizon", "neighbor_radius",
    "max_neighbors", "margin", "push", "detour", "settle", NULL};

/* Raises for key, a field of none of the names in known (NULL-ended):
   "unknown field 'orca.horizn'", with "did you mean 'orca.horizon'?" when it
   likely misspells one (is_typo). */
static void unknown_field(lua_State *L, const char *key,
                          const char *const known[], const char *fname,
                          int argn, const char *what) {
  const char *meant = typo_of(key, known);
  if (meant)
    arg_error(L, fname, argn, "unknown field '%s.%s': did you mean '%s.%s'?",
              what, key, what, meant);
  arg_error(L, fname, argn, "unknown field '%s.%s'", what, key);
}

/* One field of an orca table (on the stack top, popped) into *o. */
static void read_orca_field(lua_State *L, const char *key, const char *fname,
                            int argn, const char *what, steer_orca *o) {
  char name[96];
  snprintf(name, sizeof name, "%s.%s", what, key);
  int known = 0;
  for (int k = 0; orca_fields[k]; k++) known |= strcmp(key, orca_fields[k]) == 0;
  /* orca_velocity's opts also take dt (read by the caller) */
  static const char *const opts[] = {
      "time_horizon", "obstacle_time_horizon", "neighbor_radius",
      "max_neighbors", "margin", "push", "detour", "settle", "dt", NULL};
  /* before the value's type: a misspelt detour = true is a typo, not a
     wrong type */
  if (!known)
    unknown_field(L, key, strcmp(what, "opts") == 0 ? opts : orca_fields,
                  fname, argn, what);
  int detour = strcmp(key, "detour") == 0;
  if (detour || strcmp(key, "settle") == 0) {
    if (!lua_isboolean(L, -1))
      arg_error(L, fname, argn, "%s: boolean expected, got %s", name,
                arg_typename(L, -1));
    *(detour ? &o->detour : &o->settle) = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return;
  }
  int radius = strcmp(key, "neighbor_radius") == 0;
  if (radius && lua_type(L, -1) == LUA_TSTRING &&
      strcmp(lua_tostring(L, -1), "auto") == 0) { /* orca_neighbor_radius */
    o->neighbor_radius = -1;
    lua_pop(L, 1);
    return;
  }
  if (radius && lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "%s: number or 'auto' expected, got %s", name,
              arg_typename(L, -1));
  int push = strcmp(key, "push") == 0;
  if (push && lua_isboolean(L, -1)) { /* true: ORCA_PUSH_SWEEPS */
    o->push = lua_toboolean(L, -1) ? ORCA_PUSH_SWEEPS : 0;
    lua_pop(L, 1);
    return;
  }
  if (push && lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "%s: " PUSH_EXPECTED ", got %s", name,
              arg_typename(L, -1));
  if (lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "%s: number expected, got %s", name,
              arg_typename(L, -1));
  double v = lua_tonumber(L, -1);
  if (strcmp(key, "time_horizon") == 0) {
    o->time_horizon = validate_num(L, v, NUM_POSITIVE, fname, argn, name);
  } else if (strcmp(key, "obstacle_time_horizon") == 0) {
    o->obstacle_time_horizon =
        validate_num(L, v, NUM_POSITIVE, fname, argn, name);
  } else if (radius) {
    o->neighbor_radius = validate_num(L, v, NUM_NONNEG, fname, argn, name);
  } else if (strcmp(key, "max_neighbors") == 0) {
    if (!(v >= 0 && v <= STEER_ORCA_MAX_NEIGHBORS && v == (double)(int)v))
      arg_error(L, fname, argn, "%s: integer in [0, %d] expected, got %.14g",
                name, STEER_ORCA_MAX_NEIGHBORS, v);
    o->max_neighbors = (size_t)v;
  } else if (strcmp(key, "margin") == 0) {
    if (!(v >= 0 && v <= 1))
      arg_error(L, fname, argn, "%s: number in [0, 1] expected, got %.14g",
                name, v);
    o->margin = v;
  } else if (push) {
    if (!(v >= 0 && v <= STEER_ORCA_MAX_PUSH && v == (double)(int)v))
      arg_error(L, fname, argn, "%s: " PUSH_EXPECTED ", got %.14g", name, v);
    o->push = (size_t)v;
  }
  lua_pop(L, 1);
}

int read_orca(lua_State *L, int idx, const char *fname, int argn,
              const char *what, steer_orca *out) {
  idx = lua_absindex(L, idx);
  *out = steer_orca_default();
  if (lua_isnil(L, idx) || (lua_isboolean(L, idx) && !lua_toboolean(L, idx)))
    return 0;
  if (lua_isboolean(L, idx)) return 1;
  if (!lua_istable(L, idx))
    arg_error(L, fname, argn, "%s: true or a table expected, got %s", what,
              arg_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      arg_error(L, fname, argn, "%s: unexpected %s key", what,
                arg_typename(L, -2));
    read_orca_field(L, lua_tostring(L, -2), fname, argn, what, out);
  }
  return 1;
}

void push_orca(lua_State *L, const steer_orca *o) {
  lua_createtable(L, 0, 8);
  lua_pushnumber(L, o->time_horizon);
  lua_setfield(L, -2, "time_horizon");
  lua_pushnumber(L, o->obstacle_time_horizon);
  lua_setfield(L, -2, "obstacle_time_horizon");
  if (o->neighbor_radius < 0)
    lua_pushliteral(L, "auto");
  else
    lua_pushnumber(L, o->neighbor_radius);
  lua_setfield(L, -2, "neighbor_radius");
  lua_pushinteger(L, (lua_Integer)o->max_neighbors);
  lua_setfield(L, -2, "max_neighbors");
  lua_pushnumber(L, o->margin);
  lua_setfield(L, -2, "margin");
  lua_pushinteger(L, (lua_Integer)o->push);
  lua_setfield(L, -2, "push");
  lua_pushboolean(L, o->detour);
  lua_setfield(L, -2, "detour");
  lua_pushboolean(L, o->settle);
  lua_setfield(L, -2, "settle");
}

/* a:orca_velocity(vx, vy [, opts]) -> vx, vy: the safe velocity for a
   preferred one. opts: the orca fields (default: the agent's program's,
   else the defaults) and dt, the time to resolve an overlap in (1/60). */
static int a_orca_velocity(lua_State *L) {
  agent_ref a = check_agent(L, 1, "orca_velocity", 0);
  steer_vec2 pref = {check_num(L, 2, "orca_velocity", 1),
                     check_num(L, 3, "orca_velocity", 2)};
  const steer_program *p = steer_agent_program(a.w, a.i);
  steer_orca o = p && steer_program_orca(p) ? *steer_program_orca(p)
                                            : steer_orca_default();
  double dt = 1.0 / 60;
  if (!lua_isnoneornil(L, 4)) {
    if (!lua_istable(L, 4)) type_error(L, 4, "orca_velocity", 3, "table");
    lua_pushnil(L);
    while (lua_next(L, 4)) {
      if (lua_type(L, -2) != LUA_TSTRING)
        arg_error(L, "orca_velocity", 3, "opts: unexpected %s key",
                  arg_typename(L, -2));
      if (strcmp(lua_tostring(L, -2), "dt") == 0) {
        if (lua_type(L, -1) != LUA_TNUMBER)
          arg_error(L, "orca_velocity", 3, "opts.dt: number expected, got %s",
                    arg_typename(L, -1));
        dt = validate_num(L, lua_tonumber(L, -1), NUM_POSITIVE,
                          "orca_velocity", 3, "opts.dt");
        lua_pop(L, 1);
      } else {
        read_orca_field(L, lua_tostring(L, -2), "orca_velocity", 3, "opts",
                        &o);
      }
    }
  }
  check_no_more(L, 5, "orca_velocity", 4);
  /* reading opts may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "orca_velocity");
  steer_vec2 v = steer_agent_orca_velocity(a.w, a.i, pref, &o, dt);
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

/* a:avoid_agents([time_horizon [, radius [, personal_space]]]) -> fx, fy */
static int a_avoid_agents(lua_State *L) {
  agent_ref a = check_agent(L, 1, "avoid_agents", 0);
  /* the entry's defaults: 3, 10, 0.5 */
  steer_entry d = steer_entry_default(STEER_AVOID_AGENTS);
  double horizon = d.time_horizon, radius, space;
  if (!lua_isnoneornil(L, 2)) horizon = check_positive(L, 2, "avoid_agents", 1);
  radius = opt_nonneg(L, 3, "avoid_agents", 2, d.radius);
  space = opt_nonneg(L, 4, "avoid_agents", 3, d.personal_space);
  check_no_more(L, 5, "avoid_agents", 4);
  steer_vec2 f = steer_agent_avoid_agents(a.w, a.i, horizon, radius, space);
  lua_pushnumber(L, f.x);
  lua_pushnumber(L, f.y);
  return 2;
}

const luaL_Reg orca_agent_methods[] = {{"orca_velocity", a_orca_velocity},
                                       {"avoid_agents", a_avoid_agents},
                                       {NULL, NULL}};
