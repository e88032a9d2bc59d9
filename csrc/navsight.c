/* navsight.c - line of sight between any two points of a navigation grid,
 * with a clearance: nav:path's exact endpoints and smoothing with a
 * clearance use it (astar.c keeps its integer test between cell centres,
 * which is exact and faster). Everything here is in grid units: cell
 * (cx, cy) is the closed square [cx, cx + 1] x [cy, cy + 1]. */
#include <math.h>
#include "navgrid.h"

static double cross(steer_vec2 d, double x, double y) {
  return d.x * y - d.y * x;
}

/* Distance from point p to the square with corner (x, y). */
static double point_square(steer_vec2 p, double x, double y) {
  double dx = fmax(fmax(x - p.x, 0), p.x - (x + 1));
  double dy = fmax(fmax(y - p.y, 0), p.y - (y + 1));
  return sqrt(dx * dx + dy * dy);
}

/* Distance from point (x, y) to segment ab (d = b - a). */
static double point_segment(steer_vec2 a, steer_vec2 d, double x, double y) {
  double dd = d.x * d.x + d.y * d.y;
  double t = dd > 0 ? ((x - a.x) * d.x + (y - a.y) * d.y) / dd : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = a.x + t * d.x - x, ey = a.y + t * d.y - y;
  return sqrt(ex * ex + ey * ey);
}

/* Distance from segment ab to the square with corner (x, y); 0 when they
   meet. They meet when their boxes overlap and the square's corners are
   not all strictly on one side of the segment's line (exact for the
   half-integer centres and integer corners of grid paths). When they do
   not meet, the nearest points include an endpoint of the segment or a
   corner of the square. */
static double segment_square(steer_vec2 a, steer_vec2 b, double x, double y) {
  steer_vec2 d = {b.x - a.x, b.y - a.y};
  int boxes = fmin(a.x, b.x) <= x + 1 && fmax(a.x, b.x) >= x &&
              fmin(a.y, b.y) <= y + 1 && fmax(a.y, b.y) >= y;
  if (boxes) {
    int above = 0, below = 0;
    for (int k = 0; k < 4; k++) {
      double s = cross(d, x + (k & 1) - a.x, y + (k >> 1) - a.y);
      above += s > 0;
      below += s < 0;
    }
    if (above < 4 && below < 4) return 0;
  }
  double best = fmin(point_square(a, x, y), point_square(b, x, y));
  for (int k = 0; k < 4; k++)
    best = fmin(best, point_segment(a, d, x + (k & 1), y + (k >> 1)));
  return best;
}

int nav_segment_clear(const steer_navgrid *g, steer_vec2 a, steer_vec2 b,
                      double r, double max_cost) {
  const long W = g->width, H = g->height;
  /* the outside edge: a segment inside the grid is nearest to it at an
     endpoint; this also bounds r by the grid, and so the loops below */
  double edge = fmin(fmin(fmin(a.x, a.y), fmin(W - a.x, H - a.y)),
                     fmin(fmin(b.x, b.y), fmin(W - b.x, H - b.y)));
  if (!(edge >= r)) return 0;
  double xmin = fmin(a.x, b.x), xmax = fmax(a.x, b.x);
  /* every column within r of the segment, one more each side against
     rounding (the distances below decide) */
  long c0 = (long)floor(xmin - r) - 1, c1 = (long)floor(xmax + r) + 1;
  if (c0 < 0) c0 = 0;
  if (c1 > W - 1) c1 = W - 1;
  for (long cx = c0; cx <= c1; cx++) {
    /* the rows within r of the part of the segment near this column */
    double lo = fmax(cx - r, xmin), hi = fmin(cx + 1 + r, xmax);
    double ylo = fmin(a.y, b.y), yhi = fmax(a.y, b.y);
    if (lo > hi) continue;
    if (b.x != a.x) {
      double y_lo = a.y + (b.y - a.y) * ((lo - a.x) / (b.x - a.x));
      double y_hi = a.y + (b.y - a.y) * ((hi - a.x) / (b.x - a.x));
      ylo = fmax(fmin(y_lo, y_hi), ylo);
      yhi = fmin(fmax(y_lo, y_hi), yhi);
    }
    long r0 = (long)floor(ylo - r) - 1, r1 = (long)floor(yhi + r) + 1;
    if (r0 < 0) r0 = 0;
    if (r1 > H - 1) r1 = H - 1;
    for (long cy = r0; cy <= r1; cy++) {
      double c = g->cost[cy * W + cx];
      if (c > 0 && c <= max_cost) continue;
      double dist = segment_square(a, b, (double)cx, (double)cy);
      if (dist <= 0 || (c <= 0 && dist < r)) return 0;
    }
  }
  return 1;
}
