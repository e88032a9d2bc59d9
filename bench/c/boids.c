/* boids.c - contestant (d): grid, forces and integration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "boids.h"

#define DT 0.1
#define NEIGHBOR_R2 25.0  /* alignment and cohesion radius 5 */
#define SEP_R2 2.25       /* separation radius 1.5 */
#define SEP_WEIGHT 1.5
#define MAX_SPEED 2.5
#define MAX_FORCE 4.0
#define EPS 1e-5

/* calloc touches nothing itself, so the arrays are zeroed here, as the Lua
   contestants fill theirs: first-touch page faults stay out of the timing */
static void *take(boids *b, size_t count, size_t size) {
  b->bytes += count * size;
  void *p = malloc(count ? count * size : 1);
  if (p) memset(p, 0, count * size);
  return p;
}

int boids_init(boids *b, size_t n, double L, const double *x, const double *y,
               const double *vx, const double *vy) {
  memset(b, 0, sizeof *b);
  b->n = n;
  b->L = L;
  b->half = L * 0.5;
  b->nc = (int32_t)floor(L / 5.0);
  if (b->nc < 3) return -1;
  b->cell = L / b->nc;
  size_t cells = (size_t)b->nc * (size_t)b->nc;
  double **arrays[] = {&b->x, &b->y, &b->vx, &b->vy,
                       &b->sx, &b->sy, &b->svx, &b->svy};
  for (size_t k = 0; k < 8; k++) *arrays[k] = take(b, n, sizeof(double));
  b->agent_at = take(b, n, sizeof(int32_t));
  b->cell_of = take(b, n, sizeof(int32_t));
  b->first = take(b, cells + 1, sizeof(int32_t));
  b->fill = take(b, cells, sizeof(int32_t));
  for (size_t k = 0; k < 8; k++)
    if (!*arrays[k]) goto fail;
  if (!b->agent_at || !b->cell_of || !b->first || !b->fill) goto fail;
  memcpy(b->x, x, n * sizeof(double));
  memcpy(b->y, y, n * sizeof(double));
  memcpy(b->vx, vx, n * sizeof(double));
  memcpy(b->vy, vy, n * sizeof(double));
  return 0;
fail:
  boids_free(b);
  return -1;
}

void boids_free(boids *b) {
  free(b->x), free(b->y), free(b->vx), free(b->vy);
  free(b->sx), free(b->sy), free(b->svx), free(b->svy);
  free(b->agent_at), free(b->cell_of), free(b->first), free(b->fill);
  memset(b, 0, sizeof *b);
}

/* ---- the math (order as in bench/workload.lua) ------------------------ */

typedef struct sums {
  double sx, sy;          /* separation: sum of -d/|d|^2 */
  double ax, ay, cx, cy;  /* sums of neighbor velocities and offsets */
  int ns, na;
} sums;

static inline double wrap_delta(double d, double L, double half) {
  if (d > half) return d - L;
  if (d < -half) return d + L;
  return d;
}

static inline void visit(sums *s, double dx, double dy, double vxj,
                         double vyj) {
  double d2 = dx * dx + dy * dy;
  if (d2 > NEIGHBOR_R2) return;
  s->na++;
  s->ax += vxj;
  s->ay += vyj;
  s->cx += dx;
  s->cy += dy;
  if (d2 < SEP_R2 && sqrt(d2) > EPS) {
    s->ns++;
    s->sx -= dx / d2;
    s->sy -= dy / d2;
  }
}

/* Positions stay in [0, L): a step moves at most 0.25 < L, and fmod of such
   a value is one exact subtraction or addition. */
static inline double wrap_coord(double v, double L) {
  if (v >= L) return v - L;
  if (v < 0) {
    v += L;
    if (v >= L) v = 0; /* -tiny + L rounds to L */
  }
  return v;
}

/* Force from the sums, then the integration of agent i from its snapshot
   position (px, py) and velocity (vx, vy). */
static inline void move(boids *b, size_t i, const sums *s, double px,
                        double py, double vx, double vy) {
  double sepx = 0, sepy = 0, fx = 0, fy = 0;
  if (s->ns > 0) {
    sepx = s->sx / s->ns;
    sepy = s->sy / s->ns;
  }
  if (s->na > 0) {
    double alix = s->ax / s->na - vx, aliy = s->ay / s->na - vy;
    double mx = s->cx / s->na, my = s->cy / s->na;
    double len = sqrt(mx * mx + my * my);
    double cohx = -vx, cohy = -vy;
    if (len > EPS) {
      cohx = (mx / len) * MAX_SPEED - vx;
      cohy = (my / len) * MAX_SPEED - vy;
    }
    fx = SEP_WEIGHT * sepx + alix + cohx;
    fy = SEP_WEIGHT * sepy + aliy + cohy;
  } else {
    fx = SEP_WEIGHT * sepx;
    fy = SEP_WEIGHT * sepy;
  }
  double f2 = fx * fx + fy * fy;
  if (f2 > MAX_FORCE * MAX_FORCE) {
    double k = MAX_FORCE / sqrt(f2);
    fx *= k;
    fy *= k;
  }
  vx = vx + fx * DT;
  vy = vy + fy * DT;
  double v2 = vx * vx + vy * vy;
  if (v2 > MAX_SPEED * MAX_SPEED) {
    double k = MAX_SPEED / sqrt(v2);
    vx *= k;
    vy *= k;
  }
  b->vx[i] = vx;
  b->vy[i] = vy;
  b->x[i] = wrap_coord(px + vx * DT, b->L);
  b->y[i] = wrap_coord(py + vy * DT, b->L);
}

/* ---- the grid ----------------------------------------------------------- */

static inline int32_t cell_coord(double v, double cell, int32_t nc) {
  int32_t c = (int32_t)(v / cell); /* v >= 0: truncation is floor */
  return c < nc ? c : nc - 1;
}

/* Counting sort of the agents by cell into the snapshot arrays; agents of a
   cell keep increasing index order. */
static void sort_into_cells(boids *b) {
  int32_t nc = b->nc;
  size_t cells = (size_t)nc * (size_t)nc;
  memset(b->fill, 0, cells * sizeof(int32_t));
  for (size_t i = 0; i < b->n; i++) {
    int32_t c = cell_coord(b->y[i], b->cell, nc) * nc +
                cell_coord(b->x[i], b->cell, nc);
    b->cell_of[i] = c;
    b->fill[c]++;
  }
  int32_t at = 0;
  for (size_t c = 0; c < cells; c++) {
    int32_t count = b->fill[c];
    b->first[c] = b->fill[c] = at;
    at += count;
  }
  b->first[cells] = at;
  for (size_t i = 0; i < b->n; i++) {
    int32_t k = b->fill[b->cell_of[i]]++;
    b->sx[k] = b->x[i];
    b->sy[k] = b->y[i];
    b->svx[k] = b->vx[i];
    b->svy[k] = b->vy[i];
    b->agent_at[k] = (int32_t)i;
  }
}

/* The sorted-slot ranges [lo, hi) of the 3x3 cells around (cx, cy) in
   canonical order; ranges that touch are merged (same visiting order). */
static int block_ranges(const boids *b, int32_t cx, int32_t cy, int32_t *lo,
                        int32_t *hi) {
  int32_t nc = b->nc, n = 0;
  for (int32_t oy = -1; oy <= 1; oy++) {
    int32_t row = (cy + oy + nc) % nc * nc;
    for (int32_t ox = -1; ox <= 1; ox++) {
      int32_t c = row + (cx + ox + nc) % nc;
      int32_t a = b->first[c], z = b->first[c + 1];
      if (a == z) continue;
      if (n > 0 && hi[n - 1] == a) {
        hi[n - 1] = z;
      } else {
        lo[n] = a;
        hi[n] = z;
        n++;
      }
    }
  }
  return n;
}

void boids_step(boids *b) {
  const double *sx, *sy, *svx, *svy;
  double L = b->L, half = b->half;
  sort_into_cells(b);
  sx = b->sx, sy = b->sy, svx = b->svx, svy = b->svy;
  for (int32_t cy = 0; cy < b->nc; cy++) {
    for (int32_t cx = 0; cx < b->nc; cx++) {
      int32_t c = cy * b->nc + cx;
      if (b->first[c] == b->first[c + 1]) continue;
      int32_t lo[9], hi[9];
      int nr = block_ranges(b, cx, cy, lo, hi);
      for (int32_t k = b->first[c]; k < b->first[c + 1]; k++) {
        double px = sx[k], py = sy[k];
        sums s = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int r = 0; r < nr; r++) {
          for (int32_t j = lo[r]; j < hi[r]; j++) {
            if (j == k) continue;
            visit(&s, wrap_delta(sx[j] - px, L, half),
                  wrap_delta(sy[j] - py, L, half), svx[j], svy[j]);
          }
        }
        move(b, (size_t)b->agent_at[k], &s, px, py, svx[k], svy[k]);
      }
    }
  }
}

void boids_step_brute(boids *b) {
  size_t n = b->n;
  double L = b->L, half = b->half;
  memcpy(b->sx, b->x, n * sizeof(double));
  memcpy(b->sy, b->y, n * sizeof(double));
  memcpy(b->svx, b->vx, n * sizeof(double));
  memcpy(b->svy, b->vy, n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    sums s = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t j = 0; j < n; j++) {
      if (j == i) continue;
      visit(&s, wrap_delta(b->sx[j] - b->sx[i], L, half),
            wrap_delta(b->sy[j] - b->sy[i], L, half), b->svx[j], b->svy[j]);
    }
    move(b, i, &s, b->sx[i], b->sy[i], b->svx[i], b->svy[i]);
  }
}
