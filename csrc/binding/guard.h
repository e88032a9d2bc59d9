/* guard.h - keeping a steer call correct while Lua code runs inside it.
 *
 * The discipline every binding function follows (issue 11):
 *
 * Lua code can run in the middle of a binding function, in two ways:
 *   - a metamethod of an argument: lua_getfield, lua_gettable, lua_len,
 *     luaL_len, luaL_tolstring on a table the caller gave us may call its
 *     __index / __len / __tostring;
 *   - a __gc finalizer of ANY object: any call that may allocate Lua memory
 *     (lua_newtable, lua_createtable, new_userdata, lua_pushstring,
 *     lua_pushfstring, lua_pushcclosure with upvalues, luaL_Buffer, luaL_error,
 *     lua_tolstring of a number, lua_gc) may run a GC step and its finalizers.
 * That code may close the world, remove or add agents (moving others into
 * new slots, regrowing every column), run a query that reuses the scratch
 * buffer, or change the argument table. So:
 *
 *   1. Read arguments with raw access only (lua_rawget, lua_rawgeti, raw_field,
 *      lua_rawlen, lua_next) or copy them out into C values first; never read
 *      an argument table twice (add_many copies each column once).
 *   2. Make every Lua allocation (result tables, userdata scratch, handles)
 *      before resolving anything inside the world, or
 *   3. re-resolve after anything that may run Lua: box->w (live_world), the
 *      agent's index (live_agent), column pointers, box->found (query_gen).
 *      Never keep a steer_world *, an agent index or a column pointer across
 *      such a call.
 *   4. The core never calls back into Lua: its callbacks (queries, snapshot
 *      writers) only touch C memory.
 *   5. Anything the call allocates in C is owned by Lua (a userdata with __gc,
 *      pushed before the C allocation) or made after the last point where Lua
 *      can raise, so an error raised mid-call frees it.
 *   6. Filling a result table with lua_rawseti/lua_rawset on a table we made
 *      (or the caller's) never runs a GC step: that is where values read from
 *      the world are stored.
 */
#ifndef STEER_GUARD_H
#define STEER_GUARD_H

#include "binding.h"

/* box->w, or "calling 'fname' on bad self (world is closed)". */
steer_world *live_world(lua_State *L, lworld *box, const char *fname);
/* The agent `id` of box resolved anew, or an error naming fname: "world is
   closed" or "agent has been removed". */
agent_ref live_agent(lua_State *L, lworld *box, steer_id id,
                     const char *fname);
/* Pushes t[key] of the table at idx without metamethods; returns its type.
   (Pushing the key may run a GC step: call it before resolving.) */
int raw_field(lua_State *L, int idx, const char *key);

/* A C block owned by a userdata on the stack (freed by its __gc if an error
   unwinds the call): push it first, then allocate into it. */
typedef struct owned_block {
  void *data;
  size_t size, used;
  struct state_hooks *hooks; /* fail_allocations of its state */
} owned_block;
owned_block *push_owned_block(lua_State *L);
/* Grows the block to hold `need` bytes; 0 when out of memory. */
int owned_reserve(owned_block *b, size_t need);
/* Frees the block now (it is also freed when collected). */
void owned_free(owned_block *b);

/* Copies rows of `width` numbers (obstacles, walls) out of the world into
   a userdata it pushes, so that building the result tables afterwards reads
   no world memory. *n receives the number of rows. */
typedef size_t (*row_count_fn)(const steer_world *w);
typedef void (*row_read_fn)(const steer_world *w, size_t i, double *out);
const double *copy_rows(lua_State *L, lworld *box, const char *fname,
                        int width, row_count_fn count, row_read_fn read,
                        size_t *n);

/* Pushes an iterator over the agents within radius of (x, y), or of agent
   `around` (its position, itself excluded) when around != 0, that filter f
   lets through. The query is redone whenever Lua code ran between it and
   the copy of its results. */
void push_query_iterator(lua_State *L, int env_idx, lworld *box,
                         steer_id around, double x, double y, double radius,
                         const query_filter *f, const char *fname);
/* The same for the agents inside the box x1, y1, x2, y2 (v) of the groups
   whose bits are set. */
void push_box_iterator(lua_State *L, int env_idx, lworld *box,
                       const double v[4], uint32_t groups,
                       const char *fname);

/* Tells the Lua collector about memory the world gained since it last did,
   so that worlds dropped without close() are collected in time. Runs a GC
   step (finalizers): call it last, after the results are on the stack. */
void account_world_memory(lua_State *L, lworld *box);

void open_guard(lua_State *L);

#endif
