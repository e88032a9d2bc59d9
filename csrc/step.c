/* step.c - steer_world_step: every agent's program from one snapshot, then every
 * integration, then the agents sorted by cell.
 *
 * Two ways to honour "all forces from one snapshot":
 * - in general, every force goes to a buffer before anyone moves;
 * - streamed, when every program only looks at agents in neighboring grid
 *   rows (no agent targets, flocking radii within a cell) on a dense grid
 *   (or an unbounded world's box of cells, grid.h):
 *   rows are computed in order and a row moves as soon as the rows that
 *   read it are done, so only a few rows of forces are ever held.
 * The loops are split between the world's threads (bands of rows, or
 * ranges of agents); each agent's work depends only on the snapshot and its
 * own state, so results do not depend on the number of threads. */
#include <math.h>
#include <string.h>

#include "agent_program.h"
#include "collide.h"
#include "crowd.h"
#include "nearest.h"
#include "orca.h"
#include "orca_batch.h"
#include "program_batch.h"
#include "sort.h"
#include "threads.h"

/* below this many agents one thread beats waking the others (make bench: a
   second thread loses at 1,000-2,000 agents, breaks even at 4,000, gains
   from 10,000) */
#define THREADED_MIN_AGENTS 4096
/* an ORCA agent's neighbor search and linear program cost some ten to
   twenty flocking agents: crowds of them gain from more threads much
   earlier (make bench-crowd: circle 1,000 and 250) */
#define THREADED_MIN_ORCA 512

typedef struct band {
  size_t r0, r1;            /* rows [r0, r1) */
  steer_vec2 *first, *last; /* forces of rows r0 and r1 - 1: they move last */
  steer_vec2 *ring[2];      /* forces of the inner rows, two at a time */
} band;

typedef struct step_job {
  steer_world *w;
  double dt;
  int parts;
  size_t cut[STEER_MAX_THREADS + 1]; /* buffered: agents [cut[k], cut[k+1]) */
  band bands[STEER_MAX_THREADS];     /* streamed */
  steer_stats stats[STEER_MAX_THREADS];
} step_job;

/* ---- buffered ------------------------------------------------------------- */

/* Agents i .. while they run batched program p (at most BATCH_MAX), entry
   by entry; returns the index after them. */
static size_t batch_run(steer_world *w, size_t i, size_t to, double dt,
                        steer_stats *stats) {
  const steer_program *p = w->program[i];
  size_t index[BATCH_MAX];
  int n = 0;
  while (i < to && n < BATCH_MAX && w->program[i] == p) index[n++] = i++;
  batch_forces(w, p, index, n, NULL, 0, dt, w->forces + index[0], stats);
  stats->programs += (size_t)n;
  return i;
}

static void buffered_forces(void *ctx, int part) {
  step_job *job = ctx;
  steer_world *w = job->w;
  steer_stats *stats = &job->stats[part];
  for (size_t i = job->cut[part]; i < job->cut[part + 1];) {
    const steer_program *p = w->program[i];
    if (p && p->batched) {
      i = batch_run(w, i, job->cut[part + 1], job->dt, stats);
      continue;
    }
    if (p && p->has_orca) { /* a run of plain ORCA programs */
      size_t next = orca_batch_run(w, i, job->cut[part + 1], job->dt, stats);
      if (next > i) {
        i = next;
        continue;
      }
    }
    steer_vec2 f = {0, 0};
    if (i + 8 < w->count) program_prefetch(w, i + 8, 0);
    if (i + 4 < w->count) program_prefetch(w, i + 4, 1);
    if (p) {
      f = program_force(w, i, job->dt, NULL, stats);
      stats->programs++;
    }
    w->forces[i++] = f;
  }
}

static void buffered_moves(void *ctx, int part) {
  step_job *job = ctx;
  size_t from = job->cut[part], to = job->cut[part + 1];
  /* ORCA's settle flags as the forces decided them: the neighbors read
     them from the next step on (orca_agent.c) */
  if (to > from) /* a world without agents has no columns */
    memcpy(job->w->orca_settled + from, job->w->orca_settle_next + from,
           to - from);
  crowd_integrate(job->w, from, to, job->w->forces + from, job->dt);
}

/* ---- streamed ----------------------------------------------------------- */

static size_t row_start(const steer_world *w, size_t r) {
  return w->grid.starts[r * grid_sheet_cols(&w->grid)];
}

static void row_forces(step_job *job, int part, size_t r, steer_vec2 *out) {
  steer_world *w = job->w;
  crowd_row_forces(w, r, job->dt, out, row_start(w, r), &job->stats[part]);
}

static void row_moves(step_job *job, size_t r, const steer_vec2 *forces) {
  crowd_integrate(job->w, row_start(job->w, r), row_start(job->w, r + 1),
                  forces, job->dt);
}

/* Every force of the band's rows; the inner rows move as soon as the row
   after them is done (the rows before them were done earlier). */
static void streamed_forces(void *ctx, int part) {
  step_job *job = ctx;
  band *bd = &job->bands[part];
  for (size_t r = bd->r0; r < bd->r1; r++) {
    steer_vec2 *out = r == bd->r0       ? bd->first
                      : r == bd->r1 - 1 ? bd->last
                                        : bd->ring[r & 1];
    row_forces(job, part, r, out);
    if (r >= bd->r0 + 2) /* row r - 1 is inner: its readers are done */
      row_moves(job, r - 1, bd->ring[(r - 1) & 1]);
  }
}

/* The band's first and last rows, once every band has its forces. */
static void streamed_edges(void *ctx, int part) {
  step_job *job = ctx;
  band *bd = &job->bands[part];
  row_moves(job, bd->r0, bd->first);
  if (bd->r1 - 1 > bd->r0) row_moves(job, bd->r1 - 1, bd->last);
}

/* Can this step stream? Every program must be local, and its neighbor
   walks must be the sorted 3 x 3 walk (flock_fast_ok): the grid cursor's
   box can reach a second row (its rounding slack, on a row boundary),
   which has moved already. */
static int can_stream(const steer_world *w) {
  const steer_grid *g = &w->grid;
  if (!g->dense && g->box_w <= 0) return 0; /* rows: a dense grid's or a box */
  int narrow = g->mode == GRID_WRAP && (g->ncx < 4 || g->ncy < 4);
  for (size_t i = 0; i < w->count; i++) {
    const steer_program *p = w->program[i];
    if (p && (!p->local || p->reach * g->inv_y > 1 ||
              (p->reach > 0 && (narrow || p->reach * g->inv_x > 1))))
      return 0;
  }
  return 1;
}

/* Does no program read other agents (no flocking, no agent targets, no
   avoid_agents or ORCA)? Then no force depends on the agents' order, and
   sorting them by cell only keeps memory access local: such a world sorts
   every SORT_EVERY steps and otherwise relinks its grid's lists, which
   queries walk in any order. */
#define SORT_EVERY 8
/* How many threads this step uses: the world's, when there is work enough
   to pay for waking them. */
static int parts_for(const steer_world *w) {
  size_t n = w->count, orca = 0;
  if (w->def.threads <= 1 || n >= THREADED_MIN_AGENTS) return w->def.threads;
  if (n < THREADED_MIN_ORCA) return 1;
  for (size_t i = 0; i < n; i++) orca += w->program[i] && w->program[i]->has_orca;
  return orca >= THREADED_MIN_ORCA ? w->def.threads : 1;
}

static int neighbor_free(const steer_world *w) {
  for (size_t i = 0; i < w->count; i++) {
    const steer_program *p = w->program[i];
    if (p && (!p->local || p->reach > 0)) return 0;
  }
  return 1;
}

/* The rows' lengths in agents: the band's first and last rows, and the
   longest of its inner rows (two of which its ring holds at a time). */
static size_t row_length(const steer_world *w, size_t r) {
  return row_start(w, r + 1) - row_start(w, r);
}

static size_t inner_length(const steer_world *w, const band *bd) {
  size_t inner = 0;
  for (size_t q = bd->r0 + 1; q + 1 < bd->r1; q++)
    if (row_length(w, q) > inner) inner = row_length(w, q);
  return inner;
}

/* Splits the rows into bands of about equal numbers of agents; returns the
   forces buffer length they need. */
static size_t plan_bands(step_job *job) {
  steer_world *w = job->w;
  size_t rows = grid_sheet_rows(&w->grid), n = w->count, need = 0;
  if ((size_t)job->parts > rows) job->parts = (int)rows;
  size_t r = 0;
  for (int k = 0; k < job->parts; k++) {
    band *bd = &job->bands[k];
    bd->r0 = r;
    size_t want = n * (size_t)(k + 1) / (size_t)job->parts;
    size_t left = (size_t)(job->parts - k - 1); /* rows the others need */
    r++;
    while (r < rows - left && (k == job->parts - 1 || row_start(w, r) < want))
      r++;
    bd->r1 = r;
    need += row_length(w, bd->r0) + row_length(w, bd->r1 - 1) +
            2 * inner_length(w, bd);
  }
  return need;
}

/* Each band's buffers, one after the other in w->forces. */
static void place_bands(step_job *job) {
  steer_world *w = job->w;
  steer_vec2 *at = w->forces;
  for (int k = 0; k < job->parts; k++) {
    band *bd = &job->bands[k];
    size_t inner = inner_length(w, bd);
    bd->first = at;
    at += row_length(w, bd->r0);
    bd->last = at;
    at += row_length(w, bd->r1 - 1);
    bd->ring[0] = at;
    bd->ring[1] = at + inner;
    at += 2 * inner;
  }
}

/* ---- the step ----------------------------------------------------------- */

static void run(step_job *job, pool_fn fn) {
  if (job->parts > 1)
    pool_run(job->w->pool, fn, job, job->parts);
  else
    fn(job, 0);
}

static steer_status step_once(steer_world *w, double dt) {
  size_t n = w->count;
  step_job job;
  job.w = w;
  job.dt = dt;
  job.parts = parts_for(w);
  /* sorting first changes no state (only the agents' internal order) */
  if (world_grow(w, (void **)&w->order, sizeof(uint32_t), &w->order_cap,
                 n ? n : 1))
    return STEER_ENOMEM;
  int alone = neighbor_free(w);
  if (!w->grid.sorted && !alone) world_sort(w, w->order, NULL, 1);
  int streamed = n > 0 && !alone && can_stream(w);
  size_t need = streamed ? plan_bands(&job) : n;
  /* the last allocations, before any agent changes */
  if (world_grow(w, (void **)&w->forces, sizeof(steer_vec2), &w->forces_cap,
                 need ? need : 1))
    return STEER_ENOMEM;
  if (w->collides && collide_prepare(w)) return STEER_ENOMEM;
  if (!alone) nearest_prepare(w); /* ORCA's warm start, when it can */
  geometry_prepare(&w->geo); /* what the feelers asked for, before threads */
  if (job.parts > 1 && !w->pool && !(w->pool = pool_create(w->def.threads)))
    return STEER_ENOMEM;
  for (int k = 0; k < STEER_MAX_THREADS; k++) {
    steer_stats zero = {0, 0, 0, 0};
    job.stats[k] = zero;
  }
  /* chosen here, before the threads read it */
  w->step_simd = w->simd ? w->simd : crowd_simd_width();
  orca_cells_prepare(w);
  /* the pushers' near bodies, for a step that may need no pair search */
  w->push_near = NULL;
  if (w->pushes) orca_push_prepare(w, dt);
  if (streamed) {
    place_bands(&job);
    run(&job, streamed_forces);
    run(&job, streamed_edges);
  } else {
    for (int k = 0; k <= job.parts; k++)
      job.cut[k] = n * (size_t)k / (size_t)job.parts;
    run(&job, buffered_forces);
    run(&job, buffered_moves);
  }
  orca_cells_end(w); /* geometry may change before the next step */
  geometry_after_step(&w->geo);
  /* before the sort: the distances are by the agents' indices now */
  w->push_skip = w->push_near && orca_push_far_apart(w);
  w->push_near = NULL;
  /* a sparse dense grid: the sort mends its starts for less than a relink
     of every bucket costs (the choice depends on the world's bounds and
     crowd alone, so a restored snapshot makes the same one) */
  if (!alone || ++w->unsorted_steps >= SORT_EVERY ||
      (w->grid.dense && grid_sparse(&w->grid, n))) {
    world_sort(w, w->order, w->pool, job.parts);
  } else {
    grid_relink(&w->grid, w->x, w->y, n);
  }
  if (w->pushes && orca_push(w)) world_sort(w, w->order, w->pool, job.parts);
  if (w->collides && collide_pass(w)) world_sort(w, w->order, w->pool, job.parts);
  steer_stats total = {n, 0, 0, 0};
  for (int k = 0; k < job.parts; k++) {
    total.programs += job.stats[k].programs;
    total.candidates += job.stats[k].candidates;
    total.neighbors += job.stats[k].neighbors;
  }
  w->stats = total;
  world_radius_refresh(w); /* after removals, at a step's cost */
  return STEER_OK;
}

steer_stats steer_world_stats(const steer_world *w) { return w->stats; }

/* A long frame (a hitch, a window drag) taken as one step lets springs
   overshoot and bodies pass walls: max_step cuts it into equal steps. */
steer_status steer_world_step(steer_world *w, double dt) {
  double most = w->def.max_step;
  if (!(most > 0) || !(dt > most)) return step_once(w, dt);
  double parts = ceil(dt / most);
  int n = parts < STEER_MAX_SUBSTEPS ? (int)parts : STEER_MAX_SUBSTEPS;
  for (int k = 0; k < n; k++) {
    steer_status status = step_once(w, dt / n);
    if (status != STEER_OK) return status;
  }
  return STEER_OK;
}
