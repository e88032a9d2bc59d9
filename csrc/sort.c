/* sort.c - keeps agents ordered by grid cell: a stable counting sort that
 * moves every per-agent array, so that the agents of a cell sit side by
 * side in memory and a neighbor walk streams through them. */
#include <string.h>
#include <stdint.h>
#include "world.h"

/* Moves element i of arr to dest[i], for 8- and 4-byte elements. */
static void permute8(void *arr, size_t n, const uint32_t *dest, void *tmp) {
  uint64_t *a = arr, *t = tmp;
  for (size_t i = 0; i < n; i++) t[dest[i]] = a[i];
  memcpy(a, t, n * sizeof *a);
}

static void permute4(void *arr, size_t n, const uint32_t *dest, void *tmp) {
  uint32_t *a = arr, *t = tmp;
  for (size_t i = 0; i < n; i++) t[dest[i]] = a[i];
  memcpy(a, t, n * sizeof *a);
}

void world_sort(steer_world *w, void *scratch) {
  size_t n = w->count;
  steer_grid *g = &w->grid;
  uint32_t *dest = scratch;
  void *tmp = dest + n; /* then 8 bytes per agent */
  if (!g->buckets) return; /* no agent was ever added */

  /* count per bucket, then the first index of each bucket */
  uint32_t *starts = g->starts;
  memset(starts, 0, (g->buckets + 1) * sizeof *starts);
  int moved = 0;
  for (size_t i = 0; i < n; i++) {
    size_t b = grid_bucket_of(g, w->x[i], w->y[i]);
    dest[i] = (uint32_t)b;
    starts[b + 1]++;
  }
  for (size_t b = 0; b < g->buckets; b++) starts[b + 1] += starts[b];
  /* heads serve as each bucket's next free index while placing */
  for (size_t b = 0; b < g->buckets; b++) g->heads[b] = (int32_t)starts[b];
  for (size_t i = 0; i < n; i++) {
    dest[i] = (uint32_t)g->heads[dest[i]]++;
    moved |= dest[i] != i;
  }
  if (moved) {
    /* every per-agent array: doubles and pointers are 8 bytes wide */
    void *wide[] = {w->x, w->y, w->vx, w->vy, w->max_speed, w->max_force,
                    w->radius, w->ext, w->program};
    for (size_t f = 0; f < sizeof wide / sizeof *wide; f++)
      permute8(wide[f], n, dest, tmp);
    permute4(w->slot_of, n, dest, tmp);
    for (size_t i = 0; i < n; i++) w->slots[w->slot_of[i]].index = (uint32_t)i;
  }
  grid_link_sorted(g);
  w->grid_sorted = 1;
}

steer_status world_sort_now(steer_world *w) {
  size_t bytes = (w->count ? w->count : 1) * WORLD_SORT_SCRATCH;
  void *scratch = world_alloc(w, NULL, 0, bytes);
  if (!scratch) return STEER_ENOMEM;
  world_sort(w, scratch);
  world_alloc(w, scratch, bytes, 0);
  return STEER_OK;
}
