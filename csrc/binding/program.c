/* program.c - behavior programs from Lua: compiling a program table once
 * into a C program (a:set_behaviors, steer.program) and cheap setters for
 * behavior-tree leaves. world:step, which runs them, is in world.c. */
#include <stdio.h>
#include <string.h>
#include "binding.h"
#include "nav.h"
#include "guard.h"
#include "hooks.h"

static const char *const behavior_names[] = {
    "seek",        "flee",       "arrive",          "pursue",
    "evade",       "wander",     "avoid_obstacles", "avoid_walls",
    "follow",      "separation", "alignment",       "cohesion",
    "flow",        "avoid_agents",
    "offset_pursuit", "follow_leader", "formation", "interpose", "hide",
    "queue",       "contain",
    "face",        "look_where_going", "match_orientation",
    NULL};

static const char *const combine_names[] = {"weighted", "priority",
                                            "prioritized_sum", "dither", NULL};

/* Other books' names, as hints in messages only ({name, ours}): they are
   not accepted, so that one program reads the same everywhere. */
static const char *const behavior_aliases[][2] = {
    {"follow_path", "follow"},          {"path_following", "follow"},
    {"path_follow", "follow"},          {"obstacle_avoidance", "avoid_obstacles"},
    {"wall_avoidance", "avoid_walls"},  {"pursuit", "pursue"},
    {"evasion", "evade"},               {"arrival", "arrive"},
    {"wandering", "wander"},            {"leader_following", "follow_leader"},
    {"offset_pursue", "offset_pursuit"}, {"containment", "contain"},
    {"hiding", "hide"},                 {"interposition", "interpose"},
    {"queueing", "queue"},              {"queuing", "queue"},
    {"flow_field", "flow"},             {"flow_field_following", "flow"},
    {"collision_avoidance", "avoid_agents"},
    {"unaligned_collision_avoidance", "avoid_agents"},
    {"agent_avoidance", "avoid_agents"},
    {NULL, NULL}};

static const char *const combine_aliases[][2] = {
    {"dithered", "dither"},             {"dithering", "dither"},
    {"prioritized_dithering", "dither"}, {"prioritized", "prioritized_sum"},
    {"prioritised", "prioritized_sum"}, {"prioritized_running_sum", "prioritized_sum"},
    {"weighted_truncated_running_sum_with_prioritization", "prioritized_sum"},
    {"weighted_sum", "weighted"},       {"weighted_truncated_sum", "weighted"},
    {NULL, NULL}};

/* parameters each behavior takes, besides weight, probability and tag */
static const char *const behavior_params[] = {
    "target arrival_radius",                 /* seek */
    "target panic_radius",                   /* flee */
    "target slowing_radius arrival_radius",  /* arrive */
    "target",                                /* pursue */
    "target panic_radius",                   /* evade */
    "",                                      /* wander */
    "feeler_length hysteresis",              /* avoid_obstacles */
    "feeler_length hysteresis whiskers",     /* avoid_walls */
    "path target arrival_radius slowing_radius path_radius look_ahead start",
    "radius groups fov falloff",             /* separation */
    "radius groups fov",                     /* alignment */
    "radius groups fov",                     /* cohesion */
    "field slowing_radius",                  /* flow */
    "time_horizon radius groups fov personal_space", /* avoid_agents */
    "target offset slowing_radius fit",      /* offset_pursuit */
    "target distance radius slowing_radius fit", /* follow_leader */
    "formation slowing_radius",              /* formation */
    "between slowing_radius",                /* interpose */
    "target distance slowing_radius",        /* hide */
    "distance fov slowing_radius",           /* queue */
    "region feeler_length",                  /* contain */
    "target",                                /* face */
    "",                                      /* look_where_going */
    "target"};                               /* match_orientation */

static int find_name(const char *const names[], const char *s) {
  for (int k = 0; names[k]; k++)
    if (strcmp(names[k], s) == 0) return k;
  return -1;
}

/* The name `key` likely stands for: one of names it misspells (typo_of),
   or the name of an alias it is or misspells; NULL when none. */
static const char *meant_name(const char *key, const char *const names[],
                              const char *const aliases[][2]) {
  const char *meant = typo_of(key, names);
  for (int k = 0; !meant && aliases[k][0]; k++)
    if (strcmp(key, aliases[k][0]) == 0 || is_typo(key, aliases[k][0]))
      meant = aliases[k][1];
  return meant;
}

/* Does the space-separated word list contain `word`? */
static int has_word(const char *list, const char *word) {
  size_t n = strlen(word);
  for (const char *p = list; (p = strstr(p, word)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return 1;
  return 0;
}

/* Error context while compiling: which function, which entry. */
typedef struct compiling {
  lua_State *L;
  const char *fname;
  int argn;
  lworld *world;   /* agent targets must belong to it; NULL: not yet known */
  int entry;       /* 1-based, 0 for the program table itself */
  const char *behavior;
  int pin;         /* stack index of a table that keeps that world alive */
  int keep, kept;  /* a table holding the paths "contain" regions make */
} compiling;

static int compile_error(compiling *c, const char *fmt, const char *a,
                         const char *b) {
  char what[400]; /* room for the list of behavior names */
  snprintf(what, sizeof what, fmt, a, b);
  if (c->entry && c->behavior)
    return arg_error(c->L, c->fname, c->argn, "entry %d ('%s'): %s", c->entry,
                     c->behavior, what);
  if (c->entry)
    return arg_error(c->L, c->fname, c->argn, "entry %d: %s", c->entry, what);
  return arg_error(c->L, c->fname, c->argn, "%s", what);
}

/* a number field already on the stack top */
static double param_number(compiling *c, const char *key, number_kind kind) {
  lua_State *L = c->L;
  if (lua_type(L, -1) != LUA_TNUMBER)
    compile_error(c, "'%s' must be a number, got %s", key,
                  arg_typename(L, -1));
  char what[96];
  if (c->entry && c->behavior)
    snprintf(what, sizeof what, "entry %d ('%s'): %s", c->entry, c->behavior,
             key);
  else
    snprintf(what, sizeof what, "%s", key);
  double v = validate_num(L, lua_tonumber(L, -1), kind, c->fname, c->argn,
                          what);
  lua_pop(L, 1);
  return v;
}

static int is_angular(int b) {
  return b == STEER_FACE || b == STEER_LOOK_WHERE_GOING ||
         b == STEER_MATCH_ORIENTATION;
}

/* The target forms behavior b accepts, for messages (check_target_kind
   refuses the others) */
static const char *target_forms(int b) {
  if (b == STEER_PURSUE || b == STEER_EVADE || b == STEER_MATCH_ORIENTATION)
    return "an agent";
  if (b == STEER_FOLLOW) return "a steer.Path";
  if (b == STEER_FLEE || b == STEER_FACE ||
      (b >= STEER_OFFSET_PURSUIT && b <= STEER_QUEUE))
    return "an agent, a steer.SharedPoint, {x, y} or {x =, y =}";
  return "an agent, a path, a steer.SharedPoint, {x, y} or {x =, y =}";
}

/* A target at stack index idx: an agent, a path, a steer.SharedPoint,
   {x, y} or {x =, y =}. */
static steer_target read_target(compiling *c, int idx) {
  lua_State *L = c->L;
  steer_target t;
  memset(&t, 0, sizeof t);
  idx = lua_absindex(L, idx);
  lagent *a = luaL_testudata(L, idx, AGENT_MT);
  lpath *p = luaL_testudata(L, idx, PATH_MT);
  if (a) {
    if (!a->box->w || steer_world_index(a->box->w, a->id) < 0)
      compile_error(c, "target agent has been removed", "", "");
    if (c->world && c->world != a->box)
      compile_error(c, "target agent belongs to another world", "", "");
    c->world = a->box;
    if (c->pin) {
      lua_getuservalue(L, idx);
      lua_rawseti(L, c->pin, 1);
    }
    t.kind = STEER_TARGET_AGENT;
    t.agent = a->id;
  } else if (p) {
    t.kind = STEER_TARGET_PATH;
    t.path = p->path;
  } else if (test_point(L, idx)) {
    t.kind = STEER_TARGET_SHARED;
    t.shared = test_point(L, idx);
  } else if (lua_istable(L, idx)) {
    char buf[128];
    const char *problem = table_point(L, idx, &t.point, buf);
    if (problem) compile_error(c, "target %s", problem, "");
    t.kind = STEER_TARGET_POINT;
  } else {
    int b = c->behavior ? find_name(behavior_names, c->behavior) : -1;
    compile_error(c, "target must be %s, got %s", target_forms(b),
                  arg_typename(L, idx));
  }
  return t;
}

/* Checks that target t suits behavior b. */
static void check_target_kind(compiling *c, steer_behavior b,
                              const steer_target *t) {
  int agent_only = b == STEER_PURSUE || b == STEER_EVADE ||
                   b == STEER_MATCH_ORIENTATION;
  if (agent_only && t->kind != STEER_TARGET_AGENT)
    compile_error(c, "target must be an agent", "", "");
  if (b == STEER_FLEE && t->kind == STEER_TARGET_PATH)
    compile_error(c, "cannot flee a path", "", "");
  if (b == STEER_FACE && t->kind == STEER_TARGET_PATH)
    compile_error(c, "cannot face a path", "", "");
  if (b == STEER_FOLLOW && t->kind != STEER_TARGET_PATH)
    compile_error(c, "needs a path", "", "");
  if (b >= STEER_OFFSET_PURSUIT && b <= STEER_QUEUE &&
      t->kind == STEER_TARGET_PATH)
    compile_error(c, "target must be an agent or a point, not a path", "",
                  "");
}

/* The boolean parameter `key` (the value on the stack top, popped). */
static int param_flag(compiling *c, const char *key) {
  lua_State *L = c->L;
  if (!lua_isboolean(L, -1))
    compile_error(c, "%s must be a boolean, got %s", key, arg_typename(L, -1));
  int on = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return on;
}

/* issue 15's parameters: offset, distance, between, formation (the
   value on the stack top, popped) */
static void read_tactics_param(compiling *c, const char *key,
                               steer_entry *e) {
  lua_State *L = c->L;
  if (strcmp(key, "distance") == 0) {
    e->distance = param_number(c, key, 1);
  } else if (strcmp(key, "fit") == 0) {
    e->fit = param_flag(c, key);
  } else if (strcmp(key, "offset") == 0) {
    char buf[128];
    const char *problem = lua_istable(L, -1)
                              ? table_point(L, -1, &e->offset, buf)
                              : "must be {x, y} or {x =, y =}";
    if (problem) compile_error(c, "offset %s", problem, "");
    for (int k = 0; k < 2; k++) {
      lua_pushnumber(L, k ? e->offset.y : e->offset.x);
      param_number(c, "offset", 0);
    }
    lua_pop(L, 1);
  } else if (strcmp(key, "between") == 0) {
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2)
      compile_error(c, "between must be a table of two agents or points", "",
                    "");
    lua_rawgeti(L, -1, 1);
    e->target = read_target(c, -1);
    lua_rawgeti(L, -2, 2);
    e->other = read_target(c, -1);
    check_target_kind(c, STEER_INTERPOSE, &e->target);
    check_target_kind(c, STEER_INTERPOSE, &e->other);
    lua_pop(L, 3);
  } else if (strcmp(key, "formation") == 0) {
    char where[64];
    snprintf(where, sizeof where, "entry %d ('%s'): ", c->entry, c->behavior);
    e->target = formation_target(L, -1, &c->world, c->fname, c->argn, where);
    if (c->pin) { /* a shared program keeps the formation's world alive */
      lua_getuservalue(L, -1);
      lua_rawseti(L, c->pin, 1);
    }
    lua_pop(L, 1);
  }
}

/* groups = {g, ...} (integers 0..31), fov, falloff, path_radius,
   look_ahead, start: the value on the stack top for entry e. */
static void read_turn_param(compiling *c, const char *key, steer_entry *e) {
  lua_State *L = c->L;
  if (strcmp(key, "groups") == 0) {
    if (!lua_istable(L, -1))
      compile_error(c, "groups must be a table of groups 0..31, got %s",
                    arg_typename(L, -1), "");
    uint32_t mask = 0;
    size_t n = lua_rawlen(L, -1);
    for (size_t k = 1; k <= n; k++) {
      lua_rawgeti(L, -1, (int)k);
      double g = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || !(g >= 0 && g <= 31) ||
          g != (double)(int)g)
        compile_error(c, "groups[%s] must be an integer 0..31",
                      lua_pushfstring(L, "%d", (int)k), "");
      mask |= (uint32_t)1 << (int)g;
      lua_pop(L, 1);
    }
    e->groups = mask;
    lua_pop(L, 1);
  } else if (strcmp(key, "fov") == 0) {
    e->fov = param_number(c, key, NUM_POSITIVE);
    if (e->fov > 360) compile_error(c, "fov must be in (0, 360] degrees", "", "");
  } else if (strcmp(key, "falloff") == 0) {
    static const char *const names[] = {"inverse", "linear", "inverse_square",
                                        NULL};
    int f = lua_type(L, -1) == LUA_TSTRING
                ? find_name(names, lua_tostring(L, -1))
                : -1;
    if (f < 0)
      compile_error(c,
                    "falloff must be 'inverse', 'linear' or "
                    "'inverse_square'",
                    "", "");
    e->falloff = (steer_falloff)f;
    lua_pop(L, 1);
  } else if (strcmp(key, "path_radius") == 0) {
    e->path_radius = param_number(c, key, NUM_NONNEG);
  } else if (strcmp(key, "look_ahead") == 0) {
    /* 0 would predict no motion: the corridor would never steer */
    e->look_ahead = param_number(c, key, NUM_POSITIVE);
  } else if (strcmp(key, "start") == 0) {
    if (lua_type(L, -1) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -1), "nearest") == 0) {
      e->start = STEER_START_NEAREST;
      lua_pop(L, 1);
      return;
    }
    double k = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    if (!(k >= 1 && k <= 67108864.0) || k != (double)(long)k)
      compile_error(c, "start must be a waypoint number in [1, 2^26] or "
                       "'nearest'", "", "");
    e->start = (long)k - 1;
    lua_pop(L, 1);
  }
}

/* Raises "unknown parameter 'key'" for a parameter of none of the words of
   params (nor weight, tag, and probability when `dithered`), with "did you
   mean" when key likely misspells one of them (is_typo). */
static void unknown_param(compiling *c, const char *params, const char *key,
                          int dithered) {
  /* an entry whose target has a name of its own, given as 'target' */
  static const char *const own_target[] = {"formation", "field", "between",
                                           "region", NULL};
  for (int k = 0; strcmp(key, "target") == 0 && own_target[k]; k++)
    if (has_word(params, own_target[k]))
      compile_error(c, "unknown parameter '%s': did you mean '%s'?", key,
                    own_target[k]);
  char word[32];
  const char *p = params;
  while (*p) {
    size_t n = strcspn(p, " ");
    if (n < sizeof word) {
      memcpy(word, p, n);
      word[n] = '\0';
      if (is_typo(key, word))
        compile_error(c, "unknown parameter '%s': did you mean '%s'?", key,
                      word);
    }
    p += n;
    p += *p == ' ';
  }
  static const char *const common[] = {"weight", "tag", "probability", NULL};
  static const char *const common_undithered[] = {"weight", "tag", NULL};
  const char *meant = typo_of(key, dithered ? common : common_undithered);
  if (meant)
    compile_error(c, "unknown parameter '%s': did you mean '%s'?", key, meant);
  compile_error(c, "unknown parameter '%s'", key, "");
}

/* Reads entry table at idx into *e. */
static void read_entry(compiling *c, int idx, steer_entry *e) {
  lua_State *L = c->L;
  idx = lua_absindex(L, idx);
  c->behavior = NULL;
  if (!lua_istable(L, idx))
    compile_error(c, "table expected, got %s", arg_typename(L, idx), "");
  lua_rawgeti(L, idx, 1);
  const char *name = lua_tostring(L, -1);
  int b = lua_type(L, -1) == LUA_TSTRING ? find_name(behavior_names, name) : -1;
  if (b < 0) {
    c->behavior = "?";
    if (lua_type(L, -1) != LUA_TSTRING)
      compile_error(c, "behavior name expected at [1], got %s",
                    arg_typename(L, -1), "");
    const char *meant = meant_name(name, behavior_names, behavior_aliases);
    if (meant)
      compile_error(c, "unknown behavior '%s': did you mean '%s'?", name,
                    meant);
    char list[320] = ""; /* the names take 250 bytes */
    for (int k = 0; behavior_names[k]; k++) {
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
               behavior_names[k]);
    }
    compile_error(c, "unknown behavior '%s': expected one of %s", name, list);
  }
  lua_pop(L, 1);
  c->behavior = behavior_names[b];
  *e = steer_entry_default((steer_behavior)b);
  const char *params = behavior_params[b];
  int radius_given = 0, offset_given = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    /* key at -2, value at -1 */
    if (lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) == 1) {
      lua_pop(L, 1);
      continue;
    }
    if (lua_type(L, -2) != LUA_TSTRING)
      compile_error(c, "unexpected %s key%s", arg_typename(L, -2),
                    lua_type(L, -2) != LUA_TNUMBER ? ""
                    : b == STEER_FOLLOW ? " (the path goes in 'path = ...')"
                    : has_word(params, "target") ? " (targets go in 'target = ...')"
                                                 : " (parameters go by name)");
    const char *key = lua_tostring(L, -2);
    int avoidance = b == STEER_AVOID_OBSTACLES || b == STEER_AVOID_WALLS;
    if (strcmp(key, "weight") == 0) {
      e->weight = param_number(c, key, NUM_ANY);
    } else if (strcmp(key, "probability") == 0 && is_angular(b)) {
      /* the angular part is always summed: dither never draws for it */
      compile_error(c,
                    "unknown parameter 'probability' (angular entries take "
                    "weight and tag)",
                    "", "");
    } else if (strcmp(key, "probability") == 0) {
      e->probability = param_number(c, key, NUM_NONNEG);
      if (e->probability > 1)
        compile_error(c, "probability must be in [0, 1]", "", "");
    } else if (strcmp(key, "tag") == 0) {
      /* type first: lua_tolstring would turn a number into a string, and
         set_target(7) selects entry 7, never the tag "7" */
      if (lua_type(L, -1) == LUA_TNUMBER)
        compile_error(c, "tag must be a string, got number (a number selects "
                         "entries by index: name it, e.g. tag = 'goal')",
                      "", "");
      if (lua_type(L, -1) != LUA_TSTRING)
        compile_error(c, "tag must be a string, got %s", arg_typename(L, -1),
                      "");
      size_t len;
      const char *tag = lua_tolstring(L, -1, &len);
      if (len >= STEER_TAG_SIZE)
        compile_error(c, "tag must be a string of at most 31 bytes", "", "");
      if (strlen(tag) != len) /* C would read it cut at the zero */
        compile_error(c, "tag must not hold a zero byte", "", "");
      memcpy(e->tag, tag, len + 1);
      lua_pop(L, 1);
    } else if (!has_word(params, key)) {
      unknown_param(c, params, key, !is_angular(b));
    } else if (strcmp(key, "field") == 0) {
      memset(&e->target, 0, sizeof e->target);
      e->target.field = test_flowfield(L, -1);
      if (!e->target.field)
        compile_error(c, "'field' must be a steer.FlowField, got %s",
                      arg_typename(L, -1), "");
      e->target.kind = STEER_TARGET_FLOW;
      lua_pop(L, 1);
    } else if (strcmp(key, "region") == 0) { /* contain */
      e->target.kind = STEER_TARGET_PATH;
      char where[64];
      snprintf(where, sizeof where, "entry %d ('%s'): ", c->entry,
               c->behavior ? c->behavior : "contain");
      e->target.path = region_arg(L, -1, c->fname, c->argn, where);
      lua_rawseti(L, c->keep, ++c->kept); /* alive until compiled */
      lua_pop(L, 1);
    } else if (strcmp(key, "target") == 0 || strcmp(key, "path") == 0) {
      e->target = read_target(c, -1);
      lua_pop(L, 1);
    } else if (strcmp(key, "radius") == 0) {
      e->radius = param_number(c, key, NUM_NONNEG);
      radius_given = 1;
    } else if (strcmp(key, "feeler_length") == 0) {
      e->feeler_length = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "hysteresis") == 0 && avoidance) {
      e->hysteresis = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "whiskers") == 0) {
      e->whiskers = param_flag(c, key);
    } else if (strcmp(key, "slowing_radius") == 0) {
      e->slowing_radius = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "arrival_radius") == 0) {
      e->arrival_radius = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "panic_radius") == 0) {
      e->panic_radius = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "time_horizon") == 0) {
      e->time_horizon = param_number(c, key, NUM_POSITIVE);
    } else if (strcmp(key, "personal_space") == 0) {
      e->personal_space = param_number(c, key, NUM_NONNEG);
    } else {
      offset_given |= strcmp(key, "offset") == 0;
      read_tactics_param(c, key, e); /* issue 15's parameters (above) */
      read_turn_param(c, key, e); /* issue 14's parameters (above) */
    }
  }
  if (b == STEER_FORMATION && e->target.kind == STEER_TARGET_NONE)
    compile_error(c, "missing 'formation' (a steer.Formation)", "", "");
  if (b == STEER_INTERPOSE && e->other.kind == STEER_TARGET_NONE)
    compile_error(c, "missing 'between' (two agents or points)", "", "");
  if (b == STEER_OFFSET_PURSUIT && !offset_given) /* {0, 0}: on the leader */
    compile_error(c, "missing 'offset' ({x, y} in the leader's frame)", "",
                  "");
  if (has_word(params, "radius") && !has_word(params, "slowing_radius") &&
      b != STEER_AVOID_AGENTS && !radius_given)
    compile_error(c, "missing 'radius'", "", "");
  if (b == STEER_CONTAIN && e->target.kind == STEER_TARGET_NONE)
    compile_error(c, "missing 'region'", "", "");
  if (has_word(params, "target") && e->target.kind == STEER_TARGET_NONE)
    compile_error(c, b == STEER_FOLLOW ? "missing 'path'" : "missing 'target'",
                  "", "");
  if (b == STEER_FLOW && e->target.kind != STEER_TARGET_FLOW)
    compile_error(c, "missing 'field' (a steer.FlowField)", "", "");
  if (e->target.kind != STEER_TARGET_NONE && b != STEER_FLOW)
    check_target_kind(c, (steer_behavior)b, &e->target);
}

/* Compiles the program table at idx. The result has one reference. */
static steer_program *compile(compiling *c, int idx) {
  lua_State *L = c->L;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    type_error(L, idx, c->fname, c->argn, "table");
  steer_combine combine = STEER_WEIGHTED;
  steer_turn turn = STEER_TURN_NONE;
  double smoothing = -1, hold = 0;
  steer_orca orca;
  int has_orca = 0, collide = 0;
  size_t n = lua_rawlen(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TNUMBER) {
      double k = lua_tonumber(L, -2);
      if (k >= 1 && k <= (double)n && k == (double)(size_t)k) {
        lua_pop(L, 1);
        continue;
      }
    }
    if (lua_type(L, -2) != LUA_TSTRING)
      compile_error(c, "unexpected %s key in program", arg_typename(L, -2),
                    "");
    const char *key = lua_tostring(L, -2);
    if (strcmp(key, "combine") == 0) {
      int m = lua_type(L, -1) == LUA_TSTRING
                  ? find_name(combine_names, lua_tostring(L, -1))
                  : -1;
      if (lua_type(L, -1) != LUA_TSTRING)
        compile_error(c, "combine: string expected, got %s",
                      arg_typename(L, -1), "");
      const char *mode = lua_tostring(L, -1);
      const char *meant =
          m < 0 ? meant_name(mode, combine_names, combine_aliases) : NULL;
      if (meant)
        compile_error(c, "unknown combine mode '%s': did you mean '%s'?", mode,
                      meant);
      char list[96];
      if (m < 0)
        compile_error(c, "unknown combine mode '%s': expected %s", mode,
                      quoted_names(combine_names, list, sizeof list));
      combine = (steer_combine)m;
      lua_pop(L, 1);
    } else if (strcmp(key, "smoothing") == 0) {
      smoothing = param_number(c, key, NUM_ANY);
      /* force = lerp(previous, raw, smoothing): 0 would keep the first
         force for good and ignore the program */
      if (!(smoothing > 0 && smoothing <= 1)) {
        char got[32];
        snprintf(got, sizeof got, "%.14g", smoothing);
        compile_error(c,
                      "smoothing must be in (0, 1] (1: no smoothing; smaller "
                      "is smoother), got %s",
                      got, "");
      }
    } else if (strcmp(key, "hold") == 0) {
      hold = param_number(c, key, NUM_NONNEG);
    } else if (strcmp(key, "turn") == 0) {
      if (lua_type(L, -1) != LUA_TSTRING ||
          strcmp(lua_tostring(L, -1), "velocity") != 0)
        compile_error(c, "turn must be 'velocity'", "", "");
      turn = STEER_TURN_TO_VELOCITY;
      lua_pop(L, 1);
    } else if (strcmp(key, "orca") == 0) {
      has_orca = read_orca(L, -1, c->fname, c->argn, "orca", &orca);
      lua_pop(L, 1);
    } else if (strcmp(key, "collide") == 0) {
      if (!lua_isboolean(L, -1))
        compile_error(c, "collide: boolean expected, got %s",
                      arg_typename(L, -1), "");
      collide = lua_toboolean(L, -1);
      lua_pop(L, 1);
    } else {
      static const char *const fields[] = {"combine", "smoothing", "hold",
                                           "turn", "orca", "collide", NULL};
      const char *meant = typo_of(key, fields);
      if (meant)
        compile_error(c, "unknown program field '%s': did you mean '%s'?",
                      key, meant);
      compile_error(c, "unknown program field '%s'", key, "");
    }
  }
  lua_newtable(L);
  c->keep = lua_gettop(L);
  steer_entry *entries = new_userdata(L, (n ? n : 1) * sizeof(steer_entry));
  for (size_t k = 0; k < n; k++) {
    c->entry = (int)k + 1;
    lua_rawgeti(L, idx, (int)k + 1);
    read_entry(c, -1, &entries[k]);
    lua_pop(L, 1);
    /* set_target, set_weight and active_behavior name one entry per tag */
    for (size_t j = 0; j < k && entries[k].tag[0]; j++)
      if (strcmp(entries[j].tag, entries[k].tag) == 0) {
        char first[24];
        snprintf(first, sizeof first, "%d", (int)j + 1);
        compile_error(c, "tag '%s' already names entry %s", entries[k].tag,
                      first);
      }
    /* turn = "velocity" is for programs without angular entries: with one,
       two rules would turn the agent */
    if (turn != STEER_TURN_NONE && is_angular(entries[k].behavior))
      compile_error(c,
                    "an angular entry cannot be combined with turn = "
                    "'velocity' (both would turn the agent)",
                    "", "");
  }
  c->entry = 0;
  /* programs use the host's allocator: fail_allocations acts here */
  steer_program *p = hooks_allow(hooks_of(L))
                         ? steer_program_create(combine, smoothing, hold,
                                                entries, n)
                         : NULL;
  lua_pop(L, 2); /* entries, keep */
  if (!p) luaL_error(L, "not enough memory");
  if (turn != STEER_TURN_NONE) steer_program_set_turn(p, turn);
  if (has_orca) steer_program_set_orca(p, &orca); /* read_orca checked it */
  if (collide) steer_program_set_collide(p, 1);
  return p;
}

/* ---- steer.Program: a compiled program to share between agents ----------- */


typedef struct lprogram {
  steer_program *p;
  lworld *world; /* of its agent targets, NULL if it has none */
} lprogram;

int l_program_new(lua_State *L) {
  /* before the new userdata takes slot 1 of an empty call */
  if (!lua_istable(L, 1)) type_error(L, 1, "program", 1, "table");
  check_no_more(L, 2, "program", 2);
  lprogram *lp = new_userdata(L, sizeof *lp);
  lp->p = NULL;
  lp->world = NULL;
  luaL_getmetatable(L, PROGRAM_MT);
  lua_setmetatable(L, -2);
  /* the user value keeps the world of agent targets alive */
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setuservalue(L, -3);
  compiling c = {L, "program", 1, NULL, 0, "", lua_gettop(L), 0, 0};
  lp->p = compile(&c, 1);
  lp->world = c.world;
  lua_pop(L, 1);
  return 1;
}

static int prog_gc(lua_State *L) {
  lprogram *lp = luaL_testudata(L, 1, PROGRAM_MT);
  if (lp) {
    steer_program_release(lp->p);
    lp->p = NULL;
  }
  return 0;
}

static int prog_tostring(lua_State *L) {
  lprogram *lp = luaL_checkudata(L, 1, PROGRAM_MT);
  lua_pushfstring(L, PROGRAM_MT " (%s, %d entries)",
                  combine_names[steer_program_combine(lp->p)],
                  (int)steer_program_count(lp->p));
  return 1;
}

/* ---- agent methods -------------------------------------------------------- */

static void set_program(lua_State *L, agent_ref *a, steer_program *p) {
  steer_status s = steer_agent_set_program(a->w, a->i, p);
  if (s != STEER_OK) {
    steer_program_release(p);
    check_status(L, s);
  }
  steer_program_release(p); /* the agent holds its own reference */
}

steer_program *program_arg(lua_State *L, int idx, lworld *world,
                           const char *fname, int argn) {
  lprogram *lp = luaL_testudata(L, idx, PROGRAM_MT);
  if (lp) {
    if (lp->world && lp->world != world)
      arg_error(L, fname, argn, "program targets agents of another world");
    steer_program_retain(lp->p);
    return lp->p;
  }
  if (!lua_istable(L, idx)) /* neither form */
    type_error(L, idx, fname, argn, "steer.Program or table");
  compiling c = {L, fname, argn, world, 0, "", 0, 0, 0};
  return compile(&c, idx);
}

/* a:set_behaviors(table | steer.Program | nil) */
static int a_set_behaviors(lua_State *L) {
  agent_ref a = check_agent(L, 1, "set_behaviors", 0);
  check_no_more(L, 3, "set_behaviors", 2);
  if (lua_isnoneornil(L, 2)) {
    check_status(L, steer_agent_set_program(a.w, a.i, NULL));
    return 0;
  }
  lprogram *lp = luaL_testudata(L, 2, PROGRAM_MT);
  if (lp) {
    if (lp->world && lp->world != a.box)
      arg_error(L, "set_behaviors", 1, "program targets agents of another world");
    steer_program_retain(lp->p);
    set_program(L, &a, lp->p);
    return 0;
  }
  if (!lua_istable(L, 2)) /* neither form */
    type_error(L, 2, "set_behaviors", 1, "steer.Program or table");
  compiling c = {L, "set_behaviors", 1, a.box, 0, "", 0, 0, 0};
  steer_program *p = compile(&c, 2);
  /* compiling may have run Lua code (a finalizer) that closed the world or
     removed the agent: find it again; nothing below runs Lua before p is
     given away or released */
  if (!a.box->w || steer_world_index(a.box->w, a.id) < 0) {
    steer_program_release(p);
    live_agent(L, a.box, a.id, "set_behaviors");
  }
  a = live_agent(L, a.box, a.id, "set_behaviors");
  set_program(L, &a, share_program(a.box, p));
  return 0;
}

steer_program *share_program(lworld *box, steer_program *p) {
  /* a crowd given the same table one agent at a time shares one program
     (one batch in the step, one copy in memory) */
  if (box->last_program && steer_program_equal(box->last_program, p)) {
    steer_program_release(p);
    p = box->last_program;
    steer_program_retain(p);
  } else {
    steer_program_retain(p);
    steer_program_release(box->last_program);
    box->last_program = p;
  }
  return p;
}

/* The 0-based entry named by argument idx: a 1-based index, a tag, or a
   behavior name (its first entry). */
static size_t check_entry(lua_State *L, int idx, const agent_ref *a,
                          const char *fname, const steer_program **out) {
  const steer_program *p = steer_agent_program(a->w, a->i);
  if (!p) arg_error(L, fname, 0, "agent has no behaviors");
  size_t n = steer_program_count(p);
  *out = p;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    double k = lua_tonumber(L, idx);
    if (k >= 1 && k <= (double)n && k == (double)(size_t)k) return (size_t)k - 1;
    arg_error(L, fname, idx - 1, "no entry %.14g (the program has %d)", k,
              (int)n);
  }
  if (lua_type(L, idx) != LUA_TSTRING)
    type_error(L, idx, fname, idx - 1, "entry index, tag or behavior name");
  size_t len;
  const char *name = lua_tolstring(L, idx, &len);
  if (strlen(name) != len) /* C would read it cut short */
    arg_error(L, fname, idx - 1, "no entry '%s' (the name holds a zero byte)",
              name);
  /* "" is an untagged entry's tag: it names no entry */
  for (size_t k = 0; len > 0 && k < n; k++)
    if (strcmp(steer_program_entry(p, k)->tag, name) == 0) return k;
  int b = find_name(behavior_names, name);
  for (size_t k = 0; b >= 0 && k < n; k++)
    if ((int)steer_program_entry(p, k)->behavior == b) return k;
  arg_error(L, fname, idx - 1, "no entry '%s'", name);
  return 0;
}

/* set_target of a formation entry (a steer.Formation) or an interpose
   entry (two ends in the forms of a:interpose: a:set_target(which, a, b),
   with a point end as x, y numbers or any point target) */
static int set_tactics_target(lua_State *L, compiling *c, agent_ref *a,
                              size_t k, steer_behavior b) {
  lworld *world = a->box;
  if (b == STEER_FORMATION) {
    char where[64];
    snprintf(where, sizeof where, "entry %d ('formation'): ", c->entry);
    steer_target t = formation_target(L, 3, &world, "set_target", 2, where);
    check_status(L, steer_agent_set_target(a->w, a->i, k, t));
    return 0;
  }
  steer_target ends[2];
  int at = 3;
  for (int n = 0; n < 2; n++) {
    if (lua_type(L, at) == LUA_TNUMBER) {
      memset(&ends[n], 0, sizeof ends[n]);
      ends[n].kind = STEER_TARGET_POINT;
      ends[n].point.x = check_num(L, at, "set_target", at - 1);
      ends[n].point.y = check_num(L, at + 1, "set_target", at);
      at += 2;
    } else {
      c->argn = at - 1;
      ends[n] = read_target(c, at++);
      check_target_kind(c, b, &ends[n]);
    }
  }
  if (!lua_isnoneornil(L, at)) { /* a third end would be dropped */
    c->argn = at - 1;
    compile_error(c, "interpose takes two ends, got a third (%s)",
                  arg_typename(L, at), "");
  }
  /* reading the ends may have run Lua code that changed the agent: look
     it and its entry up again */
  const steer_program *p;
  *a = live_agent(L, a->box, a->id, "set_target");
  k = check_entry(L, 2, a, "set_target", &p);
  if (steer_program_entry(p, k)->behavior != STEER_INTERPOSE)
    compile_error(c, "the entry changed while its ends were read", "", "");
  /* the second end first: it copies a shared program, after which setting
     the first cannot run out of memory */
  check_status(L, steer_agent_set_other(a->w, a->i, k, ends[1]));
  check_status(L, steer_agent_set_target(a->w, a->i, k, ends[0]));
  return 0;
}

/* set_target of a flow entry: another steer.FlowField (an agent changes
   fields; f:set_goals moves every follower's goals at once) */
static int set_flow_target(lua_State *L, compiling *c, agent_ref *a,
                           size_t k) {
  steer_target t;
  memset(&t, 0, sizeof t);
  t.kind = STEER_TARGET_FLOW;
  t.field = test_flowfield(L, 3);
  if (!t.field)
    compile_error(c, "takes a steer.FlowField, got %s", arg_typename(L, 3),
                  "");
  check_no_more(L, 4, "set_target", 3);
  check_status(L, steer_agent_set_target(a->w, a->i, k, t));
  return 0;
}

/* a:set_target(which, target) or a:set_target(which, x, y): the target
   forms of programs */
static int a_set_target(lua_State *L) {
  agent_ref a = check_agent(L, 1, "set_target", 0);
  const steer_program *p;
  size_t k = check_entry(L, 2, &a, "set_target", &p);
  const steer_entry *e = steer_program_entry(p, k);
  compiling c = {L, "set_target", 2, a.box, (int)k + 1,
                 behavior_names[e->behavior], 0, 0, 0};
  if (e->behavior == STEER_FORMATION || e->behavior == STEER_INTERPOSE)
    return set_tactics_target(L, &c, &a, k, e->behavior);
  if (e->behavior == STEER_FLOW) return set_flow_target(L, &c, &a, k);
  if (!has_word(behavior_params[e->behavior], "target"))
    compile_error(&c, "takes no target", "", "");
  /* a point as x, y takes two arguments, any other target one; a path may
     come with nav:path's length and cost: a:set_target(tag, nav:path(a, b)) */
  int numbers = lua_type(L, 3) == LUA_TNUMBER;
  int after = numbers ? 5 : 4;
  if (!numbers && luaL_testudata(L, 3, PATH_MT) &&
      lua_type(L, 4) == LUA_TNUMBER && lua_type(L, 5) == LUA_TNUMBER)
    after = 6;
  if (lua_isnil(L, 3) && lua_type(L, 4) == LUA_TSTRING)
    arg_error(L, "set_target", 2,
              "target expected, got nil and '%s' (nav:path found no path?)",
              lua_tostring(L, 4));
  check_no_more(L, after, "set_target", after - 1);
  steer_target t;
  if (numbers) {
    memset(&t, 0, sizeof t);
    t.kind = STEER_TARGET_POINT;
    t.point.x = check_num(L, 3, "set_target", 2);
    t.point.y = check_num(L, 4, "set_target", 3);
  } else {
    t = read_target(&c, 3);
    /* reading it may have run Lua code that changed the agent: look the
       agent and its entry up again */
    a = live_agent(L, a.box, a.id, "set_target");
    k = check_entry(L, 2, &a, "set_target", &p);
    e = steer_program_entry(p, k);
    c.entry = (int)k + 1;
    c.behavior = behavior_names[e->behavior];
    if (!has_word(behavior_params[e->behavior], "target"))
      compile_error(&c, "takes no target", "", "");
  }
  check_target_kind(&c, e->behavior, &t);
  check_status(L, steer_agent_set_target(a.w, a.i, k, t));
  return 0;
}

/* a:set_weight(which, weight) */
static int a_set_weight(lua_State *L) {
  agent_ref a = check_agent(L, 1, "set_weight", 0);
  const steer_program *p;
  size_t k = check_entry(L, 2, &a, "set_weight", &p);
  double weight = check_num(L, 3, "set_weight", 2);
  check_no_more(L, 4, "set_weight", 3);
  check_status(L, steer_agent_set_weight(a.w, a.i, k, weight));
  return 0;
}

/* a:steering([dt]) -> fx, fy of the program now (bookkeeping advances as in
   a step; dt only counts down priority's hold) */
static int a_steering(lua_State *L) {
  agent_ref a = check_agent(L, 1, "steering", 0);
  double dt = opt_nonneg(L, 2, "steering", 1, 0);
  check_no_more(L, 3, "steering", 2);
  steer_vec2 f = steer_agent_steering(a.w, a.i, dt);
  lua_pushnumber(L, f.x);
  lua_pushnumber(L, f.y);
  return 2;
}

/* a:active_behavior() -> index, tag or behavior name of the entry that won
   the last priority/dither combination; nil when none did */
static int a_active_behavior(lua_State *L) {
  agent_ref a = check_agent(L, 1, "active_behavior", 0);
  check_no_more(L, 2, "active_behavior", 1);
  long k = steer_agent_active_entry(a.w, a.i);
  const steer_program *p = steer_agent_program(a.w, a.i);
  if (k < 0 || !p) {
    lua_pushnil(L);
    return 1;
  }
  const steer_entry *e = steer_program_entry(p, (size_t)k);
  lua_pushinteger(L, k + 1);
  lua_pushstring(L, e->tag[0] ? e->tag : behavior_names[e->behavior]);
  return 2;
}

static void push_path(lua_State *L, steer_path *path) {
  lpath *lp = new_userdata(L, sizeof *lp);
  lp->path = path;
  steer_path_retain(path);
  luaL_getmetatable(L, PATH_MT);
  lua_setmetatable(L, -2);
}

static void set_number(lua_State *L, const char *key, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, key);
}

static void push_target(lua_State *L, int env, agent_ref *a,
                        const steer_target *t) {
  if (t->kind == STEER_TARGET_AGENT) {
    push_agent(L, env, a->box, t->agent);
    return;
  }
  if (t->kind == STEER_TARGET_SHARED) {
    push_point(L, t->shared);
    return;
  }
  lua_createtable(L, 2, 0);
  lua_pushnumber(L, t->point.x);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, t->point.y);
  lua_rawseti(L, -2, 2);
}

/* groups, fov, falloff and the corridor's parameters of entry e (those
   its behavior takes) into the entry table on the top, as read_turn_param
   reads them */
static void push_turn_params(lua_State *L, const steer_entry *e) {
  static const char *const falloffs[] = {"inverse", "linear", "inverse_square"};
  const char *params = behavior_params[e->behavior];
  if (has_word(params, "groups") && e->groups != STEER_ALL_GROUPS) {
    lua_newtable(L);
    int n = 0;
    for (int g = 0; g < 32; g++)
      if (e->groups >> g & 1) {
        lua_pushinteger(L, g);
        lua_rawseti(L, -2, ++n);
      }
    lua_setfield(L, -2, "groups");
  }
  if (has_word(params, "fov")) set_number(L, "fov", e->fov);
  if (has_word(params, "falloff")) {
    lua_pushstring(L, falloffs[e->falloff]);
    lua_setfield(L, -2, "falloff");
  }
  if (has_word(params, "path_radius") && e->path_radius >= 0)
    set_number(L, "path_radius", e->path_radius);
  if (has_word(params, "look_ahead")) set_number(L, "look_ahead", e->look_ahead);
  if (has_word(params, "start") && e->start == STEER_START_NEAREST) {
    lua_pushstring(L, "nearest");
    lua_setfield(L, -2, "start");
  } else if (has_word(params, "start") && e->start > 0) {
    set_number(L, "start", (double)e->start + 1);
  }
}

/* the tactics parameters of entry e into the entry table on the top */
static void push_tactics_params(lua_State *L, int env, agent_ref *a,
                                const steer_entry *e) {
  const char *params = behavior_params[e->behavior];
  set_number(L, "slowing_radius", e->slowing_radius);
  if (has_word(params, "distance")) set_number(L, "distance", e->distance);
  if (has_word(params, "radius")) set_number(L, "radius", e->radius);
  if (has_word(params, "fov")) set_number(L, "fov", e->fov);
  if (has_word(params, "offset")) {
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, e->offset.x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, e->offset.y);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "offset");
  }
  if (has_word(params, "fit")) {
    lua_pushboolean(L, e->fit);
    lua_setfield(L, -2, "fit");
  }
  if (e->behavior == STEER_INTERPOSE) {
    lua_createtable(L, 2, 0);
    push_target(L, env, a, &e->other);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "between");
  }
}

/* a:behaviors() -> the program as a table like the one set_behaviors takes
   (every parameter spelled out), or nil */
static int a_behaviors(lua_State *L) {
  agent_ref a = check_agent(L, 1, "behaviors", 0);
  check_no_more(L, 2, "behaviors", 1);
  /* building the tables may run Lua code that replaces the agent's program:
     a reference held by a steer.Program userdata keeps it alive, and
     releases it if an error unwinds the call */
  lprogram *hold = new_userdata(L, sizeof *hold);
  hold->p = NULL;
  hold->world = NULL;
  luaL_getmetatable(L, PROGRAM_MT);
  lua_setmetatable(L, -2);
  a = live_agent(L, a.box, a.id, "behaviors");
  steer_program *p = (steer_program *)steer_agent_program(a.w, a.i);
  if (!p) {
    lua_pushnil(L); /* a value, so that print and format see one */
    return 1;
  }
  steer_program_retain(p);
  hold->p = p;
  lua_getuservalue(L, 1);
  int env = lua_gettop(L);
  size_t n = steer_program_count(p);
  lua_createtable(L, (int)n, 3);
  lua_pushstring(L, combine_names[steer_program_combine(p)]);
  lua_setfield(L, -2, "combine");
  if (steer_program_smoothing(p) >= 0)
    set_number(L, "smoothing", steer_program_smoothing(p));
  if (steer_program_combine(p) == STEER_PRIORITY)
    set_number(L, "hold", steer_program_hold(p));
  if (steer_program_turn(p) == STEER_TURN_TO_VELOCITY) {
    lua_pushliteral(L, "velocity");
    lua_setfield(L, -2, "turn");
  }
  if (steer_program_orca(p)) {
    push_orca(L, steer_program_orca(p));
    lua_setfield(L, -2, "orca");
  }
  if (steer_program_collide(p)) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "collide");
  }
  for (size_t k = 0; k < n; k++) {
    const steer_entry *e = steer_program_entry(p, k);
    const char *params = behavior_params[e->behavior];
    lua_newtable(L);
    lua_pushstring(L, behavior_names[e->behavior]);
    lua_rawseti(L, -2, 1);
    set_number(L, "weight", e->weight);
    if (steer_program_combine(p) == STEER_DITHER && !is_angular(e->behavior))
      set_number(L, "probability", e->probability);
    if (e->tag[0]) {
      lua_pushstring(L, e->tag);
      lua_setfield(L, -2, "tag");
    }
    if (has_word(params, "radius") && !has_word(params, "slowing_radius"))
      set_number(L, "radius", e->radius);
    if (has_word(params, "feeler_length"))
      set_number(L, "feeler_length", e->feeler_length);
    if (has_word(params, "hysteresis")) /* not contain's */
      set_number(L, "hysteresis", e->hysteresis);
    if (has_word(params, "whiskers")) {
      lua_pushboolean(L, e->whiskers);
      lua_setfield(L, -2, "whiskers");
    }
    if (has_word(params, "slowing_radius"))
      set_number(L, "slowing_radius", e->slowing_radius);
    if (e->target.kind == STEER_TARGET_PATH && e->behavior != STEER_CONTAIN)
      set_number(L, "arrival_radius", e->arrival_radius);
    if (e->behavior == STEER_AVOID_AGENTS) {
      set_number(L, "time_horizon", e->time_horizon);
      set_number(L, "personal_space", e->personal_space);
    }
    if (has_word(params, "panic_radius") && e->panic_radius >= 0)
      set_number(L, "panic_radius", e->panic_radius);
    push_turn_params(L, e);
    if (e->behavior >= STEER_OFFSET_PURSUIT && e->behavior <= STEER_QUEUE)
      push_tactics_params(L, env, &a, e);
    switch (e->target.kind) {
    case STEER_TARGET_POINT:
      lua_createtable(L, 2, 0);
      lua_pushnumber(L, e->target.point.x);
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, e->target.point.y);
      lua_rawseti(L, -2, 2);
      break;
    case STEER_TARGET_AGENT: push_agent(L, env, a.box, e->target.agent); break;
    case STEER_TARGET_PATH: push_path(L, e->target.path); break;
    case STEER_TARGET_FORMATION:
      push_formation(L, env, a.box, e->target.formation);
      break;
    case STEER_TARGET_FLOW: push_flowfield(L, e->target.field); break;
    case STEER_TARGET_SHARED: push_point(L, e->target.shared); break;
    default: lua_pushnil(L); break;
    }
    lua_setfield(L, -2, e->behavior == STEER_FOLLOW      ? "path"
                        : e->behavior == STEER_FLOW      ? "field"
                        : e->behavior == STEER_FORMATION ? "formation"
                        : e->behavior == STEER_INTERPOSE ? "_first"
                        : e->behavior == STEER_CONTAIN   ? "region"
                                                         : "target");
    if (e->behavior == STEER_INTERPOSE) { /* between = {first, other} */
      lua_getfield(L, -1, "between");
      lua_getfield(L, -2, "_first");
      lua_rawseti(L, -2, 1);
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_setfield(L, -2, "_first");
    }
    lua_rawseti(L, -2, (int)k + 1);
  }
  steer_program_release(p);
  hold->p = NULL;
  return 1;
}

const luaL_Reg program_agent_methods[] = {
    {"set_behaviors", a_set_behaviors},
    {"set_target", a_set_target},
    {"set_weight", a_set_weight},
    {"steering", a_steering},
    {"active_behavior", a_active_behavior},
    {"behaviors", a_behaviors},
    {NULL, NULL}};

void open_program(lua_State *L) {
  static const luaL_Reg meta[] = {
      {"__gc", prog_gc}, {"__tostring", prog_tostring}, {NULL, NULL}};
  new_type(L, PROGRAM_MT);
  luaL_setfuncs(L, meta, 0);
  lua_pop(L, 1);
}
