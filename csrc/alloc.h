/* alloc.h - allocation at the bottom of the core (internal).
 *
 * Every module that owns memory gets a steer_allocator: the function and
 * its user data (a world's, or the process-wide one) and the count of bytes
 * it holds, so modules below the world allocate without knowing it.
 */
#ifndef STEER_ALLOC_H
#define STEER_ALLOC_H

#include <stddef.h>
#include "steer.h"

typedef struct steer_allocator {
  steer_alloc_fn fn;
  void *ud;
  size_t bytes; /* held through this allocator */
} steer_allocator;

/* The process-wide allocator (steer_set_allocator), nothing counted yet. */
steer_allocator alloc_process(void);

/* Allocation through the process-wide allocator, uncounted. */
void *steer_alloc(void *ptr, size_t osize, size_t nsize);

/* Allocates, resizes (ptr != NULL) or frees (nsize == 0), counting bytes. */
void *alloc_bytes(steer_allocator *a, void *ptr, size_t osize, size_t nsize);
/* Grows *arr (elements of `size` bytes) so that it holds at least `need`;
   on failure *arr and *cap are unchanged. */
steer_status alloc_grow(steer_allocator *a, void **arr, size_t size,
                        size_t *cap, size_t need);

#endif
