/* formation.c - issue 15 from Lua: the agent methods offset_pursuit,
 * follow_leader, interpose, hide, queue and formation, and the
 * steer.Formation type (steer.formation{...}, f:slot_of, f:members). */
#include <math.h>
#include <string.h>
#include "binding.h"
#include "guard.h"

/* The registry's handle cache, formation -> its handle (base.c). */
#define FORMATION_HANDLES FORMATION_MT ".handles"

typedef struct lformation {
  steer_formation *f;
  lworld *box; /* the world of its members; its env is the user value */
} lformation;

static const char *const shape_names[] = {"line", "column", "wedge", "circle",
                                          NULL};

static int push_vec(lua_State *L, steer_vec2 v) {
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

/* ---- steer.formation{ anchor =, slots = | shape =, spacing =, count =,
   world = } --------------------------------------------------------------- */

/* the number field `key` of the table at 1 (kind as validate_num) */
static double opt_field(lua_State *L, const char *key, int kind, double def) {
  raw_field(L, 1, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (lua_type(L, -1) != LUA_TNUMBER)
    arg_error(L, "formation", 1, "'%s' must be a number, got %s", key,
              arg_typename(L, -1));
  double v = validate_num(L, lua_tonumber(L, -1), kind, "formation", 1, key);
  lua_pop(L, 1);
  return v;
}

static const char *const formation_keys[] = {"anchor", "slots", "shape",
                                             "spacing", "count", "world",
                                             "fit", NULL};

/* The anchor at idx, for steer.formation and f:set_anchor (fname, argn):
   an agent of world *box (of any world when *box is NULL, which then
   becomes its world), a steer.SharedPoint (retained by the formation) or
   {x, y} / {x =, y =}; 0 when idx holds none of these. */
static int anchor_at(lua_State *L, int idx, lworld **box, const char *fname,
                     int argn, steer_target *t) {
  memset(t, 0, sizeof *t);
  steer_point *shared = test_point(L, idx);
  if (luaL_testudata(L, idx, AGENT_MT)) {
    agent_ref r = check_agent(L, idx, fname, argn);
    if (*box && *box != r.box)
      arg_error(L, fname, argn, "anchor belongs to another world");
    *box = r.box;
    t->kind = STEER_TARGET_AGENT;
    t->agent = r.id;
  } else if (shared) {
    t->kind = STEER_TARGET_SHARED;
    t->shared = shared;
  } else if (lua_istable(L, idx)) {
    char buf[128];
    const char *problem = table_point(L, idx, &t->point, buf);
    if (problem) arg_error(L, fname, argn, "anchor %s", problem);
    validate_num(L, t->point.x, 0, fname, argn, "anchor");
    validate_num(L, t->point.y, 0, fname, argn, "anchor");
    t->kind = STEER_TARGET_POINT;
  } else {
    return 0;
  }
  return 1;
}

static int l_formation(lua_State *L) {
  if (!lua_istable(L, 1)) type_error(L, 1, "formation", 1, "table");
  check_names(L, 1, formation_keys, "field", 1, "formation", 1);
  /* the anchor, and the world it pins */
  steer_target anchor;
  memset(&anchor, 0, sizeof anchor);
  lworld *box = NULL;
  raw_field(L, 1, "world");
  if (!lua_isnil(L, -1)) box = check_world(L, -1, "formation", 1);
  int world_idx = lua_gettop(L);
  raw_field(L, 1, "anchor");
  if (!anchor_at(L, lua_gettop(L), &box, "formation", 1, &anchor))
    arg_error(L, "formation", 1,
              "anchor must be an agent, a steer.point, {x, y} or {x =, y =}, "
              "got %s",
              arg_typename(L, -1));
  if (anchor.kind == STEER_TARGET_AGENT) {
    lua_getuservalue(L, -1);
    lua_replace(L, world_idx); /* the env */
  } else {
    if (!box)
      arg_error(L, "formation", 1,
                "a formation anchored at a point needs world = (a steer.World)");
    lua_getuservalue(L, world_idx);
    lua_replace(L, world_idx);
  }
  lua_pop(L, 1);
  /* the slots: listed, or a shape */
  raw_field(L, 1, "slots");
  raw_field(L, 1, "shape");
  size_t n = 0;
  steer_vec2 *slots;
  if (!lua_isnil(L, -2)) {
    if (!lua_isnil(L, -1))
      arg_error(L, "formation", 1, "give either slots or shape, not both");
    /* a shape's options with listed slots would be silently ignored */
    for (int k = 0; k < 2; k++) {
      const char *key = k ? "count" : "spacing";
      raw_field(L, 1, key);
      if (!lua_isnil(L, -1))
        arg_error(L, "formation", 1,
                  "'%s' is for a shape: give either slots or shape, "
                  "spacing and count",
                  key);
      lua_pop(L, 1);
    }
    if (!lua_istable(L, -2))
      arg_error(L, "formation", 1, "slots must be a table of {x, y}");
    n = lua_rawlen(L, -2);
    if (n > STEER_FORMATION_MAX_SLOTS)
      arg_error(L, "formation", 1, "at most %d slots",
                STEER_FORMATION_MAX_SLOTS);
    slots = new_userdata(L, (n ? n : 1) * sizeof *slots);
    for (size_t k = 0; k < n; k++) {
      lua_rawgeti(L, -3, (int)k + 1);
      char buf[128];
      const char *problem = lua_istable(L, -1)
                                ? table_point(L, -1, &slots[k], buf)
                                : "must be {x, y} or {x =, y =}";
      if (problem)
        arg_error(L, "formation", 1, "slot %d %s", (int)k + 1, problem);
      validate_num(L, slots[k].x, 0, "formation", 1, "slot x");
      validate_num(L, slots[k].y, 0, "formation", 1, "slot y");
      lua_pop(L, 1);
    }
  } else {
    int shape = -1;
    for (int k = 0; shape_names[k] && lua_type(L, -1) == LUA_TSTRING; k++)
      if (strcmp(lua_tostring(L, -1), shape_names[k]) == 0) shape = k;
    if (shape < 0)
      arg_error(L, "formation", 1,
                "needs slots = {{x, y}, ...} or shape = 'line', 'column', "
                "'wedge' or 'circle'");
    double spacing = opt_field(L, "spacing", 1, 2);
    double count = opt_field(L, "count", 1, -1);
    if (count < 0) arg_error(L, "formation", 1, "a shape needs count = n");
    /* the range first: converting a huge count to size_t is undefined */
    if (count > STEER_FORMATION_MAX_SLOTS || count != floor(count))
      arg_error(L, "formation", 1, "count must be an integer 0..%d",
                STEER_FORMATION_MAX_SLOTS);
    n = (size_t)count;
    slots = new_userdata(L, (n ? n : 1) * sizeof *slots);
    steer_formation_shape_slots((steer_formation_shape)shape, spacing, n,
                                slots);
    /* listed slots must lie within the limit: so must a shape's, or the
       formation would hand out positions steer itself refuses */
    for (size_t k = 0; k < n; k++)
      if (!(fabs(slots[k].x) <= STEER_LIMIT && fabs(slots[k].y) <= STEER_LIMIT))
        arg_error(L, "formation", 1,
                  "spacing: %.14g puts slot %d of the %s beyond 1e150",
                  spacing, (int)k + 1, shape_names[shape]);
  }
  lformation *lf = new_userdata(L, sizeof *lf);
  lf->f = NULL;
  lf->box = box;
  luaL_getmetatable(L, FORMATION_MT);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, world_idx);
  lua_setuservalue(L, -2);
  raw_field(L, 1, "fit");
  int fit = 1;
  if (!lua_isnil(L, -1)) {
    if (!lua_isboolean(L, -1))
      arg_error(L, "formation", 1, "'fit' must be a boolean, got %s",
                arg_typename(L, -1));
    fit = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  lf->f = steer_formation_create(anchor, slots, n);
  if (!lf->f) return luaL_error(L, "not enough memory");
  steer_formation_set_fit(lf->f, fit);
  handle_cache_set(L, FORMATION_HANDLES, lf->f); /* a:behaviors() gives it back */
  return 1;
}

static lformation *check_formation(lua_State *L, int idx, const char *fname,
                                   int argn) {
  lformation *lf = luaL_testudata(L, idx, FORMATION_MT);
  if (!lf || !lf->f) type_error(L, idx, fname, argn, FORMATION_MT);
  if (!lf->box->w) arg_error(L, fname, argn, "world is closed");
  return lf;
}

steer_target formation_target(lua_State *L, int idx, lworld **world,
                              const char *fname, int argn, const char *where) {
  lformation *lf = luaL_testudata(L, idx, FORMATION_MT);
  if (!lf || !lf->f)
    arg_error(L, fname, argn, "%s'formation' must be a " FORMATION_MT
              ", got %s", where, arg_typename(L, idx));
  if (!lf->box->w) arg_error(L, fname, argn, "%sworld is closed", where);
  if (*world && *world != lf->box)
    arg_error(L, fname, argn, "%sformation belongs to another world", where);
  *world = lf->box;
  steer_target t;
  memset(&t, 0, sizeof t);
  t.kind = STEER_TARGET_FORMATION;
  t.formation = lf->f;
  return t;
}

void push_formation(lua_State *L, int env, lworld *box, steer_formation *f) {
  env = lua_absindex(L, env);
  /* the handle the game holds when it still exists */
  handle_cache_push(L, FORMATION_HANDLES, f);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  lformation *lf = new_userdata(L, sizeof *lf);
  lf->f = f;
  lf->box = box;
  steer_formation_retain(f);
  luaL_getmetatable(L, FORMATION_MT);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, env);
  lua_setuservalue(L, -2);
  handle_cache_set(L, FORMATION_HANDLES, f);
}

/* f:slot_of(agent) -> 1-based slot, or nil (not a member, or no slot) */
static int f_slot_of(lua_State *L) {
  lformation *lf = check_formation(L, 1, "slot_of", 0);
  lagent *a = luaL_testudata(L, 2, AGENT_MT);
  if (!a) type_error(L, 2, "slot_of", 1, AGENT_MT);
  long k = a->box == lf->box ? steer_formation_slot_of(lf->f, a->id) : -1;
  if (k < 0)
    lua_pushnil(L); /* a value, so that print and format see one */
  else
    lua_pushinteger(L, k + 1);
  return 1;
}

/* f:members() -> { agent, ... } in the order they joined */
static int f_members(lua_State *L) {
  lformation *lf = check_formation(L, 1, "members", 0);
  /* the members copied first, into memory Lua owns: making their handles
     may run a finalizer that changes the membership (guard.h); making the
     copy may too, so its room is taken again until it suffices */
  size_t n;
  steer_id *ids;
  for (;;) {
    n = steer_formation_member_count(lf->f);
    ids = new_userdata(L, (n ? n : 1) * sizeof *ids);
    if (steer_formation_member_count(lf->f) <= n) break;
    lua_pop(L, 1);
  }
  n = steer_formation_member_count(lf->f);
  for (size_t k = 0; k < n; k++) ids[k] = steer_formation_member(lf->f, k);
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  lua_createtable(L, (int)n, 0);
  for (size_t k = 0; k < n; k++) {
    push_agent(L, env, lf->box, ids[k]);
    lua_rawseti(L, -2, (int)k + 1);
  }
  live_world(L, lf->box, "members"); /* a finalizer may have closed it */
  return 1;
}

/* f:reassign() -> how many members have a slot: every member's slot again
   from the positions now */
static int f_reassign(lua_State *L) {
  lformation *lf = check_formation(L, 1, "reassign", 0);
  steer_formation_reassign(lf->box->w, lf->f);
  size_t n = steer_formation_member_count(lf->f), placed = 0;
  for (size_t k = 0; k < n; k++)
    placed += steer_formation_slot_of(lf->f, steer_formation_member(lf->f, k)) >= 0;
  lua_pushinteger(L, (lua_Integer)placed);
  return 1;
}

/* f:slot_position(k) -> x, y of slot k in the world now; nil while the
   anchor agent is removed (the slot is nowhere: members hold still) */
static int f_slot_position(lua_State *L) {
  lformation *lf = check_formation(L, 1, "slot_position", 0);
  double k = check_integral(L, 2, "slot_position", 1);
  size_t n = steer_formation_slot_count(lf->f);
  if (k < 1 || k > (double)n)
    return arg_error(L, "slot_position", 1, "slot %.14g out of range 1..%d",
                     k, (int)n);
  steer_target anchor = steer_formation_anchor(lf->f);
  if (anchor.kind == STEER_TARGET_AGENT &&
      steer_world_index(lf->box->w, anchor.agent) < 0) {
    lua_pushnil(L);
    return 1;
  }
  return push_vec(L, steer_formation_slot_position(lf->box->w, lf->f,
                                                   (size_t)k - 1));
}

/* f:set_anchor(anchor): an agent of the members' world (not a member: it
   would chase its own slot), a steer.SharedPoint, {x, y}, {x =, y =} or
   x, y; members keep their slots (f:reassign() reassigns them) */
static int f_set_anchor(lua_State *L) {
  lformation *lf = check_formation(L, 1, "set_anchor", 0);
  steer_target t;
  lworld *box = lf->box;
  int used = 1;
  if (anchor_at(L, 2, &box, "set_anchor", 1, &t)) {
    for (size_t k = 0; t.kind == STEER_TARGET_AGENT &&
                       k < steer_formation_member_count(lf->f); k++)
      if (steer_formation_member(lf->f, k) == t.agent)
        arg_error(L, "set_anchor", 1,
                  "the agent is a member of this formation (it would chase "
                  "its own slot): give it a program without the formation "
                  "entry first");
  } else if (lua_type(L, 2) == LUA_TNUMBER) {
    /* named as the table form names them */
    t.point.x = validate_num(L, lua_tonumber(L, 2), NUM_ANY, "set_anchor", 1,
                             "anchor x");
    if (lua_type(L, 3) != LUA_TNUMBER) type_error(L, 3, "set_anchor", 2, "number");
    t.point.y = validate_num(L, lua_tonumber(L, 3), NUM_ANY, "set_anchor", 2,
                             "anchor y");
    t.kind = STEER_TARGET_POINT;
    used = 2;
  } else {
    type_error(L, 2, "set_anchor", 1,
               "steer.Agent, steer.SharedPoint, {x, y}, {x =, y =} or x, y");
  }
  check_no_more(L, 2 + used, "set_anchor", 1 + used);
  steer_formation_set_anchor(lf->f, t);
  return 0;
}

/* f:anchor() -> the anchor agent (a removed one too), or x, y of the
   anchor point (a shared point's position now) */
static int f_anchor(lua_State *L) {
  lformation *lf = check_formation(L, 1, "anchor", 0);
  check_no_more(L, 2, "anchor", 1);
  steer_target t = steer_formation_anchor(lf->f);
  if (t.kind == STEER_TARGET_AGENT) {
    lua_getuservalue(L, 1);
    push_agent(L, -1, lf->box, t.agent);
    return 1;
  }
  if (t.kind == STEER_TARGET_SHARED) return push_vec(L, steer_point_get(t.shared));
  return push_vec(L, t.point);
}

/* f:set_fit(on): slots moved onto free ground (17.3) or taken as given */
static int f_set_fit(lua_State *L) {
  lformation *lf = check_formation(L, 1, "set_fit", 0);
  if (!lua_isboolean(L, 2)) type_error(L, 2, "set_fit", 1, "boolean");
  steer_formation_set_fit(lf->f, lua_toboolean(L, 2));
  return 0;
}

/* f:fits() -> whether slots are fitted to the level */
static int f_fits(lua_State *L) {
  lformation *lf = check_formation(L, 1, "fits", 0);
  lua_pushboolean(L, steer_formation_fit(lf->f));
  return 1;
}

/* f:slot(k) -> x, y of slot k in the anchor's frame */
static int f_slot(lua_State *L) {
  lformation *lf = check_formation(L, 1, "slot", 0);
  double k = check_integral(L, 2, "slot", 1);
  size_t n = steer_formation_slot_count(lf->f);
  if (k < 1 || k > (double)n)
    return arg_error(L, "slot", 1, "slot %.14g out of range 1..%d", k,
                     (int)n);
  return push_vec(L, steer_formation_slot(lf->f, (size_t)k - 1));
}

static int f_len(lua_State *L) {
  lformation *lf = luaL_testudata(L, 1, FORMATION_MT);
  if (!lf || !lf->f) type_error(L, 1, "__len", 0, FORMATION_MT);
  lua_pushinteger(L, (lua_Integer)steer_formation_slot_count(lf->f));
  return 1;
}

static int f_gc(lua_State *L) {
  lformation *lf = luaL_testudata(L, 1, FORMATION_MT);
  if (lf) {
    steer_formation_release(lf->f);
    lf->f = NULL;
  }
  return 0;
}

static int f_tostring(lua_State *L) {
  lformation *lf = luaL_testudata(L, 1, FORMATION_MT);
  if (!lf || !lf->f) type_error(L, 1, "__tostring", 0, FORMATION_MT);
  lua_pushfstring(L, FORMATION_MT " (%d slots, %d members)",
                  (int)steer_formation_slot_count(lf->f),
                  (int)steer_formation_member_count(lf->f));
  return 1;
}

/* ---- agent methods --------------------------------------------------------- */

/* A pose argument at idx: an agent of self's world (its pose) or a point
   (x, y numbers, a table or a steer.point: at rest, facing angle 0); *used
   as check_point's. */
static steer_pose pose_arg(lua_State *L, int idx, const agent_ref *self,
                           const char *fname, int argn, int *used) {
  if (lua_type(L, idx) == LUA_TUSERDATA && !test_point(L, idx)) {
    agent_ref other = check_peer(L, idx, self, fname, argn);
    *used = 1;
    return steer_agent_pose(other.w, other.i);
  }
  steer_pose pose;
  memset(&pose, 0, sizeof pose);
  pose.position = check_point(L, idx, self, fname, argn, used);
  return pose;
}

/* a:offset_pursuit(leader, ox, oy [, slowing_radius [, fit]]) or with the
   offset as a table {x, y} */
static int a_offset_pursuit(lua_State *L) {
  agent_ref a = check_agent(L, 1, "offset_pursuit", 0);
  int used, at;
  steer_pose leader = pose_arg(L, 2, &a, "offset_pursuit", 1, &used);
  at = 2 + used;
  steer_vec2 offset;
  if (lua_istable(L, at)) {
    char buf[128];
    const char *problem = table_point(L, at, &offset, buf);
    if (problem) arg_error(L, "offset_pursuit", at - 1, "offset %s", problem);
    validate_num(L, offset.x, 0, "offset_pursuit", at - 1, "offset x");
    validate_num(L, offset.y, 0, "offset_pursuit", at - 1, "offset y");
    at++;
  } else {
    offset.x = check_num(L, at, "offset_pursuit", at - 1);
    offset.y = check_num(L, at + 1, "offset_pursuit", at);
    at += 2;
  }
  double slowing = opt_nonneg(L, at, "offset_pursuit", at - 1, 2);
  /* fit by default, as the entry and a formation */
  int fit = opt_boolean(L, at + 1, "offset_pursuit", at, "fit", 1);
  check_no_more(L, at + 2, "offset_pursuit", at + 1);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "offset_pursuit");
  return push_vec(L, steer_agent_offset_pursuit(a.w, a.i, leader, offset,
                                                slowing, fit));
}

/* a:follow_leader(leader [, distance [, radius [, slowing_radius [, fit]]]]) */
static int a_follow_leader(lua_State *L) {
  agent_ref a = check_agent(L, 1, "follow_leader", 0);
  int used;
  steer_pose leader = pose_arg(L, 2, &a, "follow_leader", 1, &used);
  int at = 2 + used;
  double distance = opt_nonneg(L, at, "follow_leader", at - 1, 2);
  double radius = opt_nonneg(L, at + 1, "follow_leader", at, 2);
  double slowing = opt_nonneg(L, at + 2, "follow_leader", at + 1, 2);
  int fit = opt_boolean(L, at + 3, "follow_leader", at + 2, "fit", 1);
  check_no_more(L, at + 4, "follow_leader", at + 3);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "follow_leader");
  return push_vec(L, steer_agent_follow_leader(a.w, a.i, leader, distance,
                                               radius, slowing, fit));
}

/* a:interpose(a, b [, slowing_radius]) */
static int a_interpose(lua_State *L) {
  agent_ref a = check_agent(L, 1, "interpose", 0);
  int used1, used2;
  steer_pose p = pose_arg(L, 2, &a, "interpose", 1, &used1);
  steer_pose q = pose_arg(L, 2 + used1, &a, "interpose", 1 + used1, &used2);
  int at = 2 + used1 + used2;
  double slowing = opt_nonneg(L, at, "interpose", at - 1, 2);
  check_no_more(L, at + 1, "interpose", at);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "interpose");
  return push_vec(L, steer_agent_interpose(a.w, a.i, p, q, slowing));
}

/* a:hide(hunter [, distance [, slowing_radius]]) */
static int a_hide(lua_State *L) {
  agent_ref a = check_agent(L, 1, "hide", 0);
  int used;
  steer_pose hunter = pose_arg(L, 2, &a, "hide", 1, &used);
  int at = 2 + used;
  double distance = opt_nonneg(L, at, "hide", at - 1, 1);
  double slowing = opt_nonneg(L, at + 1, "hide", at, 2);
  check_no_more(L, at + 2, "hide", at + 1);
  /* reading a table point may run Lua (a finalizer: guard.h) */
  a = live_agent(L, a.box, a.id, "hide");
  return push_vec(L, steer_agent_hide(a.w, a.i, hunter, distance, slowing));
}

/* a:queue([distance [, fov [, slowing_radius]]]) */
static int a_queue(lua_State *L) {
  agent_ref a = check_agent(L, 1, "queue", 0);
  double distance = opt_nonneg(L, 2, "queue", 1, 3);
  double fov = 90;
  if (!lua_isnoneornil(L, 3)) {
    fov = check_positive(L, 3, "queue", 2);
    if (fov > 360) arg_error(L, "queue", 2, "fov must be in (0, 360] degrees");
  }
  double slowing = opt_nonneg(L, 4, "queue", 3, 2);
  check_no_more(L, 5, "queue", 4);
  return push_vec(L, steer_agent_queue(a.w, a.i, distance, fov, slowing));
}

/* a:formation(f [, slowing_radius]): the force toward the agent's slot
   (zero when it is no member: agents join through formation entries) */
static int a_formation(lua_State *L) {
  agent_ref a = check_agent(L, 1, "formation", 0);
  lformation *lf = check_formation(L, 2, "formation", 1);
  if (lf->box != a.box)
    arg_error(L, "formation", 1, "formation belongs to another world");
  double slowing = opt_nonneg(L, 3, "formation", 2, 2);
  check_no_more(L, 4, "formation", 3);
  return push_vec(L, steer_agent_formation(a.w, a.i, lf->f, slowing));
}

const luaL_Reg tactics_functions[] = {{"formation", l_formation},
                                      {NULL, NULL}};

void open_tactics(lua_State *L) {
  static const luaL_Reg agent_methods[] = {
      {"offset_pursuit", a_offset_pursuit}, {"follow_leader", a_follow_leader},
      {"interpose", a_interpose},           {"hide", a_hide},
      {"queue", a_queue},                   {"formation", a_formation},
      {NULL, NULL}};
  static const luaL_Reg methods[] = {
      {"slot_of", f_slot_of},   {"members", f_members},
      {"reassign", f_reassign}, {"slot_position", f_slot_position},
      {"slot", f_slot},         {"set_fit", f_set_fit},
      {"fits", f_fits},         {"set_anchor", f_set_anchor},
      {"anchor", f_anchor},     {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__gc", f_gc},
                                  {"__len", f_len},
                                  {"__tostring", f_tostring},
                                  {NULL, NULL}};
  new_type(L, FORMATION_MT);
  luaL_setfuncs(L, meta, 0);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  handle_cache_open(L, FORMATION_HANDLES);
  /* the agent methods join the agent's key table (binding/agent.c) */
  lua_getfield(L, LUA_REGISTRYINDEX, AGENT_MT ".keys");
  luaL_setfuncs(L, agent_methods, 0);
  lua_pop(L, 1);
}
