/* orca_batch.h - the step's pass over agents whose program is one arrive
 * at a point with ORCA (internal). */
#ifndef STEER_ORCA_BATCH_H
#define STEER_ORCA_BATCH_H

#include "world.h"

/* Is p one arrive (or follow) entry at a point, weighted, unsmoothed,
   with ORCA? Its force is then orca_batch_run's. */
int orca_plain(const steer_program *p);

/* The forces of agents i, i + 1, ... (before `to`) while their programs
   are orca_plain, into w->forces: program_force's, bit for bit. Returns
   the index after them (i when agent i's program is not plain). */
size_t orca_batch_run(steer_world *w, size_t i, size_t to, double dt,
                      steer_stats *stats);

#endif
