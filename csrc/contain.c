/* contain.c - keeping an agent inside a polygon with a feeler (geometry.h). */
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

/* The point of segment ab nearest p. */
static steer_vec2 nearest_on(steer_vec2 a, steer_vec2 b, steer_vec2 p) {
  steer_vec2 ab = v2_sub(b, a);
  double l2 = v2_len2(ab);
  if (l2 == 0) return a;
  double t = v2_dot(v2_sub(p, a), ab) / l2;
  if (!(t > 0)) return a;
  if (t >= 1) return b;
  return v2_add(a, v2_scale(ab, t));
}

steer_vec2 geo_contain(steer_vec2 p, steer_vec2 v, const steer_vec2 *pts,
                       size_t n, double length) {
  steer_vec2 tip = v2_add(p, v2_scale(v2_forward(v), length));
  if (n == 0 || geo_inside(pts, n, tip)) return v2(0, 0);
  steer_vec2 best = pts[0];
  double best2 = INFINITY;
  for (size_t i = 0; i < n; i++) {
    steer_vec2 q = nearest_on(pts[i], pts[(i + 1) % n], tip);
    double d2 = v2_len2(v2_sub(q, tip));
    if (d2 < best2) {
      best2 = d2;
      best = q;
    }
  }
  return v2_sub(best, tip);
}
