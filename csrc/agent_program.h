/* agent_program.h - the force of an agent's program (internal). */
#ifndef STEER_AGENT_PROGRAM_H
#define STEER_AGENT_PROGRAM_H

#include "flocking.h"
#include "program.h"
#include "world.h"

/* The force of agent i's program, adding to *stats. The agent's state and
   cold state must exist as the program requires (steer_agent_set_program
   makes sure). `gathered`: the flocking sums of a fused program when the
   caller walked the neighbors already, else NULL. */
steer_vec2 program_force(steer_world *w, size_t i, double dt,
                         const flock_sums *gathered, steer_stats *stats);

/* Entry e's force for agent i, unweighted, where program_force and the
   batches (program_batch.c) compute it alike. es: the agent's state for e.
   Avoiding walls or obstacles (es may be NULL): with hysteresis, an agent
   whose avoidance spoke last time reaches further; es remembers whether it
   speaks now. */
steer_vec2 entry_avoid(steer_world *w, size_t i, const steer_entry *e,
                       entry_state *es);
/* Seeking, arriving at or following a path (es holds the waypoint). */
steer_vec2 entry_path(const steer_world *w, size_t i, const steer_entry *e,
                      entry_state *es);

/* Asks for the first bytes of cold state e, to be written: wander's fields
   and generator (two lines when they straddle one). */
static inline void ext_prefetch(const agent_ext *e) {
#if defined(__GNUC__)
  __builtin_prefetch(e, 1, 3);
  __builtin_prefetch(&e->follow_path, 1, 3);
#else
  (void)e;
#endif
}

/* Asks for agent i's cold state (deep = 0), or for its program state's
   slot (deep = 1): program_force reads both, the cold state from an
   allocation somewhere on the heap, so loops over agents ask a few agents
   ahead. */
static inline void program_prefetch(const steer_world *w, size_t i, int deep) {
#if defined(__GNUC__)
  const agent_ext *e = w->ext[i];
  if (!e) return;
  if (!deep)
    __builtin_prefetch(e);
  else if (w->state_stride)
    __builtin_prefetch(w->states + i * w->state_stride);
#else
  (void)w, (void)i, (void)deep;
#endif
}

#endif
