/* invariant.h - STEER_ASSERT for what the core relies on (internal).
 *
 * The public API's preconditions (valid indices, numbers within
 * STEER_LIMIT) and the core's own invariants are asserted in builds with
 * -DSTEER_DEBUG (the sanitizer and fuzzing builds, mk/sanitize.mk); in a
 * release build the condition is not evaluated at all.
 */
#ifndef STEER_INVARIANT_H
#define STEER_INVARIANT_H

#ifdef STEER_DEBUG
#include <stdio.h>
#include <stdlib.h>
#define STEER_ASSERT(cond)                                                \
  ((cond) ? (void)0                                                       \
          : (fprintf(stderr, "steer: %s:%d: assertion '%s' failed\n",     \
                     __FILE__, __LINE__, #cond),                          \
             abort()))
#else
#define STEER_ASSERT(cond) ((void)0)
#endif

/* A number the API accepts: finite, |v| <= STEER_LIMIT (NaN fails). */
#define STEER_IN_LIMIT(v) ((v) >= -STEER_LIMIT && (v) <= STEER_LIMIT)

#endif
