/* forces.c - the stateless force functions of the module table (steer.seek,
 * steer.clamp, ...): numbers in, a force fx, fy out. */
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
  double max = check_nonneg(L, 3, "clamp", 3);
  check_no_more(L, 4, "clamp", 4);
  return push_vec(L, steer_clamp(v, max));
}

static int l_normalize(lua_State *L) {
  steer_vec2 v = v2_finite(L, 1, "normalize");
  check_no_more(L, 3, "normalize", 3);
  return push_vec(L, steer_normalize(v));
}

static int l_length(lua_State *L) {
  steer_vec2 v = v2_arg(L, 1, "length");
  check_no_more(L, 3, "length", 3);
  lua_pushnumber(L, steer_length(v));
  return 1;
}

static int l_lerp(lua_State *L) {
  steer_vec2 a = v2_arg(L, 1, "lerp"), b = v2_arg(L, 3, "lerp");
  double t = check_num(L, 5, "lerp", 5);
  check_no_more(L, 6, "lerp", 6);
  return push_vec(L, steer_lerp(a, b, t));
}

/* The optional panic radius of flee and evade at argument idx (-1: none),
   checked with whatever follows it. */
static double opt_panic(lua_State *L, int idx, const char *fname) {
  double panic = opt_nonneg(L, idx, fname, idx, -1);
  check_no_more(L, idx + 1, fname, idx + 1);
  return panic;
}

/* Is t beyond the panic radius from p? Both within the limit, so the
   squares stay finite. */
static int beyond(steer_vec2 p, steer_vec2 t, double panic) {
  double dx = t.x - p.x, dy = t.y - p.y;
  return panic >= 0 && dx * dx + dy * dy > panic * panic;
}

static int l_seek(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "seek"), v = v2_arg(L, 3, "seek"),
             t = v2_arg(L, 5, "seek");
  double max_speed = check_nonneg(L, 7, "seek", 7);
  double max_force = check_nonneg(L, 8, "seek", 8);
  check_no_more(L, 9, "seek", 9);
  return push_vec(L, steer_seek(p, v, t, max_speed, max_force));
}

static int l_flee(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "flee"), v = v2_arg(L, 3, "flee"),
             t = v2_arg(L, 5, "flee");
  double max_speed = check_nonneg(L, 7, "flee", 7);
  double max_force = check_nonneg(L, 8, "flee", 8);
  double panic = opt_panic(L, 9, "flee");
  if (beyond(p, t, panic)) return push_vec(L, (steer_vec2){0, 0});
  return push_vec(L, steer_flee(p, v, t, max_speed, max_force));
}

static int l_arrive(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "arrive"), v = v2_arg(L, 3, "arrive"),
             t = v2_arg(L, 5, "arrive");
  double max_speed = check_nonneg(L, 7, "arrive", 7);
  double max_force = check_nonneg(L, 8, "arrive", 8);
  double slowing = check_nonneg(L, 9, "arrive", 9);
  check_no_more(L, 10, "arrive", 10);
  return push_vec(L, steer_arrive(p, v, t, max_speed, max_force, slowing));
}

static int l_pursue(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "pursue"), v = v2_arg(L, 3, "pursue"),
             t = v2_arg(L, 5, "pursue"), tv = v2_arg(L, 7, "pursue");
  double max_speed = check_nonneg(L, 9, "pursue", 9);
  double max_force = check_nonneg(L, 10, "pursue", 10);
  check_no_more(L, 11, "pursue", 11);
  return push_vec(L, steer_pursue(p, v, t, tv, max_speed, max_force));
}

static int l_evade(lua_State *L) {
  steer_vec2 p = v2_arg(L, 1, "evade"), v = v2_arg(L, 3, "evade"),
             t = v2_arg(L, 5, "evade"), tv = v2_arg(L, 7, "evade");
  double max_speed = check_nonneg(L, 9, "evade", 9);
  double max_force = check_nonneg(L, 10, "evade", 10);
  /* measured to the pursuer's position t, as the method does */
  double panic = opt_panic(L, 11, "evade");
  if (beyond(p, t, panic)) return push_vec(L, (steer_vec2){0, 0});
  return push_vec(L, steer_evade(p, v, t, tv, max_speed, max_force));
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

const luaL_Reg force_functions[] = {
    {"clamp", l_clamp},       {"normalize", l_normalize},
    {"length", l_length},     {"lerp", l_lerp},
    {"seek", l_seek},         {"flee", l_flee},
    {"arrive", l_arrive},     {"pursue", l_pursue},
    {"evade", l_evade},       {"weighted", l_weighted},
    {"priority", l_priority}, {"prioritized_sum", l_prioritized_sum},
    {NULL, NULL}};
