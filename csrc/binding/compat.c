/* compat.c - 5.2 auxiliary functions for Lua 5.1 and LuaJIT, and a faster
 * luaL_testudata for all. */
#include "compat.h"

#if LUA_VERSION_NUM == 501
void compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup + 1, "too many upvalues");
  for (; l->name; l++) {
    for (int i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

#endif

void *steer_testudata(lua_State *L, int i, const char *tname) {
  void *p = lua_touserdata(L, i);
  if (!p || !lua_getmetatable(L, i)) return NULL;
  /* the metatable kept under the name's address too: a light userdata key
     hashes at once, where the name is looked up by its characters (a
     measurable share of a short method call such as world:raycast) */
  lua_pushlightuserdata(L, (void *)tname);
  lua_rawget(L, LUA_REGISTRYINDEX);
  if (lua_isnil(L, -1)) { /* first use of this address */
    lua_pop(L, 1);
    luaL_getmetatable(L, tname);
    lua_pushlightuserdata(L, (void *)tname);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? p : NULL;
}
