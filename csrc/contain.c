/* contain.c - keeping an agent inside a polygon with a feeler (geometry.h).

   The force is either zero or max_force long, so an agent about to leave
   brakes as hard as it can: a force that grew with the tip's overshoot
   (the feeler's first version) let agents ride the edge just outside with
   pushes of a few hundredths, too weak to bring them back yet loud enough
   to silence the entries after contain in a priority program. */
#include "geometry.h"

int geo_inside(const steer_vec2 *pts, size_t n, steer_vec2 p) {
  int in = 0;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    steer_vec2 a = pts[i], b = pts[j];
    /* does the edge cross the horizontal line through p, right of p? */
    if ((a.y > p.y) != (b.y > p.y)) {
      double t = (p.y - a.y) / (b.y - a.y);
      if (p.x < a.x + t * (b.x - a.x)) in = !in;
    }
  }
  return in;
}

/* a / |a|, or zero when a is zero (or not a number). Divided by its
   largest component first, so that the edges of a tiny region (whose
   squares underflow) and huge offsets (whose squares overflow) keep their
   direction; an axis-aligned a gives exactly (+-1, 0) or (0, +-1). */
static steer_vec2 unit(steer_vec2 a) {
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
  steer_vec2 u = unit(v2_sub(b, a));
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
  return unit(v2_sub(best, p));
}

/* Inside: the first edge that the feeler from p along unit direction
   `fwd` crosses within `reach` (its index; n when none), with its unit
   normal on p's side in *inward. The feeler leaves the region there, so
   p's side is the inside. Edges whose line runs through p are skipped: p
   is on them and no side is p's. */
static size_t exit_edge(steer_vec2 p, steer_vec2 fwd, const steer_vec2 *pts,
                        size_t n, double reach, steer_vec2 *inward) {
  size_t exit = n;
  double best = INFINITY;
  for (size_t i = 0; i < n; i++) {
    steer_vec2 a = pts[i], b = pts[(i + 1) % n];
    steer_vec2 e = unit(v2_sub(b, a));
    double side = v2_cross(e, v2_sub(p, a)); /* p's signed distance */
    double rate = v2_cross(e, fwd);          /* its change per unit ahead */
    /* heading for the edge's line? (NaN from overflow: no) */
    if (!(side > 0 ? rate < 0 : side < 0 && rate > 0)) continue;
    double at = -side / rate; /* how far ahead the line is crossed */
    if (!(at <= reach && at < best)) continue;
    /* within the edge: a and b lie on either side of the feeler's line */
    double ra = v2_cross(fwd, v2_sub(a, p)), rb = v2_cross(fwd, v2_sub(b, p));
    if (!((ra <= 0 && rb >= 0) || (ra >= 0 && rb <= 0))) continue;
    best = at;
    exit = i;
    *inward = side > 0 ? v2(-e.y, e.x) : v2(e.y, -e.x);
  }
  return exit;
}

steer_vec2 geo_contain(steer_vec2 p, steer_vec2 v, const steer_vec2 *pts,
                       size_t n, double length, double max_force) {
  if (n == 0 || !(max_force > 0)) return v2(0, 0);
  if (!geo_inside(pts, n, p)) {
    steer_vec2 d = back_inside(p, pts, n);
    if (d.x != 0 || d.y != 0) return v2_scale(d, max_force);
    /* exactly on the boundary: the feeler decides, as inside */
  }
  /* At full force the agent stops within speed^2 / (2 max_force); the
     feeler reaches at least twice that, so the turn starts in time however
     fast it goes, with room for the step or two before the feeler touches
     (reaching just the stopping distance let 1-4% of a wandering crowd's
     agent-steps end outside, up to 1.5 speed * dt deep). */
  double reach = fmax(length, v2_len2(v) / max_force);
  steer_vec2 fwd = v2_forward(v), inward = v2(0, 0);
  size_t i = exit_edge(p, fwd, pts, n, reach, &inward);
  if (i == n) return v2(0, 0);
  /* From the tip back to the nearest point of that edge: its normal, or
     near the edge's end also braking along it, so that an agent heading
     into a corner slows for both sides (the normal alone alternated
     between them and reached half the braking). */
  steer_vec2 tip = v2_add(p, v2_scale(fwd, reach));
  steer_vec2 d = unit(v2_sub(nearest_on(pts[i], pts[(i + 1) % n], tip), tip));
  if (d.x == 0 && d.y == 0) d = inward; /* the tip on the edge, or too far */
  return v2_scale(d, max_force);
}
