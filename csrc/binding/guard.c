/* guard.c - the helpers of the re-entrancy discipline (see guard.h). */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "guard.h"
#include "hooks.h"

#define BLOCK_MT "steer.OwnedBlock"

steer_world *live_world(lua_State *L, lworld *box, const char *fname) {
  if (!box->w) arg_error(L, fname, 0, "world is closed");
  return box->w;
}

agent_ref live_agent(lua_State *L, lworld *box, steer_id id,
                     const char *fname) {
  steer_world *w = live_world(L, box, fname);
  long i = steer_world_index(w, id);
  if (i < 0) arg_error(L, fname, 0, "agent has been removed");
  agent_ref r = {box, w, (size_t)i, id};
  return r;
}

int raw_field(lua_State *L, int idx, const char *key) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, key);
  lua_rawget(L, idx);
  return lua_type(L, -1);
}

/* ---- C blocks owned by Lua ---------------------------------------------- */

owned_block *push_owned_block(lua_State *L) {
  state_hooks *hooks = hooks_of(L);
  owned_block *b = new_userdata(L, sizeof *b);
  memset(b, 0, sizeof *b);
  b->hooks = hooks;
  luaL_getmetatable(L, BLOCK_MT);
  lua_setmetatable(L, -2);
  return b;
}

int owned_reserve(owned_block *b, size_t need) {
  if (need <= b->size) return 1;
  size_t size = b->size < 256 ? 512 : b->size;
  while (size < need) size = size > SIZE_MAX / 2 ? need : size * 2;
  void *p = binding_alloc(b->hooks, b->data, b->size, size);
  if (!p) return 0;
  b->data = p;
  b->size = size;
  return 1;
}

void owned_free(owned_block *b) {
  if (b->data) binding_alloc(NULL, b->data, b->size, 0);
  b->data = NULL;
  b->size = b->used = 0;
}

static int block_gc(lua_State *L) {
  owned_block *b = luaL_testudata(L, 1, BLOCK_MT);
  if (b) owned_free(b);
  return 0;
}

const double *copy_rows(lua_State *L, lworld *box, const char *fname,
                        int width, row_count_fn count, row_read_fn read,
                        size_t *n) {
  for (;;) {
    size_t rows = count(live_world(L, box, fname));
    double *copy = new_userdata(L, rows ? rows * width * sizeof *copy : 1);
    /* the allocation may have run Lua code: resolve again */
    steer_world *w = live_world(L, box, fname);
    size_t now = count(w);
    if (now <= rows) {
      for (size_t i = 0; i < now; i++) read(w, i, copy + i * width);
      *n = now;
      return copy;
    }
    lua_pop(L, 1); /* grown meanwhile */
  }
}

/* ---- queries ------------------------------------------------------------- */

typedef struct collector {
  lworld *box;
  state_hooks *hooks; /* box->found grows through the state's allocator */
  size_t n;
  int failed;
  uint32_t groups; /* collect_grouped: bit g set = group g counts */
} collector;

static int collect_one(void *ud, size_t index) {
  collector *c = ud;
  lworld *box = c->box;
  if (c->n == box->found_cap) {
    size_t cap = box->found_cap ? box->found_cap * 2 : 64;
    steer_id *p = binding_alloc(c->hooks, box->found,
                                box->found_cap * sizeof *p, cap * sizeof *p);
    if (!p) {
      c->failed = 1;
      return 1;
    }
    box->found = p;
    box->found_cap = cap;
  }
  box->found[c->n++] = steer_world_id_at(box->w, index);
  return 0;
}

/* Collects the query's ids into box->found, resolving everything anew. */
static size_t collect(lua_State *L, lworld *box, steer_id around, double x,
                      double y, double radius, const query_filter *f,
                      const char *fname) {
  steer_world *w = live_world(L, box, fname);
  long exclude = -1;
  double angle = isnan(f->angle) ? 0 : f->angle;
  if (around) {
    agent_ref a = live_agent(L, box, around, fname);
    steer_vec2 p = steer_agent_position(w, a.i);
    x = p.x;
    y = p.y;
    exclude = (long)a.i;
    if (isnan(f->angle)) angle = steer_agent_get(w, a.i, STEER_ANGLE);
  }
  box->found_gen++; /* box->found now holds this query's results */
  collector c = {box, hooks_of(L), 0, 0, STEER_ALL_GROUPS};
  steer_world_query_filtered(w, x, y, radius, exclude, f->groups, f->fov,
                             angle, collect_one, &c);
  if (c.failed) luaL_error(L, "not enough memory");
  return c.n;
}

void push_query_iterator(lua_State *L, int env_idx, lworld *box,
                         steer_id around, double x, double y, double radius,
                         const query_filter *f, const char *fname) {
  env_idx = lua_absindex(L, env_idx);
  for (int tries = 0;; tries++) {
    if (tries == 16)
      luaL_error(L, "'%s': the world keeps changing during the call", fname);
    size_t n = collect(L, box, around, x, y, radius, f, fname);
    unsigned gen = box->found_gen;
    /* may run a finalizer that closes the world or queries it again */
    steer_id *ids = push_id_iterator(L, env_idx, n, fname);
    if (box->w && box->found_gen == gen) {
      if (n) memcpy(ids, box->found, n * sizeof *ids);
      return;
    }
    lua_pop(L, 1);
  }
}

/* collect_one for the agents of c->groups only (query_box's filter) */
static int collect_grouped(void *ud, size_t index) {
  collector *c = ud;
  int g = (int)steer_agent_get(c->box->w, index, STEER_GROUP);
  return (c->groups >> g) & 1 ? collect_one(ud, index) : 0;
}

/* The same for the agents inside a box (world:query_box). */
void push_box_iterator(lua_State *L, int env_idx, lworld *box,
                       const double v[4], uint32_t groups,
                       const char *fname) {
  env_idx = lua_absindex(L, env_idx);
  for (int tries = 0;; tries++) {
    if (tries == 16)
      luaL_error(L, "'%s': the world keeps changing during the call", fname);
    steer_world *w = live_world(L, box, fname);
    box->found_gen++; /* box->found now holds this query's results */
    collector c = {box, hooks_of(L), 0, 0, groups};
    steer_world_query_box(w, v[0], v[1], v[2], v[3],
                          groups == STEER_ALL_GROUPS ? collect_one
                                                     : collect_grouped,
                          &c);
    if (c.failed) luaL_error(L, "not enough memory");
    unsigned gen = box->found_gen;
    /* may run a finalizer that closes the world or queries it again */
    steer_id *ids = push_id_iterator(L, env_idx, c.n, fname);
    if (box->w && box->found_gen == gen) {
      if (c.n) memcpy(ids, box->found, c.n * sizeof *ids);
      return;
    }
    lua_pop(L, 1);
  }
}

/* ---- the collector and the world's C memory ------------------------------ */

void account_world_memory(lua_State *L, lworld *box) {
  if (!box->w) return;
  size_t now = steer_world_memory(box->w);
  if (now <= box->accounted) return;
  size_t kb = (now - box->accounted) / 1024;
  if (kb < 16) return; /* small growth: not worth a GC step */
  box->accounted = now;
#ifdef LUA_GCISRUNNING
  if (!lua_gc(L, LUA_GCISRUNNING, 0)) return; /* the host stopped it */
#endif
  /* Growth larger than the whole Lua heap: a full collection, cheap next
     to filling that memory. Lua 5.4's steps, given twice in a cycle (an
     add_many, then the first step), held dropped worlds' finalizers back
     until the Lua program itself allocated: a level reloaded in a loop
     grew by a world per reload. Smaller growth: a step, as if kb more
     kilobytes of Lua memory had been allocated. */
  if (kb > (size_t)lua_gc(L, LUA_GCCOUNT, 0))
    lua_gc(L, LUA_GCCOLLECT, 0);
  else
    lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
}

void open_guard(lua_State *L) {
  new_type(L, BLOCK_MT);
  lua_pushcfunction(L, block_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
}
