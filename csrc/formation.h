/* formation.h - formations and their slot assignment (internal). Agents
 * join through formation entries of their programs: the hooks below keep
 * the membership in step with the programs (agent_program.c, world.c). */
#ifndef STEER_FORMATION_H
#define STEER_FORMATION_H

#include "world.h"

/* Makes room in every formation program p names for one more member, so
   that formation_program_switch cannot fail (STEER_ENOMEM: nothing
   joined; the room made stays). `extra` members instead of one. */
steer_status formation_reserve(const steer_program *p, size_t extra);
/* Agent i joins (nothing happens when it is a member; STEER_ENOMEM
   changes nothing) and the members are reassigned. */
steer_status steer_formation_join(steer_world *w, steer_formation *f,
                                  size_t i);
/* Member `id` leaves and the rest are reassigned (no-op for others). */
void steer_formation_leave(steer_world *w, steer_formation *f, steer_id id);
/* Room for one more member of f (formation_retarget cannot fail then). */
steer_status formation_make_room(steer_formation *f);
/* Agent i's program changes from `before` to `after` (either may be NULL):
   it leaves the formations only `before` names and joins the ones `after`
   names (room reserved). */
void formation_program_switch(steer_world *w, size_t i,
                              const steer_program *before,
                              const steer_program *after);
/* The world of an agent running program p is destroyed: the formations p
   names lose every member (a formation's members are one world's agents,
   and a new world's ids start again at 1). */
void formation_world_gone(const steer_program *p);
/* Entry k of agent i's program changes target from `before` to the
   formation target now in the program (room reserved). */
void formation_retarget(steer_world *w, size_t i, const steer_target *before);

/* A restored formation's members (snapshot.c), as they were saved: ids in
   join order holding slots (-1: none), nothing reassigned. STEER_EINVAL
   (nothing changed) unless f has no members yet, the ids are distinct
   agents of w that are exactly the agents whose programs name f, and the
   slots are distinct and f's; STEER_ENOMEM. */
steer_status formation_restore_members(steer_world *w, steer_formation *f,
                                       const steer_id *ids, const long *slots,
                                       size_t n);

/* Slot `slot` of the anchor's frame (x ahead, y left) moved onto ground a
   member of `radius` can stand on: out of the obstacles it lies in, then
   back to the anchor's side of the first wall between them (docs/API.md
   17.3, `fit`). Returns 0 when it stays (nothing in the way, no geometry,
   or on a torus an offset beyond half the world), else 1 with the moved
   offset from the anchor, in the world's axes, in *fitted. */
int formation_fit(const steer_world *w, steer_pose anchor, steer_vec2 slot,
                  double radius, steer_vec2 *fitted);
/* Slot `slot` of the anchor's frame (x ahead, y left) fitted for a member
   of `radius` (formation_fit), back in that frame; a slot that stays keeps
   its own bits. Formation slots and offset_pursuit's offset. */
steer_vec2 formation_fit_slot(const steer_world *w, steer_pose anchor,
                              steer_vec2 slot, double radius);

/* The Hungarian method: the assignment of rows 0..n-1 to distinct columns
   0..m-1 (n <= m) minimizing the summed cost[r m + c], written to row_col.
   Scratch: n + 1 row potentials, m + 1 of the rest. */
typedef struct assign_scratch {
  double *u, *v, *minv; /* row and column potentials, column slack */
  size_t *col_row, *way; /* 1-based row owning each column; path back */
  unsigned char *used;
} assign_scratch;
void assign_optimal(size_t n, size_t m, const double *cost,
                    assign_scratch *s, long *row_col);

#endif
