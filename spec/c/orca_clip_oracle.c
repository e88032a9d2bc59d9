/* orca_clip_oracle.c - the linear program's clip in SSE2 lanes (orca.c:
 * clip_pairs) against the scalar loop (clip_scalar), bit for bit: whether a
 * stretch is left and its bounds. Random lines, many of them built to tie
 * (small integers, shared points and directions, zeros of both signs,
 * parallel and nearly parallel lines, huge, infinite and NaN values), from
 * the starting bounds solve_on_line makes (lo <= hi, no NaN). orca.c is
 * included, not linked, to reach its static functions; mk/crowd.mk builds
 * it with the other core files. A clip_pairs without its zero-tie fallback
 * fails 1,483 checks. Also the clamp of t into a stretch left (orca_clamp)
 * against the scalar test. Exits nonzero on a failure. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "orca.c"
#include "oracle.h"

#if !defined(__SSE2__)
#define clip_pairs clip_scalar /* no lanes to check: the same loop twice */
#endif

static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void) { /* xorshift64 */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
static double uniform(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

/* A coordinate; `wild` adds the extremes. */
static double coord(int wild) {
  switch (rnd() % (wild ? 8 : 4)) {
  case 0: return uniform() * 4 - 2;
  case 1: return (double)((int)(rnd() % 5) - 2); /* exact ties */
  case 2: return rnd() & 1 ? 0.0 : -0.0;
  case 3: return uniform() * 40 - 20;
  case 4: return 1e-6 * (uniform() - 0.5);
  case 5: return 1e300 * (uniform() - 0.5);
  case 6: return rnd() & 1 ? INFINITY : -INFINITY;
  default: return NAN;
  }
}

static steer_vec2 direction(const orca_line *lines, size_t j, int wild) {
  static const double axes[8][2] = {{1, 0},      {0, 1},     {-1, 0},
                                    {0, -1},     {0.6, 0.8}, {-0.8, 0.6},
                                    {0.6, -0.8}, {-0.6, -0.8}};
  if (wild && rnd() % 10 == 0) return v2(coord(1), coord(1));
  if (j > 0 && rnd() % 3 == 0) { /* parallel to an earlier one */
    steer_vec2 d = lines[rnd() % j].dir;
    return rnd() & 1 ? d : v2(-d.x, -d.y);
  }
  if (rnd() % 2) {
    double a = uniform() * 6.283185307179586;
    return v2(cos(a), sin(a));
  }
  const double *c = axes[rnd() % 8];
  return v2(c[0], c[1]);
}

int main(void) {
  orca_line lines[24];
  long feasible = 0, zero_bound = 0;
  for (long it = 0; it < 3000000; it++) {
    int wild = it % 3 == 0;
    size_t k = 1 + rnd() % 20;
    /* lines through a shared point cut line k there: t is a zero, its
       sign from the directions' */
    steer_vec2 pool[2] = {v2(coord(wild), coord(wild)), v2(coord(0), coord(0))};
    for (size_t j = 0; j <= k; j++) {
      lines[j].dir = direction(lines, j, wild);
      lines[j].point = rnd() % 2 ? pool[rnd() % 2] : v2(coord(wild), coord(wild));
    }
    /* as solve_on_line starts them: -proj -+ root, root >= 0 */
    double proj = coord(wild), root = rnd() % 5 ? fabs(coord(wild)) : 0;
    double lo = -proj - root, hi = -proj + root;
    if (isnan(lo) || isnan(hi)) continue;
    double lo_s = lo, hi_s = hi, lo_p = lo, hi_p = hi;
    int ok_s = clip_scalar(lines, k, &lines[k], &lo_s, &hi_s);
    int ok_p = clip_pairs(lines, k, &lines[k], &lo_p, &hi_p);
    CHECK(ok_s == ok_p && (!ok_s || (memcmp(&lo_s, &lo_p, sizeof lo_s) == 0 &&
                                     memcmp(&hi_s, &hi_p, sizeof hi_s) == 0)),
          "case %ld, %zu lines: scalar %d [%a, %a], lanes %d [%a, %a]", it, k,
          ok_s, lo_s, hi_s, ok_p, lo_p, hi_p);
    /* solve_on_line's clamp of t into a stretch left */
    if (ok_s) {
      double t = rnd() % 4 ? coord(wild) : rnd() % 2 ? lo_s : hi_s;
      double want = t < lo_s ? lo_s : t > hi_s ? hi_s : t;
      double got = orca_clamp(t, lo_s, hi_s);
      CHECK(memcmp(&want, &got, sizeof want) == 0,
            "clamp of %a into [%a, %a]: %a, not %a", t, lo_s, hi_s, got, want);
    }
    feasible += ok_s;
    zero_bound += ok_s && (lo_s == 0 || hi_s == 0);
  }
  printf("%ld feasible, %ld with a zero bound\n", feasible, zero_bound);
  return oracle_report();
}
