/* two_states.c - two Lua states in two OS threads (issue 11, `make tsan`).
 *
 * A C host that embeds steer: it sets its own allocator first, then opens
 * steer in two Lua states. Each state steps its own worlds; one of them
 * keeps flipping its test hooks (steer.testing.simd, fail_allocations)
 * between steps. Checked:
 *   - require "steer" leaves the host's allocator in place, and worlds use it;
 *   - every state's results are bit-identical to a serial run of the same
 *     script (the hooks of one state never reach the other);
 *   - built with -fsanitize=thread: no data race.
 * Prints "N passed, N failed"; exits 1 on a failure. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "../csrc/steer.h"

int luaopen_steer_core(lua_State *L);

/* ---- the host's allocator: counts what it hands out ---------------------- */

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static long host_calls;

static void *host_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  pthread_mutex_lock(&host_lock);
  host_calls++;
  pthread_mutex_unlock(&host_lock);
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

/* ---- the scripts ---------------------------------------------------------- */

/* Steps a flock and returns the exact bits of every position and velocity
   (+ 0.0: results are identical at every SIMD width up to a zero's sign).
   FLIP: flip this state's hooks between the steps. */
static const char *script =
    "local steer = require 'steer'\n"
    "local seed, flip, threads = ...\n"
    "local w = steer.world{ seed = seed, bounds = { 60, 60 }, wrap = true,"
    "  threads = threads }\n"
    "local xs, ys = {}, {}\n"
    "for k = 1, 400 do xs[k] = (k * 37 % 60) + 0.5; ys[k] = (k * 11 % 60) + 0.25 end\n"
    "w:add_many({ x = xs, y = ys, vx = 1, vy = 0.5, max_speed = 3, max_force = 2 },\n"
    "  { { 'separation', radius = 2 }, { 'alignment', radius = 4 },\n"
    "    { 'cohesion', radius = 5, weight = 0.5 }, { 'wander', weight = 0.3 } })\n"
    "local widths = { 1, 2, 4, 0 }\n"
    "for s = 1, 40 do\n"
    "  if flip then\n"
    "    steer.testing.simd(widths[s % 4 + 1])\n"
    "    steer.testing.fail_allocations(0)\n"
    "    local ok, err = pcall(steer.path, { { 0, 0 }, { 1, 1 } })\n"
    "    assert(not ok and err:find('not enough memory'), 'fail_allocations')\n"
    "    steer.testing.fail_allocations(nil)\n"
    "  end\n"
    "  w:step(1 / 30)\n"
    "end\n"
    "assert(#w == 400)\n"
    "local out = {}\n"
    "local p, n = w:positions()\n"
    "local v = w:velocities()\n"
    "for i = 1, 2 * n do\n"
    "  out[#out + 1] = string.format('%a %a', p[i] + 0.0, v[i] + 0.0)\n"
    "end\n"
    "w:close()\n"
    "return table.concat(out, ' ')\n";

typedef struct run {
  int seed, flip, threads;
  char *result; /* malloc'd, or NULL with error set */
  char error[256];
} run;

static void *run_script(void *arg) {
  run *r = arg;
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  luaL_requiref(L, "steer.core", luaopen_steer_core, 0);
  lua_pop(L, 1);
  r->result = NULL;
  if (luaL_dostring(L, "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path") ||
      luaL_loadstring(L, script)) {
    snprintf(r->error, sizeof r->error, "%s", lua_tostring(L, -1));
    lua_close(L);
    return NULL;
  }
  lua_pushinteger(L, r->seed);
  lua_pushboolean(L, r->flip);
  lua_pushinteger(L, r->threads);
  if (lua_pcall(L, 3, 1, 0)) {
    snprintf(r->error, sizeof r->error, "%s", lua_tostring(L, -1));
  } else {
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    r->result = malloc(n + 1);
    if (r->result) memcpy(r->result, s, n + 1);
  }
  lua_close(L);
  return NULL;
}

static int passed, failed;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (ok)
    passed++;
  else
    failed++;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  steer_set_allocator(host_alloc, NULL);

  /* serial reference runs: without flipping, in this thread */
  run ref[2] = {{7, 0, 1, NULL, ""}, {9, 0, 2, NULL, ""}};
  for (int k = 0; k < 2; k++) {
    run_script(&ref[k]);
    if (!ref[k].result) {
      printf("FAILED: serial run %d: %s\n", k, ref[k].error);
      return 1;
    }
  }
  steer_alloc_fn now;
  void *now_ud;
  steer_get_allocator(&now, &now_ud);
  check(now == host_alloc, "require \"steer\" leaves the host's allocator set");
  pthread_mutex_lock(&host_lock);
  long calls = host_calls;
  pthread_mutex_unlock(&host_lock);
  check(calls > 0, "worlds allocate through the host's allocator");

  for (int round = 0; round < rounds; round++) {
    /* the same scripts at once, the first one flipping its hooks */
    run par[2] = {{7, 1, 1, NULL, ""}, {9, 0, 2, NULL, ""}};
    pthread_t t[2];
    for (int k = 0; k < 2; k++) pthread_create(&t[k], NULL, run_script, &par[k]);
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    for (int k = 0; k < 2; k++) {
      char what[160];
      snprintf(what, sizeof what,
               "round %d: state %d (%s) bit-identical to its serial run%s%s",
               round + 1, k + 1, par[k].flip ? "flipping its hooks" : "plain",
               par[k].result ? "" : ": ", par[k].result ? "" : par[k].error);
      check(par[k].result && strcmp(par[k].result, ref[k].result) == 0, what);
      free(par[k].result);
    }
  }
  for (int k = 0; k < 2; k++) free(ref[k].result);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
