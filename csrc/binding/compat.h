/* compat.h - the one place that papers over Lua 5.1/LuaJIT vs 5.2+ APIs. */
#ifndef STEER_COMPAT_H
#define STEER_COMPAT_H

#include "lauxlib.h"
#include "lua.h"

#if LUA_VERSION_NUM == 501
/* userdata "user values" are environment tables on 5.1 and LuaJIT */
#define lua_getuservalue(L, i) lua_getfenv((L), (i))
#define lua_setuservalue(L, i) lua_setfenv((L), (i))
#define lua_rawlen(L, i) lua_objlen((L), (i))
#define lua_absindex(L, i) \
  ((i) > 0 || (i) <= LUA_REGISTRYINDEX ? (i) : lua_gettop(L) + (i) + 1)
/* LuaJIT has these 5.2 names but plain Lua 5.1 does not: ours serve both */
#define luaL_setfuncs compat_setfuncs
void compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup);
#endif

/* luaL_testudata, with the metatable looked up by the name's address (the
   same answer: each address is tied to its name's metatable on first use;
   5.1 has no luaL_testudata of its own) */
#define luaL_testudata steer_testudata
void *steer_testudata(lua_State *L, int i, const char *tname);

#if LUA_VERSION_NUM >= 504
#define new_userdata(L, size) lua_newuserdatauv((L), (size), 1)
#else
#define new_userdata(L, size) lua_newuserdata((L), (size))
#endif

#endif
