/* hooks.c - per-state test hooks and the allocator of a state's worlds. */
#include <stdlib.h>
#include "hooks.h"

#define HOOKS_KEY "steer.hooks"

state_hooks *hooks_of(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, HOOKS_KEY);
  state_hooks *h = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return h;
}

int hooks_allow(state_hooks *h) {
  if (!h || h->allowed < 0) return 1;
  if (h->allowed == 0) return 0;
  h->allowed--;
  return 1;
}

void *hooks_world_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  state_hooks *h = ud;
  steer_alloc_fn host;
  void *host_ud;
  steer_get_allocator(&host, &host_ud);
  if (!ptr) osize = 0;
  if (nsize == 0) {
    host(host_ud, ptr, osize, 0);
    h->live -= osize;
    return NULL;
  }
  if (!hooks_allow(h)) return NULL;
  void *p = host(host_ud, ptr, osize, nsize);
  if (p) {
    h->live = h->live - osize + nsize;
    if (h->live > h->peak) h->peak = h->live;
  }
  return p;
}

/* The hooks live in a userdata of the registry: they outlive every world
   of the state, whose __gc (at lua_close) still frees through them. */
void open_hooks(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, HOOKS_KEY);
  int made = lua_touserdata(L, -1) != NULL;
  lua_pop(L, 1);
  if (made) return;
  state_hooks *h = new_userdata(L, sizeof *h);
  h->allowed = -1;
  h->simd = 0;
  h->live = h->peak = 0;
  lua_setfield(L, LUA_REGISTRYINDEX, HOOKS_KEY);
}
