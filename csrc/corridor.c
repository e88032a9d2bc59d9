/* corridor.c - path following as a corridor (OpenSteer's followPath, the
 * Godot Steering AI Framework's FollowPath): predict, project onto the
 * path, and steer only when the prediction leaves the corridor; and
 * steer_agent_set_path_index. */
#include "agent.h"
#include "corridor.h"
#include "states.h"

/* Segment k of the path: from the waypoint before k to waypoint k, both as
   agent i sees them (the nearest images on a torus). */
static void segment(const steer_world *w, size_t i, const steer_path *path,
                    size_t k, steer_vec2 *a, steer_vec2 *b) {
  size_t n = steer_path_count(path);
  steer_vec2 p = world_pos(w, i);
  steer_vec2 from = steer_path_point(path, (k + n - 1) % n);
  *a = v2_add(p, world_offset(w, p, from));
  *b = v2_add(*a, world_offset(w, from, steer_path_point(path, k)));
}

/* The parameter in [0, 1] of q's projection on segment a-b. */
static double project(steer_vec2 a, steer_vec2 b, steer_vec2 q) {
  steer_vec2 ab = v2_sub(b, a);
  double len2 = v2_len2(ab);
  if (!(len2 > 0)) return 1; /* a repeated point: already at its end */
  double t = v2_dot(v2_sub(q, a), ab) / len2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

static size_t next_waypoint(const steer_path *path, size_t k) {
  size_t n = steer_path_count(path);
  return steer_path_loops(path) ? (k + 1) % n : k + 1 < n ? k + 1 : k;
}

steer_vec2 corridor_force(const steer_world *w, size_t i,
                          const steer_path *path, size_t *waypoint,
                          double path_radius, double look_ahead,
                          double slowing_radius) {
  size_t n = steer_path_count(path), k = *waypoint;
  int loop = steer_path_loops(path);
  steer_vec2 p = world_pos(w, i), v = world_vel(w, i), a, b;
  double max_speed = w->max_speed[i], max_force = w->max_force[i];
  if (n == 1)
    return steer_arrive(p, v, v2_add(p, world_offset(
                                            w, p, steer_path_point(path, 0))),
                        max_speed, max_force, slowing_radius);
  if (!loop && k == 0) k = 1; /* the first segment, joined where nearest */
  /* pass the segments whose end the agent's projection reached, or whose
     next segment is nearer (inside a sharp corner the projection on the
     current one never reaches its end) */
  for (size_t tries = 0; tries < n; tries++) {
    segment(w, i, path, k, &a, &b);
    size_t next = next_waypoint(path, k);
    if (next == k) break;
    double t = project(a, b, p);
    if (t < 1) {
      steer_vec2 c, d;
      segment(w, i, path, next, &c, &d);
      double u = project(c, d, p);
      steer_vec2 on = v2_add(a, v2_scale(v2_sub(b, a), t));
      steer_vec2 on_next = v2_add(c, v2_scale(v2_sub(d, c), u));
      if (!(u > 0 && v2_len2(v2_sub(p, on_next)) < v2_len2(v2_sub(p, on))))
        break;
    }
    k = next;
  }
  *waypoint = k;
  segment(w, i, path, k, &a, &b);
  double t_now = project(a, b, p);
  /* the prediction, kept within the limits */
  steer_vec2 future = v2_add(p, v2_scale(v, look_ahead));
  future = v2(future.x < -STEER_LIMIT  ? -STEER_LIMIT
              : future.x > STEER_LIMIT ? STEER_LIMIT
                                       : future.x,
              future.y < -STEER_LIMIT  ? -STEER_LIMIT
              : future.y > STEER_LIMIT ? STEER_LIMIT
                                       : future.y);
  double t_future = project(a, b, future);
  steer_vec2 on_path = v2_add(a, v2_scale(v2_sub(b, a), t_future));
  double off2 = v2_len2(v2_sub(future, on_path));
  int last = !loop && k + 1 == n;
  /* cruising: the prediction is at least 90% of the distance the agent
     could cover further along (or past this segment toward the next) */
  double ahead = max_speed * look_ahead;
  double advance = (t_future - t_now) * v2_len(v2_sub(b, a));
  int cruising = advance >= 0.9 * ahead || (t_future == 1 && !last);
  if (cruising && off2 <= path_radius * path_radius) return v2(0, 0);
  /* seek max_speed * look_ahead further along than the agent itself */
  steer_vec2 target = v2_add(a, v2_scale(v2_sub(b, a), t_now));
  for (size_t hops = 0; hops <= n; hops++) {
    double left = v2_len(v2_sub(b, target));
    if (ahead < left) {
      target = v2_add(target, v2_scale(v2_normalize(v2_sub(b, target)), ahead));
      break;
    }
    ahead -= left;
    target = b;
    size_t next = next_waypoint(path, k);
    if (next == k) /* the end of an open path: arrive there */
      return steer_arrive(p, v, target, max_speed, max_force,
                          slowing_radius);
    k = next;
    segment(w, i, path, k, &a, &b);
    target = a;
  }
  return steer_seek(p, v, target, max_speed, max_force);
}

steer_status steer_agent_set_path_index(steer_world *w, size_t i, size_t k) {
  agent_ext *e = w->ext[i];
  const steer_program *p = w->program[i];
  if (!e) return STEER_EINVAL;
  if (e->follow_path) {
    if (k >= steer_path_count(e->follow_path)) return STEER_EINVAL;
    e->follow_index = k;
    return STEER_OK;
  }
  program_state *s = world_state(w, i);
  long q = p && s ? program_route_entry(p, NULL) : -1;
  if (q < 0 || k >= steer_path_count(p->entries[q].target.path))
    return STEER_EINVAL;
  s->entries[q].waypoint = (uint32_t)k;
  return STEER_OK;
}

steer_status steer_agent_follow_corridor(steer_world *w, size_t i,
                                         steer_path *path, double path_radius,
                                         double look_ahead,
                                         double slowing_radius,
                                         steer_vec2 *force) {
  agent_ext *e = follow_state(w, i, path);
  if (!e) return STEER_ENOMEM;
  *force = corridor_force(w, i, path, &e->follow_index, path_radius,
                          look_ahead, slowing_radius);
  return STEER_OK;
}
