/* module.c - luaopen_steer_core: the stateless force functions and the
 * constructors. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>
#include <time.h>
#include "binding.h"


static steer_vec2 v2_arg(lua_State *L, int i, const char *fname) {
  steer_vec2 v;
  v.x = check_num(L, i, fname, i);
  v.y = check_num(L, i + 1, fname, i + 1);
  return v;
}

/* A vector of any finite size (clamp and normalize take those). */
static steer_vec2 v2_finite(lua_State *L, int i, const char *fname) {
  steer_vec2 v;
  v.x = check_finite(L, i, fname, i);
  v.y = check_finite(L, i + 1, fname, i + 1);
  return v;
}

static int push_vec(lua_State *L, steer_vec2 v) {
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

static int l_clamp(lua_State *L) {
  steer_vec2 v = v2_finite(L, 1, "clamp");
  return push_vec(L, steer_clamp(v, check_nonneg(L, 3, "clamp", 3)));
}

static int l_normalize(lua_State *L) {
  return push_vec(L, steer_normalize(v2_finite(L, 1, "normalize")));
}

static int l_length(lua_State *L) {
  lua_pushnumber(L, steer_length(v2_arg(L, 1, "length")));
  return 1;
}

static int l_lerp(lua_State *L) {
  steer_vec2 a = v2_arg(L, 1, "lerp"), b = v2_arg(L, 3, "lerp");
  return push_vec(L, steer_lerp(a, b, check_num(L, 5, "lerp", 5)));
}

/* seek and flee share their argument list */
static int point_behavior(lua_State *L, const char *fname,
                          steer_vec2 (*fn)(steer_vec2, steer_vec2, steer_vec2,
                                           double, double)) {
  steer_vec2 p = v2_arg(L, 1, fname), v = v2_arg(L, 3, fname), t = v2_arg(L, 5, fname);
  double max_speed = check_nonneg(L, 7, fname, 7);
  double max_force = check_nonneg(L, 8, fname, 8);
  return push_vec(L, fn(p, v, t, max_speed, max_force));
}

static int l_seek(lua_State *L) { return point_behavior(L, "seek", steer_seek); }
static int l_flee(lua_State *L) { return point_behavior(L, "flee", steer_flee); }

static int l_arrive(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "arrive"), v = v2_arg(L, 3, "arrive"),
             t = v2_arg(L, 5, "arrive");
  double max_speed = check_nonneg(L, 7, "arrive", 7);
  double max_force = check_nonneg(L, 8, "arrive", 8);
  double slowing = check_nonneg(L, 9, "arrive", 9);
  return push_vec(L, steer_arrive(p, v, t, max_speed, max_force, slowing));
}

/* pursue and evade share theirs */
static int moving_behavior(lua_State *L, const char *fname,
                           steer_vec2 (*fn)(steer_vec2, steer_vec2,
                                            steer_vec2, steer_vec2, double,
                                            double)) {
  steer_vec2 p = v2_arg(L, 1, fname), v = v2_arg(L, 3, fname),
             t = v2_arg(L, 5, fname), tv = v2_arg(L, 7, fname);
  double max_speed = check_nonneg(L, 9, fname, 9);
  double max_force = check_nonneg(L, 10, fname, 10);
  return push_vec(L, fn(p, v, t, tv, max_speed, max_force));
}

static int l_pursue(lua_State *L) {
  return moving_behavior(L, "pursue", steer_pursue);
}
static int l_evade(lua_State *L) {
  return moving_behavior(L, "evade", steer_evade);
}

/* Combinations read (fx, fy[, w]) groups after max_force and fold them one
   at a time, so no argument count needs a buffer. `stride` is 3 with
   weights, 2 without. */
static int groups(lua_State *L, int stride) {
  int extra = lua_gettop(L) - 1;
  return (extra + stride - 1) / stride;
}

static int l_weighted(lua_State *L) {
  double max_force = check_nonneg(L, 1, "weighted", 1);
  steer_vec2 sum = {0, 0};
  for (int g = 0, n = groups(L, 3); g < n; g++) {
    int i = 2 + 3 * g;
    steer_vec2 f = v2_arg(L, i, "weighted");
    double w = check_num(L, i + 2, "weighted", i + 2);
    sum.x += f.x * w;
    sum.y += f.y * w;
  }
  return push_vec(L, steer_clamp(sum, max_force));
}

static int l_priority(lua_State *L) {
  double max_force = check_nonneg(L, 1, "priority", 1);
  int n = groups(L, 2);
  for (int g = 0; g < n; g++) v2_arg(L, 2 + 2 * g, "priority"); /* validate all */
  for (int g = 0; g < n; g++) {
    steer_vec2 f = v2_arg(L, 2 + 2 * g, "priority");
    if (f.x * f.x + f.y * f.y > 1e-4) return push_vec(L, steer_clamp(f, max_force));
  }
  return push_vec(L, (steer_vec2){0, 0});
}

static int l_prioritized_sum(lua_State *L) {
  double max_force = check_nonneg(L, 1, "prioritized_sum", 1);
  int n = groups(L, 2);
  steer_vec2 sum = {0, 0};
  for (int g = 0; g < n; g++) v2_arg(L, 2 + 2 * g, "prioritized_sum");
  for (int g = 0; g < n; g++)
    if (!steer_accumulate(&sum, v2_arg(L, 2 + 2 * g, "prioritized_sum"),
                          max_force))
      break;
  return push_vec(L, sum);
}

/* Allocation failure injection for tests: after `allowed` more successful
   allocations, every allocation fails (-1: never). */
static long allowed = -1;

void *binding_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (allowed == 0) return NULL;
  if (allowed > 0) allowed--;
  return realloc(ptr, nsize);
}

/* steer.testing.fail_allocations(n): the next n allocations succeed, the
   ones after fail; nil lifts it. Returns how many allocations were left. */
static int l_fail_allocations(lua_State *L) {
  long before = allowed;
  allowed = lua_isnoneornil(L, 1)
                ? -1
                : (long)check_integral(L, 1, "fail_allocations", 1);
  if (allowed < -1) allowed = -1;
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

/* steer.testing.simd([width]) -> the width world steps now use (see
   steer_set_simd; no argument: the widest the CPU offers) */
static int l_simd(lua_State *L) {
  int width = lua_isnoneornil(L, 1)
                  ? 0
                  : (int)check_integral(L, 1, "simd", 1);
  lua_pushinteger(L, steer_set_simd(width));
  return 1;
}

void new_type(lua_State *L, const char *name) {
  luaL_newmetatable(L, name);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name"); /* 5.1 and LuaJIT do not set it */
}

int luaopen_steer_core(lua_State *L);

__attribute__((visibility("default"))) int luaopen_steer_core(lua_State *L) {
  static const luaL_Reg functions[] = {
      {"clamp", l_clamp},       {"normalize", l_normalize},
      {"length", l_length},     {"lerp", l_lerp},
      {"seek", l_seek},         {"flee", l_flee},
      {"arrive", l_arrive},     {"pursue", l_pursue},
      {"evade", l_evade},       {"weighted", l_weighted},
      {"priority", l_priority}, {"prioritized_sum", l_prioritized_sum},
      {"world", l_world_new},   {"path", l_path_new},
      {"program", l_program_new}, {"restore", l_restore},
      {"point", l_point_new},
      {NULL, NULL}};
  steer_set_allocator(binding_alloc, NULL);
  open_world(L);
  open_agent(L);
  open_path(L);
  open_program(L);
  open_point(L);
  lua_newtable(L);
  luaL_setfuncs(L, functions, 0);
  lua_pushliteral(L, STEER_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushnumber(L, STEER_LIMIT);
  lua_setfield(L, -2, "limit");
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, l_fail_allocations);
  lua_setfield(L, -2, "fail_allocations");
  lua_pushcfunction(L, l_clock);
  lua_setfield(L, -2, "clock");
  lua_pushcfunction(L, l_simd);
  lua_setfield(L, -2, "simd");
  lua_setfield(L, -2, "testing");
  return 1;
}
