/* level.c - level geometry from Lua: the steer.Obstacle, steer.Wall and
 * steer.Polygon handles, world:add_obstacle/add_wall/add_polygon/add_walls,
 * world:obstacles()/walls(), world:raycast/line_of_sight/query_box,
 * steer.walls_from_tiles and agent:contain. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "binding.h"
#include "guard.h"

#define OBSTACLE_MT "steer.Obstacle"
#define WALL_MT "steer.Wall"
#define POLYGON_MT "steer.Polygon"

/* A handle. Its user value is the world's env (which pins the world);
   env[ENV_SHAPES] = { [1] = weak handle -> userdata cache, [2] = handle -> the
   game's own data table }. */
typedef struct lshape {
  lworld *box;
  steer_shape h;
} lshape;

static const char *const kind_names[] = {"removed", "obstacle", "wall",
                                         "polygon"};
static const char *const kind_mt[] = {NULL, OBSTACLE_MT, WALL_MT, POLYGON_MT};

/* Pushes env[ENV_SHAPES][part] (creating it on first use). */
static void push_shapes(lua_State *L, int env, int part) {
  env = lua_absindex(L, env);
  lua_rawgeti(L, env, ENV_SHAPES);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_newtable(L); /* the cache, weak values */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawseti(L, -2, 1);
    lua_newtable(L);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, -1);
    lua_rawseti(L, env, ENV_SHAPES);
  }
  lua_rawgeti(L, -1, part);
  lua_remove(L, -2);
}

/* Pushes shape h's handle from the cache and returns 1, or pushes nothing
   and returns 0; env is the world's env. Allocates nothing. */
static int push_cached_shape(lua_State *L, int env, steer_shape h) {
  lua_rawgeti(L, env, ENV_SHAPES);
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1);
    lua_pushinteger(L, (lua_Integer)h);
    lua_rawget(L, -2);
    if (!lua_isnil(L, -1)) { /* shapes, cache, handle */
      lua_replace(L, -3);
      lua_pop(L, 1);
      return 1;
    }
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
  return 0;
}

/* Pushes a new handle userdata of shape h of the given kind, cached; env
   (absolute) is the world's env. Never reads box->w: allocating may run a
   finalizer that closes the world. */
static void new_shape_handle(lua_State *L, int env, lworld *box,
                             steer_shape h, int kind) {
  push_shapes(L, env, 1);
  lshape *s = new_userdata(L, sizeof *s);
  s->box = box;
  s->h = h;
  luaL_getmetatable(L, kind_mt[kind]);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, env);
  lua_setuservalue(L, -2);
  lua_pushinteger(L, (lua_Integer)h);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* Pushes the handle userdata of shape h of the given kind: the cached one,
   or a new one. */
static void push_shape_kind(lua_State *L, int env, lworld *box,
                            steer_shape h, int kind) {
  env = lua_absindex(L, env);
  if (!push_cached_shape(L, env, h)) new_shape_handle(L, env, box, h, kind);
}

/* On a torus a wall spans at most the world on each axis (a longer one
   would meet itself: docs/API.md section 3.6); refused with an error. */
static const char *span_problem(lua_State *L, lworld *box, steer_vec2 a,
                                steer_vec2 b, const char *fname,
                                char buf[96]);

static void check_span(lua_State *L, lworld *box, steer_vec2 a, steer_vec2 b,
                       const char *fname, int argn, const char *where) {
  char buf[96];
  const char *problem = span_problem(L, box, a, b, fname, buf);
  if (problem) arg_error(L, fname, argn, "%s%s", where, problem);
}

/* The same for a shape of the live world box->w. Its kind (a lookup in
   the world's handles, cold after a ray cast) is read only to make a new
   handle, before anything is allocated; looking the cache up allocates
   nothing. */
static void push_shape(lua_State *L, int env, lworld *box, steer_shape h) {
  env = lua_absindex(L, env);
  if (!push_cached_shape(L, env, h))
    new_shape_handle(L, env, box, h, (int)steer_world_shape(box->w, h, NULL));
}

static lshape *test_shape(lua_State *L, int idx) {
  for (int k = 1; k <= 3; k++) {
    lshape *s = luaL_testudata(L, idx, kind_mt[k]);
    if (s) return s;
  }
  return NULL;
}

/* A live shape at idx; *kind and *index tell what and where it is. */
static lshape *check_shape(lua_State *L, int idx, const char *fname,
                           int argn, steer_shape_kind *kind, size_t *index) {
  lshape *s = test_shape(L, idx);
  if (!s) type_error(L, idx, fname, argn, "steer.Obstacle, steer.Wall or steer.Polygon");
  if (!s->box->w) arg_error(L, fname, argn, "world is closed");
  *kind = steer_world_shape(s->box->w, s->h, index);
  return s;
}

/* ---- fields --------------------------------------------------------------- */

static const char *const obstacle_fields[] = {"x", "y", "radius", NULL};
static const char *const wall_fields[] = {"x1", "y1", "x2", "y2", NULL};

static int field_code(const char *const names[], const char *key) {
  for (int k = 0; names[k]; k++)
    if (strcmp(names[k], key) == 0) return k;
  return -1;
}

/* The live shape whose field `key` is accessed (raising like agents do). */
static lshape *field_owner(lua_State *L, const char *key, size_t *index) {
  lshape *s = test_shape(L, 1);
  int k = 1;
  while (k < 3 && !luaL_testudata(L, 1, kind_mt[k])) k++;
  if (!s->box->w)
    luaL_error(L, "cannot access field '%s' of %s: world is closed", key,
               kind_mt[k]);
  if (steer_world_shape(s->box->w, s->h, index) == STEER_SHAPE_NONE)
    luaL_error(L, "cannot access field '%s' of %s: %s has been removed", key,
               kind_mt[k], kind_names[k]);
  return s;
}

static int shape_remove(lua_State *L);

static int shape_index(lua_State *L) {
  lshape *s = test_shape(L, 1);
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  if (key && strcmp(key, "alive") == 0) {
    lua_pushboolean(L, s->box->w &&
                           steer_world_shape(s->box->w, s->h, NULL) != STEER_SHAPE_NONE);
    return 1;
  }
  if (key && strcmp(key, "id") == 0) {
    lua_pushinteger(L, (lua_Integer)s->h);
    return 1;
  }
  if (key && strcmp(key, "remove") == 0) {
    lua_pushcfunction(L, shape_remove);
    return 1;
  }
  size_t i;
  lshape *o = field_owner(L, key ? key : "(data)", &i);
  steer_shape_kind kind = steer_world_shape(o->box->w, o->h, NULL);
  if (key && strcmp(key, "kind") == 0) {
    lua_pushstring(L, kind_names[kind]);
    return 1;
  }
  int f;
  if (key && kind == STEER_SHAPE_OBSTACLE &&
      (f = field_code(obstacle_fields, key)) >= 0) {
    double v[3];
    steer_world_obstacle(o->box->w, i, v);
    lua_pushnumber(L, v[f]);
    return 1;
  }
  if (key && kind == STEER_SHAPE_WALL && (f = field_code(wall_fields, key)) >= 0) {
    double v[4];
    steer_world_wall(o->box->w, i, v);
    lua_pushnumber(L, v[f]);
    return 1;
  }
  if (key && kind == STEER_SHAPE_POLYGON && strcmp(key, "edges") == 0) {
    lua_pushinteger(L, (lua_Integer)i);
    return 1;
  }
  lua_getuservalue(L, 1);
  push_shapes(L, -1, 2);
  lua_pushinteger(L, (lua_Integer)o->h);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) return 1;
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

/* Names a handle answers itself (never the game's own data). */
static const char *const reserved_keys[] = {"alive", "id", "kind", "remove",
                                            "edges", NULL};

/* The fields of a shape kind (polygons have none of their own). */
static const char *const *kind_fields(steer_shape_kind kind) {
  return kind == STEER_SHAPE_OBSTACLE ? obstacle_fields
         : kind == STEER_SHAPE_WALL   ? wall_fields
                                      : reserved_keys + 5; /* empty */
}

/* The field or reserved name that `key` misspells, or NULL. */
static const char *misspelled(const char *const fields[], const char *key) {
  const char *meant = typo_of(key, fields);
  return meant ? meant : typo_of(key, reserved_keys);
}

/* Why wall a-b cannot be in box's world (NULL: it can): longer than a
   wrapped world. */
static const char *span_problem(lua_State *L, lworld *box, steer_vec2 a,
                                steer_vec2 b, const char *fname,
                                char buf[96]) {
  steer_world_def d = steer_world_get_def(live_world(L, box, fname));
  if (!d.wrap || (fabs(b.x - a.x) <= d.width && fabs(b.y - a.y) <= d.height))
    return NULL;
  snprintf(buf, 96, "wall is longer than the wrapped world (%g by %g)",
           d.width, d.height);
  return buf;
}

/* shape.field = value: a field moves the shape (its index follows), a
   reserved name raises, any other key is the game's own data (a new key
   that misspells a field raises, as agents do) */
static int shape_newindex(lua_State *L) {
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  size_t i;
  lshape *o = field_owner(L, key ? key : "(data)", &i);
  steer_shape_kind kind = steer_world_shape(o->box->w, o->h, NULL);
  const char *mt = kind_mt[kind], *fname = kind_names[kind];
  const char *const *fields = kind_fields(kind);
  int f = key ? field_code(fields, key) : -1;
  char buf[96];
  const char *problem = NULL;
  if (f >= 0 && lua_type(L, 3) != LUA_TNUMBER)
    return luaL_error(L, "cannot set field '%s' of %s: number expected, got %s",
                      key, mt, arg_typename(L, 3));
  if (f >= 0)
    problem = number_problem(lua_tonumber(L, 3),
                             kind == STEER_SHAPE_OBSTACLE && f == 2 ? NUM_NONNEG
                                                                   : NUM_ANY,
                             buf);
  if (problem)
    return luaL_error(L, "cannot set field '%s' of %s: %s", key, mt, problem);
  if (f >= 0 && kind == STEER_SHAPE_OBSTACLE) {
    double v[3];
    steer_world_obstacle(o->box->w, i, v);
    v[f] = lua_tonumber(L, 3);
    check_status(L, steer_world_set_obstacle(o->box->w, i, v[0], v[1], v[2]));
    return 0;
  }
  if (f >= 0) { /* a wall */
    double v[4];
    steer_world_wall(o->box->w, i, v);
    v[f] = lua_tonumber(L, 3);
    steer_vec2 a = {v[0], v[1]}, b = {v[2], v[3]};
    problem = a.x == b.x && a.y == b.y ? "the wall would have zero length"
                                       : span_problem(L, o->box, a, b, fname, buf);
    if (problem)
      return luaL_error(L, "cannot set field '%s' of %s: %s", key, mt, problem);
    check_status(L, steer_world_set_wall(o->box->w, i, a, b));
    return 0;
  }
  if (key && field_code(reserved_keys, key) >= 0)
    return luaL_error(L, "field '%s' of %s is read-only", key, mt);
  /* the game's own data */
  lua_getuservalue(L, 1);
  push_shapes(L, -1, 2);
  lua_pushinteger(L, (lua_Integer)o->h);
  lua_rawget(L, -2);
  int fresh = 1; /* a key it does not hold yet */
  if (!lua_isnil(L, -1)) {
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    fresh = lua_isnil(L, -1);
    lua_pop(L, 1);
  }
  const char *meant =
      key && fresh && !lua_isnil(L, 3) ? misspelled(fields, key) : NULL;
  if (meant)
    return luaL_error(L, "cannot set field '%s' of %s: did you mean '%s'?",
                      key, mt, meant);
  if (lua_isnil(L, -1)) {
    if (lua_isnil(L, 3)) return 0; /* nil to an absent key */
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushinteger(L, (lua_Integer)o->h);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, -3);
  return 0;
}

/* Forgets the game's own data of shape h (env at idx). */
static void drop_data(lua_State *L, int env, steer_shape h) {
  push_shapes(L, env, 2);
  lua_pushinteger(L, (lua_Integer)h);
  lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* shape:remove(): afterwards the handle raises like a removed agent */
static int shape_remove(lua_State *L) {
  steer_shape_kind kind;
  size_t i;
  lshape *s = check_shape(L, 1, "remove", 0, &kind, &i);
  if (kind == STEER_SHAPE_NONE)
    return arg_error(L, "remove", 0, "shape has been removed");
  steer_world_remove_shape(s->box->w, s->h);
  lua_getuservalue(L, 1);
  drop_data(L, -1, s->h);
  return 0;
}

static int shape_tostring(lua_State *L) {
  lshape *s = test_shape(L, 1);
  size_t i;
  steer_shape_kind kind =
      s->box->w ? steer_world_shape(s->box->w, s->h, &i) : STEER_SHAPE_NONE;
  unsigned long long id = (unsigned long long)s->h;
  double v[4];
  char buf[200];
  switch (kind) {
  case STEER_SHAPE_OBSTACLE:
    steer_world_obstacle(s->box->w, i, v);
    snprintf(buf, sizeof buf, OBSTACLE_MT " %llu (%.3f, %.3f r %.3f)", id,
             v[0], v[1], v[2]);
    break;
  case STEER_SHAPE_WALL:
    steer_world_wall(s->box->w, i, v);
    snprintf(buf, sizeof buf, WALL_MT " %llu (%.3f, %.3f)-(%.3f, %.3f)", id,
             v[0], v[1], v[2], v[3]);
    break;
  case STEER_SHAPE_POLYGON:
    snprintf(buf, sizeof buf, POLYGON_MT " %llu (%d edges)", id, (int)i);
    break;
  default: snprintf(buf, sizeof buf, "steer shape %llu (removed)", id); break;
  }
  lua_pushstring(L, buf);
  return 1;
}

/* ---- adding ---------------------------------------------------------------- */

/* A number field of the table at idx, required; `where` prefixes the
   message ("" or "wall 3: "). */
static double need_number_in(lua_State *L, int idx, const char *key, int kind,
                             const char *fname, int argn, const char *where) {
  raw_field(L, idx, key); /* raw: no Lua code runs (guard.h) */
  if (lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, fname, argn, "%sfield '%s': number expected, got %s", where,
              key, arg_typename(L, -1));
  double v = lua_tonumber(L, -1);
  char problem[96];
  if (number_problem(v, kind, problem)) { /* the message only when it is needed */
    char what[64];
    snprintf(what, sizeof what, "%sfield '%s'", where, key);
    validate_num(L, v, kind, fname, argn, what);
  }
  lua_pop(L, 1);
  return v;
}

static double need_number(lua_State *L, int idx, const char *key, int kind,
                          const char *fname, int argn) {
  return need_number_in(L, idx, key, kind, fname, argn, "");
}

/* The table's keys that are none of `known` (and not array slots) become
   a new data table, pushed (or nil when there are none). A reserved name
   or a misspelt field raises (fname's argument 1). */
static void push_own_data(lua_State *L, int idx, const char *const known[],
                          const char *fname) {
  lua_pushnil(L); /* the data table, made on the first own key */
  int data = lua_gettop(L);
  size_t n = lua_rawlen(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int skip = 0;
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char *key = lua_tostring(L, -2), *meant;
      for (int k = 0; known[k]; k++)
        if (strcmp(key, known[k]) == 0) skip = 1;
      if (field_code(reserved_keys, key) >= 0)
        arg_error(L, fname, 1, "field '%s' is reserved (the handle answers it)",
                  key);
      if (!skip && (meant = misspelled(known, key)) != NULL)
        arg_error(L, fname, 1, "field '%s': did you mean '%s'?", key, meant);
    } else if (lua_type(L, -2) == LUA_TNUMBER) {
      double k = lua_tonumber(L, -2);
      skip = k >= 1 && k <= (double)n && k == (double)(size_t)k;
    }
    if (skip) {
      lua_pop(L, 1);
      continue;
    }
    if (lua_isnil(L, data)) {
      lua_newtable(L);
      lua_replace(L, data);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, data);
  }
}

/* Makes the world's shape tables exist, so that the allocations happen
   before the world is resolved for the core call (guard.h). */
static void prepare_add(lua_State *L, int env) {
  env = lua_absindex(L, env);
  push_shapes(L, env, 1);
  push_shapes(L, env, 2);
  lua_pop(L, 2);
}

/* Stores the data table at idx (nil: none) as shape h's, then pushes the
   handle of that kind (env is the world's env). The shape is in the world
   already: Lua code running from here on sees it. */
static int finish_add(lua_State *L, int env, lworld *box, steer_shape h,
                      int kind, int data) {
  if (!lua_isnil(L, data)) {
    push_shapes(L, env, 2);
    lua_pushinteger(L, (lua_Integer)h);
    lua_pushvalue(L, data);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  push_shape_kind(L, env, box, h, kind);
  return 1;
}

static const char *const obstacle_keys[] = {"x", "y", "radius", NULL};
static const char *const wall_keys[] = {"x1", "y1", "x2", "y2", "solid", NULL};
static const char *const polygon_keys[] = {"closed", NULL};

/* world:add_obstacle{ x =, y =, radius =, ... } -> steer.Obstacle */
static int w_add_obstacle(lua_State *L) {
  lworld *box = check_world(L, 1, "add_obstacle", 0);
  if (!lua_istable(L, 2)) type_error(L, 2, "add_obstacle", 1, "table");
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  /* first: a misspelt field is named before it is missed */
  push_own_data(L, 2, obstacle_keys, "add_obstacle");
  int data = lua_gettop(L);
  double x = need_number(L, 2, "x", 0, "add_obstacle", 1);
  double y = need_number(L, 2, "y", 0, "add_obstacle", 1);
  double r = need_number(L, 2, "radius", 1, "add_obstacle", 1);
  prepare_add(L, env);
  /* everything that can fail or run Lua is done: now the core */
  steer_world *w = live_world(L, box, "add_obstacle");
  check_status(L, steer_world_add_obstacle(w, x, y, r, NULL));
  steer_shape h = steer_world_obstacle_shape(w, steer_world_obstacle_count(w) - 1);
  return finish_add(L, env, box, h, 1, data);
}

static void read_wall(lua_State *L, int idx, const char *fname, int argn,
                      const char *where, steer_vec2 *a, steer_vec2 *b) {
  a->x = need_number_in(L, idx, "x1", 0, fname, argn, where);
  a->y = need_number_in(L, idx, "y1", 0, fname, argn, where);
  b->x = need_number_in(L, idx, "x2", 0, fname, argn, where);
  b->y = need_number_in(L, idx, "y2", 0, fname, argn, where);
  if (a->x == b->x && a->y == b->y)
    arg_error(L, fname, argn, "%swall has zero length", where);
}

/* A wall's `solid` field: nil (two-sided) or "left" (one-sided, solid on
   the left of (x1, y1) -> (x2, y2), as walls_from_tiles makes them). */
static int read_solid(lua_State *L, int idx, const char *fname, int argn,
                      const char *where) {
  raw_field(L, idx, "solid");
  int t = lua_type(L, -1);
  int left = t == LUA_TSTRING && strcmp(lua_tostring(L, -1), "left") == 0;
  if (t != LUA_TNIL && !left)
    arg_error(L, fname, argn, "%sfield 'solid': nil or 'left' expected, got %s",
              where, t == LUA_TSTRING ? lua_tostring(L, -1) : arg_typename(L, -1));
  lua_pop(L, 1);
  return left;
}

/* world:add_wall{ x1 =, y1 =, x2 =, y2 =, ... } -> steer.Wall */
static int w_add_wall(lua_State *L) {
  lworld *box = check_world(L, 1, "add_wall", 0);
  if (!lua_istable(L, 2)) type_error(L, 2, "add_wall", 1, "table");
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  push_own_data(L, 2, wall_keys, "add_wall"); /* first, as add_obstacle */
  int data = lua_gettop(L);
  steer_vec2 a, b;
  read_wall(L, 2, "add_wall", 1, "", &a, &b);
  int solid = read_solid(L, 2, "add_wall", 1, "");
  check_span(L, box, a, b, "add_wall", 1, "");
  prepare_add(L, env);
  steer_world *w = live_world(L, box, "add_wall");
  check_status(L, steer_world_add_wall(w, a, b, NULL));
  steer_world_set_wall_solid_left(w, steer_world_wall_count(w) - 1, solid);
  steer_shape h = steer_world_wall_shape(w, steer_world_wall_count(w) - 1);
  return finish_add(L, env, box, h, 2, data);
}

/* Point k (1-based) of a list of points at idx, {x, y}, {x =, y =} or a
   steer.SharedPoint (its position now), into *p. */
static void list_point(lua_State *L, int idx, size_t k, const char *fname,
                       int argn, const char *where, steer_vec2 *p) {
  lua_rawgeti(L, idx, (int)k);
  steer_point *shared = test_point(L, -1);
  char buf[128];
  const char *problem = NULL;
  if (shared)
    *p = steer_point_get(shared);
  else if (lua_istable(L, -1))
    problem = table_point(L, -1, p, buf);
  else
    arg_error(L, fname, argn, "%spoint %d: {x, y}, {x =, y =} or "
              "steer.SharedPoint expected, got %s", where, (int)k,
              arg_typename(L, -1));
  if (problem) arg_error(L, fname, argn, "%spoint %d: %s", where, (int)k, problem);
  lua_pop(L, 1);
}

/* The points at idx into a Lua-owned buffer (pushed): a flat array
   {x1, y1, x2, y2, ...} or a list of points (list_point); at least `min`
   points. `where` prefixes the messages ("" or "entry 2 ('contain'): "). */
static steer_vec2 *read_points(lua_State *L, int idx, size_t min,
                               const char *fname, int argn, const char *where,
                               size_t *count) {
  size_t len = lua_rawlen(L, idx);
  lua_rawgeti(L, idx, 1);
  int flat = lua_type(L, -1) == LUA_TNUMBER || lua_isnil(L, -1);
  lua_pop(L, 1);
  size_t n = flat ? len / 2 : len;
  if (flat && len % 2)
    arg_error(L, fname, argn, "%s%d numbers: x, y pairs expected (an even count)",
              where, (int)len);
  if (n < min)
    arg_error(L, fname, argn, "%s%d point%s: at least %d expected", where,
              (int)n, n == 1 ? "" : "s", (int)min);
  if (n > 67108864u) arg_error(L, fname, argn, "%stoo many points", where);
  steer_vec2 *pts = new_userdata(L, n * sizeof *pts);
  for (size_t k = 0; k < n && !flat; k++)
    list_point(L, idx, k + 1, fname, argn, where, &pts[k]);
  for (size_t k = 0; k < len && flat; k++) {
    lua_rawgeti(L, idx, (int)k + 1);
    char what[64];
    snprintf(what, sizeof what, "%s[%d]", where, (int)k + 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, fname, argn, "%s: number expected, got %s", what,
                arg_typename(L, -1));
    double v = validate_num(L, lua_tonumber(L, -1), 0, fname, argn, what);
    if (k % 2)
      pts[k / 2].y = v;
    else
      pts[k / 2].x = v;
    lua_pop(L, 1);
  }
  *count = n;
  return pts;
}

/* world:add_polygon{ x1, y1, x2, y2, ..., closed = true } -> steer.Polygon */
static int w_add_polygon(lua_State *L) {
  lworld *box = check_world(L, 1, "add_polygon", 0);
  if (!lua_istable(L, 2)) type_error(L, 2, "add_polygon", 1, "table");
  size_t n;
  steer_vec2 *pts = read_points(L, 2, 2, "add_polygon", 1, "", &n);
  raw_field(L, 2, "closed");
  int closed = lua_isnil(L, -1) || lua_toboolean(L, -1);
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    arg_error(L, "add_polygon", 1, "field 'closed': boolean expected, got %s",
              arg_typename(L, -1));
  lua_pop(L, 1);
  int some_length = 0;
  for (size_t k = 0; k + 1 < n || (closed && k < n); k++) {
    check_span(L, box, pts[k], pts[(k + 1) % n], "add_polygon", 1, "edge: ");
    some_length |= pts[k].x != pts[(k + 1) % n].x || pts[k].y != pts[(k + 1) % n].y;
  }
  /* zero-length edges are left out: a polygon of them would have none */
  if (!some_length)
    arg_error(L, "add_polygon", 1, "every edge has zero length (the points coincide)");
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  push_own_data(L, 2, polygon_keys, "add_polygon");
  int data = lua_gettop(L);
  prepare_add(L, env);
  steer_shape h;
  check_status(L, steer_world_add_polygon(live_world(L, box, "add_polygon"),
                                          pts, n, closed, &h));
  return finish_add(L, env, box, h, 3, data);
}

/* world:add_walls(list): {x1 =, y1 =, x2 =, y2 =} tables (as
   steer.walls_from_tiles returns them), all checked first, then all added
   or, out of memory, none. Returns how many. */
static int w_add_walls(lua_State *L) {
  lworld *box = check_world(L, 1, "add_walls", 0);
  if (!lua_istable(L, 2)) type_error(L, 2, "add_walls", 1, "table");
  size_t n = lua_rawlen(L, 2);
  lua_pushnil(L);
  if (!n && lua_next(L, 2)) { /* not empty, yet no item 1 */
    lua_pushliteral(L, "x1");
    lua_rawget(L, 2);
    int one_wall = !lua_isnil(L, -1);
    arg_error(L, "add_walls", 1, "a list of walls expected, got %s",
              one_wall ? "one wall (world:add_wall takes one)"
                       : "a table without item 1");
  }
  steer_vec2 *ends = new_userdata(L, (n ? n : 1) * 2 * sizeof *ends);
  unsigned char *solid = new_userdata(L, n ? n : 1);
  for (size_t k = 0; k < n; k++) {
    lua_rawgeti(L, 2, (int)k + 1);
    if (!lua_istable(L, -1))
      arg_error(L, "add_walls", 1, "wall %d: table expected, got %s",
                (int)k + 1, arg_typename(L, -1));
    char where[32];
    snprintf(where, sizeof where, "wall %d: ", (int)k + 1);
    read_wall(L, lua_gettop(L), "add_walls", 1, where, &ends[2 * k],
              &ends[2 * k + 1]);
    solid[k] = (unsigned char)read_solid(L, lua_gettop(L), "add_walls", 1, where);
    check_span(L, box, ends[2 * k], ends[2 * k + 1], "add_walls", 1, where);
    lua_pop(L, 1);
  }
  steer_world *w = live_world(L, box, "add_walls"); /* Lua ran above */
  size_t before = steer_world_wall_count(w);
  /* all or none: a failed call leaves the next handles as they were */
  check_status(L, steer_world_add_walls(w, ends, n));
  for (size_t k = 0; k < n; k++)
    steer_world_set_wall_solid_left(w, before + k, solid[k]);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* ---- iterating -------------------------------------------------------------- */

/* for s in world:obstacles() / world:walls(): the control variable is the
   previous handle, so removing shapes while iterating is fine; the loop
   visits the shapes present when it began (upvalue 1: the world's count
   of shapes added then), so one that adds shapes ends */
static int shapes_next(lua_State *L, unsigned kinds, const char *fname) {
  lworld *box = check_world(L, 1, fname, 0);
  steer_shape after = 0;
  if (!lua_isnoneornil(L, 2)) {
    lshape *prev = test_shape(L, 2);
    if (!prev) type_error(L, 2, fname, 1, "steer shape");
    after = prev->h;
  }
  uint64_t births = (uint64_t)lua_tonumber(L, lua_upvalueindex(1));
  steer_shape h = steer_world_next_shape_born(box->w, kinds, after, births);
  if (!h) return 0;
  lua_getuservalue(L, 1);
  push_shape(L, -1, box, h);
  return 1;
}

static int obstacles_next(lua_State *L) {
  return shapes_next(L, 1u << STEER_SHAPE_OBSTACLE, "obstacles");
}
static int walls_next(lua_State *L) {
  return shapes_next(L, 1u << STEER_SHAPE_WALL | 1u << STEER_SHAPE_POLYGON,
                     "walls");
}

/* The loop's three values: next (its upvalue, the shapes added so far),
   the world, nil. */
static int shapes_loop(lua_State *L, lua_CFunction next, const char *fname) {
  lworld *box = check_world(L, 1, fname, 0);
  /* a double holds the count exactly below 2^53 additions */
  lua_pushnumber(L, (lua_Number)steer_world_shape_births(
                        live_world(L, box, fname)));
  lua_pushcclosure(L, next, 1);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

static int w_obstacles(lua_State *L) {
  return shapes_loop(L, obstacles_next, "obstacles");
}

static int w_walls(lua_State *L) { return shapes_loop(L, walls_next, "walls"); }

/* world:clear_obstacles() / clear_walls(): every handle of the kind is
   removed and its own data forgotten */
static int clear_kinds(lua_State *L, unsigned kinds, const char *fname) {
  lworld *box = check_world(L, 1, fname, 0);
  lua_getuservalue(L, 1);
  prepare_add(L, -1); /* the tables exist: dropping data allocates nothing */
  steer_world *w = live_world(L, box, fname);
  for (steer_shape h = steer_world_next_shape(w, kinds, 0); h;
       h = steer_world_next_shape(w, kinds, h))
    drop_data(L, -1, h);
  if (kinds & 1u << STEER_SHAPE_OBSTACLE)
    steer_world_clear_obstacles(w);
  else
    steer_world_clear_walls(w);
  return 0;
}

static int w_clear_obstacles(lua_State *L) {
  return clear_kinds(L, 1u << STEER_SHAPE_OBSTACLE, "clear_obstacles");
}
static int w_clear_walls(lua_State *L) {
  return clear_kinds(L, 1u << STEER_SHAPE_WALL | 1u << STEER_SHAPE_POLYGON,
                     "clear_walls");
}

/* world:segments([t]) -> {x1, y1, x2, y2, ...}, n: every wall segment
   (polygon edges included) in one flat table, for drawing; t is reused */
static int w_segments(lua_State *L) {
  lworld *box = check_world(L, 1, "segments", 0);
  int reuse = !lua_isnoneornil(L, 2);
  if (reuse && !lua_istable(L, 2)) type_error(L, 2, "segments", 1, "table");
  lua_settop(L, 2);
  /* a copy owned by Lua: filling the table may run a finalizer that edits
     or closes the world (guard.h) */
  size_t n;
  const double *copy = copy_rows(L, box, "segments", 4, steer_world_wall_count,
                                 steer_world_wall, &n);
  if (!reuse)
    lua_createtable(L, (int)(4 * n), 0);
  else
    lua_pushvalue(L, 2);
  for (size_t k = 0; k < n; k++)
    for (int c = 0; c < 4; c++) {
      lua_pushnumber(L, copy[4 * k + c]);
      lua_rawseti(L, -2, (int)(4 * k) + c + 1);
    }
  for (size_t k = 4 * n + 1;; k++) { /* a reused table ends here */
    lua_rawgeti(L, -1, (int)k);
    int more = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!more) break;
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)k);
  }
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

/* ---- queries ---------------------------------------------------------------- */

/* An end point at idx: an agent of this world, a steer.SharedPoint (where
   it is now), {x, y}, {x =, y =} or two numbers; returns the stack slots
   it took. */
static int read_end(lua_State *L, int idx, lworld *box, const char *fname,
                    steer_vec2 *p) {
  if (lua_type(L, idx) == LUA_TNUMBER) { /* the common form first */
    p->x = check_num(L, idx, fname, idx - 1);
    p->y = check_num(L, idx + 1, fname, idx);
    return 2;
  }
  steer_point *shared = test_point(L, idx);
  if (shared) {
    *p = steer_point_get(shared);
    return 1;
  }
  lagent *ag = luaL_testudata(L, idx, AGENT_MT);
  if (ag) {
    agent_ref a = check_agent(L, idx, fname, idx - 1);
    if (a.box != box) arg_error(L, fname, idx - 1, "agent belongs to another world");
    *p = steer_agent_position(a.w, a.i);
    return 1;
  }
  if (lua_istable(L, idx)) { /* as every point is read (check_point) */
    char buf[128];
    const char *problem = table_point(L, idx, p, buf);
    if (problem) arg_error(L, fname, idx - 1, "point %s", problem);
    return 1;
  }
  type_error(L, idx, fname, idx - 1, POINT_FORMS);
  return 0; /* not reached */
}

/* One thing a ray passes through (raycast's filter field 'ignore', at
   idx): an agent into *agent, a shape into *shape. */
static void read_ignored(lua_State *L, int idx, lworld *box, int argn,
                         steer_id *agent, steer_shape *shape) {
  lagent *ag = luaL_testudata(L, idx, AGENT_MT);
  lshape *sh = ag ? NULL : test_shape(L, idx);
  if (!ag && !sh)
    arg_error(L, "raycast", argn,
              "field 'ignore': steer.Agent, steer.Obstacle, steer.Wall, "
              "steer.Polygon or a list of them expected, got %s",
              arg_typename(L, idx));
  steer_world *w = live_world(L, box, "raycast");
  if ((ag ? ag->box : sh->box) != box)
    arg_error(L, "raycast", argn, "field 'ignore': %s belongs to another world",
              ag ? "agent" : "shape");
  if (ag) {
    if (steer_world_index(w, ag->id) < 0)
      arg_error(L, "raycast", argn, "field 'ignore': agent has been removed");
    *agent = ag->id;
    return;
  }
  if (steer_world_shape(w, sh->h, NULL) == STEER_SHAPE_NONE)
    arg_error(L, "raycast", argn, "field 'ignore': shape has been removed");
  *shape = sh->h;
}

/* raycast's filter field 'ignore' (at idx): an agent, a shape, or a list
   of at most one of each. */
static void read_ignore(lua_State *L, int idx, lworld *box, int argn,
                        steer_id *agent, steer_shape *shape) {
  if (!lua_istable(L, idx)) {
    read_ignored(L, idx, box, argn, agent, shape);
    return;
  }
  size_t n = lua_rawlen(L, idx);
  int agents = 0, shapes = 0;
  for (size_t k = 1; k <= n; k++) {
    lua_rawgeti(L, idx, (lua_Integer)k);
    steer_id a = 0;
    steer_shape h = 0;
    read_ignored(L, lua_gettop(L), box, argn, &a, &h);
    agents += a != 0;
    shapes += h != 0;
    if (agents > 1 || shapes > 1)
      arg_error(L, "raycast", argn,
                "field 'ignore': at most one agent and one shape, got two %s",
                a ? "agents" : "shapes");
    if (a) *agent = a;
    if (h) *shape = h;
    lua_pop(L, 1);
  }
}

/* world:raycast(x1, y1, x2, y2 [, filter]), or each end an agent or a
   point as line_of_sight takes them -> fraction, hit_x, hit_y, normal_x,
   normal_y, kind, handle | nil. An agent at the start is left out (the
   filter's ignore, unless it names another). */
static int w_raycast(lua_State *L) {
  lworld *box = check_world(L, 1, "raycast", 0);
  steer_vec2 a, b;
  lagent *from = luaL_testudata(L, 2, AGENT_MT);
  int used = read_end(L, 2, box, "raycast", &a);
  int at = 2 + used; /* the filter's stack slot */
  at += read_end(L, at, box, "raycast", &b);
  unsigned kinds = STEER_RAY_WALLS | STEER_RAY_OBSTACLES;
  steer_id ignore = from ? from->id : 0; /* live: read_end checked it */
  steer_shape ignore_shape = 0;
  int argn = at - 1;
  if (!lua_isnoneornil(L, at)) {
    if (!lua_istable(L, at)) type_error(L, at, "raycast", argn, "table");
    static const char *const keys[] = {"walls", "obstacles", "agents", NULL};
    lua_pushnil(L);
    while (lua_next(L, at)) {
      const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
      int k = field_code(keys, key);
      if (k >= 0) {
        if (!lua_isboolean(L, -1))
          arg_error(L, "raycast", argn, "field '%s': boolean expected, got %s",
                    key, arg_typename(L, -1));
        if (lua_toboolean(L, -1))
          kinds |= 1u << k;
        else
          kinds &= ~(1u << k);
      } else if (strcmp(key, "ignore") == 0) {
        read_ignore(L, lua_gettop(L), box, argn, &ignore, &ignore_shape);
      } else {
        arg_error(L, "raycast", argn, "unknown filter field '%s'",
                  lua_type(L, -2) == LUA_TSTRING ? key : arg_typename(L, -2));
      }
      lua_pop(L, 1);
    }
  }
  steer_ray_hit hit;
  steer_world *w = live_world(L, box, "raycast");
  if (!steer_world_raycast_ignoring(w, a, b, kinds, ignore, ignore_shape,
                                    &hit)) {
    lua_pushnil(L);
    return 1;
  }
  /* the handle first, while the world is live (making one may run a
     finalizer that closes it); the seven results are the top seven */
  lua_getuservalue(L, 1);
  if (hit.kind == STEER_HIT_AGENT)
    push_agent(L, -1, box, hit.agent);
  else
    push_shape(L, -1, box, hit.shape);
  int handle = lua_gettop(L);
  lua_pushnumber(L, hit.fraction);
  lua_pushnumber(L, hit.point.x);
  lua_pushnumber(L, hit.point.y);
  lua_pushnumber(L, hit.normal.x);
  lua_pushnumber(L, hit.normal.y);
  static const char *const hit_names[] = {"none", "wall", "obstacle", "agent"};
  lua_pushstring(L, hit_names[hit.kind]);
  lua_pushvalue(L, handle);
  return 7;
}

/* world:line_of_sight(a, b): each end an agent or a point -> boolean (no
   wall or obstacle in between) */
static int w_line_of_sight(lua_State *L) {
  lworld *box = check_world(L, 1, "line_of_sight", 0);
  steer_vec2 a, b;
  int used = read_end(L, 2, box, "line_of_sight", &a);
  read_end(L, 2 + used, box, "line_of_sight", &b);
  lua_pushboolean(L, steer_world_line_of_sight(
                        live_world(L, box, "line_of_sight"), a, b));
  return 1;
}

/* world:query_box(x1, y1, x2, y2 [, {groups = {...}}]) -> iterator over
   the agents inside */
static int w_query_box(lua_State *L) {
  lworld *box = check_world(L, 1, "query_box", 0);
  double v[4];
  for (int k = 0; k < 4; k++) v[k] = check_num(L, 2 + k, "query_box", 1 + k);
  if (lua_istable(L, 6)) { /* query's cone has an apex; a box has none */
    static const char *const cone[] = {"fov", "angle"};
    for (int k = 0; k < 2; k++) {
      raw_field(L, 6, cone[k]);
      if (!lua_isnil(L, -1))
        arg_error(L, "query_box", 5,
                  "field '%s': a box has no view cone (world:query takes one)",
                  cone[k]);
      lua_pop(L, 1);
    }
  }
  static const char *const options[] = {"groups", NULL};
  query_filter f = turn_read_filter_of(L, 6, "query_box", 5, 0, options);
  check_no_more(L, 7, "query_box", 6);
  lua_getuservalue(L, 1);
  push_box_iterator(L, -1, box, v, f.groups, "query_box");
  return 1;
}

/* ---- tiles and containment -------------------------------------------------- */

/* steer.walls_from_tiles(tiles, w, h, cell_size [, origin_x, origin_y]) ->
   { {x1 =, y1 =, x2 =, y2 =}, ... } */
static int l_walls_from_tiles(lua_State *L) {
  const char *fname = "walls_from_tiles";
  if (!lua_istable(L, 1)) type_error(L, 1, fname, 1, "table");
  double w = check_integral(L, 2, fname, 2), h = check_integral(L, 3, fname, 3);
  double cell = check_positive(L, 4, fname, 4);
  double ox = lua_isnoneornil(L, 5) ? 0 : check_num(L, 5, fname, 5);
  double oy = lua_isnoneornil(L, 6) ? 0 : check_num(L, 6, fname, 6);
  if (w < 0 || h < 0 || w * h > 16777216.0)
    arg_error(L, fname, w < 0 ? 2 : h < 0 ? 3 : 2,
              "map of %.0f x %.0f tiles: each side >= 0, at most 2^24 tiles", w, h);
  size_t n = (size_t)w * (size_t)h;
  /* a longer array too: a wrong w or h would make another level */
  if (lua_rawlen(L, 1) != n)
    arg_error(L, fname, 1, "%d tiles, expected w * h = %d%s",
              (int)lua_rawlen(L, 1), (int)n, rows_hint(L, 1));
  /* the far corner must stay within the limit too */
  validate_num(L, ox + w * cell, 0, fname, 4, "origin_x + w * cell_size");
  validate_num(L, oy + h * cell, 0, fname, 4, "origin_y + h * cell_size");
  unsigned char *solid = new_userdata(L, n ? n : 1);
  for (size_t k = 0; k < n; k++) {
    lua_rawgeti(L, 1, (int)k + 1);
    int t = lua_type(L, -1);
    if (t == LUA_TNUMBER) {
      /* NaN is neither 0 nor solid: refused, like every other number */
      char what[32];
      snprintf(what, sizeof what, "tile %d", (int)k + 1);
      solid[k] = validate_num(L, lua_tonumber(L, -1), NUM_FINITE, fname, 1,
                              what) != 0;
    } else if (t == LUA_TBOOLEAN || t == LUA_TNIL)
      solid[k] = (unsigned char)lua_toboolean(L, -1);
    else
      arg_error(L, fname, 1, "tile %d: number or boolean expected, got %s",
                (int)k + 1, arg_typename(L, -1));
    lua_pop(L, 1);
  }
  nav_mark_tiles(L, 1); /* steer.navgrid refuses it as 'cost' */
  size_t count = steer_walls_from_tiles(solid, (size_t)w, (size_t)h, cell, ox,
                                        oy, NULL, 0);
  steer_vec2 *seg = new_userdata(L, (count ? count : 1) * 2 * sizeof *seg);
  steer_walls_from_tiles(solid, (size_t)w, (size_t)h, cell, ox, oy, seg, count);
  lua_createtable(L, (int)count, 0);
  for (size_t k = 0; k < count; k++) {
    lua_createtable(L, 0, 5);
    lua_pushliteral(L, "left"); /* the solid tiles' side */
    lua_setfield(L, -2, "solid");
    lua_pushnumber(L, seg[2 * k].x);
    lua_setfield(L, -2, "x1");
    lua_pushnumber(L, seg[2 * k].y);
    lua_setfield(L, -2, "y1");
    lua_pushnumber(L, seg[2 * k + 1].x);
    lua_setfield(L, -2, "x2");
    lua_pushnumber(L, seg[2 * k + 1].y);
    lua_setfield(L, -2, "y2");
    lua_rawseti(L, -2, (int)k + 1);
  }
  return 1;
}

/* Do the n points all lie on one line (or on one point)? Exact: a
   region of no area keeps no agent inside. */
static int collinear(const steer_vec2 *pts, size_t n) {
  size_t k = 1;
  while (k < n && pts[k].x == pts[0].x && pts[k].y == pts[0].y) k++;
  if (k == n) return 1;
  /* |coordinates| <= 1e150: the products stay finite */
  double dx = pts[k].x - pts[0].x, dy = pts[k].y - pts[0].y;
  for (size_t j = k + 1; j < n; j++)
    if (dx * (pts[j].y - pts[0].y) != dy * (pts[j].x - pts[0].x)) return 0;
  return 1;
}

steer_path *region_arg(lua_State *L, int idx, const char *fname, int argn,
                       const char *where) {
  idx = lua_absindex(L, idx);
  int top = lua_gettop(L);
  lpath *given = luaL_testudata(L, idx, PATH_MT);
  if (given) {
    size_t n = steer_path_count(given->path);
    if (n < 3)
      arg_error(L, fname, argn, "%sregion: a path of at least 3 points expected",
                where);
    steer_vec2 *pts = new_userdata(L, n * sizeof *pts);
    for (size_t k = 0; k < n; k++) pts[k] = steer_path_point(given->path, k);
    if (collinear(pts, n))
      arg_error(L, fname, argn, "%sregion: the path encloses no area", where);
    lua_settop(L, top);
    lua_pushvalue(L, idx);
    return given->path;
  }
  if (!lua_istable(L, idx))
    type_error(L, idx, fname, argn, "region {x1, y1, x2, y2}, polygon or steer.Path");
  /* fewer than a box's 2 corners: say which forms a region takes (read_points
     would only count points) */
  size_t len = lua_rawlen(L, idx);
  lua_rawgeti(L, idx, 1);
  int flat = lua_type(L, -1) == LUA_TNUMBER;
  size_t few = flat ? len / 2 : len;
  lua_pop(L, 1);
  if (few < 2 && !(flat && len % 2)) { /* an odd count: read_points says */
    lua_pushnil(L);
    int named = lua_next(L, idx) && few == 0; /* {x1 =, y1 =, ...} */
    arg_error(L, fname, argn,
              "%sregion: %d point%s%s; expected a box {x1, y1, x2, y2} (4 "
              "numbers in order), a polygon of at least 3 points or a "
              "steer.Path",
              where, (int)few, few == 1 ? "" : "s",
              named ? " (fields by name are not read)" : "");
  }
  size_t n;
  steer_vec2 *pts = read_points(L, idx, 2, fname, argn, where, &n);
  if (n == 2) { /* a box from two corners */
    steer_vec2 lo = {pts[0].x < pts[1].x ? pts[0].x : pts[1].x,
                     pts[0].y < pts[1].y ? pts[0].y : pts[1].y};
    steer_vec2 hi = {pts[0].x < pts[1].x ? pts[1].x : pts[0].x,
                     pts[0].y < pts[1].y ? pts[1].y : pts[0].y};
    if (lo.x == hi.x || lo.y == hi.y)
      arg_error(L, fname, argn, "%sregion: the box has no area", where);
    pts = new_userdata(L, 4 * sizeof *pts);
    pts[0] = lo;
    pts[1].x = hi.x; pts[1].y = lo.y;
    pts[2] = hi;
    pts[3].x = lo.x; pts[3].y = hi.y;
    n = 4;
  } else if (collinear(pts, n)) {
    arg_error(L, fname, argn, "%sregion: the polygon encloses no area", where);
  }
  lpath *p = new_userdata(L, sizeof *p);
  p->path = NULL;
  luaL_getmetatable(L, PATH_MT);
  lua_setmetatable(L, -2);
  p->path = steer_path_create(pts, n, 1);
  if (!p->path) luaL_error(L, "not enough memory");
  lua_replace(L, top + 1); /* just the path stays: callers may be in lua_next */
  lua_settop(L, top + 1);
  return p->path;
}

/* a:contain(region [, feeler_length]) -> fx, fy */
static int a_contain(lua_State *L) {
  agent_ref a = check_agent(L, 1, "contain", 0);
  /* the arguments in order: a bad region is reported before an extra
     argument; the region's path replaces it in its slot (kept alive) */
  steer_path *region = region_arg(L, 2, "contain", 1, "");
  lua_replace(L, 2);
  double feeler = opt_nonneg(L, 3, "contain", 2, 3);
  check_no_more(L, 4, "contain", 3);
  size_t n = steer_path_count(region);
  steer_vec2 *pts = new_userdata(L, n * sizeof *pts);
  for (size_t k = 0; k < n; k++) pts[k] = steer_path_point(region, k);
  /* making the region and its copy may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "contain");
  steer_vec2 f = steer_agent_contain(a.w, a.i, pts, n, feeler);
  lua_pushnumber(L, f.x);
  lua_pushnumber(L, f.y);
  return 2;
}

const luaL_Reg level_functions[] = {{"walls_from_tiles", l_walls_from_tiles},
                                    {NULL, NULL}};

void open_levels(lua_State *L) {
  static const luaL_Reg world_methods[] = {
      {"add_obstacle", w_add_obstacle},     {"add_wall", w_add_wall},
      {"add_polygon", w_add_polygon},       {"add_walls", w_add_walls},
      {"obstacles", w_obstacles},           {"walls", w_walls},
      {"clear_obstacles", w_clear_obstacles}, {"clear_walls", w_clear_walls},
      {"raycast", w_raycast},               {"line_of_sight", w_line_of_sight},
      {"query_box", w_query_box},           {"segments", w_segments},
      {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__index", shape_index},
                                  {"__newindex", shape_newindex},
                                  {"__tostring", shape_tostring},
                                  {NULL, NULL}};
  for (int k = 1; k <= 3; k++) {
    new_type(L, kind_mt[k]);
    luaL_setfuncs(L, meta, 0);
    lua_pop(L, 1);
  }
  luaL_getmetatable(L, WORLD_MT);
  lua_getfield(L, -1, "__index");
  luaL_setfuncs(L, world_methods, 0);
  lua_pop(L, 2);
  /* agent:contain joins the agent's key table (binding/agent.c) */
  lua_getfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  lua_pushcfunction(L, a_contain);
  lua_setfield(L, -2, "contain");
  lua_pop(L, 1);
}
