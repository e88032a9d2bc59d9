/* behaviors.c - the stateless force functions of docs/API.md section 2. */
#include "steer.h"
#include "trig.h"
#include "vec.h"

double steer_length(steer_vec2 v) { return v2_len(v); }
steer_vec2 steer_normalize(steer_vec2 v) { return v2_normalize(v); }
steer_vec2 steer_clamp(steer_vec2 v, double max) { return v2_clamp(v, max); }

steer_vec2 steer_lerp(steer_vec2 a, steer_vec2 b, double t) {
  return v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}

/* seek, flee and arrive: desired velocity minus current velocity, clamped */
steer_vec2 steer_seek(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                      double max_speed, double max_force) {
  return v2_toward(v2_sub(t, p), v, max_speed, max_force);
}

steer_vec2 steer_flee(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                      double max_speed, double max_force) {
  return v2_toward(v2_sub(p, t), v, max_speed, max_force);
}

steer_vec2 steer_arrive(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                        double max_speed, double max_force,
                        double slowing_radius) {
  return v2_arrive(v2_sub(t, p), v, max_speed, max_force, slowing_radius);
}

steer_vec2 steer_predict(steer_vec2 p, steer_vec2 t, steer_vec2 tv,
                         double max_speed) {
  double d = v2_len(v2_sub(t, p));
  double lookahead = 0;
  /* cap T so that tv * T stays finite even for a vanishing max_speed */
  if (max_speed > 0)
    lookahead = d < max_speed * STEER_LIMIT ? d / max_speed : STEER_LIMIT;
  return v2_add(t, v2_scale(tv, lookahead));
}

steer_vec2 steer_pursue(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                        steer_vec2 tv, double max_speed, double max_force) {
  return steer_seek(p, v, steer_predict(p, t, tv, max_speed), max_speed,
                    max_force);
}

steer_vec2 steer_evade(steer_vec2 p, steer_vec2 v, steer_vec2 t,
                       steer_vec2 tv, double max_speed, double max_force) {
  return steer_flee(p, v, steer_predict(p, t, tv, max_speed), max_speed,
                    max_force);
}

steer_vec2 steer_weighted(double max_force, const steer_vec2 *forces,
                          const double *weights, size_t n) {
  steer_vec2 sum = v2(0, 0);
  for (size_t i = 0; i < n; i++)
    sum = v2_add(sum, v2_scale(forces[i], weights[i]));
  return v2_clamp(sum, max_force);
}

steer_vec2 steer_priority(double max_force, const steer_vec2 *forces,
                          size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v2_len2(forces[i]) > 1e-4) return v2_clamp(forces[i], max_force);
  return v2(0, 0);
}

int steer_accumulate(steer_vec2 *sum, steer_vec2 f, double max_force) {
  double used = v2_len(*sum);
  if (used >= max_force) return 0;
  double len = v2_len(f);
  /* f / len, not normalize(): a force shorter than 1e-5 still has a
     direction when max_force is that small too */
  steer_vec2 dir = len > 0 ? v2(f.x / len, f.y / len) : v2(0, 0);
  /* the largest k with |sum + dir * k| <= max_force: the positive root of
     k^2 + 2 k (sum . dir) + |sum|^2 - max_force^2 = 0, worked out in units
     of max_force, where every term lies in [-1, 1], so that nothing
     overflows (max_force 1e150) or underflows (max_force 1e-300) */
  double u = used / max_force, along = v2_dot(*sum, dir) / max_force;
  double room = (1 - u) * (1 + u);
  double root = sqrt(along * along + room);
  /* root - along cancels when along > 0; room / (root + along) does not */
  double fit = (along > 0 ? room / (root + along) : root - along) * max_force;
  if (len < fit) {
    *sum = v2_add(*sum, f);
    return 1;
  }
  *sum = v2_add(*sum, v2_scale(dir, fit));
  return 0;
}

steer_vec2 steer_prioritized_sum(double max_force, const steer_vec2 *forces,
                                 size_t n) {
  steer_vec2 sum = v2(0, 0);
  for (size_t i = 0; i < n; i++)
    if (!steer_accumulate(&sum, forces[i], max_force)) break;
  return sum;
}

steer_vec2 steer_wander_force(steer_vec2 v, double angle, double distance,
                              double radius) {
  steer_vec2 ahead = v2_scale(v2_forward(v), distance);
  double s, c;
  trig_sincos(angle, &s, &c); /* program_batch.c: the same in lanes */
  return v2_add(ahead, v2(c * radius, s * radius));
}

void steer_integrate(steer_vec2 *p, steer_vec2 *v, steer_vec2 f,
                     double max_speed, double max_force, double dt) {
  v2_integrate(p, v, f, max_speed, max_force, dt);
}
