/* orca_agent.c - ORCA for one agent of a world: its nearest neighbors on
 * the grid, the half-planes they and the static geometry give, the safe
 * velocity, and the force the step integrates (docs/API.md section 18). Reads
 * only the world as it is: a step computes every agent's force from one
 * snapshot before anyone moves. */
#include "no_slp.h" /* first: it applies to all that follows */
#include "nearest.h"
#include "orca.h"

steer_orca steer_orca_default(void) {
  steer_orca o = {5, 2, 10, 10, 0.02, 0};
  return o;
}

/* ---- the safe velocity -------------------------------------------------- */

#define MAX_SHAPES STEER_ORCA_MAX_NEIGHBORS
#define MAX_LINES (MAX_SHAPES + STEER_ORCA_MAX_NEIGHBORS)

/* The step calls this one directly: the exported name goes through the
   PLT, and its pair comes back through memory, a store-forwarding stall. */
static steer_vec2 orca_velocity(const steer_world *w, size_t i,
                                steer_vec2 preferred, const steer_orca *o,
                                double dt) {
  orca_line lines[MAX_LINES], scratch[MAX_LINES];
  orca_shape shapes[MAX_SHAPES];
  nearest_found near[STEER_ORCA_MAX_NEIGHBORS];
  double body = w->radius[i], speed = w->max_speed[i];
  steer_vec2 v = world_vel(w, i);
  size_t n = 0;
  /* static geometry first: its lines stay hard when the rest cannot (a
     world without any skips the call here, not in orca_nearby_shapes:
     the call itself cost 2% of a sparse crowd's step) */
  size_t shapes_n =
      w->geo.obstacle_count || w->geo.wall_count
          ? orca_nearby_shapes(w, i, o->obstacle_time_horizon * speed, shapes,
                               MAX_SHAPES)
          : 0;
  for (size_t k = 0; k < shapes_n; k++)
    orca_shape_line(&shapes[k], body, v, o->obstacle_time_horizon, dt,
                    &lines[n++]);
  size_t n_static = n;
  size_t m = nearest_found_agents(w, i, o->neighbor_radius, o->max_neighbors,
                                  1, near);
  orca_neighbors nb;
  steer_vec2 p = world_pos(w, i);
  /* the pair plans to keep a little more than touching apart: at exactly
     touching, rounding and the step's discreteness leave shallow overlaps */
  double keep = 1 + o->margin;
  /* the columns in registers: the stores into nb would have them read
     from the world again for every neighbor */
  const double *vx = w->vx, *vy = w->vy, *radius = w->radius;
  steer_program *const *program = w->program;
  for (size_t k = 0; k < m; k++) {
    size_t j = near[k].j;
    /* nearest_agents' offset, worked out here: no list of them between */
    steer_vec2 offset = world_offset(w, p, world_pos(w, j));
    nb.px[k] = offset.x;
    nb.py[k] = offset.y;
    nb.vx[k] = v.x - vx[j]; /* v2_sub(v, world_vel(w, j)) */
    nb.vy[k] = v.y - vy[j];
    nb.radius[k] = (body + radius[j]) * keep;
    /* an agent that avoids too takes half; one that does not, none */
    nb.share[k] = program[j] && program[j]->has_orca ? 0.5 : 1;
    nb.side[k] = i < j ? -1 : 1;
  }
  orca_agent_lines(&nb, m, v, o->time_horizon, dt, &lines[n], w->step_simd);
  return orca_solve(lines, n + m, n_static, speed, preferred, scratch);
}

steer_vec2 steer_agent_orca_velocity(const steer_world *w, size_t i,
                                     steer_vec2 preferred, const steer_orca *o,
                                     double dt) {
  return orca_velocity(w, i, preferred, o, dt);
}

steer_vec2 orca_force(const steer_world *w, size_t i, steer_vec2 f,
                      const steer_orca *o, double dt) {
  if (!(dt > 0)) return f; /* no step to plan for (a:steering()) */
  steer_vec2 v = world_vel(w, i);
  steer_vec2 preferred = v2_clamp(
      v2_add(v, v2_scale(v2_clamp(f, w->max_force[i]), dt)), w->max_speed[i]);
  return orca_force_from(w, i, preferred, o, dt);
}

steer_vec2 orca_force_from(const steer_world *w, size_t i,
                           steer_vec2 preferred, const steer_orca *o,
                           double dt) {
  steer_vec2 v = world_vel(w, i);
  steer_vec2 dv = v2_sub(orca_velocity(w, i, preferred, o, dt), v);
  if (dv.x == 0 && dv.y == 0) return dv; /* 0 * (1 / dt) is NaN for tiny dt */
  steer_vec2 g = v2_scale(dv, 1 / dt);
  /* a change too sudden for a double: as large as max_force lets it be */
  if (!isfinite(g.x) || !isfinite(g.y))
    g = v2_scale(v2_direction(dv, v2_len(dv)), 1e300);
  /* the integration would clamp it too: a:steering() reports what it gets */
  return v2_clamp(g, w->max_force[i]);
}
