/* check.c - argument validation with messages that name the function and
 * the argument. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "binding.h"

int arg_error(lua_State *L, const char *fname, int argn, const char *fmt,
              ...) {
  char detail[512]; /* an unknown behavior's message lists every name */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  if (argn == 0)
    return luaL_error(L, "calling '%s' on bad self (%s)", fname, detail);
  return luaL_error(L, "bad argument #%d to '%s' (%s)", argn, fname, detail);
}

const char *arg_typename(lua_State *L, int idx) {
  const char *name = luaL_typename(L, idx); /* "no value" for none */
  if (lua_type(L, idx) != LUA_TUSERDATA) return name;
  luaL_checkstack(L, 3, NULL);
  if (!lua_getmetatable(L, idx)) return name;
  lua_pushstring(L, "__name");
  lua_rawget(L, -2);
  /* one of steer's types only when the registry holds this very metatable
     under that name: a look-alike __name is not believed */
  if (lua_type(L, -1) == LUA_TSTRING &&
      strncmp(lua_tostring(L, -1), "steer.", 6) == 0) {
    const char *own = lua_tostring(L, -1);
    luaL_getmetatable(L, own);
    /* own stays valid after the pops: it is that registry entry's key */
    if (lua_rawequal(L, -1, -3)) name = own;
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return name;
}

int type_error(lua_State *L, int idx, const char *fname, int argn,
               const char *expected) {
  return arg_error(L, fname, argn, "%s expected, got %s", expected,
                   arg_typename(L, idx));
}

void check_status(lua_State *L, steer_status status) {
  if (status != STEER_OK) luaL_error(L, "%s", steer_status_message(status));
}

static const char *const kind_name[] = {
    [NUM_ANY] = "finite number", [NUM_NONNEG] = "non-negative number",
    [NUM_POSITIVE] = "positive number", [NUM_FINITE] = "finite number"};

const char *number_problem(double v, number_kind kind, char buf[96]) {
  if (isnan(v)) { /* printf may say -nan */
    snprintf(buf, 96, "%s expected, got nan", kind_name[kind]);
    return buf;
  }
  if (!isfinite(v) || (kind == NUM_NONNEG && !(v >= 0)) ||
      (kind == NUM_POSITIVE && !(v > 0))) {
    snprintf(buf, 96, "%s expected, got %.14g", kind_name[kind], v);
    return buf;
  }
  if (kind != NUM_FINITE && fabs(v) > STEER_LIMIT) {
    /* the fewest digits that read back as v (up to 17): 1e+300 stays
       short, 1.0000000000000002e+150 is not shown as 1e+150 */
    char num[32];
    for (int digits = 15; digits <= 17; digits++) {
      snprintf(num, sizeof num, "%.*g", digits, v);
      if (strtod(num, NULL) == v) break;
    }
    snprintf(buf, 96, "number out of range, |%s| > 1e150", num);
    return buf;
  }
  return NULL;
}

double validate_num(lua_State *L, double v, number_kind kind,
                    const char *fname, int argn, const char *what) {
  char buf[96];
  const char *problem = number_problem(v, kind, buf);
  if (problem)
    arg_error(L, fname, argn, "%s%s%s", what ? what : "", what ? ": " : "",
              problem);
  return v;
}

static double read_number(lua_State *L, int idx, const char *fname,
                          int argn) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    type_error(L, idx, fname, argn, "number");
  return (double)lua_tonumber(L, idx);
}

double check_num(lua_State *L, int idx, const char *fname, int argn) {
  double v = read_number(L, idx, fname, argn);
  if (fabs(v) <= STEER_LIMIT) return v; /* the usual case (NaN fails it) */
  return validate_num(L, v, NUM_ANY, fname, argn, NULL);
}

double check_finite(lua_State *L, int idx, const char *fname, int argn) {
  double v = read_number(L, idx, fname, argn);
  return validate_num(L, v, NUM_FINITE, fname, argn, NULL);
}

double check_nonneg(lua_State *L, int idx, const char *fname, int argn) {
  double v = read_number(L, idx, fname, argn);
  return validate_num(L, v, NUM_NONNEG, fname, argn, NULL);
}

double check_positive(lua_State *L, int idx, const char *fname, int argn) {
  double v = read_number(L, idx, fname, argn);
  return validate_num(L, v, NUM_POSITIVE, fname, argn, NULL);
}

double opt_nonneg(lua_State *L, int idx, const char *fname, int argn,
                  double def) {
  return lua_isnoneornil(L, idx) ? def : check_nonneg(L, idx, fname, argn);
}

int opt_boolean(lua_State *L, int idx, const char *fname, int argn,
                const char *what, int def) {
  if (lua_isnoneornil(L, idx)) return def;
  if (!lua_isboolean(L, idx))
    arg_error(L, fname, argn, "%s must be a boolean, got %s", what,
              arg_typename(L, idx));
  return lua_toboolean(L, idx);
}

void check_no_more(lua_State *L, int idx, const char *fname, int argn) {
  for (int k = idx, top = lua_gettop(L); k <= top; k++)
    if (!lua_isnil(L, k)) /* nil: as if left out */
      arg_error(L, fname, argn + (k - idx),
                "no argument expected here, got %s", arg_typename(L, k));
}

double check_integral(lua_State *L, int idx, const char *fname, int argn) {
  double v = read_number(L, idx, fname, argn);
  if (isnan(v)) /* printf may say -nan */
    arg_error(L, fname, argn, "integer expected, got nan");
  if (!(v == floor(v)) || fabs(v) > 9007199254740992.0)
    arg_error(L, fname, argn, "integer expected, got %.14g", v);
  return v;
}

/* ---- objects ------------------------------------------------------------ */

lworld *check_world(lua_State *L, int idx, const char *fname, int argn) {
  lworld *box = luaL_testudata(L, idx, WORLD_MT);
  if (!box) type_error(L, idx, fname, argn, WORLD_MT);
  if (!box->w) arg_error(L, fname, argn, "world is closed");
  return box;
}

agent_ref check_agent(lua_State *L, int idx, const char *fname, int argn) {
  lagent *a = luaL_testudata(L, idx, AGENT_MT);
  if (!a) type_error(L, idx, fname, argn, AGENT_MT);
  if (!a->box->w) arg_error(L, fname, argn, "world is closed");
  long i = steer_world_index(a->box->w, a->id);
  if (i < 0) arg_error(L, fname, argn, "agent has been removed");
  agent_ref r = {a->box, a->box->w, (size_t)i, a->id};
  return r;
}

agent_ref check_peer(lua_State *L, int idx, const agent_ref *self,
                     const char *fname, int argn) {
  agent_ref r = check_agent(L, idx, fname, argn);
  if (r.box != self->box)
    arg_error(L, fname, argn, "agent belongs to another world");
  return r;
}

steer_path *check_path(lua_State *L, int idx, const char *fname, int argn) {
  lpath *p = luaL_testudata(L, idx, PATH_MT);
  if (!p) type_error(L, idx, fname, argn, PATH_MT);
  return p->path;
}

steer_point *test_point(lua_State *L, int idx) {
  lpoint *p = luaL_testudata(L, idx, POINT_MT);
  return p ? p->point : NULL;
}

/* ---- points ------------------------------------------------------------ */

const char *table_point(lua_State *L, int idx, steer_vec2 *p, char buf[128]) {
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, idx, 1);
  int array = !lua_isnil(L, -1); /* {x, y}; else {x =, y =} */
  lua_pop(L, 1);
  double xy[2];
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "y" : "x";
    /* raw reads: checking an argument runs no code of the caller's */
    if (array) {
      lua_rawgeti(L, idx, k + 1);
    } else {
      lua_pushstring(L, name);
      lua_rawget(L, idx);
    }
    if (lua_type(L, -1) != LUA_TNUMBER) {
      snprintf(buf, 128, "%s: number expected, got %s", name,
               arg_typename(L, -1));
      lua_pop(L, 1);
      return buf;
    }
    xy[k] = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    char inner[96];
    const char *problem = number_problem(xy[k], NUM_ANY, inner);
    if (problem) {
      snprintf(buf, 128, "%s: %s", name, problem);
      return buf;
    }
  }
  p->x = xy[0];
  p->y = xy[1];
  return NULL;
}

steer_vec2 check_point(lua_State *L, int idx, const agent_ref *self,
                       const char *fname, int argn, int *used) {
  steer_vec2 p = {0, 0};
  *used = 1;
  switch (lua_type(L, idx)) {
  case LUA_TUSERDATA: {
    if (test_point(L, idx)) return steer_point_get(test_point(L, idx));
    /* no self (navigation): an agent of any world */
    agent_ref other = self ? check_peer(L, idx, self, fname, argn)
                           : check_agent(L, idx, fname, argn);
    return steer_agent_position(other.w, other.i);
  }
  case LUA_TTABLE: {
    char buf[128];
    const char *problem = table_point(L, idx, &p, buf);
    if (problem) arg_error(L, fname, argn, "point %s", problem);
    return p;
  }
  case LUA_TNUMBER:
    p.x = check_num(L, idx, fname, argn);
    p.y = check_num(L, idx + 1, fname, argn + 1);
    *used = 2;
    return p;
  default:
    type_error(L, idx, fname, argn, POINT_FORMS);
    return p;
  }
}

/* ---- typos -------------------------------------------------------------- */

/* `s` lowercased without underscores, in out[64]; 0 when it is too long */
static int fold(const char *s, char out[64]) {
  size_t n = 0;
  for (; *s; s++) {
    if (*s == '_') continue;
    if (n == 63) return 0;
    out[n++] = (char)tolower((unsigned char)*s);
  }
  out[n] = '\0';
  return 1;
}

/* Is the edit distance between a and b (insertions, deletions,
   substitutions, swaps of neighbors) at most 1? */
static int one_edit(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  if (na > nb) {
    const char *t = a;
    size_t nt = na;
    a = b, na = nb, b = t, nb = nt;
  }
  if (nb - na > 1) return 0;
  size_t k = 0;
  while (k < na && a[k] == b[k]) k++;
  if (k == na) return 1; /* equal, or b has one more at the end */
  if (na < nb) return strcmp(a + k, b + k + 1) == 0;  /* one inserted */
  if (strcmp(a + k + 1, b + k + 1) == 0) return 1;     /* one replaced */
  return k + 1 < na && a[k] == b[k + 1] && a[k + 1] == b[k] &&
         strcmp(a + k + 2, b + k + 2) == 0;            /* two swapped */
}

int is_typo(const char *key, const char *name) {
  char k[64], n[64];
  if (strcmp(key, name) == 0 || !fold(key, k) || !fold(name, n)) return 0;
  /* short names (x, vx) are too near too many words: case only */
  return strcmp(k, n) == 0 || (strlen(n) >= 5 && one_edit(k, n));
}

const char *rows_hint(lua_State *L, int idx) {
  lua_rawgeti(L, idx, 1);
  int rows = lua_istable(L, -1);
  lua_pop(L, 1);
  return rows ? "; a table of rows? a flat array, row by row, is expected" : "";
}

const char *typo_of(const char *key, const char *const known[]) {
  for (int k = 0; known[k]; k++)
    if (is_typo(key, known[k])) return known[k];
  return NULL;
}

const char *quoted_names(const char *const names[], char *buf, size_t cap) {
  buf[0] = '\0';
  for (int k = 0; names[k]; k++) {
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, "%s'%s'",
             k == 0 ? "" : names[k + 1] ? ", " : " or ", names[k]);
  }
  return buf;
}

void check_names(lua_State *L, int idx, const char *const known[],
                 const char *word, int strict, const char *fname, int argn) {
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) { /* raw: runs no code of the caller's */
    lua_pop(L, 1);
    int named = lua_type(L, -1) == LUA_TSTRING;
    if (!named && !strict) continue; /* points, for steer.path */
    const char *key = named ? lua_tostring(L, -1) : arg_typename(L, -1);
    int k = 0;
    while (named && known[k] && strcmp(key, known[k]) != 0) k++;
    if (named && known[k]) continue;
    const char *meant = named ? typo_of(key, known) : NULL;
    if (meant)
      arg_error(L, fname, argn, "unknown %s '%s': did you mean '%s'?", word,
                key, meant);
    char list[160];
    arg_error(L, fname, argn, "unknown %s '%s': expected %s", word, key,
              quoted_names(known, list, sizeof list));
  }
}

void check_keys(lua_State *L, int idx, const char *const known[],
                const char *fname, int argn) {
  check_names(L, idx, known, "field", 0, fname, argn);
}
