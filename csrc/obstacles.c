/* obstacles.c - the world's obstacles and walls (kept and indexed by
 * geometry.c) and avoiding them. */
#include "obstacles.h"
#include "path.h"

steer_status steer_world_add_obstacle(steer_world *w, double x, double y,
                                      double radius, size_t *number) {
  if (geometry_add_obstacle(&w->geo, x, y, radius, NULL)) return STEER_ENOMEM;
  if (number) *number = w->geo.obstacle_count;
  return STEER_OK;
}

steer_status steer_world_add_wall(steer_world *w, steer_vec2 a, steer_vec2 b,
                                  size_t *number) {
  if (!world_wall_fits(w, a, b)) return STEER_EINVAL;
  if (geometry_add_wall(&w->geo, a, b, NULL)) return STEER_ENOMEM;
  if (number) *number = w->geo.wall_count;
  return STEER_OK;
}

size_t steer_world_obstacle_count(const steer_world *w) {
  return w->geo.obstacle_count;
}
size_t steer_world_wall_count(const steer_world *w) {
  return w->geo.wall_count;
}

void steer_world_obstacle(const steer_world *w, size_t i, double out[3]) {
  out[0] = w->geo.obstacles[i].x;
  out[1] = w->geo.obstacles[i].y;
  out[2] = w->geo.obstacles[i].radius;
}

void steer_world_wall(const steer_world *w, size_t i, double out[4]) {
  out[0] = w->geo.walls[i].a.x;
  out[1] = w->geo.walls[i].a.y;
  out[2] = w->geo.walls[i].b.x;
  out[3] = w->geo.walls[i].b.y;
}

void steer_world_clear_obstacles(steer_world *w) {
  geometry_clear_obstacles(&w->geo);
}
void steer_world_clear_walls(steer_world *w) { geometry_clear_walls(&w->geo); }

steer_vec2 steer_agent_avoid_obstacles(const steer_world *w, size_t i,
                                       double feeler_length) {
  return avoid_obstacles(w, i, feeler_length, 0);
}

steer_vec2 avoid_obstacles(const steer_world *w, size_t i,
                           double feeler_length, double extra) {
  return geometry_avoid_obstacles(&w->geo, world_pos(w, i), world_vel(w, i),
                                  w->radius[i], extra, w->max_force[i],
                                  feeler_length);
}

steer_vec2 steer_agent_avoid_walls(const steer_world *w, size_t i,
                                   double feeler_length) {
  return geometry_avoid_walls(&w->geo, world_pos(w, i), world_vel(w, i),
                              feeler_length);
}

steer_vec2 steer_agent_avoid_walls_whiskers(const steer_world *w, size_t i,
                                            double feeler_length) {
  return geometry_avoid_walls_whiskers(&w->geo, world_pos(w, i),
                                       world_vel(w, i), feeler_length);
}

steer_vec2 contain_path(const steer_world *w, size_t i, const steer_path *path,
                        double feeler_length) {
  return geo_contain(world_pos(w, i), world_vel(w, i), path_points(path),
                     steer_path_count(path), path_region(path), feeler_length, w->max_force[i]);
}
