/* program_batch.c - the forces of many agents running one weighted or
 * priority program of simple entries (program.c's `batched`), computed
 * entry by entry.
 *
 * program_force takes one agent through all of its entries, dispatching on
 * each; here one entry goes through all the agents of a batch, in a loop
 * with its parameters hoisted and its arithmetic inlined, so that the
 * square roots and divisions of consecutive agents overlap: seek, arrive
 * and flow two agents at a time (pair_math.h, flow_steer.c), flocking
 * rules, wander and the clamp four (AVX, batch_quad.c) or two (SSE2) at a
 * time (batch_lanes.h); avoiding walls and obstacles and path entries agent
 * by agent, their program states fetched for the whole batch at once. Each
 * agent of a weighted program still adds its entries' weighted forces in
 * program order, then clamps (priority programs: program_priority.c): the
 * same operations as program_force, so the same bits. */
#include "agent.h"
#include "agent_program.h"
#include "pair_math.h"
#include "navgrid.h"
#include "neighbors.h"
#include "program.h"
#include "program_batch.h"
#include "states.h"
#include "trig.h"

/* Where the target of a point entry is now. */
static steer_vec2 entry_point(const steer_entry *e) {
  return e->target.kind == STEER_TARGET_SHARED
             ? steer_point_get(e->target.shared)
             : e->target.point;
}

#if defined(__SSE2__)
/* Seek or arrive at t for agents i0 and i1 at once, as point_forces' loop
   computes them; 0, writing nothing, when a lane needs a rare branch (a
   wrap beyond one lap, the target reached, hypot, a subnormal ratio). */
static int pair_point(const steer_world *w, const steer_entry *e, steer_vec2 t,
                      size_t i0, size_t i1, double *fx, double *fy) {
  __m128d rare = _mm_setzero_pd();
  __m128d px = _mm_set_pd(w->x[i1], w->x[i0]), py = _mm_set_pd(w->y[i1], w->y[i0]);
  __m128d dx = _mm_sub_pd(_mm_set1_pd(t.x), px), dy = _mm_sub_pd(_mm_set1_pd(t.y), py);
  if (w->geo.wrap) { /* geo_wrap_delta: within half the world, unchanged */
    __m128d hx = _mm_set1_pd(w->geo.width * 0.5), hy = _mm_set1_pd(w->geo.height * 0.5);
    __m128d sign = _mm_set1_pd(-0.0);
    rare = _mm_or_pd(_mm_cmpgt_pd(_mm_andnot_pd(sign, dx), hx),
                     _mm_cmpgt_pd(_mm_andnot_pd(sign, dy), hy));
  }
  /* seen = p + offset, then offset again as seek/arrive take it */
  __m128d tox = _mm_sub_pd(_mm_add_pd(px, dx), px);
  __m128d toy = _mm_sub_pd(_mm_add_pd(py, dy), py);
  __m128d ms = _mm_set_pd(w->max_speed[i1], w->max_speed[i0]), speed = ms;
  __m128d dirx = tox, diry = toy, l2;
  pair_normalize(&dirx, &diry, &l2, &rare);
  if (e->behavior == STEER_ARRIVE) { /* v2_arrive: slower within the radius */
    __m128d sr = _mm_set1_pd(e->slowing_radius), d = _mm_sqrt_pd(l2);
    __m128d near = _mm_cmplt_pd(d, sr);
    if (_mm_movemask_pd(near))
      speed = pair_select(near, _mm_mul_pd(ms, _mm_div_pd(d, sr)), ms);
  }
  __m128d f_x = _mm_sub_pd(_mm_mul_pd(dirx, speed), _mm_set_pd(w->vx[i1], w->vx[i0]));
  __m128d f_y = _mm_sub_pd(_mm_mul_pd(diry, speed), _mm_set_pd(w->vy[i1], w->vy[i0]));
  pair_clamp(&f_x, &f_y, _mm_set_pd(w->max_force[i1], w->max_force[i0]), &rare);
  if (_mm_movemask_pd(rare)) return 0;
  __m128d weight = _mm_set1_pd(e->weight);
  _mm_storeu_pd(fx, _mm_add_pd(_mm_loadu_pd(fx), _mm_mul_pd(f_x, weight)));
  _mm_storeu_pd(fy, _mm_add_pd(_mm_loadu_pd(fy), _mm_mul_pd(f_y, weight)));
  return 1;
}
#endif

/* Seek, arrive or flee at point t for agent i, added with its weight. */
static void point_one(const steer_world *w, const steer_entry *e, steer_vec2 t,
                      size_t i, double *fx, double *fy) {
  steer_vec2 p = world_pos(w, i), v = world_vel(w, i), f;
  /* the target as agent.c sees it: along the shortest offset */
  steer_vec2 seen = v2_add(p, geo_offset(&w->geo, p, t));
  double max_speed = w->max_speed[i], max_force = w->max_force[i];
  if (e->behavior == STEER_SEEK)
    f = v2_toward(v2_sub(seen, p), v, max_speed, max_force);
  else if (e->behavior == STEER_ARRIVE)
    f = v2_arrive(v2_sub(seen, p), v, max_speed, max_force, e->slowing_radius);
  else if (v2_beyond(p, seen, e->panic_radius))
    f = v2(0, 0); /* flee: the target is beyond the panic radius */
  else
    f = v2_toward(v2_sub(p, seen), v, max_speed, max_force);
  *fx += f.x * e->weight;
  *fy += f.y * e->weight;
}

/* Seek, arrive or flee at the entry's point for every agent of the batch:
   seek and arrive two at a time where they can. */
static void point_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, double *fx, double *fy) {
  steer_vec2 t = entry_point(e);
  int k = 0;
#if defined(__SSE2__)
  if (e->behavior != STEER_FLEE && w->step_simd >= 2)
    for (; k + 1 < n; k += 2)
      if (!pair_point(w, e, t, index[k], index[k + 1], fx + k, fy + k)) {
        point_one(w, e, t, index[k], fx + k, fy + k);
        point_one(w, e, t, index[k + 1], fx + k + 1, fy + k + 1);
      }
#endif
  for (; k < n; k++) point_one(w, e, t, index[k], fx + k, fy + k);
}

static void flow_forces(const steer_world *w, const steer_entry *e,
                        const size_t *index, int n, double *fx, double *fy) {
  /* no field: no force (and no agents: nothing to read) */
  if (e->target.kind != STEER_TARGET_FLOW || n <= 0) return;
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


#if defined(__SSE2__)
/* batch_lanes.h in two SSE2 lanes */
#define BATCH_FLOCK pair_flock
#define BATCH_WANDER pair_wander
#define BATCH_CLAMP pair_clamp_all
#include "lanes_sse2.h"
#include "batch_lanes.h"

/* The batch's columns from agent k on. */
static batch_agents batch_from(const batch_agents *a, int k) {
  batch_agents r;
  r.vx = a->vx + k;
  r.vy = a->vy + k;
  r.max_speed = a->max_speed + k;
  r.max_force = a->max_force + k;
  return r;
}
#endif

/* The lanes take the batch's agents (columns `cols`, k = 0) four at a
   time (AVX), the rest two at a time (SSE2); k gets how many they did, the
   scalar code does the rest. QUAD and PAIR call the lanes from agent k,
   with `rest` the columns from there. */
#if defined(__SSE2__)
#define LANES_RUN(w, cols, n, k, rest, QUAD, PAIR)                           \
  do {                                                                       \
    batch_agents rest;                                                       \
    if ((w)->step_simd >= 4) {                                               \
      rest = batch_from(cols, k);                                            \
      k += (QUAD);                                                           \
    }                                                                        \
    if ((w)->step_simd >= 2 && k + 1 < (n)) {                                \
      rest = batch_from(cols, k);                                            \
      k += (PAIR);                                                           \
    }                                                                        \
  } while (0)
#else
#define LANES_RUN(w, cols, n, k, rest, QUAD, PAIR) ((void)(cols))
#endif

/* Wander for every agent of the batch: the angles advanced agent by agent
   (the batch before asked for their cold state), then the forces in
   lanes. */
static void wander_forces(steer_world *w, const steer_entry *e,
                          const size_t *index, int n, const batch_agents *a,
                          double *fx, double *fy) {
  double angle[BATCH_MAX], distance[BATCH_MAX], radius[BATCH_MAX];
  double weight = e->weight;
  /* the next batch is most likely the agents that follow in the sorted
     order: their wander state is asked for here, spread over this loop,
     and on its way while their walks run */
  size_t next = index[n - 1] + 1;
  for (int k = 0; k < n; k++) {
    if (next + (size_t)k < w->count && w->ext[next + k])
      ext_prefetch(w->ext[next + k]);
    agent_ext *x = w->ext[index[k]]; /* exists: the program needs it */
    angle[k] = wander_advance(x);
    distance[k] = x->wander_distance;
    radius[k] = x->wander_radius;
  }
  int k = 0;
  LANES_RUN(w, a, n, k, rest,
            batch_quad_wander(&rest, angle, distance, radius, n, weight, fx,
                              fy),
            pair_wander(&rest, angle + k, distance + k, radius + k, n - k,
                        weight, fx + k, fy + k));
  for (; k < n; k++) {
    steer_vec2 f = steer_wander_force(v2(a->vx[k], a->vy[k]), angle[k],
                                      distance[k], radius[k]);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

static void flock_forces(const steer_world *w, const steer_entry *e,
                         const size_t *index, int n, const double *sums,
                         size_t stride, const batch_agents *a, double *fx,
                         double *fy) {
  int k = 0;
  LANES_RUN(w, a, n, k, rest,
            batch_quad_flock(w, e, index, n, sums, stride, &rest, fx, fy),
            pair_flock(w, e, index + k, n - k, sums + k, stride, &rest, fx + k,
                       fy + k));
  for (; k < n; k++) {
    flock_sums s = flock_sums_strided(sums + k, stride);
    steer_vec2 f = flock_force(w, index[k], e, &s);
    fx[k] += f.x * e->weight;
    fy[k] += f.y * e->weight;
  }
}

/* The extra reach entry e's feeler gets from its state es (hysteresis:
   longer while it was pushing), as entry_avoid takes it. */
static double avoid_extra(const steer_entry *e, const entry_state *es) {
  return e->hysteresis != 0 && es && es->active ? e->hysteresis : 0;
}

/* Avoiding walls or obstacles: the batch's feelers at once
   (geometry_avoid_walls_many, or _whiskers_many: three feelers an agent),
   with entry_avoid's lengths and extra reach,
   and its states written as it writes them. */
static void avoid_forces(const steer_world *w, const steer_entry *e, size_t q,
                         const batch_view *v, double *fx, double *fy) {
  steer_vec2 p[BATCH_MAX], vel[BATCH_MAX], f[BATCH_MAX];
  double reach[BATCH_MAX], radius[BATCH_MAX], max_force[BATCH_MAX];
  int n = v->n, walls = e->behavior == STEER_AVOID_WALLS;
  for (int k = 0; k < n; k++) {
    size_t i = v->index[k];
    entry_state *es = v->states ? &v->states[k]->entries[q] : NULL;
    /* without hysteresis the state is only written, as entry_avoid does */
    double extra = avoid_extra(e, es);
    p[k] = world_pos(w, i);
    vel[k] = world_vel(w, i);
    if (walls) {
      reach[k] = e->feeler_length + extra;
    } else {
      reach[k] = extra;
      radius[k] = w->radius[i];
      max_force[k] = w->max_force[i];
    }
  }
  if (walls && e->whiskers)
    geometry_avoid_walls_whiskers_many(&w->geo, n, p, vel, reach, f);
  else if (walls)
    geometry_avoid_walls_many(&w->geo, n, p, vel, reach, f);
  else
    geometry_avoid_obstacles_many(&w->geo, n, p, vel, radius, reach,
                                  max_force, e->feeler_length, f);
  double weight = e->weight;
  for (int k = 0; k < n; k++) {
    if (v->states) v->states[k]->entries[q].active = f[k].x != 0 || f[k].y != 0;
    fx[k] += f[k].x * weight;
    fy[k] += f[k].y * weight;
  }
}

int batch_avoid_pair(const steer_world *w, const steer_program *p, size_t q,
                     const batch_view *v, double *fx, double *fy,
                     char *felt) {
  const steer_entry *ew = &p->entries[q], *eo = &p->entries[q + 1];
  steer_vec2 pos[BATCH_MAX], vel[BATCH_MAX], fw[BATCH_MAX], fo[BATCH_MAX];
  double reach[BATCH_MAX], radius[BATCH_MAX], extra[BATCH_MAX];
  double max_force[BATCH_MAX];
  int n = v->n;
  if (n <= 0) return 1;
  for (int k = 0; k < n; k++) {
    size_t i = v->index[k];
    program_state *s = v->states ? v->states[k] : NULL;
    pos[k] = world_pos(w, i);
    vel[k] = world_vel(w, i);
    reach[k] = ew->feeler_length + avoid_extra(ew, s ? &s->entries[q] : NULL);
    extra[k] = avoid_extra(eo, s ? &s->entries[q + 1] : NULL);
    radius[k] = w->radius[i];
    max_force[k] = w->max_force[i];
  }
  /* entry q speaks (priority_speaks) when its weighted push is longer
     than 0.01: the others consult entry q + 1 */
  if (!geometry_avoid_walls_obstacles_many(
          &w->geo, n, pos, vel, reach, ew->weight, PRIORITY_LOUD, radius,
          extra, max_force, eo->feeler_length, fw, fo, felt))
    return 0;
  /* the agents that consulted the obstacles listed without a branch
     (where walls are dense, whether one pushed is not predictable) */
  int quiet[BATCH_MAX], nq = 0;
  for (int k = 0; k < n; k++) {
    program_state *s = v->states ? v->states[k] : NULL;
    /* | not ||: whether a wall pushed is not predictable */
    if (s) s->entries[q].active = (fw[k].x != 0) | (fw[k].y != 0);
    fx[k] = fw[k].x * ew->weight; /* -0 + x is x: stored, not added */
    fy[k] = fw[k].y * ew->weight;
    STEER_ASSERT(felt[k] == !priority_speaks(v2(fx[k], fy[k])));
    quiet[nq] = k;
    nq += felt[k] != 0;
  }
  for (int j = 0; j < nq; j++) {
    int k = quiet[j];
    program_state *s = v->states ? v->states[k] : NULL;
    if (s) s->entries[q + 1].active = (fo[k].x != 0) | (fo[k].y != 0);
    fx[k] = fo[k].x * eo->weight; /* entry q was quiet: q + 1 decides */
    fy[k] = fo[k].y * eo->weight;
  }
  return 1;
}

/* Path entries: agent by agent, as program_force computes them
   (agent_program.h), from the states the batch fetched at once. */
static void state_forces(steer_world *w, const steer_entry *e, size_t q,
                         const batch_view *v, double *fx, double *fy) {
  double weight = e->weight;
  for (int k = 0; k < v->n; k++) {
    size_t i = v->index[k];
    steer_vec2 f = entry_path(w, i, e, &v->states[k]->entries[q]);
    fx[k] += f.x * weight;
    fy[k] += f.y * weight;
  }
}

void batch_entry(steer_world *w, const steer_program *p, size_t q,
                 const batch_view *v, double *fx, double *fy) {
  const steer_entry *e = &p->entries[q];
  switch (e->behavior) {
  case STEER_SEEK: case STEER_ARRIVE: case STEER_FOLLOW: case STEER_FLEE:
    if (e->target.kind == STEER_TARGET_PATH)
      state_forces(w, e, q, v, fx, fy);
    else
      point_forces(w, e, v->index, v->n, fx, fy);
    break;
  case STEER_FLOW: flow_forces(w, e, v->index, v->n, fx, fy); break;
  case STEER_WANDER: wander_forces(w, e, v->index, v->n, v->a, fx, fy); break;
  case STEER_AVOID_WALLS: case STEER_AVOID_OBSTACLES:
    avoid_forces(w, e, q, v, fx, fy);
    break;
  default:
    flock_forces(w, e, v->index, v->n, v->sums, v->stride, v->a, fx, fy);
    break;
  }
}

void batch_gather(const steer_world *w, const size_t *index, int n,
                  batch_agents *a, double copy[4][BATCH_MAX]) {
  size_t first = index[0];
  int run = index[n - 1] - first == (size_t)(n - 1);
  for (int k = 1; k < n && run; k++) run = index[k] == first + (size_t)k;
  if (run) {
    a->vx = w->vx + first;
    a->vy = w->vy + first;
    a->max_speed = w->max_speed + first;
    a->max_force = w->max_force + first;
    return;
  }
  for (int k = 0; k < n; k++) {
    size_t i = index[k];
    copy[0][k] = w->vx[i];
    copy[1][k] = w->vy[i];
    copy[2][k] = w->max_speed[i];
    copy[3][k] = w->max_force[i];
  }
  a->vx = copy[0];
  a->vy = copy[1];
  a->max_speed = copy[2];
  a->max_force = copy[3];
}

void batch_walk(const steer_world *w, const steer_program *p, int fast,
                size_t i, double *at, size_t stride, steer_stats *stats) {
  flock_sums s = {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0};
  flock_gather(w, i, &p->flock, fast, &s, stats);
  flock_sums_store(&s, at, stride);
}

/* Asks for the cache lines of bytes [p, p + size). */
static void prefetch_lines(const void *p, size_t size) {
#if defined(__GNUC__)
  const char *c = p;
  for (size_t at = 0; at < size; at += 64) __builtin_prefetch(c + at);
  __builtin_prefetch(c + size - 1);
#else
  (void)p, (void)size;
#endif
}

/* The agents' program states (slots of the world's slab, in agent order),
   asked for for the whole batch at once before the first is read. */
static void gather_states(const steer_world *w, const steer_program *p,
                          const size_t *index, int n,
                          program_state **states) {
  /* the state of a long program: its first lines (header, first entries) */
  size_t bytes = state_bytes(p);
  if (bytes > 256) bytes = 256;
  for (int k = 0; k < n; k++) {
    states[k] = state_slot(w, index[k]); /* the program needs them */
    prefetch_lines(states[k], bytes);
  }
}

void batch_forces(steer_world *w, const steer_program *p, const size_t *index,
                  int n, const double *sums, size_t stride, double dt,
                  steer_vec2 *out, steer_stats *stats) {
  double fx[BATCH_MAX], fy[BATCH_MAX], copy[4][BATCH_MAX];
  double walked[9 * BATCH_MAX];
  program_state *states[BATCH_MAX];
  batch_agents a;
  STEER_ASSERT(p->batched && n <= BATCH_MAX);
  batch_view v = {index, n, &a, NULL, sums, stride};
  if (p->needs_state) {
    gather_states(w, p, index, n, states);
    v.states = states;
  }
  batch_gather(w, index, n, &a, copy);
  if (p->combine == STEER_PRIORITY) {
    batch_priority(w, p, &v, dt, out, stats);
    return;
  }
  if (p->flocking && !sums) { /* every agent reaches the flocking entries */
    int fast = flock_fast_ok(w, &p->flock);
    for (int k = 0; k < n; k++)
      batch_walk(w, p, fast, index[k], walked + k, BATCH_MAX, stats);
    v.sums = walked;
    v.stride = BATCH_MAX;
  }
  for (int k = 0; k < n; k++) fx[k] = fy[k] = 0;
  for (size_t q = 0; q < p->count; q++) batch_entry(w, p, q, &v, fx, fy);
  int k = 0;
  LANES_RUN(w, &a, n, k, rest, batch_quad_clamp(&rest, n, fx, fy, out),
            pair_clamp_all(&rest, n - k, fx + k, fy + k, out + k));
  for (; k < n; k++) out[k] = v2_clamp(v2(fx[k], fy[k]), a.max_force[k]);
}
