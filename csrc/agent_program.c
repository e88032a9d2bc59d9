/* agent_program.c - the program an agent runs: attaching it, changing its
 * entries, and combining them into one force (docs/API.md section 4). */
#include "agent.h"
#include "agent_program.h"
#include "corridor.h"
#include "navgrid.h"
#include "formation.h"
#include "neighbors.h"
#include "obstacles.h"
#include "orientation.h"
#include "tactics.h"
#include "orca.h"
#include "states.h"

/* Allocates what agent i lacks to run program p: its cold state (*ext_out,
   NULL when it has one or p needs none) and room for a fresh program state
   (*state_out: p needs one). On failure nothing is allocated. */
static steer_status prepare(steer_world *w, size_t i, const steer_program *p,
                            agent_ext **ext_out, int *state_out) {
  *ext_out = NULL;
  *state_out = p && p->needs_state;
  if (*state_out && states_reserve(w, w->capacity, state_bytes(p)))
    return STEER_ENOMEM;
  if (p && p->needs_ext && !w->ext[i] && !(*ext_out = ext_create(w, i)))
    return STEER_ENOMEM;
  return STEER_OK;
}

steer_status steer_agent_set_program(steer_world *w, size_t i,
                                     steer_program *p) {
  agent_ext *fresh;
  int s;
  if (formation_reserve(p, 1) || prepare(w, i, p, &fresh, &s))
    return STEER_ENOMEM;
  formation_program_switch(w, i, w->program[i], p);
  if (fresh) w->ext[i] = fresh;
  if (s) /* needs_state implies needs_ext: prepare made the ext */
    states_start(w, i, p);
  else
    states_clear(w, i);
  if (p) steer_program_retain(p);
  steer_program_release(w->program[i]);
  w->program[i] = p;
  w->orca_clock[i] = 0; /* a new program's standstill starts afresh */
  w->orca_settled[i] = w->orca_settle_next[i] = 0; /* and its settling */
  if (p && p->turns) w->bodies = 1; /* body_moves checks from now on */
  if (p && p->pushes) w->pushes = 1; /* orca_push looks from now on */
  if (p && p->collide) w->collides = 1; /* collide.c looks from now on */
  program_state_begin(w, i);
  return STEER_OK;
}

steer_program *steer_agent_program(const steer_world *w, size_t i) {
  return w->program[i];
}

/* Makes agent i's program its own (copy on write) so that an entry can be
   changed; the agent's state is kept, since the layout stays the same. */
static steer_program *own_program(steer_world *w, size_t i) {
  steer_program *p = w->program[i];
  if (p->refs == 1) return p;
  /* the copy is the world's: made (or refused) by its allocator */
  steer_program *copy = program_make(&w->alloc, p->combine, p->smoothing,
                                     p->hold, p->entries, p->count);
  if (!copy) return NULL;
  if (p->turn != STEER_TURN_NONE) steer_program_set_turn(copy, p->turn);
  steer_program_set_orca(copy, steer_program_orca(p)); /* checked already */
  steer_program_set_collide(copy, p->collide);
  steer_program_release(p);
  w->program[i] = copy;
  return copy;
}

steer_status steer_agent_set_target(steer_world *w, size_t i, size_t k,
                                    steer_target t) {
  steer_program *p = w->program[i];
  if (!p || k >= p->count) return STEER_EINVAL;
  /* a target that needs bookkeeping the program lacked gets it first */
  steer_entry changed = p->entries[k];
  changed.target = t;
  if (!program_entry_keepable(&changed)) return STEER_EINVAL;
  agent_ext *fresh = NULL;
  int state = 0;
  if (!p->needs_state && program_entry_needs_state(&changed) &&
      !world_state(w, i)) {
    steer_program probe = *p;
    probe.needs_state = probe.needs_ext = 1;
    if (prepare(w, i, &probe, &fresh, &state)) return STEER_ENOMEM;
  }
  if (t.kind == STEER_TARGET_FORMATION && formation_make_room(t.formation)) {
    ext_free(w, fresh);
    return STEER_ENOMEM;
  }
  steer_program *own = own_program(w, i);
  if (!own) {
    ext_free(w, fresh);
    return STEER_ENOMEM;
  }
  target_retain(&t);
  steer_target before = own->entries[k].target;
  own->entries[k].target = t;
  formation_retarget(w, i, &before); /* before it may be released */
  target_release(&before);
  program_analyze(own);
  if (fresh) w->ext[i] = fresh;
  if (state) states_start(w, i, own);
  program_state *s = world_state(w, i);
  if (s)
    s->entries[k].waypoint =
        t.kind == STEER_TARGET_PATH
            ? path_start(w, i, t.path, own->entries[k].start)
            : 0;
  return STEER_OK;
}

steer_status steer_agent_set_other(steer_world *w, size_t i, size_t k,
                                   steer_target t) {
  steer_program *p = w->program[i];
  if (!p || k >= p->count ||
      (t.kind != STEER_TARGET_AGENT && t.kind != STEER_TARGET_POINT &&
       t.kind != STEER_TARGET_SHARED))
    return STEER_EINVAL;
  if (!(p = own_program(w, i))) return STEER_ENOMEM;
  target_retain(&t);
  target_release(&p->entries[k].other);
  p->entries[k].other = t;
  program_analyze(p);
  return STEER_OK;
}

steer_status steer_agent_set_weight(steer_world *w, size_t i, size_t k,
                                    double weight) {
  steer_program *p = w->program[i];
  if (!p || k >= p->count) return STEER_EINVAL;
  if (p->entries[k].weight == weight) return STEER_OK;
  if (!(p = own_program(w, i))) return STEER_ENOMEM;
  p->entries[k].weight = weight;
  return STEER_OK;
}

long steer_agent_active_entry(const steer_world *w, size_t i) {
  const program_state *s = world_state(w, i);
  return s ? s->winner : -1;
}

/* ---- forces ------------------------------------------------------------- */

static const steer_vec2 zero = {0, 0};

/* The point a targeted entry aims at now; 0 when its agent is gone. */
static int target_point(const steer_world *w, const steer_target *t,
                        steer_vec2 *point, long *agent) {
  *agent = -1;
  if (t->kind == STEER_TARGET_POINT) {
    *point = t->point;
    return 1;
  }
  if (t->kind == STEER_TARGET_SHARED) {
    *point = steer_point_get(t->shared);
    return 1;
  }
  if (t->kind == STEER_TARGET_AGENT) {
    *agent = steer_world_index(w, t->agent);
    if (*agent < 0) return 0;
    *point = world_pos(w, (size_t)*agent);
    return 1;
  }
  return 0;
}

/* The flocking sums of one agent's program, gathered at most once. */
typedef struct flock_walk {
  int done;
  flock_sums sums;
} flock_walk;

static steer_vec2 flocking_force(steer_world *w, size_t i,
                                 const steer_program *p, const steer_entry *e,
                                 flock_walk *walk, steer_stats *stats) {
  if (!p->fused) /* several entries of one rule: a walk for each */
    return flock_entry_alone(w, i, e, stats);
  if (!walk->done)
    flock_gather(w, i, &p->flock, flock_fast_ok(w, &p->flock), &walk->sums,
                 stats);
  walk->done = 1;
  return flock_force(w, i, e, &walk->sums);
}

steer_vec2 entry_avoid(steer_world *w, size_t i, const steer_entry *e,
                       entry_state *es) {
  /* without hysteresis the state is only written (reading it first would
     wait for memory) */
  double extra = e->hysteresis != 0 && es && es->active ? e->hysteresis : 0;
  steer_vec2 f;
  if (e->behavior != STEER_AVOID_WALLS)
    f = avoid_obstacles(w, i, e->feeler_length, extra);
  else if (e->whiskers)
    f = steer_agent_avoid_walls_whiskers(w, i, e->feeler_length + extra);
  else
    f = steer_agent_avoid_walls(w, i, e->feeler_length + extra);
  if (es) es->active = f.x != 0 || f.y != 0;
  return f;
}

steer_vec2 entry_path(const steer_world *w, size_t i, const steer_entry *e,
                      entry_state *es) {
  size_t wp = es->waypoint;
  steer_vec2 f;
  if (e->path_radius >= 0)
    f = corridor_force(w, i, e->target.path, &wp, e->path_radius,
                       e->look_ahead, e->slowing_radius);
  else
    f = path_force(w, i, e->target.path, &wp, e->arrival_radius,
                   e->slowing_radius, e->behavior != STEER_SEEK);
  es->waypoint = (uint32_t)wp;
  return f;
}

/* The unweighted force of entry k for agent i. */
static steer_vec2 entry_force(steer_world *w, size_t i, const steer_entry *e,
                              entry_state *es, flock_walk *walk,
                              steer_stats *stats) {
  steer_vec2 t, f;
  long other;
  switch (e->behavior) {
  case STEER_SEEK:
  case STEER_ARRIVE:
  case STEER_FOLLOW:
    if (e->target.kind == STEER_TARGET_PATH) return entry_path(w, i, e, es);
    if (!target_point(w, &e->target, &t, &other)) return zero;
    if (e->behavior == STEER_SEEK) return steer_agent_seek(w, i, t);
    return agent_arrive(w, i, t, e->slowing_radius);
  case STEER_FLEE:
    if (!target_point(w, &e->target, &t, &other)) return zero;
    return steer_agent_flee(w, i, t, e->panic_radius);
  case STEER_PURSUE:
  case STEER_EVADE:
    if (!target_point(w, &e->target, &t, &other) || other < 0) return zero;
    return e->behavior == STEER_PURSUE
               ? steer_agent_pursue(w, i, (size_t)other)
               : steer_agent_evade(w, i, (size_t)other, e->panic_radius);
  case STEER_WANDER:
    steer_agent_wander(w, i, &f); /* cannot fail: the ext exists */
    return f;
  case STEER_AVOID_OBSTACLES:
  case STEER_AVOID_WALLS:
    return entry_avoid(w, i, e, es);
  case STEER_SEPARATION:
  case STEER_ALIGNMENT:
  case STEER_COHESION:
    return flocking_force(w, i, w->program[i], e, walk, stats);
  case STEER_FLOW:
    if (e->target.kind != STEER_TARGET_FLOW) return zero;
    return flow_force(e->target.field, world_pos(w, i), world_vel(w, i),
                      w->max_speed[i], w->max_force[i], e->slowing_radius);
  case STEER_AVOID_AGENTS: {
    neighbor_filter f;
    neighbor_filter_init(&f, e->groups, e->fov,
                         w->ext[i] ? w->ext[i]->body.angle : 0);
    return avoid_agents_filtered(w, i, e->time_horizon, e->radius,
                                 e->personal_space, &f);
  }
  case STEER_CONTAIN:
    if (e->target.kind != STEER_TARGET_PATH) return zero;
    return contain_path(w, i, e->target.path, e->feeler_length);
  case STEER_FACE: case STEER_LOOK_WHERE_GOING: case STEER_MATCH_ORIENTATION:
    return zero; /* angular entries: entry_angular */
  default: return tactics_entry_force(w, i, e); /* tactics.c */
  }
}

/* The angular acceleration that brakes agent i's spin: the turn toward its
   own angle (face's law for a target at the agent's position). */
static double brake(const steer_world *w, size_t i, double dt) {
  return orient_toward(w, i, body_of(w, i).angle, dt);
}

/* The angular acceleration of angular entry e for agent i; an entry whose
   target agent is gone (or, from C, a match_orientation entry aimed at no
   agent) brakes the spin rather than keep it. */
static double entry_angular(const steer_world *w, size_t i,
                            const steer_entry *e, double dt) {
  steer_vec2 t;
  long other;
  switch (e->behavior) {
  case STEER_FACE:
    if (!target_point(w, &e->target, &t, &other)) return brake(w, i, dt);
    return steer_agent_face(w, i, t, dt);
  case STEER_LOOK_WHERE_GOING: return steer_agent_look_where_going(w, i, dt);
  case STEER_MATCH_ORIENTATION:
    if (!target_point(w, &e->target, &t, &other) || other < 0)
      return brake(w, i, dt);
    return steer_agent_match_orientation(w, i, (size_t)other, dt);
  default: return 0;
  }
}

static steer_vec2 weighted_force(steer_world *w, size_t i, size_t k,
                                 program_state *s, flock_walk *walk,
                                 steer_stats *stats) {
  const steer_entry *e = &w->program[i]->entries[k];
  steer_vec2 f = entry_force(w, i, e, s ? &s->entries[k] : NULL, walk, stats);
  return v2_scale(f, e->weight);
}

/* priority with hold: while the last winner holds control, entries after it
   are not consulted; once it falls silent it keeps its last force for
   `hold` seconds */
static steer_vec2 combine_priority(steer_world *w, size_t i, double dt,
                                   program_state *s, flock_walk *walk,
                                   steer_stats *stats) {
  const steer_program *p = w->program[i];
  double max_force = w->max_force[i];
  int holding = priority_holding(p, s);
  for (size_t k = 0; k < p->count; k++) {
    if (holding && (long)k > s->held) break;
    steer_vec2 f = weighted_force(w, i, k, s, walk, stats);
    if (priority_speaks(f)) return priority_win(p, s, k, f, max_force);
  }
  return priority_silent(p, s, holding, dt);
}

static steer_vec2 combine_dither(steer_world *w, size_t i, program_state *s,
                                 flock_walk *walk, steer_stats *stats) {
  const steer_program *p = w->program[i];
  agent_ext *e = w->ext[i];
  for (size_t k = 0; k < p->count; k++) {
    if (behavior_is_angular(p->entries[k].behavior)) continue;
    double chance = p->entries[k].probability;
    double roll = steer_rng_unit(&e->rng);
    if (chance < 1 && !(roll < chance)) continue;
    steer_vec2 f = weighted_force(w, i, k, s, walk, stats);
    if (!priority_speaks(f)) continue;
    s->winner = (int32_t)k;
    return v2_clamp(f, w->max_force[i]);
  }
  s->winner = -1;
  return zero;
}

steer_vec2 program_force(steer_world *w, size_t i, double dt,
                         const flock_sums *gathered, steer_stats *stats) {
  const steer_program *p = w->program[i];
  program_state *s = world_state(w, i);
  double max_force = w->max_force[i];
  STEER_ASSERT(!p->needs_state || s); /* steer_agent_set_program made it */
  steer_vec2 f = zero;
  flock_walk walk_state = {0, {{0, 0}, {0, 0}, {0, 0}, 0, 0, 0}};
  flock_walk *walk = &walk_state;
  if (gathered) { /* the crowd kernel walked the neighbors already */
    walk->done = 1;
    walk->sums = *gathered;
  }
  switch (p->combine) {
  case STEER_WEIGHTED:
    for (size_t k = 0; k < p->count; k++)
      f = v2_add(f, weighted_force(w, i, k, s, walk, stats));
    f = v2_clamp(f, max_force);
    break;
  case STEER_PRIORITY: f = combine_priority(w, i, dt, s, walk, stats); break;
  case STEER_PRIORITIZED_SUM:
    for (size_t k = 0; k < p->count; k++)
      if (!steer_accumulate(&f, weighted_force(w, i, k, s, walk, stats), max_force))
        break;
    break;
  case STEER_DITHER: f = combine_dither(w, i, s, walk, stats); break;
  default: break;
  }
  if (p->angular) { /* beside the linear part, never instead of it */
    double angular = 0;
    for (size_t k = 0; k < p->count; k++)
      if (behavior_is_angular(p->entries[k].behavior))
        angular += p->entries[k].weight *
                   entry_angular(w, i, &p->entries[k], dt);
    agent_body *b = &w->ext[i]->body;
    b->angular_force = angular > b->max_angular_acceleration
                           ? b->max_angular_acceleration
                       : angular < -b->max_angular_acceleration
                           ? -b->max_angular_acceleration
                           : angular;
  }
  if (p->smoothing >= 0) {
    /* stored state: within the limit (a force clamped to a max_force of
       STEER_LIMIT, or the lerp, can round one ulp past it) */
    state_memory *m = state_memory_of(s, p);
    m->smoothed = v2_limit(s->has_smoothed
                               ? steer_lerp(m->smoothed, f, p->smoothing)
                               : f);
    s->has_smoothed = 1;
    f = m->smoothed;
  }
  if (p->has_orca) f = orca_force(w, i, f, &p->orca, dt);
  return f;
}

steer_vec2 steer_agent_steering(steer_world *w, size_t i, double dt) {
  if (!w->program[i]) return zero;
  return program_force(w, i, dt, NULL, NULL);
}
