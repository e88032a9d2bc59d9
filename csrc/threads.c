/* threads.c - a small pool of worker threads that splits a step's loops.
 *
 * pool_run(fn) calls fn(ctx, part) for part 0..parts-1, the caller doing
 * part 0 and each worker one other part, and returns when all are done.
 * Parts touch disjoint agents, so results do not depend on the number of
 * threads. Built without threads (STEER_NO_THREADS) every part runs on the
 * caller. */
#include <stdlib.h>
#include "threads.h"

#ifndef STEER_NO_THREADS
#include <pthread.h>

struct steer_pool {
  int parts;
  pthread_t *workers;
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  unsigned long round;   /* bumped for each pool_run */
  int pending;           /* workers still running this round */
  int quit;
  pool_fn fn;
  void *ctx;
  int active;            /* parts this round */
};

typedef struct worker_arg {
  steer_pool *pool;
  int part;
} worker_arg;

static void *worker_main(void *arg) {
  worker_arg a = *(worker_arg *)arg;
  free(arg);
  steer_pool *p = a.pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!p->quit && p->round == seen) pthread_cond_wait(&p->wake, &p->lock);
    if (p->quit) break;
    seen = p->round;
    pool_fn fn = p->fn;
    void *ctx = p->ctx;
    int active = p->active;
    pthread_mutex_unlock(&p->lock);
    if (a.part < active) fn(ctx, a.part);
    pthread_mutex_lock(&p->lock);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
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
  pthread_mutex_lock(&p->lock);
  p->fn = fn;
  p->ctx = ctx;
  p->active = parts;
  p->pending = p->parts - 1;
  p->round++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  fn(ctx, 0);
  pthread_mutex_lock(&p->lock);
  while (p->pending) pthread_cond_wait(&p->done, &p->lock);
  pthread_mutex_unlock(&p->lock);
}

int pool_parts(const steer_pool *p) { return p->parts; }

void pool_destroy(steer_pool *p) {
  if (!p) return;
  if (p->parts > 1) {
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
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

int pool_parts(const steer_pool *p) { return p->parts; }

void pool_destroy(steer_pool *p) { free(p); }

#endif
