/* turn_entries.c - a program's angular entries through the C API (the Lua
 * binding refuses some of these programs; the core must still do what
 * csrc/steer.h says). spec/limits_angular_spec.lua runs it.
 *   - turn = STEER_TURN_TO_VELOCITY turns agents "besides" the angular
 *     entries: a program with a face entry faces its target, one without
 *     any follows its velocity;
 *   - a match_orientation entry aimed at no agent (a point) brakes the
 *     spin, as one whose target agent is gone does.
 * Expected values are worked out by hand from docs/API.md section 19. */
#include <math.h>
#include <string.h>
#include "oracle.h"
#include "steer.h"

#define PI 3.14159265358979323846

static steer_target point(double x, double y) {
  steer_target t;
  memset(&t, 0, sizeof t);
  t.kind = STEER_TARGET_POINT;
  t.point.x = x;
  t.point.y = y;
  return t;
}

/* A program of seek (sx, sy) and, with `face`, face (fx, fy); turn mode. */
static steer_program *program(double sx, double sy, int face, double fx,
                              double fy, steer_turn turn) {
  steer_entry e[2];
  e[0] = steer_entry_default(STEER_SEEK);
  e[0].target = point(sx, sy);
  e[1] = steer_entry_default(STEER_FACE);
  e[1].target = point(fx, fy);
  steer_program *p =
      steer_program_create(STEER_WEIGHTED, -1, 0, e, face ? 2 : 1);
  if (p) steer_program_set_turn(p, turn);
  return p;
}

/* A world with one agent at the origin moving at (vx, vy), max_speed 1,
   max_turn_rate `rate`, running p; its index in *i. */
static steer_world *one(double vx, double vy, double rate, steer_program *p,
                        size_t *i) {
  steer_world_def wd = steer_world_def_default();
  steer_world *w = steer_world_create(&wd);
  steer_agent_def d = steer_agent_def_default();
  steer_id id;
  d.vx = vx;
  d.vy = vy;
  d.max_turn_rate = rate;
  if (!w || steer_world_add(w, &d, &id) != STEER_OK) return NULL;
  *i = (size_t)steer_world_index(w, id);
  steer_agent_set_program(w, *i, p);
  return w;
}

static void turn_velocity_and_face(void) {
  size_t i;
  /* seek (100, 0) at full speed, face (0, 100), turn = velocity: unlimited,
     face lands on pi/2 in one step (alpha = (pi/2 / 0.1) / 0.1, omega =
     alpha 0.1, angle = omega 0.1); the velocity's direction is 0 */
  steer_program *p = program(100, 0, 1, 0, 100, STEER_TURN_TO_VELOCITY);
  steer_world *w = one(1, 0, STEER_LIMIT, p, &i);
  CHECK(w != NULL, "world");
  if (!w) return;
  steer_world_step(w, 0.1);
  double angle = steer_agent_get(w, i, STEER_ANGLE);
  double omega = steer_agent_get(w, i, STEER_ANGULAR_VELOCITY);
  CHECK(fabs(angle - PI / 2) < 1e-12, "face wins: angle %.17g, want pi/2",
        angle);
  CHECK(fabs(omega - PI / 2 / 0.1) < 1e-9,
        "face wins: angular velocity %.17g, want 5 pi", omega);
  steer_world_destroy(w);

  /* the same at max_turn_rate 1: 0.1 rad a step toward pi/2 */
  w = one(1, 0, 1, p, &i);
  CHECK(w != NULL, "world");
  if (!w) return;
  for (int k = 1; k <= 5; k++) {
    steer_world_step(w, 0.1);
    angle = steer_agent_get(w, i, STEER_ANGLE);
    CHECK(fabs(angle - 0.1 * k) < 1e-12, "rate 1, step %d: angle %.17g", k,
          angle);
  }
  steer_world_destroy(w);
  steer_program_release(p);

  /* without angular entries turn = velocity still follows the velocity:
     seek (0, 100) from rest along y, velocity (0, 0.1) after a step */
  p = program(0, 100, 0, 0, 0, STEER_TURN_TO_VELOCITY);
  w = one(0, 0, STEER_LIMIT, p, &i);
  CHECK(w != NULL, "world");
  if (!w) return;
  steer_world_step(w, 0.1);
  angle = steer_agent_get(w, i, STEER_ANGLE);
  CHECK(fabs(angle - PI / 2) < 1e-12, "turn alone: angle %.17g, want pi/2",
        angle);
  steer_world_destroy(w);
  steer_program_release(p);
}

static void match_orientation_without_agent(void) {
  steer_entry e = steer_entry_default(STEER_MATCH_ORIENTATION);
  e.target = point(3, 4);
  steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1);
  steer_world_def wd = steer_world_def_default();
  steer_world *w = steer_world_create(&wd);
  steer_agent_def d = steer_agent_def_default();
  steer_id id;
  d.angular_velocity = 2;
  d.max_angular_acceleration = 5;
  CHECK(p && w && steer_world_add(w, &d, &id) == STEER_OK, "setup");
  if (!p || !w) return;
  size_t i = (size_t)steer_world_index(w, id);
  steer_agent_set_program(w, i, p);
  /* braking: alpha = clamp((0 - omega) / 0.1, +-5) = -5, so omega falls by
     0.5 a step: 1.5, 1, 0.5, 0, and stays 0; the angle grows by omega 0.1 */
  const double omega[] = {1.5, 1, 0.5, 0, 0, 0};
  const double angle[] = {0.15, 0.25, 0.3, 0.3, 0.3, 0.3};
  for (int k = 0; k < 6; k++) {
    steer_world_step(w, 0.1);
    double o = steer_agent_get(w, i, STEER_ANGULAR_VELOCITY);
    double a = steer_agent_get(w, i, STEER_ANGLE);
    CHECK(fabs(o - omega[k]) < 1e-12, "step %d: angular velocity %.17g", k,
          o);
    CHECK(fabs(a - angle[k]) < 1e-12, "step %d: angle %.17g", k, a);
  }
  steer_world_destroy(w);
  steer_program_release(p);
}

int main(void) {
  turn_velocity_and_face();
  match_orientation_without_agent();
  return oracle_report();
}
