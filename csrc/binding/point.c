/* point.c - the steer.SharedPoint type: steer.point(x, y), a target many
 * programs can hold; setting its x, y moves all their targets at once. */
#include <stdio.h>
#include <string.h>
#include "binding.h"
#include "hooks.h"

/* The registry's handle cache, point -> its handle (base.c): a:behaviors()
   gives back the very steer.SharedPoint the game holds. A live handle keeps
   its point retained, so an entry never names a released point (nor a new
   one at its address). */
#define POINT_HANDLES POINT_MT ".handles"

void push_point(lua_State *L, steer_point *point) {
  handle_cache_push(L, POINT_HANDLES, point);
  if (!lua_isnil(L, -1)) return; /* the game's handle, still alive */
  lua_pop(L, 1);
  lpoint *p = new_userdata(L, sizeof *p);
  steer_point_retain(point);
  p->point = point;
  luaL_getmetatable(L, POINT_MT);
  lua_setmetatable(L, -2);
  handle_cache_set(L, POINT_HANDLES, point);
}

int l_point_new(lua_State *L) {
  /* both required, as everywhere a point is asked for: steer.point(x)
     with a forgotten y is a mistake, not (x, 0) */
  double x = check_num(L, 1, "point", 1);
  double y = check_num(L, 2, "point", 2);
  lpoint *p = new_userdata(L, sizeof *p);
  p->point = NULL;
  luaL_getmetatable(L, POINT_MT);
  lua_setmetatable(L, -2);
  /* the host's allocator: fail_allocations acts here, as for programs */
  p->point = hooks_allow(hooks_of(L)) ? steer_point_create(x, y) : NULL;
  if (!p->point) return luaL_error(L, "not enough memory");
  handle_cache_set(L, POINT_HANDLES, p->point);
  return 1;
}

static int pt_index(lua_State *L) {
  lpoint *p = luaL_checkudata(L, 1, POINT_MT);
  /* a number key is no field (and converting it could run a collection) */
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  steer_vec2 at = steer_point_get(p->point);
  if (key && strcmp(key, "x") == 0)
    lua_pushnumber(L, at.x);
  else if (key && strcmp(key, "y") == 0)
    lua_pushnumber(L, at.y);
  else
    lua_pushnil(L);
  return 1;
}

static int pt_newindex(lua_State *L) {
  lpoint *p = luaL_checkudata(L, 1, POINT_MT);
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  int is_x = key && strcmp(key, "x") == 0, is_y = key && strcmp(key, "y") == 0;
  if (!is_x && !is_y)
    return luaL_error(L, POINT_MT " has only the fields x and y");
  char buf[96];
  const char *problem = number_problem(lua_tonumber(L, 3), NUM_ANY, buf);
  if (lua_type(L, 3) != LUA_TNUMBER) {
    snprintf(buf, sizeof buf, "number expected, got %s", arg_typename(L, 3));
    problem = buf;
  }
  if (problem)
    return luaL_error(L, "cannot set field '%s' of " POINT_MT ": %s", key,
                      problem);
  steer_vec2 at = steer_point_get(p->point);
  if (is_x) at.x = lua_tonumber(L, 3);
  else at.y = lua_tonumber(L, 3);
  steer_point_set(p->point, at.x, at.y);
  return 0;
}

static int pt_gc(lua_State *L) {
  lpoint *p = luaL_testudata(L, 1, POINT_MT);
  if (p && p->point) {
    steer_point_release(p->point);
    p->point = NULL;
  }
  return 0;
}

static int pt_tostring(lua_State *L) {
  lpoint *p = luaL_checkudata(L, 1, POINT_MT);
  char buf[96];
  steer_vec2 at = steer_point_get(p->point);
  snprintf(buf, sizeof buf, POINT_MT " (%.3f, %.3f)", at.x, at.y);
  lua_pushstring(L, buf);
  return 1;
}

void open_point(lua_State *L) {
  new_type(L, POINT_MT);
  lua_pushcfunction(L, pt_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, pt_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, pt_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, pt_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  handle_cache_open(L, POINT_HANDLES);
}
