/* snapshot.c - world:snapshot() and steer.restore(s). */
#include <string.h>
#include "binding.h"
#include "guard.h"
#include "hooks.h"

/* The core writes into a C block (it never calls back into Lua); the
   block belongs to a userdata, so an error frees it. */
static int add_bytes(void *ud, const void *bytes, size_t n) {
  owned_block *b = ud;
  if (b->used == SIZE_MAX) return 1; /* failed before */
  if (n >= SIZE_MAX - b->used || !owned_reserve(b, b->used + n)) {
    b->used = SIZE_MAX; /* out of memory (w_snapshot) */
    return 1;
  }
  memcpy((char *)b->data + b->used, bytes, n);
  b->used += n;
  return 0;
}

static int w_snapshot(lua_State *L) {
  lworld *box = check_world(L, 1, "snapshot", 0);
  owned_block *b = push_owned_block(L);
  /* room for as much as last time: no copying while the block grows */
  if (box->snapshot_size && !owned_reserve(b, box->snapshot_size + 4096))
    luaL_error(L, "not enough memory");
  steer_status status =
      steer_world_snapshot(live_world(L, box, "snapshot"), add_bytes, b);
  if (status != STEER_OK) {
    int writer_failed = b->used == SIZE_MAX; /* add_bytes marks it */
    owned_free(b);
    if (status == STEER_EINVAL && !writer_failed) /* not from the API */
      return arg_error(L, "snapshot", 0, "a program snapshots cannot hold");
    luaL_error(L, "not enough memory"); /* the writer's or the core's */
  }
  box->snapshot_size = b->used;
  lua_pushlstring(L, b->data, b->used);
  owned_free(b);
  return 1;
}

/* steer.restore(s [, { threads = k }]) -> world, or nil and a message; a
   snapshot holds no threads (results never depend on them), the options
   give them back */
int l_restore(lua_State *L) {
  size_t n;
  if (lua_type(L, 1) != LUA_TSTRING) type_error(L, 1, "restore", 1, "string");
  int threads = 1;
  double max_step = 0;
  if (!lua_isnoneornil(L, 2)) {
    static const char *const known[] = {"threads", "max_step", NULL};
    if (!lua_istable(L, 2)) type_error(L, 2, "restore", 2, "table");
    check_keys(L, 2, known, "restore", 2);
    threads = threads_field(L, 2, "restore", 2, 1);
    max_step = max_step_field(L, 2, "restore", 2);
  }
  lua_settop(L, 1);
  const char *bytes = lua_tolstring(L, 1, &n);
  lworld *box = push_world(L);
  const char *error = "?";
  box->w = steer_world_restore(bytes, n, hooks_world_alloc, hooks_of(L),
                               &error);
  if (!box->w) {
    lua_pushnil(L);
    lua_pushstring(L, error);
    return 2;
  }
  steer_world_set_threads(box->w, threads);
  steer_world_set_max_step(box->w, max_step);
  account_world_memory(L, box);
  return 1;
}

const luaL_Reg snapshot_world_methods[] = {{"snapshot", w_snapshot},
                                           {NULL, NULL}};
