/* module.c - luaopen_steer_core, the top of the binding: the module table
 * (the stateless forces of forces.c, the constructors of the type files),
 * steer.testing, and what lua/steer/ffi.lua reads. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <time.h>
#include "binding.h"
#include "guard.h"
#include "hooks.h"
#include "nav.h"

/* steer.testing.fail_allocations(n): the next n allocations of this Lua
   state succeed, the ones after fail; nil lifts it. Returns how many
   allocations were left. */
static int l_fail_allocations(lua_State *L) {
  state_hooks *h = hooks_of(L);
  long before = h->allowed;
  long allowed = lua_isnoneornil(L, 1)
                ? -1
                : (long)check_integral(L, 1, "fail_allocations", 1);
  if (allowed < -1) allowed = -1;
  h->allowed = allowed;
  if (before < 0)
    lua_pushnil(L);
  else
    lua_pushinteger(L, before);
  return 1;
}

/* steer.testing.clock() -> seconds on a monotonic clock (for benchmarks:
   plain Lua has no sub-second wall clock) */
static int l_clock(lua_State *L) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  lua_pushnumber(L, (lua_Number)t.tv_sec + (lua_Number)t.tv_nsec * 1e-9);
  return 1;
}

/* steer.testing.simd([width]) -> the width this Lua state's world steps
   now use (see steer_set_simd; no argument: the widest the CPU offers).
   Each step reads it once, at its start; other states keep theirs. */
static int l_simd(lua_State *L) {
  double width = lua_isnoneornil(L, 1) ? 0 : check_integral(L, 1, "simd", 1);
  state_hooks *h = hooks_of(L);
  h->simd = steer_world_set_simd(NULL, width < 0 ? 0 : width > 64 ? 64 : (int)width);
  lua_pushinteger(L, h->simd);
  return 1;
}

/* steer.testing.memory() -> bytes this Lua state's worlds hold now, and the
   most they held since the previous call */
static int l_memory(lua_State *L) {
  state_hooks *h = hooks_of(L);
  lua_pushnumber(L, (lua_Number)h->live);
  lua_pushnumber(L, (lua_Number)h->peak);
  h->peak = h->live;
  return 2;
}

/* The module's entry point is its one exported symbol besides the core's
   STEER_API functions: visible in a build that hides the rest
   (-fvisibility=hidden), exported from a Windows DLL. */
#if defined(_WIN32)
#define MODULE_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define MODULE_EXPORT __attribute__((visibility("default")))
#else
#define MODULE_EXPORT
#endif

MODULE_EXPORT int luaopen_steer_core(lua_State *L);

/* The types' metatables are found by name in the registry, so a second,
   different build of this module loaded into the same Lua state would fill
   them with its own methods, which would then run on the first build's
   worlds (another layout: a crash). Loading the same build again is fine. */
static void one_build_per_state(lua_State *L) {
  static const char build = 0; /* its address names this build */
  lua_getfield(L, LUA_REGISTRYINDEX, "steer.core.build");
  if (!lua_isnil(L, -1) && lua_touserdata(L, -1) != (void *)&build)
    luaL_error(L, "steer.core: another build of steer is already loaded in "
                  "this Lua state");
  lua_pop(L, 1);
  lua_pushlightuserdata(L, (void *)&build);
  lua_setfield(L, LUA_REGISTRYINDEX, "steer.core.build");
}

int luaopen_steer_core(lua_State *L) {
  static const luaL_Reg constructors[] = {
      {"world", l_world_new},     {"path", l_path_new},
      {"program", l_program_new}, {"restore", l_restore},
      {"navgrid", l_navgrid_new}, {"navgrid_from_map", l_navgrid_from_map},
      {"point", l_point_new},
      {NULL, NULL}};
  one_build_per_state(L);
  open_hooks(L); /* the host's allocator stays as it is */
  open_id_iterators(L);
  open_world(L);
  open_agent(L);
  open_path(L);
  open_program(L);
  open_nav(L);
  open_point(L);
  open_tactics(L);
  open_guard(L);
  open_levels(L);
  lua_newtable(L);
  luaL_setfuncs(L, force_functions, 0);
  luaL_setfuncs(L, constructors, 0);
  luaL_setfuncs(L, tactics_functions, 0);
  luaL_setfuncs(L, level_functions, 0);
  lua_pushliteral(L, STEER_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushnumber(L, STEER_LIMIT);
  lua_setfield(L, -2, "limit");
  lua_createtable(L, 0, 4);
  lua_pushcfunction(L, l_fail_allocations);
  lua_setfield(L, -2, "fail_allocations");
  lua_pushcfunction(L, l_clock);
  lua_setfield(L, -2, "clock");
  lua_pushcfunction(L, l_simd);
  lua_setfield(L, -2, "simd");
  lua_pushcfunction(L, l_memory);
  lua_setfield(L, -2, "memory");
  lua_setfield(L, -2, "testing");
  /* _ffi: internal, what lua/steer/ffi.lua needs (steer/init.lua does not
     copy names starting with "_" into the steer table) */
  lua_newtable(L);
  set_agent_ffi_codes(L);
  luaL_getmetatable(L, WORLD_MT);
  lua_setfield(L, -2, "world_mt");
  lua_setfield(L, -2, "_ffi");
  return 1;
}
