/* turn.c - orientation, groups and paths from Lua (issue 14): the body
 * fields of agents (angle, turn limits, group, ghost), the angular methods
 * (face, look_where_going, match_orientation) and a:set_path_index. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "guard.h"

/* What a body field holds. */
typedef enum body_value { BODY_NUMBER, BODY_GROUP, BODY_BOOLEAN } body_value;

/* The fields world:add and agents take besides steer_agent_def's numbers:
   name, field code, what it holds (and for numbers, their kind). */
static const struct body_field {
  const char *name;
  int code;
  body_value value;
  number_kind kind;
} body_fields[] = {
    {"angle", STEER_ANGLE, BODY_NUMBER, NUM_ANY},
    {"angular_velocity", STEER_ANGULAR_VELOCITY, BODY_NUMBER, NUM_ANY},
    {"max_turn_rate", STEER_MAX_TURN_RATE, BODY_NUMBER, NUM_NONNEG},
    {"max_angular_acceleration", STEER_MAX_ANGULAR_ACCELERATION, BODY_NUMBER,
     NUM_NONNEG},
    {"min_speed", STEER_MIN_SPEED, BODY_NUMBER, NUM_NONNEG},
    {"group", STEER_GROUP, BODY_GROUP, NUM_NONNEG},
    {"ghost", STEER_GHOST, BODY_BOOLEAN, NUM_ANY},
    {"turn_velocity", STEER_TURN_VELOCITY, BODY_BOOLEAN, NUM_ANY},
    {NULL, 0, BODY_NUMBER, NUM_ANY}};

typedef char body_fields_counted[sizeof body_fields / sizeof body_fields[0] ==
                                         TURN_BODY_FIELDS + 1 ? 1 : -1];

/* The body field of code `code`, or NULL. */
static const struct body_field *body_field_of(int code) {
  for (int k = 0; body_fields[k].name; k++)
    if (body_fields[k].code == code) return &body_fields[k];
  return NULL;
}

int turn_is_body_field(int code) { return body_field_of(code) != NULL; }

int turn_is_number_field(int code) {
  const struct body_field *f = body_field_of(code);
  return !f || f->value == BODY_NUMBER;
}

int turn_is_def_key(const char *key) {
  for (int k = 0; body_fields[k].name; k++)
    if (strcmp(body_fields[k].name, key) == 0) return 1;
  return 0;
}

const char *turn_misspelled_def_key(const char *key) {
  for (int k = 0; body_fields[k].name; k++)
    if (is_typo(key, body_fields[k].name)) return body_fields[k].name;
  return NULL;
}

/* The value at idx as messages say what they got: a number as %.14g
   ("nan", not printf's "-nan"), anything else by its type name. */
static const char *got_value(lua_State *L, int idx, char buf[32]) {
  if (lua_type(L, idx) != LUA_TNUMBER) return arg_typename(L, idx);
  double v = lua_tonumber(L, idx);
  if (isnan(v)) return "nan";
  snprintf(buf, 32, "%.14g", v);
  return buf;
}

/* Reads the value at idx for body field f into *out; returns NULL, or what
   is wrong with it in buf, saying what it got ("boolean expected, got
   number"). */
static const char *body_problem(lua_State *L, int idx,
                                const struct body_field *f, double *out,
                                char buf[96]) {
  if (f->value == BODY_BOOLEAN) {
    if (lua_type(L, idx) != LUA_TBOOLEAN) {
      snprintf(buf, 96, "boolean expected, got %s", arg_typename(L, idx));
      return buf;
    }
    *out = lua_toboolean(L, idx);
    return NULL;
  }
  if (lua_type(L, idx) != LUA_TNUMBER) {
    snprintf(buf, 96, "number expected, got %s", arg_typename(L, idx));
    return buf;
  }
  *out = lua_tonumber(L, idx);
  if (f->value == BODY_GROUP) {
    if (*out >= 0 && *out <= 31 && *out == (double)(int)*out) return NULL;
    char got[32];
    snprintf(buf, 96, "integer 0..31 expected, got %s", got_value(L, idx, got));
    return buf;
  }
  return number_problem(*out, f->kind, buf);
}

void turn_push_field(lua_State *L, const agent_ref *a, int code) {
  double v = steer_agent_get(a->w, a->i, (steer_field)code);
  const struct body_field *f = body_field_of(code);
  if (f->value == BODY_BOOLEAN)
    lua_pushboolean(L, v != 0);
  else if (f->value == BODY_GROUP)
    lua_pushinteger(L, (lua_Integer)v);
  else
    lua_pushnumber(L, v);
}

void turn_set_field(lua_State *L, const agent_ref *a, int code,
                    const char *key) {
  char buf[96];
  double v;
  const char *problem = body_problem(L, 3, body_field_of(code), &v, buf);
  if (problem)
    luaL_error(L, "cannot set field '%s' of " AGENT_MT ": %s", key, problem);
  check_status(L, steer_agent_set(a->w, a->i, (steer_field)code, v));
}

const char *turn_body_name(int k) { return body_fields[k].name; }

const char *turn_body_check(lua_State *L, int idx, int k, double *out,
                            char buf[96]) {
  return body_problem(L, idx, &body_fields[k], out, buf);
}

void turn_def_set(steer_agent_def *d, int k, double v) {
  double *slots[] = {&d->angle, &d->angular_velocity, &d->max_turn_rate,
                     &d->max_angular_acceleration, &d->min_speed};
  if (k < 5)
    *slots[k] = v;
  else if (body_fields[k].code == STEER_GROUP)
    d->group = (int)v;
  else if (body_fields[k].code == STEER_GHOST)
    d->ghost = v != 0;
  else
    d->turn_velocity = v != 0;
}

void turn_read_def(lua_State *L, int idx, steer_agent_def *d) {
  for (int k = 0; body_fields[k].name; k++) {
    raw_field(L, idx, body_fields[k].name);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      continue;
    }
    char buf[96];
    double v;
    const char *problem = body_problem(L, -1, &body_fields[k], &v, buf);
    if (problem)
      arg_error(L, "add", 1, "field '%s': %s", body_fields[k].name, problem);
    lua_pop(L, 1);
    turn_def_set(d, k, v);
  }
}

/* ---- angular methods ------------------------------------------------------ */

/* the optional dt after `used` argument slots (default a 60 Hz frame) */
static double opt_dt(lua_State *L, int idx, const char *fname, int argn) {
  if (lua_isnoneornil(L, idx)) return 1.0 / 60;
  return check_positive(L, idx, fname, argn);
}

/* a:face(x, y [, dt]) or a:face(agent [, dt]) -> angular acceleration */
static int a_face(lua_State *L) {
  agent_ref a = check_agent(L, 1, "face", 0);
  int used;
  steer_vec2 t = check_point(L, 2, &a, "face", 1, &used);
  double dt = opt_dt(L, 2 + used, "face", 1 + used);
  check_no_more(L, 3 + used, "face", 2 + used);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "face");
  lua_pushnumber(L, steer_agent_face(a.w, a.i, t, dt));
  return 1;
}

static int a_look_where_going(lua_State *L) {
  agent_ref a = check_agent(L, 1, "look_where_going", 0);
  double dt = opt_dt(L, 2, "look_where_going", 1);
  check_no_more(L, 3, "look_where_going", 2);
  lua_pushnumber(L, steer_agent_look_where_going(a.w, a.i, dt));
  return 1;
}

static int a_match_orientation(lua_State *L) {
  agent_ref a = check_agent(L, 1, "match_orientation", 0);
  agent_ref b = check_peer(L, 2, &a, "match_orientation", 1);
  double dt = opt_dt(L, 3, "match_orientation", 2);
  check_no_more(L, 4, "match_orientation", 3);
  lua_pushnumber(L, steer_agent_match_orientation(a.w, a.i, b.i, dt));
  return 1;
}

/* a:set_path_index(k): the 1-based waypoint to head for on the path the
   agent follows */
static int a_set_path_index(lua_State *L) {
  agent_ref a = check_agent(L, 1, "set_path_index", 0);
  double k = check_integral(L, 2, "set_path_index", 1);
  check_no_more(L, 3, "set_path_index", 2);
  size_t at;
  const steer_path *path = steer_agent_path(a.w, a.i, NULL, &at);
  if (!path) arg_error(L, "set_path_index", 0, "agent follows no path");
  if (k < 1 || k > (double)steer_path_count(path))
    arg_error(L, "set_path_index", 1, "waypoint out of range 1..%d, got %.14g",
              (int)steer_path_count(path), k);
  check_status(L, steer_agent_set_path_index(a.w, a.i, (size_t)k - 1));
  return 0;
}

const luaL_Reg turn_agent_methods[] = {
    {"face", a_face},
    {"look_where_going", a_look_where_going},
    {"match_orientation", a_match_orientation},
    {"set_path_index", a_set_path_index},
    {NULL, NULL}};

/* ---- neighbor filters ------------------------------------------------------ */

query_filter turn_read_filter(lua_State *L, int idx, const char *fname,
                              int argn, double angle) {
  static const char *const options[] = {"groups", "fov", "angle", NULL};
  return turn_read_filter_of(L, idx, fname, argn, angle, options);
}

query_filter turn_read_filter_of(lua_State *L, int idx, const char *fname,
                                 int argn, double angle,
                                 const char *const options[]) {
  query_filter f = {STEER_ALL_GROUPS, 360, angle};
  if (lua_isnoneornil(L, idx)) return f;
  if (!lua_istable(L, idx)) type_error(L, idx, fname, argn, "table");
  check_keys(L, idx, options, fname, argn); /* a typo would filter nothing */
  raw_field(L, idx, "groups");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1))
      arg_error(L, fname, argn, "field 'groups': table expected, got %s",
                arg_typename(L, -1));
    f.groups = 0;
    size_t n = lua_rawlen(L, -1);
    for (size_t k = 1; k <= n; k++) {
      char got[32];
      lua_rawgeti(L, -1, (int)k);
      double g = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || !(g >= 0 && g <= 31) ||
          g != (double)(int)g)
        arg_error(L, fname, argn,
                  "field 'groups'[%d]: integer 0..31 expected, got %s",
                  (int)k, got_value(L, -1, got));
      f.groups |= (uint32_t)1 << (int)g;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  raw_field(L, idx, "fov");
  if (!lua_isnil(L, -1)) {
    char buf[96];
    double v = lua_tonumber(L, -1);
    const char *problem = number_problem(v, NUM_POSITIVE, buf);
    if (lua_type(L, -1) != LUA_TNUMBER) {
      snprintf(buf, 96, "number expected, got %s", arg_typename(L, -1));
      problem = buf;
    }
    if (!problem && v > 360) problem = "at most 360 degrees expected";
    if (problem) arg_error(L, fname, argn, "field 'fov': %s", problem);
    f.fov = v;
  }
  lua_pop(L, 1);
  raw_field(L, idx, "angle");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, fname, argn, "field 'angle': number expected, got %s",
                arg_typename(L, -1));
    f.angle = validate_num(L, lua_tonumber(L, -1), NUM_ANY, fname, argn,
                           "field 'angle'");
  }
  lua_pop(L, 1);
  return f;
}
