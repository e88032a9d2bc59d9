/* threads.c - a small pool of worker threads that splits a step's loops.
 *
 * pool_run(fn) calls fn(ctx, part) for part 0..parts-1, the caller doing
 * part 0 and each worker one other part, and returns when all are done.
 * Parts touch disjoint agents, so results do not depend on the number of
 * threads. Built without threads (STEER_NO_THREADS) every part runs on the
 * caller. */
#define _POSIX_C_SOURCE 200112L /* sched_yield */
#include <stdlib.h>
#include "threads.h"

#ifndef STEER_NO_THREADS
#include <pthread.h>
#include <sched.h>

/* how long a thread spins for the next round (or the workers' end) before
   it sleeps: a step runs its rounds back to back, and waking a sleeping
   thread costs tens of microseconds. The spin yields now and then, so that
   on a busy machine it hands the core to whoever needs it. */
#define SPINS 20000
#define SPINS_PER_YIELD 256

static void spin_pause(int k) {
  if (k % SPINS_PER_YIELD == SPINS_PER_YIELD - 1) sched_yield();
}

struct steer_pool {
  int parts;
  pthread_t *workers;
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  unsigned long round;   /* bumped for each pool_run (atomic) */
  int pending;           /* workers still running this round (atomic) */
  int sleepers;          /* workers waiting on `wake` (under lock) */
  int quit;              /* (atomic) */
  pool_fn fn;            /* this round's work, published by `round` */
  void *ctx;
  int active;
};

typedef struct worker_arg {
  steer_pool *pool;
  int part;
} worker_arg;

static unsigned long load_round(steer_pool *p) {
  return __atomic_load_n(&p->round, __ATOMIC_ACQUIRE);
}

static void *worker_main(void *arg) {
  worker_arg a = *(worker_arg *)arg;
  free(arg);
  steer_pool *p = a.pool;
  unsigned long seen = 0;
  for (;;) {
    for (int k = 0; k < SPINS && load_round(p) == seen; k++) {
      if (__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE)) return NULL;
      spin_pause(k);
    }
    if (load_round(p) == seen) {
      pthread_mutex_lock(&p->lock);
      while (!p->quit && load_round(p) == seen) {
        p->sleepers++;
        pthread_cond_wait(&p->wake, &p->lock);
        p->sleepers--;
      }
      pthread_mutex_unlock(&p->lock);
      if (__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE)) return NULL;
    }
    seen = load_round(p);
    if (a.part < p->active) p->fn(p->ctx, a.part);
    if (__atomic_sub_fetch(&p->pending, 1, __ATOMIC_ACQ_REL) == 0) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->lock);
    }
  }
}

steer_pool *pool_create(int parts) {
  steer_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->parts = parts < 1 ? 1 : parts;
  if (p->parts == 1) return p;
  p->workers = calloc((size_t)p->parts - 1, sizeof *p->workers);
  if (!p->workers || pthread_mutex_init(&p->lock, NULL)) goto fail_early;
  if (pthread_cond_init(&p->wake, NULL)) goto fail_lock;
  if (pthread_cond_init(&p->done, NULL)) goto fail_wake;
  for (int k = 1; k < p->parts; k++) {
    worker_arg *a = malloc(sizeof *a);
    if (a) {
      a->pool = p;
      a->part = k;
    }
    if (!a || pthread_create(&p->workers[k - 1], NULL, worker_main, a)) {
      free(a);
      p->parts = k; /* the workers started so far are joined */
      pool_destroy(p);
      return NULL;
    }
  }
  return p;
fail_wake:
  pthread_cond_destroy(&p->wake);
fail_lock:
  pthread_mutex_destroy(&p->lock);
fail_early:
  free(p->workers);
  free(p);
  return NULL;
}

void pool_run(steer_pool *p, pool_fn fn, void *ctx, int parts) {
  if (p->parts == 1 || parts <= 1) {
    for (int k = 0; k < parts; k++) fn(ctx, k);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  p->active = parts;
  __atomic_store_n(&p->pending, p->parts - 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&p->round, 1, __ATOMIC_RELEASE); /* publishes the above */
  pthread_mutex_lock(&p->lock);
  if (p->sleepers) pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  fn(ctx, 0);
  for (int k = 0; k < SPINS && __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE);
       k++)
    spin_pause(k);
  if (__atomic_load_n(&p->pending, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&p->lock);
    while (__atomic_load_n(&p->pending, __ATOMIC_ACQUIRE))
      pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
  }
}


void pool_destroy(steer_pool *p) {
  if (!p) return;
  if (p->parts > 1) {
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->quit, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int k = 1; k < p->parts; k++) pthread_join(p->workers[k - 1], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
  }
  free(p->workers);
  free(p);
}

#else /* STEER_NO_THREADS */

struct steer_pool {
  int parts;
};

steer_pool *pool_create(int parts) {
  steer_pool *p = malloc(sizeof *p);
  if (p) p->parts = parts < 1 ? 1 : parts;
  return p;
}

void pool_run(steer_pool *p, pool_fn fn, void *ctx, int parts) {
  (void)p;
  for (int k = 0; k < parts; k++) fn(ctx, k);
}


void pool_destroy(steer_pool *p) { free(p); }

#endif
