/* orca.c - ORCA half-planes and the linear program over them (orca.h).
 *
 * The velocity obstacle of a neighbor, truncated at the time horizon, is a
 * cone from the origin around the disc rel_pos of radius R, cut off by the
 * disc rel_pos / horizon of radius R / horizon. u is the smallest change of
 * the relative velocity that leaves it; the half-plane through
 * vel + share * u, facing along u, keeps the agent's part of that change.
 *
 * The program adds the half-planes one at a time: while the optimum so far
 * satisfies the next one it stays; otherwise the new optimum lies on the
 * new line, a one-dimensional program over the earlier lines. When a line
 * cannot be met, the third dimension (how deep every agent line may be
 * violated) is minimized instead, again line by line, the static lines
 * kept hard. Everything is deterministic: same lines in, same bits out. */
#include "no_slp.h" /* first: it applies to all that follows */
#include <math.h>
#include "orca.h"

#define PARALLEL 1e-5 /* |cross| of unit directions below which lines are parallel */


/* Unit vector along a (length l > 0). */
static steer_vec2 unit(steer_vec2 a, double l) { return v2_direction(a, l); }

/* The half-plane whose boundary runs along dir through point, permitted on
   the side normal = left of dir. */
static orca_line line_facing(steer_vec2 point, steer_vec2 normal) {
  orca_line l = {point, v2(normal.y, -normal.x)};
  return l;
}

void orca_agent_line(steer_vec2 rel_pos, steer_vec2 rel_vel, steer_vec2 vel,
                     double radius, double horizon, double dt, double share,
                     int side, orca_line *out) {
  double dist2 = v2_len2(rel_pos), r2 = radius * radius;
  steer_vec2 u, normal;
  if (dist2 > r2) {
    /* w: relative velocity seen from the centre of the cut-off disc */
    steer_vec2 w = v2_sub(rel_vel, v2_scale(rel_pos, 1 / horizon));
    double w2 = v2_len2(w), along = v2_dot(w, rel_pos);
    if (along < 0 && along * along > r2 * w2) {
      /* nearest the cut-off circle (w != 0 here) */
      double wl = v2_len(w);
      normal = unit(w, wl);
      u = v2_scale(normal, radius / horizon - wl);
    } else {
      /* nearest one of the cone's legs, the tangents to the disc */
      double leg = sqrt(dist2 - r2);
      steer_vec2 dir;
      if (v2_cross(rel_pos, w) > 0) /* left leg: rel_pos turned left */
        dir = v2(rel_pos.x * leg - rel_pos.y * radius,
                 rel_pos.x * radius + rel_pos.y * leg);
      else /* right leg, reversed so that the permitted side is left */
        dir = v2(-(rel_pos.x * leg + rel_pos.y * radius),
                 rel_pos.x * radius - rel_pos.y * leg);
      dir = v2_scale(dir, 1 / dist2);
      u = v2_sub(v2_scale(dir, v2_dot(rel_vel, dir)), rel_vel);
      out->point = v2_add(vel, v2_scale(u, share));
      out->dir = dir;
      return;
    }
  } else {
    /* overlapping: leave the disc within one step */
    steer_vec2 w = v2_sub(rel_vel, v2_scale(rel_pos, 1 / dt));
    double wl = v2_len(w);
    normal = wl > 0 ? unit(w, wl) : v2(side, 0);
    u = v2_scale(normal, radius / dt - wl);
  }
  *out = line_facing(v2_add(vel, v2_scale(u, share)), normal);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The lanes' lines, one neighbor per lane. */
static void pair_store_lines(__m128d pointx, __m128d pointy, __m128d dirx,
                             __m128d diry, orca_line *out) {
  double lane[8];
  _mm_storeu_pd(lane, pointx);
  _mm_storeu_pd(lane + 2, pointy);
  _mm_storeu_pd(lane + 4, dirx);
  _mm_storeu_pd(lane + 6, diry);
  for (int q = 0; q < 2; q++) {
    out[q].point = v2(lane[q], lane[2 + q]);
    out[q].dir = v2(lane[4 + q], lane[6 + q]);
  }
}

/* orca_lanes.h in two SSE2 lanes: agent_line_pair */
#define ORCA_LINES agent_line_pair
#define ORCA_LINES_SCOPE static
#include "lanes_sse2.h"
#define V_PICK pair_pick
#define V_STORE_LINES pair_store_lines
#include "orca_lanes.h"
#endif

static void agent_line_of(const orca_neighbors *nb, size_t k, steer_vec2 vel,
                          double horizon, double dt, orca_line *out) {
  orca_agent_line(v2(nb->px[k], nb->py[k]), v2(nb->vx[k], nb->vy[k]), vel,
                  nb->radius[k], horizon, dt, nb->share[k], nb->side[k], out);
}

/* orca_lines_quad stores its lanes as four lines of four doubles */
typedef char orca_line_is_four_doubles[sizeof(orca_line) == 4 * sizeof(double) ? 1 : -1];

void orca_agent_lines(const orca_neighbors *nb, size_t n, steer_vec2 vel,
                      double horizon, double dt, orca_line *out, int width) {
  size_t k = 0;
  if (width >= 4)
    for (; k + 3 < n; k += 4) {
      int scalar = orca_lines_quad(nb, k, vel, horizon, out + k);
      for (int q = 0; q < 4; q++)
        if (scalar & (1 << q))
          agent_line_of(nb, k + (size_t)q, vel, horizon, dt, &out[k + (size_t)q]);
    }
#if defined(__SSE2__)
  for (; k + 1 < n; k += 2) {
    int scalar = agent_line_pair(nb, k, vel, horizon, out + k);
    for (int q = 0; q < 2; q++)
      if (scalar & (1 << q))
        agent_line_of(nb, k + (size_t)q, vel, horizon, dt, &out[k + (size_t)q]);
  }
#endif
  for (; k < n; k++) agent_line_of(nb, k, vel, horizon, dt, &out[k]);
}

void orca_static_line(steer_vec2 rel_pos, double dist, double radius,
                      double horizon, double dt, int side, orca_line *out) {
  double gap = dist - radius;
  steer_vec2 toward = dist > 0 ? unit(rel_pos, dist) : v2(-side, 0);
  double most = gap >= 0 ? gap / horizon : gap / dt;
  *out = line_facing(v2_scale(toward, most), v2_scale(toward, -1));
}

/* solve_on_line and solve_plane are inlined into their two callers below,
   `along` a constant in each: one copy per kind, without the test of it
   (it mispredicted where solve_deepest's calls come between orca_solve's:
   half a miss per agent-step in blocks), and orca_solve's own copy without
   a call. The 3-D fallback's copy stays out of orca_solve (PLANE_COLD):
   inlined there too, blocks ran 2% slower. */
#if defined(__GNUC__)
#define PLANE_INLINE static inline __attribute__((always_inline))
#define PLANE_COLD static __attribute__((noinline))
#else
#define PLANE_INLINE static inline
#define PLANE_COLD static
#endif

/* Clips [*lo, *hi], line l's stretch within the speed disc, to where
   lines 0 .. k - 1 are met too; 0 when nothing is left. */
PLANE_INLINE int clip_scalar(const orca_line *lines, size_t k,
                             const orca_line *l, double *lo, double *hi) {
  for (size_t j = 0; j < k; j++) {
    /* on line l at t, line j asks t * den <= num */
    double den = v2_cross(l->dir, lines[j].dir);
    double num = v2_cross(lines[j].dir, v2_sub(l->point, lines[j].point));
    if (fabs(den) <= PARALLEL) {
      if (num < 0) return 0; /* parallel, line l wholly forbidden */
      continue;
    }
    double t = num / den;
    if (den > 0) {
      if (t < *hi) *hi = t;
    } else if (t > *lo) {
      *lo = t;
    }
    if (*lo > *hi) return 0;
  }
  return 1;
}

#if defined(__SSE2__)
/* clip_scalar two lines at a time, without its branches (which way a line
   bounds t is a coin toss: 40% of den > 0 mispredicted in blocks). Each
   lane does clip_scalar's operations, lane 0 for the even lines, lane 1 for
   the odd ones (an odd count's last line in both). minpd and maxpd choose
   as its tests do (t < hi ? t : hi: a NaN t leaves hi), so a t that does
   not bound that side is made a NaN (all bits set). The bounds only
   shrink, so a stretch emptied on the way is empty at the end, and the
   lanes' bounds combine to the same values. The same bits too, except
   where both lanes end on a zero: +0 and -0 compare equal, and the scalar
   loop keeps whichever came first; that case runs the scalar loop. */
PLANE_INLINE int clip_pairs(const orca_line *lines, size_t k,
                            const orca_line *l, double *lo, double *hi) {
  const __m128d zero = _mm_setzero_pd();
  const __m128d pkx = _mm_set1_pd(l->point.x), pky = _mm_set1_pd(l->point.y);
  const __m128d dkx = _mm_set1_pd(l->dir.x), dky = _mm_set1_pd(l->dir.y);
  __m128d lo2 = _mm_set1_pd(*lo), hi2 = _mm_set1_pd(*hi), bad = zero;
  for (size_t j = 0; j < k; j += 2) {
    size_t j1 = j + 1 < k ? j + 1 : j;
    __m128d p0 = _mm_loadu_pd(&lines[j].point.x);
    __m128d p1 = _mm_loadu_pd(&lines[j1].point.x);
    __m128d d0 = _mm_loadu_pd(&lines[j].dir.x);
    __m128d d1 = _mm_loadu_pd(&lines[j1].dir.x);
    __m128d px = _mm_unpacklo_pd(p0, p1), py = _mm_unpackhi_pd(p0, p1);
    __m128d dx = _mm_unpacklo_pd(d0, d1), dy = _mm_unpackhi_pd(d0, d1);
    __m128d den = _mm_sub_pd(_mm_mul_pd(dkx, dy), _mm_mul_pd(dky, dx));
    __m128d num = _mm_sub_pd(_mm_mul_pd(dx, _mm_sub_pd(pky, py)),
                             _mm_mul_pd(dy, _mm_sub_pd(pkx, px)));
    /* |den| <= PARALLEL as den <= P and den >= -P: no sign mask to hold */
    __m128d par = _mm_and_pd(_mm_cmple_pd(den, _mm_set1_pd(PARALLEL)),
                             _mm_cmpge_pd(den, _mm_set1_pd(-PARALLEL)));
    bad = _mm_or_pd(bad, _mm_and_pd(par, _mm_cmplt_pd(num, zero)));
    __m128d t = _mm_div_pd(num, den);
    __m128d not_hi = _mm_or_pd(par, _mm_cmpngt_pd(den, zero));
    __m128d not_lo = _mm_or_pd(par, _mm_cmpgt_pd(den, zero));
    hi2 = _mm_min_pd(_mm_or_pd(t, not_hi), hi2);
    lo2 = _mm_max_pd(_mm_or_pd(t, not_lo), lo2);
  }
  int zeros = _mm_movemask_pd(_mm_cmpeq_pd(lo2, zero)) |
              _mm_movemask_pd(_mm_cmpeq_pd(hi2, zero)) << 2;
  if (_mm_movemask_pd(bad)) return 0; /* parallel, line l wholly forbidden */
  if ((zeros & 3) == 3 || (zeros & 12) == 12)
    return clip_scalar(lines, k, l, lo, hi);
  *lo = _mm_cvtsd_f64(_mm_max_sd(_mm_unpackhi_pd(lo2, lo2), lo2));
  *hi = _mm_cvtsd_f64(_mm_min_sd(_mm_unpackhi_pd(hi2, hi2), hi2));
  return !(*lo > *hi);
}
/* below CLIP_PAIRS earlier lines the lanes' set-up costs more than the
   branches they save */
#define CLIP_PAIRS 4
#define CLIP(lines, k, l, lo, hi)                                     \
  ((k) >= CLIP_PAIRS ? clip_pairs(lines, k, l, lo, hi)                \
                     : clip_scalar(lines, k, l, lo, hi))
#else
#define CLIP clip_scalar
#endif

/* The best velocity on line k within the speed disc that satisfies lines
   0 .. k - 1: nearest `target`, or furthest along it when `along` is set
   (target then a unit vector). 0 when there is none. */
PLANE_INLINE int solve_on_line(const orca_line *lines, size_t k,
                               double max_speed, steer_vec2 target, int along,
                               steer_vec2 *out) {
  const orca_line *l = &lines[k];
  double proj = v2_dot(l->point, l->dir);
  double disc = proj * proj + max_speed * max_speed - v2_len2(l->point);
  if (!(disc >= 0)) return 0; /* misses the speed disc (NaN: too far) */
  double root = sqrt(disc), lo = -proj - root, hi = -proj + root;
  if (!CLIP(lines, k, l, &lo, &hi)) return 0;
  double t;
  if (along) {
    t = v2_dot(target, l->dir) > 0 ? hi : lo;
  } else {
    t = orca_clamp(v2_dot(l->dir, v2_sub(target, l->point)), lo, hi);
  }
  *out = v2_add(l->point, v2_scale(l->dir, t));
  return 1;
}

static int violates(const orca_line *l, steer_vec2 v) {
  return v2_cross(l->dir, v2_sub(v, l->point)) < 0;
}

/* The two-dimensional program over lines 0 .. n - 1; returns n, or the
   first line it could not satisfy (*out then the optimum before it). */
PLANE_INLINE size_t solve_plane(const orca_line *lines, size_t n,
                                double max_speed, steer_vec2 target, int along,
                                steer_vec2 *out) {
  /* in a local: *out could alias the lines, and would be reloaded */
  steer_vec2 v = along ? v2_scale(target, max_speed)
                       : v2_clamp(target, max_speed);
  size_t k = 0;
  for (; k < n; k++)
    if (violates(&lines[k], v) &&
        !solve_on_line(lines, k, max_speed, target, along, &v))
      break; /* solve_on_line left v as it was */
  *out = v;
  return k;
}

/* solve_plane nearest the target (orca_solve), and furthest along a
   direction (solve_deepest). */
static size_t plane_nearest(const orca_line *lines, size_t n, double max_speed,
                            steer_vec2 target, steer_vec2 *out) {
  return solve_plane(lines, n, max_speed, target, 0, out);
}
PLANE_COLD size_t plane_along(const orca_line *lines, size_t n,
                              double max_speed, steer_vec2 direction,
                              steer_vec2 *out) {
  return solve_plane(lines, n, max_speed, direction, 1, out);
}

/* How far v lies on the forbidden side of line l. */
static double depth(const orca_line *l, steer_vec2 v) {
  return v2_cross(l->dir, v2_sub(l->point, v));
}

/* Infeasible from line `first` on: the velocity whose deepest violation of
   the agent lines is least. For each line violated deeper than the best so
   far, the lines of equal violation of it and each earlier agent line
   bound a program that moves as far into it as they allow. */
static void solve_deepest(const orca_line *lines, size_t n, size_t n_static,
                          size_t first, double max_speed, steer_vec2 *out,
                          orca_line *scratch) {
  double worst = 0;
  for (size_t i = first; i < n; i++) {
    const orca_line *li = &lines[i];
    if (depth(li, *out) <= worst) continue;
    size_t m = 0;
    for (size_t j = 0; j < n_static; j++) scratch[m++] = lines[j];
    for (size_t j = n_static; j < i; j++) {
      const orca_line *lj = &lines[j];
      orca_line b;
      double c = v2_cross(li->dir, lj->dir);
      if (fabs(c) <= PARALLEL) {
        if (v2_dot(li->dir, lj->dir) > 0) continue; /* same side: no bound */
        b.point = v2_scale(v2_add(li->point, lj->point), 0.5);
      } else {
        double t = v2_cross(lj->dir, v2_sub(li->point, lj->point)) / c;
        b.point = v2_add(li->point, v2_scale(li->dir, t));
      }
      steer_vec2 d = v2_sub(lj->dir, li->dir);
      b.dir = unit(d, v2_len(d));
      scratch[m++] = b;
    }
    steer_vec2 kept = *out;
    steer_vec2 inward = v2(-li->dir.y, li->dir.x);
    if (plane_along(scratch, m, max_speed, inward, out) < m)
      *out = kept; /* rounding only: the bisectors always admit a point */
    worst = depth(li, *out);
  }
}

static int finite2(steer_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

steer_vec2 orca_solve(const orca_line *lines, size_t n, size_t n_static,
                      double max_speed, steer_vec2 preferred,
                      orca_line *scratch) {
  steer_vec2 v;
  size_t failed = plane_nearest(lines, n, max_speed, preferred, &v);
  if (failed < n)
    solve_deepest(lines, n, n_static, failed < n_static ? n_static : failed,
                  max_speed, &v, scratch);
  if (!finite2(v)) v = preferred; /* lines too far out for a double */
  v = v2_clamp(v, max_speed);      /* rounding, or the case above */
  /* a velocity for the world to store: within +-STEER_LIMIT */
  return finite2(v) ? v2_limit(v) : v2(0, 0);
}

/* ---- a wall's velocity obstacle ----------------------------------------- */

int orca_segment_line(steer_vec2 a, steer_vec2 b, double radius,
                      steer_vec2 vel, double horizon, orca_line *out) {
  double da = v2_len2(a), db = v2_len2(b), r2 = radius * radius;
  if (!(da > r2 && db > r2)) return 0;
  double la = sqrt(da - r2), lb = sqrt(db - r2);
  /* the cone's legs: of the tangents from the origin to the two discs
     (unit: each is |e|^2 long before the scaling, and far walls would
     overflow the crosses), the outermost each way (the cone spans less
     than a half turn: the origin is outside) */
  double ia = 1 / da, ib = 1 / db, inv = 1 / horizon, rho = radius * inv;
  steer_vec2 left_a =
      v2_scale(v2(a.x * la - a.y * radius, a.x * radius + a.y * la), ia);
  steer_vec2 left_b =
      v2_scale(v2(b.x * lb - b.y * radius, b.x * radius + b.y * lb), ib);
  steer_vec2 right_a =
      v2_scale(v2(a.x * la + a.y * radius, a.y * la - a.x * radius), ia);
  steer_vec2 right_b =
      v2_scale(v2(b.x * lb + b.y * radius, b.y * lb - b.x * radius), ib);
  int left_at_b = v2_cross(left_a, left_b) > 0;
  int right_at_b = v2_cross(right_a, right_b) < 0;
  steer_vec2 left = left_at_b ? left_b : left_a;
  steer_vec2 right = right_at_b ? right_b : right_a;
  /* the cut-off discs the legs touch, and the capsule's side between */
  steer_vec2 cl = v2_scale(left_at_b ? b : a, inv);
  steer_vec2 cr = v2_scale(right_at_b ? b : a, inv);
  steer_vec2 side = v2_sub(cr, cl);
  double side2 = v2_len2(side);
  int one_end = left_at_b == right_at_b; /* seen end on: one disc */
  double t = one_end || !(side2 > 0) ? 0.5 : v2_dot(v2_sub(vel, cl), side) / side2;
  double t_left = v2_dot(v2_sub(vel, cl), left);
  double t_right = v2_dot(v2_sub(vel, cr), right);
  int left_disc = (t < 0 && t_left < 0) || (one_end && t_left < 0 && t_right < 0);
  if (left_disc || (t > 1 && t_right < 0)) {
    /* nearest a cut-off disc: the left one, or the right */
    steer_vec2 c = left_disc ? cl : cr;
    steer_vec2 w = v2_sub(vel, c);
    double wl = v2_len(w);
    steer_vec2 n = wl > 0 ? unit(w, wl) : unit(v2_scale(c, -1), v2_len(c));
    *out = line_facing(v2_add(c, v2_scale(n, rho)), n);
  } else {
    /* nearest the capsule's side, a leg, or the other leg */
    double d_side = one_end || t < 0 || t > 1
                        ? INFINITY
                        : v2_len2(v2_sub(vel, v2_add(cl, v2_scale(side, t))));
    double d_left = t_left < 0 ? INFINITY
                               : v2_len2(v2_sub(vel, v2_add(cl, v2_scale(left, t_left))));
    double d_right = t_right < 0 ? INFINITY
                                 : v2_len2(v2_sub(vel, v2_add(cr, v2_scale(right, t_right))));
    /* each line through its point nearest vel, not through a far end
       (a long wall's ends would cost the line its precision) */
    if (d_side <= d_left && d_side <= d_right) {
      /* the side runs from cl to cr with the origin on its right:
         its outside faces the origin */
      steer_vec2 n = unit(v2(side.y, -side.x), sqrt(side2));
      *out = line_facing(
          v2_add(v2_add(cl, v2_scale(side, t)), v2_scale(n, rho)), n);
    } else if (d_left <= d_right) { /* the legs run through the origin */
      *out = line_facing(v2(0, 0), v2(-left.y, left.x));
    } else {
      *out = line_facing(v2(0, 0), v2(right.y, -right.x));
    }
  }
  return finite2(out->point) && finite2(out->dir);
}

int orca_wall_covered(const orca_line *lines, size_t n, steer_vec2 a,
                      steer_vec2 b, double radius, double horizon) {
  double inv = 1 / horizon, rho = radius * inv;
  steer_vec2 ca = v2_scale(a, inv), cb = v2_scale(b, inv);
  for (size_t k = 0; k < n; k++) {
    steer_vec2 p = lines[k].point, d = lines[k].dir;
    /* left of d is permitted: the origin is, both cut-off ends are not */
    if (v2_cross(d, v2_scale(p, -1)) >= 0 &&
        v2_cross(d, v2_sub(ca, p)) <= -rho &&
        v2_cross(d, v2_sub(cb, p)) <= -rho)
      return 1;
  }
  return 0;
}
