/* hooks.h - what a Lua state keeps for itself: its test hooks
 * (steer.testing.fail_allocations, simd) and the count of the memory its
 * worlds hold. Two Lua states (two LÖVE threads) never see each other's. */
#ifndef STEER_HOOKS_H
#define STEER_HOOKS_H

#include "binding.h"

typedef struct state_hooks {
  long allowed;       /* allocations that may still succeed; -1: no limit */
  int simd;           /* SIMD width of this state's world steps; 0: widest */
  size_t live, peak;  /* bytes this state's worlds hold, now and at most */
} state_hooks;

/* The calling state's hooks (made by open_hooks). */
state_hooks *hooks_of(lua_State *L);
/* Counts one allocation; 0 when fail_allocations says it must fail. */
int hooks_allow(state_hooks *h);
/* The allocator of this state's worlds (alloc_ud: its hooks): the host's
   allocator (steer_get_allocator), counted and failing on demand. */
void *hooks_world_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
void open_hooks(lua_State *L);

#endif
