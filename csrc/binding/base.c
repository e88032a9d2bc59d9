/* base.c - the binding's bottom layer, below every type: memory, new
 * types, agent handles, iterators over agent ids (grid queries fill them
 * in guard.c, which keeps them safe from Lua code run mid-call). Nothing
 * here knows a method; the type files (world.c, agent.c, path.c,
 * program.c, snapshot.c) build on it and module.c sits on top. */
#include <stdlib.h>
#include <string.h>
#include "binding.h"
#include "hooks.h"

/* ---- memory ------------------------------------------------------------- */

/* The binding's own scratch memory; ud: the state's hooks (fail_allocations
   of that state), or NULL. */
void *binding_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (!hooks_allow(ud)) return NULL;
  return realloc(ptr, nsize);
}

/* ---- types -------------------------------------------------------------- */

/* t.key = v on a type of methods only (a world, a path, a formation...):
   Lua's own error would only say that a userdata cannot be indexed, and
   LuaJIT's not even which type; point to the setter when there is one. */
static int methods_only_newindex(lua_State *L) {
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__name");
  const char *mt = lua_tostring(L, -1);
  if (!key)
    return luaL_error(L, "cannot set a %s key of %s: it has no fields",
                      arg_typename(L, 2), mt);
  lua_getfield(L, -2, "__index");
  int setter = 0;
  if (lua_istable(L, -1)) {
    lua_pushfstring(L, "set_%s", key);
    lua_rawget(L, -2);
    setter = lua_isfunction(L, -1);
  }
  if (setter)
    return luaL_error(L, "cannot set field '%s' of %s: it has no fields; "
                      "call :set_%s(...)", key, mt, key);
  return luaL_error(L, "cannot set field '%s' of %s: it has no fields "
                    "(its methods are listed in docs/API.md)", key, mt);
}

void new_type(lua_State *L, const char *name) {
  luaL_newmetatable(L, name);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name"); /* 5.1 and LuaJIT do not set it */
  /* types with fields (agents, shapes, points) set their own */
  lua_pushcfunction(L, methods_only_newindex);
  lua_setfield(L, -2, "__newindex");
}

/* ---- handles ------------------------------------------------------------- */

void push_agent(lua_State *L, int env_idx, lworld *box, steer_id id) {
  env_idx = lua_absindex(L, env_idx);
  lua_rawgeti(L, env_idx, ENV_HANDLES);
  lua_pushinteger(L, (lua_Integer)id);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lagent *a = new_userdata(L, sizeof *a);
    a->box = box;
    a->id = id;
    luaL_getmetatable(L, AGENT_MT);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, env_idx);
    lua_setuservalue(L, -2);
    lua_pushinteger(L, (lua_Integer)id);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
}

void handle_cache_open(lua_State *L, const char *cache) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v"); /* a cache never keeps a handle alive */
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, cache);
}

void handle_cache_push(lua_State *L, const char *cache, const void *obj) {
  lua_getfield(L, LUA_REGISTRYINDEX, cache);
  lua_pushlightuserdata(L, (void *)obj);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

void handle_cache_set(lua_State *L, const char *cache, const void *obj) {
  lua_getfield(L, LUA_REGISTRYINDEX, cache);
  lua_pushlightuserdata(L, (void *)obj);
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* ---- iterators over agent ids ------------------------------------------ */

/* What an iterator walks: the ids a query took and how far it got; its
   uservalue is the world's env table. */
typedef struct id_cursor {
  size_t next, count;
  const char *fname; /* the call that made it, for its errors */
  steer_id ids[];
} id_cursor;

#define ID_ITERATOR_MT "steer.Iterator"

/* id_next(cursor) -> the next agent still alive, or nothing */
static int id_next(lua_State *L) {
  id_cursor *c = lua_touserdata(L, 1);
  lua_getuservalue(L, 1);
  lua_rawgeti(L, -1, ENV_WORLD);
  lworld *box = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (!box->w) return luaL_error(L, "the %s() iterator: world is closed", c->fname);
  /* agents removed since the query are skipped */
  while (c->next < c->count && steer_world_index(box->w, c->ids[c->next]) < 0)
    c->next++;
  if (c->next == c->count) return 0;
  push_agent(L, -1, box, c->ids[c->next++]);
  return 1;
}

/* Every iterator is its cursor, called through the cursors' one __call,
   id_next: LuaJIT's traces then see the same function at every query (a
   new C closure per query made each one a new side trace, 10x slower per
   agent than with the JIT off; a Lua closure per query is an FNEW, which
   its traces cannot record). */
void open_id_iterators(lua_State *L) {
  new_type(L, ID_ITERATOR_MT);
  lua_pushcfunction(L, id_next);
  lua_setfield(L, -2, "__call");
  lua_pop(L, 1);
}

steer_id *push_id_iterator(lua_State *L, int env_idx, size_t n,
                           const char *fname) {
  env_idx = lua_absindex(L, env_idx);
  id_cursor *c = new_userdata(L, sizeof *c + (n ? n : 1) * sizeof(steer_id));
  c->next = 0;
  c->count = n;
  c->fname = fname;
  luaL_getmetatable(L, ID_ITERATOR_MT);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, env_idx);
  lua_setuservalue(L, -2);
  return c->ids;
}
