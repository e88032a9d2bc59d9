/* agent_program.h - the force of an agent's program (internal). */
#ifndef STEER_AGENT_PROGRAM_H
#define STEER_AGENT_PROGRAM_H

#include "flocking.h"
#include "world.h"

/* The force of agent i's program, adding to *stats. The agent's state and
   cold state must exist as the program requires (steer_agent_set_program
   makes sure). `gathered`: the flocking sums of a fused program when the
   caller walked the neighbors already, else NULL. */
steer_vec2 program_force(steer_world *w, size_t i, double dt,
                         const flock_sums *gathered, steer_stats *stats);

/* Starts agent i's path entries at their `start` waypoints (its program
   and state set; world.c's add_many calls it too). */
void program_state_begin(steer_world *w, size_t i);

#endif
