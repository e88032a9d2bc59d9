/* orca_batch.c - the step's pass over a run of agents whose program is
 * one arrive at a point with ORCA (bench/crowd's program, a crowd walking
 * to its goals): the force program_force gives each, bit for bit, without
 * its dispatch per agent (the combiner's switch, the entry's switch, the
 * target's kind), which cost as much as the ORCA step's own arithmetic in a
 * sparse crowd. */
#include "no_slp.h" /* first: it applies to all that follows */
#include "agent.h"
#include "orca.h"
#include "orca_batch.h"
#include "program.h"

int orca_plain(const steer_program *p) {
  if (!p || !p->has_orca || p->combine != STEER_WEIGHTED ||
      p->smoothing >= 0 || p->angular || p->count != 1)
    return 0;
  const steer_entry *e = &p->entries[0];
  return (e->behavior == STEER_ARRIVE || e->behavior == STEER_FOLLOW) &&
         e->target.kind == STEER_TARGET_POINT;
}

/* The lines of a program the pass reads (orca_plain's fields, the orca
   parameters, the arrive entry): each agent has its own program (its own
   target), five lines apart from the others', and the search waits for its
   orca parameters. Fetched an agent or two ahead, they arrive in time. */
static void prefetch_plain(const steer_program *p) {
#if defined(__GNUC__)
  if (!p) return;
  __builtin_prefetch(p);
  __builtin_prefetch(&p->angular);
  __builtin_prefetch(&p->has_orca);
  __builtin_prefetch(&p->entries[0].target);
  __builtin_prefetch(&p->entries[0].slowing_radius);
#else
  (void)p;
#endif
}

size_t orca_batch_run(steer_world *w, size_t i, size_t to, double dt,
                      steer_stats *stats) {
  const steer_vec2 zero = {0, 0};
  const steer_program *plain = NULL; /* the last program seen plain */
  for (; i < to; i++) {
    const steer_program *p = w->program[i];
    if (i + 2 < to) prefetch_plain(w->program[i + 2]);
    if (p != plain) { /* a crowd shares a program: look once per run */
      if (!orca_plain(p)) break;
      plain = p;
    }
    const steer_entry *e = &p->entries[0];
    /* program_force's weighted sum of its one entry, then its clamp */
    steer_vec2 f = v2_scale(
        agent_arrive(w, i, e->target.point, e->slowing_radius), e->weight);
    f = v2_clamp(v2_add(zero, f), w->max_force[i]);
    w->forces[i] = orca_force(w, i, f, &p->orca, dt);
    stats->programs++;
  }
  return i;
}
