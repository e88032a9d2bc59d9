/* threads.h - the worker pool that splits a step's loops (internal). */
#ifndef STEER_THREADS_H
#define STEER_THREADS_H

typedef struct steer_pool steer_pool;
typedef void (*pool_fn)(void *ctx, int part);

/* A pool running `parts` parts at once (parts - 1 worker threads); NULL
   when threads or memory are missing. */
steer_pool *pool_create(int parts);
/* Runs fn(ctx, part) for part 0..parts-1 (parts <= the pool's) and
   returns when all are done. */
void pool_run(steer_pool *p, pool_fn fn, void *ctx, int parts);
void pool_destroy(steer_pool *p);

#endif
