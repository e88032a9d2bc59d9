/* crowd_lanes.h - the crowd kernel for several agents at once, one per
 * SIMD lane: the neighbor walk (flock_span_walk in neighbors.c) and the force
 * of a pure flocking program (pure_flock_force in crowd.c). Each lane
 * performs the scalar code's operations in the scalar code's order, so its
 * sums and its force are the scalar ones bit for bit (up to the sign of a
 * zero sum).
 *
 * Included by crowd.c (SSE2, two lanes) and crowd_quad.c (AVX, four), each
 * defining first:
 *   LANES_WALK, LANES_FORCE  the functions' names
 *   LANES_ATTR    attributes of the functions (a target, or nothing)
 *   LANES         lanes per vector         VEC   the vector type
 *   V_LOAD(a) V_STORE(a, v)  LANES doubles at a
 *   V_ZERO() V_SET1(d) V_ADD V_SUB V_MUL V_DIV V_SQRT V_AND V_OR V_ANDNOT
 *   V_LE V_GT V_GE V_LT V_EQ V_NEQ  (lane masks)
 *   V_ANY(m)      any lane of m set        V_LANE(v, l)  lane l as a double
 *
 * Sums are laid out as in crowd.c's batch: sums[f * stride + lane] for
 * f = sep.x, sep.y, vel.x, vel.y, off.x, off.y, sep_n, ali_n, coh_n. */

/* Candidate j's offset from every lane's agent, and its square: dx, dy
   and d2 declared. SHIFT adds the span's torus shift (or nothing). */
#define LANES_OFFSET(j, SHIFT)                                                \
  VEC dx = SHIFT(V_SUB(V_SET1(x[j]), px), sx);                                \
  VEC dy = SHIFT(V_SUB(V_SET1(y[j]), py), sy);                                \
  VEC d2 = V_ADD(V_MUL(dx, dx), V_MUL(dy, dy))

/* The candidate in separation's sums for the lanes of mask in_sep. */
#define LANES_SEPARATE(in_sep)                                                \
  do {                                                                        \
    VEC inv = V_AND((in_sep), V_DIV(one, d2));                                \
    sepx = V_SUB(sepx, V_MUL(dx, inv));                                       \
    sepy = V_SUB(sepy, V_MUL(dy, inv));                                       \
    sepn = V_ADD(sepn, V_AND((in_sep), one));                                 \
  } while (0)

/* ... and in alignment's and cohesion's for those of in_ali and in_coh
   (count_coh: cohesion keeps its own count). */
#define LANES_ALIGN_COHERE(j, in_ali, in_coh, count_coh)                      \
  do {                                                                        \
    velx = V_ADD(velx, V_AND((in_ali), V_SET1(vx[j])));                       \
    vely = V_ADD(vely, V_AND((in_ali), V_SET1(vy[j])));                       \
    alin = V_ADD(alin, V_AND((in_ali), one));                                 \
    offx = V_ADD(offx, V_AND((in_coh), dx));                                  \
    offy = V_ADD(offy, V_AND((in_coh), dy));                                  \
    if (count_coh) cohn = V_ADD(cohn, V_AND((in_coh), one));                  \
  } while (0)

/* One candidate j for every lane. MASK leaves lanes out (or nothing):
   spelled out per use so the common loop carries neither it nor a shift.
   `shared`: alignment and cohesion have one radius, so one mask and one
   count serve both. */
#define LANES_TAKE(j, SHIFT, MASK, shared)                                    \
  do {                                                                        \
    LANES_OFFSET(j, SHIFT);                                                   \
    VEC in_sep = MASK(V_AND(V_LE(d2, sep_hi), V_GT(d2, sep_lo)));             \
    VEC in_ali = MASK(V_LE(d2, ali2));                                        \
    VEC in_coh = (shared) ? in_ali : MASK(V_LE(d2, coh2));                    \
    LANES_SEPARATE(in_sep);                                                   \
    LANES_ALIGN_COHERE(j, in_ali, in_coh, !(shared));                         \
  } while (0)

/* LANES_TAKE for separation alone: most candidates lie beyond its radius
   in every lane, and then the division and the sums are skipped (they
   would add zeros, which change no bit: a sum never holds -0). */
#define LANES_TAKE_SEP(j, SHIFT, MASK, shared)                                \
  do {                                                                        \
    LANES_OFFSET(j, SHIFT);                                                   \
    VEC in_sep = MASK(V_AND(V_LE(d2, sep_hi), V_GT(d2, sep_lo)));             \
    if (V_ANY(in_sep)) LANES_SEPARATE(in_sep);                                \
  } while (0)

/* LANES_TAKE for rules with groups (or a world with ghosts): a candidate
   none of the rules counts is skipped; the others count per rule where
   its group bit is in the rule's groups - a test per candidate, shared by
   the lanes. (View cones and other falloffs take the scalar walk.) */
#define LANES_TAKE_GROUPS(j, SHIFT, MASK, shared)                             \
  do {                                                                        \
    uint32_t bit = gb[j];                                                     \
    if (!(bit & any_group)) break;                                            \
    VEC gs = bit & q->groups[0] ? all : zero;                                 \
    VEC ga = bit & q->groups[1] ? all : zero;                                 \
    VEC gc = bit & q->groups[2] ? all : zero;                                 \
    LANES_OFFSET(j, SHIFT);                                                   \
    VEC in_sep = MASK(V_AND(gs, V_AND(V_LE(d2, sep_hi), V_GT(d2, sep_lo))));  \
    VEC in_ali = MASK(V_AND(ga, V_LE(d2, ali2)));                             \
    VEC in_coh = MASK(V_AND(gc, V_LE(d2, coh2)));                             \
    LANES_SEPARATE(in_sep);                                                   \
    LANES_ALIGN_COHERE(j, in_ali, in_coh, 1);                                 \
  } while (0)

#define LANES_NO_SHIFT(v, s) (v)
#define LANES_SHIFT(v, s) V_ADD((v), (s))
#define LANES_ANYONE(m) (m)
#define LANES_NOT_SELF(m) V_AND((m), not_self[k])

/* One set of groups for every rule: a candidate outside it is skipped,
   the others taken as by LANES_TAKE - one test per candidate. */
#define LANES_TAKE_UNIFORM(j, SHIFT, MASK, shared)                            \
  do {                                                                        \
    if (!(gb[j] & any_group)) break;                                          \
    LANES_TAKE(j, SHIFT, MASK, shared);                                       \
  } while (0)

/* Candidates from .. to - 1 of one span, each taken by TAKE (one of the
   three above). */
#define LANES_RANGE(TAKE, from, to, shared)                                   \
  do {                                                                        \
    if (unshifted)                                                            \
      for (size_t j = (from); j < (to); j++)                                  \
        TAKE(j, LANES_NO_SHIFT, LANES_ANYONE, shared);                        \
    else                                                                      \
      for (size_t j = (from); j < (to); j++)                                  \
        TAKE(j, LANES_SHIFT, LANES_ANYONE, shared);                           \
  } while (0)

/* Every span; in the one holding the agents themselves (one cell: all of
   them or none), candidate i + k leaves out the lanes that are agent
   i + k. */
#define LANES_SPANS(TAKE, shared)                                             \
  for (int s = 0; s < n; s++) {                                               \
    VEC sx = V_SET1(spans[s].sx), sy = V_SET1(spans[s].sy);                   \
    int unshifted = spans[s].sx == 0 && spans[s].sy == 0;                     \
    size_t from = spans[s].from, to = spans[s].to;                            \
    if (i < from || i >= to) {                                                \
      LANES_RANGE(TAKE, from, to, shared);                                    \
      continue;                                                               \
    }                                                                         \
    LANES_RANGE(TAKE, from, i, shared);                                       \
    for (int k = 0; k < m; k++)                                               \
      TAKE(i + (size_t)k, LANES_SHIFT, LANES_NOT_SELF, shared);               \
    LANES_RANGE(TAKE, i + (size_t)m, to, shared);                             \
  }

/* The sums of agents i .. i + m - 1 (1 <= m <= LANES; one cell, rules q)
   over the spans, lane l holding agent i + min(l, m - 1): LANES slots of
   each sum are written, the last agent repeated. */
static LANES_ATTR void LANES_WALK(const steer_world *w, size_t i, int m,
                                  const flock_rules *q,
                                  const flock_span *spans, int n,
                                  double *sums, size_t stride) {
  const double *x = w->x, *y = w->y, *vx = w->vx, *vy = w->vy;
  double lx[LANES], ly[LANES], agent[LANES]; /* agent: i + agent[l] */
  for (int l = 0; l < LANES; l++) {
    agent[l] = l < m ? l : m - 1;
    lx[l] = x[i + (size_t)agent[l]];
    ly[l] = y[i + (size_t)agent[l]];
  }
  VEC px = V_LOAD(lx), py = V_LOAD(ly), one = V_SET1(1), zero = V_ZERO();
  VEC not_self[LANES]; /* the lanes that are not agent i + k */
  for (int k = 0; k < LANES; k++)
    not_self[k] = V_NEQ(V_LOAD(agent), V_SET1((double)k));
  VEC sep_hi = V_SET1(q->sep_hi), sep_lo = V_SET1(q->sep_lo);
  VEC ali2 = V_SET1(q->ali2), coh2 = V_SET1(q->coh2);
  VEC sepx = zero, sepy = zero, velx = zero, vely = zero, offx = zero,
      offy = zero, sepn = zero, alin = zero, cohn = zero;
  if (q->filtered || w->ghosts) { /* groups only: crowd.c checks */
    const uint32_t *gb = w->group_bit;
    uint32_t any_group = q->groups[0] | q->groups[1] | q->groups[2];
    /* a rule left out (radius -1) takes no candidate whatever its groups */
    int uniform = (q->sep_hi < 0 || q->groups[0] == any_group) &&
                  (q->ali2 < 0 || q->groups[1] == any_group) &&
                  (q->coh2 < 0 || q->groups[2] == any_group);
    VEC all = V_EQ(zero, zero);
    if (uniform && q->ali2 == q->coh2) {
      LANES_SPANS(LANES_TAKE_UNIFORM, 1)
      cohn = alin;
    } else if (uniform) {
      LANES_SPANS(LANES_TAKE_UNIFORM, 0)
    } else {
      LANES_SPANS(LANES_TAKE_GROUPS, 0)
    }
  } else if (q->ali2 < 0 && q->coh2 < 0) {
    LANES_SPANS(LANES_TAKE_SEP, 1)
  } else if (q->ali2 == q->coh2) {
    LANES_SPANS(LANES_TAKE, 1)
    cohn = alin;
  } else {
    LANES_SPANS(LANES_TAKE, 0)
  }
  VEC all[9] = {sepx, sepy, velx, vely, offx, offy, sepn, alin, cohn};
  for (int f = 0; f < 9; f++) V_STORE(sums + (size_t)f * stride, all[f]);
}

static LANES_ATTR VEC lanes_agents(const double *a, const size_t *index) {
  double v[LANES];
  for (int l = 0; l < LANES; l++) v[l] = a[index[l]];
  return V_LOAD(v);
}

/* v2_clamp((*x, *y), max) in every lane, setting in *rare the lanes that
   need its hypot or subnormal branches (their results are then wrong). */
static inline LANES_ATTR void lanes_clamp(VEC *x, VEC *y, VEC max,
                                          VEC *rare) {
  VEC zero = V_ZERO();
  VEC l2 = V_ADD(V_MUL(*x, *x), V_MUL(*y, *y));
  VEC m2 = V_MUL(max, max);
  VEC moving = V_OR(V_NEQ(*x, zero), V_NEQ(*y, zero));
  VEC plain = V_AND(V_GT(l2, V_SET1(1e-290)),
                    V_AND(V_LT(l2, V_SET1(1e300)), V_LT(m2, V_SET1(1e300))));
  VEC cut = V_AND(moving, V_GT(l2, m2));
  *rare = V_OR(*rare, V_ANDNOT(plain, moving));
  if (!V_ANY(cut)) return; /* often: skip the square root and division */
  VEC ratio = V_DIV(max, V_SQRT(l2));
  VEC tiny = V_LT(ratio, V_SET1(2.2250738585072014e-308));
  *rare = V_OR(*rare, V_AND(cut, tiny));
  *x = V_OR(V_AND(cut, V_MUL(*x, ratio)), V_ANDNOT(cut, *x));
  *y = V_OR(V_AND(cut, V_MUL(*y, ratio)), V_ANDNOT(cut, *y));
}

/* The forces of agents index[0 .. LANES - 1], all with pure flocking
   program p, from their sums; 0, writing nothing, when a lane needs one of
   v2_normalize's or v2_clamp's rare branches (hypot, a subnormal ratio):
   the scalar code does those agents. */
static LANES_ATTR int LANES_FORCE(const steer_world *w,
                                  const steer_program *p, const double *sums,
                                  size_t stride, const size_t *index,
                                  steer_vec2 *out) {
  VEC sepx = V_LOAD(sums), sepy = V_LOAD(sums + stride);
  VEC velx = V_LOAD(sums + 2 * stride), vely = V_LOAD(sums + 3 * stride);
  VEC offx = V_LOAD(sums + 4 * stride), offy = V_LOAD(sums + 5 * stride);
  VEC sepn = V_LOAD(sums + 6 * stride), alin = V_LOAD(sums + 7 * stride);
  VEC cohn = V_LOAD(sums + 8 * stride);
  VEC zero = V_ZERO();
  VEC vx = lanes_agents(w->vx, index), vy = lanes_agents(w->vy, index);
  VEC fx = zero, fy = zero;
  VEC rare = zero; /* lanes that need the scalar code */
  for (size_t k = 0; k < p->count; k++) {
    const steer_entry *e = &p->entries[k];
    VEC rx, ry;
    if (e->behavior == STEER_SEPARATION) { /* sep / n, or 0 */
      VEC has = V_GT(sepn, zero);
      rx = V_AND(has, V_DIV(sepx, sepn));
      ry = V_AND(has, V_DIV(sepy, sepn));
    } else if (e->behavior == STEER_ALIGNMENT) { /* vel / n - v, or 0 */
      VEC has = V_GT(alin, zero);
      rx = V_AND(has, V_SUB(V_DIV(velx, alin), vx));
      ry = V_AND(has, V_SUB(V_DIV(vely, alin), vy));
    } else { /* normalize(off / n) * max_speed - v, or 0 */
      VEC has = V_GT(cohn, zero);
      VEC cx = V_DIV(offx, cohn), cy = V_DIV(offy, cohn);
      VEC l2 = V_ADD(V_MUL(cx, cx), V_MUL(cy, cy));
      VEC l = V_SQRT(l2);
      VEC unit = V_AND(V_GE(l2, V_SET1(1e-12)),
                       V_GT(l, V_SET1(STEER_EPSILON)));
      rare = V_OR(rare, V_AND(has, V_GE(l2, V_SET1(1e300))));
      VEC speed = lanes_agents(w->max_speed, index);
      VEC dx = V_AND(unit, V_MUL(V_DIV(cx, l), speed));
      VEC dy = V_AND(unit, V_MUL(V_DIV(cy, l), speed));
      rx = V_AND(has, V_SUB(dx, vx));
      ry = V_AND(has, V_SUB(dy, vy));
    }
    VEC weight = V_SET1(e->weight);
    fx = V_ADD(fx, V_MUL(rx, weight));
    fy = V_ADD(fy, V_MUL(ry, weight));
  }
  lanes_clamp(&fx, &fy, lanes_agents(w->max_force, index), &rare);
  if (V_ANY(rare)) return 0;
  for (int l = 0; l < LANES; l++) out[l] = v2(V_LANE(fx, l), V_LANE(fy, l));
  return 1;
}
