/* flow_steer.c - an agent's force along a flow field. */
#include "navgrid.h"
#include "vec.h"

steer_vec2 flow_force(const steer_flowfield *f, steer_vec2 p, steer_vec2 v,
                      double max_speed, double max_force,
                      double slowing_radius) {
  if (!f->reachable_any) return v2(0, 0);
  steer_vec2 dir;
  double dist;
  long cell;
  int kind = flow_sample(f, p, &dir, &dist, &cell);
  if (kind == 1 && dist == 0) { /* a goal cell: arrive at its goal */
    for (size_t q = 0; q < f->goal_count; q++)
      if (f->goal_cells[q] == cell)
        return steer_arrive(p, v, f->goals[q], max_speed, max_force,
                            slowing_radius);
  }
  double speed = max_speed;
  if (kind == 1 && slowing_radius > 0) {
    double d = dist * f->grid->cell_size;
    if (d < slowing_radius) speed = max_speed * (d / slowing_radius);
  }
  return v2_clamp(v2(dir.x * speed - v.x, dir.y * speed - v.y), max_force);
}

steer_vec2 steer_agent_flow(const steer_world *w, size_t i,
                            const steer_flowfield *f, double slowing_radius) {
  return flow_force(f, steer_agent_position(w, i), steer_agent_velocity(w, i),
                    steer_agent_get(w, i, STEER_MAX_SPEED),
                    steer_agent_get(w, i, STEER_MAX_FORCE), slowing_radius);
}
