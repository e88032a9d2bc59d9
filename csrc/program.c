/* program.c - behavior programs: creation, comparison, and the state an
 * agent keeps for its program (docs/API.md section 4). */
#include <stdint.h>
#include <string.h>
#include "alloc.h"
#include "program.h"
#include "navgrid.h"
#include "path.h"
#include "orca_batch.h"

/* Paths, flow fields and shared points are shared between programs: an
   entry holds a reference to its target's. */
void target_retain(const steer_target *t) {
  if (t->kind == STEER_TARGET_PATH) steer_path_retain(t->path);
  if (t->kind == STEER_TARGET_FLOW) steer_flowfield_retain(t->field);
  if (t->kind == STEER_TARGET_SHARED) steer_point_retain(t->shared);
  if (t->kind == STEER_TARGET_FORMATION) steer_formation_retain(t->formation);
}
void target_release(const steer_target *t) {
  if (t->kind == STEER_TARGET_PATH) steer_path_release(t->path);
  if (t->kind == STEER_TARGET_FLOW) steer_flowfield_release(t->field);
  if (t->kind == STEER_TARGET_SHARED) steer_point_release(t->shared);
  if (t->kind == STEER_TARGET_FORMATION)
    steer_formation_release(t->formation);
}
#include "tactics.h"

/* ---- programs ----------------------------------------------------------- */

steer_entry steer_entry_default(steer_behavior b) {
  steer_entry e;
  memset(&e, 0, sizeof e);
  e.behavior = b;
  e.target.kind = STEER_TARGET_NONE;
  e.weight = 1;
  e.probability = 1;
  e.radius = 0;
  e.feeler_length = 3;
  e.slowing_radius = 2;
  e.arrival_radius = 0.6;
  e.panic_radius = -1;
  e.hysteresis = 0;
  e.groups = STEER_ALL_GROUPS;
  e.fov = b == STEER_QUEUE ? 90 : 360; /* flocking: all around */
  e.falloff = STEER_FALLOFF_INVERSE;
  e.path_radius = -1;
  e.look_ahead = 1;
  e.start = 0;
  e.other.kind = STEER_TARGET_NONE;
  e.fit = 1; /* offset_pursuit's slot and follow_leader's spot on ground,
                as a formation's slots */
  /* tactics: how far behind the leader / behind cover / ahead to look */
  e.distance = b == STEER_FOLLOW_LEADER ? 2 : b == STEER_HIDE ? 1 : 3;
  if (b == STEER_FOLLOW_LEADER) e.radius = 2; /* its separation */
  e.time_horizon = 3;
  /* avoid_agents' room beyond touching (bench/crowd, 0.23-0.83 measured:
     0.5 had 2-4x fewer overlaps than none in every scenario, at a smaller
     |dv|, and the circles cleared within 3% as fast; 0.67 and 0.83 cleared
     circle 250 7% and 14% later) */
  e.personal_space = 0.5;
  if (b == STEER_AVOID_AGENTS) e.radius = 10;
  return e;
}

/* Bookkeeping an entry needs from each agent running it. */
int program_entry_needs_state(const steer_entry *e) {
  return (e->target.kind == STEER_TARGET_PATH && e->behavior != STEER_CONTAIN) ||
         e->hysteresis > 0 ||
         tactics_behavior(e->behavior); /* frames kept at rest */
}

/* Can entry e be computed for many agents at once, entry by entry? Seek,
   arrive and flee at a point, flow, wander and flocking rules read nothing
   beyond their agent and its sums; seeking, arriving at or following a
   path and avoiding walls or obstacles read their agent's entry state
   besides. */
static int batchable_entry(const steer_entry *e) {
  int point = e->target.kind == STEER_TARGET_POINT ||
              e->target.kind == STEER_TARGET_SHARED;
  int path = e->target.kind == STEER_TARGET_PATH;
  switch (e->behavior) {
  case STEER_SEEK: case STEER_ARRIVE: return point || path;
  case STEER_FOLLOW: return path;
  case STEER_FLEE: return point;
  case STEER_AVOID_WALLS: case STEER_AVOID_OBSTACLES: return 1;
  case STEER_FLOW: case STEER_WANDER:
  case STEER_SEPARATION: case STEER_ALIGNMENT: case STEER_COHESION:
    return e->hysteresis <= 0;
  default: return 0;
  }
}

/* Is p a weighted sum or a priority list of batchable entries,
   unsmoothed, without ORCA or angular entries (its flocking rules walked
   in one pass)? */
static int batchable(const steer_program *p) {
  if ((p->combine != STEER_WEIGHTED && p->combine != STEER_PRIORITY) ||
      p->smoothing >= 0 || p->has_orca || p->angular || !p->fused ||
      p->count == 0)
    return 0;
  for (size_t k = 0; k < p->count; k++)
    if (!batchable_entry(&p->entries[k])) return 0;
  return 1;
}

void program_analyze(steer_program *p) {
  p->needs_state = p->smoothing >= 0 || p->combine == STEER_PRIORITY ||
                   p->combine == STEER_DITHER;
  p->needs_ext = p->combine == STEER_DITHER;
  double radius[3] = {-1, -1, -1}; /* separation, alignment, cohesion */
  int rules[3] = {0, 0, 0};
  p->local = !p->has_orca;
  p->reach = 0;
  p->angular = 0;
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    /* agent targets, tactics (leaders, cones), ORCA and avoid_agents read
       beyond a cell: buffered */
    if (e->target.kind == STEER_TARGET_AGENT || tactics_behavior(e->behavior) ||
        e->behavior == STEER_AVOID_AGENTS)
      p->local = 0;
    if (program_entry_needs_state(e)) p->needs_state = 1;
    if (e->behavior == STEER_WANDER) p->needs_ext = 1;
    if (e->behavior >= STEER_FACE && e->behavior <= STEER_MATCH_ORIENTATION)
      p->angular = 1;
    if (e->behavior >= STEER_SEPARATION && e->behavior <= STEER_COHESION) {
      rules[e->behavior - STEER_SEPARATION]++;
      radius[e->behavior - STEER_SEPARATION] = e->radius;
      if (e->radius > p->reach) p->reach = e->radius;
    }
  }
  p->turns = p->angular || p->turn != STEER_TURN_NONE;
  p->pushes = p->has_orca && p->orca.push > 0;
  /* the state and the body (angle, angular steering) hang off the ext */
  if (p->needs_state || p->turns) p->needs_ext = 1;
  p->fused = rules[0] <= 1 && rules[1] <= 1 && rules[2] <= 1;
  if (p->fused) {
    flock_rules_init(&p->flock, radius[0], radius[1], radius[2]);
    for (size_t k = 0; k < p->count; k++) {
      const steer_entry *e = &p->entries[k];
      if (e->behavior >= STEER_SEPARATION && e->behavior <= STEER_COHESION)
        flock_rules_filter(&p->flock, (int)(e->behavior - STEER_SEPARATION),
                           e->groups, e->fov, e->falloff);
    }
  }
  p->flocking = rules[0] + rules[1] + rules[2] > 0;
  p->pure_flock = p->fused && p->combine == STEER_WEIGHTED &&
                  p->smoothing < 0 && p->count > 0 && !p->turns &&
                  p->flock.falloff != STEER_FALLOFF_LINEAR && !p->has_orca &&
                  (size_t)(rules[0] + rules[1] + rules[2]) == p->count;
  p->batched = batchable(p);
  p->orca_plain = orca_plain(p);
}

static size_t program_bytes(size_t n) {
  return sizeof(steer_program) + n * sizeof(steer_entry);
}

steer_program *program_make(const steer_allocator *from,
                            steer_combine combine, double smoothing,
                            double hold, const steer_entry *entries,
                            size_t n) {
  /* states keep entry numbers in 32 bits (program.h) */
  if (n > INT32_MAX ||
      n > (SIZE_MAX - sizeof(steer_program)) / sizeof(steer_entry))
    return NULL;
  steer_allocator a = {from->fn, from->ud, 0}; /* counts this program only */
  steer_program *p = alloc_bytes(&a, NULL, 0, program_bytes(n));
  if (!p) return NULL;
  p->refs = 1;
  p->alloc = a;
  p->combine = combine;
  /* one value for "none", which snapshots keep */
  p->smoothing = smoothing < 0 ? -1 : smoothing;
  p->hold = hold;
  p->turn = STEER_TURN_NONE;
  p->has_orca = 0;
  p->collide = 0;
  p->count = n;
  if (n) memcpy(p->entries, entries, n * sizeof(steer_entry));
  for (size_t k = 0; k < n; k++) {
    p->entries[k].tag[STEER_TAG_SIZE - 1] = '\0';
    /* whiskers are avoid_walls' alone, 0 or 1 (snapshots keep them so) */
    p->entries[k].whiskers =
        p->entries[k].behavior == STEER_AVOID_WALLS && p->entries[k].whiskers;
    target_retain(&p->entries[k].target);
    target_retain(&p->entries[k].other); /* interpose: a shared point */
    if (p->entries[k].behavior == STEER_CONTAIN &&
        p->entries[k].target.kind == STEER_TARGET_PATH)
      path_prepare_region(p->entries[k].target.path);
  }
  program_analyze(p);
  return p;
}

int program_entry_keepable(const steer_entry *e) {
  steer_target_kind o = e->other.kind;
  if (o != STEER_TARGET_NONE && o != STEER_TARGET_POINT &&
      o != STEER_TARGET_AGENT && o != STEER_TARGET_SHARED)
    return 0;
  return (e->behavior == STEER_FORMATION) ==
         (e->target.kind == STEER_TARGET_FORMATION);
}

steer_program *steer_program_create(steer_combine combine, double smoothing,
                                    double hold, const steer_entry *entries,
                                    size_t n) {
  /* above 1 the lerp extrapolates, and an infinite one makes 0 * inf */
  if (!(smoothing <= 1)) return NULL;
  for (size_t k = 0; k < n; k++)
    if (!program_entry_keepable(&entries[k])) return NULL;
  steer_allocator process = alloc_process();
  return program_make(&process, combine, smoothing, hold, entries, n);
}

void steer_program_retain(steer_program *p) { p->refs++; }

void steer_program_release(steer_program *p) {
  if (!p || --p->refs > 0) return;
  for (size_t k = 0; k < p->count; k++) {
    target_release(&p->entries[k].target);
    target_release(&p->entries[k].other);
  }
  steer_allocator a = p->alloc; /* outlives p */
  alloc_bytes(&a, p, program_bytes(p->count), 0);
}

void steer_program_set_turn(steer_program *p, steer_turn turn) {
  p->turn = turn;
  program_analyze(p);
}

steer_turn steer_program_turn(const steer_program *p) { return p->turn; }

void steer_program_set_collide(steer_program *p, int collide) {
  p->collide = collide != 0;
}

int steer_program_collide(const steer_program *p) { return p->collide; }

steer_combine steer_program_combine(const steer_program *p) {
  return p->combine;
}
double steer_program_smoothing(const steer_program *p) { return p->smoothing; }
double steer_program_hold(const steer_program *p) { return p->hold; }
size_t steer_program_count(const steer_program *p) { return p->count; }
const steer_entry *steer_program_entry(const steer_program *p, size_t k) {
  return &p->entries[k];
}

static int target_equal(const steer_target *a, const steer_target *b) {
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
  case STEER_TARGET_POINT:
    return a->point.x == b->point.x && a->point.y == b->point.y;
  case STEER_TARGET_AGENT: return a->agent == b->agent;
  case STEER_TARGET_PATH: return a->path == b->path;
  case STEER_TARGET_FLOW: return a->field == b->field;
  case STEER_TARGET_SHARED: return a->shared == b->shared;
  case STEER_TARGET_FORMATION: return a->formation == b->formation;
  default: return 1;
  }
}

static int entry_equal(const steer_entry *a, const steer_entry *b) {
  return a->behavior == b->behavior && target_equal(&a->target, &b->target) &&
         a->weight == b->weight && a->probability == b->probability &&
         a->radius == b->radius && a->feeler_length == b->feeler_length &&
         a->slowing_radius == b->slowing_radius &&
         a->arrival_radius == b->arrival_radius &&
         a->panic_radius == b->panic_radius &&
         a->hysteresis == b->hysteresis && strcmp(a->tag, b->tag) == 0 &&
         a->groups == b->groups && a->fov == b->fov &&
         a->falloff == b->falloff && a->path_radius == b->path_radius &&
         a->look_ahead == b->look_ahead && a->start == b->start &&
         a->offset.x == b->offset.x && a->offset.y == b->offset.y &&
         a->fit == b->fit && a->whiskers == b->whiskers &&
         target_equal(&a->other, &b->other) &&
         a->distance == b->distance &&
         a->time_horizon == b->time_horizon &&
         a->personal_space == b->personal_space;
}

static int orca_equal(const steer_orca *a, const steer_orca *b) {
  if (!a || !b) return a == b;
  return a->time_horizon == b->time_horizon &&
         a->obstacle_time_horizon == b->obstacle_time_horizon &&
         a->neighbor_radius == b->neighbor_radius &&
         a->max_neighbors == b->max_neighbors && a->margin == b->margin &&
         a->push == b->push && a->detour == b->detour &&
         a->settle == b->settle;
}

int steer_program_equal(const steer_program *a, const steer_program *b) {
  if (a == b) return 1;
  if (a->combine != b->combine || a->smoothing != b->smoothing ||
      a->hold != b->hold || a->count != b->count || a->turn != b->turn ||
      a->collide != b->collide ||
      !orca_equal(steer_program_orca(a), steer_program_orca(b)))
    return 0;
  for (size_t k = 0; k < a->count; k++)
    if (!entry_equal(&a->entries[k], &b->entries[k])) return 0;
  return 1;
}

/* ---- ORCA settings (orca_agent.c uses them in the step) ---------------- */

static int in_range(double v, double lo) {
  return v >= lo && v <= STEER_LIMIT;
}

steer_status steer_orca_check(const steer_orca *o) {
  int ok = in_range(o->time_horizon, 0) && o->time_horizon > 0 &&
           in_range(o->obstacle_time_horizon, 0) &&
           o->obstacle_time_horizon > 0 &&
           (o->neighbor_radius < 0 || in_range(o->neighbor_radius, 0)) &&
           o->max_neighbors <= STEER_ORCA_MAX_NEIGHBORS &&
           o->margin >= 0 && o->margin <= 1 && o->push <= STEER_ORCA_MAX_PUSH &&
           (o->detour == 0 || o->detour == 1) &&
           (o->settle == 0 || o->settle == 1);
  return ok ? STEER_OK : STEER_EINVAL;
}

steer_status steer_program_set_orca(steer_program *p, const steer_orca *o) {
  if (o && steer_orca_check(o)) return STEER_EINVAL;
  p->has_orca = o != NULL;
  if (o) p->orca = *o;
  program_analyze(p);
  return STEER_OK;
}

const steer_orca *steer_program_orca(const steer_program *p) {
  return p->has_orca ? &p->orca : NULL;
}
