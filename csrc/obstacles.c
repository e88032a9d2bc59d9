/* obstacles.c - circle obstacles, wall segments and avoiding them. */
#include <math.h>
#include "obstacles.h"

steer_status steer_world_add_obstacle(steer_world *w, double x, double y,
                                      double radius, size_t *number) {
  if (world_grow(w, (void **)&w->obstacles, sizeof(obstacle),
                 &w->obstacle_cap, w->obstacle_count + 1))
    return STEER_ENOMEM;
  obstacle o = {x, y, radius};
  w->obstacles[w->obstacle_count++] = o;
  if (number) *number = w->obstacle_count;
  return STEER_OK;
}

steer_status steer_world_add_wall(steer_world *w, steer_vec2 a, steer_vec2 b,
                                  size_t *number) {
  if (world_grow(w, (void **)&w->walls, sizeof(wall), &w->wall_cap,
                 w->wall_count + 1))
    return STEER_ENOMEM;
  wall s = {a, b};
  w->walls[w->wall_count++] = s;
  if (number) *number = w->wall_count;
  return STEER_OK;
}

size_t steer_world_obstacle_count(const steer_world *w) {
  return w->obstacle_count;
}
size_t steer_world_wall_count(const steer_world *w) { return w->wall_count; }

void steer_world_obstacle(const steer_world *w, size_t i, double out[3]) {
  out[0] = w->obstacles[i].x;
  out[1] = w->obstacles[i].y;
  out[2] = w->obstacles[i].radius;
}

void steer_world_wall(const steer_world *w, size_t i, double out[4]) {
  out[0] = w->walls[i].a.x;
  out[1] = w->walls[i].a.y;
  out[2] = w->walls[i].b.x;
  out[3] = w->walls[i].b.y;
}

void steer_world_clear_obstacles(steer_world *w) { w->obstacle_count = 0; }
void steer_world_clear_walls(steer_world *w) { w->wall_count = 0; }

static double cross(steer_vec2 a, steer_vec2 b) { return a.x * b.y - a.y * b.x; }

steer_vec2 steer_agent_avoid_obstacles(const steer_world *w, size_t i,
                                       double feeler_length) {
  return avoid_obstacles(w, i, feeler_length, 0);
}

steer_vec2 avoid_obstacles(const steer_world *w, size_t i,
                           double feeler_length, double extra) {
  steer_vec2 p = world_pos(w, i);
  steer_vec2 ahead = v2_forward(world_vel(w, i));
  steer_vec2 tip = v2_add(p, v2_scale(ahead, feeler_length));
  double best = INFINITY;
  steer_vec2 away = v2(0, 0);
  for (size_t k = 0; k < w->obstacle_count; k++) {
    const obstacle *o = &w->obstacles[k];
    steer_vec2 c = v2(o->x, o->y);
    steer_vec2 from_tip = steer_world_offset(w, c, tip); /* tip - centre */
    double reach = o->radius + w->radius[i] + extra;
    if (v2_len2(from_tip) >= reach * reach) continue;
    /* of the obstacles the feeler touches, the one nearest the agent */
    double d2 = v2_len2(steer_world_offset(w, p, c));
    if (d2 >= best) continue;
    best = d2;
    away = v2_normalize(from_tip);
    /* a tip exactly on the centre has no direction: turn left */
    if (away.x == 0 && away.y == 0) away = v2(-ahead.y, ahead.x);
  }
  return v2_scale(away, w->max_force[i]);
}

steer_vec2 steer_agent_avoid_walls(const steer_world *w, size_t i,
                                   double feeler_length) {
  steer_vec2 p = world_pos(w, i);
  steer_vec2 feeler = v2_scale(v2_forward(world_vel(w, i)), feeler_length);
  double nearest = INFINITY;
  steer_vec2 push = v2(0, 0);
  for (size_t k = 0; k < w->wall_count; k++) {
    const wall *s = &w->walls[k];
    steer_vec2 along = v2_sub(s->b, s->a);
    steer_vec2 to_a = steer_world_offset(w, p, s->a);
    double denom = cross(feeler, along);
    if (denom == 0) continue; /* parallel: the feeler cannot cross it */
    double at = cross(to_a, along) / denom;   /* along the feeler, 0..1 */
    double on = cross(to_a, feeler) / denom;  /* along the wall, 0..1 */
    if (at < 0 || at > 1 || on < 0 || on > 1 || at >= nearest) continue;
    nearest = at;
    /* not normalize(): a wall shorter than 1e-5 still has a normal (walls
       have nonzero length, so the division is safe) */
    double wall_len = v2_len(along);
    steer_vec2 normal = v2(-along.y / wall_len, along.x / wall_len);
    if (v2_dot(normal, feeler) > 0) normal = v2_scale(normal, -1);
    push = v2_scale(normal, (1 - at) * feeler_length);
  }
  return push;
}
