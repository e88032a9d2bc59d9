/* orientation.h - how agents face and turn (internal): the angle, its
 * angular steering (face, look_where_going, match_orientation) and the
 * integration of vehicles that cannot turn on the spot. */
#ifndef STEER_ORIENTATION_H
#define STEER_ORIENTATION_H

#include "world.h"

#define STEER_PI 3.14159265358979323846

/* a in (-pi, pi] (a itself when it already is) */
double angle_wrap(double a);

/* The body of agent i: its cold state's, or the defaults. */
agent_body body_of(const steer_world *w, size_t i);
void body_init(agent_body *b);

/* The angular acceleration that turns agent i toward angle `target`
   within one step of dt, the short way round: the angular velocity that
   gets there this step, limited by max_turn_rate and by the speed from
   which max_angular_acceleration can still stop in time. */
double orient_toward(const steer_world *w, size_t i, double target,
                     double dt);

/* Is behavior b one of the angular ones? */
static inline int behavior_is_angular(steer_behavior b) {
  return b >= STEER_FACE && b <= STEER_MATCH_ORIENTATION;
}

/* Must agent i's integration take body_integrate (a turn limit, a minimum
   speed, a spin, or a program that turns it)? */
static inline int body_moves(const steer_world *w, size_t i) {
  if (!w->bodies) return 0; /* the common crowd: no load per agent */
  const agent_ext *e = w->ext[i];
  const steer_program *p = w->program[i];
  return e && (e->body.angular_velocity != 0 || e->body.min_speed > 0 ||
               e->body.turn_velocity || (p && p->turns));
}

/* world_integrate for an agent whose body_moves: the velocity's turn
   limited, its minimum speed kept, and the angle integrated with angular
   acceleration `angular` (the program's turn mode applied); writes the
   angle and angular velocity, returns the position and velocity in *p, *v
   for the caller to write. */
void body_integrate(steer_world *w, size_t i, steer_vec2 f, double angular,
                    double dt, steer_vec2 *p, steer_vec2 *v);

#endif
