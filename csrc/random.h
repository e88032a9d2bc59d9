/* random.h - the agents' 32-bit LCG inline (internal; random.c offers it
 * as steer_rng_*, agent.h's wander_advance and program_batch.c use it). */
#ifndef STEER_RANDOM_H
#define STEER_RANDOM_H

#include <stdint.h>

static inline uint32_t rng_next(uint32_t *state) {
  *state = *state * 1103515245u + 12345u; /* wraps mod 2^32 */
  return *state;
}

/* In [0, 1]. */
static inline double rng_unit(uint32_t *state) {
  return rng_next(state) / 4294967295.0;
}

/* In [-1, 1]. */
static inline double rng_signed(uint32_t *state) {
  return -1.0 + 2.0 * rng_unit(state);
}

#endif
