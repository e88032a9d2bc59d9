/* alloc.c - the process-wide allocator and counted allocation. */
#include <stdint.h>
#include <stdlib.h>
#include "alloc.h"
#include "invariant.h"

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static steer_alloc_fn global_alloc = default_alloc;
static void *global_ud;

void steer_set_allocator(steer_alloc_fn alloc, void *ud) {
  global_alloc = alloc ? alloc : default_alloc;
  global_ud = alloc ? ud : NULL;
}

void steer_get_allocator(steer_alloc_fn *alloc, void **ud) {
  *alloc = global_alloc;
  *ud = global_ud;
}

steer_allocator alloc_process(void) {
  steer_allocator a = {global_alloc, global_ud, 0};
  return a;
}

void *steer_alloc(void *ptr, size_t osize, size_t nsize) {
  return global_alloc(global_ud, ptr, ptr ? osize : 0, nsize);
}

void *alloc_bytes(steer_allocator *a, void *ptr, size_t osize, size_t nsize) {
  if (!ptr) osize = 0;
  STEER_ASSERT(osize <= a->bytes); /* it was counted when allocated */
  void *p = a->fn(a->ud, ptr, osize, nsize);
  if (p || nsize == 0) a->bytes = a->bytes - osize + nsize;
  return p;
}

steer_status alloc_grow(steer_allocator *a, void **arr, size_t size,
                        size_t *cap, size_t need) {
  if (need <= *cap) return STEER_OK;
  size_t n = *cap < 8 ? 16 : *cap + *cap / 2; /* 1.5x: less slack than 2x */
  if (n < need) n = need;
  if (n > SIZE_MAX / size) return STEER_ENOMEM;
  void *p = alloc_bytes(a, *arr, *cap * size, n * size);
  if (!p) return STEER_ENOMEM;
  *arr = p;
  *cap = n;
  return STEER_OK;
}
