/* program_priority.c - the priority combiner for a batch of agents running
 * one program (program_batch.h), entry by entry.
 *
 * agent_program.c's combine_priority takes one agent down its entries
 * until one speaks. Here an entry is computed for every agent of the batch
 * still undecided (batch_entry), then the agents it speaks for are decided
 * and leave: each agent's entries are computed in program order, the ones
 * after its winner (or beyond an entry that holds control) never, so its
 * states change as there, and each decision is the same arithmetic on the
 * same numbers, so the same bits. */
#include "crowd.h"
#include "neighbors.h"
#include "program_batch.h"

/* Room per sum for a run of up to four agents walked in the lanes (they
   write up to three slots past the run). */
#define RUN_STRIDE 8

/* The agents of v at positions pos[0 .. m - 1], as a view of their own:
   index and states copied, columns when `columns` (the entries that read
   them: flocking rules and wander), flocking sums when `flocking`. */
typedef struct subset {
  size_t index[BATCH_MAX];
  program_state *states[BATCH_MAX];
  double sums[9 * BATCH_MAX];
  double copy[4][BATCH_MAX];
  batch_agents a;
  batch_view v;
} subset;

static void subset_of(const steer_world *w, const batch_view *v,
                      const int *pos, int m, int columns, int flocking,
                      subset *s) {
  for (int j = 0; j < m; j++) {
    s->index[j] = v->index[pos[j]];
    s->states[j] = v->states[pos[j]];
  }
  if (columns) batch_gather(w, s->index, m, &s->a, s->copy);
  s->v.index = s->index;
  s->v.n = m;
  s->v.a = columns ? &s->a : NULL;
  s->v.states = s->states;
  s->v.sums = NULL;
  s->v.stride = BATCH_MAX;
  if (!flocking) return;
  for (int f = 0; f < 9; f++)
    for (int j = 0; j < m; j++)
      s->sums[f * BATCH_MAX + j] = v->sums[f * v->stride + (size_t)pos[j]];
  s->v.sums = s->sums;
}

/* Is entry e a flocking rule (its force from the walk's sums)? */
static int is_flocking(const steer_entry *e) {
  return e->behavior >= STEER_SEPARATION && e->behavior <= STEER_COHESION;
}

/* The sums of the agents of the batch at positions consult[0 .. c - 1]
   (not walked yet), walked as program_force walks them (at its first
   flocking entry) into sums[f * BATCH_MAX + slot], slot j for consult[j]
   when `packed`, else consult[j] itself; walked[] marks them. Runs of
   agents that follow each other in the batch and in the world (most often
   neighbors in one cell) go through the lanes. */
static void walk_late(steer_world *w, const steer_program *p,
                      const batch_view *v, const int *consult, int c,
                      int packed, double *sums, char *walked,
                      steer_stats *stats) {
  int fast = flock_fast_ok(w, &p->flock);
  for (int j = 0; j < c;) {
    int k = consult[j], at = packed ? j : k;
    if (walked[k]) {
      j++;
      continue;
    }
    if (!fast) {
      walked[k] = 1;
      batch_walk(w, p, 0, v->index[k], sums + at, BATCH_MAX, stats);
      j++;
      continue;
    }
    int m = 1;
    while (m < 4 && j + m < c && consult[j + m] == k + m &&
           v->index[k + m] == v->index[k] + (size_t)m && !walked[k + m])
      m++;
    if (at + 4 <= BATCH_MAX) {
      /* in place: the lanes' spare slots are later agents' (walked
         later, or never read) */
      m = crowd_walk_run(w, p, v->index[k], m, sums + at, BATCH_MAX, stats);
    } else {
      double run[9 * RUN_STRIDE];
      m = crowd_walk_run(w, p, v->index[k], m, run, RUN_STRIDE, stats);
      for (int r = 0; r < m; r++)
        for (int f = 0; f < 9; f++)
          sums[f * BATCH_MAX + at + r] = run[f * RUN_STRIDE + r];
    }
    for (int r = 0; r < m; r++) walked[k + r] = 1;
    j += m;
  }
}

/* Are entries q and q + 1 avoid_walls (without whiskers) and
   avoid_obstacles, which batch_avoid_pair takes at once? */
static int pairs_avoid(const steer_program *p, size_t q) {
  return q + 1 < p->count &&
         p->entries[q].behavior == STEER_AVOID_WALLS &&
         !p->entries[q].whiskers &&
         p->entries[q + 1].behavior == STEER_AVOID_OBSTACLES;
}

/* Entries q and q + 1 (pairs_avoid) for the agents of batch v at
   positions consult[0 .. c - 1] (`view` holds them), without hold: the
   agents entry q speaks for decided there, the rest by entry q + 1 when it
   speaks, the others into pending[*left ..]. 0, deciding nothing, when
   batch_avoid_pair cannot take them (fx, fy untouched then). */
static int avoid_pair(steer_world *w, const steer_program *p, size_t q,
                      const batch_view *v, const batch_view *view,
                      const int *consult, int c, double *fx, double *fy,
                      steer_vec2 *out, char *decided, int *pending,
                      int *left) {
  char felt[BATCH_MAX];
  if (!batch_avoid_pair(w, p, q, view, fx, fy, felt)) return 0;
  /* the winners and the rest parted without a branch (where walls and
     obstacles are dense, who speaks is not predictable), then the winners
     decided */
  int won[BATCH_MAX], nw = 0, l = *left;
  size_t won_at[BATCH_MAX];
  steer_vec2 wf[BATCH_MAX];
  for (int j = 0; j < c; j++) {
    int o = felt[j] != 0, k = consult[j];
    steer_vec2 f = v2(fx[j], fy[j]); /* the walls', or the obstacles' */
    int speaks = priority_speaks(f);
    wf[nw] = f;
    won[nw] = k;
    won_at[nw] = q + (size_t)o;
    nw += speaks;
    pending[l] = k; /* in place: consult is pending (read above) */
    l += !speaks;
  }
  *left = l;
  for (int i = 0; i < nw; i++) {
    int k = won[i];
    out[k] = priority_win(p, v->states[k], won_at[i], wf[i],
                          w->max_force[v->index[k]]);
    decided[k] = 1;
  }
  return 1;
}

void batch_priority(steer_world *w, const steer_program *p,
                    const batch_view *v, double dt, steer_vec2 *out,
                    steer_stats *stats) {
  int n = v->n, pending[BATCH_MAX], m = 0, held[BATCH_MAX];
  long last[BATCH_MAX]; /* the last entry each agent consults */
  int holding[BATCH_MAX];
  double fx[BATCH_MAX], fy[BATCH_MAX];
  double walked_sums[9 * BATCH_MAX];
  char walked[BATCH_MAX], decided[BATCH_MAX];
  batch_view all = *v;
  subset sub;
  /* without hold no agent holds control: each consults every entry until
     one speaks, so the agents still undecided are those that consult */
  int hold = p->hold > 0, flocking_entries = 0;
  for (size_t q = 0; q < p->count; q++)
    flocking_entries += is_flocking(&p->entries[q]);
  for (int k = 0; k < n; k++) {
    program_state *s = v->states[k];
    holding[k] = hold && priority_holding(p, s);
    last[k] = holding[k] ? s->held : (long)p->count - 1;
    pending[m++] = k;
    walked[k] = decided[k] = 0;
  }
  for (size_t q = 0; q < p->count && m > 0; q++) {
    const steer_entry *e = &p->entries[q];
    int c = 0, left = 0;
    int *consult = pending; /* the agents that consult entry q */
    if (hold) {
      consult = held;
      for (int j = 0; j < m; j++)
        if (last[pending[j]] >= (long)q) consult[c++] = pending[j];
    } else {
      c = m;
    }
    if (!c) break; /* the others hold control */
    int flocking = is_flocking(e);
    int columns = flocking || e->behavior == STEER_WANDER;
    /* the program's only flocking rule, walked late: its sums are walked
       straight into the subset's order (nothing copied) */
    int packed = 0;
    if (flocking && !v->sums) {
      packed = flocking_entries == 1;
      walk_late(w, p, v, consult, c, packed, walked_sums, walked, stats);
      all.sums = walked_sums;
      all.stride = BATCH_MAX;
    }
    /* every agent still in (the first entry, mostly): the batch's own
       view, nothing copied */
    const batch_view *view = &all;
    if (c < n) {
      subset_of(w, &all, consult, c, columns, flocking && !packed, &sub);
      if (packed) {
        sub.v.sums = walked_sums;
        sub.v.stride = BATCH_MAX;
      }
      view = &sub.v;
    }
    if (!hold && pairs_avoid(p, q) &&
        avoid_pair(w, p, q, v, view, consult, c, fx, fy, out, decided,
                   pending, &left)) {
      m = left;
      q++; /* entry q + 1 is done too */
      continue;
    }
    for (int j = 0; j < c; j++) fx[j] = fy[j] = -0.0; /* -0 + x is x */
    batch_entry(w, p, q, view, fx, fy);
    /* the winners and the rest parted without a branch, as in avoid_pair */
    int won[BATCH_MAX], nw = 0;
    steer_vec2 wf[BATCH_MAX];
    for (int j = 0; j < c; j++) {
      int k = consult[j];
      steer_vec2 f = v2(fx[j], fy[j]);
      int speaks = priority_speaks(f);
      wf[nw] = f;
      won[nw] = k;
      nw += speaks;
      pending[left] = k; /* in place when consult is pending (read above) */
      left += !speaks;
    }
    for (int i = 0; i < nw; i++) {
      int k = won[i];
      out[k] = priority_win(p, v->states[k], q, wf[i],
                            w->max_force[v->index[k]]);
      decided[k] = 1;
    }
    m = left;
  }
  /* the others: no entry they consulted spoke */
  for (int k = 0; k < n; k++)
    if (!decided[k]) out[k] = priority_silent(p, v->states[k], holding[k], dt);
}
