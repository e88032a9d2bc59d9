/* compat.c - 5.2 auxiliary functions for Lua 5.1 and LuaJIT. */
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

void *compat_testudata(lua_State *L, int i, const char *tname) {
  void *p = lua_touserdata(L, i);
  if (!p || !lua_getmetatable(L, i)) return NULL;
  luaL_getmetatable(L, tname);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? p : NULL;
}
#else
typedef int compat_unused; /* ISO C forbids an empty translation unit */
#endif
