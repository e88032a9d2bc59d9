/* formation_fit.c - a formation slot moved onto ground its member can
 * stand on (docs/API.md 17.3, `fit`): out of the obstacles it lies in,
 * then back to the anchor's side of the first wall between them. */
#include "formation.h"
#include "geometry.h"
#include "tactics.h"

/* Passes out of obstacles: a slot pushed out of one rock into another is
   pushed again, a few times at most (a slot wedged among many rocks keeps
   the last push). */
#define FIT_PASSES 4
/* A slot is pushed this share of the reach beyond touching, so that the
   rounding of the push never leaves it inside by a hair. */
#define FIT_BEYOND 1e-9

/* Of the obstacles whose disc grown by `radius` holds s, the one whose
   centre is nearest s (ties: the lower number); -1 when none. *off: s -
   its centre (the shortest offset on a torus). */
/* v / |v|, or zero for zero. */
static steer_vec2 unit_or_zero(steer_vec2 v) {
  return v.x == 0 && v.y == 0 ? v : v2_direction(v, v2_len(v));
}

static long rock_holding(const geometry *g, steer_vec2 s, double radius,
                         steer_vec2 *off) {
  geo_cursor c;
  geo_cursor_init(&c, &g->obstacle_index, geo_box_around(s, s, radius),
                  g->obstacle_count);
  long best = -1;
  double best_d = 0;
  for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
    const geo_obstacle *o = &g->obstacles[k];
    steer_vec2 d = geo_offset(g, v2(o->x, o->y), s);
    double len = v2_len(d), reach = o->radius + radius;
      if (!(len < reach)) continue;
    if (best < 0 || len < best_d || (len == best_d && k < best)) {
      best = k;
      best_d = len;
      *off = d;
    }
  }
  return best;
}

/* On a torus a ray runs the shortest way: an offset longer than half the
   world along an axis has no single way to it. */
static int within_half(const geometry *g, steer_vec2 d) {
  return !g->wrap ||
         (fabs(d.x) <= g->width / 2 && fabs(d.y) <= g->height / 2);
}

int formation_fit(const steer_world *w, steer_pose pose, steer_vec2 slot,
                  double radius, steer_vec2 *fitted) {
  const geometry *g = &w->geo;
  /* a level without geometry (most escorts' worlds): no turn of the slot
     into the world's axes, nor back */
  if (!g->obstacle_count && !g->wall_count) return 0;
  steer_vec2 offset = tactics_to_world(pose.angle, slot);
  if (!within_half(g, offset)) return 0;
  steer_vec2 anchor = geometry_inside(g, pose.position);
  steer_vec2 s = v2_add(anchor, offset);
  int moved = 0;
  for (int pass = 0; pass < FIT_PASSES && g->obstacle_count; pass++) {
    steer_vec2 off;
    long k = rock_holding(g, geometry_inside(g, s), radius, &off);
      if (k < 0) break;
    const geo_obstacle *o = &g->obstacles[k];
    steer_vec2 out = unit_or_zero(off);
    if (out.x == 0 && out.y == 0) /* on the centre: toward the anchor */
      out = unit_or_zero(v2_sub(anchor, s));
    if (out.x == 0 && out.y == 0) out = v2(1, 0); /* and on the anchor */
    /* the centre as seen from s (off a torus: itself) */
    steer_vec2 centre = v2_sub(s, off);
    s = v2_add(centre,
               v2_scale(out, (o->radius + radius) * (1 + FIT_BEYOND)));
    moved = 1;
  }
  if (!within_half(g, v2_sub(s, anchor))) return 0;
  if (g->wall_count) {
    geo_ray r = geo_ray_of(anchor, v2_sub(s, anchor));
    geo_hit hit = geo_hit_none();
    geometry_raycast(g, &r, GEO_RAY_WALLS, &hit);
    if (hit.kind) {
      /* `radius` from the wall's line: farther back along a ray that
         meets it aslant */
      geo_hit_finish(&r, &hit);
      double len = v2_len(r.d);
      double slant = -v2_dot(r.d, hit.normal) / len; /* in (0, 1] */
      double at = slant > 0 ? hit.fraction * len -
                                  radius * (1 + FIT_BEYOND) / slant
                            : 0;
      s = at > 0 ? v2_add(anchor, v2_scale(r.d, at / len)) : anchor;
      moved = 1;
    }
  }
  if (!moved) return 0;
  *fitted = v2_sub(s, anchor);
  return 1;
}

steer_vec2 formation_fit_slot(const steer_world *w, steer_pose anchor,
                              steer_vec2 slot, double radius) {
  steer_vec2 fitted;
  if (!formation_fit(w, anchor, slot, radius, &fitted)) return slot;
  double c = cos(anchor.angle), s = sin(anchor.angle);
  return v2(c * fitted.x + s * fitted.y, c * fitted.y - s * fitted.x);
}
