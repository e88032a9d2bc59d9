/* program.h - behavior programs and the state an agent keeps for its
 * program (internal). Programs know nothing of worlds. */
#ifndef STEER_PROGRAM_H
#define STEER_PROGRAM_H

#include "alloc.h"
#include "flocking.h"
#include "steer.h"
#include "vec.h"

struct steer_program {
  size_t refs;
  steer_allocator alloc; /* what made it frees it: the process's allocator,
                            or a world's for its agents' own copies */
  steer_combine combine;
  double smoothing; /* < 0: none */
  double hold;
  int needs_state;  /* agents running it need a program_state */
  int needs_ext;    /* ... and their cold state (wander, dither) */
  int fused;        /* at most one of each flocking rule: one walk */
  int flocking;     /* it has separation, alignment or cohesion entries */
  int pure_flock;   /* ... and nothing else, weighted, unsmoothed */
  int batched;      /* simple enough for batch_forces (program_batch.h):
                       weighted or priority, unsmoothed, batchable entries */
  int local;        /* no agent targets: reads only agents within reach */
  double reach;     /* the widest flocking radius (0 without flocking) */
  steer_turn turn;  /* steer_program_set_turn */
  int angular;      /* it has angular entries (face, ...) */
  int turns;        /* angular or turn mode: its agents' angle moves */
  flock_rules flock; /* the rules of that walk */
  int has_orca;      /* orca.c turns its force into a safe velocity */
  int pushes;        /* has_orca with push: orca_push.c parts its bodies */
  int orca_plain;    /* orca_plain(p), kept here: the step's pass asks it of
                        every agent's own program (orca_batch.c) */
  steer_orca orca;
  int collide;       /* walls stop its agents' bodies (collide.c) */
  size_t count;
  steer_entry entries[];
};

/* What one agent remembers about one entry of its program. */
typedef struct entry_state {
  uint32_t waypoint; /* path targets: the 0-based waypoint it heads for */
  int32_t active;    /* avoidance with hysteresis: switched on last time */
} entry_state;

/* What one agent remembers about its program. Small on purpose: the sort
   copies every agent's state each step. 32-bit numbers (paths hold at most
   2^32 - 1 points, programs 2^31 - 1 entries: path.c, program.c) and the
   smoothing's and hold's memory kept only by programs that smooth or hold
   (state_memory) took the level program's state from 136 bytes to 48. */
typedef struct program_state {
  uint32_t size;        /* bytes in use; 0: a slot without a state */
  int32_t has_smoothed;
  int32_t held;         /* priority: entry keeping control, -1 none */
  int32_t winner;       /* last priority/dither winner, -1 none */
  entry_state entries[];
} program_state;

/* ... and after its entries, when program_remembers. */
typedef struct state_memory {
  steer_vec2 smoothed;
  double hold_left;     /* seconds the held entry still keeps control */
  steer_vec2 held_force;
} state_memory;

static inline int program_remembers(const steer_program *p) {
  return p->smoothing >= 0 || p->hold > 0;
}

/* The memory of state s of program p (program_remembers(p)). */
static inline state_memory *state_memory_of(const program_state *s,
                                            const steer_program *p) {
  return (state_memory *)(void *)((char *)(uintptr_t)s + sizeof *s +
                                  p->count * sizeof(entry_state));
}

/* Priority's rule, kept here so that both combiners (agent_program.c, an
   agent at a time; program_priority.c, a batch at a time) give the same
   bits. An entry speaks when its weighted force is longer than 0.01; */
#define PRIORITY_LOUD 1e-4
static inline int priority_speaks(steer_vec2 f) {
  return v2_len2(f) > PRIORITY_LOUD;
}
/* the last winner holds control while its hold lasts (entries after it
   are not consulted); a program without hold never holds, so its states
   need not be read for it (they would wait for memory); */
static inline int priority_holding(const steer_program *p,
                                   const program_state *s) {
  return p->hold > 0 && s->held >= 0 && state_memory_of(s, p)->hold_left > 0;
}
/* entry k spoke with force f: it wins, clamped, and holds control for
   p->hold seconds; */
static inline steer_vec2 priority_win(const steer_program *p,
                                      program_state *s, size_t k,
                                      steer_vec2 f, double max_force) {
  f = v2_limit(v2_clamp(f, max_force)); /* held: stored state */
  s->winner = (int32_t)k;
  s->held = (int32_t)k;
  if (p->hold > 0) {
    state_memory *m = state_memory_of(s, p);
    m->hold_left = p->hold;
    m->held_force = f;
  }
  return f;
}
/* no entry spoke: an entry holding control (when the step began) keeps
   its last force, else there is none. */
static inline steer_vec2 priority_silent(const steer_program *p,
                                         program_state *s, int holding,
                                         double dt) {
  if (holding) {
    state_memory *m = state_memory_of(s, p);
    m->hold_left -= dt;
    s->winner = s->held;
    return m->held_force;
  }
  s->winner = -1;
  return v2(0, 0);
}

/* Can a snapshot keep entry e's targets (snapshot.c writes `other` as a
   point or an agent, and a formation only as a formation entry's)?
   steer_program_create and steer_agent_set_target refuse the others. */
int program_entry_keepable(const steer_entry *e);

/* A program made by allocator `from` (steer_program_create's is the
   process's; an agent's own copy is its world's); NULL: out of memory. */
steer_program *program_make(const steer_allocator *from,
                            steer_combine combine, double smoothing,
                            double hold, const steer_entry *entries,
                            size_t n);
/* (Re)computes what p's entries imply (the flags and flock above). */
void program_analyze(steer_program *p);
/* Does an agent running entry e need a program_state? */
int program_entry_needs_state(const steer_entry *e);

/* A reference to an entry's shared target (a path or flow field), if any. */
void target_retain(const steer_target *t);
void target_release(const steer_target *t);

#endif
