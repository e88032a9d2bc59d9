/* path.c - the steer.Path type: steer.path{ {x, y}, ..., loop = bool }
 * (points in the table forms of every point: {x, y} or {x =, y =}; a
 * steer.Path among them splices its points in). */
#include "binding.h"
#include "guard.h"
#include "hooks.h"

int l_path_new(lua_State *L) {
  if (!lua_istable(L, 1)) type_error(L, 1, "path", 1, "table");
  size_t n = lua_rawlen(L, 1);
  if (n == 0)
    return arg_error(L, "path", 1, "a path needs at least one point");
  /* a typo (closed, as add_polygon says) would make an open path */
  static const char *const keys[] = {"loop", NULL};
  check_keys(L, 1, keys, "path", 1);
  raw_field(L, 1, "loop");
  int loop = lua_toboolean(L, -1);
  lua_pop(L, 1);
  /* steer.path{ leg1, nav:path(b, c) }: a call last in a table gives all
     its values, so nav:path's length and cost may follow the last leg */
  if (n >= 3) {
    lua_rawgeti(L, 1, (int)n - 2);
    lua_rawgeti(L, 1, (int)n - 1);
    lua_rawgeti(L, 1, (int)n);
    if (luaL_testudata(L, -3, PATH_MT) && lua_type(L, -2) == LUA_TNUMBER &&
        lua_type(L, -1) == LUA_TNUMBER)
      n -= 2;
    lua_pop(L, 3);
  }
  /* legs joined into one route: a path element counts all its points */
  size_t total = 0;
  for (size_t k = 0; k < n; k++) {
    lua_rawgeti(L, 1, (int)k + 1);
    lpath *leg = luaL_testudata(L, -1, PATH_MT);
    total += leg && leg->path ? steer_path_count(leg->path) : 1;
    lua_pop(L, 1);
  }
  /* the points are gathered in a Lua-owned buffer: an error while reading
     them leaks nothing */
  steer_vec2 *pts = new_userdata(L, total * sizeof *pts);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    lua_rawgeti(L, 1, (int)k + 1);
    lpath *leg = luaL_testudata(L, -1, PATH_MT);
    if (leg && leg->path) {
      size_t count = steer_path_count(leg->path);
      /* a finalizer run by the buffer's allocation may have refilled t */
      if (count > total - m)
        arg_error(L, "path", 1, "the points changed while they were read");
      for (size_t j = 0; j < count; j++) {
        steer_vec2 q = steer_path_point(leg->path, j);
        /* a leg starting where the last one ended: one point, not two */
        if (j == 0 && m > 0 && pts[m - 1].x == q.x && pts[m - 1].y == q.y)
          continue;
        pts[m++] = q;
      }
    } else {
      if (!lua_istable(L, -1))
        arg_error(L, "path", 1,
                  "point %d: table {x, y}, {x =, y =} or steer.Path expected, got %s%s",
                  (int)k + 1, arg_typename(L, -1),
                  lua_isnil(L, -1) ? " (a nav:path that found no path?)" : "");
      if (m == total)
        arg_error(L, "path", 1, "the points changed while they were read");
      char buf[128];
      const char *problem = table_point(L, -1, &pts[m++], buf);
      if (problem) arg_error(L, "path", 1, "point %d: %s", (int)k + 1, problem);
    }
    lua_pop(L, 1);
  }
  /* a loop of legs ends where it began: the closing point is the first */
  lua_rawgeti(L, 1, (int)n);
  if (loop && m > 1 && luaL_testudata(L, -1, PATH_MT) &&
      pts[m - 1].x == pts[0].x && pts[m - 1].y == pts[0].y)
    m--;
  lua_pop(L, 1);
  n = m;
  lpath *p = new_userdata(L, sizeof *p);
  p->path = NULL;
  luaL_getmetatable(L, PATH_MT);
  lua_setmetatable(L, -2);
  /* paths use the host's allocator: fail_allocations acts here */
  if (hooks_allow(hooks_of(L))) p->path = steer_path_create(pts, n, loop);
  if (!p->path) return luaL_error(L, "not enough memory");
  return 1;
}

static lpath *self(lua_State *L, const char *fname) {
  lpath *p = luaL_testudata(L, 1, PATH_MT);
  if (!p || !p->path) type_error(L, 1, fname, 0, PATH_MT);
  return p;
}

static int p_len(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)steer_path_count(self(L, "__len")->path));
  return 1;
}

/* path:point(i) -> x, y (1-based) */
static int p_point(lua_State *L) {
  steer_path *path = self(L, "point")->path;
  double i = check_integral(L, 2, "point", 1);
  if (i < 1 || i > (double)steer_path_count(path))
    /* %.14g: (int)i is undefined for integers beyond 2^31 */
    return arg_error(L, "point", 1, "index %.14g out of range 1..%d", i,
                     (int)steer_path_count(path));
  steer_vec2 v = steer_path_point(path, (size_t)i - 1);
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

static int p_loops(lua_State *L) {
  lua_pushboolean(L, steer_path_loops(self(L, "loops")->path));
  return 1;
}

static int p_gc(lua_State *L) {
  lpath *p = luaL_testudata(L, 1, PATH_MT);
  if (p) {
    steer_path_release(p->path);
    p->path = NULL;
  }
  return 0;
}

static int p_tostring(lua_State *L) {
  lpath *p = self(L, "__tostring");
  lua_pushfstring(L, PATH_MT " (%d points%s)",
                  (int)steer_path_count(p->path),
                  steer_path_loops(p->path) ? ", loop" : "");
  return 1;
}

void open_path(lua_State *L) {
  static const luaL_Reg methods[] = {
      {"point", p_point}, {"loops", p_loops}, {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__len", p_len},
                                  {"__gc", p_gc},
                                  {"__tostring", p_tostring},
                                  {NULL, NULL}};
  new_type(L, PATH_MT);
  luaL_setfuncs(L, meta, 0);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}
