/* flowfield_oracle.c - flow fields (csrc/flowfield.c) against a plain
 * reference, bit for bit: costs, directions and blend masks. The reference
 * is the computation as first written (Dijkstra with bucket stacks, or with
 * a scan for the cheapest open cell when costs are far apart; then a
 * breadth-first search for the escape steps), which fixes how ties go;
 * brute force checks the reference itself (costs by relaxation to the fixed
 * point, each step along a cheapest move or one ring closer to the
 * reachable cells, the blend masks by their definitions). Random grids with
 * blocked cells, cell costs above 1 (whole, fractional, far apart), several
 * goals (outside, blocked, repeated), thin and 1x1 and all-blocked grids,
 * updates after set_cost, a failed update, goals moved (set_goals: a failed
 * one, none allocating once there is room; goals on the far edges), and the
 * Moving AI maps of ../shared/nav when present. Prints "N passed, N
 * failed"; exits nonzero on a failure. Built by mk/flowfield.mk, run by
 * spec/flowfield_oracle_spec.lua. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "navgrid.h"
#include "vec.h"
#include "oracle.h"

static uint32_t rng = 20261201;
static uint32_t next(void) {
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}
static double unit(void) { return next() / 16777216.0; }

static int fail_next; /* the allocator fails while set */
static long allocations; /* every allocation asked for */
static void *test_alloc(void *ud, void *p, size_t o, size_t n) {
  (void)ud;
  (void)o;
  if (n == 0) {
    free(p);
    return NULL;
  }
  allocations++;
  return fail_next ? NULL : realloc(p, n);
}

/* ---- the reference ------------------------------------------------------- */

typedef struct ref_field {
  int W, H;
  double *dist; /* -1: no goal reached */
  int *step;    /* the move toward the next cell; -1 none */
  uint8_t *blend;
  int reachable_any;
} ref_field;

static int inside(int W, int H, int x, int y) {
  return x >= 0 && y >= 0 && x < W && y < H;
}

/* nav_move_ok on a plain cost array */
static int move_ok(const double *cost, int W, int H, int c, int k) {
  int x = c % W + nav_dx[k], y = c / W + nav_dy[k];
  if (!inside(W, H, x, y) || cost[y * W + x] <= 0) return 0;
  return k < 4 || (cost[c / W * W + x] > 0 && cost[y * W + c % W] > 0);
}

/* a bucket: a stack of cells, each with the push it came from */
typedef struct stack {
  int32_t *cell;
  uint32_t *push;
  size_t n, cap;
} stack;

static void stack_push(stack *s, int32_t cell, uint32_t push) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->cell = realloc(s->cell, s->cap * sizeof *s->cell);
    s->push = realloc(s->push, s->cap * sizeof *s->push);
  }
  s->cell[s->n] = cell;
  s->push[s->n++] = push;
}

static void reference(const double *cost, int W, int H, const int32_t *goal,
                      size_t ngoal, ref_field *r) {
  int n = W * H;
  r->W = W;
  r->H = H;
  r->dist = malloc(n * sizeof *r->dist);
  r->step = malloc(n * sizeof *r->step);
  r->blend = malloc(n);
  int *state = calloc(n, sizeof *state); /* 0 new, 1 open, 2 done */
  uint32_t *push = calloc(n, sizeof *push), pushes = 0;
  double dearest = 1;
  for (int c = 0; c < n; c++) {
    r->dist[c] = -1;
    r->step[c] = -1;
    r->blend[c] = 0;
    for (int k = 0; k < 8; k++)
      if (cost[c] > 0 && move_ok(cost, W, H, c, k)) r->blend[c] |= 1u << k;
    if (cost[c] > dearest) dearest = cost[c];
  }
  int nb = 4;
  while (nb < 256 && nb < dearest * NAV_SQRT2 + 3) nb *= 2;
  int buckets = nb >= dearest * NAV_SQRT2 + 3;
  stack *bucket = calloc(nb, sizeof *bucket);
  size_t open = 0;
  for (size_t q = 0; q < ngoal; q++) {
    int32_t c = goal[q];
    if (c < 0 || cost[c] <= 0 || state[c]) continue;
    state[c] = 1;
    r->dist[c] = 0;
    push[c] = ++pushes;
    stack_push(&bucket[0], c, push[c]);
    open++;
  }
  for (size_t level = 0; open > 0;) {
    int32_t u = -1;
    if (buckets) { /* the last cell pushed on this level's bucket */
      stack *s = &bucket[level % nb];
      while (s->n > 0 && u < 0) {
        int32_t c = s->cell[--s->n];
        if (state[c] == 1 && push[c] == s->push[s->n]) u = c;
      }
      if (u < 0) {
        level++;
        continue;
      }
    } else { /* the cheapest open cell, then the smallest */
      for (int c = 0; c < n; c++)
        if (state[c] == 1 && (u < 0 || r->dist[c] < r->dist[u])) u = c;
    }
    state[u] = 2;
    open--;
    for (int k = 0; k < 8; k++) {
      if (!(r->blend[u] >> k & 1)) continue;
      int32_t v = u + nav_dy[k] * W + nav_dx[k];
      if (state[v] == 2) continue;
      double d = r->dist[u] + cost[u] * (k < 4 ? 1.0 : NAV_SQRT2);
      if (state[v] == 0 || d < r->dist[v]) {
        int moved = state[v] == 0 || (size_t)d != (size_t)r->dist[v];
        if (state[v] == 0) open++;
        state[v] = 1;
        r->dist[v] = d;
        r->step[v] = k ^ 1;
        if (moved) {
          push[v] = ++pushes;
          stack_push(&bucket[(size_t)d % nb], v, push[v]);
        }
      }
    }
  }
  /* escape steps: breadth-first from the reachable cells in index order */
  int32_t *queue = malloc(n * sizeof *queue);
  size_t head = 0, tail = 0;
  for (int c = 0; c < n; c++) {
    state[c] = r->dist[c] >= 0;
    if (state[c]) queue[tail++] = c;
  }
  r->reachable_any = tail > 0;
  while (head < tail && r->reachable_any) {
    int32_t u = queue[head++];
    for (int k = 0; k < 8; k++) {
      int x = u % W + nav_dx[k], y = u / W + nav_dy[k];
      if (!inside(W, H, x, y) || state[y * W + x]) continue;
      state[y * W + x] = 1;
      queue[tail++] = y * W + x;
      r->step[y * W + x] = k ^ 1;
    }
  }
  for (int c = 0; c < n; c++) {
    if (r->dist[c] >= 0) continue;
    r->blend[c] = 0;
    for (int k = 0; k < 8 && r->reachable_any; k++) {
      int x = c % W + nav_dx[k], y = c / W + nav_dy[k];
      if (inside(W, H, x, y) && r->dist[y * W + x] < 0) r->blend[c] |= 1u << k;
    }
  }
  for (int b = 0; b < nb; b++) {
    free(bucket[b].cell);
    free(bucket[b].push);
  }
  free(bucket);
  free(queue);
  free(state);
  free(push);
}

static void ref_free(ref_field *r) {
  free(r->dist);
  free(r->step);
  free(r->blend);
}

/* ---- brute force checks of the reference ---------------------------------- */

static void brute_check(const double *cost, const int32_t *goal, size_t ngoal,
                        const ref_field *r, const char *what) {
  int W = r->W, H = r->H, n = W * H;
  /* costs: relax every move until nothing changes, from the goals */
  double *d = malloc(n * sizeof *d);
  for (int c = 0; c < n; c++) d[c] = INFINITY;
  for (size_t q = 0; q < ngoal; q++)
    if (goal[q] >= 0 && cost[goal[q]] > 0) d[goal[q]] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int u = 0; u < n; u++)
      for (int k = 0; k < 8; k++) {
        if (d[u] == INFINITY || !move_ok(cost, W, H, u, k)) continue;
        int32_t v = u + nav_dy[k] * W + nav_dx[k];
        double dv = d[u] + cost[u] * (k < 4 ? 1.0 : NAV_SQRT2);
        if (dv < d[v]) d[v] = dv, changed = 1;
      }
  }
  int bad_dist = 0, bad_step = 0, bad_blend = 0;
  /* rings: 8-neighbor steps to the nearest reachable cell */
  int *ring = malloc(n * sizeof *ring);
  for (int c = 0; c < n; c++) ring[c] = d[c] < INFINITY ? 0 : n;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int c = 0; c < n; c++)
      for (int k = 0; k < 8; k++) {
        int x = c % W + nav_dx[k], y = c / W + nav_dy[k];
        if (inside(W, H, x, y) && ring[y * W + x] + 1 < ring[c])
          ring[c] = ring[y * W + x] + 1, changed = 1;
      }
  }
  for (int c = 0; c < n; c++) {
    double want = d[c] < INFINITY ? d[c] : -1;
    if (memcmp(&want, &r->dist[c], sizeof want) != 0) bad_dist++;
    int k = r->step[c];
    int32_t to = k < 0 ? -1 : c + nav_dy[k] * W + nav_dx[k];
    if (d[c] == 0) { /* a goal */
      bad_step += k != -1;
    } else if (d[c] < INFINITY) { /* along a cheapest move */
      bad_step += k < 0 || !move_ok(cost, W, H, to, k ^ 1) ||
                  d[to] + cost[to] * (k < 4 ? 1.0 : NAV_SQRT2) != d[c];
    } else if (r->reachable_any) { /* one ring closer */
      bad_step += k < 0 || ring[to] != ring[c] - 1;
    } else {
      bad_step += k != -1;
    }
    uint8_t m = 0;
    for (int j = 0; j < 8; j++) {
      int x = c % W + nav_dx[j], y = c / W + nav_dy[j];
      if (d[c] < INFINITY ? move_ok(cost, W, H, c, j)
                          : r->reachable_any && inside(W, H, x, y) &&
                                d[y * W + x] == INFINITY)
        m |= 1u << j;
    }
    bad_blend += m != r->blend[c];
  }
  CHECK(bad_dist == 0, "%s: %d reference costs differ from relaxation", what,
        bad_dist);
  CHECK(bad_step == 0, "%s: %d reference steps lead nowhere useful", what,
        bad_step);
  CHECK(bad_blend == 0, "%s: %d reference blend masks wrong", what, bad_blend);
  free(d);
  free(ring);
}

/* ---- the field against the reference -------------------------------------- */

static void compare(const steer_flowfield *f, const ref_field *r,
                    const char *what) {
  int n = r->W * r->H, bad = 0, first = -1;
  for (int c = 0; c < n; c++) {
    int k = r->step[c];
    double scale = k < 4 ? 1.0 : 1.0 / NAV_SQRT2;
    float dx = k < 0 ? 0.0f : (float)(nav_dx[k] * scale);
    float dy = k < 0 ? 0.0f : (float)(nav_dy[k] * scale);
    int same = memcmp(&f->cells[c].dist, &r->dist[c], sizeof(double)) == 0 &&
               memcmp(&f->cells[c].dx, &dx, sizeof dx) == 0 &&
               memcmp(&f->cells[c].dy, &dy, sizeof dy) == 0 &&
               f->blend[c] == r->blend[c];
    if (!same && first < 0) first = c;
    bad += !same;
  }
  CHECK(bad == 0 && f->reachable_any == r->reachable_any,
        "%s: %d cells differ from the reference (first %d: dist %.17g / %.17g, "
        "blend %d / %d)", what, bad, first, first < 0 ? 0 : f->cells[first].dist,
        first < 0 ? 0 : r->dist[first], first < 0 ? 0 : f->blend[first],
        first < 0 ? 0 : r->blend[first]);
}

/* Random goals around the grid of g: some outside, some on the far edges
   and corner (inside: the grid is closed), some on one cell twice. */
static void random_goals(const steer_navgrid *g, steer_vec2 *goals, size_t n) {
  double s = g->cell_size, W = g->width * s, H = g->height * s;
  steer_vec2 o = g->origin;
  for (size_t q = 0; q < n; q++) {
    goals[q] = v2(o.x + (unit() * 1.2 - 0.1) * W, o.y + (unit() * 1.2 - 0.1) * H);
    switch (next() % 8) {
    case 0: goals[q].x = o.x + W; break;
    case 1: goals[q].y = o.y + H; break;
    case 2: goals[q] = v2(o.x + W, o.y + H); break;
    case 3: if (q > 0) goals[q] = goals[q - 1]; break;
    default: break;
    }
  }
}

/* steer_flowfield_set_goals: a failure (before the field keeps its scratch)
   changes nothing; then the field equals the reference toward the new
   goals, and moving goals that need no more room allocates nothing. */
static void check_set_goals(steer_flowfield *f, const steer_vec2 *goals,
                            size_t n, const char *what) {
  const steer_navgrid *g = f->grid;
  int W = g->width, H = g->height;
  size_t bytes = (size_t)W * H * sizeof(flow_cell);
  flow_cell *before = malloc(bytes);
  memcpy(before, f->cells, bytes);
  steer_vec2 moved[6];
  size_t m = 1 + next() % 6;
  random_goals(g, moved, m);
  fail_next = 1;
  steer_status st = steer_flowfield_set_goals(f, moved, m);
  fail_next = 0;
  CHECK(st == STEER_ENOMEM && memcmp(before, f->cells, bytes) == 0 &&
            f->goal_count == n &&
            memcmp(f->goals, goals, n * sizeof *goals) == 0 && !f->scratch,
        "%s: a failed set_goals changed the field", what);
  free(before);
  for (int round = 0; round < 3; round++) {
    if (round > 0) m = 1 + next() % f->goal_room; /* room enough */
    random_goals(g, moved, m);
    long allocated = allocations;
    CHECK(steer_flowfield_set_goals(f, moved, m) == STEER_OK,
          "%s: set_goals", what);
    CHECK(round == 0 || allocations == allocated,
          "%s: set_goals allocated %ld times", what, allocations - allocated);
    for (size_t q = 0; q < m; q++) {
      steer_vec2 p = nav_grid_coords(g, moved[q]);
      int in = p.x >= 0 && p.y >= 0 && p.x <= W && p.y <= H;
      /* the far edges are in the last column and row */
      long want = !in ? -1
                  : (long)(p.y < H ? (int)p.y : H - 1) * W +
                        (p.x < W ? (int)p.x : W - 1);
      CHECK(f->goal_cells[q] == want, "%s: goal %zu in cell %d, not %ld",
            what, q, f->goal_cells[q], want);
    }
    ref_field r;
    reference(g->cost, W, H, f->goal_cells, m, &r);
    compare(f, &r, what);
    ref_free(&r);
  }
  long allocated = allocations;
  CHECK(steer_flowfield_update(f) == STEER_OK && allocations == allocated,
        "%s: an update after set_goals allocated", what);
}

/* The field toward goals on grid g, against the reference; brute force
   checks the reference on small grids. Then a few costs change and an
   update must agree again. */
static void check_grid(steer_navgrid *g, const steer_vec2 *goals, size_t n,
                       int brute, const char *what) {
  steer_flowfield *f = steer_flowfield_create(g, goals, n);
  CHECK(f != NULL, "%s: no field", what);
  if (!f) return;
  int W = g->width, H = g->height;
  for (int round = 0; round < 2; round++) {
    ref_field r;
    reference(g->cost, W, H, f->goal_cells, n, &r);
    compare(f, &r, what);
    if (brute) brute_check(g->cost, f->goal_cells, n, &r, what);
    ref_free(&r);
    for (int j = 0; j < 3; j++) {
      int x = (int)(next() % W), y = (int)(next() % H);
      steer_navgrid_set_cost(g, x, y, next() % 3 ? 1 + next() % 3 : 0);
    }
    CHECK(steer_flowfield_update(f) == STEER_OK, "%s: update", what);
  }
  /* a failed update changes nothing */
  size_t bytes = (size_t)W * H * sizeof(flow_cell);
  flow_cell *before = malloc(bytes);
  uint8_t *blend = malloc((size_t)W * H);
  memcpy(before, f->cells, bytes);
  memcpy(blend, f->blend, (size_t)W * H);
  steer_navgrid_set_cost(g, 0, 0, 1 + next() % 2);
  fail_next = 1;
  steer_status st = steer_flowfield_update(f);
  fail_next = 0;
  CHECK(st == STEER_ENOMEM && memcmp(before, f->cells, bytes) == 0 &&
            memcmp(blend, f->blend, (size_t)W * H) == 0 &&
            steer_flowfield_stale(f),
        "%s: a failed update changed the field", what);
  free(before);
  free(blend);
  check_set_goals(f, goals, n, what);
  steer_flowfield_release(f);
}

static double random_cost(int kind) {
  switch (kind) {
  case 0: return 1;
  case 1: return 1 + next() % 3;                 /* whole */
  case 2: return 1 + unit() * 3;                 /* fractional */
  case 3: return 1 + (next() % 8) * 0.5;
  case 4: return 1 + next() % 300;               /* too far apart for buckets */
  default: return next() % 4 ? 1 : 1e9;          /* the dearest allowed */
  }
}

static void random_grids(int count) {
  char what[64];
  for (int t = 0; t < count; t++) {
    int W = 1 + (int)(next() % 24), H = 1 + (int)(next() % 24);
    if (t % 10 == 0) W = 1; /* thin */
    if (t % 10 == 1) H = 1;
    if (t % 25 == 2) W = 40 + (int)(next() % 60), H = 40 + (int)(next() % 60);
    int kind = (int)(next() % 6);
    double blocked = t % 50 == 3 ? 1 : unit() * 0.6;
    double *cost = malloc((size_t)W * H * sizeof *cost);
    for (int c = 0; c < W * H; c++)
      cost[c] = unit() < blocked ? 0 : random_cost(kind);
    double s = 0.5 + (next() % 3);
    steer_navgrid *g = steer_navgrid_create(W, H, s, v2(-2, 3), cost);
    size_t n = 1 + next() % 5;
    steer_vec2 goals[5];
    random_goals(g, goals, n);
    snprintf(what, sizeof what, "random grid %d (%dx%d, costs %d)", t, W, H,
             kind);
    check_grid(g, goals, n, W * H <= 600, what);
    steer_navgrid_release(g);
    free(cost);
  }
}

static void maps(void) {
  const char *names[] = {"maze512-1-0", "brc202d"};
  for (int m = 0; m < 2; m++) {
    char path[128];
    snprintf(path, sizeof path, "../shared/nav/%s.map", names[m]);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
      printf("%s: not found, skipped\n", path);
      continue;
    }
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *text = malloc((size_t)len);
    size_t got = fread(text, 1, (size_t)len, fp);
    fclose(fp);
    const char *error = NULL;
    steer_navgrid *g = steer_navgrid_from_map(text, got, 1, v2(0, 0), &error);
    free(text);
    CHECK(g != NULL, "%s: %s", path, error ? error : "no grid");
    if (!g) continue;
    for (int k = 0; k < 3; k++) {
      size_t n = k == 2 ? 4 : 1;
      steer_vec2 goals[4];
      for (size_t q = 0; q < n; q++)
        goals[q] = v2(unit() * g->width, unit() * g->height);
      /* the benchmark's goals: the first scenarios' starts */
      if (k == 0) goals[0] = m == 0 ? v2(407.5, 136.5) : v2(106.5, 123.5);
      check_grid(g, goals, n, 0, names[m]);
    }
    steer_navgrid_release(g);
  }
}

int main(void) {
  steer_set_allocator(test_alloc, NULL);
  random_grids(1500);
  maps();
  return oracle_report();
}
