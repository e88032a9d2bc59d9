/* states.c - the agents' program states in one slab, in agent order
 * (states.h). Two slabs of the same size: the sort copies every slot to
 * its agent's new place in the other one, in one pass, and they swap. */
#include <string.h>
#include "states.h"

size_t state_bytes(const steer_program *p) {
  return sizeof(program_state) + p->count * sizeof(entry_state) +
         (program_remembers(p) ? sizeof(state_memory) : 0);
}

steer_status states_reserve(steer_world *w, size_t cap, size_t bytes) {
  size_t stride = w->state_stride, old_cap = w->state_cap;
  if (bytes > stride) stride = (bytes + 7) & ~(size_t)7;
  if (cap < old_cap) cap = old_cap;
  if (stride == w->state_stride && cap == old_cap) return STEER_OK;
  if (cap < 16) cap = 16;
  if (cap > SIZE_MAX / 2 / stride) return STEER_ENOMEM;
  size_t size = cap * stride;
  unsigned char *slab = world_alloc(w, NULL, 0, size);
  unsigned char *spare = slab ? world_alloc(w, NULL, 0, size) : NULL;
  if (!spare) {
    world_alloc(w, slab, size, 0);
    return STEER_ENOMEM;
  }
  memset(slab, 0, size);
  memset(spare, 0, size);
  for (size_t i = 0; i < old_cap; i++) /* live or zeroed, each in place */
    memcpy(slab + i * stride, w->states + i * w->state_stride,
           w->state_stride);
  states_free(w);
  w->states = slab;
  w->states_spare = spare;
  w->state_stride = stride;
  w->state_cap = cap;
  return STEER_OK;
}

program_state *states_start(steer_world *w, size_t i, const steer_program *p) {
  STEER_ASSERT(i < w->state_cap && state_bytes(p) <= w->state_stride);
  program_state *s = state_slot(w, i);
  memset(s, 0, w->state_stride);
  s->size = state_bytes(p);
  s->held = -1;
  s->winner = -1;
  return s;
}

void states_clear(steer_world *w, size_t i) {
  if (w->state_stride) memset(state_slot(w, i), 0, w->state_stride);
}

void states_move(steer_world *w, size_t to, size_t from) {
  if (!w->state_stride) return;
  memcpy(state_slot(w, to), state_slot(w, from), w->state_stride);
}

void states_permute(steer_world *w, const uint32_t *dest, size_t n) {
  size_t stride = w->state_stride;
  if (!stride) return;
  unsigned char *to = w->states_spare;
  for (size_t i = 0; i < n; i++)
    memcpy(to + dest[i] * stride, w->states + i * stride, stride);
  w->states_spare = w->states;
  w->states = to;
}

void states_free(steer_world *w) {
  size_t size = w->state_cap * w->state_stride;
  world_alloc(w, w->states, size, 0);
  world_alloc(w, w->states_spare, size, 0);
  w->states = w->states_spare = NULL;
  w->state_stride = w->state_cap = 0;
}
