/* ffi_entry.c - the entry points lua/steer/ffi.lua calls: the flat calls of
 * the core, taking the world's box instead of the world. A LuaJIT caller
 * allocates (boxing cdata) between reading a pointer and calling C, and a
 * __gc finalizer may close the world there (issue 11): box->w is read
 * here, at the moment of the call. A closed world answers STEER_EINVAL, as
 * a stale id does, so the caller takes the classic path, which raises
 * "world is closed". */
#include "binding.h"

#define ENTRY __attribute__((visibility("default")))
#define LIVE(box) if (!(box)->w) return STEER_EINVAL

ENTRY steer_status
steer_box_seek(const lworld *box, steer_id id, double x, double y,
               double out[2]);
ENTRY steer_status
steer_box_flee(const lworld *box, steer_id id, double x, double y,
               double panic, double out[2]);
ENTRY steer_status
steer_box_arrive(const lworld *box, steer_id id, double x, double y,
                 double slowing, double out[2]);
ENTRY steer_status
steer_box_pursue(const lworld *box, steer_id id, steer_id target,
                 int evade, double out[2]);
ENTRY steer_status
steer_box_wander(const lworld *box, steer_id id, double out[2]);
ENTRY steer_status
steer_box_flock(const lworld *box, steer_id id, int rule,
                double radius, double out[2]);
ENTRY steer_status
steer_box_avoid(const lworld *box, steer_id id, int walls,
                double feeler, double out[2]);
ENTRY steer_status
steer_box_apply(const lworld *box, steer_id id, double fx,
                double fy, double dt);
ENTRY steer_status
steer_box_get(const lworld *box, steer_id id, int field,
              double out[2]);
ENTRY steer_status
steer_box_set(const lworld *box, steer_id id, int field,
              double value);
/* -1 for a closed world, else the agent count */
ENTRY long steer_box_columns(const lworld *box, const double **x,
                             const double **y, const double **vx,
                             const double **vy);

steer_status
steer_box_seek(const lworld *box, steer_id id, double x, double y,
               double out[2]) {
  LIVE(box);
  return steer_flat_seek(box->w, id, x, y, out);
}

steer_status
steer_box_flee(const lworld *box, steer_id id, double x, double y,
               double panic, double out[2]) {
  LIVE(box);
  return steer_flat_flee(box->w, id, x, y, panic, out);
}

steer_status
steer_box_arrive(const lworld *box, steer_id id, double x, double y,
                 double slowing, double out[2]) {
  LIVE(box);
  return steer_flat_arrive(box->w, id, x, y, slowing, out);
}

steer_status
steer_box_pursue(const lworld *box, steer_id id, steer_id target,
                 int evade, double out[2]) {
  LIVE(box);
  return steer_flat_pursue(box->w, id, target, evade, out);
}

steer_status
steer_box_wander(const lworld *box, steer_id id, double out[2]) {
  LIVE(box);
  return steer_flat_wander(box->w, id, out);
}

steer_status
steer_box_flock(const lworld *box, steer_id id, int rule, double radius,
                double out[2]) {
  LIVE(box);
  return steer_flat_flock(box->w, id, rule, radius, out);
}

steer_status
steer_box_avoid(const lworld *box, steer_id id, int walls, double feeler,
                double out[2]) {
  LIVE(box);
  return steer_flat_avoid(box->w, id, walls, feeler, out);
}

steer_status
steer_box_apply(const lworld *box, steer_id id, double fx, double fy,
                double dt) {
  LIVE(box);
  return steer_flat_apply(box->w, id, fx, fy, dt);
}

steer_status
steer_box_get(const lworld *box, steer_id id, int field, double out[2]) {
  LIVE(box);
  return steer_flat_get(box->w, id, field, out);
}

steer_status
steer_box_set(const lworld *box, steer_id id, int field, double value) {
  LIVE(box);
  return steer_flat_set(box->w, id, field, value);
}

long steer_box_columns(const lworld *box, const double **x, const double **y,
                       const double **vx, const double **vy) {
  if (!box->w) return -1;
  return (long)steer_world_columns(box->w, x, y, vx, vy);
}
