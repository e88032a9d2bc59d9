/* tactics.c - group and tactical behaviors (docs/API.md section 17):
 * offset pursuit, follow the leader, interpose, hide and queue, and the
 * program entries of these and of formations (formation.c).
 *
 * Leaders, hunters and the ends of an interposition are poses. An agent's
 * pose faces its facing angle (`angle`: give leaders turn = "velocity" or
 * face/look_where_going to turn their frame); a point's is at rest facing
 * angle 0.
 * Everything is seen from the steering agent: on a torus each position is
 * replaced by its image nearest to the agent. */
#include "formation.h"
#include "tactics.h"

static const steer_vec2 zero = {0, 0};

/* Agent j's frame angle: its facing angle (0 for an agent without a body). */
static double frame_angle(const steer_world *w, size_t j) {
  return w->ext[j] ? w->ext[j]->body.angle : 0;
}

steer_pose steer_agent_pose(const steer_world *w, size_t i) {
  steer_pose pose;
  pose.position = world_pos(w, i);
  pose.velocity = world_vel(w, i);
  pose.angle = frame_angle(w, i);
  return pose;
}

int tactics_target_pose(const steer_world *w, const steer_target *t,
                        steer_pose *out) {
  if (t->kind == STEER_TARGET_POINT || t->kind == STEER_TARGET_SHARED) {
    out->position =
        t->kind == STEER_TARGET_SHARED ? steer_point_get(t->shared) : t->point;
    out->velocity = zero;
    out->angle = 0;
    return 1;
  }
  if (t->kind != STEER_TARGET_AGENT) return 0;
  long j = steer_world_index(w, t->agent);
  if (j < 0) return 0;
  *out = steer_agent_pose(w, (size_t)j);
  return 1;
}

/* q as agent i sees it (the nearest image on a torus) */
static steer_vec2 seen(const steer_world *w, size_t i, steer_vec2 q) {
  steer_vec2 p = world_pos(w, i);
  return v2_add(p, world_offset(w, p, q));
}


/* arrive's desired velocity for the offset e to the target: full speed,
   slowing linearly inside slowing_radius */
static steer_vec2 arrive_velocity(steer_vec2 e, double max_speed,
                                  double slowing_radius) {
  double d = v2_len(e);
  double speed = d < slowing_radius ? max_speed * (d / slowing_radius)
                                    : max_speed;
  return v2_scale(v2_normalize(e), speed);
}

/* the steering toward a desired velocity: clamp(desired - v, max_force) */
static steer_vec2 toward(const steer_world *w, size_t i, steer_vec2 desired) {
  return v2_clamp(v2_sub(desired, world_vel(w, i)), w->max_force[i]);
}

/* The offset pursuit of docs/API.md 17.1 toward the point `offset` (ahead,
   left) in leader's frame, as given (steer_agent_offset_pursuit fits it
   first). */
static steer_vec2 offset_pursuit(const steer_world *w, size_t i,
                                 steer_pose leader, steer_vec2 offset,
                                 double slowing_radius) {
  double max_speed = w->max_speed[i];
  steer_vec2 slot = v2_add(seen(w, i, leader.position),
                           tactics_to_world(leader.angle, offset));
  steer_vec2 e = v2_sub(slot, world_pos(w, i));
  /* Buckland's lookahead: the slot where it will be when reached */
  double closing = max_speed + v2_len(leader.velocity), d = v2_len(e);
  /* capped as steer_predict's, so that u T stays finite (and 0 u is 0) */
  double lookahead = closing <= 0                    ? 0
                     : d < closing * STEER_LIMIT ? d / closing
                                                     : STEER_LIMIT;
  e = v2_add(e, v2_scale(leader.velocity, lookahead));
  /* the leader's velocity plus arrive's correction: on the slot, moving
     with the leader, the force is zero - no steady lag */
  steer_vec2 desired = v2_add(leader.velocity,
                              arrive_velocity(e, max_speed, slowing_radius));
  return toward(w, i, v2_clamp(desired, max_speed));
}

steer_vec2 steer_agent_offset_pursuit(const steer_world *w, size_t i,
                                      steer_pose leader, steer_vec2 offset,
                                      double slowing_radius, int fit) {
  if (fit) offset = formation_fit_slot(w, leader, offset, w->radius[i]);
  return offset_pursuit(w, i, leader, offset, slowing_radius);
}

steer_vec2 steer_agent_follow_leader(const steer_world *w, size_t i,
                                     steer_pose leader, double distance,
                                     double radius, double slowing_radius,
                                     int fit) {
  steer_vec2 forward = tactics_to_world(leader.angle, v2(1, 0));
  steer_vec2 left = v2(-forward.y, forward.x);
  steer_vec2 d = v2_sub(world_pos(w, i), seen(w, i, leader.position));
  steer_vec2 from_ahead = v2_sub(d, v2_scale(forward, distance));
  steer_vec2 f;
  if (v2_len(from_ahead) < distance) { /* in the way: step aside */
    steer_vec2 side = v2_dot(d, left) >= 0 ? left : v2_scale(left, -1);
    f = toward(w, i, v2_scale(side, w->max_speed[i]));
  } else {
    f = steer_agent_offset_pursuit(w, i, leader, v2(-distance, 0),
                                   slowing_radius, fit);
  }
  if (radius > 0) f = v2_add(f, steer_agent_separation(w, i, radius));
  return v2_clamp(f, w->max_force[i]);
}

steer_vec2 steer_agent_interpose(const steer_world *w, size_t i,
                                 steer_pose a, steer_pose b,
                                 double slowing_radius) {
  steer_vec2 pa = seen(w, i, a.position), pb = seen(w, i, b.position);
  steer_vec2 mid = v2(pa.x * 0.5 + pb.x * 0.5, pa.y * 0.5 + pb.y * 0.5);
  steer_vec2 mean_v = v2(a.velocity.x * 0.5 + b.velocity.x * 0.5,
                         a.velocity.y * 0.5 + b.velocity.y * 0.5);
  /* both ends predicted T = |mid - p| / max_speed ahead: their midpoint
     moves with their mean velocity */
  steer_vec2 target = steer_predict(world_pos(w, i), mid, mean_v,
                                    w->max_speed[i]);
  return steer_arrive(world_pos(w, i), world_vel(w, i), target,
                      w->max_speed[i], w->max_force[i], slowing_radius);
}

/* The hiding spot behind obstacle k from `hunter` (0 when the hunter is
   at its centre: no side is behind). */
static int hiding_spot(const steer_world *w, size_t i, size_t k,
                       steer_vec2 hunter, double distance, steer_vec2 *spot) {
  const geo_obstacle *o = &w->geo.obstacles[k];
  steer_vec2 centre = seen(w, i, v2(o->x, o->y));
  steer_vec2 away = v2_normalize(v2_sub(centre, hunter));
  if (away.x == 0 && away.y == 0) return 0;
  *spot = v2_add(centre, v2_scale(away, o->radius + distance));
  return 1;
}

/* Did the cursor see every obstacle (a scan, or a box covering the whole
   torus)? */
static int saw_everything(const geo_cursor *c) {
  const geo_index *x = c->x;
  return c->phase != 0 || (x->wrap && x->ncx > 0 && c->nx >= x->ncx &&
                           c->ny >= x->ncy);
}

steer_vec2 steer_agent_hide(const steer_world *w, size_t i, steer_pose hunter,
                            double distance, double slowing_radius) {
  steer_vec2 p = world_pos(w, i), h = seen(w, i, hunter.position);
  steer_vec2 best = zero, spot;
  double best_d = HUGE_VAL;
  size_t best_k = 0;
  int found = 0;
  const geometry *g = &w->geo;
  /* The obstacles come from the geometry index in growing boxes around the
     agent. One outside a box of half-size R has its centre farther than R +
     its radius from p, so its spot is farther than R - distance: once the
     best spot is that near, no other can beat it. Ties go to the lower
     obstacle number, as a scan in order would. */
  double inv = g->obstacle_index.inv_x;
  double reach = inv > 0 ? 1 / inv : 1; /* a cell */
  for (int done = g->obstacle_count == 0; !done; reach *= 2) {
    geo_cursor c;
    geo_cursor_init(&c, &g->obstacle_index, geo_box_around(p, p, reach),
                    g->obstacle_count);
    done = saw_everything(&c) || !(reach < 1e300);
    for (int32_t k; (k = geo_cursor_next(&c)) >= 0;) {
      if (!hiding_spot(w, i, (size_t)k, h, distance, &spot)) continue;
      double d = v2_len2(v2_sub(spot, p));
      if (!found || d < best_d || (d == best_d && (size_t)k < best_k)) {
        best = spot;
        best_d = d;
        best_k = (size_t)k;
        found = 1;
      }
    }
    if (found && sqrt(best_d) <= reach - distance) done = 1;
  }
  if (!found) /* no cover: evade */
    return steer_evade(p, world_vel(w, i), h, hunter.velocity,
                       w->max_speed[i], w->max_force[i]);
  return steer_arrive(p, world_vel(w, i), best, w->max_speed[i],
                      w->max_force[i], slowing_radius);
}

/* The queue's search: the nearest agent ahead within reach and the cone. */
typedef struct ahead_search {
  const steer_world *w;
  size_t self;
  steer_vec2 p, forward;
  double cos_half;
  long best;
  double best_d2;
  steer_vec2 best_offset;
} ahead_search;

static int consider_ahead(void *ud, size_t j) {
  ahead_search *s = ud;
  steer_vec2 d = world_offset(s->w, s->p, world_pos(s->w, j));
  double d2 = v2_len2(d);
  if (d2 == 0) return 0; /* at the very spot: neither ahead nor behind */
  if (v2_dot(d, s->forward) < s->cos_half * v2_len(d)) return 0;
  if (s->best < 0 || d2 < s->best_d2 ||
      (d2 == s->best_d2 && (long)j < s->best)) {
    s->best = (long)j;
    s->best_d2 = d2;
    s->best_offset = d;
  }
  return 0;
}

static steer_vec2 queue_force(const steer_world *w, size_t i, double distance,
                              double fov, double slowing_radius) {
  steer_vec2 v = world_vel(w, i);
  steer_pose self = steer_agent_pose(w, i);
  ahead_search s = {w, i, self.position, tactics_to_world(self.angle, v2(1, 0)),
                    cos(fov * (3.14159265358979323846 / 360)), -1, 0, zero};
  steer_world_query(w, s.p.x, s.p.y, distance, (long)i, consider_ahead, &s);
  if (s.best < 0) return zero;
  size_t j = (size_t)s.best;
  double gap = v2_len(s.best_offset);
  steer_vec2 n = v2_direction(s.best_offset, gap);
  double hold = distance / 2;
  if (hold < w->radius[i] + w->radius[j]) hold = w->radius[i] + w->radius[j];
  double ahead_speed = v2_dot(world_vel(w, j), n);
  /* silent while the one ahead pulls away and there is room */
  if (ahead_speed >= v2_len(v) && gap >= hold) return zero;
  steer_vec2 e = v2_scale(n, gap - hold);
  steer_vec2 desired =
      v2_add(v2_scale(n, ahead_speed > 0 ? ahead_speed : 0),
             arrive_velocity(e, w->max_speed[i], slowing_radius));
  return toward(w, i, v2_clamp(desired, w->max_speed[i]));
}

steer_vec2 steer_agent_queue(const steer_world *w, size_t i, double distance,
                             double fov, double slowing_radius) {
  return queue_force(w, i, distance, fov, slowing_radius);
}

/* ---- program entries ------------------------------------------------------ */

steer_vec2 tactics_entry_force(const steer_world *w, size_t i,
                               const steer_entry *e) {
  steer_pose a, b;
  switch (e->behavior) {
  case STEER_OFFSET_PURSUIT:
    if (!tactics_target_pose(w, &e->target, &a)) return zero;
    return steer_agent_offset_pursuit(w, i, a, e->offset, e->slowing_radius,
                                      e->fit);
  case STEER_FOLLOW_LEADER:
    if (!tactics_target_pose(w, &e->target, &a)) return zero;
    return steer_agent_follow_leader(w, i, a, e->distance, e->radius,
                                     e->slowing_radius, e->fit);
  case STEER_FORMATION:
    if (e->target.kind != STEER_TARGET_FORMATION) return zero;
    return formation_force(w, i, e->target.formation, e->slowing_radius);
  case STEER_INTERPOSE:
    if (!tactics_target_pose(w, &e->target, &a) ||
        !tactics_target_pose(w, &e->other, &b))
      return zero;
    return steer_agent_interpose(w, i, a, b, e->slowing_radius);
  case STEER_HIDE:
    if (!tactics_target_pose(w, &e->target, &a)) return zero;
    return steer_agent_hide(w, i, a, e->distance, e->slowing_radius);
  case STEER_QUEUE:
    return queue_force(w, i, e->distance, e->fov, e->slowing_radius);
  default: return zero;
  }
}
