/* sort.c - keeps agents ordered by grid cell: a stable counting sort that
 * moves every per-agent array, so that the agents of a cell sit side by
 * side in memory and a neighbor walk streams through them. */
#include <string.h>
#include "world.h"

/* Moves element i of arr (elements of `size` bytes) to dest[i]. */
static void permute(void *arr, size_t size, size_t n, const uint32_t *dest,
                    void *tmp) {
  char *a = arr, *t = tmp;
  for (size_t i = 0; i < n; i++) memcpy(t + dest[i] * size, a + i * size, size);
  memcpy(a, t, n * size);
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
    permute(w->x, sizeof(double), n, dest, tmp);
    permute(w->y, sizeof(double), n, dest, tmp);
    permute(w->vx, sizeof(double), n, dest, tmp);
    permute(w->vy, sizeof(double), n, dest, tmp);
    permute(w->max_speed, sizeof(double), n, dest, tmp);
    permute(w->max_force, sizeof(double), n, dest, tmp);
    permute(w->radius, sizeof(double), n, dest, tmp);
    permute(w->ext, sizeof(agent_ext *), n, dest, tmp);
    permute(w->program, sizeof(steer_program *), n, dest, tmp);
    permute(w->slot_of, sizeof(uint32_t), n, dest, tmp);
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
