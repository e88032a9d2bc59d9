/* orca_agent.c - ORCA for one agent of a world: its nearest neighbors on
 * the grid, the half-planes they and the static geometry give, the safe
 * velocity, and the force the step integrates (docs/API.md section 18). Reads
 * only the world as it is: a step computes every agent's force from one
 * snapshot before anyone moves. */
#include "orca.h"

steer_orca steer_orca_default(void) {
  steer_orca o = {5, 2, 10, 10};
  return o;
}

/* ---- neighbors ---------------------------------------------------------- */

typedef struct neighbor {
  double d2;
  size_t j;
  steer_vec2 offset; /* from the agent, shortest on a torus */
} neighbor;

/* The order of nearness: distance, then index (ties broken the same way
   whatever order the grid hands the candidates in). */
static int nearer(double d2, size_t j, const neighbor *than) {
  return d2 < than->d2 || (d2 == than->d2 && j < than->j);
}

/* The `max` agents nearest agent i within radius, nearest first, kept in a
   small array by insertion. */
static size_t nearest_agents(const steer_world *w, size_t i, double radius,
                             size_t max, neighbor *out) {
  if (max == 0) return 0;
  steer_vec2 p = world_pos(w, i);
  double r2 = radius * radius;
  size_t n = 0;
  grid_cursor c;
  grid_cursor_init(&c, &w->grid, w->x, w->y, w->count, p.x, p.y, radius);
  for (int32_t jj; (jj = grid_cursor_next(&c)) >= 0;) {
    size_t j = (size_t)jj;
    if (j == i || !w->group_bit[j]) continue; /* ghosts are no neighbors */
    steer_vec2 d = steer_world_offset(w, p, world_pos(w, j));
    double d2 = v2_len2(d);
    if (d2 > r2 || (n == max && !nearer(d2, j, &out[n - 1]))) continue;
    size_t k = n < max ? n++ : n - 1;
    for (; k > 0 && nearer(d2, j, &out[k - 1]); k--) out[k] = out[k - 1];
    neighbor nb = {d2, j, d};
    out[k] = nb;
  }
  return n;
}

/* ---- the safe velocity -------------------------------------------------- */

#define MAX_SHAPES STEER_ORCA_MAX_NEIGHBORS
#define MAX_LINES (MAX_SHAPES + STEER_ORCA_MAX_NEIGHBORS)

steer_vec2 steer_agent_orca_velocity(const steer_world *w, size_t i,
                                     steer_vec2 preferred, const steer_orca *o,
                                     double dt) {
  orca_line lines[MAX_LINES], scratch[MAX_LINES];
  orca_shape shapes[MAX_SHAPES];
  neighbor near[STEER_ORCA_MAX_NEIGHBORS];
  double body = w->radius[i], speed = w->max_speed[i];
  steer_vec2 v = world_vel(w, i);
  size_t n = 0;
  /* static geometry first: its lines stay hard when the rest cannot */
  size_t shapes_n = orca_nearby_shapes(
      w, i, o->obstacle_time_horizon * speed, shapes, MAX_SHAPES);
  for (size_t k = 0; k < shapes_n; k++)
    lines[n++] = orca_shape_line(&shapes[k], body, v,
                                 o->obstacle_time_horizon, dt);
  size_t n_static = n;
  size_t m = nearest_agents(w, i, o->neighbor_radius, o->max_neighbors, near);
  for (size_t k = 0; k < m; k++) {
    size_t j = near[k].j;
    /* an agent that avoids too takes half; one that does not, none */
    double share = w->program[j] && w->program[j]->has_orca ? 0.5 : 1;
    lines[n++] = orca_agent_line(near[k].offset, v2_sub(v, world_vel(w, j)),
                                 v, body + w->radius[j], o->time_horizon, dt,
                                 share, i < j ? -1 : 1);
  }
  return orca_solve(lines, n, n_static, speed, preferred, scratch);
}

steer_vec2 orca_force(const steer_world *w, size_t i, steer_vec2 f,
                      const steer_orca *o, double dt) {
  if (!(dt > 0)) return f; /* no step to plan for (a:steering()) */
  steer_vec2 v = world_vel(w, i);
  steer_vec2 preferred = v2_clamp(
      v2_add(v, v2_scale(v2_clamp(f, w->max_force[i]), dt)), w->max_speed[i]);
  steer_vec2 dv = v2_sub(steer_agent_orca_velocity(w, i, preferred, o, dt), v);
  if (dv.x == 0 && dv.y == 0) return dv; /* 0 * (1 / dt) is NaN for tiny dt */
  steer_vec2 g = v2_scale(dv, 1 / dt);
  /* a change too sudden for a double: as large as max_force lets it be */
  if (!isfinite(g.x) || !isfinite(g.y))
    g = v2_scale(v2_direction(dv, v2_len(dv)), 1e300);
  /* the integration would clamp it too: a:steering() reports what it gets */
  return v2_clamp(g, w->max_force[i]);
}
