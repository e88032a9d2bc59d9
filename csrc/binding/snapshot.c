/* snapshot.c - world:snapshot() and steer.restore(s). */
#include "binding.h"

static int add_bytes(void *ud, const void *bytes, size_t n) {
  luaL_addlstring(ud, bytes, n);
  return 0;
}

static int w_snapshot(lua_State *L) {
  lworld *box = check_world(L, 1, "snapshot", 0);
  tactics_refuse_snapshot(L, box->w); /* issue 15's entries: not kept */
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  steer_status status = steer_world_snapshot(box->w, add_bytes, &b);
  if (status == STEER_EINVAL) /* add_bytes never fails: a flow field */
    return arg_error(L, "snapshot", 0,
                     "an agent's program follows a flow field, which "
                     "snapshots cannot hold");
  check_status(L, status);
  luaL_pushresult(&b);
  return 1;
}

/* steer.restore(s) -> world, or nil and a message */
int l_restore(lua_State *L) {
  size_t n;
  if (lua_type(L, 1) != LUA_TSTRING) type_error(L, 1, "restore", 1, "string");
  const char *bytes = lua_tolstring(L, 1, &n);
  lworld *box = push_world(L);
  const char *error = "?";
  box->w = steer_world_restore(bytes, n, NULL, NULL, &error);
  if (!box->w) {
    lua_pushnil(L);
    lua_pushstring(L, error);
    return 2;
  }
  return 1;
}

const luaL_Reg snapshot_world_methods[] = {{"snapshot", w_snapshot},
                                           {NULL, NULL}};
