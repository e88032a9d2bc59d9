/* flat.c - entry points for LuaJIT FFI callers: an agent's id instead of
 * its index, scalars instead of structs (the JIT compiles those calls),
 * results through an out array, and a steer_status instead of a Lua error:
 * STEER_EINVAL for a stale id or an unknown field, STEER_ENOMEM when memory
 * ran out. Numbers are checked by the caller, as for the rest of the C API.
 */
#include "no_slp.h" /* first: it applies to all that follows */
#include "neighbors.h"
#include "world.h"

#define RESOLVE(w, id, i)               \
  long i = steer_world_index(w, id);    \
  if (i < 0) return STEER_EINVAL

static steer_status put(steer_vec2 f, double out[2]) {
  out[0] = f.x;
  out[1] = f.y;
  return STEER_OK;
}

steer_status steer_flat_seek(steer_world *w, steer_id id, double x, double y,
                             double out[2]) {
  RESOLVE(w, id, i);
  return put(steer_agent_seek(w, (size_t)i, v2(x, y)), out);
}

steer_status steer_flat_flee(steer_world *w, steer_id id, double x, double y,
                             double panic_radius, double out[2]) {
  RESOLVE(w, id, i);
  return put(steer_agent_flee(w, (size_t)i, v2(x, y), panic_radius), out);
}

steer_status steer_flat_arrive(steer_world *w, steer_id id, double x, double y,
                               double slowing_radius, double out[2]) {
  RESOLVE(w, id, i);
  return put(steer_agent_arrive(w, (size_t)i, v2(x, y), slowing_radius), out);
}

steer_status steer_flat_pursue(steer_world *w, steer_id id, steer_id target,
                               int evade, double out[2]) {
  RESOLVE(w, id, i);
  RESOLVE(w, target, t);
  return put(evade ? steer_agent_evade(w, (size_t)i, (size_t)t, -1)
                   : steer_agent_pursue(w, (size_t)i, (size_t)t),
             out);
}

steer_status steer_flat_wander(steer_world *w, steer_id id, double out[2]) {
  RESOLVE(w, id, i);
  steer_vec2 f;
  steer_status status = steer_agent_wander(w, (size_t)i, &f);
  if (status != STEER_OK) return status;
  return put(f, out);
}

steer_status steer_flat_flock(steer_world *w, steer_id id, int rule,
                              double radius, double out[2]) {
  RESOLVE(w, id, i);
  if (rule != STEER_SEPARATION && rule != STEER_ALIGNMENT &&
      rule != STEER_COHESION)
    return STEER_EINVAL;
  return put(flock_rule_alone(w, (size_t)i, (steer_behavior)rule, radius,
                              NULL),
             out);
}

steer_status steer_flat_avoid(steer_world *w, steer_id id, int walls,
                              double feeler_length, double out[2]) {
  RESOLVE(w, id, i);
  return put(walls ? steer_agent_avoid_walls(w, (size_t)i, feeler_length)
                   : steer_agent_avoid_obstacles(w, (size_t)i, feeler_length),
             out);
}

steer_status steer_flat_apply(steer_world *w, steer_id id, double fx, double fy,
                              double dt) {
  RESOLVE(w, id, i);
  steer_agent_apply(w, (size_t)i, v2(fx, fy), dt);
  return STEER_OK;
}

steer_status steer_flat_get(const steer_world *w, steer_id id, int field,
                            double out[2]) {
  RESOLVE(w, id, i);
  switch (field) {
  case STEER_FLAT_SPEED: out[0] = steer_agent_speed(w, (size_t)i); break;
  case STEER_FLAT_HEADING: out[0] = steer_agent_heading(w, (size_t)i); break;
  case STEER_FLAT_POSITION: return put(world_pos(w, (size_t)i), out);
  case STEER_FLAT_VELOCITY: return put(world_vel(w, (size_t)i), out);
  default:
    if (field < 0 || field >= STEER_FIELD_COUNT) return STEER_EINVAL;
    out[0] = steer_agent_get(w, (size_t)i, (steer_field)field);
    break;
  }
  return STEER_OK;
}

steer_status steer_flat_set(steer_world *w, steer_id id, int field,
                            double value) {
  RESOLVE(w, id, i);
  if (field < 0 || field >= STEER_FIELD_COUNT) return STEER_EINVAL;
  return steer_agent_set(w, (size_t)i, (steer_field)field, value);
}
