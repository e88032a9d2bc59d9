/* sort.c - keeps agents ordered by grid cell: a stable counting sort that
 * moves every per-agent array in place, so that the agents of a cell sit
 * side by side in memory and a neighbor walk streams through them. */
#include <stdint.h>
#include "sort.h"
#include "states.h"

#define SWAP(T, a, i, j)   \
  do {                     \
    T t_ = (a)[i];         \
    (a)[i] = (a)[j];       \
    (a)[j] = t_;           \
  } while (0)

/* Does bucket b of a sorted grid hold index i? Most agents stay in their
   bucket from one step to the next: one look, where a search for the
   bucket holding i (a gallop over a big level's empty buckets) mispredicts
   its way through a dozen probes. */
static int bucket_holds(const uint32_t *starts, size_t b, size_t i) {
  return starts[b] <= i && i < starts[b + 1];
}

/* The key pass, split between threads: each agent's bucket into dest,
   and whether any agent left the bucket the current order puts it in. */
typedef struct key_job {
  steer_world *w;
  uint32_t *dest;
  int parts;
  int changed[STEER_MAX_THREADS];
} key_job;

static void key_part(void *ctx, int part) {
  key_job *job = ctx;
  steer_world *w = job->w;
  const steer_grid *g = &w->grid;
  const uint32_t *starts = g->starts;
  size_t n = w->count;
  size_t from = n * (size_t)part / (size_t)job->parts;
  size_t to = n * (size_t)(part + 1) / (size_t)job->parts;
  int changed = !g->sorted;
  grid_buckets_of(g, w->x, w->y, from, to, job->dest);
  for (size_t i = from; i < to && !changed; i++)
    changed = !bucket_holds(starts, job->dest[i], i);
  job->changed[part] = changed;
}

/* A big level with few agents: rather than count every bucket again, the
   starts are mended where agents changed bucket (each change moves the
   starts between its old and new bucket by one), and each present
   bucket's placing index is set. The same starts and order as counting.
   Returns 0 when mending would cost more; nothing changed then but the
   lists' array, which the sort leaves unlinked anyway. */
static int mend_starts(steer_world *w, const uint32_t *dest) {
  steer_grid *g = &w->grid;
  size_t n = w->count;
  if (!g->starts_current || !grid_sparse(g, n)) return 0;
  uint32_t *old = (uint32_t *)g->next; /* scratch: each agent's old bucket */
  size_t at = 0, cost = 0;
  for (size_t i = 0; i < n; i++) {
    at = bucket_holds(g->starts, dest[i], i) ? dest[i]
                                             : grid_bucket_holding(g, at, i);
    old[i] = (uint32_t)at;
    cost += dest[i] > at ? dest[i] - at : at - dest[i];
  }
  if (cost > g->buckets / 4) return 0;
  uint32_t *starts = g->starts;
  for (size_t i = 0; i < n; i++) {
    for (size_t b = (size_t)old[i] + 1; b <= dest[i]; b++) starts[b]--;
    for (size_t b = (size_t)dest[i] + 1; b <= old[i]; b++) starts[b]++;
  }
  for (size_t i = 0; i < n; i++) g->heads[dest[i]] = (int32_t)starts[dest[i]];
  return 1;
}

void world_sort(steer_world *w, uint32_t *dest, steer_pool *pool, int parts) {
  size_t n = w->count;
  steer_grid *g = &w->grid;
  /* sorted now: a neighbor-free world's next sort is SORT_EVERY steps on
     (step.c), the same for a world and its restored snapshot */
  w->unsorted_steps = 0;
  if (!g->buckets) return; /* no agent was ever added */
  /* a hashed grid: buckets in the crowd's space order (when that moves an
     agent's bucket, the key pass below notices and the sort relinks all) */
  if (!g->dense) grid_fit_box(g, w->x, w->y, n);

  uint32_t *starts = g->starts;
  /* when the agents were sorted and none has changed bucket since (a
     settled crowd), the order, the starts and the lists all still hold */
  key_job job;
  job.w = w;
  job.dest = dest;
  job.parts = pool && parts > 1 ? parts : 1;
  if (job.parts > 1)
    pool_run(pool, key_part, &job, job.parts);
  else
    key_part(&job, 0);
  int changed = 0;
  for (int k = 0; k < job.parts; k++) changed |= job.changed[k];
  if (!changed) return;
  /* heads serve as each bucket's next free index while placing */
  if (!mend_starts(w, dest)) {
    /* count per bucket, then the first index of each bucket */
    for (size_t b = 0; b <= g->buckets; b++) starts[b] = 0;
    for (size_t i = 0; i < n; i++) starts[dest[i] + 1]++;
    for (size_t b = 0; b < g->buckets; b++) starts[b + 1] += starts[b];
    for (size_t b = 0; b < g->buckets; b++) g->heads[b] = (int32_t)starts[b];
  }
  int moved = 0;
  for (size_t i = 0; i < n; i++) {
    dest[i] = (uint32_t)g->heads[dest[i]]++;
    moved |= dest[i] != i;
  }
  if (moved) states_permute(w, dest, n); /* before the swaps change dest */
  /* each swap puts one agent where it belongs: n swaps at most, no copy */
  for (size_t i = 0; moved && i < n; i++) {
    while (dest[i] != i) {
      size_t d = dest[i];
      /* d placed already: two agents bound for one index would swap
         forever (a broken placement fails here, under STEER_DEBUG) */
      STEER_ASSERT(dest[d] != d);
#define SWAP_COLUMN(name, type, snap) SWAP(type, w->name, i, d);
      AGENT_COLUMNS(SWAP_COLUMN)
#undef SWAP_COLUMN
      SWAP(uint32_t, dest, i, d);
      w->slots[w->slot_of[d]].index = (uint32_t)d; /* it arrived at d */
    }
    w->slots[w->slot_of[i]].index = (uint32_t)i;
  }
  grid_mark_sorted(g); /* the lists are linked when an edit needs them */
}

steer_status world_sort_now(steer_world *w) {
  if (world_grow(w, (void **)&w->order, sizeof(uint32_t), &w->order_cap,
                 w->count ? w->count : 1))
    return STEER_ENOMEM;
  world_sort(w, w->order, NULL, 1);
  return STEER_OK;
}
