/* step.c - world_step: every agent's program from one snapshot, then every
 * integration, then the agents sorted by cell. The force and integration
 * loops are split between the world's threads; each agent's work depends
 * only on the snapshot and its own state, so the results do not depend on
 * how many threads there are. */
#include "threads.h"
#include "vec.h"
#include "world.h"

/* below this many agents one thread beats waking the others */
#define THREADED_MIN_AGENTS 4096

typedef struct step_job {
  steer_world *w;
  double dt;
  int parts;
  size_t cut[STEER_MAX_THREADS + 1]; /* part k: buckets or agents [cut[k], cut[k+1]) */
  steer_stats stats[STEER_MAX_THREADS];
} step_job;

static void forces_part(void *ctx, int part) {
  step_job *job = ctx;
  steer_world *w = job->w;
  steer_stats *stats = &job->stats[part];
  size_t from = job->cut[part], to = job->cut[part + 1];
  if (w->grid.dense) { /* cell by cell: crowds share their candidates */
    for (size_t b = from; b < to; b++)
      crowd_cell_forces(w, b, job->dt, w->forces, stats);
    return;
  }
  for (size_t i = from; i < to; i++) {
    steer_vec2 f = {0, 0};
    if (w->program[i]) {
      f = program_force(w, i, job->dt, stats);
      stats->programs++;
    }
    w->forces[i] = f;
  }
}

static void integrate_part(void *ctx, int part) {
  step_job *job = ctx;
  steer_world *w = job->w;
  size_t n = w->count;
  size_t from = n * (size_t)part / (size_t)job->parts;
  size_t to = n * (size_t)(part + 1) / (size_t)job->parts;
  for (size_t i = from; i < to; i++) {
    steer_vec2 p = world_pos(w, i), v = world_vel(w, i);
    steer_integrate(&p, &v, w->forces[i], w->max_speed[i], w->max_force[i],
                    job->dt);
    if (w->grid.mode == GRID_CLAMP) world_stop_at_edges(w, &p, &v);
    p = world_contain(w, p);
    w->x[i] = p.x;
    w->y[i] = p.y;
    w->vx[i] = v.x;
    w->vy[i] = v.y;
  }
}

/* Splits the force loop into parts of about equal numbers of agents: by
   bucket on dense grids (whose agents are sorted by bucket), else by agent. */
static void cut_parts(step_job *job) {
  steer_world *w = job->w;
  size_t n = w->count, units = w->grid.dense ? w->grid.buckets : n;
  job->cut[0] = 0;
  for (int k = 1; k < job->parts; k++) {
    size_t want = n * (size_t)k / (size_t)job->parts, at = want;
    if (w->grid.dense) { /* the first bucket starting at or after `want` */
      size_t lo = job->cut[k - 1], hi = units;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->grid.starts[mid] < want) lo = mid + 1; else hi = mid;
      }
      at = lo;
    }
    job->cut[k] = at;
  }
  job->cut[job->parts] = units;
}

steer_status steer_world_step(steer_world *w, double dt) {
  size_t n = w->count;
  /* the only allocations happen before anything changes */
  if (world_grow(w, (void **)&w->forces, sizeof(steer_vec2), &w->forces_cap,
                 n ? n : 1))
    return STEER_ENOMEM;
  int parts = n >= THREADED_MIN_AGENTS ? w->def.threads : 1;
  if (parts > 1 && !w->pool && !(w->pool = pool_create(w->def.threads)))
    return STEER_ENOMEM;
  step_job job;
  job.w = w;
  job.dt = dt;
  job.parts = parts;
  for (int k = 0; k < parts; k++) {
    steer_stats zero = {0, 0, 0, 0};
    job.stats[k] = zero;
  }
  /* sorted agents make the step depend only on their order and state,
     whatever moved them since the last step */
  if (!w->grid_sorted) world_sort(w, w->forces);
  cut_parts(&job);
  if (parts > 1) {
    pool_run(w->pool, forces_part, &job);
    pool_run(w->pool, integrate_part, &job);
  } else {
    forces_part(&job, 0);
    integrate_part(&job, 0);
  }
  world_sort(w, w->forces); /* the forces are spent: their room is scratch */
  steer_stats total = {n, 0, 0, 0};
  for (int k = 0; k < parts; k++) {
    total.programs += job.stats[k].programs;
    total.candidates += job.stats[k].candidates;
    total.neighbors += job.stats[k].neighbors;
  }
  w->stats = total;
  return STEER_OK;
}

steer_stats steer_world_stats(const steer_world *w) { return w->stats; }
