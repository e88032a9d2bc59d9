/* nav.c - navigation from Lua: steer.navgrid, steer.navgrid_from_map, the
 * steer.NavGrid methods (costs, cells, paths), steer.FlowField and
 * a:flow(field). Cells are 0-based, as in the Moving AI format. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "guard.h"
#include "hooks.h"
#include "nav.h"

typedef struct lnavgrid {
  steer_navgrid *g;
} lnavgrid;

typedef struct lflowfield {
  steer_flowfield *f;
} lflowfield;

/* ---- handles -------------------------------------------------------------- */

static steer_navgrid *check_navgrid(lua_State *L, int idx, const char *fname) {
  lnavgrid *h = luaL_testudata(L, idx, NAVGRID_MT);
  if (!h || !h->g) type_error(L, idx, fname, 0, NAVGRID_MT);
  return h->g;
}

steer_flowfield *test_flowfield(lua_State *L, int idx) {
  lflowfield *h = luaL_testudata(L, idx, FLOWFIELD_MT);
  return h ? h->f : NULL;
}

static steer_flowfield *check_flowfield(lua_State *L, int idx,
                                        const char *fname, int argn) {
  steer_flowfield *f = test_flowfield(L, idx);
  if (!f) type_error(L, idx, fname, argn, FLOWFIELD_MT);
  return f;
}

/* Each grid and field has at most one handle at a time, so that handles
   compare equal (f:grid() == nav, a:behaviors()[1].field == f): a weak
   cache in the registry, C pointer -> handle. */
#define NAVGRID_HANDLES NAVGRID_MT ".handles"
#define FLOWFIELD_HANDLES FLOWFIELD_MT ".handles"

/* Pushes cache[obj] (base.c) and returns it as a userdata of type mt, or
   NULL. The callers also check that it holds obj, a safeguard: a cached
   handle is alive and retains its object (base.c). */
static void *push_cached(lua_State *L, const char *cache, const void *obj,
                         const char *mt) {
  handle_cache_push(L, cache, obj);
  return luaL_testudata(L, -1, mt);
}

/* A handle with a NULL object: set it once the object exists, so that an
   error in between leaks nothing. */
static lnavgrid *push_navgrid_handle(lua_State *L) {
  lnavgrid *h = new_userdata(L, sizeof *h);
  h->g = NULL;
  luaL_getmetatable(L, NAVGRID_MT);
  lua_setmetatable(L, -2);
  return h;
}

static lflowfield *push_flowfield_handle(lua_State *L) {
  lflowfield *h = new_userdata(L, sizeof *h);
  h->f = NULL;
  luaL_getmetatable(L, FLOWFIELD_MT);
  lua_setmetatable(L, -2);
  return h;
}

void push_flowfield(lua_State *L, steer_flowfield *f) {
  lflowfield *h = push_cached(L, FLOWFIELD_HANDLES, f, FLOWFIELD_MT);
  if (h && h->f == f) return; /* the handle the game holds */
  lua_pop(L, 1);
  push_flowfield_handle(L)->f = f;
  steer_flowfield_retain(f);
  handle_cache_set(L, FLOWFIELD_HANDLES, f);
}

/* The handle of grid g (retained by a new one). */
static void push_navgrid(lua_State *L, steer_navgrid *g) {
  lnavgrid *h = push_cached(L, NAVGRID_HANDLES, g, NAVGRID_MT);
  if (h && h->g == g) return;
  lua_pop(L, 1);
  push_navgrid_handle(L)->g = g;
  steer_navgrid_retain(g);
  handle_cache_set(L, NAVGRID_HANDLES, g);
}

/* ---- constructors --------------------------------------------------------- */

/* A cost: 0 (blocked) or in [1, STEER_NAV_MAX_COST]. */
static double validate_cost(lua_State *L, double c, const char *fname,
                            int argn, const char *what) {
  validate_num(L, c, 1, fname, argn, what);
  if (c != 0 && !(c >= 1 && c <= STEER_NAV_MAX_COST))
    arg_error(L, fname, argn, "%s: cost must be 0 (blocked) or in [1, 1e9], got %.14g",
              what, c);
  return c;
}

/* Grids, paths and fields use the host's allocator (require leaves it
   alone): steer.testing.fail_allocations of the calling state acts here,
   before anything is made or changed. */
static void allow_allocation(lua_State *L) {
  if (!hooks_allow(hooks_of(L))) luaL_error(L, "not enough memory");
}

/* An integer field of table 1 in [lo, hi]. */
static int table_int(lua_State *L, const char *key, int lo, int hi,
                     int def) {
  raw_field(L, 1, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    if (def >= lo) return def;
    return arg_error(L, "navgrid", 1, "missing '%s'", key);
  }
  double v = lua_tonumber(L, -1);
  /* the range first: casting a huge or NaN v would be undefined */
  if (lua_type(L, -1) != LUA_TNUMBER || !(v >= lo && v <= hi) || v != floor(v))
    arg_error(L, "navgrid", 1, "'%s' must be an integer in [%d, %d]", key, lo,
              hi);
  lua_pop(L, 1);
  return (int)v;
}

static double table_number(lua_State *L, const char *key, int kind,
                           double def) {
  raw_field(L, 1, key);
  double v = def;
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      arg_error(L, "navgrid", 1, "'%s' must be a number, got %s", key,
                arg_typename(L, -1));
    v = validate_num(L, lua_tonumber(L, -1), kind, "navgrid", 1, key);
  }
  lua_pop(L, 1);
  return v;
}

/* The whole grid must lie within the limit: width * cell_size too. */
static void check_extent(lua_State *L, const char *fname, int argn, int w,
                         int h, double s, steer_vec2 o) {
  double big = (w > h ? w : h) * s;
  if (big > STEER_LIMIT || o.x + big > STEER_LIMIT || o.y + big > STEER_LIMIT)
    arg_error(L, fname, argn, "the grid reaches beyond 1e150 (cell_size %.14g)",
              s);
}

static steer_vec2 table_origin(lua_State *L) {
  steer_vec2 o = {0, 0};
  raw_field(L, 1, "origin");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1))
      arg_error(L, "navgrid", 1, "'origin' must be a table {x, y}, got %s",
                arg_typename(L, -1));
    for (int k = 1; k <= 2; k++) {
      lua_rawgeti(L, -1, k);
      if (lua_type(L, -1) != LUA_TNUMBER)
        arg_error(L, "navgrid", 1, "'origin' must be a table {x, y}");
      double v = validate_num(L, lua_tonumber(L, -1), 0, "navgrid", 1, "origin");
      if (k == 1) o.x = v; else o.y = v;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return o;
}

static const char *const navgrid_keys[] = {"width", "height", "cell_size",
                                           "origin", "cost", "solid", NULL};

/* Tables given to steer.walls_from_tiles: keys of a weak set. */
#define TILE_TABLES "steer.tile_tables"

void nav_mark_tiles(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, TILE_TABLES);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

static int is_tile_table(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, TILE_TABLES);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2); /* returns void under Lua 5.1 */
  int marked = !lua_isnil(L, -1);
  lua_pop(L, 2);
  return marked;
}

/* The cells of field `key` (the table at idx), read into a Lua-owned
   buffer (an error while reading leaks nothing) left on the stack: costs
   (0 blocked, else [1, 1e9]) or, for 'solid', walls_from_tiles' tiles
   (a non-zero number or true blocks, 0, false or nil costs 1). */
static double *read_cells(lua_State *L, int idx, const char *key,
                          size_t cells) {
  int solid = strcmp(key, "solid") == 0;
  if (!lua_istable(L, idx))
    arg_error(L, "navgrid", 1, "'%s' must be a table, got %s", key,
              arg_typename(L, idx));
  if (lua_rawlen(L, idx) != cells)
    arg_error(L, "navgrid", 1, "'%s' has %d entries, width * height = %d%s",
              key, (int)lua_rawlen(L, idx), (int)cells, rows_hint(L, idx));
  double *out = new_userdata(L, cells * sizeof(double));
  for (size_t k = 0; k < cells; k++) {
    lua_rawgeti(L, idx, (int)k + 1);
    int t = lua_type(L, -1);
    char what[32];
    snprintf(what, sizeof what, "%s[%d]", key, (int)k + 1);
    if (t == LUA_TNUMBER && solid)
      out[k] = validate_num(L, lua_tonumber(L, -1), NUM_FINITE, "navgrid", 1,
                            what) != 0 ? 0 : 1;
    else if (t == LUA_TNUMBER)
      out[k] = validate_cost(L, lua_tonumber(L, -1), "navgrid", 1, what);
    else if (solid && (t == LUA_TBOOLEAN || t == LUA_TNIL))
      out[k] = lua_toboolean(L, -1) ? 0 : 1;
    else
      arg_error(L, "navgrid", 1, "%s: %s expected, got %s", what,
                solid ? "number or boolean" : "number", arg_typename(L, -1));
    lua_pop(L, 1);
  }
  return out;
}

/* steer.navgrid{ width =, height =, cell_size = 1, origin = {0, 0},
   cost = { row-major flat array } or solid = { tiles } } */
int l_navgrid_new(lua_State *L) {
  if (!lua_istable(L, 1)) type_error(L, 1, "navgrid", 1, "table");
  check_names(L, 1, navgrid_keys, "field", 1, "navgrid", 1);
  int w = table_int(L, "width", 1, STEER_NAV_MAX_SIDE, 0);
  int h = table_int(L, "height", 1, STEER_NAV_MAX_SIDE, 0);
  if ((double)w * h > STEER_NAV_MAX_CELLS)
    arg_error(L, "navgrid", 1, "more than 2^26 cells (%d x %d)", w, h);
  double s = table_number(L, "cell_size", 2, 1);
  steer_vec2 o = table_origin(L);
  check_extent(L, "navgrid", 1, w, h, s, o);
  size_t cells = (size_t)w * (size_t)h;
  double *costs = NULL;
  raw_field(L, 1, "cost");
  int ci = lua_gettop(L);
  raw_field(L, 1, "solid");
  int si = lua_gettop(L);
  if (!lua_isnil(L, ci) && !lua_isnil(L, si))
    arg_error(L, "navgrid", 1,
              "both 'cost' and 'solid' given: 'cost' has 0 = blocked, "
              "'solid' non-zero = blocked; give one");
  /* the same array as walls_from_tiles' would make walls the only way */
  if (lua_istable(L, ci) && is_tile_table(L, ci))
    arg_error(L, "navgrid", 1,
              "'cost' is the table given to walls_from_tiles, where non-zero "
              "is solid; here 0 blocks a cell: pass it as solid = ...");
  if (!lua_isnil(L, ci)) costs = read_cells(L, ci, "cost", cells);
  else if (!lua_isnil(L, si)) costs = read_cells(L, si, "solid", cells);
  allow_allocation(L);
  lnavgrid *hd = push_navgrid_handle(L);
  hd->g = steer_navgrid_create(w, h, s, o, costs);
  if (!hd->g) return luaL_error(L, "not enough memory");
  handle_cache_set(L, NAVGRID_HANDLES, hd->g);
  return 1;
}

/* steer.navgrid_from_map(text [, cell_size]) */
int l_navgrid_from_map(lua_State *L) {
  size_t n;
  if (lua_type(L, 1) != LUA_TSTRING)
    type_error(L, 1, "navgrid_from_map", 1, "string");
  const char *text = lua_tolstring(L, 1, &n);
  double s = lua_isnoneornil(L, 2) ? 1 : check_positive(L, 2, "navgrid_from_map", 2);
  allow_allocation(L);
  lnavgrid *hd = push_navgrid_handle(L);
  const char *error;
  steer_vec2 o = {0, 0};
  hd->g = steer_navgrid_from_map(text, n, s, o, &error);
  if (!hd->g) {
    if (strcmp(error, "not enough memory") == 0)
      return luaL_error(L, "not enough memory");
    return arg_error(L, "navgrid_from_map", 1, "%s", error);
  }
  int w = steer_navgrid_width(hd->g), h = steer_navgrid_height(hd->g);
  check_extent(L, "navgrid_from_map", 2, w, h, s, o); /* __gc frees it */
  handle_cache_set(L, NAVGRID_HANDLES, hd->g);
  return 1;
}

/* ---- grid methods ----------------------------------------------------------- */

/* Cell coordinates at idx, idx + 1 (argument numbers argn, argn + 1). */
static void check_cell(lua_State *L, steer_navgrid *g, int idx,
                       const char *fname, int argn, int *cx, int *cy) {
  double x = check_integral(L, idx, fname, argn);
  double y = check_integral(L, idx + 1, fname, argn + 1);
  if (x < 0 || x >= steer_navgrid_width(g))
    arg_error(L, fname, argn, "cell x %.14g outside 0..%d", x,
              steer_navgrid_width(g) - 1);
  if (y < 0 || y >= steer_navgrid_height(g))
    arg_error(L, fname, argn + 1, "cell y %.14g outside 0..%d", y,
              steer_navgrid_height(g) - 1);
  *cx = (int)x;
  *cy = (int)y;
}

/* A world point at idx in any of the point forms (binding.h POINT_FORMS;
   an agent of any world: a grid belongs to none); *used as check_point's. */
static steer_vec2 nav_point(lua_State *L, int idx, const char *fname,
                            int argn, int *used) {
  return check_point(L, idx, NULL, fname, argn, used);
}

static int g_set_cost(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "set_cost");
  int cx, cy;
  check_cell(L, g, 2, "set_cost", 1, &cx, &cy);
  double c = validate_cost(L, check_num(L, 4, "set_cost", 3), "set_cost", 3,
                           "c");
  check_no_more(L, 5, "set_cost", 4);
  steer_navgrid_set_cost(g, cx, cy, c);
  lua_settop(L, 1);
  return 1;
}

static int g_cost(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "cost");
  int cx, cy;
  check_cell(L, g, 2, "cost", 1, &cx, &cy);
  check_no_more(L, 4, "cost", 3);
  lua_pushnumber(L, steer_navgrid_cost(g, cx, cy));
  return 1;
}

/* nav:cell_of(point) -> cx, cy, or nil outside the grid */
static int g_cell_of(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "cell_of");
  int used;
  steer_vec2 p = nav_point(L, 2, "cell_of", 1, &used);
  check_no_more(L, 2 + used, "cell_of", 1 + used);
  int cx, cy;
  if (!steer_navgrid_cell_of(g, p, &cx, &cy)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, cx);
  lua_pushinteger(L, cy);
  return 2;
}

static int g_center_of(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "center_of");
  int cx, cy;
  check_cell(L, g, 2, "center_of", 1, &cx, &cy);
  check_no_more(L, 4, "center_of", 3);
  steer_vec2 c = steer_navgrid_center_of(g, cx, cy);
  lua_pushnumber(L, c.x);
  lua_pushnumber(L, c.y);
  return 2;
}

static int g_size(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "size");
  lua_pushinteger(L, steer_navgrid_width(g));
  lua_pushinteger(L, steer_navgrid_height(g));
  return 2;
}

static int g_cell_size(lua_State *L) {
  lua_pushnumber(L, steer_navgrid_cell_size(check_navgrid(L, 1, "cell_size")));
  return 1;
}

static int g_origin(lua_State *L) {
  steer_vec2 o = steer_navgrid_origin(check_navgrid(L, 1, "origin"));
  lua_pushnumber(L, o.x);
  lua_pushnumber(L, o.y);
  return 2;
}

static int g_memory(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)steer_navgrid_memory(check_navgrid(L, 1, "memory")));
  return 1;
}

static int opt_flag(lua_State *L, int idx, int argn, const char *key,
                    int def) {
  raw_field(L, idx, key);
  int v = def;
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TBOOLEAN)
      arg_error(L, "path", argn, "'%s' must be a boolean, got %s", key,
                arg_typename(L, -1));
    v = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

static const char *const failure_reasons[] = {
    "", "start outside the grid", "goal outside the grid",
    "start cell is blocked", "goal cell is blocked", "no path"};

/* nav:path(from, to [, { smooth = false, diagonal = true, clearance = 0 }]),
   each point in any form (x, y taking two arguments) -> path, length, cost
   | nil, reason */
static int g_path(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "path");
  int used, at = 2; /* at: the stack index of the next argument */
  steer_vec2 a = nav_point(L, at, "path", at - 1, &used);
  at += used;
  steer_vec2 b = nav_point(L, at, "path", at - 1, &used);
  at += used;
  int smooth = 0, diagonal = 1;
  double clearance = 0;
  if (!lua_isnoneornil(L, at)) {
    if (!lua_istable(L, at)) type_error(L, at, "path", at - 1, "table");
    static const char *const options[] = {"smooth", "diagonal", "clearance",
                                          NULL};
    check_names(L, at, options, "option", 1, "path", at - 1);
    smooth = opt_flag(L, at, at - 1, "smooth", 0);
    diagonal = opt_flag(L, at, at - 1, "diagonal", 1);
    raw_field(L, at, "clearance");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TNUMBER)
        arg_error(L, "path", at - 1, "'clearance' must be a number, got %s",
                  arg_typename(L, -1));
      clearance = validate_num(L, lua_tonumber(L, -1), NUM_NONNEG, "path",
                               at - 1, "clearance");
    }
    lua_pop(L, 1);
  }
  check_no_more(L, at + 1, "path", at);
  lpath *h = new_userdata(L, sizeof *h);
  h->path = NULL;
  luaL_getmetatable(L, PATH_MT);
  lua_setmetatable(L, -2);
  double length, cost;
  steer_nav_failure failure;
  allow_allocation(L);
  check_status(L, steer_navgrid_path_clearance(g, a, b, smooth, diagonal,
                                               clearance, &h->path, &length,
                                               &cost, &failure));
  if (failure) {
    lua_pushnil(L);
    lua_pushstring(L, failure_reasons[failure]);
    return 2;
  }
  lua_pushnumber(L, length);
  lua_pushnumber(L, cost);
  return 3;
}

/* Is the table at idx one point ({x, y}: a number at [1]; {x =, y =}: no
   [1], an x or a y) rather than a list of goals? Raw reads. */
static int is_point_table(lua_State *L, int idx) {
  lua_rawgeti(L, idx, 1);
  int first = lua_type(L, -1);
  lua_pop(L, 1);
  if (first != LUA_TNIL) return first == LUA_TNUMBER;
  int named = raw_field(L, idx, "x") != LUA_TNIL;
  lua_pop(L, 1);
  named |= raw_field(L, idx, "y") != LUA_TNIL;
  lua_pop(L, 1);
  return named;
}

/* Goal k of a list of goals (nav:flow, f:set_goals: fname), at the top of
   the stack: an agent (of any world), a steer.SharedPoint, {x, y} or
   {x =, y =}. The messages name the goal. */
static steer_vec2 list_goal(lua_State *L, int k, const char *fname) {
  int idx = lua_gettop(L);
  steer_vec2 p = {0, 0};
  if (lua_istable(L, idx)) {
    char buf[128];
    const char *problem = table_point(L, idx, &p, buf);
    if (problem) arg_error(L, fname, 1, "goal %d: %s", k, problem);
    return p;
  }
  lagent *a = luaL_testudata(L, idx, AGENT_MT);
  if (a && !a->box->w)
    arg_error(L, fname, 1, "goal %d: world is closed", k);
  if (a && steer_world_index(a->box->w, a->id) < 0)
    arg_error(L, fname, 1, "goal %d: agent has been removed", k);
  if (!a && !test_point(L, idx))
    arg_error(L, fname, 1,
              "goal %d: steer.Agent, steer.SharedPoint, {x, y} or {x =, y =} "
              "expected, got %s",
              k, arg_typename(L, idx));
  int used;
  return nav_point(L, idx, fname, 1, &used);
}

/* The goals of nav:flow and f:set_goals (fname), from stack index 2 on
   (argument 1): one point in any form, or a list of them, each inside
   grid g. Returns them and their number in *n: `one` for a single goal,
   else a buffer left on the stack. */
static steer_vec2 *read_goals(lua_State *L, steer_navgrid *g,
                              const char *fname, steer_vec2 *one, size_t *n) {
  int cx, cy;
  if (lua_istable(L, 2) && !is_point_table(L, 2)) {
    *n = lua_rawlen(L, 2);
    if (*n == 0) arg_error(L, fname, 1, "at least one goal expected");
    check_no_more(L, 3, fname, 2); /* before the buffer is pushed */
    steer_vec2 *goals = new_userdata(L, *n * sizeof *goals);
    for (size_t k = 0; k < *n; k++) {
      lua_rawgeti(L, 2, (int)k + 1);
      goals[k] = list_goal(L, (int)k + 1, fname);
      lua_pop(L, 1);
      if (!steer_navgrid_cell_of(g, goals[k], &cx, &cy))
        arg_error(L, fname, 1, "goal %d (%.14g, %.14g) is outside the grid",
                  (int)k + 1, goals[k].x, goals[k].y);
    }
    return goals;
  }
  /* read before anything is pushed: a missing argument is "no value" */
  int used;
  *one = nav_point(L, 2, fname, 1, &used);
  /* nav:flow(x1, y1, x2, y2) would drop the second goal: goals go in a list */
  check_no_more(L, 2 + used, fname, 1 + used);
  if (!steer_navgrid_cell_of(g, *one, &cx, &cy))
    arg_error(L, fname, 1, "goal (%.14g, %.14g) is outside the grid", one->x,
              one->y);
  *n = 1;
  return one;
}

/* nav:flow(point) or nav:flow{ point, point, ... } -> steer.FlowField */
static int g_flow(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "flow");
  steer_vec2 one;
  size_t n;
  steer_vec2 *goals = read_goals(L, g, "flow", &one, &n);
  allow_allocation(L);
  lflowfield *h = push_flowfield_handle(L);
  h->f = steer_flowfield_create(g, goals, n);
  if (!h->f) return luaL_error(L, "not enough memory");
  handle_cache_set(L, FLOWFIELD_HANDLES, h->f);
  return 1;
}

/* nav:inflated(radius [, { edges = true }]) -> a new steer.NavGrid for a
   unit of that radius (world units): the blocked cells grown by it, and
   with edges the grid's outside edge too. The grid is unchanged. */
static int g_inflated(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "inflated");
  if (lua_type(L, 2) != LUA_TNUMBER)
    arg_error(L, "inflated", 1, "radius: number expected, got %s",
              arg_typename(L, 2));
  double radius = validate_num(L, lua_tonumber(L, 2), NUM_NONNEG, "inflated",
                               1, "radius");
  int edges = 1;
  if (!lua_isnoneornil(L, 3)) {
    if (!lua_istable(L, 3)) type_error(L, 3, "inflated", 2, "table");
    static const char *const options[] = {"edges", NULL};
    check_names(L, 3, options, "option", 1, "inflated", 2);
    raw_field(L, 3, "edges");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        arg_error(L, "inflated", 2, "'edges' must be a boolean, got %s",
                  arg_typename(L, -1));
      edges = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
  }
  check_no_more(L, 4, "inflated", 3);
  allow_allocation(L);
  lnavgrid *h = push_navgrid_handle(L);
  h->g = steer_navgrid_inflated(g, radius, edges);
  if (!h->g) return luaL_error(L, "not enough memory");
  handle_cache_set(L, NAVGRID_HANDLES, h->g);
  return 1;
}

static int g_gc(lua_State *L) {
  lnavgrid *h = luaL_testudata(L, 1, NAVGRID_MT);
  if (h) {
    steer_navgrid_release(h->g);
    h->g = NULL;
  }
  return 0;
}

static int g_tostring(lua_State *L) {
  steer_navgrid *g = check_navgrid(L, 1, "__tostring");
  lua_pushfstring(L, NAVGRID_MT " (%d x %d cells)", steer_navgrid_width(g),
                  steer_navgrid_height(g));
  return 1;
}

/* ---- flow field methods ---------------------------------------------------- */

static steer_flowfield *self_field(lua_State *L, const char *fname) {
  steer_flowfield *f = test_flowfield(L, 1);
  if (!f) type_error(L, 1, fname, 0, FLOWFIELD_MT);
  return f;
}

/* f:distance(point) -> cost to the nearest goal, or nil (outside,
   blocked, unreachable) */
static int f_distance(lua_State *L) {
  steer_flowfield *f = self_field(L, "distance");
  int used;
  steer_vec2 p = nav_point(L, 2, "distance", 1, &used);
  check_no_more(L, 2 + used, "distance", 1 + used);
  double d = steer_flowfield_distance(f, p);
  if (d < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, d);
  return 1;
}

static int f_direction(lua_State *L) {
  steer_flowfield *f = self_field(L, "direction");
  int used;
  steer_vec2 p = nav_point(L, 2, "direction", 1, &used);
  check_no_more(L, 2 + used, "direction", 1 + used);
  steer_vec2 d = steer_flowfield_direction(f, p);
  lua_pushnumber(L, d.x);
  lua_pushnumber(L, d.y);
  return 2;
}

static int f_stale(lua_State *L) {
  lua_pushboolean(L, steer_flowfield_stale(self_field(L, "stale")));
  return 1;
}

static int f_update(lua_State *L) {
  steer_flowfield *f = self_field(L, "update");
  allow_allocation(L);
  check_status(L, steer_flowfield_update(f));
  lua_settop(L, 1);
  return 1;
}

/* f:set_goals(point) or f:set_goals{ point, point, ... } -> f, recomputed
   in place toward the new goals (nav:flow's forms and checks); a bad goal
   raises before the field changes */
static int f_set_goals(lua_State *L) {
  steer_flowfield *f = self_field(L, "set_goals");
  steer_vec2 one;
  size_t n;
  steer_vec2 *goals = read_goals(L, steer_flowfield_grid(f), "set_goals",
                                 &one, &n);
  allow_allocation(L);
  check_status(L, steer_flowfield_set_goals(f, goals, n));
  lua_settop(L, 1);
  return 1;
}

/* f:grid() -> the grid's handle: the one the game holds, if any */
static int f_grid(lua_State *L) {
  push_navgrid(L, steer_flowfield_grid(self_field(L, "grid")));
  return 1;
}

static int f_gc(lua_State *L) {
  lflowfield *h = luaL_testudata(L, 1, FLOWFIELD_MT);
  if (h) {
    steer_flowfield_release(h->f);
    h->f = NULL;
  }
  return 0;
}

static int f_tostring(lua_State *L) {
  steer_flowfield *f = self_field(L, "__tostring");
  steer_navgrid *g = steer_flowfield_grid(f);
  lua_pushfstring(L, FLOWFIELD_MT " (%d x %d cells%s)", steer_navgrid_width(g),
                  steer_navgrid_height(g),
                  steer_flowfield_stale(f) ? ", stale" : "");
  return 1;
}

/* a:flow(field [, slowing_radius = 2]) -> fx, fy */
static int a_flow(lua_State *L) {
  agent_ref a = check_agent(L, 1, "flow", 0);
  steer_flowfield *f = check_flowfield(L, 2, "flow", 1);
  double slowing = opt_nonneg(L, 3, "flow", 2, 2);
  check_no_more(L, 4, "flow", 3);
  a = live_agent(L, a.box, a.id, "flow"); /* checks may run Lua (guard.h) */
  steer_vec2 force = steer_agent_flow(a.w, a.i, f, slowing);
  lua_pushnumber(L, force.x);
  lua_pushnumber(L, force.y);
  return 2;
}

static void open_type(lua_State *L, const char *name, const luaL_Reg *meta,
                      const luaL_Reg *methods) {
  new_type(L, name);
  luaL_setfuncs(L, meta, 0);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

void open_nav(lua_State *L) {
  static const luaL_Reg grid_methods[] = {
      {"set_cost", g_set_cost}, {"cost", g_cost},
      {"cell_of", g_cell_of},   {"center_of", g_center_of},
      {"path", g_path},         {"flow", g_flow},
      {"size", g_size},         {"cell_size", g_cell_size},
      {"origin", g_origin},     {"memory", g_memory},
      {"inflated", g_inflated}, {NULL, NULL}};
  static const luaL_Reg grid_meta[] = {
      {"__gc", g_gc}, {"__tostring", g_tostring}, {NULL, NULL}};
  static const luaL_Reg field_methods[] = {
      {"distance", f_distance}, {"direction", f_direction},
      {"stale", f_stale},       {"update", f_update},
      {"set_goals", f_set_goals}, {"grid", f_grid},
      {NULL, NULL}};
  static const luaL_Reg field_meta[] = {
      {"__gc", f_gc}, {"__tostring", f_tostring}, {NULL, NULL}};
  open_type(L, NAVGRID_MT, grid_meta, grid_methods);
  open_type(L, FLOWFIELD_MT, field_meta, field_methods);
  handle_cache_open(L, NAVGRID_HANDLES);
  handle_cache_open(L, FLOWFIELD_HANDLES);
  /* the weak set of nav_mark_tiles */
  lua_newtable(L);
  lua_newtable(L);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, TILE_TABLES);
  /* a:flow joins the agent methods (open_agent made their key table) */
  lua_getfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  lua_pushcfunction(L, a_flow);
  lua_setfield(L, -2, "flow");
  lua_pop(L, 1);
}
