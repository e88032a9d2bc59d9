/* random.c - the agents' 32-bit LCG (docs/API.md section 3.5, wander). */
#include "random.h"
#include "steer.h"

double steer_rng_unit(uint32_t *state) { return rng_unit(state); }

double steer_rng_signed(uint32_t *state) { return rng_signed(state); }

/* The splitmix64 finalizer spreads (seed, id) over all 32 bits, so agents
   with neighbouring ids get unrelated sequences. */
uint32_t steer_rng_seed_for(uint32_t world_seed, uint64_t id) {
  uint64_t z = ((uint64_t)world_seed << 32) ^ id;
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (uint32_t)(z ^ (z >> 31));
}
