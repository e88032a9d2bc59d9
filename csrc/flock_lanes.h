/* flock_lanes.h - the force of a pure flocking program (pure_flock_force in
 * crowd.c) for several agents at once, one per SIMD lane, operation for
 * operation, so that each lane's force is the scalar one bit for bit. A
 * force is mostly divisions and square roots; lanes share their cost.
 *
 * Included by crowd.c (SSE2, two lanes) and crowd_quad.c (AVX, four), each
 * defining first:
 *   LANES_FORCE   the function's name      LANES   lanes per vector
 *   LANES_ATTR    attributes of its functions (a target, or nothing)
 *   VEC           the vector type          V_LOAD(a)  LANES doubles at a
 *   V_ZERO() V_SET1(d) V_ADD V_SUB V_MUL V_DIV V_SQRT V_AND V_OR V_ANDNOT
 *   V_GT V_GE V_LT V_NEQ  (lane masks)    V_ANY(m)  any lane of m set
 *   V_LANE(v, l)  lane l as a double
 *
 * The function takes the agents index[0 .. LANES-1], all with program p,
 * and their sums laid out as in crowd.c's batch: sums[f * stride + lane]
 * for f = sep.x, sep.y, vel.x, vel.y, off.x, off.y, sep_n, ali_n, coh_n.
 * It returns 0, writing nothing, when a lane needs one of v2_normalize's
 * or v2_clamp's rare branches (hypot, a subnormal ratio): the scalar code
 * does those agents. */

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
