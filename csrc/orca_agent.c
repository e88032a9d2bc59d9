/* orca_agent.c - ORCA for one agent of a world: its nearest neighbors on
 * the grid, the half-planes they and the static geometry give, the safe
 * velocity, and the force the step integrates (docs/API.md section 18). Reads
 * the world as it is (a step computes every agent's force from one snapshot
 * before anyone moves) and writes only the agent's own standstill clock and
 * settle flag. */
#include "no_slp.h" /* first: it applies to all that follows */
#include "nearest.h"
#include "orca.h"
#include "program.h"
#include "tactics.h"

steer_orca steer_orca_default(void) {
  steer_orca o = {5, 2, -1, 10, 0.02, 0, 1, 0}; /* -1: orca_neighbor_radius */
  return o;
}

/* ---- the safe velocity -------------------------------------------------- */

#define MAX_SHAPES STEER_ORCA_MAX_NEIGHBORS
#define MAX_LINES (MAX_SHAPES + STEER_ORCA_MAX_NEIGHBORS)

/* ---- settle (docs/API.md 18.1.4) ---------------------------------------- */

/* Bodies closer than this many times their radii's sum touch. */
#define SETTLE_TOUCH 1.1

/* Agent j's goal: the target of its program's first arrive entry, when
   the program settles (0: none). */
static int settle_goal(const steer_world *w, size_t j, steer_vec2 *goal) {
  const steer_program *p = w->program[j];
  if (!p || !p->has_orca || !p->orca.settle) return 0;
  for (size_t k = 0; k < p->count; k++)
    if (p->entries[k].behavior == STEER_ARRIVE) {
      steer_pose pose;
      if (!tactics_target_pose(w, &p->entries[k].target, &pose)) return 0;
      *goal = pose.position;
      return 1;
    }
  return 0;
}

int steer_agent_settled(const steer_world *w, size_t i) {
  return w->orca_settled[i];
}

/* Does agent i (at p, of radius body) settle this step? It does when it
   touches a neighbor that wants the same goal (the goals closer than the
   two radii: both bodies cannot stand on them) and either stands on its
   goal itself (within the two radii) or leans on that neighbor, settled as
   the step began and nearer the goal. Reads the world as the step began. */
static int settles(const steer_world *w, size_t i, steer_vec2 p, double body,
                   const nearest_found *near, size_t m) {
  steer_vec2 goal, other;
  if (!settle_goal(w, i, &goal)) return 0;
  double to_goal = v2_len(world_offset(w, p, goal));
  for (size_t k = 0; k < m; k++) {
    size_t j = near[k].j;
    double sum = body + w->radius[j];
    steer_vec2 pj = world_pos(w, j);
    if (!(v2_len(world_offset(w, p, pj)) <= sum * SETTLE_TOUCH)) continue;
    if (!settle_goal(w, j, &other) ||
        !(v2_len(world_offset(w, goal, other)) <= sum))
      continue;
    if (to_goal <= sum) return 1; /* on the goal: j cannot stand there */
    if (w->orca_settled[j] && v2_len(world_offset(w, pj, goal)) < to_goal)
      return 1;
  }
  return 0;
}

/* A queue at a bottleneck, not a standstill (docs/API.md 18.1.3): walls
   are near the agent (it has static lines) and one of its neighbors ahead
   of it (along its wish) moves on along the wish faster than the agent
   does, by QUEUE_PULL of the wish's speed or more. Waiting ends there by
   itself; a detour took agents queueing at a door out of the queue and
   back in, and the crowd milled round the door (bench/doorway.lua: 100
   through a door four bodies wide, 88 through in 20 s, 96 without those
   detours, RVO2 99). In the open, agents held by one another are a crush,
   where the turns clear it sooner (bench/crowd's circles): they keep them.
   Two head-on, one shoving the other back, move together: the one shoving
   is still held. nb: the neighbors' offsets and their velocities relative
   to the agent's (its velocity less theirs). */
#define QUEUE_PULL 0.05

static int queued(const orca_neighbors *nb, size_t m, steer_vec2 wish,
                  double want) {
  for (size_t k = 0; k < m; k++)
    if (nb->px[k] * wish.x + nb->py[k] * wish.y > 0 &&
        -(nb->vx[k] * wish.x + nb->vy[k] * wish.y) > QUEUE_PULL * want)
      return 1;
  return 0;
}

/* The step calls this one directly: the exported name goes through the
   PLT, and its pair comes back through memory, a store-forwarding stall.
   held (NULL: not asked): whether other agents hold the agent still from
   the velocity `wish`, where the static geometry alone would let it go
   (see orca_force_from). record: hand the neighbors found to the step's
   push (orca_push_record). settled (NULL: not asked): whether the agent
   settles this step (then it asks for velocity 0). */
static steer_vec2 orca_velocity(const steer_world *w, size_t i,
                                steer_vec2 preferred, const steer_orca *o,
                                double dt, steer_vec2 wish, int *held,
                                int record, int *settled) {
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
          ? orca_nearby_shapes(w, i, o->obstacle_time_horizon * speed, 1, shapes,
                               MAX_SHAPES)
          : 0;
  for (size_t k = 0; k < shapes_n; k++) {
    const orca_shape *s = &shapes[k];
    if (s->radius == 0 && s->dist > body && n > 0 &&
        orca_wall_covered(lines, n, s->a, s->b, body,
                          o->obstacle_time_horizon))
      continue;
    orca_shape_line(s, body, v, o->obstacle_time_horizon, dt, &lines[n++]);
  }
  size_t n_static = n;
  size_t m = nearest_found_agents(w, i, orca_neighbor_radius(o, w->radius[i]),
                                  o->max_neighbors, 1, near);
  if (record) orca_push_record(w, i, near, m, o, dt);
  orca_neighbors nb;
  steer_vec2 p = world_pos(w, i);
  if (settled && o->settle && (*settled = settles(w, i, p, body, near, m)))
    preferred = wish = v2(0, 0); /* at rest: never held, never a detour */
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
  steer_vec2 safe =
      orca_solve(lines, n + m, n_static, speed, preferred, scratch);
  /* held: an agent makes less than a tenth of its wish along it (or backs
     off), where the static geometry alone would let it make a fifth (an
     agent that slides slowly along a wall it wants to go through is not
     held: a detour would only turn its slide round), or would let it slide
     at a fifth of the wish's speed and the agent makes less than a tenth
     of that slide (two sliding into a block's corner from its two faces
     stop each other there); and it is not in a queue at a bottleneck (see
     queued). Without static lines `alone` is the wish. */
  if (held) {
    double want = v2_dot(wish, wish);
    *held = 0;
    if (m > 0 && want > 0 && v2_dot(safe, wish) < 0.1 * want) {
      steer_vec2 alone = orca_solve(lines, n, n, speed, wish, scratch);
      double free2 = v2_dot(alone, alone);
      *held = (v2_dot(alone, wish) >= 0.2 * want ||
               (free2 >= 0.04 * want && v2_dot(safe, alone) < 0.1 * free2)) &&
              !(n_static > 0 && queued(&nb, m, wish, want));
    }
  }
  return safe;
}

steer_vec2 steer_agent_orca_velocity(const steer_world *w, size_t i,
                                     steer_vec2 preferred, const steer_orca *o,
                                     double dt) {
  return orca_velocity(w, i, preferred, o, dt, preferred, NULL, 0, NULL);
}

steer_vec2 orca_force(steer_world *w, size_t i, steer_vec2 f,
                      const steer_orca *o, double dt) {
  if (!(dt > 0)) return f; /* no step to plan for (a:steering()) */
  steer_vec2 v = world_vel(w, i);
  steer_vec2 preferred = v2_clamp(
      v2_add(v, v2_scale(v2_clamp(f, w->max_force[i]), dt)), w->max_speed[i]);
  return orca_force_from(w, i, preferred, o, dt);
}

/* ORCA's standstill (orca.h's DETOUR_*): agents that hold one another
   still (two head-on beside a wall, a knot of them where paths cross) stay
   so, since for each the best velocity is to wait. An agent held for
   DETOUR_AFTER seconds turns its preferred velocity 60 degrees to the
   right for DETOUR_TIME seconds, then goes its way for DETOUR_REST seconds
   before it can turn again (in a crush, where everyone is held, turns
   without rest make the crowd mill round). All turn the same way, so two
   that meet turn apart. Its clock counts the seconds held up from 0, then
   the detour's and the rest's down from -(DETOUR_TIME + DETOUR_REST).
   Measured over bench/crowd's seeds 1-10: docs/PERFORMANCE.md. */
#define DETOUR_COS 0.5 /* of 60 degrees */
#define DETOUR_SIN 0.86602540378443865
/* An agent is held against its wish: the velocity its program asks for
   over DETOUR_WISH seconds (its preferred velocity is v + f dt, which
   creeps along with v when dt is small, so a creeping agent would never
   count as held at 60 steps a second). Steps of DETOUR_WISH or longer use
   the preferred velocity itself. The extrapolation is capped so that it
   stays finite for any dt. */
#define DETOUR_WISH 0.25

static steer_vec2 detour_wish(steer_vec2 v, steer_vec2 preferred,
                              double max_speed, double dt) {
  if (dt >= DETOUR_WISH) return preferred;
  double k = DETOUR_WISH / dt < 1e6 ? DETOUR_WISH / dt : 1e6;
  return v2_clamp(v2_add(v, v2_scale(v2_sub(preferred, v), k)), max_speed);
}

steer_vec2 orca_force_from(steer_world *w, size_t i, steer_vec2 preferred,
                           const steer_orca *o, double dt) {
  steer_vec2 v = world_vel(w, i);
  steer_vec2 safe;
  double clock = w->orca_clock[i];
  /* the step's push asks a pusher's neighbors (orca_push_record) */
  int record = w->push_near && w->program[i]->pushes;
  int settled = 0;
  if (!o->detour) {
    safe = orca_velocity(w, i, preferred, o, dt, preferred, NULL, record,
                         &settled);
  } else if (clock < 0) { /* on a detour: the thread of agent i writes it */
    steer_vec2 right = {DETOUR_COS * preferred.x + DETOUR_SIN * preferred.y,
                        DETOUR_COS * preferred.y - DETOUR_SIN * preferred.x};
    safe = orca_velocity(w, i, clock < -DETOUR_REST ? right : preferred, o, dt,
                         preferred, NULL, record, &settled);
    w->orca_clock[i] = clock + dt < 0 ? clock + dt : 0;
  } else {
    int held;
    steer_vec2 wish = detour_wish(v, preferred, w->max_speed[i], dt);
    safe = orca_velocity(w, i, preferred, o, dt, wish, &held, record,
                         &settled);
    if (held)
      w->orca_clock[i] = clock + dt >= DETOUR_AFTER
                             ? -(DETOUR_TIME + DETOUR_REST)
                             : clock + dt;
    else if (clock != 0)
      w->orca_clock[i] = 0;
  }
  /* seen by the neighbors from the next step on (step.c's moves) */
  w->orca_settle_next[i] = (uint8_t)settled;
  steer_vec2 dv = v2_sub(safe, v);
  if (dv.x == 0 && dv.y == 0) return dv; /* 0 * (1 / dt) is NaN for tiny dt */
  steer_vec2 g = v2_scale(dv, 1 / dt);
  /* a change too sudden for a double: as large as max_force lets it be */
  if (!isfinite(g.x) || !isfinite(g.y))
    g = v2_scale(v2_direction(dv, v2_len(dv)), 1e300);
  /* the integration would clamp it too: a:steering() reports what it gets */
  return v2_clamp(g, w->max_force[i]);
}
