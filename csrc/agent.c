/* agent.c - behaviors of one agent of a world (docs/API.md section 3). */
#include "no_slp.h" /* first: it applies to all that follows */
#include <math.h>
#include "agent.h"
#include "orientation.h"
#include "states.h"

/* The target as the agent sees it: on a torus, the nearest image of t. */
static steer_vec2 seen(const steer_world *w, size_t i, steer_vec2 t) {
  steer_vec2 p = world_pos(w, i);
  return v2_add(p, world_offset(w, p, t));
}

/* steer_seek's and steer_flee's arithmetic inline, as agent_arrive's
   (agent.h): through the exported calls the vectors went through memory */
steer_vec2 steer_agent_seek(const steer_world *w, size_t i, steer_vec2 t) {
  steer_vec2 p = world_pos(w, i);
  return v2_toward(v2_sub(seen(w, i, t), p), world_vel(w, i), w->max_speed[i],
                   w->max_force[i]);
}

steer_vec2 steer_agent_flee(const steer_world *w, size_t i, steer_vec2 t,
                            double panic_radius) {
  steer_vec2 p = world_pos(w, i), target = seen(w, i, t);
  if (v2_beyond(p, target, panic_radius)) return v2(0, 0);
  return v2_toward(v2_sub(p, target), world_vel(w, i), w->max_speed[i],
                   w->max_force[i]);
}

steer_vec2 steer_agent_arrive(const steer_world *w, size_t i, steer_vec2 t,
                              double slowing_radius) {
  return agent_arrive(w, i, t, slowing_radius);
}

steer_vec2 steer_agent_pursue(const steer_world *w, size_t i, size_t target) {
  return steer_pursue(world_pos(w, i), world_vel(w, i),
                      seen(w, i, world_pos(w, target)), world_vel(w, target),
                      w->max_speed[i], w->max_force[i]);
}

steer_vec2 steer_agent_evade(const steer_world *w, size_t i, size_t target,
                             double panic_radius) {
  steer_vec2 p = world_pos(w, i), t = seen(w, i, world_pos(w, target));
  /* as flee's: the pursuer's position now, not the predicted point */
  if (v2_beyond(p, t, panic_radius)) return v2(0, 0);
  return steer_evade(p, world_vel(w, i), t, world_vel(w, target),
                     w->max_speed[i], w->max_force[i]);
}

steer_status steer_agent_wander(steer_world *w, size_t i, steer_vec2 *force) {
  agent_ext *e = world_ext(w, i);
  if (!e) return STEER_ENOMEM;
  double angle = wander_advance(e);
  *force = steer_wander_force(world_vel(w, i), angle, e->wander_distance,
                              e->wander_radius);
  return STEER_OK;
}

steer_vec2 path_force(const steer_world *w, size_t i, const steer_path *path,
                      size_t *waypoint, double arrival_radius,
                      double slowing_radius, int arrive_last) {
  size_t n = steer_path_count(path), k = *waypoint;
  int loop = steer_path_loops(path);
  steer_vec2 p = world_pos(w, i);
  steer_vec2 target = seen(w, i, steer_path_point(path, k));
  if (v2_len2(v2_sub(target, p)) < arrival_radius * arrival_radius &&
      (loop || k + 1 < n)) {
    k = (k + 1) % n;
    *waypoint = k;
    target = seen(w, i, steer_path_point(path, k));
  }
  /* steer_arrive and steer_seek's arithmetic inline (a call through the
     exported functions passed the vectors through memory) */
  if (arrive_last && !loop && k + 1 == n)
    return v2_arrive(v2_sub(target, p), world_vel(w, i), w->max_speed[i],
                     w->max_force[i], slowing_radius);
  return v2_toward(v2_sub(target, p), world_vel(w, i), w->max_speed[i],
                   w->max_force[i]);
}

agent_ext *follow_state(steer_world *w, size_t i, steer_path *path) {
  agent_ext *e = world_ext(w, i);
  if (e && e->follow_path != path) {
    steer_path_retain(path);
    steer_path_release(e->follow_path);
    e->follow_path = path;
    e->follow_index = 0;
  }
  return e;
}

steer_status steer_agent_follow(steer_world *w, size_t i, steer_path *path,
                                double arrival_radius, double slowing_radius,
                                steer_vec2 *force) {
  agent_ext *e = follow_state(w, i, path);
  if (!e) return STEER_ENOMEM;
  *force = path_force(w, i, path, &e->follow_index, arrival_radius,
                      slowing_radius, 1);
  return STEER_OK;
}

const steer_path *steer_agent_path(const steer_world *w, size_t i,
                                   const steer_path *path, size_t *index) {
  const agent_ext *e = w->ext[i];
  const steer_program *p = w->program[i];
  *index = 0;
  if (!e) return NULL;
  if (e->follow_path && (!path || e->follow_path == path)) {
    *index = e->follow_index;
    return e->follow_path;
  }
  const program_state *s = world_state(w, i);
  long k = p && s ? program_route_entry(p, path) : -1;
  if (k < 0) return NULL;
  *index = s->entries[k].waypoint;
  return p->entries[k].target.path;
}

long program_route_entry(const steer_program *p, const steer_path *path) {
  for (size_t k = 0; p && k < p->count; k++) {
    const steer_target *t = &p->entries[k].target;
    if (t->kind == STEER_TARGET_PATH && (!path || t->path == path) &&
        p->entries[k].behavior != STEER_CONTAIN) /* a region, not a route */
      return (long)k;
  }
  return -1;
}

void steer_agent_apply(steer_world *w, size_t i, steer_vec2 f, double dt) {
  steer_vec2 p, v;
  if (body_moves(w, i))
    body_integrate(w, i, f, 0, dt, &p, &v);
  else
    world_integrate(w, i, f, dt, &p, &v);
  world_place(w, i, p);
  w->vx[i] = v.x;
  w->vy[i] = v.y;
}

steer_status steer_agent_apply_turning(steer_world *w, size_t i, steer_vec2 f,
                                       double angular, double dt) {
  steer_vec2 p, v;
  if (angular == 0) {
    steer_agent_apply(w, i, f, dt);
    return STEER_OK;
  }
  if (!world_ext(w, i)) return STEER_ENOMEM;
  w->bodies = 1;
  body_integrate(w, i, f, angular, dt, &p, &v);
  world_place(w, i, p);
  w->vx[i] = v.x;
  w->vy[i] = v.y;
  return STEER_OK;
}
