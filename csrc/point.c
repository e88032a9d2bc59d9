/* point.c - shared moving targets: a point many programs hold; moving it
 * moves every program's target at once (steer.point). Reference counted
 * like paths, so a program keeps the point it aims at alive. */
#include "alloc.h"

struct steer_point {
  size_t refs;
  steer_vec2 at;
};

steer_point *steer_point_create(double x, double y) {
  steer_point *p = steer_alloc(NULL, 0, sizeof *p);
  if (!p) return NULL;
  p->refs = 1;
  p->at.x = x;
  p->at.y = y;
  return p;
}

void steer_point_retain(steer_point *p) { p->refs++; }

void steer_point_release(steer_point *p) {
  if (p && --p->refs == 0) steer_alloc(p, sizeof *p, 0);
}

void steer_point_set(steer_point *p, double x, double y) {
  p->at.x = x;
  p->at.y = y;
}

steer_vec2 steer_point_get(const steer_point *p) { return p->at; }
