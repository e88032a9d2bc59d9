/* program.h - behavior programs and their per-agent state (internal). */
#ifndef STEER_PROGRAM_H
#define STEER_PROGRAM_H

#include "steer.h"

/* Flocking: the rules a neighbor walk gathers sums for. */
typedef struct flock_rules {
  double sep_hi, sep_lo; /* separation: sep_lo < d2 <= sep_hi; -1: none */
  double ali2, coh2;     /* alignment, cohesion: d2 <= r^2; -1: none */
  double reach;          /* the widest radius */
} flock_rules;

struct steer_program {
  size_t refs;
  steer_alloc_fn alloc; /* what made it frees it: the process's allocator, */
  void *alloc_ud;       /* or a world's for its agents' own copies */
  steer_combine combine;
  double smoothing; /* < 0: none */
  double hold;
  int needs_state;  /* agents running it need a program_state */
  int needs_ext;    /* ... and their cold state (wander, dither) */
  int fused;        /* at most one of each flocking rule: one walk */
  int flocking;     /* it has separation, alignment or cohesion entries */
  int pure_flock;   /* ... and nothing else, weighted, unsmoothed */
  int local;        /* no agent targets: reads only agents within reach */
  double reach;     /* the widest flocking radius (0 without flocking) */
  flock_rules flock; /* the rules of that walk */
  size_t count;
  steer_entry entries[];
};

/* What one agent remembers about one entry of its program. */
typedef struct entry_state {
  size_t waypoint; /* path targets: the 0-based waypoint it heads for */
  int active;      /* avoidance with hysteresis: switched on last time */
} entry_state;

/* What one agent remembers about its program. */
typedef struct program_state {
  size_t size;          /* bytes, for freeing */
  int has_smoothed;
  steer_vec2 smoothed;
  long held;            /* priority: entry keeping control, -1 none */
  double hold_left;     /* seconds it still keeps control */
  steer_vec2 held_force;
  long winner;          /* last priority/dither winner, -1 none */
  entry_state entries[];
} program_state;

struct steer_world;
/* Allocates a fresh state for agent i's program p (NULL if p needs none,
   *failed set when memory runs out). */
program_state *program_state_new(struct steer_world *w, const steer_program *p,
                                 int *failed);
void program_state_free(struct steer_world *w, program_state *s);

/* The force of agent i's program, adding to *stats. The agent's state and
   cold state must exist as the program requires (steer_agent_set_program
   makes sure). `gathered`: the flocking sums of a fused program when the
   caller walked the neighbors already, else NULL. */
struct flock_sums;
steer_vec2 program_force(struct steer_world *w, size_t i, double dt,
                         const struct flock_sums *gathered,
                         steer_stats *stats);

#endif
