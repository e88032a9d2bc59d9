/* step.c - world_step: every agent's program from one snapshot, then every
 * integration, then the grid. */
#include "vec.h"
#include "world.h"

steer_status steer_world_step(steer_world *w, double dt) {
  size_t n = w->count;
  /* the only allocation happens before anything changes */
  if (world_grow(w, (void **)&w->forces, sizeof(steer_vec2), &w->forces_cap,
                 n ? n : 1))
    return STEER_ENOMEM;
  steer_stats stats = {n, 0, 0, 0};
  /* sorted agents make the step depend only on their order and state,
     whatever moved them since the last step */
  if (!w->grid_sorted) world_sort(w, w->forces);
  if (w->grid.dense) { /* cell by cell: crowds share their candidates */
    for (size_t b = 0; b < w->grid.buckets; b++)
      crowd_cell_forces(w, b, dt, w->forces, &stats);
  } else {
    for (size_t i = 0; i < n; i++) {
      steer_vec2 f = {0, 0};
      if (w->program[i]) {
        f = program_force(w, i, dt, &stats);
        stats.programs++;
      }
      w->forces[i] = f;
    }
  }
  for (size_t i = 0; i < n; i++) {
    steer_vec2 p = world_pos(w, i), v = world_vel(w, i);
    steer_integrate(&p, &v, w->forces[i], w->max_speed[i], w->max_force[i],
                    dt);
    if (w->grid.mode == GRID_CLAMP) world_stop_at_edges(w, &p, &v);
    p = world_contain(w, p);
    w->x[i] = p.x;
    w->y[i] = p.y;
    w->vx[i] = v.x;
    w->vy[i] = v.y;
  }
  world_sort(w, w->forces); /* the forces are spent: their room is scratch */
  w->stats = stats;
  return STEER_OK;
}

steer_stats steer_world_stats(const steer_world *w) { return w->stats; }
