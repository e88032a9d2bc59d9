/* navinflate.c - grids for big units: a copy of a grid whose blocked cells
 * grow by a radius (steer_navgrid_inflated).
 *
 * A cell is blocked in the copy when its centre lies closer than the
 * radius to the square of a blocked cell. That is an exact Euclidean
 * distance transform from the blocked cells, in two separable passes (the
 * lower-envelope method of Felzenszwalb and Huttenlocher, in the integer
 * form of Meijster et al.): down the columns, the nearest blocked cell of
 * each column; then along each row, the lower envelope of one parabola
 * per column. O(cells) whatever the radius, and O(width) scratch.
 *
 * Lengths are in half cells, so that every one is an integer: the centre
 * of cell x lies at 2x + 1 and the square of cell b spans [2b, 2b + 2];
 * along one axis the centre of x is 2|x - b| - 1 from that square (0 when
 * x = b). Twice the distance, squared, is then an integer below 2^36, exact
 * in int64_t and in a double, and so is its comparison with the radius.
 * Only whether a cell is nearer than the radius matters, so parabolas that
 * never come below it are left out of the envelope. */
#include <stdint.h>
#include "invariant.h"
#include "navgrid.h"

#define NO_BLOCKED_CELL INT64_MAX

/* (2 d)^2 along one axis for a cell `apart` cells from a blocked one. */
static int64_t axis_sq(int64_t apart) {
  int64_t d = 2 * apart - 1;
  return apart ? d * d : 0;
}

/* floor(num / den) for 0 < den <= 2^18 and |num| < 2^37, by a double
   division (several times faster than int64_t's): a quotient that is not
   an integer lies at least 1 / den from one, and the division's rounding
   error, below 2^-53 |num / den| < 2^-16 / den, cannot cross it. */
static int64_t floor_div(int64_t num, int64_t den) {
  double q = (double)num / (double)den;
  int64_t t = (int64_t)q; /* toward zero; floor() is a library call */
  return (double)t > q ? t - 1 : t;
}

/* The scratch of one computation, one block: per column, the rows of the
   nearest blocked cells above and below the current row, the height of
   its parabola, and the envelope's sites and their starts; per query
   point, the envelope's value. */
typedef struct inflate_scratch {
  int32_t *above;  /* last blocked row <= y, or -1 */
  int32_t *below;  /* first blocked row >= y, or height */
  int64_t *height; /* (2 d)^2 from the cell to its column's nearest blocked cell */
  int32_t *site;   /* the columns whose parabolas make the envelope */
  int64_t *start;  /* where each site's stretch of the envelope starts */
  int64_t *env;    /* env[j]: the envelope at 2j - 1, j = 0..width */
} inflate_scratch;

static size_t scratch_bytes(int width) {
  size_t w = (size_t)width;
  return w * (2 * sizeof(int32_t) + 2 * sizeof(int64_t) + sizeof(int32_t)) +
         (w + 1) * sizeof(int64_t);
}

static void scratch_split(void *block, int width, inflate_scratch *s) {
  size_t w = (size_t)width;
  /* the 8-byte arrays first: each stays aligned */
  s->height = block;
  s->start = s->height + w;
  s->env = s->start + w;
  s->above = (int32_t *)(s->env + w + 1);
  s->below = s->above + w;
  s->site = s->below + w;
}

/* The parabola of column c, (2 d)^2 seen from position X (half cells). */
static int64_t parabola(const int64_t *height, int32_t c, int64_t X) {
  int64_t dx = X - 2 * (int64_t)c;
  return dx * dx + height[c];
}

/* The last position X where column i's parabola is at most column u's
   (i < u): (X - 2i)^2 + h_i <= (X - 2u)^2 + h_u. */
static int64_t last_at_most(const int64_t *height, int32_t i, int32_t u) {
  int64_t pi = 2 * (int64_t)i, pu = 2 * (int64_t)u;
  return floor_div(pu * pu - pi * pi + height[u] - height[i], 2 * (pu - pi));
}

/* env[j] = the least parabola at X = 2j - 1 (j = 0..width): from cell x,
   env[x] holds the columns to its left exactly and env[x + 1] those to its
   right (for the others each is too big, never too small). */
static void lower_envelope(inflate_scratch *s, int width) {
  const int64_t lo = -1, hi = 2 * (int64_t)width - 1;
  int q = -1; /* top of the stack of sites */
  for (int32_t c = 0; c < width; c++) {
    if (s->height[c] == NO_BLOCKED_CELL) continue;
    /* drop the sites the new one beats from where they start */
    while (q >= 0 && parabola(s->height, s->site[q], s->start[q]) >
                         parabola(s->height, c, s->start[q]))
      q--;
    if (q < 0) {
      q = 0;
      s->site[0] = c;
      s->start[0] = lo;
    } else {
      int64_t from = 1 + last_at_most(s->height, s->site[q], c);
      if (from <= hi) {
        q++;
        s->site[q] = c;
        s->start[q] = from;
      }
    }
  }
  for (int j = width; j >= 0; j--) {
    int64_t X = 2 * (int64_t)j - 1;
    if (q < 0) {
      s->env[j] = NO_BLOCKED_CELL;
      continue;
    }
    while (s->start[q] > X) q--;
    s->env[j] = parabola(s->height, s->site[q], X);
  }
}

/* The column pass for row y: each column's nearest blocked cell above and
   below. `below` only moves down, so each column is scanned once in all. */
static void column_heights(const steer_navgrid *g, int y, double limit,
                           inflate_scratch *s) {
  const int W = g->width, H = g->height;
  for (int x = 0; x < W; x++) {
    if (g->cost[(size_t)y * W + x] <= 0) s->above[x] = y;
    if (s->below[x] < y) {
      int r = y;
      while (r < H && g->cost[(size_t)r * W + x] > 0) r++;
      s->below[x] = r;
    }
    int64_t apart = INT64_MAX;
    if (s->above[x] >= 0) apart = y - s->above[x];
    if (s->below[x] < H && s->below[x] - y < apart) apart = s->below[x] - y;
    s->height[x] = apart == INT64_MAX ? NO_BLOCKED_CELL : axis_sq(apart);
    /* a parabola never below the limit blocks nothing: leaving it out of
       the envelope changes no answer and saves most of the work when
       the radius is small beside the gaps */
    if ((double)s->height[x] >= limit) s->height[x] = NO_BLOCKED_CELL;
  }
}

steer_navgrid *steer_navgrid_inflated(const steer_navgrid *g, double radius,
                                      int edges) {
  STEER_ASSERT(radius >= 0 && STEER_IN_LIMIT(radius));
  steer_navgrid *out = steer_navgrid_create(g->width, g->height, g->cell_size,
                                            g->origin, g->cost);
  if (!out) return NULL;
  /* the radius in cells; beyond the grid's diagonal more changes nothing,
     so a huge radius costs the same as any other */
  double r = radius / g->cell_size;
  if (r > 4.0 * STEER_NAV_MAX_SIDE) r = 4.0 * STEER_NAV_MAX_SIDE;
  /* every open cell's centre is at least half a cell from a blocked cell
     and from the outside edge: nothing is closer than that (NaN too) */
  if (!(r > 0.5)) return out;
  const double limit = 4.0 * (r * r); /* (2 r)^2 */
  const int W = g->width, H = g->height;
  void *block = steer_alloc(NULL, 0, scratch_bytes(W));
  if (!block) {
    steer_navgrid_release(out);
    return NULL;
  }
  inflate_scratch s;
  scratch_split(block, W, &s);
  for (int x = 0; x < W; x++) {
    s.above[x] = -1;
    s.below[x] = -1; /* scanned at row 0 */
  }
  for (int y = 0; y < H; y++) {
    column_heights(g, y, limit, &s);
    lower_envelope(&s, W);
    double *row = out->cost + (size_t)y * W;
    int edge_y = y < H - 1 - y ? y : H - 1 - y;
    for (int x = 0; x < W; x++) {
      if (row[x] <= 0) continue;
      int64_t d = s.height[x];
      if (s.env[x] < d) d = s.env[x];
      if (s.env[x + 1] < d) d = s.env[x + 1];
      int near_edge = 0;
      if (edges) {
        int m = x < W - 1 - x ? x : W - 1 - x;
        if (edge_y < m) m = edge_y;
        double e = 2.0 * m + 1; /* twice the distance to the outside */
        near_edge = e * e < limit;
      }
      if (near_edge || (d != NO_BLOCKED_CELL && (double)d < limit)) row[x] = 0;
    }
  }
  steer_alloc(block, scratch_bytes(W), 0);
  return out;
}
