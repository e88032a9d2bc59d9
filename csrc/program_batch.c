/* program_batch.c - the forces of many agents running one weighted program
 * of simple entries (program.c's `batched`), computed entry by entry.
 *
 * program_force takes one agent through all of its entries, dispatching on
 * each; here one entry goes through all the agents of a batch, in a loop
 * with its parameters hoisted and its arithmetic inlined, so that the
 * square roots and divisions of consecutive agents overlap. Each agent
 * still adds its entries' weighted forces in program order, then clamps:
 * the same operations as program_force, so the same bits. */
#include "agent.h"
#include "navgrid.h"
#include "neighbors.h"
#include "program.h"
#include "program_batch.h"

/* Where the target of a point entry is now. */
static steer_vec2 entry_point(const steer_entry *e) {
  return e->target.kind == STEER_TARGET_SHARED
             ? steer_point_get(e->target.shared)
             : e->target.point;
}

/* Seek, arrive or flee at point t for every agent of the batch. */
static void point_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, double *fx, double *fy) {
  steer_vec2 t = entry_point(e);
  double weight = e->weight, slowing = e->slowing_radius;
  double panic = e->panic_radius, panic2 = panic * panic;
  steer_behavior b = e->behavior;
  for (int k = 0; k < n; k++) {
    size_t i = index[k];
    steer_vec2 p = world_pos(w, i), v = world_vel(w, i), f;
    /* the target as agent.c sees it: along the shortest offset */
    steer_vec2 seen = v2_add(p, geo_offset(&w->geo, p, t));
    double max_speed = w->max_speed[i], max_force = w->max_force[i];
    if (b == STEER_SEEK)
      f = v2_toward(v2_sub(seen, p), v, max_speed, max_force);
    else if (b == STEER_ARRIVE)
      f = v2_arrive(v2_sub(seen, p), v, max_speed, max_force, slowing);
    else if (panic >= 0 && v2_len2(v2_sub(seen, p)) > panic2)
      f = v2(0, 0); /* flee: the target is beyond the panic radius */
    else
      f = v2_toward(v2_sub(p, seen), v, max_speed, max_force);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

static void flow_forces(const steer_world *w, const steer_entry *e,
                        const size_t *index, int n, double *fx, double *fy) {
  if (e->target.kind != STEER_TARGET_FLOW) return; /* no field: no force */
  double px[BATCH_MAX], py[BATCH_MAX], vx[BATCH_MAX], vy[BATCH_MAX];
  double max_speed[BATCH_MAX], max_force[BATCH_MAX];
  steer_vec2 f[BATCH_MAX];
  for (int k = 0; k < n; k++) {
    size_t i = index[k];
    px[k] = w->x[i];
    py[k] = w->y[i];
    vx[k] = w->vx[i];
    vy[k] = w->vy[i];
    max_speed[k] = w->max_speed[i];
    max_force[k] = w->max_force[i];
  }
  flow_force_many(e->target.field, n, px, py, vx, vy, max_speed, max_force,
                  e->slowing_radius, f);
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    fx[k] += f[k].x * weight;
    fy[k] += f[k].y * weight;
  }
}

static void wander_forces(steer_world *w, const steer_entry *e,
                          const size_t *index, int n, double *fx, double *fy) {
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    steer_vec2 f;
    steer_agent_wander(w, index[k], &f); /* cannot fail: the ext exists */
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

static void flock_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, const double *sums,
                         size_t stride, double *fx, double *fy) {
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    const double *at = sums + k;
    flock_sums s = {{at[0], at[stride]},
                    {at[2 * stride], at[3 * stride]},
                    {at[4 * stride], at[5 * stride]},
                    (size_t)at[6 * stride], (size_t)at[7 * stride],
                    (size_t)at[8 * stride]};
    steer_vec2 f = flock_force(w, index[k], e, &s);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, steer_vec2 *out) {
  double fx[BATCH_MAX], fy[BATCH_MAX];
  STEER_ASSERT(p->batched && n <= BATCH_MAX && (sums || !p->flocking));
  for (int k = 0; k < n; k++) fx[k] = fy[k] = 0;
  for (size_t q = 0; q < p->count; q++) {
    const steer_entry *e = &p->entries[q];
    switch (e->behavior) {
    case STEER_SEEK: case STEER_ARRIVE: case STEER_FLEE:
      point_forces(w, e, index, n, fx, fy);
      break;
    case STEER_FLOW: flow_forces(w, e, index, n, fx, fy); break;
    case STEER_WANDER: wander_forces(w, e, index, n, fx, fy); break;
    default: flock_forces(w, e, index, n, sums, stride, fx, fy); break;
    }
  }
  for (int k = 0; k < n; k++)
    out[k] = v2_clamp(v2(fx[k], fy[k]), w->max_force[index[k]]);
}
