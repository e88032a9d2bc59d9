/* batch_lanes.h - program_batch.c's entries for several agents of a batch
 * at once, one per SIMD lane: the flocking rules' forces from their sums,
 * wander (trig.h's sine and cosine, the forward direction) and the final
 * clamp. Each lane performs the scalar code's operations in its order, so
 * its result is the scalar one bit for bit; lanes that would take a rare
 * branch (hypot, a subnormal ratio, an angle beyond TRIG_REDUCE_MAX) are
 * done by the scalar code.
 *
 * Included by program_batch.c (SSE2, two lanes) and batch_quad.c (AVX,
 * four), each defining first crowd_lanes.h's vocabulary (LANES, VEC,
 * LANES_ATTR, V_LOAD V_STORE V_ZERO V_SET1 V_ADD V_SUB V_MUL V_DIV V_SQRT
 * V_AND V_OR V_ANDNOT V_LE V_GT V_GE V_LT V_EQ) plus V_XOR and V_MASK (the
 * lanes' sign bits as an int), and the functions' names BATCH_FLOCK,
 * BATCH_WANDER, BATCH_CLAMP. Each takes the batch's agents LANES at a
 * time from the first and returns how many it did (a multiple of LANES);
 * the caller does the rest. */

static inline LANES_ATTR VEC lanes_select(VEC mask, VEC yes, VEC no) {
  return V_OR(V_AND(mask, yes), V_ANDNOT(mask, no));
}

/* trig_sincos in every lane; the mask of the lanes beyond its reduction
   (their results wrong). The quadrant k mod 4 from k / 4 less its nearest
   integer: 0, 0.25, +-0.5 or -0.25 for k mod 4 = 0, 1, 2, 3. */
static inline LANES_ATTR int lanes_sincos(VEC t, VEC *sin_t, VEC *cos_t) {
  VEC sign = V_SET1(-0.0), round = V_SET1(TRIG_ROUND);
  VEC within = V_LE(V_ANDNOT(sign, t), V_SET1(TRIG_REDUCE_MAX));
  VEC k = V_SUB(V_ADD(V_MUL(t, V_SET1(TRIG_2_OVER_PI)), round), round);
  VEC a = V_SUB(t, V_MUL(k, V_SET1(TRIG_PIO2_1)));
  VEC b = V_MUL(k, V_SET1(TRIG_PIO2_2));
  VEC hi = V_SUB(a, b), bv = V_SUB(hi, a), av = V_SUB(hi, bv);
  VEC lo = V_SUB(V_SUB(V_SUB(a, av), V_ADD(b, bv)),
                 V_MUL(k, V_SET1(TRIG_PIO2_3)));
  VEC r = V_ADD(hi, lo);
  bv = V_SUB(r, hi);
  av = V_SUB(r, bv);
  VEC r_lo = V_ADD(V_SUB(hi, av), V_SUB(lo, bv));
  VEC z = V_MUL(r, r), hz = V_MUL(V_SET1(0.5), z);
  VEC one = V_SET1(1.0), one_hz = V_SUB(one, hz);
#define LANES_HORNER(acc, c) acc = V_ADD(V_SET1(c), V_MUL(z, acc))
  VEC ps = V_SET1(1.0 / 355687428096000.0);
  LANES_HORNER(ps, -1.0 / 1307674368000.0);
  LANES_HORNER(ps, 1.0 / 6227020800.0);
  LANES_HORNER(ps, -1.0 / 39916800);
  LANES_HORNER(ps, 1.0 / 362880);
  LANES_HORNER(ps, -1.0 / 5040);
  LANES_HORNER(ps, 1.0 / 120);
  LANES_HORNER(ps, -1.0 / 6);
  VEC pc = V_SET1(1.0 / 20922789888000.0);
  LANES_HORNER(pc, -1.0 / 87178291200.0);
  LANES_HORNER(pc, 1.0 / 479001600.0);
  LANES_HORNER(pc, -1.0 / 3628800);
  LANES_HORNER(pc, 1.0 / 40320);
  LANES_HORNER(pc, -1.0 / 720);
  LANES_HORNER(pc, 1.0 / 24);
#undef LANES_HORNER
  VEC s = V_ADD(r, V_ADD(V_MUL(V_MUL(r, z), ps), r_lo));
  VEC c = V_ADD(one_hz, V_ADD(V_SUB(V_SUB(one, one_hz), hz),
                              V_SUB(V_MUL(V_MUL(z, z), pc), V_MUL(r, r_lo))));
  VEC quarter = V_MUL(k, V_SET1(0.25));
  VEC frac = V_SUB(quarter, V_SUB(V_ADD(quarter, round), round));
  VEC half = V_EQ(V_ANDNOT(sign, frac), V_SET1(0.5));
  VEC odd = V_EQ(V_ANDNOT(sign, frac), V_SET1(0.25));
  VEC flip_s = V_OR(half, V_EQ(frac, V_SET1(-0.25)));
  VEC flip_c = V_OR(half, V_EQ(frac, V_SET1(0.25)));
  *sin_t = V_XOR(lanes_select(odd, c, s), V_AND(flip_s, sign));
  *cos_t = V_XOR(lanes_select(odd, s, c), V_AND(flip_c, sign));
  return V_MASK(V_ANDNOT(within, V_EQ(one, one))); /* NaN too */
}

/* flock_force of entry e for agents k .. k + LANES - 1, added to fx, fy
   with its weight; 0, adding nothing, when a lane needs v2_normalize's
   rare branch. */
static inline LANES_ATTR int lanes_flock(const steer_entry *e,
                                         const double *sums, size_t stride,
                                         const batch_agents *a, int k,
                                         double *fx, double *fy) {
  const double *at = sums + k;
  VEC zero = V_ZERO(), rx, ry;
  VEC vx = V_LOAD(a->vx + k), vy = V_LOAD(a->vy + k);
  if (e->behavior == STEER_SEPARATION) { /* sep / n, or 0 */
    VEC n = V_LOAD(at + 6 * stride), has = V_GT(n, zero);
    rx = V_AND(has, V_DIV(V_LOAD(at), n));
    ry = V_AND(has, V_DIV(V_LOAD(at + stride), n));
  } else if (e->behavior == STEER_ALIGNMENT) { /* vel / n - v, or 0 */
    VEC n = V_LOAD(at + 7 * stride), has = V_GT(n, zero);
    rx = V_AND(has, V_SUB(V_DIV(V_LOAD(at + 2 * stride), n), vx));
    ry = V_AND(has, V_SUB(V_DIV(V_LOAD(at + 3 * stride), n), vy));
  } else { /* normalize(off / n) * max_speed - v, or 0 */
    VEC n = V_LOAD(at + 8 * stride), has = V_GT(n, zero);
    VEC cx = V_DIV(V_LOAD(at + 4 * stride), n);
    VEC cy = V_DIV(V_LOAD(at + 5 * stride), n);
    VEC l2 = V_ADD(V_MUL(cx, cx), V_MUL(cy, cy));
    VEC l = V_SQRT(l2);
    VEC unit = V_AND(V_GE(l2, V_SET1(1e-12)), V_GT(l, V_SET1(STEER_EPSILON)));
    if (V_MASK(V_AND(has, V_GE(l2, V_SET1(1e300))))) return 0;
    VEC speed = V_LOAD(a->max_speed + k);
    VEC dx = V_AND(unit, V_MUL(V_DIV(cx, l), speed));
    VEC dy = V_AND(unit, V_MUL(V_DIV(cy, l), speed));
    rx = V_AND(has, V_SUB(dx, vx));
    ry = V_AND(has, V_SUB(dy, vy));
  }
  VEC weight = V_SET1(e->weight);
  V_STORE(fx + k, V_ADD(V_LOAD(fx + k), V_MUL(rx, weight)));
  V_STORE(fy + k, V_ADD(V_LOAD(fy + k), V_MUL(ry, weight)));
  return 1;
}

static LANES_ATTR int BATCH_FLOCK(const steer_world *w, const steer_entry *e,
                                  const size_t *index, int n,
                                  const double *sums, size_t stride,
                                  const batch_agents *a, double *fx,
                                  double *fy) {
  int k = 0;
  if (e->behavior == STEER_SEPARATION && e->falloff == STEER_FALLOFF_LINEAR)
    return 0; /* rare in crowds: the scalar code */
  for (; k + LANES <= n; k += LANES)
    if (!lanes_flock(e, sums, stride, a, k, fx, fy))
      for (int l = k; l < k + LANES; l++) {
        flock_sums s = flock_sums_strided(sums + l, stride);
        steer_vec2 f = flock_force(w, index[l], e, &s);
        fx[l] += f.x * e->weight;
        fy[l] += f.y * e->weight;
      }
  return k;
}

/* The wander forces of the batch's agents, their angles advanced already:
   steer_wander_force's operations (forward: v2_forward's). */
static LANES_ATTR int BATCH_WANDER(const batch_agents *a, const double *angle,
                                   const double *distance,
                                   const double *radius, int n, double weight,
                                   double *fx, double *fy) {
  int k = 0;
  for (; k + LANES <= n; k += LANES) {
    VEC s, c, zero = V_ZERO();
    int rare = lanes_sincos(V_LOAD(angle + k), &s, &c);
    VEC vx = V_LOAD(a->vx + k), vy = V_LOAD(a->vy + k);
    VEC l2 = V_ADD(V_MUL(vx, vx), V_MUL(vy, vy)), l = V_SQRT(l2);
    VEC slow = V_LE(l2, V_SET1(1e-4)); /* forward (1, 0) */
    /* v2_normalize's plain case (l2 > 1e-4 is beyond its small ones) */
    rare |= V_MASK(V_ANDNOT(slow, V_GE(l2, V_SET1(1e300))));
    VEC ux = lanes_select(slow, V_SET1(1), V_DIV(vx, l));
    VEC uy = lanes_select(slow, zero, V_DIV(vy, l));
    VEC d = V_LOAD(distance + k), r = V_LOAD(radius + k);
    VEC ox = V_ADD(V_MUL(ux, d), V_MUL(c, r));
    VEC oy = V_ADD(V_MUL(uy, d), V_MUL(s, r));
    if (rare) { /* seldom: those lanes by the scalar code */
      double out_x[LANES], out_y[LANES];
      V_STORE(out_x, ox);
      V_STORE(out_y, oy);
      for (int q = 0; q < LANES; q++)
        if (rare & (1 << q)) {
          int at = k + q;
          steer_vec2 f = steer_wander_force(v2(a->vx[at], a->vy[at]), angle[at],
                                            distance[at], radius[at]);
          out_x[q] = f.x;
          out_y[q] = f.y;
        }
      ox = V_LOAD(out_x);
      oy = V_LOAD(out_y);
    }
    VEC wt = V_SET1(weight);
    V_STORE(fx + k, V_ADD(V_LOAD(fx + k), V_MUL(ox, wt)));
    V_STORE(fy + k, V_ADD(V_LOAD(fy + k), V_MUL(oy, wt)));
  }
  return k;
}

/* v2_clamp of the batch's sums by their max_force, into out. */
static LANES_ATTR int BATCH_CLAMP(const batch_agents *a, int n,
                                  const double *fx, const double *fy,
                                  steer_vec2 *out) {
  int k = 0;
  for (; k + LANES <= n; k += LANES) {
    VEC x = V_LOAD(fx + k), y = V_LOAD(fy + k), max = V_LOAD(a->max_force + k);
    VEC zero = V_ZERO();
    VEC l2 = V_ADD(V_MUL(x, x), V_MUL(y, y)), m2 = V_MUL(max, max);
    VEC moving = V_OR(V_NEQ(x, zero), V_NEQ(y, zero));
    VEC plain = V_AND(V_AND(V_GT(l2, V_SET1(1e-290)), V_LT(l2, V_SET1(1e300))),
                      V_LT(m2, V_SET1(1e300)));
    VEC cut = V_AND(V_AND(moving, plain), V_GT(l2, m2));
    int rare = V_MASK(V_ANDNOT(plain, moving));
    if (V_MASK(cut)) {
      VEC ratio = V_DIV(max, V_SQRT(l2));
      rare |= V_MASK(V_AND(cut, V_LT(ratio, V_SET1(2.2250738585072014e-308))));
      x = lanes_select(cut, V_MUL(x, ratio), x);
      y = lanes_select(cut, V_MUL(y, ratio), y);
    }
    double ox[LANES], oy[LANES];
    V_STORE(ox, x);
    V_STORE(oy, y);
    for (int q = 0; q < LANES; q++)
      out[k + q] = rare & (1 << q)
                       ? v2_clamp(v2(fx[k + q], fy[k + q]), a->max_force[k + q])
                       : v2(ox[q], oy[q]);
  }
  return k;
}
