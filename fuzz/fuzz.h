/* fuzz.h - what every part of the libFuzzer harness shares: decoding the
 * input, the failing allocators, checks, the harness state, snapshots as
 * byte buffers.
 *
 * The harness is one translation unit (mk/sanitize.mk compiles only
 * fuzz/fuzz_core.c), which includes fuzz.h and then each part:
 * world_ops.h, program_ops.h, snapshot_ops.h, crowd_op.h. */
#ifndef FUZZ_H
#define FUZZ_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../csrc/steer.h"

/* Open findings - core bugs whose fixes are proposed in /work/notes/patches
   but have not landed - are kept out of the inputs (test `if (!STRICT)`),
   so that make fuzz-c passes meanwhile, unless the harness is built with
   -DFUZZ_STRICT (make fuzz-c FUZZ_CFLAGS=-DFUZZ_STRICT). fuzz/README.md
   lists them; none is open now. */
#ifdef FUZZ_STRICT
#define STRICT 1
#else
#define STRICT 0
#endif

#define MAX_AGENTS 48
#define MAX_PATH_POINTS 8
#define MAX_ENTRIES 6
#define SLOTS 4 /* paths and programs the harness holds */
#define MAX_DENSE_CELLS 16384.0 /* see decode_world */

/* Below this many agents steer_world_step runs on one thread whatever the
   world's `threads` (THREADED_MIN_AGENTS in csrc/step.c). The crowd
   operation adds at least this many so that a second thread works. */
#define FUZZ_THREADED_MIN 4096

/* ---- decoding ------------------------------------------------------------ */

typedef struct reader {
  const uint8_t *p;
  size_t n, at;
} reader;

static int more(const reader *r) { return r->at < r->n; }

static uint8_t u8(reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }

static uint16_t u16(reader *r) {
  uint16_t lo = u8(r);
  return (uint16_t)(lo | (uint16_t)(u8(r) << 8));
}

static uint32_t u32(reader *r) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= (uint32_t)u8(r) << (8 * k);
  return v;
}

static uint64_t u64(reader *r) {
  uint64_t v = 0;
  for (int k = 0; k < 8; k++) v |= (uint64_t)u8(r) << (8 * k);
  return v;
}

static double raw_double(reader *r) {
  uint64_t bits = u64(r);
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

/* Values worth hitting exactly: signed zeros, subnormals, the 1e-5 and
   1e-4 thresholds, the limit itself. */
static const double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-5, -1e-5, 1.00001e-5, 9.9999e-6,
    1e-4, 1e-300, -1e-300, 5e-324, 1e-150, 1e150, -1e150, 1e149, 3.0,
    9007199254740992.0, 1e75, 1e-75, 0.01, 100.0};
#define NSPECIALS (sizeof specials / sizeof specials[0])

/* Any double of the domain: finite, |x| <= STEER_LIMIT. */
static double num(reader *r) {
  uint8_t how = u8(r);
  switch (how % 4) {
  case 0: return specials[u8(r) % NSPECIALS];
  case 1: return (double)(int16_t)u16(r) / 64.0; /* game scale */
  case 2: return (double)(int8_t)u8(r);
  default: {
    double v = raw_double(r);
    if (!isfinite(v)) return 0.0;
    if (fabs(v) > STEER_LIMIT) v = fmod(v, STEER_LIMIT);
    return v;
  }
  }
}

static double nonneg(reader *r) { return fabs(num(r)); }

static double positive(reader *r) {
  double v = nonneg(r);
  return v > 0 ? v : 1.0;
}

/* a world extent or cell size */
static double extent(reader *r) { return positive(r); }

/* ---- failing allocators --------------------------------------------------- */

typedef struct alloc_state {
  uint32_t rng;  /* decides which allocations fail */
  uint32_t odds; /* fail one in `odds` (0: never) */
  int paused;    /* > 0: never fail (the harness's own bookkeeping) */
} alloc_state;

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  alloc_state *a = ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (nsize > ((size_t)1 << 30)) return NULL; /* as a real machine would */
  if (a->odds && !a->paused) {
    a->rng = a->rng * 1103515245u + 12345u;
    if ((a->rng >> 16) % a->odds == 0) return NULL;
  }
  return realloc(ptr, nsize);
}

/* Paths, programs and worlds restored without an allocator use the
   process-wide one (steer_set_allocator): this one, which each input may
   make fail too. */
static alloc_state global_alloc;

/* ---- checks ------------------------------------------------------------------ */

#define CHECK(cond, ...)                                         \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "fuzz_core: check failed: %s\n  ", #cond); \
      fprintf(stderr, __VA_ARGS__);                              \
      fprintf(stderr, "\n");                                     \
      abort();                                                   \
    }                                                            \
  } while (0)

/* FUZZ_DEBUG=1: what happened, on stderr (steps, restores, ENOMEM). */
#define DEBUG(...)                                        \
  do {                                                    \
    if (getenv("FUZZ_DEBUG")) fprintf(stderr, __VA_ARGS__); \
  } while (0)

static int finite2(steer_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static double len2d(steer_vec2 v) {
  double m = fmax(fabs(v.x), fabs(v.y));
  if (m == 0) return 0;
  double a = v.x / m, b = v.y / m;
  return m * sqrt(a * a + b * b);
}

/* |f| <= max, with rounding slack */
static void check_bound(const char *what, steer_vec2 f, double max) {
  CHECK(finite2(f), "%s returned (%g, %g)", what, f.x, f.y);
  double l = len2d(f);
  CHECK(l <= max * (1 + 1e-9) + 1e-300, "%s: |f| = %.17g > max %.17g", what, l,
        max);
}

/* as the core wraps a coordinate on a torus */
static double wrap_coord(double v, double extent) {
  v = fmod(v, extent);
  if (v < 0) v += extent;
  return v < extent ? v : 0;
}

/* Cells per axis of a bounded world, as csrc/grid.c makes them. */
static double axis_cells(double extent, double cell) {
  double n = fmin(floor(extent / cell), floor(extent * 1e150));
  return fmin(fmax(n, 1), 1048576);
}

static int world_mode(const steer_world_def *d) {
  if (!(d->width > 0 && d->height > 0)) return 0;
  return d->wrap ? 1 : 2;
}

/* ---- the harness ----------------------------------------------------------- */

/* The program bookkeeping of an agent (smoothing, priority's hold), as
   the harness models it from set_program through steering calls; a step,
   or a steering call the model cannot follow, makes it unknown. */
typedef struct known_state {
  int valid;
  int has_smoothed;
  steer_vec2 smoothed;
  long held;
  double hold_left;
  steer_vec2 held_force;
} known_state;

/* What the harness knows about one live agent. */
typedef struct mirror {
  steer_id id;
  steer_program *shadow; /* a program its program must equal; NULL: none */
  double mf_high;        /* largest max_force since its program state began */
  known_state st;
} mirror;

#define MAX_LOG 64

typedef struct harness {
  steer_world *w;
  steer_world_def def;
  int mode; /* 0 free, 1 wrap, 2 clamp */
  alloc_state *a; /* the world's allocator */
  mirror ag[MAX_AGENTS];
  size_t n;
  steer_id dead[8]; /* some removed ids */
  size_t ndead;
  size_t obstacles, walls;
  steer_path *paths[SLOTS];
  steer_point *points[SLOTS];    /* shared points entries may aim at */
  steer_program *progs[SLOTS];   /* programs handed to agents */
  steer_program *shadows[SLOTS]; /* equal copies no agent ever gets */
  /* digests of the world after each step, compared between the 1-thread
     and the 2-thread run of the same input */
  uint64_t log[MAX_LOG];
  size_t nlog;
  int threaded; /* a step had enough agents for a second thread */
} harness;

static void pause_alloc(harness *h) {
  h->a->paused++;
  global_alloc.paused++;
}

static void resume_alloc(harness *h) {
  h->a->paused--;
  global_alloc.paused--;
}

/* Can an allocation fail now? */
static int failing(const harness *h) {
  return (h->a->odds && !h->a->paused) ||
         (global_alloc.odds && !global_alloc.paused);
}

/* The mirror entry of the agent at dense index i. */
static mirror *mirror_of(harness *h, size_t i) {
  steer_id id = steer_world_id_at(h->w, i);
  for (size_t k = 0; k < h->n; k++)
    if (h->ag[k].id == id) return &h->ag[k];
  CHECK(0, "agent %zu (id %llu) is not in the mirror", i,
        (unsigned long long)id);
  return NULL;
}

static size_t pick(reader *r, const harness *h) { return u8(r) % h->n; }

/* ---- FNV-1a 64 ------------------------------------------------------------- */

#define FNV_START 0xCBF29CE484222325ull

static uint64_t fnv(uint64_t hash, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  for (size_t k = 0; k < n; k++) {
    hash ^= p[k];
    hash *= 0x100000001B3ull;
  }
  return hash;
}

/* ---- snapshots as byte buffers -------------------------------------------- */

typedef struct bytes {
  unsigned char *p;
  size_t n, cap;
  size_t fail_after; /* a write past this many bytes fails (0: never) */
} bytes;

static int bytes_write(void *ud, const void *src, size_t n) {
  bytes *b = ud;
  if (b->fail_after && b->n + n > b->fail_after) return 1;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->n + n) cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    CHECK(p != NULL, "out of memory in the harness");
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
  return 0;
}

static void bytes_free(bytes *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* FUZZ_DUMP_SNAPSHOTS=dir writes every snapshot snapshot_of() takes to
   dir/snap-<hash> (how the seed-raw-* inputs of the corpus were made). */
static void dump_snapshot(const bytes *b) {
  static const char *dir;
  static int looked;
  if (!looked) {
    dir = getenv("FUZZ_DUMP_SNAPSHOTS");
    looked = 1;
  }
  if (!dir) return;
  char name[4096];
  snprintf(name, sizeof name, "%s/snap-%016llx", dir,
           (unsigned long long)fnv(FNV_START, b->p, b->n));
  FILE *f = fopen(name, "wb");
  if (!f) return;
  fwrite(b->p, 1, b->n, f);
  fclose(f);
}

/* A snapshot that must succeed: the allocators are held off. */
static bytes snapshot_of(harness *h, steer_world *w) {
  bytes b;
  memset(&b, 0, sizeof b);
  pause_alloc(h);
  steer_status s = steer_world_snapshot(w, bytes_write, &b);
  resume_alloc(h);
  CHECK(s == STEER_OK, "snapshot failed: %d", (int)s);
  dump_snapshot(&b);
  return b;
}

static int bytes_equal(const bytes *a, const bytes *b) {
  return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* Offset of the first difference (for messages). */
static size_t bytes_diff(const bytes *a, const bytes *b) {
  size_t k = 0;
  while (k < a->n && k < b->n && a->p[k] == b->p[k]) k++;
  return k;
}

/* Writes the FNV-1a 64 checksum of everything before the last 8 bytes
   into them (docs/SNAPSHOT.md), so that restore validates the body. */
static void fix_checksum(unsigned char *p, size_t n) {
  if (n < 8) return;
  uint64_t sum = fnv(FNV_START, p, n - 8);
  for (int k = 0; k < 8; k++) p[n - 8 + k] = (unsigned char)(sum >> (8 * k));
}

#endif
