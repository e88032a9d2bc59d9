/* collide.h - walls that stop bodies: the `collide` program field
 * (internal; docs/API.md 3.6, "Walls that stop bodies: collide"). */
#ifndef STEER_COLLIDE_H
#define STEER_COLLIDE_H

#include "world.h"

/* Before a step's moves, in its serial phase: the position of every agent
   whose program collides, by slot (indices change when the step sorts).
   STEER_ENOMEM changes nothing. */
steer_status collide_prepare(steer_world *w);
/* After the step's moves and ORCA's push: each colliding agent's move from
   the recorded position is stopped at the walls it would cross (sliding
   on), then its body is moved out of walls and obstacles. Serial, each
   agent on its own against the static geometry. Returns whether an agent
   moved (its grid cell may have changed). */
int collide_pass(steer_world *w);
/* The pass's buffers (the world is going). */
void collide_free(steer_world *w);

#endif
