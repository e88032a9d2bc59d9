/* formation.c - formations: slots in an anchor's frame, members assigned
 * to slots minimizing the total distance (docs/API.md 17.3).
 *
 * Up to STEER_FORMATION_OPTIMAL members every join and every leave
 * reassigns all members optimally (the Hungarian method, O(n^2 m) for n
 * members and m slots). Beyond that the rule is greedy: a newcomer takes
 * the free slot nearest to it and then trades slots with any member for
 * whom that shortens the sum, a leaver frees its slot and nobody moves;
 * steer_formation_reassign gives each member in join order the free slot
 * nearest to it, then swaps pairs while that shortens the sum. */
#include <string.h>
#include "formation.h"
#include "tactics.h"

struct steer_formation {
  size_t refs;
  steer_target anchor;
  size_t slot_count;
  steer_vec2 *slots;
  int fit;           /* slots fitted to the level (formation_fit.c) */
  size_t count, cap; /* members */
  steer_id *members; /* in join order */
  long *slot_of;     /* each member's slot, -1 none */
  size_t *by_id;     /* member indices sorted by id */
  steer_vec2 *where; /* scratch: the members' positions (swap passes) */
  /* assignment scratch, made with the formation so reassigning never
     fails: columns up to max(slots, OPTIMAL), rows up to OPTIMAL */
  size_t columns;
  void *scratch;
  size_t scratch_bytes;
  assign_scratch as;
  double *cost;         /* rows x columns: distances of members to slots */
  steer_vec2 *slot_pos; /* the slots in the world now */
  unsigned char *taken; /* greedy: slots in use */
  steer_vec2 member_pos[STEER_FORMATION_OPTIMAL];
  long row_col[STEER_FORMATION_OPTIMAL];
};

/* ---- the Hungarian method ----------------------------------------------- */

/* Shortest augmenting paths with row and column potentials (u, v), kept
   so that cost(r, c) - u[r] - v[c] >= 0 and = 0 on assigned pairs. Row r
   is added by growing a tree of tight edges from it, lowering potentials
   by the smallest slack until a free column is reached. Arrays are
   1-based; column 0 is the root of the tree. */
void assign_optimal(size_t n, size_t m, const double *cost,
                    assign_scratch *s, long *row_col) {
  for (size_t j = 0; j <= m; j++) {
    s->v[j] = 0;
    s->col_row[j] = 0;
  }
  for (size_t r = 0; r <= n; r++) s->u[r] = 0;
  for (size_t r = 1; r <= n; r++) {
    size_t j0 = 0;
    s->col_row[0] = r;
    for (size_t j = 0; j <= m; j++) {
      s->minv[j] = HUGE_VAL;
      s->used[j] = 0;
    }
    do {
      s->used[j0] = 1;
      size_t r0 = s->col_row[j0], j1 = 0;
      double delta = HUGE_VAL, u0 = s->u[r0];
      const double *row = cost + (r0 - 1) * m - 1; /* row[j]: column j - 1 */
      for (size_t j = 1; j <= m; j++) {
        if (s->used[j]) continue;
        double slack = row[j] - u0 - s->v[j];
        if (slack < s->minv[j]) {
          s->minv[j] = slack;
          s->way[j] = j0;
        }
        if (s->minv[j] < delta) {
          delta = s->minv[j];
          j1 = j;
        }
      }
      for (size_t j = 0; j <= m; j++) {
        if (s->used[j]) {
          s->u[s->col_row[j]] += delta;
          s->v[j] -= delta;
        } else {
          s->minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (s->col_row[j0] != 0);
    do { /* flip the path back to the root */
      size_t j1 = s->way[j0];
      s->col_row[j0] = s->col_row[j1];
      j0 = j1;
    } while (j0);
  }
  for (size_t r = 0; r < n; r++) row_col[r] = -1;
  for (size_t j = 1; j <= m; j++)
    if (s->col_row[j]) row_col[s->col_row[j] - 1] = (long)j - 1;
}

/* ---- creation ------------------------------------------------------------ */

void steer_formation_shape_slots(steer_formation_shape shape, double spacing,
                                 size_t n, steer_vec2 *out) {
  /* every shape stands behind its anchor, x ahead and y to the left */
  for (size_t k = 0; k < n; k++) {
    double row = (double)(k / 2 + 1), side = k % 2 ? -1 : 1;
    switch (shape) {
    case STEER_FORMATION_LINE: /* abreast, one spacing behind */
      out[k] = v2(-spacing, ((double)(n - 1) / 2 - (double)k) * spacing);
      break;
    case STEER_FORMATION_COLUMN: /* single file */
      out[k] = v2(-(double)(k + 1) * spacing, 0);
      break;
    case STEER_FORMATION_WEDGE: /* a V opening backwards: left, right, ... */
      out[k] = v2(-row * spacing, side * row * spacing);
      break;
    default: { /* a ring of circumference n spacing (radius >= spacing),
                  slot 0 behind */
      double radius = (double)n * spacing / (2 * 3.14159265358979323846);
      if (radius < spacing) radius = spacing;
      double a = 3.14159265358979323846 *
                 (1 + 2 * (double)k / (double)n);
      out[k] = v2(radius * cos(a), radius * sin(a));
    }
    }
  }
}

steer_formation *steer_formation_create(steer_target anchor,
                                        const steer_vec2 *slots, size_t n) {
  if (n > STEER_FORMATION_MAX_SLOTS) return NULL;
  steer_formation *f = steer_alloc(NULL, 0, sizeof *f);
  if (!f) return NULL;
  memset(f, 0, sizeof *f);
  f->refs = 1;
  f->fit = 1;
  f->anchor = anchor;
  f->slot_count = n;
  f->columns = n > STEER_FORMATION_OPTIMAL ? n : STEER_FORMATION_OPTIMAL;
  size_t c1 = f->columns + 1, r1 = STEER_FORMATION_OPTIMAL + 1;
  /* doubles first (the cost matrix, OPTIMAL rows of `columns`), then
     indices, then vectors, then bytes */
  f->scratch_bytes = (r1 + 2 * c1 + (r1 - 1) * f->columns) * sizeof(double) +
                     2 * c1 * sizeof(size_t) +
                     2 * (n ? n : 1) * sizeof(steer_vec2) + c1 + n;
  f->scratch = steer_alloc(NULL, 0, f->scratch_bytes);
  if (!f->scratch) {
    steer_alloc(f, sizeof *f, 0);
    return NULL;
  }
  char *b = f->scratch;
  f->as.u = (double *)b;
  f->as.v = f->as.u + r1;
  f->as.minv = f->as.v + c1;
  f->cost = f->as.minv + c1;
  f->as.col_row = (size_t *)(f->cost + (r1 - 1) * f->columns);
  f->as.way = f->as.col_row + c1;
  f->slots = (steer_vec2 *)(f->as.way + c1);
  f->slot_pos = f->slots + (n ? n : 1);
  f->as.used = (unsigned char *)(f->slot_pos + (n ? n : 1));
  f->taken = f->as.used + c1;
  if (n) memcpy(f->slots, slots, n * sizeof(steer_vec2));
  target_retain(&f->anchor); /* a shared point anchor */
  return f;
}

/* Bytes per member of the members block (members_reserve): its id, slot,
   place by id and position. */
static size_t member_bytes(void) {
  return sizeof(steer_id) + sizeof(long) + sizeof(size_t) + sizeof(steer_vec2);
}

static void members_free(steer_formation *f) {
  steer_alloc(f->members, f->cap * member_bytes(), 0);
  f->members = NULL;
  f->cap = 0;
}

void steer_formation_retain(steer_formation *f) { f->refs++; }

void steer_formation_release(steer_formation *f) {
  if (!f || --f->refs > 0) return;
  target_release(&f->anchor);
  members_free(f);
  steer_alloc(f->scratch, f->scratch_bytes, 0);
  steer_alloc(f, sizeof *f, 0);
}

steer_target steer_formation_anchor(const steer_formation *f) {
  return f->anchor;
}

void steer_formation_set_anchor(steer_formation *f, steer_target anchor) {
  target_retain(&anchor); /* first: the new anchor may be the old one */
  target_release(&f->anchor);
  f->anchor = anchor;
}
size_t steer_formation_slot_count(const steer_formation *f) {
  return f->slot_count;
}
steer_vec2 steer_formation_slot(const steer_formation *f, size_t k) {
  return f->slots[k];
}
size_t steer_formation_member_count(const steer_formation *f) {
  return f->count;
}
steer_id steer_formation_member(const steer_formation *f, size_t k) {
  return f->members[k];
}

/* ---- members ------------------------------------------------------------- */

/* Room for `need` members: one block holds members, slot_of and by_id. */
static steer_status members_reserve(steer_formation *f, size_t need) {
  if (need <= f->cap) return STEER_OK;
  size_t cap = f->cap ? f->cap : 4;
  while (cap < need) {
    if (cap > SIZE_MAX / 64) return STEER_ENOMEM;
    cap *= 2;
  }
  char *block = steer_alloc(NULL, 0, cap * member_bytes());
  if (!block) return STEER_ENOMEM;
  steer_id *members = (steer_id *)block;
  long *slot_of = (long *)(members + cap);
  size_t *by_id = (size_t *)(slot_of + cap);
  steer_vec2 *where = (steer_vec2 *)(by_id + cap);
  if (f->count) {
    memcpy(members, f->members, f->count * sizeof *members);
    memcpy(slot_of, f->slot_of, f->count * sizeof *slot_of);
    memcpy(by_id, f->by_id, f->count * sizeof *by_id);
  }
  members_free(f);
  f->members = members;
  f->slot_of = slot_of;
  f->by_id = by_id;
  f->where = where;
  f->cap = cap;
  return STEER_OK;
}

/* The position in by_id where `id` is or would go. */
static size_t by_id_place(const steer_formation *f, steer_id id) {
  size_t lo = 0, hi = f->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->members[f->by_id[mid]] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The member index of `id`, or -1. */
static long member_index(const steer_formation *f, steer_id id) {
  size_t k = by_id_place(f, id);
  return k < f->count && f->members[f->by_id[k]] == id ? (long)f->by_id[k]
                                                       : -1;
}

long steer_formation_slot_of(const steer_formation *f, steer_id id) {
  long m = member_index(f, id);
  return m < 0 ? -1 : f->slot_of[m];
}

/* ---- assignment ----------------------------------------------------------- */

/* The distances from the n members to the m slots into f->cost, n x m
   (by member) or m x n (by slot). */
static void fill_costs(const steer_world *w, steer_formation *f, size_t n,
                       size_t m, int by_slot) {
  for (size_t r = 0; r < n; r++)
    for (size_t c = 0; c < m; c++) {
      double d = v2_len(world_offset(w, f->member_pos[r], f->slot_pos[c]));
      f->cost[by_slot ? c * n + r : r * m + c] = d;
    }
}

static steer_vec2 slot_world(steer_pose anchor, steer_vec2 slot) {
  double c = cos(anchor.angle), s = sin(anchor.angle);
  return v2(anchor.position.x + c * slot.x - s * slot.y,
            anchor.position.y + s * slot.x + c * slot.y);
}

void steer_formation_set_fit(steer_formation *f, int fit) { f->fit = !!fit; }
int steer_formation_fit(const steer_formation *f) { return f->fit; }

/* The radius of the member holding slot k (0: none). */
static double holder_radius(const steer_world *w, const steer_formation *f,
                            size_t k) {
  for (size_t m = 0; m < f->count; m++)
    if (f->slot_of[m] == (long)k) {
      long i = steer_world_index(w, f->members[m]);
      return i < 0 ? 0 : w->radius[i];
    }
  return 0;
}

steer_vec2 steer_formation_slot_position(const steer_world *w,
                                         const steer_formation *f,
                                         size_t k) {
  steer_pose anchor;
  if (!tactics_target_pose(w, &f->anchor, &anchor))
    anchor.position = v2(0, 0), anchor.angle = 0;
  steer_vec2 fitted;
  if (f->fit &&
      formation_fit(w, anchor, f->slots[k], holder_radius(w, f, k), &fitted))
    return v2_add(anchor.position, fitted);
  return slot_world(anchor, f->slots[k]);
}

static steer_vec2 member_position(const steer_world *w, steer_id id) {
  long i = steer_world_index(w, id);
  return i < 0 ? v2(0, 0) : world_pos(w, (size_t)i);
}

/* The free slot nearest to member m (-1 when none is free). */
static long nearest_free(const steer_world *w, const steer_formation *f,
                         size_t m) {
  steer_vec2 p = member_position(w, f->members[m]);
  long best = -1;
  double best_d = HUGE_VAL;
  for (size_t k = 0; k < f->slot_count; k++) {
    if (f->taken[k]) continue;
    double d = v2_len2(world_offset(w, p, f->slot_pos[k]));
    if (d < best_d || best < 0) {
      best_d = d;
      best = (long)k;
    }
  }
  return best;
}

/* Member a's distance to slot s (0 for no slot: a slotless member adds
   nothing to the sum). */
static double slot_distance(const steer_world *w, const steer_formation *f,
                            steer_vec2 p, long s) {
  return s < 0 ? 0 : v2_len(world_offset(w, p, f->slot_pos[s]));
}

/* Swaps the slots of members a and b (one may have none; f->where holds
   their positions) when that
   shortens the sum of their distances to them (by more than rounding);
   1 when it did. Two members whose straight ways to their slots cross
   always can. */
static int swap_if_shorter(const steer_world *w, steer_formation *f,
                           size_t a, size_t b) {
  long sa = f->slot_of[a], sb = f->slot_of[b];
  if (sa < 0 && sb < 0) return 0;
  steer_vec2 pa = f->where[a], pb = f->where[b];
  double now = slot_distance(w, f, pa, sa) + slot_distance(w, f, pb, sb);
  double then = slot_distance(w, f, pa, sb) + slot_distance(w, f, pb, sa);
  if (!(then < now * (1 - 1e-12))) return 0;
  f->slot_of[a] = sb;
  f->slot_of[b] = sa;
  return 1;
}

/* Beyond STEER_FORMATION_OPTIMAL, after the greedy pass: passes over every
   pair of members, swapping their slots while that shortens the sum, until
   a pass swaps none (then no two ways cross) or SWAP_PASSES passes. */
#define SWAP_PASSES 32
static void shorten_by_swaps(const steer_world *w, steer_formation *f) {
  for (size_t k = 0; k < f->count; k++)
    f->where[k] = member_position(w, f->members[k]);
  for (int pass = 0; pass < SWAP_PASSES; pass++) {
    int swapped = 0;
    for (size_t a = 0; a < f->count; a++)
      for (size_t b = a + 1; b < f->count; b++)
        swapped |= swap_if_shorter(w, f, a, b);
    if (!swapped) return;
  }
}

/* Places the slots in the world; 0 when the anchor agent is gone. */
static int place_slots(const steer_world *w, steer_formation *f) {
  steer_pose anchor;
  if (!tactics_target_pose(w, &f->anchor, &anchor)) return 0;
  for (size_t k = 0; k < f->slot_count; k++)
    f->slot_pos[k] = slot_world(anchor, f->slots[k]);
  return 1;
}

static void mark_taken(steer_formation *f) {
  memset(f->taken, 0, f->slot_count);
  for (size_t m = 0; m < f->count; m++)
    if (f->slot_of[m] >= 0) f->taken[f->slot_of[m]] = 1;
}

static void reassign(const steer_world *w, steer_formation *f) {
  size_t n = f->count, m = f->slot_count;
  if (!place_slots(w, f)) { /* no anchor: member k keeps slot k */
    for (size_t k = 0; k < n; k++) f->slot_of[k] = k < m ? (long)k : -1;
    return;
  }
  if (n > STEER_FORMATION_OPTIMAL) {
    memset(f->taken, 0, m);
    for (size_t k = 0; k < n; k++) {
      f->slot_of[k] = nearest_free(w, f, k);
      if (f->slot_of[k] >= 0) f->taken[f->slot_of[k]] = 1;
    }
    shorten_by_swaps(w, f);
    return;
  }
  for (size_t k = 0; k < n; k++)
    f->member_pos[k] = member_position(w, f->members[k]);
  fill_costs(w, f, n, m, n > m);
  if (n <= m) {
    assign_optimal(n, m, f->cost, &f->as, f->row_col);
    for (size_t k = 0; k < n; k++) f->slot_of[k] = f->row_col[k];
  } else { /* more members than slots: the slots choose their members */
    assign_optimal(m, n, f->cost, &f->as, f->row_col);
    for (size_t k = 0; k < n; k++) f->slot_of[k] = -1;
    for (size_t s = 0; s < m; s++) f->slot_of[f->row_col[s]] = (long)s;
  }
}

void steer_formation_reassign(steer_world *w, steer_formation *f) {
  reassign(w, f);
}

/* Member `id` (not one yet) last in join order, holding `slot` (room
   reserved); returns 0 when it is a member already. */
static int add_member(steer_formation *f, steer_id id, long slot) {
  size_t at = by_id_place(f, id), m = f->count;
  if (at < m && f->members[f->by_id[at]] == id) return 0;
  memmove(f->by_id + at + 1, f->by_id + at, (m - at) * sizeof *f->by_id);
  f->by_id[at] = m;
  f->members[m] = id;
  f->slot_of[m] = slot;
  f->count++;
  return 1;
}

steer_status steer_formation_join(steer_world *w, steer_formation *f,
                                  size_t i) {
  steer_id id = steer_world_id_at(w, i);
  if (member_index(f, id) >= 0) return STEER_OK;
  if (members_reserve(f, f->count + 1)) return STEER_ENOMEM;
  size_t m = f->count;
  add_member(f, id, -1);
  if (f->count <= STEER_FORMATION_OPTIMAL || !place_slots(w, f)) {
    reassign(w, f);
  } else { /* greedy: the newcomer takes the nearest free slot, then
              trades it with any member for whom that shortens the sum */
    mark_taken(f);
    f->slot_of[m] = nearest_free(w, f, m);
    for (size_t k = 0; k <= m; k++)
      f->where[k] = member_position(w, f->members[k]);
    for (size_t b = 0; b < m; b++) swap_if_shorter(w, f, m, b);
  }
  return STEER_OK;
}

void steer_formation_leave(steer_world *w, steer_formation *f, steer_id id) {
  long m = member_index(f, id);
  if (m < 0) return;
  size_t k = 0, n = f->count;
  for (size_t j = 0; j < n; j++) { /* drop it from by_id, renumbering */
    size_t x = f->by_id[j];
    if (x == (size_t)m) continue;
    f->by_id[k++] = x > (size_t)m ? x - 1 : x;
  }
  memmove(f->members + m, f->members + m + 1,
          (n - (size_t)m - 1) * sizeof *f->members);
  memmove(f->slot_of + m, f->slot_of + m + 1,
          (n - (size_t)m - 1) * sizeof *f->slot_of);
  f->count--;
  if (f->count <= STEER_FORMATION_OPTIMAL) reassign(w, f);
}

/* ---- programs' membership ------------------------------------------------ */

static steer_formation *entry_formation(const steer_program *p, size_t k) {
  const steer_target *t = &p->entries[k].target;
  return t->kind == STEER_TARGET_FORMATION ? t->formation : NULL;
}

static int names(const steer_program *p, const steer_formation *f) {
  for (size_t k = 0; p && k < p->count; k++)
    if (entry_formation(p, k) == f) return 1;
  return 0;
}

steer_status formation_reserve(const steer_program *p, size_t extra) {
  for (size_t k = 0; p && k < p->count; k++) {
    steer_formation *f = entry_formation(p, k);
    if (f && members_reserve(f, f->count + extra)) return STEER_ENOMEM;
  }
  return STEER_OK;
}

steer_status formation_make_room(steer_formation *f) {
  return members_reserve(f, f->count + 1);
}

void formation_world_gone(const steer_program *p) {
  for (size_t k = 0; p && k < p->count; k++) {
    steer_formation *f = entry_formation(p, k);
    if (f) f->count = 0;
  }
}

void formation_program_switch(steer_world *w, size_t i,
                              const steer_program *before,
                              const steer_program *after) {
  steer_id id = steer_world_id_at(w, i);
  for (size_t k = 0; before && k < before->count; k++) {
    steer_formation *f = entry_formation(before, k);
    if (f && !names(after, f)) steer_formation_leave(w, f, id);
  }
  for (size_t k = 0; after && k < after->count; k++) {
    steer_formation *f = entry_formation(after, k);
    if (f) (void)steer_formation_join(w, f, i); /* room was reserved */
  }
}

void formation_retarget(steer_world *w, size_t i,
                        const steer_target *before) {
  const steer_program *p = w->program[i];
  if (before->kind == STEER_TARGET_FORMATION && !names(p, before->formation))
    steer_formation_leave(w, before->formation, steer_world_id_at(w, i));
  formation_program_switch(w, i, NULL, p);
}

steer_status formation_restore_members(steer_world *w, steer_formation *f,
                                       const steer_id *ids, const long *slots,
                                       size_t n) {
  if (f->count) return STEER_EINVAL;
  size_t naming = 0; /* the agents whose programs name f */
  for (size_t i = 0; i < w->count; i++) naming += names(w->program[i], f);
  if (naming != n) return STEER_EINVAL;
  memset(f->taken, 0, f->slot_count);
  for (size_t m = 0; m < n; m++) {
    long i = steer_world_index(w, ids[m]);
    if (i < 0 || !names(w->program[i], f) || slots[m] < -1 ||
        slots[m] >= (long)f->slot_count ||
        (slots[m] >= 0 && f->taken[slots[m]]))
      return STEER_EINVAL;
    if (slots[m] >= 0) f->taken[slots[m]] = 1;
  }
  if (members_reserve(f, n)) return STEER_ENOMEM;
  for (size_t m = 0; m < n; m++) /* as joins, in their order */
    if (!add_member(f, ids[m], slots[m])) {
      f->count = 0; /* a repeated id: nothing kept */
      return STEER_EINVAL;
    }
  return STEER_OK;
}

/* ---- the force ------------------------------------------------------------ */

steer_vec2 formation_force(const steer_world *w, size_t i,
                           const steer_formation *f, double slowing_radius) {
  steer_pose anchor;
  long k = steer_formation_slot_of(f, steer_world_id_at(w, i));
  if (k < 0 || !tactics_target_pose(w, &f->anchor, &anchor))
    return v2(0, 0);
  /* an escort of the anchor at its slot, fitted as the formation fits */
  return steer_agent_offset_pursuit(w, i, anchor, f->slots[k], slowing_radius,
                                    f->fit);
}

steer_vec2 steer_agent_formation(const steer_world *w, size_t i,
                                 const steer_formation *f,
                                 double slowing_radius) {
  return formation_force(w, i, f, slowing_radius);
}
