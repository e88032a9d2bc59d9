/* contain.c - keeping an agent inside a polygon with a feeler (geometry.h).

   The force is either zero or max_force long, so an agent about to leave
   brakes as hard as it can: a force that grew with the tip's overshoot
   (the feeler's first version) let agents ride the edge just outside with
   pushes of a few hundredths, too weak to bring them back yet loud enough
   to silence the entries after contain in a priority program. */
#include <math.h>

#include "contain.h"
#include "vec.h"

/* Does edge e cross the horizontal line through p, right of p? (Taken
   from its end: the same arithmetic as before the index, the same bits.) */
static int crosses_right(const steer_vec2 *pts, size_t n, size_t e,
                         steer_vec2 p) {
  steer_vec2 a = pts[(e + 1) % n], b = pts[e];
  if ((a.y > p.y) == (b.y > p.y)) return 0;
  double t = (p.y - a.y) / (b.y - a.y);
  return p.x < a.x + t * (b.x - a.x);
}

int geo_inside(const steer_vec2 *pts, size_t n, steer_vec2 p) {
  int in = 0;
  for (size_t e = 0; e < n; e++) in ^= crosses_right(pts, n, e, p);
  return in;
}

/* The same with the index: only edges whose y range holds p.y can cross
   the line through p, and they are all in p.y's band. */
static int inside_indexed(const steer_vec2 *pts, size_t n,
                          const contain_index *x, steer_vec2 p) {
  const contain_cells *b = &x->bands;
  long k = contain_cell(b, 1, p.y);
  if (k < 0) return geo_inside(pts, n, p);
  int in = 0;
  for (uint32_t c = b->start[k]; c < b->start[k + 1]; c++)
    in ^= crosses_right(pts, n, b->edge[c], p);
  return in;
}

/* a / |a|, or zero when a is zero (or not a number). Divided by its
   largest component first, so that the edges of a tiny region (whose
   squares underflow) and huge offsets (whose squares overflow) keep their
   direction; an axis-aligned a gives exactly (+-1, 0) or (0, +-1). */
steer_vec2 contain_unit(steer_vec2 a) {
  double m = fmax(fabs(a.x), fabs(a.y));
  if (!(m > 0) || a.x != a.x || a.y != a.y) return v2(0, 0);
  if (isinf(m)) /* only the infinite components count */
    a = v2(isinf(a.x) ? copysign(1, a.x) : 0, isinf(a.y) ? copysign(1, a.y) : 0);
  else
    a = v2(a.x / m, a.y / m);
  double l = sqrt(a.x * a.x + a.y * a.y); /* in [1, sqrt 2] */
  return v2(a.x / l, a.y / l);
}

/* The point of segment ab nearest p (a when a == b). */
static steer_vec2 nearest_on(steer_vec2 a, steer_vec2 b, steer_vec2 p) {
  steer_vec2 u = contain_unit(v2_sub(b, a));
  /* along the unit direction, not ab / |ab|^2: the squares of a tiny
     region's edges underflow */
  double s = v2_dot(v2_sub(p, a), u);
  if (!(s > 0)) return a;
  if (s >= v2_len(v2_sub(b, a))) return b;
  return v2_add(a, v2_scale(u, s));
}

/* Outside: the direction to the nearest boundary point, zero on the
   boundary itself. */
static steer_vec2 back_inside(steer_vec2 p, const steer_vec2 *pts, size_t n) {
  steer_vec2 best = pts[0];
  double best_d = INFINITY;
  for (size_t i = 0; i < n; i++) {
    steer_vec2 q = nearest_on(pts[i], pts[(i + 1) % n], p);
    double d = v2_len(v2_sub(q, p)); /* not squared: tiny ones underflow */
    if (d < best_d) {
      best_d = d;
      best = q;
    }
  }
  return contain_unit(v2_sub(best, p));
}

/* The feeler's search: the first edge crossed so far (n when none), how
   far ahead, and its unit normal on p's side. */
typedef struct exit_search {
  steer_vec2 p, fwd;
  double reach, at;
  size_t exit;
  steer_vec2 inward;
} exit_search;

/* Does the feeler from p along unit direction fwd cross edge i within
   reach, before the best so far (the lower index at a tie, so that the
   order edges come in does not matter)? The feeler leaves the region
   there, so p's side is the inside. Edges whose line runs through p are
   skipped: p is on them and no side is p's. */
static void try_edge(exit_search *s, const steer_vec2 *pts, size_t n,
                     size_t i, steer_vec2 e) {
  steer_vec2 a = pts[i], b = pts[(i + 1) % n], p = s->p, fwd = s->fwd;
  double side = v2_cross(e, v2_sub(p, a)); /* p's signed distance */
  double rate = v2_cross(e, fwd);          /* its change per unit ahead */
  /* heading for the edge's line? (NaN from overflow: no) */
  if (!(side > 0 ? rate < 0 : side < 0 && rate > 0)) return;
  double at = -side / rate; /* how far ahead the line is crossed */
  if (!(at <= s->reach &&
        (at < s->at || (s->exit < n && at == s->at && i < s->exit))))
    return;
  /* within the edge: a and b lie on either side of the feeler's line */
  double ra = v2_cross(fwd, v2_sub(a, p)), rb = v2_cross(fwd, v2_sub(b, p));
  if (!((ra <= 0 && rb >= 0) || (ra >= 0 && rb <= 0))) return;
  /* and where the feeler meets the edge's line lies in the edge's box, to
     a millionth of the magnitudes at play: this turns away the noise of a
     feeler along an edge's line (whose crossing could land anywhere), and
     it bounds where a crossed edge lies, so that the index's cells around
     the feeler hold every edge this accepts */
  steer_vec2 q = v2_add(p, v2_scale(fwd, at));
  double tol = 1e-6 * (fabs(q.x) + fabs(q.y) + fabs(p.x) + fabs(p.y) + s->reach);
  if (!(q.x >= fmin(a.x, b.x) - tol && q.x <= fmax(a.x, b.x) + tol &&
        q.y >= fmin(a.y, b.y) - tol && q.y <= fmax(a.y, b.y) + tol))
    return;
  s->at = at;
  s->exit = i;
  s->inward = side > 0 ? v2(-e.y, e.x) : v2(e.y, -e.x);
}

/* Every edge, their directions from the index when there is one. */
static void exit_all(exit_search *s, const steer_vec2 *pts, size_t n,
                     const contain_index *x) {
  for (size_t i = 0; i < n; i++)
    try_edge(s, pts, n, i,
             x ? x->unit[i] : contain_unit(v2_sub(pts[(i + 1) % n], pts[i])));
}

/* The edges of the grid cells the feeler's box meets, grown by a margin
   over try_edge's tolerance and rounding: every edge try_edge accepts
   meets that box (see there), so the answer is the same bits as with
   every edge. */
static void exit_indexed(exit_search *s, const steer_vec2 *pts, size_t n,
                         const contain_index *x) {
  const contain_cells *g = &x->grid;
  steer_vec2 tip = v2_add(s->p, v2_scale(s->fwd, s->reach));
  double margin = 1e-5 * (fabs(s->p.x) + fabs(s->p.y) + s->reach);
  long x_lo = contain_cell(g, 0, fmin(s->p.x, tip.x) - margin);
  long x_hi = contain_cell(g, 0, fmax(s->p.x, tip.x) + margin);
  long y_lo = contain_cell(g, 1, fmin(s->p.y, tip.y) - margin);
  long y_hi = contain_cell(g, 1, fmax(s->p.y, tip.y) + margin);
  if (x_lo < 0 || x_hi < 0 || y_lo < 0 || y_hi < 0 || !(margin < INFINITY)) {
    exit_all(s, pts, n, x);
    return;
  }
  for (long cy = y_lo; cy <= y_hi; cy++)
    for (long cx = x_lo; cx <= x_hi; cx++) {
      long cell = cy * (long)g->cols + cx;
      for (uint32_t c = g->start[cell]; c < g->start[cell + 1]; c++)
        try_edge(s, pts, n, g->edge[c], x->unit[g->edge[c]]);
    }
}

steer_vec2 geo_contain(steer_vec2 p, steer_vec2 v, const steer_vec2 *pts,
                       size_t n, const contain_index *x, double length,
                       double max_force) {
  if (n == 0 || !(max_force > 0)) return v2(0, 0);
  if (!(x ? inside_indexed(pts, n, x, p) : geo_inside(pts, n, p))) {
    steer_vec2 d = back_inside(p, pts, n);
    if (d.x != 0 || d.y != 0) return v2_scale(d, max_force);
    /* exactly on the boundary: the feeler decides, as inside */
  }
  /* At full force the agent stops within speed^2 / (2 max_force); the
     feeler reaches at least twice that, so the turn starts in time however
     fast it goes, with room for the step or two before the feeler touches
     (reaching just the stopping distance let 1-4% of a wandering crowd's
     agent-steps end outside, up to 1.5 speed * dt deep). */
  exit_search s = {p, v2_forward(v), fmax(length, v2_len2(v) / max_force),
                   INFINITY, n, v2(0, 0)};
  if (x)
    exit_indexed(&s, pts, n, x);
  else
    exit_all(&s, pts, n, NULL);
  size_t i = s.exit;
  if (i == n) return v2(0, 0);
  /* From the tip back to the nearest point of that edge: its normal, or
     near the edge's end also braking along it, so that an agent heading
     into a corner slows for both sides (the normal alone alternated
     between them and reached half the braking). */
  steer_vec2 tip = v2_add(p, v2_scale(s.fwd, s.reach));
  steer_vec2 d = contain_unit(v2_sub(nearest_on(pts[i], pts[(i + 1) % n], tip), tip));
  if (d.x == 0 && d.y == 0) d = s.inward; /* the tip on the edge, or too far */
  return v2_scale(d, max_force);
}
