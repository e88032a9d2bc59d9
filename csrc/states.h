/* states.h - the agents' program states, kept by their world in one slab:
 * a slot of state_stride bytes per agent, in agent order (internal).
 *
 * A state used to be a heap block of its own, found through the agent's
 * cold state: once the agents are sorted by cell those blocks lie in no
 * order, and a batch of agents waited on two scattered loads each. Here
 * agent i's state is at slot i, moved with the agent when the sort or a
 * removal moves it, so a batch reads its states in one stride. */
#ifndef STEER_STATES_H
#define STEER_STATES_H

#include "world.h"

/* Slot i's state, whether or not it holds one (the slab must exist). */
static inline program_state *state_slot(const steer_world *w, size_t i) {
  return (program_state *)(void *)(w->states + i * w->state_stride);
}

/* Agent i's program state, or NULL: a slot holds one when its size is not
   0 (a slot without one is zeroed). */
static inline program_state *world_state(const steer_world *w, size_t i) {
  if (!w->state_stride) return NULL;
  program_state *s = state_slot(w, i);
  return s->size ? s : NULL;
}

/* The bytes of a state of program p. */
size_t state_bytes(const steer_program *p);
/* Room for `cap` agents' slots of at least `bytes` each (slots keep their
   states). Fails, changing nothing, when memory runs out. */
steer_status states_reserve(steer_world *w, size_t cap, size_t bytes);
/* A fresh state for program p at slot i (states_reserve made room). */
program_state *states_start(steer_world *w, size_t i, const steer_program *p);
/* Slot i emptied (its agent has no state). */
void states_clear(steer_world *w, size_t i);
/* The state of slot `from` copied into slot `to`. */
void states_move(steer_world *w, size_t to, size_t from);
/* The slots of the first n agents moved as the sort moves them: agent i
   to dest[i]. */
void states_permute(steer_world *w, const uint32_t *dest, size_t n);
void states_free(steer_world *w);

#endif
