/* orientation.c - the angle agents face, the angular steering that turns
 * it (face, look_where_going, match_orientation, a program's turn mode)
 * and the integration of bodies that turn at a limited rate.
 *
 * Angular steering aims to reach the target angle within one step: the
 * wanted angular velocity is the difference (taken the short way round)
 * over dt, limited by max_turn_rate and by sqrt(2 max_angular_acceleration
 * |difference|), the fastest turn that can still stop in time. Its
 * angular acceleration is (wanted - angular_velocity) / dt, within
 * max_angular_acceleration. */
#include <math.h>
#include "orientation.h"

double angle_wrap(double a) {
  if (a > -STEER_PI && a <= STEER_PI) return a;
  a = fmod(a, 2 * STEER_PI); /* (-2 pi, 2 pi); the steps below are exact */
  if (a > STEER_PI)
    a -= 2 * STEER_PI;
  else if (a <= -STEER_PI)
    a += 2 * STEER_PI;
  return a;
}

void body_init(agent_body *b) {
  b->angle = 0;
  b->angular_velocity = 0;
  b->max_turn_rate = STEER_LIMIT;
  b->max_angular_acceleration = STEER_LIMIT;
  b->min_speed = 0;
  b->angular_force = 0;
  b->turn_velocity = 0;
  b->ghost_group = 0;
}

agent_body body_of(const steer_world *w, size_t i) {
  agent_body b;
  if (w->ext[i]) return w->ext[i]->body;
  body_init(&b);
  return b;
}

static double clamp_abs(double v, double max) {
  return v > max ? max : v < -max ? -max : v;
}

static double toward(const agent_body *b, double target, double dt) {
  double d = angle_wrap(target - b->angle), size = fabs(d);
  /* with no step to plan for (dt = 0: a:steering() now) the limit of a
     shrinking dt, never 0 / 0: as fast as the limits allow */
  double want = size == 0 ? 0 : dt > 0 ? size / dt : INFINITY;
  if (want > b->max_turn_rate) want = b->max_turn_rate; /* infinite: limited */
  double stoppable = sqrt(2 * b->max_angular_acceleration * size);
  if (stoppable < want) want = stoppable;
  double change = (d < 0 ? -want : want) - b->angular_velocity;
  double alpha = dt > 0       ? change / dt
                 : change > 0 ? INFINITY
                 : change < 0 ? -INFINITY
                              : 0;
  return clamp_abs(alpha, b->max_angular_acceleration);
}

double orient_toward(const steer_world *w, size_t i, double target,
                     double dt) {
  agent_body b = body_of(w, i);
  return toward(&b, target, dt);
}

/* The direction of v, or the agent's own angle when v is zero. */
static double direction_or(steer_vec2 v, double angle) {
  return v.x == 0 && v.y == 0 ? angle : atan2(v.y, v.x);
}

double steer_agent_face(const steer_world *w, size_t i, steer_vec2 t,
                        double dt) {
  agent_body b = body_of(w, i);
  steer_vec2 d = world_offset(w, world_pos(w, i), t);
  return toward(&b, direction_or(d, b.angle), dt);
}

double steer_agent_look_where_going(const steer_world *w, size_t i,
                                    double dt) {
  agent_body b = body_of(w, i);
  return toward(&b, direction_or(world_vel(w, i), b.angle), dt);
}

double steer_agent_match_orientation(const steer_world *w, size_t i,
                                     size_t target, double dt) {
  agent_body b = body_of(w, i);
  return toward(&b, body_of(w, target).angle, dt);
}

/* ---- integration ------------------------------------------------------ */

/* The new velocity v of a body facing b->angle turned at most
   max_turn_rate dt away from that facing, its speed kept. */
static steer_vec2 turn_limited(const agent_body *b, steer_vec2 v, double dt) {
  if (v.x == 0 && v.y == 0) return v;
  double d = angle_wrap(atan2(v.y, v.x) - b->angle);
  double limit = b->max_turn_rate * dt;
  if (fabs(d) <= limit) return v;
  double speed = steer_length(v), a = b->angle + (d < 0 ? -limit : limit);
  return v2(cos(a) * speed, sin(a) * speed);
}

/* v sped up to min_speed (at most max_speed) while it moves at all. */
static steer_vec2 kept_moving(steer_vec2 v, double min_speed,
                              double max_speed) {
  double speed = steer_length(v), want = min_speed;
  if (want > max_speed) want = max_speed;
  if (speed == 0 || speed >= want) return v;
  return v2_scale(v2_direction(v, speed), want);
}

void body_integrate(steer_world *w, size_t i, steer_vec2 f, double angular,
                    double dt, steer_vec2 *p, steer_vec2 *v) {
  agent_body *b = &w->ext[i]->body;
  const steer_program *prog = w->program[i];
  *p = world_pos(w, i);
  f = v2_clamp(f, w->max_force[i]);
  *v = v2_clamp(v2_add(world_vel(w, i), v2_scale(f, dt)), w->max_speed[i]);
  if (b->turn_velocity) *v = turn_limited(b, *v, dt);
  if (b->min_speed > 0) *v = kept_moving(*v, b->min_speed, w->max_speed[i]);
  *v = v2_limit(*v); /* each rescaling can round a component past the limit */
  *p = v2_add(*p, v2_scale(*v, dt));
  world_keep_inside(w, p, v);
  double rate = b->max_turn_rate < STEER_LIMIT ? b->max_turn_rate
                                               : STEER_LIMIT;
  if (b->turn_velocity) { /* a vehicle faces where it goes */
    double to = angle_wrap(direction_or(*v, b->angle)); /* atan2 gives -pi */
    b->angular_velocity = clamp_abs(angle_wrap(to - b->angle) / dt, rate);
    b->angle = to;
    return;
  }
  /* the program's angular entries, when it has any, steer the angle: the
     turn mode turns agents besides them (steer.h) */
  if (prog && prog->turn == STEER_TURN_TO_VELOCITY && !prog->angular)
    angular = toward(b, direction_or(*v, b->angle), dt);
  angular = clamp_abs(angular, b->max_angular_acceleration);
  b->angular_velocity =
      clamp_abs(b->angular_velocity + angular * dt, rate);
  b->angle = angle_wrap(b->angle + b->angular_velocity * dt);
}
